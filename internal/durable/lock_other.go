//go:build !unix

package durable

// LockName is the lock file a session holds in its directory while it runs.
const LockName = ".fairplay.lock"

// LockDir does not lock where flock is not available: it returns a function that does nothing.
func LockDir(dir string) (func(), error) { return func() {}, nil }
