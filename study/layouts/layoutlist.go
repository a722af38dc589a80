package layouts

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
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
	l.sum, _ = writeLayouts(io.Discard, l.Len(), l.Layout)
	return l
}

// writeLayouts writes the canonical text of n layouts to w and returns its SHA-256 (hex).
func writeLayouts(w io.Writer, n int, layout func(int) katarenga.Layout) (string, error) {
	h := sha256.New()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	for i := 0; i < n; i++ {
		bw.WriteString(boardKey(layout(i)))
		bw.WriteByte('\n')
	}
	err := bw.Flush()
	return hex.EncodeToString(h.Sum(nil)), err
}

// scanLayouts reads a layouts file (one layout per line: index, layout string or colour grid;
// blank lines and '#' comments ignored), passing each layout to add.
func scanLayouts(path string, add func(katarenga.Layout)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	count := 0
	for n := 1; sc.Scan(); n++ {
		ln := sc.Text()
		if i := strings.IndexByte(ln, '#'); i >= 0 {
			ln = ln[:i]
		}
		if ln = strings.TrimSpace(ln); ln == "" {
			continue
		}
		l, err := katarenga.DefaultTiles.ParseLayout(ln)
		if err != nil && count == 0 {
			// Not yet seen to be a layouts file: its content (any file, /etc/shadow) is not
			// repeated in the message.
			return fmt.Errorf("%s:%d: not a layout (want an index, a layout string like A00-B00-C00-D00 or a colour grid): is it a layouts file?", path, n)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if count++; count > MaxSweepLayouts {
			return fmt.Errorf("%s: more than %d layouts, the most one sweep takes (peak memory is bounded and measured at that size); split the file into several sweeps", path, MaxSweepLayouts)
		}
		add(l)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// countLines counts the lines of a file (an upper bound on its layouts).
func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n := 1
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
	}
}

// ParseLayoutList reads a layouts file: one layout per line (index, layout string or colour
// grid); blank lines and '#' comments are ignored. The layouts are parsed straight into the
// compact list: no line is kept.
func ParseLayoutList(path string) (*LayoutList, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%q is not all, distinct, sample:N, random:N or a file of layouts, one a line (%v)", path, err)
	}
	n, err := countLines(path)
	if err != nil {
		return nil, err
	}
	out := &LayoutList{boards: make([]sweepBoard, 0, min(n, MaxSweepLayouts))} // sized once: no copies left by growing
	if err := scanLayouts(path, out.add); err != nil {
		return nil, err
	}
	if out.Len() == 0 {
		return nil, fmt.Errorf("%s: no layouts", path)
	}
	out.boards = slices.Clip(out.boards)
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

// LoadList reads a list sweep's list back from dir/layouts.txt (resume, report, merge),
// refusing a missing file or one whose layouts are not those the configuration pins. Other
// sweeps need nothing.
func (cfg *LayoutsConfig) LoadList(dir string) error {
	if cfg.Layouts != "list" || cfg.List != nil {
		return nil
	}
	if cfg.ListSHA256 == "" {
		return fmt.Errorf("%s: the configuration of this list sweep has no list_sha256 (and no list): the manifest is damaged", dir)
	}
	path := filepath.Join(dir, LayoutListFile)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("%s: the sweep's list of %d layouts is missing (%v)", dir, cfg.ListLen, err)
	}
	list, err := ParseLayoutList(path)
	if err != nil {
		return err
	}
	if err := cfg.sameList(path, list.Len(), list.SHA256()); err != nil {
		return err
	}
	cfg.List = list
	return nil
}

// sameList refuses a list file (path) of n layouts and checksum sum that is not the
// configuration's list.
func (cfg *LayoutsConfig) sameList(path string, n int, sum string) error {
	if n != cfg.ListLen || sum != cfg.ListSHA256 {
		return fmt.Errorf("%s: %d layouts, sha256 %.12s; the manifest wants %d layouts, sha256 %.12s (the file was changed)",
			path, n, sum, cfg.ListLen, cfg.ListSHA256)
	}
	return nil
}

// writeListFile writes the list of a list sweep (the sweep's requested layouts, in order) to
// dir/layouts.txt atomically, or, when the file is there (a resumed run), checks it is that
// list (streaming: no second copy of the list is built).
func writeListFile(dir string, cfg LayoutsConfig, layout func(k int) katarenga.Layout) error {
	if cfg.Layouts != "list" {
		return nil
	}
	path := filepath.Join(dir, LayoutListFile)
	if _, err := os.Stat(path); err == nil {
		h := sha256.New()
		n := 0
		if err := scanLayouts(path, func(l katarenga.Layout) {
			n++
			h.Write([]byte(boardKey(l) + "\n"))
		}); err != nil {
			return err
		}
		return cfg.sameList(path, n, hex.EncodeToString(h.Sum(nil)))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return tally.WriteAtomicFunc(path, func(w io.Writer) error {
		sum, err := writeLayouts(w, cfg.ListLen, layout)
		if err == nil && sum != cfg.ListSHA256 {
			err = fmt.Errorf("layouts list: the sweep's layouts (sha256 %.12s) are not the configuration's (%.12s)", sum, cfg.ListSHA256)
		}
		return err
	})
}

// UnmarshalJSON reads a configuration, also one written before lists left the JSON: its
// "list" of layout texts is parsed into List (and pinned by ListSHA256 and ListLen), so an old
// run directory still resumes and reports.
func (cfg *LayoutsConfig) UnmarshalJSON(b []byte) error {
	type plain LayoutsConfig // without this method
	var v struct {
		plain
		List []string `json:"list"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*cfg = LayoutsConfig(v.plain)
	if len(v.List) == 0 {
		return nil
	}
	list := &LayoutList{boards: make([]sweepBoard, 0, len(v.List))}
	for i, s := range v.List {
		l, err := katarenga.DefaultTiles.ParseLayout(s)
		if err != nil {
			return fmt.Errorf("list layout %d: %v", i+1, err)
		}
		list.add(l)
	}
	cfg.SetList(list.seal())
	return nil
}
