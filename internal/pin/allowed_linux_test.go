package pin

import "golang.org/x/sys/unix"

func allowed() ([]int, error) {
	var s unix.CPUSet
	if err := unix.SchedGetaffinity(0, &s); err != nil {
		return nil, err
	}
	var cpus []int
	for c := 0; c < len(s)*64; c++ {
		if s.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
