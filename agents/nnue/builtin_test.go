package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestBuiltinVersions: every shipped version of each game's network loads as that game's
// network, re-encodes to its embedded file byte for byte, and is recorded by the SHA-256 of that
// file; versions differ from each other; every shipped version's file is pinned, and a new
// version must be pinned (a spec naming net=builtin or net=builtin<v> keeps its meaning);
// version 1 is net=builtin; versions not shipped are refused.
func TestBuiltinVersions(t *testing.T) {
	// The shipped files, version 1 first, as docs/studies/published.json records them.
	pinned := map[string][]string{
		"katarenga": {
			"ee6635cb76503fe3e6236a35b4aae42e6b9ff1f8d374bc31e62e4297250b5f7e",
			"fef45926a75d7fc6da594f9f090a7b2ea11a76ebdc2ab845e73c003fee3a43d9",
			"fbf05008c324262538d84005d6c911e3cfe9147d94a168e78316da13cbfd381e",
			"c5d84d86516e5041b9489627b2af3c6cea646a74d10f38a8a88ab5861ac8ce23",
			"ce8f08a023e1a1b48e8c84270d17c2278475d45f2f4e2f9defed8df7c500714b",
			"140565d31cb3fa00d75afe5d0e6ef525af1539f38efca56910022df6eb35d173",
		},
		"baran": {"07e14944bb6d34583056b50a7b73e263e915c6ddecb18dfa43eac52ed0fa4040"},
	}
	for game, sums := range pinned {
		if got, err := BuiltinSHA256(game); err != nil || got != sums[0] {
			t.Errorf("net=builtin of %s has SHA-256 %s (%v), want %s: a shipped version's file must not change", game, got, err, sums[0])
		}
		for i, want := range sums {
			if got, err := BuiltinVersionSHA256(game, i+1); err != nil || got != want {
				t.Errorf("version %d of %s has SHA-256 %s (%v), want %s: a shipped version's file must not change", i+1, game, got, err, want)
			}
		}
		if latest := LatestBuiltin(game); latest != len(sums) {
			t.Errorf("%s ships %d versions, %d are pinned: pin the new one's SHA-256 here", game, latest, len(sums))
		}
	}
	for _, game := range []string{"baran", "katarenga"} {
		latest := LatestBuiltin(game)
		if latest < 1 {
			t.Fatalf("%s: no built-in network", game)
		}
		seen := map[string]int{}
		for v := 1; v <= latest; v++ {
			n, err := BuiltinVersion(game, v)
			if err != nil || n.Game != game {
				t.Fatalf("%s version %d: %v", game, v, err)
			}
			raw, err := nets.ReadFile(builtinFile(game, v))
			if err != nil {
				t.Fatal(err)
			}
			enc, err := n.MarshalBinary()
			if err != nil || !bytes.Equal(enc, raw) {
				t.Errorf("%s version %d: does not re-encode to its file (%v)", game, v, err)
			}
			sum := sha256.Sum256(raw)
			got, err := BuiltinVersionSHA256(game, v)
			if err != nil || got != hex.EncodeToString(sum[:]) {
				t.Errorf("%s version %d: SHA-256 %s (%v)", game, v, got, err)
			}
			if w, dup := seen[got]; dup {
				t.Errorf("%s: versions %d and %d are the same file", game, w, v)
			}
			seen[got] = v
			if again, _ := BuiltinVersion(game, v); again != n {
				t.Errorf("%s version %d: loaded twice", game, v)
			}
			if !BuiltinExists(v) {
				t.Errorf("BuiltinExists(%d) = false", v)
			}
		}
		first, _ := Builtin(game)
		if v1, _ := BuiltinVersion(game, 1); first != v1 {
			t.Errorf("%s: Builtin is not version 1", game)
		}
		for _, v := range []int{0, -1, latest + 1} {
			if _, err := BuiltinVersion(game, v); err == nil {
				t.Errorf("%s: version %d loaded", game, v)
			}
			if _, err := BuiltinVersionSHA256(game, v); err == nil {
				t.Errorf("%s: version %d has a SHA-256", game, v)
			}
		}
	}
	if LatestBuiltin("chess") != 0 || BuiltinExists(0) || BuiltinExists(1000) {
		t.Error("a built-in network that is not shipped")
	}
}
