package experiments

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/results"
)

// LayoutListFile is the sidecar of a list sweep's (or ladder's) directory: the canonical list,
// one layout a line, written once before the first game. The manifest pins it by its SHA-256.
const LayoutListFile = "layouts.txt"

// LayoutList is a list of layouts held compactly (some 20 bytes a layout: a placement index or
// a grid packed to 2 bits a square). Its canonical text is one layout a line, each as its
// placement index or (custom boards) its colour grid; ParseLayout reads every line back to the
// same layout. A list is not changed once built: sweeps and ladder levels share it.
type LayoutList struct {
	boards []sweepBoard
	odd    map[int]katarenga.Layout // layouts that sweepBoard does not reproduce
	sum    string                   // SHA-256 of the canonical text, hex
}

// Len is the number of layouts.
func (l *LayoutList) Len() int { return len(l.boards) }

// Layout returns layout i.
func (l *LayoutList) Layout(i int) katarenga.Layout {
	if x, ok := l.odd[i]; ok {
		return x
	}
	return l.boards[i].layout()
}

// SHA256 is the hex SHA-256 of the list's canonical text.
func (l *LayoutList) SHA256() string { return l.sum }

func (l *LayoutList) add(x katarenga.Layout) {
	b := packLayout(x)
	if b.layout() != x {
		if l.odd == nil {
			l.odd = map[int]katarenga.Layout{}
		}
		l.odd[len(l.boards)] = x
	}
	l.boards = append(l.boards, b)
}

// seal computes the checksum once the list is complete.
func (l *LayoutList) seal() *LayoutList {
	h := sha256.New()
	l.write(h)
	l.sum = hex.EncodeToString(h.Sum(nil))
	return l
}

// write writes the canonical text.
func (l *LayoutList) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for i := range l.boards {
		bw.WriteString(boardKey(l.Layout(i)))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ParseLayoutList reads a layouts file: one layout per line (index, layout string or colour
// grid); blank lines and '#' comments are ignored. The layouts are parsed straight into the
// compact list: no line is kept.
func ParseLayoutList(path string) (*LayoutList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%q is not all, distinct, sample:N, random:N or a file of layouts, one a line (%v)", path, err)
	}
	defer f.Close()
	out := &LayoutList{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		ln := sc.Text()
		if i := strings.IndexByte(ln, '#'); i >= 0 {
			ln = ln[:i]
		}
		if ln = strings.TrimSpace(ln); ln == "" {
			continue
		}
		l, err := katarenga.DefaultTiles.ParseLayout(ln)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		out.add(l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if out.Len() == 0 {
		return nil, fmt.Errorf("%s: no layouts", path)
	}
	return out.seal(), nil
}

// SetList makes the configuration a list sweep of list.
func (cfg *LayoutsConfig) SetList(list *LayoutList) {
	cfg.Layouts, cfg.List, cfg.ListSHA256, cfg.ListLen = "list", list, list.SHA256(), list.Len()
}

// checkList makes sure a list sweep's list is loaded and is the one its configuration pins.
func (cfg *LayoutsConfig) checkList() error {
	if cfg.List == nil {
		return fmt.Errorf("layouts list of %d layouts (sha256 %.12s) not loaded: it is read from the run directory's %s", cfg.ListLen, cfg.ListSHA256, LayoutListFile)
	}
	if cfg.ListSHA256 == "" && cfg.ListLen == 0 { // set by hand: pin it now
		cfg.ListSHA256, cfg.ListLen = cfg.List.SHA256(), cfg.List.Len()
	}
	if cfg.List.Len() != cfg.ListLen || cfg.List.SHA256() != cfg.ListSHA256 {
		return fmt.Errorf("layouts list: %d layouts, sha256 %.12s; the configuration wants %d layouts, sha256 %.12s",
			cfg.List.Len(), cfg.List.SHA256(), cfg.ListLen, cfg.ListSHA256)
	}
	return nil
}

// LoadList reads a list sweep's list back from dir/layouts.txt (resume, -report, merge),
// refusing a missing file or one whose layouts are not those the configuration pins. Other
// sweeps need nothing.
func (cfg *LayoutsConfig) LoadList(dir string) error {
	if cfg.Layouts != "list" || cfg.List != nil {
		return nil
	}
	if cfg.ListSHA256 == "" {
		return fmt.Errorf("%s: the configuration of this list sweep has no list_sha256 (made by an older fairplay that kept the list in manifest.json): play it again", dir)
	}
	path := filepath.Join(dir, LayoutListFile)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("%s: the sweep's list of %d layouts is missing (%v)", dir, cfg.ListLen, err)
	}
	list, err := ParseLayoutList(path)
	if err != nil {
		return err
	}
	if list.Len() != cfg.ListLen || list.SHA256() != cfg.ListSHA256 {
		return fmt.Errorf("%s: %d layouts, sha256 %.12s; the manifest wants %d layouts, sha256 %.12s (the file was changed)",
			path, list.Len(), list.SHA256(), cfg.ListLen, cfg.ListSHA256)
	}
	cfg.List = list
	return nil
}

// writeListFile writes the list of a list sweep (the sweep's requested layouts, in order) to
// dir/layouts.txt atomically, or, when the file is there (a resumed run), checks it is that list.
func writeListFile(dir string, cfg LayoutsConfig, layout func(k int) katarenga.Layout) error {
	if cfg.Layouts != "list" {
		return nil
	}
	path := filepath.Join(dir, LayoutListFile)
	if _, err := os.Stat(path); err == nil {
		c := cfg
		c.List = nil
		return c.LoadList(dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	list := &LayoutList{boards: make([]sweepBoard, 0, cfg.ListLen)}
	for k := 0; k < cfg.ListLen; k++ {
		list.add(layout(k))
	}
	if list.seal().SHA256() != cfg.ListSHA256 {
		return fmt.Errorf("layouts list: the sweep's layouts (sha256 %.12s) are not the configuration's (%.12s)", list.SHA256(), cfg.ListSHA256)
	}
	return results.WriteAtomicFunc(path, list.write)
}
