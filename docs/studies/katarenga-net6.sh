#!/bin/sh
# Rebuilds Katarenga's sixth built-in network, agents/nnue/nets/katarenga-6.nnue (net=builtin6,
# and net=auto under a movetime budget): docs/agents.md, "The shipped networks". Fourteen
# self-play sets: the fifth network's twelve (docs/studies/katarenga-net5-h16.sh makes them) and
# two labelled by the fifth network's depth-5 search (net=builtin5, so that network must be the
# one shipped as agents/nnue/nets/katarenga-5.nnue, SHA-256 ce8f08a0...), then one fit with the
# fifth network's settings (H = 32) and a step size that falls from 0.0005 to 0.00001 along a
# half cosine (-lr-end). On the 2-core machine the two new sets took 15 min 26 s and 15 min 25 s
# at -workers 2 (979,426 and 969,903 positions; the data do not depend on -workers) and the fit
# 15 min 42 s with another fit beside it (7,208,827 positions, epoch 12 kept, validation loss
# 0.011792 on the fourteen sets' validation games). The fit is bit-reproducible (the same data,
# configuration and seed give the same weights); the file's SHA-256 differs from the shipped one
# (140565d3...) only through the time taken and the names, which its metadata records (a refit
# at revision 4fb0e28 from the same sets gave the shipped weights, every field but the metadata
# equal).
# FIT=d14 fits the candidate without the schedule instead, DIR/katarenga-6-d14.nnue, which was
# not shipped (docs/agents.md, "More data, not shipped"): 12 min 45 s, epoch 8 kept, validation
# loss 0.012209 on the same validation games. FIT=c12 fits the fifth network's twelve sets with
# the schedule, DIR/katarenga-6-c12.nnue, made for its validation loss only (never played):
# 10 min 41 s, epoch 11 kept, 0.011988 against the fifth network's 0.012219 on the same games.
# FIT=e20 fits the sixth network's data and settings over 20 epochs instead of 12,
# DIR/katarenga-6-e20.nnue, which was not shipped (docs/agents.md, "Longer, not shipped"):
# 34 min 7 s on a machine shared with tests, epoch 18 kept, validation loss 0.011707.
#
#   docs/studies/katarenga-net6.sh DIR        # writes DIR/*.gob and DIR/katarenga-6.nnue
#   WORKERS=16 docs/studies/katarenga-net6.sh DIR
#   FIT=d14 docs/studies/katarenga-net6.sh DIR
#   FIT=c12 docs/studies/katarenga-net6.sh DIR
#   FIT=e20 docs/studies/katarenga-net6.sh DIR
set -eu
dir=${1:?usage: katarenga-net6.sh DIR}
case ${FIT:-} in "" | d14 | c12 | e20) ;; *) echo "katarenga-net6.sh: FIT=$FIT: want d14, c12, e20 or nothing" >&2; exit 2 ;; esac
fp=${FAIRPLAY:-fairplay}
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net5-h16.sh" "$dir"
cd "$dir"
for s in 55 56; do
	"$fp" train -game katarenga -agent alphabeta:depth=5,net=builtin5 -games 20000 -random-opening 6 \
		-seed $s -workers "${WORKERS:-2}" -epochs 1 -hidden 4 -save-data kat-d5n5s$s.gob -save-net kat-d5n5s$s-scratch.nnue
	rm -f kat-d5n5s$s-scratch.nnue
done
d12=kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob,kat-d5s51.gob,kat-d5s52.gob,kat-d5n4s53.gob,kat-d5n4s54.gob
opts="-hidden 32 -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005"
case ${FIT:-} in
"") "$fp" train -game katarenga -data $d12,kat-d5n5s55.gob,kat-d5n5s56.gob $opts -lr-end 0.00001 -save-net katarenga-6.nnue ;;
d14) "$fp" train -game katarenga -data $d12,kat-d5n5s55.gob,kat-d5n5s56.gob $opts -save-net katarenga-6-d14.nnue ;;
c12) "$fp" train -game katarenga -data $d12 $opts -lr-end 0.00001 -save-net katarenga-6-c12.nnue ;;
e20) "$fp" train -game katarenga -data $d12,kat-d5n5s55.gob,kat-d5n5s56.gob -hidden 32 -hidden2 0 -holdout 10 -lambda 1 -epochs 20 -lr 0.0005 -lr-end 0.00001 -save-net katarenga-6-e20.nnue ;;
esac
