package experiments

import (
	"bufio"
	"os"
)

// tempFile writes a result file under path+".tmp" through a buffer; Commit puts it in place.
// Results are never half-written under their real name.
type tempFile struct {
	*bufio.Writer
	path string
	f    *os.File
	done bool
}

func createTemp(path string) (*tempFile, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	return &tempFile{Writer: bufio.NewWriterSize(f, 1<<16), path: path, f: f}, nil
}

// Commit flushes and closes the file and renames it over path.
func (t *tempFile) Commit() error {
	t.done = true
	if err := t.Flush(); err != nil {
		t.f.Close()
		return err
	}
	if err := t.f.Close(); err != nil {
		return err
	}
	return os.Rename(t.path+".tmp", t.path)
}

// Abort closes an uncommitted file (its temporary name stays, for inspection); after Commit it
// does nothing.
func (t *tempFile) Abort() {
	if !t.done {
		t.f.Close()
	}
}
