#!/bin/sh
# Reproduces the rating tables of docs/agents.md: one rating scale per game from tournaments
# joined with `fairplay tournament -combine`, and the speed columns from `fairplay bench -agent`.
# Usage: docs/studies/run-rating-tables.sh OUTDIR
# Cost: about 40 minutes of CPU (most of it depth 5-6 and MCTS 1000); the tables were made on a
# 2-core machine shared with other jobs, so its wall-clock times say little.
set -eu
out=${1:?usage: $0 OUTDIR}
fp=${FAIRPLAY:-fairplay}
mkdir -p "$out"

# Katarenga: each pair on its own random tile placement. Agents listed by expected strength;
# -band 2 pairs each with the next two. alphabeta:nodes=150000 is the "100 ms per move" agent:
# a node budget (reproducible) calibrated to about 100 ms per move with `bench -agent`.
$fp tournament -game katarenga -agents 'random;greedy;alphabeta:depth=1;alphabeta:depth=2;alphabeta:depth=3;classic:depth=4;alphabeta:depth=4;alphabeta:depth=5;alphabeta:nodes=150000' \
  -band 2 -games 20 -seed 2026 -out "$out/kat-ab"
$fp tournament -game katarenga -agents 'alphabeta:depth=6;alphabeta:depth=5;alphabeta:nodes=150000' -gauntlet -games 8 -seed 2027 -out "$out/kat-ab6"
$fp tournament -game katarenga -agents 'greedy;alphabeta:depth=1;mcts:playouts=100;alphabeta:depth=2;mcts:playouts=1000;alphabeta:depth=3;alphabeta:depth=4' \
  -band 2 -games 10 -seed 2028 -out "$out/kat-mcts"
$fp tournament -combine -seed 2026 -out "$out/katarenga" "$out/kat-ab" "$out/kat-ab6" "$out/kat-mcts"

# Baran: 4 random plies open every game (the default), published rules.
$fp tournament -game baran -agents 'random;greedy;alphabeta:depth=1;alphabeta:depth=2;alphabeta:depth=3;classic:depth=4;alphabeta:depth=4;alphabeta:nodes=45000' \
  -band 2 -games 20 -seed 2026 -out "$out/bar-ab"
$fp tournament -game baran -agents 'greedy;mcts:playouts=100;alphabeta:depth=2;mcts:playouts=1000' -band 2 -games 6 -seed 2028 -out "$out/bar-mcts"
$fp tournament -combine -seed 2026 -out "$out/baran" "$out/bar-ab" "$out/bar-mcts"

# Speed: one core, a fresh player per position, JSON lines "agent<TAB>{...}".
for g in katarenga baran; do
  for a in greedy alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3 classic:depth=4 alphabeta:depth=4 alphabeta:depth=5 \
           alphabeta:depth=6 alphabeta:nodes=150000 alphabeta:nodes=45000 mcts:playouts=100 mcts:playouts=1000; do
    printf '%s\t%s\n' "$a" "$($fp bench -game $g -agent $a -seconds 1 -positions 5 -json)"
  done > "$out/speed-$g.jsonl"
done
