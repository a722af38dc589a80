// Package pin binds the calling goroutine to one OS thread and that thread to one CPU, so that a
// CPU-bound worker keeps its caches the way a single-threaded process does. It is a measurement
// aid for in-process scaling (fairplay bench -pin); on systems without CPU affinity it only
// reports that it cannot pin.
package pin

import "runtime"

// Worker locks the calling goroutine to its OS thread and pins the thread to the w-th CPU of the
// process's allowed set (wrapping around), returning a function that undoes both. ok is false
// where pinning is not available; the goroutine is then left as it was.
func Worker(w int) (undo func(), ok bool) {
	runtime.LockOSThread()
	restore, ok := pinThread(w)
	if !ok {
		runtime.UnlockOSThread()
		return func() {}, false
	}
	return func() {
		restore()
		runtime.UnlockOSThread()
	}, true
}
