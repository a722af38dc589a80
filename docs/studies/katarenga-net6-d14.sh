#!/bin/sh
# Rebuilds a candidate for a sixth Katarenga network, DIR/katarenga-6-d14.nnue, which was not
# shipped: at a real 100 ms a move it did not beat the fifth network (docs/agents.md, "More
# data, not shipped"). Fourteen self-play sets: the fifth network's twelve
# (docs/studies/katarenga-net5-h16.sh makes them) and two labelled by the fifth network's depth-5
# search (net=builtin5, so that network must be the one shipped as
# agents/nnue/nets/katarenga-5.nnue, SHA-256 ce8f08a0...), then one fit with the fifth network's
# settings (H = 32). On the 2-core machine the new sets took 15 min 26 s and 15 min 25 s at
# -workers 2 (979,426 and 969,903 positions; the data do not depend on -workers) and the fit
# 12 min 45 s (7,208,827 positions, epoch 8 kept, validation loss 0.012209 on the fourteen sets'
# validation games). The
# fit is bit-reproducible (the same data, configuration and seed give the same weights); the
# file's SHA-256 differs only through the time taken, which its metadata records.
#
#   docs/studies/katarenga-net6-d14.sh DIR    # writes DIR/*.gob and DIR/katarenga-6-d14.nnue
#   WORKERS=16 docs/studies/katarenga-net6-d14.sh DIR
set -eu
dir=${1:?usage: katarenga-net6-d14.sh DIR}
fp=${FAIRPLAY:-fairplay}
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net5-h16.sh" "$dir"
cd "$dir"
for s in 55 56; do
	"$fp" train -game katarenga -agent alphabeta:depth=5,net=builtin5 -games 20000 -random-opening 6 \
		-seed $s -workers "${WORKERS:-2}" -epochs 1 -hidden 4 -save-data kat-d5n5s$s.gob -save-net kat-d5n5s$s-scratch.nnue
	rm -f kat-d5n5s$s-scratch.nnue
done
"$fp" train -game katarenga \
	-data kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob,kat-d5s51.gob,kat-d5s52.gob,kat-d5n4s53.gob,kat-d5n4s54.gob,kat-d5n5s55.gob,kat-d5n5s56.gob \
	-hidden 32 -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005 -save-net katarenga-6-d14.nnue
