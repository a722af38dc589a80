package runner

import (
	"reflect"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// junkRecord returns a record with every field set to a value no game gives it: a chunk's
// slot that still holds an older chunk's record.
func junkRecord() gamefile.Record {
	var r gamefile.Record
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("junk")
		case reflect.Int, reflect.Int64:
			f.SetInt(-12345)
		case reflect.Uint8, reflect.Uint64:
			f.SetUint(123)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 3, 3))
		default:
			panic("junkRecord: a field of kind " + f.Kind().String())
		}
	}
	return r
}

// PlayInto overwrites the whole slot it is given (a recycled chunk's), leaving exactly the
// record Play returns, for the whole random game and for agents played move by move.
func TestPlayIntoOverwritesSlot(t *testing.T) {
	stop := func() bool { return false }
	for _, c := range []struct {
		game        string
		loop        bool // agents played move by move (playAgents)
		noBranching bool
	}{
		{"katarenga", false, true}, {"katarenga", false, false}, {"katarenga", true, true},
		{"baran", false, false}, {"baran", true, false},
	} {
		gm, err := games.New(c.game, "", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		mc := MatchConfig{Game: c.game, A: "random", B: "random", Games: 6, Seed: 9, NoBranching: c.noBranching}
		m, err := NewMatch(mc, gm)
		if c.loop {
			m, err = NewMatchWith(mc, gm, uniformAgent{c.noBranching}, uniformAgent{c.noBranching})
		}
		if err != nil {
			t.Fatal(err)
		}
		fresh, reused := m.NewWorker(), m.NewWorker()
		for i := range int64(6) {
			want, ok := m.Play(fresh, i, stop)
			if !ok {
				t.Fatalf("%+v game %d: not finished", c, i)
			}
			got := junkRecord()
			if !m.PlayInto(reused, i, stop, &got) {
				t.Fatalf("%+v game %d: PlayInto did not finish", c, i)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v game %d: PlayInto into a used slot:\n%+v\nPlay:\n%+v", c, i, got, want)
			}
		}
	}
}
