// Package engine is the small game-agnostic contract that agents and experiments use: a game
// position that lists its legal actions into a caller-supplied buffer, applies and undoes them,
// reports whether the game is over and why, hashes itself and speaks a text notation.
//
// The rules themselves live in the sub-packages engine/baran and engine/katarenga; the package
// engine/games names them and builds them from strings.
package engine

import "fmt"

// Action is one complete turn, encoded by the game that produced it. An Action is only
// meaningful for the position whose Legal list contained it.
type Action uint64

// Player is a colour index: 0 is the first colour of the game (Baran Red, Katarenga White),
// 1 the second (Baran Black, Katarenga Black).
type Player int8

// NoPlayer marks a draw or an unfinished game in Status.Winner.
const NoPlayer Player = -1

// Other returns the opponent of p.
func (p Player) Other() Player { return 1 - p }

// Reason says why a game ended.
type Reason uint8

// The end reasons of both games, plus Forfeit for an agent that failed to produce a legal action.
const (
	Ongoing  Reason = iota // the game goes on
	Throne                 // Baran: a king stepped onto the enemy throne
	Camps                  // Katarenga: a player occupies both enemy camps
	Material               // Katarenga: a player has fewer than two pawns left
	NoMove                 // the player to move had no legal action (or both passed in a row)
	Cap                    // the ply cap was reached: a draw by cap
	Forfeit                // an agent crashed, timed out or answered an illegal action
)

var reasonNames = [...]string{"", "throne", "camps", "material", "no-move", "cap", "forfeit"}

// String returns the reason's name as used in CSV files ("" for Ongoing).
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// ParseReason is the inverse of Reason.String for the end reasons.
func ParseReason(s string) (Reason, error) {
	for i, n := range reasonNames {
		if i > 0 && n == s {
			return Reason(i), nil
		}
	}
	return Ongoing, fmt.Errorf("unknown end reason %q (want throne, camps, material, no-move, cap or forfeit)", s)
}

// Status is the result of a position: whether the game is over, who won (NoPlayer for a draw)
// and why.
type Status struct {
	Over   bool
	Winner Player
	Reason Reason
}

// State is a mutable game position with an undo history. It is not safe for concurrent use;
// every game gets its own State (see Clone).
type State interface {
	// Game names the game: "baran" or "katarenga".
	Game() string
	// ToMove is the player whose turn it is.
	ToMove() Player
	// Ply is the number of plies played so far (as in the position notation).
	Ply() int
	// Status reports whether the game is over, checking the end conditions in the order the
	// rules give.
	Status() Status
	// Legal appends every distinct legal action to buf[:0] and returns it. It returns an empty
	// list when the game is over. It allocates only if buf is too small.
	Legal(buf []Action) []Action
	// Apply plays a legal action. Applying an action that Legal did not list is undefined.
	Apply(a Action)
	// Undo takes back the last applied action. It reports false when there is nothing to undo.
	Undo() bool
	// Hash is a 64-bit Zobrist hash of everything that affects legal play.
	Hash() uint64
	// Clone returns an independent copy (with an empty undo history).
	Clone() State
	// Reset returns to the position the state was created or parsed with, clearing the
	// history, without allocating.
	Reset()
	// String prints the position in the game's notation.
	String() string
	// FormatAction prints a legal action of this position in the game's notation.
	FormatAction(a Action) string
	// ParseAction reads an action in the game's notation and checks that it is legal here.
	ParseAction(s string) (Action, error)
	// Rules prints the rules in force, canonical name=value form.
	Rules() string
}

// Stats are game-specific counters a runner can record per game. Every State implements it.
type Stats interface {
	// Counters lists the names of the game-specific counters, in a fixed order.
	CounterNames() []string
	// Counters returns the counters for the game played so far, in CounterNames order.
	Counters(dst []int64) []int64
}

// RandomChooser is an optional fast path: a State that can pick a uniformly random legal action
// without building the list. It must choose with exactly the distribution of picking uniformly
// from Legal. ok is false when the game is over.
type RandomChooser interface {
	RandomAction(r *Rand) (a Action, ok bool)
}

// LegalPicker is an optional fast path for uniformly random agents: a State that returns
// Legal(buf)[r.IntN(len)] and len — the same action from the same single draw — without
// building the list. ok is false when Legal would be empty.
type LegalPicker interface {
	PickLegal(r *Rand) (a Action, n int, ok bool)
}

// Tactical is implemented by States that can tell captures apart (for move ordering and
// quiescence search).
type Tactical interface {
	IsCapture(a Action) bool
}

// MaxActions bounds the number of legal actions in any position of either game, so that a buffer
// of this size never reallocates.
const MaxActions = 4096

// RecordedPlayer is an optional fast path for a runner's games between two uniformly random
// agents: a State that plays the whole game itself, exactly as the runner's loop of PickLegal
// (LegalPicker), AppendAction (ActionAppender) and Apply would — the same draws, the same
// actions, the same notation — with no interface call and no undo history per ply.
type RecordedPlayer interface {
	// PlayRecorded plays from the current position to the end of the game (or until g.Stop
	// says so) and reports whether the game ended. Every ply draws from g.Opening while
	// Ply() < g.OpeningPlies, else from g.Rand[ToMove()], as PickLegal would (RandomAction,
	// when g.Sample is set); it appends the action's notation to g.Moves (a space before every
	// action but the first appended by this call) and adds PickLegal's legal count to g.Legal
	// (nothing, when g.Sample is set). The plies it plays cannot be undone (the undo history is
	// left as it was); Ply, Status and the Stats counters see them.
	PlayRecorded(g *RecordedGame) (ended bool)
}

// RecordedGame is RecordedPlayer.PlayRecorded's input and output.
type RecordedGame struct {
	Rand         [2]*Rand    // each colour's stream, indexed by Player
	Opening      *Rand       // the stream of the plies before OpeningPlies
	OpeningPlies int         // plies with Ply() below it draw from Opening
	Stop         func() bool // polled every 64 plies (the first ply included); nil: never
	Moves        []byte      // the actions in notation are appended here
	Legal        int64       // the legal counts of the plies played are added here
	// Sample draws every ply with the game's RandomAction (RandomChooser: uniform over the
	// legal actions, by rejection, without counting them) instead of PickLegal: a different
	// but equally uniform stream of games, and Legal is left as it was.
	Sample bool
	// Raw, when the game supports it (Baran; others ignore it), appends every action to Moves
	// as 8 bytes (the Action, little-endian, no separator) instead of its notation, for a
	// caller that writes the notation later by replaying the game from its start (Baran's
	// AppendNotation). The runner no longer does (its workers write the notation); tests and
	// tools that store games compactly may.
	Raw bool
}
