//go:build unix

package durable

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// LockName is the lock file a session holds in its directory while it runs.
const LockName = ".fairplay.lock"

// LockDir takes the directory's lock (an advisory flock on dir/.fairplay.lock, released by the
// system when the process ends, even by kill -9) and returns the function that releases it.
// A directory locked by another process is a clear error naming that process. A directory
// holding a symbolic link is refused (gamefile.CheckNoLinks): the lock is never taken through one.
func LockDir(dir string) (func(), error) {
	path := filepath.Join(dir, LockName)
	f, err := gamefile.OpenNoFollow(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		pid := strings.TrimSpace(string(b))
		if pid == "" {
			pid = "unknown"
		}
		return nil, fmt.Errorf("output directory %s is in use by another fairplay process (pid %s); wait for it or stop it first", dir, pid)
	}
	unlock := func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }
	if err := gamefile.CheckNoLinks(dir); err != nil {
		unlock()
		return nil, err
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return unlock, nil
}
