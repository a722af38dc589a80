//go:build linux

package durable

import (
	"bytes"
	"hash/crc32"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/fairplay-lab/fairplay/gamefile"
	"golang.org/x/sys/unix"
)

// A TempFile of five drop-behind windows, written half in order and half by queued writes,
// holds every byte, and the first three windows have left the page cache (mincore) by the time
// Commit returns: on a disk file system (tmpfs keeps its pages; the test then checks the bytes
// only). With drop-behind starting after three windows, the first call catches up (window by
// window) and the first six of eight windows leave the cache.
func TestDropBehind(t *testing.T) {
	t.Parallel()
	for _, start := range []int64{0, 3} {
		testDropBehind(t, start)
	}
}

func testDropBehind(t *testing.T, startWindows int64) {
	windows := startWindows + 5
	dir := t.TempDir()
	path := filepath.Join(dir, "games.csv")
	// Any start up to one window (zero is the default) begins with the first window.
	tf, err := CreateTemp(path, Options{DropStart: max(1, startWindows*dropWindow)})
	if err != nil {
		t.Fatal(err)
	}
	if tf.Q == nil {
		t.Fatal("the temporary file takes no queued writes")
	}
	var want []byte
	block := make([]byte, 300<<10)
	for i := 0; int64(len(want)) < windows*dropWindow; i++ {
		for k := range block {
			block[k] = byte(i*7 + k)
		}
		want = append(want, block...)
		if i%2 == 0 {
			if _, err := tf.Write(block); err != nil {
				t.Fatal(err)
			}
		} else {
			rows := bytes.Clone(block)
			if _, err := tf.WriteAsync(rows, crc32.Checksum(rows, gamefile.Castagnoli), nil); err != nil {
				t.Fatal(err)
			}
			tf.Q.Run() // as a worker would
		}
	}
	// Commit skips the windows still queued (stop): let the goroutine handle them all first.
	if tf.db.sent < 5 {
		t.Fatalf("start %d: %d windows given to the drop-behind goroutine, want 5", startWindows, tf.db.sent)
	}
	for deadline := time.Now().Add(20 * time.Second); tf.db.handled.Load() < tf.db.sent; {
		if time.Now().After(deadline) {
			t.Fatalf("the drop-behind goroutine handled %d of %d windows in 20 s", tf.db.handled.Load(), tf.db.sent)
		}
		time.Sleep(time.Millisecond)
	}
	if err := tf.Commit(); err != nil {
		t.Fatal(err)
	}
	// The cache first (reading the file brings its pages back).
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err == nil && fs.Type != unix.TMPFS_MAGIC {
		if resident, pages := cachedPages(t, path, int(windows-2)*dropWindow); resident > pages/10 {
			t.Errorf("start %d: %d of the first %d windows' %d pages are still cached: drop-behind did not drop them", startWindows, resident, windows-2, pages)
		}
	} else {
		t.Log("tmpfs (or unknown) file system: pages are not dropped there; only the bytes are checked")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("file of %d bytes differs from the %d written", len(got), len(want))
	}
}

// cachedPages returns how many of the first n bytes' pages of the file are in the page cache
// (mincore on a mapping, which reads nothing), and how many pages that is.
func cachedPages(t *testing.T, path string, n int) (resident, pages int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := unix.Mmap(int(f.Fd()), 0, n, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, n/os.Getpagesize())
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	for _, v := range vec {
		resident += int(v & 1)
	}
	return resident, len(vec)
}
