package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

// TestDefaultPGO checks that default.pgo, the profile go build uses for this package, is a CPU
// profile (a gzipped pprof protobuf whose sample types are CPU samples) of the four default
// agents' play, as pgo.sh makes it: the searches and both engines must appear in it, else the
// profile guides the build away from what users run. Function names are plain strings in the
// profile's string table (github.com/google/pprof, proto/profile.proto).
func TestDefaultPGO(t *testing.T) {
	raw, err := os.ReadFile("default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("default.pgo: not gzipped: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("default.pgo: %v", err)
	}
	s := string(b)
	for _, want := range []string{
		"cpu", "nanoseconds", // the sample type of runtime/pprof's CPU profiles
		"github.com/fairplay-lab/fairplay/agents.(*abPlayer).search",
		"github.com/fairplay-lab/fairplay/agents.(*abPlayer).quiesce",
		"github.com/fairplay-lab/fairplay/agents.(*mctsPlayer).selectChild",
		"github.com/fairplay-lab/fairplay/agents/nnue.(*Evaluator).Evaluate",
		"github.com/fairplay-lab/fairplay/engine/katarenga.(*State).",
		"github.com/fairplay-lab/fairplay/engine/baran.(*State).",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("default.pgo does not mention %s: rebuild it with cmd/fairplay/pgo.sh", want)
		}
	}
}
