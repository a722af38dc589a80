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

// Tactical is implemented by States that can tell captures apart (for move ordering and
// quiescence search).
type Tactical interface {
	IsCapture(a Action) bool
}

// MaxActions bounds the number of legal actions in any position of either game, so that a buffer
// of this size never reallocates.
const MaxActions = 4096

// Fast is the optional fast path of a State for the runner, which both engines implement: random
// play without building legal lists, notation without allocating, and whole random games inside
// the engine. Each method gives exactly what the plain path (Legal, FormatAction, Apply) gives:
// the same action from the same draw, the same text. A State without it is played through the
// plain path alone.
type Fast interface {
	// PickLegal returns Legal(buf)[r.IntN(len)] and len, the same action from the same single
	// draw, without building the list; ok is false when Legal would be empty.
	PickLegal(r *Rand) (a Action, n int, ok bool)
	// RandomAction picks a uniformly random legal action by rejection, without counting them: a
	// different but equally uniform stream of actions than PickLegal's. ok is false when the
	// game is over.
	RandomAction(r *Rand) (a Action, ok bool)
	// AppendAction appends FormatAction(a) to dst without allocating.
	AppendAction(dst []byte, a Action) []byte
	// PlayRecorded plays from the current position to the end of the game (or until g.Stop
	// says so) and reports whether the game ended, exactly as a loop of PickLegal (RandomAction
	// when g.Sample is set), AppendAction and Apply would. Every ply draws from g.Opening while
	// Ply() < g.OpeningPlies, else from g.Rand[ToMove()]; it appends the action's notation to
	// g.Moves (a space before every action but the first appended by this call) and adds
	// PickLegal's legal count to g.Legal (nothing, when g.Sample is set). The plies it plays
	// cannot be undone (the undo history is left as it was); Ply, Status and the Stats
	// counters see them.
	PlayRecorded(g *RecordedGame) (ended bool)
}

// RecordedGame is Fast.PlayRecorded's input and output.
type RecordedGame struct {
	Rand         [2]*Rand    // each colour's stream, indexed by Player
	Opening      *Rand       // the stream of the plies before OpeningPlies
	OpeningPlies int         // plies with Ply() below it draw from Opening
	Stop         func() bool // polled every 64 plies (the first ply included); nil: never
	Moves        []byte      // the actions in notation are appended here
	Legal        int64       // the legal counts of the plies played are added here
	// Sample draws every ply with RandomAction (uniform over the legal actions, by rejection,
	// without counting them) instead of PickLegal: a different but equally uniform stream of
	// games, and Legal is left as it was.
	Sample bool
}
