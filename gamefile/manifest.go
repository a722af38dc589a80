package gamefile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Manifest describes a run: what was asked, by which tool, and how it went. It is the only
// output that holds host- and time-dependent facts.
type Manifest struct {
	Tool           string          `json:"tool"`
	ToolVersion    string          `json:"tool_version"`
	GoVersion      string          `json:"go_version"`
	VCSRevision    string          `json:"vcs_revision"`
	Command        string          `json:"command"`
	Kind           string          `json:"kind"`           // what the run is: a match, a layout sweep, a tournament, ...
	Schema         int             `json:"schema_version"` // SchemaVersion when written
	Config         json.RawMessage `json:"config"`
	ConfigSHA256   string          `json:"config_sha256"`
	Seed           string          `json:"seed"`
	Shard          int             `json:"shard"`
	Shards         int             `json:"shards"`
	FirstGame      int64           `json:"first_game"`
	EndGame        int64           `json:"end_game"` // one past the last game of this shard
	Unit           string          `json:"unit"`     // what planned and completed count: games or boards
	Planned        int64           `json:"planned_games"`
	Completed      int64           `json:"completed_games"`
	Status         string          `json:"status"`                  // complete, interrupted, or running (also a killed run)
	StoppedEarly   bool            `json:"stopped_early,omitempty"` // a sequential test ended the run before its planned games
	Reproducible   bool            `json:"reproducible"`
	Started        time.Time       `json:"started"`
	Ended          time.Time       `json:"ended"`
	Seconds        float64         `json:"seconds"`
	GamesPerSecond float64         `json:"games_per_second"`
	PliesPerSecond float64         `json:"plies_per_second"`
	Workers        int             `json:"workers"`
	GOMAXPROCS     int             `json:"gomaxprocs"`
	PeakRSSBytes   int64           `json:"peak_rss_bytes"`
	Host           string          `json:"host"`
	Outputs        []string        `json:"outputs"`
	// ParquetCodec is the codec of a Parquet games file ("snappy" or "zstd"), so that a resumed
	// run continues in it; absent for other formats, and in runs of versions that wrote
	// Zstandard only.
	ParquetCodec string `json:"parquet_codec,omitempty"`
	// Agents pins every agent that plays in the run (none in a run that plays no game): its
	// spec with every parameter, the fingerprint of its play and the files it reads.
	Agents []AgentPin `json:"agents,omitempty"`
	// ReusedFrom, in a match that did not play its games but copied them from a complete match
	// that played exactly them (the same configuration, seed, agents and executable; fairplay
	// study reuses its runs' matches so), is that match's directory, relative to this run's.
	ReusedFrom string `json:"reused_from,omitempty"`
	// BuildSHA256 is the SHA-256 of the executable that ran a study's match (recorded under
	// runner.WithReuse, so not with study -no-reuse): a match is reused only from one the same
	// executable played.
	BuildSHA256 string `json:"build_sha256,omitempty"`
	// Checkpoint, while a run is running (and after it was killed), says how much of its
	// temporary output is complete; nil once the run ended.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// AgentPin is what a manifest records of one agent (agents/fingerprint computes it): the game
// it plays, its canonical spec, the spec with every parameter, the fingerprint of its play
// ("v1:" and 64 hex digits: the SHA-256 of the moves it chooses in the version's fixed
// positions of the game), or, for an agent without one, why (Unpinned), and the SHA-256 of the
// files it reads whose content the spec does not pin, by parameter ("weights", "net").
type AgentPin struct {
	Game        string            `json:"game"`
	Spec        string            `json:"spec"`
	Expanded    string            `json:"expanded"`
	Fingerprint string            `json:"fingerprint,omitempty"`
	Unpinned    string            `json:"unpinned,omitempty"`
	Files       map[string]string `json:"files,omitempty"`
	// Resolved: a time-budgeted alpha-beta's auto options as it played them (agents.Resolved).
	Resolved string `json:"resolved,omitempty"`
}

// Checkpoint is a complete prefix of a running session's temporary output file: its first
// Bytes bytes hold Items whole items (games or boards) in index order, with the old items of a
// resumed run merged in.
type Checkpoint struct {
	File  string `json:"file"`
	Bytes int64  `json:"bytes"`
	Items int64  `json:"items"`
	// CRC32C is the CRC-32C (Castagnoli) of those Bytes bytes, 8 hex digits: a resumed run
	// refuses a file whose checkpointed rows changed. A checksum, not a cryptographic hash: it
	// guards against damage and edits, not against someone who also rewrites the manifest
	// (they could rewrite any hash there); and it is cheap next to the run (the CPU's CRC
	// instruction), where SHA-256 is several times slower on CPUs without SHA extensions.
	// Empty in checkpoints of older versions (not checked).
	CRC32C string `json:"crc32c,omitempty"`
}

// NewCheckpoint is the checkpoint of a file whose complete prefix is data, holding items items.
func NewCheckpoint(file string, data []byte, items int64) *Checkpoint {
	return &Checkpoint{File: file, Bytes: int64(len(data)), Items: items, CRC32C: CRC32CText(crc32.Checksum(data, Castagnoli))}
}

// Castagnoli is the CRC-32C table of checkpoints.
var Castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32CText writes a checkpoint's CRC-32C as it is stored.
func CRC32CText(sum uint32) string { return fmt.Sprintf("%08x", sum) }

// ErrDamaged marks a run directory that cannot be resumed, merged or reported as it is: its
// manifest disagrees with itself or with the files beside it (edited or damaged).
var ErrDamaged = errors.New("the run directory was edited or damaged")

// CheckConfig checks the stored configuration against the stored hash of it: a manifest whose
// configuration was edited (a seed changed by hand) is refused, as resuming it would mix two
// configurations' items in one file.
func (m *Manifest) CheckConfig() error {
	var b bytes.Buffer
	if err := json.Compact(&b, m.Config); err != nil {
		return fmt.Errorf("manifest.json: config: %w", err)
	}
	sum := sha256.Sum256(b.Bytes())
	if got := hex.EncodeToString(sum[:]); got != m.ConfigSHA256 {
		return fmt.Errorf("manifest.json: the stored config hashes to %.12s, config_sha256 says %.12s: %w (restore the original config, or start a new run)", got, m.ConfigSHA256, ErrDamaged)
	}
	return nil
}

// ToolVersion is the toolkit's version.
const ToolVersion = "0.1.0"

// HashConfig returns the canonical JSON of a configuration and its SHA-256 in hex.
func HashConfig(cfg any) (json.RawMessage, string, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:]), nil
}

