package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
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
	Status         string          `json:"status"`                  // complete or interrupted
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

// NewManifest fills the tool and host facts.
func NewManifest(args []string) *Manifest {
	m := &Manifest{Tool: "fairplay", ToolVersion: ToolVersion, GoVersion: runtime.Version(), Unit: "games",
		VCSRevision: "unknown", Command: strings.Join(args, " "), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				m.VCSRevision = s.Value
			}
		}
	}
	m.Host, _ = os.Hostname()
	return m
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
	return &m, nil
}

// WriteFileAtomic writes data to a temporary file beside path and renames it into place.
func WriteFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
