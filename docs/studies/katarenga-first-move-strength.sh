#!/bin/sh
# Katarenga first-move capture across rated strength (issue 16): docs/baran-variants.md,
# section "Katarenga: first-move capture allowed or banned".
# Usage: docs/studies/katarenga-first-move-strength.sh OUTDIR
# Wall time: 15 min 49 s on the shared 2-core machine (load about 20), 4 min 26 s CPU;
# reduced size: 400 games per cell, 60 rating games per pairing.
set -eu
out=${1:?usage: $0 OUTDIR}
fp=${FAIRPLAY:-fairplay}
exec $fp variants -game katarenga -vary first-move-capture=allowed,banned \
	-ladder 'random;mcts:playouts=1000,cutoff=4;greedy;alphabeta:depth=1;alphabeta:depth=2;alphabeta:depth=3' \
	-games 400 -rating-games 60 -seed 2028 -progress never -out "$out"