// SchemaVersion is the version of the manifest's fields. 2 added Kind; a manifest of version 1
// (no schema_version) has its kind inferred when read (ReadManifest). 3 added Agents, 4
// ReusedFrom and BuildSHA256.
const SchemaVersion = 4

// NewManifest fills the tool and host facts of a run of the given kind.
func NewManifest(kind string, args []string) *Manifest {
	m := &Manifest{Tool: "fairplay", ToolVersion: ToolVersion, GoVersion: runtime.Version(), Unit: "games",
		Kind: kind, Schema: SchemaVersion,
		VCSRevision: "unknown", Command: CommandLine(args), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	m.VCSRevision = revisionOnce()
	m.Host, _ = os.Hostname()
	return m
}

// Revision, when set at link time (go build -ldflags "-X
// github.com/fairplay-lab/fairplay/gamefile.Revision=$(git rev-parse HEAD)"), is the source
// revision recorded in manifests.
var Revision string

// revisionOnce is vcsRevision, looked up once per process (a study makes many manifests).
var revisionOnce = sync.OnceValue(func() string { return vcsRevision(Revision) })

// vcsRevision finds the source revision of the running binary: linked (Revision), else
// the revision Go stamped into the build (go build and go install in a checkout, "-dirty" when
// the tree had changes), else, for go run and builds with -buildvcs=false, the HEAD of the git
// checkout of this module that holds the working directory; "unknown" when nothing works.
func vcsRevision(linked string) string {
	if linked != "" {
		return linked
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if dirty {
				rev += "-dirty"
			}
			return rev
		}
	}
	if rev := gitRevision(); rev != "" {
		return rev
	}
	return "unknown"
}

// gitRevision is `git rev-parse HEAD` (with "-dirty" for uncommitted changes to tracked files)
// when the working directory is inside a git checkout of this module, else "".
func gitRevision() string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	top, err := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return ""
	}
	mod, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(top)), "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module github.com/fairplay-lab/fairplay\n") {
		return "" // another project's checkout: its HEAD says nothing about this binary
	}
	head, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	rev := strings.TrimSpace(string(head))
	if err := exec.CommandContext(ctx, "git", "diff", "--quiet", "HEAD").Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			rev += "-dirty"
		}
	}
	return rev
}

// PeakRSS returns the process's peak resident set size in bytes (Linux VmHWM), or the Go
// runtime's total obtained memory elsewhere.
func PeakRSS() int64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, ln := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(ln, "VmHWM:") {
				f := strings.Fields(ln)
				if len(f) >= 2 {
					if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
						return kb * 1024
					}
				}
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys)
}

// WriteManifest writes manifest.json (indented).
func WriteManifest(path string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// ReadManifest reads manifest.json.
func ReadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Kind == "" && m.Schema < 2 {
		// Written before manifests had a kind: the studies' configurations said it, a
		// match's said nothing.
		var c struct {
			Kind string `json:"kind"`
		}
		m.Kind = "match"
		if json.Unmarshal(m.Config, &c) == nil && c.Kind != "" {
			m.Kind = c.Kind
		}
	}
	return &m, nil
}

// WriteFileAtomic writes data to a temporary file beside path and renames it into place: path
// holds the old content or the new, never a part. On error (a full disk) the temporary file is
// removed and path is unchanged.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(f *os.File) error { _, err := f.Write(data); return err })
}

// WriteAtomic writes path through write into a temporary file beside it, then renames it
// into place; on error it removes the temporary file. The temporary file's name is made by the
// system (O_EXCL): a link planted in the directory is never written through, and two
// processes writing the same path never share a temporary file.
func WriteAtomic(path string, write func(*os.File) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	err = f.Chmod(0o644) // as os.Create would (CreateTemp makes 0600)
	if err == nil {
		err = write(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
