package durable

import (
	"testing"
	"time"
)

// The zero Options are production behaviour: checkpoints at most every 2 s, drop-behind from
// 512 MiB; a negative interval checkpoints after every item.
func TestOptionsDefaults(t *testing.T) {
	t.Parallel()
	var o Options
	if got := o.checkpointEvery(); got != 2*time.Second {
		t.Errorf("zero Options checkpoint every %v, want 2s", got)
	}
	if got := o.dropStart(); got != 512<<20 {
		t.Errorf("zero Options start drop-behind at %d bytes, want 512 MiB", got)
	}
	o = Options{CheckpointEvery: -1, DropStart: 3}
	if o.checkpointEvery() >= 0 || o.dropStart() != 3 {
		t.Errorf("Options %+v: checkpoint every %v, drop-behind from %d", o, o.checkpointEvery(), o.dropStart())
	}
}
