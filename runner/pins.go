package runner

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/fingerprint"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// PinAgents records in man every distinct agent of specs that plays game (in the order
// given): its spec with every parameter, the fingerprint of its play and the files it reads
// (agents/fingerprint, computed once per process and agent on s.Workers goroutines, or
// GOMAXPROCS). When s resumes a run whose manifest pins its agents, an agent that plays
// differently now (another fingerprint, other files) is refused: the run would mix the games
// of two agents under one name. Errors name the agent.
func PinAgents(man *gamefile.Manifest, s Session, game string, specs ...string) error {
	return PinAgentsStop(man, s, game, nil, specs...)
}

// PinAgentsStop is PinAgents ended early by stop (an interrupted run: nil, never): the run
// then stops before its first game, and the error is nil. The manifest then pins no agent for
// a new run (a resume of it checks nothing against it) and, for a resume, the agents its run
// pinned: those that played its games, which the next resume must still be checked against.
func PinAgentsStop(man *gamefile.Manifest, s Session, game string, stop func() bool, specs ...string) error {
	man.Agents = man.Agents[:0]
	seen := map[string]bool{}
	for _, spec := range specs {
		pin, err := fingerprint.OfStop(game, spec, s.Workers, stop)
		if errors.Is(err, fingerprint.ErrStopped) {
			man.Agents = man.Agents[:0]
			if s.Resume && s.Dir != "" {
				if old, err := gamefile.ReadManifest(filepath.Join(s.Dir, "manifest.json")); err == nil {
					man.Agents = old.Agents
				}
			}
			return nil
		}
		if err != nil {
			return err
		}
		if seen[pin.Spec] {
			continue
		}
		seen[pin.Spec] = true
		man.Agents = append(man.Agents, gamefile.AgentPin(pin))
	}
	if !s.Resume || s.Dir == "" {
		return nil
	}
	old, err := gamefile.ReadManifest(filepath.Join(s.Dir, "manifest.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if err := SamePins(old.Agents, man.Agents, "when the run started", "now"); err != nil {
		return fmt.Errorf("%w: the program or the files it reads changed since the run started (at revision %s), and the run would mix two agents' games under one name; finish it with the program that started it, or start a new run", err, old.VCSRevision)
	}
	return nil
}

// SamePins checks that the agents pinned in now play as those of the same spec and game
// pinned in old: the same fingerprint, the same files and, for a time-budgeted alpha-beta
// whose old pin records them, the same resolved options. An agent in only one of them (a
// manifest of an older version pins none) is not checked. The error names old and now by
// oldName and nowName.
func SamePins(old, now []gamefile.AgentPin, oldName, nowName string) error {
	for _, p := range now {
		for _, q := range old {
			if q.Spec != p.Spec || q.Game != p.Game {
				continue
			}
			if q.Fingerprint != p.Fingerprint || !maps.Equal(q.Files, p.Files) {
				return fmt.Errorf("agent %s plays differently: fingerprint %s %s, %s %s%s",
					agents.ShortSpec(p.Spec), orNone(q.Fingerprint), oldName, orNone(p.Fingerprint), nowName, filesDiff(q.Files, p.Files, oldName, nowName))
			}
			if q.Resolved != "" && q.Resolved != p.Resolved {
				return fmt.Errorf("agent %s plays differently: its options resolve to %s %s, %s %s",
					agents.ShortSpec(p.Spec), q.Resolved, oldName, orNone(p.Resolved), nowName)
			}
		}
	}
	return nil
}

// Repin recomputes the pins of a manifest's agents with this program: what a merge or a
// report written now would record (compare with SamePins).
func Repin(pins []gamefile.AgentPin, workers int) ([]gamefile.AgentPin, error) {
	out := make([]gamefile.AgentPin, len(pins))
	for i, p := range pins {
		pin, err := fingerprint.Of(p.Game, p.Spec, workers)
		if err != nil {
			return nil, err
		}
		out[i] = gamefile.AgentPin(pin)
	}
	return out, nil
}

// orNone is s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// filesDiff describes two pins' files when they differ ("" when they are the same).
func filesDiff(a, b map[string]string, aName, bName string) string {
	if maps.Equal(a, b) {
		return ""
	}
	return fmt.Sprintf("; files %v %s, %v %s", a, aName, b, bName)
}
