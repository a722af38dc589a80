#!/bin/sh
# Reproduces the findings of docs/baran-variants.md (Baran and Katarenga sections).
# Usage: docs/studies/run-variant-studies.sh OUTDIR   (about 15 minutes on 2 cores)
set -eu
out=${1:?usage: $0 OUTDIR}
fp=${FAIRPLAY:-fairplay}
ladder_b='random;greedy;alphabeta:depth=2;alphabeta:depth=3'
ladder_k='random;greedy;alphabeta:depth=2;alphabeta:depth=4;mcts:playouts=500'
$fp variants -game baran -vary capture=huff,strict,free -ladder "$ladder_b" -games 600 -seed 2026 -out "$out/baran-capture"
$fp variants -game baran -vary chain-capture=whole,per-jump -ladder "$ladder_b" -games 600 -seed 2026 -out "$out/baran-chain"
$fp variants -game baran -vary fast-row=3,4 -ladder "$ladder_b" -games 600 -seed 2026 -out "$out/baran-fast-row"
$fp variants -game katarenga -vary first-move-capture=allowed,banned -ladder "$ladder_k" -games 1000 -seed 2026 -out "$out/katarenga-first-move"
# Follow-up: the alpha-beta levels only, with more games per cell (fewer tests, tighter intervals).
$fp variants -game katarenga -vary first-move-capture=allowed,banned -ladder 'alphabeta:depth=2;alphabeta:depth=4' -games 3000 -seed 2027 -out "$out/katarenga-first-move-ab"
