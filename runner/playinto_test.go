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

// A run's chunks (ChunkWorker, EndChunk): PlayInto overwrites recycled slots whole, also the
// slot of a game stopped mid-chunk, which the next chunk reuses; the records come out as Play's.
func TestPlayIntoChunkSlots(t *testing.T) {
	never := func() bool { return false }
	for _, c := range []struct {
		game string
		loop bool // agents played move by move (playAgents)
	}{
		{"katarenga", false}, {"katarenga", true}, {"baran", false}, {"baran", true},
	} {
		gm, err := games.New(c.game, "", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		mc := MatchConfig{Game: c.game, A: "random", B: "random", Games: 6, Seed: 9}
		m, err := NewMatch(mc, gm)
		if c.loop {
			m, err = NewMatchWith(mc, gm, uniformAgent{}, uniformAgent{})
		}
		if err != nil {
			t.Fatal(err)
		}
		var want []gamefile.Record
		for i := range int64(6) {
			rec, ok := m.Play(m.NewWorker(), i, never)
			if !ok {
				t.Fatalf("%+v game %d: not finished", c, i)
			}
			want = append(want, rec)
		}
		slots := make([]gamefile.Record, 6)
		for k := range slots {
			slots[k] = junkRecord()
		}
		w := m.ChunkWorker()
		// The first chunk is stopped at the second poll of game 3 (mid-game, unless it ended
		// before that poll; then at game 4's first), as runBatched plays a chunk.
		armed, polls := false, 0
		stop := func() bool {
			if armed {
				polls++
			}
			return polls >= 2
		}
		n := 0
		for i := range int64(6) {
			armed = i == 3
			if !m.PlayInto(w, i, stop, &slots[n]) {
				break
			}
			n++
		}
		if n < 3 || n > 4 {
			t.Fatalf("%+v: the stopped chunk kept %d games, want 3 or 4", c, n)
		}
		m.EndChunk(w, slots[:n], nil)
		if !reflect.DeepEqual(slots[:n], want[:n]) {
			t.Fatalf("%+v: the stopped chunk's records differ from Play's", c)
		}
		// The next chunk replays the rest from game n into the same slots (the stopped game's
		// partly written one among them).
		for i := int64(n); i < 6; i++ {
			if !m.PlayInto(w, i, never, &slots[i-int64(n)]) {
				t.Fatalf("%+v game %d: PlayInto did not finish", c, i)
			}
		}
		m.EndChunk(w, slots[:6-n], nil)
		if !reflect.DeepEqual(slots[:6-n], want[n:]) {
			t.Fatalf("%+v: the recycled chunk's records differ from Play's:\n%+v\nPlay:\n%+v", c, slots[:6-n], want[n:])
		}
	}
}
