package agents

import "fmt"

// ListError says which entry of an agent list (ParseList) is wrong: the Index-th spec (from 0)
// does not parse or does not play the game (Err), or, when Repeats ≥ 0, it is the same agent as
// entry Repeats.
type ListError struct {
	Index   int
	Spec    string
	Repeats int
	Err     error
}

func (e *ListError) Error() string {
	if e.Repeats >= 0 {
		return fmt.Sprintf("entry %d (%s) is entry %d again", e.Index+1, e.Spec, e.Repeats+1)
	}
	return fmt.Sprintf("entry %d (%s): %v", e.Index+1, e.Spec, e.Err)
}

func (e *ListError) Unwrap() error { return e.Err }

// ParseList parses a list of agent specs for game and checks each (Check), returning their
// canonical specs. With distinct, two entries that are the same agent (the same canonical spec)
// are an error. Errors are *ListError; an agent that parsed but cannot play the game has its
// Check error wrapped in a *CheckError.
func ParseList(specs []string, game string, distinct bool) ([]string, error) {
	out := make([]string, len(specs))
	seen := map[string]int{}
	for i, spec := range specs {
		a, err := Parse(spec)
		if err != nil {
			return nil, &ListError{Index: i, Spec: spec, Repeats: -1, Err: err}
		}
		if err := Check(a, game); err != nil {
			return nil, &ListError{Index: i, Spec: spec, Repeats: -1, Err: &CheckError{err}}
		}
		out[i] = a.Spec()
		if j, ok := seen[out[i]]; ok && distinct {
			return nil, &ListError{Index: i, Spec: spec, Repeats: j}
		}
		seen[out[i]] = i
	}
	return out, nil
}

// CheckError wraps an error of Check in a ParseList error: the spec parsed, but the agent cannot
// play the game.
type CheckError struct{ Err error }

func (e *CheckError) Error() string { return e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }
