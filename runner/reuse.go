package runner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// Reuse: the runs of a study may repeat a match another of its runs has already played (a
// variants run's baseline cells are the cells of another run's baseline; two runs share a
// level). A reproducible match's games are a pure function of its configuration, seed and
// game index, given the program that plays them, so such a match need not be played twice:
// under WithReuse, RunMatch copies the games file of a complete match that the same executable
// played with the same configuration, range and agents, re-reads it as a resumed run reads its
// games (any game missing from it is played), then writes its own summary, plots and
// manifest, which names the source (reused_from).

type reuseKey struct{}

// reuseIndex finds complete matches under its roots by configuration hash. The roots are walked
// once, at the first lookup; matches completed later in this process are added as they end.
type reuseIndex struct {
	roots []string
	walk  sync.Mutex // held for the whole walk: a match looking up meanwhile waits for it
	built bool       // under walk
	mu    sync.Mutex
	dirs  map[string][]string // config_sha256 → directories of complete matches; under mu
}

// WithReuse returns ctx under which RunMatch, before it plays a whole reproducible match into
// a directory that holds no games yet, looks under roots for a complete match it would repeat
// and reuses its games (see findReusable); every match it runs records the executable's
// SHA-256 (build_sha256), which reuse requires to be equal. fairplay study passes its
// directory.
func WithReuse(ctx context.Context, roots ...string) context.Context {
	return context.WithValue(ctx, reuseKey{}, &reuseIndex{roots: slices.Clone(roots), dirs: map[string][]string{}})
}

// reuseOf returns the index ctx carries (WithReuse), or nil.
func reuseOf(ctx context.Context) *reuseIndex {
	r, _ := ctx.Value(reuseKey{}).(*reuseIndex)
	return r
}

// buildID is the SHA-256 of the running executable ("" when it cannot be read: then nothing is
// reused). The same executable plays a configuration the same way; a rebuilt one may not,
// even from the same revision, since the revision a manifest records can be "-dirty" or
// "unknown", and an agent's fingerprint covers its moves, not the rules or the runner.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// add records the complete match in dir under its configuration hash.
func (x *reuseIndex) add(hash, dir string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !slices.Contains(x.dirs[hash], dir) {
		x.dirs[hash] = append(x.dirs[hash], dir)
	}
}

