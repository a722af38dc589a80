#!/bin/sh
# Rebuilds Katarenga's third built-in network, agents/nnue/nets/katarenga-3.nnue (net=builtin3,
# net=auto's choice under a movetime budget until the fourth): docs/agents.md, "The shipped networks".
# Eight self-play sets, generated single-threaded (the data do not depend on -workers; about
# 20 CPU-minutes in all), then one fit (minutes). The first five are the second network's, made
# by docs/studies/katarenga-net2.sh (which also refits the second network, DIR/katarenga-2.nnue);
# the labels of the last three are the scores of a depth-3 search with the second built-in
# network (net=builtin2), so that network must be the one shipped as
# agents/nnue/nets/katarenga-2.nnue (SHA-256 fef45926...), as it stays by design. The fit gives
# the shipped weights bit for bit; the file's SHA-256 differs from the shipped one (fbf05008...)
# only because its metadata records the command, which named the output net3B.nnue, and the
# time taken.
#
#   docs/studies/katarenga-net3.sh DIR        # writes DIR/*.gob and DIR/katarenga-3.nnue
set -eu
dir=${1:?usage: katarenga-net3.sh DIR}
fp=${FAIRPLAY:-fairplay}
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net2.sh" "$dir"
cd "$dir"
for s in 21 22 23; do
	"$fp" train -game katarenga -agent alphabeta:depth=3,net=builtin2 -games 4000 -random-opening 6 \
		-seed $s -workers 1 -epochs 1 -save-data kat-m3s$s.gob -save-net kat-m3s$s-scratch.nnue
	rm -f kat-m3s$s-scratch.nnue
done
"$fp" train -game katarenga \
	-data kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob \
	-hidden 16 -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005 -save-net katarenga-3.nnue
