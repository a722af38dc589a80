#!/usr/bin/env bash
# Rebuilds cmd/fairplay/default.pgo, the CPU profile that `go build` and `go install` of
# ./cmd/fairplay use for profile-guided optimisation (Go's -pgo=auto: inlining and
# devirtualisation of the hot calls, such as the engine.State methods inside the searches).
#
# The profile is the four default agents' self-play at 100 ms a move, each game's:
# alpha-beta and MCTS, Katarenga on random layouts and Baran, 2 workers, about 7 minutes on
# 2 cores. It is taken from a build without a profile (-pgo=off), so it does not depend on the
# profile it replaces. A stale profile is never wrong, only less useful: rebuild it after the
# searches or the evaluation change much (docs/performance.md, "Profile-guided build").
#
# Usage: cmd/fairplay/pgo.sh [GAMES]   (GAMES: alpha-beta games per game; default 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/fairplay" ./cmd/fairplay
profile() { # NAME GAME AGENT GAMES [FLAGS...]
	local name=$1 game=$2 agent=$3 n=$4
	shift 4
	FAIRPLAY_CPUPROFILE="$tmp/$name.pprof" "$tmp/fairplay" play -game "$game" "$@" \
		-a "$agent:movetime=100ms" -b "$agent:movetime=100ms" -games "$n" -seed 7 -workers 2 \
		-progress never -out "$tmp/$name" >/dev/null
}
profile kab katarenga alphabeta "$games" -layout random
profile bab baran alphabeta "$games"
profile kmc katarenga mcts $((games * 3 / 5)) -layout random
profile bmc baran mcts $((games * 3 / 5))
go tool pprof -proto "$tmp"/kab.pprof "$tmp"/bab.pprof "$tmp"/kmc.pprof "$tmp"/bmc.pprof \
	>cmd/fairplay/default.pgo
ls -l cmd/fairplay/default.pgo
