package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Action layouts read here (the engines' action encodings, documented in their packages):
// Katarenga from = bits 0..5, to = bits 6..12 (64.. are the camps); Baran from = bits 45..50,
// to = 51..56, removal + 1 = 57..62.
const (
	katRank1 = uint64(0xFF)
	katRank8 = uint64(0xFF) << 56
)

// tactics classifies the moves of one game for quiescence, ordering and extensions.
type tactics struct {
	kat *katarenga.State
	bar *baran.State
	tac engine.Tactical
}

func newTactics(s engine.State) tactics {
	t := tactics{}
	t.tac, _ = s.(engine.Tactical)
	t.kat, _ = s.(*katarenga.State)
	t.bar, _ = s.(*baran.State)
	return t
}

// capture reports whether a is a capture.
func (t *tactics) capture(a engine.Action) bool { return t.tac != nil && t.tac.IsCapture(a) }

// threat reports whether a (a legal action of the side to move) creates an immediate threat to
// win: a Katarenga pawn reaching the enemy baseline (one move from a camp) or entering a camp,
// a Baran king stepping next to (or onto) the enemy throne.
func (t *tactics) threat(a engine.Action) bool {
	switch {
	case t.kat != nil:
		if a == katarenga.Pass {
			return false
		}
		to := int(a >> 6 & 127)
		if to >= 64 {
			return true
		}
		base := katRank8
		if t.kat.ToMove() == 1 {
			base = katRank1
		}
		return base&(1<<to) != 0
	case t.bar != nil:
		return t.barThreat(a)
	}
	return false
}

// removal reports whether a Baran action removes a warrior under the huff rule.
func (t *tactics) removal(a engine.Action) bool {
	return t.bar != nil && a != baran.Pass && a>>57&63 != 0
}

// barThreat is threat in Baran: the king of the side to move stepping onto the enemy throne or
// one of its two entries (baranTab.threatZone).
func (t *tactics) barThreat(a engine.Action) bool {
	if a == baran.Pass {
		return false
	}
	me := t.bar.ToMove()
	return t.bar.King(me) == int(a>>45&63) && baranTab.threatZone[me]>>(a>>51&63)&1 != 0
}

// tactical reports whether quiescence searches a: captures, huff removals and threats.
func (t *tactics) tactical(a engine.Action) bool {
	if t.bar != nil { // the same tests without the interface call (Baran's captures: bits 0..44)
		return a != baran.Pass && (a&(1<<45-1) != 0 || a>>57&63 != 0 || t.barThreat(a))
	}
	return t.capture(a) || t.removal(a) || t.threat(a)
}
