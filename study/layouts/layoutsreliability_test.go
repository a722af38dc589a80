package layouts

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// A layout sweep checkpoints too: a full disk, then -resume, ends with the bytes of an
// uninterrupted sweep.
func TestSweepFullDiskResumes(t *testing.T) {
	t.Parallel()
	sw := sweep(t, LayoutsConfig{Layouts: "sample:12", Games: 4, Seed: 3})
	ref := t.TempDir()
	runSweep(t, sw, ref, 2, runner.Shard{Index: 0, Count: 1}, false)
	dir := t.TempDir()
	full := durable.Options{CheckpointEvery: -1, Wrap: func(path string, w io.Writer) io.Writer {
		if strings.HasSuffix(path, "boards.csv") {
			return &diskFull{w: w, limit: 900}
		}
		return w
	}}
	_, err := RunLayouts(context.Background(), sw, runner.Session{Dir: dir, Workers: 2, Shard: runner.Shard{Index: 0, Count: 1}, Durable: full})
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("full disk: %v", err)
	}
	runSweep(t, sw, dir, 2, runner.Shard{Index: 0, Count: 1}, true)
	for _, f := range []string{"boards.csv", "layouts.csv"} {
		if !bytes.Equal(read(t, filepath.Join(dir, f)), read(t, filepath.Join(ref, f))) {
			t.Errorf("%s after a full disk and resume differs from an uninterrupted sweep's", f)
		}
	}
}

// The reports of a full sweep (every tile layout) allocate little: no matrix of boards × 193
// colour indicators (the dense design and its weighted copy made 354 MB of allocations, now about 210).
func TestFullSweepReportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("derives the reports of 98,304 boards")
	}
	sw := sweep(t, LayoutsConfig{Layouts: "all", Games: 20, Seed: 1})
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	r := engine.NewRand(7)
	for i := 0; i < sw.NumBoards(); i++ {
		l := sw.Board(i)
		w := int64(r.IntN(21))
		boards[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(l), Grid: l.Grid.String(), N: 20, WhiteWins: w, BlackWins: 20 - w}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep, _, err := WriteLayoutReports(t.TempDir(), sw, boards)
	runtime.ReadMemStats(&after)
	if err != nil || !rep.EffectsFitted {
		t.Fatalf("reports: %v (effects fitted %v)", err, rep != nil && rep.EffectsFitted)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 280 {
		t.Errorf("the reports allocated %d MB, want at most 280 (354 with the dense design)", mb)
	} else {
		t.Logf("the reports allocated %d MB", mb)
	}
}

// diskFull fails every write after limit bytes with ENOSPC.
type diskFull struct {
	w     io.Writer
	limit int
}

func (d *diskFull) Write(p []byte) (int, error) {
	if len(p) > d.limit {
		n, _ := d.w.Write(p[:d.limit])
		d.limit = 0
		return n, syscall.ENOSPC
	}
	d.limit -= len(p)
	return d.w.Write(p)
}
