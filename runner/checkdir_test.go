package runner

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
)

// Two runs started into one new directory: each either takes it or is told it is not empty,
// never a stray error about the other's write probe.
func TestCheckDirConcurrent(t *testing.T) {
	for range 20 {
		dir := filepath.Join(t.TempDir(), "out")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = CheckDir(dir)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, ErrDirNotEmpty) {
				t.Fatalf("CheckDir: %v", err)
			}
		}
	}
}
