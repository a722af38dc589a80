#!/bin/sh
# Builds the frozen yardstick of the strength matches (docs/agents.md, "Yardstick at 100 ms"):
# the agents of commit 6e90d44 (the search and evaluation as they were when the strength targets
# were set), served on the line protocol by a small main (testdata/yardstick/main.go).
#
#   docs/studies/yardstick.sh ./yardstick      # then: fairplay study -allow-programs docs/studies/yardstick.json
set -eu
out=${1:?usage: yardstick.sh OUTPUT}
case $out in /*) ;; *) out=$PWD/$out ;; esac
here=$(cd "$(dirname "$0")" && pwd)
rev=6e90d444a6727306d355bb27dac507e599e6a4d6
tmp=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$tmp/src" 2>/dev/null; rm -rf "$tmp"' EXIT
git -C "$here" worktree add --quiet --detach "$tmp/src" "$rev"
mkdir -p "$tmp/src/cmd/yardstick"
cp "$here/testdata/yardstick/main.go" "$tmp/src/cmd/yardstick/main.go"
(cd "$tmp/src" && go build -o "$out" ./cmd/yardstick)
echo "built $out from $rev"
