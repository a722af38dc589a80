#!/bin/sh
# Rebuilds a candidate for Katarenga's seventh network, DIR/katarenga-7.nnue, which was not
# shipped (+1 [-22, +24] against the sixth at 100 ms a move): docs/agents.md, "Newer labels, not
# shipped". Twelve self-play sets: the ten every network since the fourth has used
# (docs/studies/katarenga-net4.sh makes them, and refits the second to fourth networks beside
# them) and two labelled by the sixth network's depth-5 search (net=builtin6, so that network must
# be the one shipped as agents/nnue/nets/katarenga-6.nnue, SHA-256 140565d3...); the four sets the
# fifth and sixth networks added, labelled by the fourth and fifth networks, are left out. Then
# one fit with the sixth network's settings (H = 32, the step size falling along a half cosine).
# On the 2-core machine the two new sets took 19 min 39 s and 20 min 10 s at -workers 2 (964,141
# and 956,888 positions; the data do not depend on -workers) and the fit 12 min 45 s (5,256,321
# positions, epoch 12 kept, validation loss 0.012611). The fit is bit-reproducible (the same data,
# configuration and seed give the same weights); the file's SHA-256 differs between fits only
# through the time taken and the names, which its metadata records.
# FIT=m makes two more sets labelled the same way (seeds 59 and 60; 940,347 and 947,875
# positions, 3 min 29 s and 3 min 13 s at -workers 16 on a 16-core machine) and fits the ten
# older sets with all four, DIR/katarenga-7m.nnue, which was not shipped either (-3 [-26, +19]):
# 7,144,543 positions, about the sixth network's volume, 16 min 3 s, epoch 12 kept, validation
# loss 0.012294.
#
#   docs/studies/katarenga-net7.sh DIR        # writes DIR/*.gob and DIR/katarenga-7.nnue
#   WORKERS=16 docs/studies/katarenga-net7.sh DIR
#   FIT=m docs/studies/katarenga-net7.sh DIR  # writes DIR/katarenga-7m.nnue instead
set -eu
dir=${1:?usage: katarenga-net7.sh DIR}
case ${FIT:-} in "" | m) ;; *) echo "katarenga-net7.sh: FIT=$FIT: want m or nothing" >&2; exit 2 ;; esac
fp=${FAIRPLAY:-fairplay}
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net4.sh" "$dir"
cd "$dir"
seeds="57 58"
[ "${FIT:-}" = m ] && seeds="57 58 59 60"
for s in $seeds; do
	"$fp" train -game katarenga -agent alphabeta:depth=5,net=builtin6 -games 20000 -random-opening 6 \
		-seed $s -workers "${WORKERS:-2}" -epochs 1 -hidden 4 -save-data kat-d5n6s$s.gob -save-net kat-d5n6s$s-scratch.nnue
	rm -f kat-d5n6s$s-scratch.nnue
done
d10=kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob,kat-d5s51.gob,kat-d5s52.gob
opts="-hidden 32 -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005 -lr-end 0.00001"
case ${FIT:-} in
"") "$fp" train -game katarenga -data $d10,kat-d5n6s57.gob,kat-d5n6s58.gob $opts -save-net katarenga-7.nnue ;;
m) "$fp" train -game katarenga -data $d10,kat-d5n6s57.gob,kat-d5n6s58.gob,kat-d5n6s59.gob,kat-d5n6s60.gob $opts -save-net katarenga-7m.nnue ;;
esac
