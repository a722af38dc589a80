#!/bin/sh
# Rebuilds an H = 16 candidate for a fifth Katarenga network, DIR/katarenga-5-h16.nnue, which
# was not shipped: at 100,000 nodes it was not separated from the fourth (docs/agents.md, "An
# H = 16 fit of twelve sets, not shipped"). Its twelve sets are also the shipped fifth network's
# (docs/studies/katarenga-net5.sh). Twelve self-play sets, then one fit (minutes). The first ten are the
# fourth network's, made by docs/studies/katarenga-net4.sh (which also refits the fourth
# network, DIR/katarenga-4.nnue: the shipped weights bit for bit); the labels of the last two are
# the scores of a depth-5 search with the fourth built-in network (net=builtin4), so that
# network must be the one shipped as agents/nnue/nets/katarenga-4.nnue (SHA-256 c5d84d86...).
# The data do not depend on -workers; on the 2-core machine each of the two new sets took about
# 14 minutes at -workers 2 (963,878 and 960,328 positions, about 27 CPU-minutes each), and all
# twelve sets about 62 minutes (63 in a later regeneration, docs/studies/katarenga-net5.sh). The fit (4 min 30 s) is bit-reproducible, as every fit is (the
# same data, configuration and seed give the same weights); the file's SHA-256 differs only
# through the time taken, which its metadata records (the candidate's: 12aaceb4...).
#
#   docs/studies/katarenga-net5-h16.sh DIR    # writes DIR/*.gob and DIR/katarenga-5-h16.nnue
#   WORKERS=16 docs/studies/katarenga-net5-h16.sh DIR
set -eu
dir=${1:?usage: katarenga-net5-h16.sh DIR}
fp=${FAIRPLAY:-fairplay}
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net4.sh" "$dir"
cd "$dir"
for s in 53 54; do
	"$fp" train -game katarenga -agent alphabeta:depth=5,net=builtin4 -games 20000 -random-opening 6 \
		-seed $s -workers "${WORKERS:-2}" -epochs 1 -hidden 4 -save-data kat-d5n4s$s.gob -save-net kat-d5n4s$s-scratch.nnue
	rm -f kat-d5n4s$s-scratch.nnue
done
"$fp" train -game katarenga \
	-data kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob,kat-d5s51.gob,kat-d5s52.gob,kat-d5n4s53.gob,kat-d5n4s54.gob \
	-hidden 16 -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005 -save-net katarenga-5-h16.nnue