// build walks the roots once, indexing every complete match manifest (regular files only; the
// roots themselves may be links, as CheckNoLinks allows). It stops early when ctx ends.
// Matches that look up while it walks (a tournament's pairings run side by side) wait for the
// whole index rather than search a part of it.
func (x *reuseIndex) build(ctx context.Context) {
	x.walk.Lock()
	defer x.walk.Unlock()
	if x.built {
		return
	}
	x.built = true
	for _, root := range x.roots {
		_ = filepath.WalkDir(root+string(filepath.Separator), func(path string, d fs.DirEntry, err error) error {
			if ctx.Err() != nil {
				return fs.SkipAll
			}
			if err != nil {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.Name() != "manifest.json" || !d.Type().IsRegular() {
				return nil
			}
			if c, err := gamefile.ReadManifest(path); err == nil && c.Kind == MatchKind && c.Status == "complete" {
				x.add(c.ConfigSHA256, filepath.Clean(filepath.Dir(path)))
			}
			return nil
		})
	}
}

// findReusable returns the directory, other than dir, of a complete match whose games are the
// games man's run is about to play: a complete, reproducible, whole (unsharded, not stopped
// early) match of the same configuration hash and game range, played by the same executable
// (build_sha256), with the same agents (each pinned by a fingerprint, with the same expanded
// spec, files and resolved options), whose games file is a regular file in the given format
// (and, for Parquet, codec). The first found is returned; "" when there is none. Unreadable
// candidates are passed over: reuse only saves work, and a match not found is played.
func (x *reuseIndex) findReusable(ctx context.Context, dir string, man *gamefile.Manifest, format gamefile.Format, codec gamefile.Codec) string {
	if man.BuildSHA256 == "" || !man.Reproducible || man.Shards != 1 || !pinned(man.Agents) {
		return ""
	}
	x.build(ctx)
	self, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	x.mu.Lock()
	cands := slices.Clone(x.dirs[man.ConfigSHA256])
	x.mu.Unlock()
	for _, cand := range cands {
		if abs, err := filepath.Abs(cand); err != nil || abs == self {
			continue
		}
		if c, err := gamefile.ReadManifest(filepath.Join(cand, "manifest.json")); err == nil && sameMatch(c, man) && hasGames(cand, format, codec) {
			return cand
		}
	}
	return ""
}

// sameMatch says whether the complete run c played the games man's run would play.
func sameMatch(c, man *gamefile.Manifest) bool {
	return c.Kind == MatchKind && c.Status == "complete" && !c.StoppedEarly && c.Reproducible &&
		c.Shards == 1 && c.ConfigSHA256 == man.ConfigSHA256 && c.FirstGame == man.FirstGame &&
		c.EndGame == man.EndGame && c.Completed == man.EndGame-man.FirstGame &&
		c.BuildSHA256 != "" && c.BuildSHA256 == man.BuildSHA256 &&
		slices.EqualFunc(c.Agents, man.Agents, samePin)
}

// pinned says whether every agent has a fingerprint (an agent without one may play otherwise
// in another build or with other files, so its games are not reused).
func pinned(pins []gamefile.AgentPin) bool {
	if len(pins) == 0 {
		return false
	}
	for _, p := range pins {
		if p.Fingerprint == "" || p.Unpinned != "" {
			return false
		}
	}
	return true
}

func samePin(a, b gamefile.AgentPin) bool {
	return a.Game == b.Game && a.Spec == b.Spec && a.Expanded == b.Expanded && a.Fingerprint == b.Fingerprint &&
		a.Fingerprint != "" && a.Unpinned == "" && a.Resolved == b.Resolved && maps.Equal(a.Files, b.Files)
}

// hasGames says whether dir's games file is a regular file in format (and Parquet's codec).
func hasGames(dir string, format gamefile.Format, codec gamefile.Codec) bool {
	path, f, err := gamefile.FindGames(dir)
	if err != nil || f != format {
		return false
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	if format == gamefile.Parquet {
		c, err := RunCodec(dir, format)
		return err == nil && c == codec
	}
	return true
}

// startReuse prepares a match's directory before it plays: under reuse, a directory with no
// games yet gets the games of the match it would repeat (true: they are to be read as a
// resumed run's); a resumed directory that was filled so keeps naming its source in man.
func startReuse(ctx context.Context, reuse *reuseIndex, s Session, man *gamefile.Manifest, format gamefile.Format) (bool, error) {
	if reuse == nil && !s.Resume {
		return false, nil
	}
	fresh, err := noGamesYet(s.Dir)
	if err != nil {
		return false, err
	}
	if !fresh {
		if old, err := gamefile.ReadManifest(filepath.Join(s.Dir, "manifest.json")); err == nil && s.Resume {
			man.ReusedFrom = old.ReusedFrom // stopped after the copy, before its manifest was complete
		}
		return false, nil
	}
	if reuse == nil || s.Stop != nil {
		return false, nil
	}
	src := reuse.findReusable(ctx, s.Dir, man, format, cmp.Or(s.Codec, gamefile.Snappy))
	if src == "" {
		return false, nil
	}
	ok, err := reuseGames(src, s.Dir, format.FileName(), man)
	if err != nil {
		return false, err
	}
	if s.Stderr != nil && ok {
		fmt.Fprintf(s.Stderr, "%s: the same match as %s (configuration, seed, agents, executable): its games are copied, not played again\n", s.Dir, src)
	} else if s.Stderr != nil {
		fmt.Fprintf(s.Stderr, "%s: the games of %s could not be read; the match is played\n", s.Dir, src)
	}
	return ok, nil
}

// noGamesYet says whether dir holds no games file, finished or being written.
func noGamesYet(dir string) (bool, error) {
	if _, _, err := gamefile.FindGames(dir); err == nil {
		return false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	for _, f := range gamefile.Formats {
		if _, err := os.Stat(filepath.Join(dir, f.FileName()+".tmp")); err == nil {
			return false, nil
		}
	}
	return true, nil
}

// reuseGames copies src's games file (name) into dir: the manifest, naming the source, is
// written first, then the copy is renamed into place, so that a run killed in between is
// resumed knowing where its games came from. An error reading the source returns false and
// leaves dir as it was (the match is then played); an error writing dir is returned.
func reuseGames(src, dir, name string, man *gamefile.Manifest) (bool, error) {
	in, err := gamefile.OpenNoFollow(filepath.Join(src, name), os.O_RDONLY, 0)
	if err != nil {
		return false, nil
	}
	defer in.Close()
	tmp := filepath.Join(dir, "."+name+".reuse")
	out, err := gamefile.CreateExcl(tmp)
	if err != nil {
		return false, err
	}
	fail := func(err error) (bool, error) {
		out.Close()
		os.Remove(tmp)
		return false, err
	}
	if _, err := io.Copy(out, readerOnly{in}); err != nil {
		var rerr readErr
		if errors.As(err, &rerr) {
			return fail(nil) // the source, not this run, failed: play the match
		}
		return fail(fmt.Errorf("reusing the games of %s: %w", src, err))
	}
	if err := out.Sync(); err != nil {
		return fail(err)
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return false, err
	}
	man.ReusedFrom = relFrom(dir, src)
	if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
		os.Remove(tmp)
		return false, err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return false, err
	}
	return true, nil
}

// readerOnly wraps a source's read errors as readErr, so that io.Copy's error says which side
// failed.
type readerOnly struct{ r io.Reader }

type readErr struct{ error }

func (r readerOnly) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = readErr{err}
	}
	return n, err
}

// relFrom returns target relative to dir, or target itself when it has none.
func relFrom(dir, target string) string {
	a, err1 := filepath.Abs(dir)
	b, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return target
	}
	if r, err := filepath.Rel(a, b); err == nil {
		return r
	}
	return b
}
