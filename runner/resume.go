package runner

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// recoverCheckpoint folds a checkpointed temporary output (left by a killed run, recorded in
// dir's manifest.json) into the output file dir/name before a resume: the temporary file is cut to its checkpointed length,
// its items and those of path (both in index order; an index in both is kept once) are merged
// into path atomically, and the temporary file is removed. Without a checkpoint it does
// nothing (a stale temporary file is overwritten by the resumed run).
func RecoverCheckpoint[R any](dir, name string, open func(string) (FileSource[R], error),
	index func(*R) int64, create func(w io.Writer) (write func(*R) error, flush func() error, err error)) error {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil // no manifest: nothing was checkpointed
	}
	path := filepath.Join(dir, name)
	ck := man.Checkpoint
	tmp := path + ".tmp"
	if ck == nil || ck.File != filepath.Base(tmp) {
		return nil
	}
	st, err := os.Lstat(tmp)
	if err != nil || ck.Bytes <= 0 {
		return nil
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s): refusing to recover through it", tmp, st.Mode().Type())
	}
	if st.Size() < ck.Bytes {
		return fmt.Errorf("%s: %d bytes, its checkpoint says %d: the file was damaged", tmp, st.Size(), ck.Bytes)
	}
	tf, err := gamefile.OpenNoFollow(tmp, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = checkPrefix(tf, tmp, ck)
	if err == nil {
		err = tf.Truncate(ck.Bytes)
	}
	if cerr := tf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	var srcs []FileSource[R]
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, p := range []string{tmp, path} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		s, err := open(p)
		if err != nil {
			return err
		}
		srcs = append(srcs, s)
	}
	out := path + ".recovered"
	f, err := gamefile.CreateExcl(out)
	if err != nil {
		return err
	}
	defer os.Remove(out)
	bw := bufio.NewWriter(f)
	write, flush, err := create(bw)
	if err != nil {
		f.Close()
		return err
	}
	heads := make([]*R, len(srcs))
	next := func(i int) error {
		r, err := srcs[i].Read()
		if err == io.EOF {
			heads[i] = nil
			return nil
		}
		heads[i] = r
		return err
	}
	var recovered int64 // items read from tmp
	read := func(i int) error {
		err := next(i)
		if i == 0 && heads[0] != nil {
			recovered++
		}
		return err
	}
	for i := range srcs {
		if err := read(i); err != nil {
			f.Close()
			return fmt.Errorf("recovering %s: %w", tmp, err)
		}
	}
	for {
		k := -1
		for i, h := range heads {
			if h != nil && (k < 0 || index(h) < index(heads[k])) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		if err := write(heads[k]); err != nil {
			f.Close()
			return err
		}
		at := index(heads[k])
		for i := range heads { // the same item in both files is written once
			for heads[i] != nil && index(heads[i]) == at {
				if err := read(i); err != nil {
					f.Close()
					return fmt.Errorf("recovering %s: %w", tmp, err)
				}
			}
		}
	}
	if recovered != ck.Items {
		f.Close()
		return fmt.Errorf("%s: %d items in its checkpointed bytes, the checkpoint says %d: %w", tmp, recovered, ck.Items, gamefile.ErrDamaged)
	}
	if err := flush(); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(out, path); err != nil {
		return err
	}
	return os.Remove(tmp)
}

// checkPrefix checks the checkpointed prefix of a temporary file before it is recovered: it
// ends at a row's end, and its bytes have the checkpoint's CRC-32C (when it has one).
func checkPrefix(f *os.File, name string, ck *gamefile.Checkpoint) error {
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, ck.Bytes-1); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if last[0] != '\n' {
		return fmt.Errorf("%s: its checkpoint (%d bytes) ends inside a row: %w", name, ck.Bytes, gamefile.ErrDamaged)
	}
	if ck.CRC32C == "" {
		return nil // written by a version that did not hash its checkpoints
	}
	h := crc32.New(gamefile.Castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, ck.Bytes)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if got := gamefile.CRC32CText(h.Sum32()); got != ck.CRC32C {
		return fmt.Errorf("%s: its first %d bytes changed since the checkpoint (CRC-32C %s, the checkpoint says %s): %w", name, ck.Bytes, got, ck.CRC32C, gamefile.ErrDamaged)
	}
	return nil
}

// fileSource is a Source read from a file.
type FileSource[R any] interface {
	Source[R]
	Close() error
}

// resumePlan builds the plan of a resumed run from the items already in path (if it exists):
// they must lie in [start, end) once each. It returns the plan, the number of items found and a
// function that closes the re-opened file of old items.
func ResumePlan[R any](path string, open func(string) (FileSource[R], error), index func(*R) int64, start, end int64) (PlanOf[R], int64, func(), error) {
	plan := PlanOf[R]{Start: start, End: end}
	if _, err := os.Stat(path); err != nil {
		return plan, 0, func() {}, nil
	}
	plan.Done = NewBitset(end - start)
	src, err := open(path)
	if err != nil {
		return plan, 0, nil, err
	}
	var n int64
	for r, err := range gamefile.All(src.Read) {
		if err != nil {
			src.Close()
			return plan, 0, nil, fmt.Errorf("%s: %w", path, err)
		}
		if i := index(r); i < start || i >= end || plan.Done.Has(i-start) {
			src.Close()
			return plan, 0, nil, fmt.Errorf("%s: item %d is outside this run or repeated", path, i)
		}
		plan.Done.Set(index(r) - start)
		n++
	}
	src.Close()
	old, err := open(path)
	if err != nil {
		return plan, 0, nil, err
	}
	plan.Old = old
	return plan, n, func() { old.Close() }, nil
}

// Concat reads the item files of a run's shards, given in shard order, and hands every item to
// each in index order, checking that the indices run from 0 with every item exactly once: a
// repeated or a missing item is an error naming the file (both files, for an item missing
// between two) and the item (unit: "game", "board").
// It returns the number of items read. Merging shards is this, then a check of the count.
func Concat[R any](files []string, open func(string) (FileSource[R], error), index func(*R) int64, unit string, each func(*R) error) (int64, error) {
	next := int64(0)
	prev := "" // the file of item next−1
	for _, path := range files {
		src, err := open(path)
		if err != nil {
			return next, err
		}
		first := true
		for r, err := range gamefile.All(src.Read) {
			if err != nil {
				src.Close()
				return next, fmt.Errorf("%s: %w", path, err)
			}
			if i := index(r); i != next {
				src.Close()
				if i < next {
					return next, fmt.Errorf("%s: %s %d appears twice", path, unit, i)
				}
				if first && prev != "" { // either file may be the one cut short
					return next, fmt.Errorf("%s %d is missing: %s ends at %s %d, and %s starts at %s %d", unit, next, prev, unit, next-1, path, unit, i)
				}
				return next, fmt.Errorf("%s: %s %d is missing", path, unit, next)
			}
			next++
			prev, first = path, false
			if err := each(r); err != nil {
				src.Close()
				return next, err
			}
		}
		src.Close()
	}
	return next, nil
}

// RecordedGames is how many games of [start, end) the manifest of the run in dir records as
// played (0 without one for that range): what a resumed run there keeps, as far as its
// manifest tells before the run opens. A display of several runs' progress starts from it; each
// run, once open, counts its games file (Progress.Start).
func RecordedGames(dir string, start, end int64) int64 {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || man.FirstGame != start || man.EndGame != end {
		return 0
	}
	return min(max(man.Completed, 0), end-start)
}
