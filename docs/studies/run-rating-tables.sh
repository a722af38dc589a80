#!/bin/sh
# Reproduces the rating tables of docs/agents.md: one rating scale per game from tournaments
# joined with `fairplay tournament -combine`, and the speed column from `fairplay bench -agent`.
# Usage: docs/studies/run-rating-tables.sh OUTDIR   (about 30 minutes of CPU; the tables were made
# on a 2-core machine shared with other jobs, so wall-clock times vary)
set -eu
out=${1:?usage: $0 OUTDIR}
fp=${FAIRPLAY:-fairplay}
mkdir -p "$out"

# Katarenga: a random tile placement per pair. Agents listed by expected strength; -band 2 pairs
# each with the next two. alphabeta:nodes=150000 is the "100 ms per move" agent: a node budget
# (reproducible) calibrated to about 100 ms per move with `bench -agent` on the shared machine.
$fp tournament -game katarenga -agents 'random;greedy;alphabeta:depth=1;alphabeta:depth=2;alphabeta:depth=3;classic:depth=4;alphabeta:depth=4;alphabeta:depth=5;alphabeta:nodes=150000' \
  -band 2 -games 20 -seed 2026 -out "$out/kat-ab"
