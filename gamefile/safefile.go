package gamefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A run directory may be shared (a cluster file system, a directory passed between people):
// nothing written into it follows a symbolic link planted there. New files are created with
// O_EXCL (which never follows a link, not even a dangling one), temporary names of atomic writes
// are made by the system, and existing files are opened with O_NOFOLLOW where the system has it.

// CreateExcl creates path anew for reading and writing: a file or link already under that name
// (a stale temporary file of a killed run, or a planted link) is removed first, never followed
// or truncated.
func CreateExcl(path string) (*os.File, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
}

// OpenNoFollow opens an existing path with the given flags (os.O_CREATE is allowed: a new file
// is made), refusing a symbolic link in its last element.
func OpenNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	f, err := os.OpenFile(path, flag|oNoFollow, perm)
	if err != nil && isLoop(err) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
	}
	return f, err
}

// ErrSymlink is the error for a symbolic link where a run keeps its own files.
var ErrSymlink = errors.New("is a symbolic link: fairplay does not write through links in a run directory (remove it)")

// CheckNoLinks refuses a run directory holding a symbolic link anywhere below it: a link
// planted where a run writes (games.csv.tmp, the lock, a report) could make it write a file
// outside the directory. The directory itself may be a link.
func CheckNoLinks(dir string) error {
	root := dir + string(filepath.Separator) // a directory reached through a link is walked
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if p != root && d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("run directory %s: %s %w", dir, p, ErrSymlink)
		}
		return nil
	})
}
