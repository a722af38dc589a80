package durable

import (
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// checkpointed makes games.csv's temporary file in a fresh directory, with a checkpointer that
// checkpoints only when asked (Add), aborted when the test ends.
func checkpointed(t *testing.T) (string, *TempFile, *Checkpointer) {
	t.Helper()
	dir := t.TempDir()
	tf, err := CreateTemp(filepath.Join(dir, "games.csv"), Options{CheckpointEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tf.Abort() })
	ck, err := NewCheckpointer(dir, tf, func() error { return nil }, &gamefile.Manifest{Unit: "games"})
	if err != nil {
		t.Fatal(err)
	}
	return dir, tf, ck
}

// readCheckpoint reads dir's manifest, the temporary file's bytes and the CRC-32C of the
// checkpointed prefix, computed here from the bytes.
func readCheckpoint(t *testing.T, dir string) (*gamefile.Manifest, []byte, string) {
	t.Helper()
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "games.csv.tmp"))
	if man.Checkpoint.Bytes > int64(len(data)) {
		t.Fatalf("checkpoint of %d bytes in a file of %d", man.Checkpoint.Bytes, len(data))
	}
	return man, data, gamefile.CRC32CText(crc32.Checksum(data[:man.Checkpoint.Bytes], gamefile.Castagnoli))
}

// Each checkpoint records the CRC-32C of the file's checkpointed prefix, also across later
// checkpoints (the running hash reads on from the last one).
func TestCheckpointHash(t *testing.T) {
	dir, tf, ck := checkpointed(t)
	for i, row := range []string{"a,1\n", "b,22\n", "c,333\n"} {
		tf.WriteString(row)
		if err := ck.Add(false); err != nil {
			t.Fatal(err)
		}
		man, data, sum := readCheckpoint(t, dir)
		if man.Checkpoint.Items != int64(i+1) || man.Checkpoint.Bytes != int64(len(data)) || man.Checkpoint.CRC32C != sum {
			t.Fatalf("checkpoint %d: %+v for %q", i, man.Checkpoint, data)
		}
	}
}

// A link planted under the temporary name is removed, never written through.
func TestCreateTempNoFollow(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	path := filepath.Join(dir, "games.csv")
	os.Symlink(victim, path+".tmp")
	tf, err := CreateTemp(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tf.WriteString("rows\n")
	if err := tf.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("victim now %q", b)
	}
	if b, _ := os.ReadFile(path); string(b) != "rows\n" {
		t.Fatalf("games.csv %q", b)
	}
	unlock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	os.Symlink(victim, filepath.Join(dir, "report.html"))
	if _, err := LockDir(dir); err == nil || !errors.Is(err, gamefile.ErrSymlink) {
		t.Fatalf("LockDir of a directory holding a link: %v", err)
	}
}

// A checkpoint's CRC-32C covers queued writes as well as buffered ones, in file order, however
// the queued writes are done (here by another goroutine, as a run's workers do them), and
// matches the bytes in the file.
func TestCheckpointHashQueued(t *testing.T) {
	dir, tf, ck := checkpointed(t)
	if tf.Q == nil {
		t.Fatal("no queued writes on a plain file")
	}
	helper := make(chan struct{})
	go func() { // a worker doing queued writes between its chunks
		defer close(helper)
		for i := 0; i < 2000; i++ {
			tf.Q.Run()
		}
	}()
	for i := 0; i < 40; i++ {
		tf.WriteString("header,")
		rows := []byte{}
		for k := 0; k <= i%7; k++ {
			rows = append(rows, byte('a'+i%26), byte('0'+k), '\n')
		}
		if _, err := tf.WriteAsync(rows, crc32.Checksum(rows, gamefile.Castagnoli), nil); err != nil {
			t.Fatal(err)
		}
		if i%3 != 0 {
			continue
		}
		if err := ck.Add(false); err != nil {
			t.Fatal(err)
		}
		man, data, sum := readCheckpoint(t, dir)
		if man.Checkpoint.Bytes != int64(len(data)) || man.Checkpoint.CRC32C != sum {
			t.Fatalf("write %d: checkpoint %+v, file of %d bytes with CRC-32C %s", i, man.Checkpoint, len(data), sum)
		}
	}
	<-helper
}
