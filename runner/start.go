package runner

import (
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/durable"
)

// StartRun starts a whole run of a study in s.Dir: it locks the directory, and writes there the
// run's manifest (NewManifest, with the agents of game specs pinned). It returns the manifest,
// its path and the unlock; on an error the directory is left unlocked.
func StartRun(s Session, kind string, cfg any, seed uint64, unit string, planned int64, game string, specs ...string) (man *gamefile.Manifest, path string, unlock func(), err error) {
	unlock, err = durable.LockDir(s.Dir)
	if err != nil {
		return nil, "", nil, err
	}
	if man, err = NewManifest(s, kind, cfg, seed, unit, planned); err == nil {
		err = PinAgents(man, s, game, specs...)
	}
	path = filepath.Join(s.Dir, "manifest.json")
	if err == nil {
		err = gamefile.WriteManifest(path, man)
	}
	if err != nil {
		unlock()
		return nil, "", nil, err
	}
	return man, path, unlock, nil
}

// Parallel calls do(local, j) for every j in [0, n) on up to workers goroutines (all cores for
// workers < 1), each with its own local state made by newLocal. Once a call returns false no
// further index is handed out; Parallel reports whether every call returned true. Which
// goroutine does which index is not fixed: do must write its result at j.
func Parallel[L any](n, workers int, newLocal func() L, do func(local L, j int) bool) bool {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := newLocal()
			for {
				j := int(next.Add(1) - 1)
				if j >= n || failed.Load() {
					return
				}
				if !do(local, j) {
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return !failed.Load()
}
