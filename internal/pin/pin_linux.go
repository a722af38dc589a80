package pin

import "golang.org/x/sys/unix"

// pinThread pins the current thread to the w-th allowed CPU and returns a function restoring
// the thread's previous affinity.
func pinThread(w int) (restore func(), ok bool) {
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, false
	}
	cpus := make([]int, 0, old.Count())
	for c := 0; c < len(old)*64; c++ {
		if old.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) == 0 {
		return nil, false
	}
	var one unix.CPUSet
	one.Set(cpus[w%len(cpus)])
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		return nil, false
	}
	return func() { unix.SchedSetaffinity(0, &old) }, true
}
