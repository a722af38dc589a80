package stats

import "sync"

// FoldChunks computes something over chunks 0 … n−1 of some data in parallel, in a fixed order:
// part(c, a) adds chunk c into an accumulator a (reset by reset first), on up to len(accs)
// goroutines at once, each with an accumulator of its own, and fold(a) takes the accumulators
// in chunk order. A floating-point sum folded chunk by chunk is then the same whatever the
// number of accumulators: it depends only on how the data is cut into chunks. The chunks are
// taken len(accs) at a time (a round waits for its slowest chunk: chunks of equal size keep
// the goroutines busy). The first error in chunk order, of part or of fold, ends it.
func FoldChunks[A any](n int, accs []A, reset func(a *A), part func(c int, a *A) error, fold func(a *A) error) error {
	w := len(accs)
	if w == 0 && n > 0 {
		panic("stats: FoldChunks without accumulators")
	}
	errs := make([]error, w)
	for lo := 0; lo < n; lo += w {
		hi := min(lo+w, n)
		run := func(c int) {
			a := &accs[c-lo]
			reset(a)
			errs[c-lo] = part(c, a)
		}
		if hi-lo == 1 {
			run(lo)
		} else {
			var wg sync.WaitGroup
			for c := lo; c < hi; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					run(c)
				}()
			}
			wg.Wait()
		}
		for c := lo; c < hi; c++ {
			if errs[c-lo] != nil {
				return errs[c-lo]
			}
			if err := fold(&accs[c-lo]); err != nil {
				return err
			}
		}
	}
	return nil
}
