//go:build !unix

package durable

import "github.com/fairplay-lab/fairplay/gamefile"

// LockName is the lock file a session holds in its directory while it runs.
const LockName = ".fairplay.lock"

// LockDir does not lock where flock is not available; it still refuses a directory holding a
// symbolic link (gamefile.CheckNoLinks).
func LockDir(dir string) (func(), error) {
	if err := gamefile.CheckNoLinks(dir); err != nil {
		return nil, err
	}
	return func() {}, nil
}
