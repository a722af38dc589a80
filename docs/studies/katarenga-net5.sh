#!/bin/sh
# Rebuilds Katarenga's fifth built-in network, agents/nnue/nets/katarenga-5.nnue (net=builtin5,
# and net=auto under a movetime budget): docs/agents.md, "The shipped networks". The twelve
# self-play sets of the H = 16 candidate (docs/studies/katarenga-net5-h16.sh, which makes them
# and fits that candidate, DIR/katarenga-5-h16.nnue), then one fit with a first layer twice as
# wide (H = 32), the fourth network's settings otherwise. The sets took 63 minutes on the 2-core
# machine (the eight small ones 5 minutes, two at a time; each depth-5 set 14-15 minutes at
# -workers 2); the fit 10 min 49 s (epoch 12 kept, validation loss 0.012219). The fit is
# bit-reproducible (the same data, configuration and seed give the same weights); the file's
# SHA-256 differs from the shipped one only through the time taken, which its metadata records.
# HIDDEN=64 fits the H = 64 candidate instead, DIR/katarenga-5-h64.nnue, which was not shipped
# (docs/agents.md, "Twice as wide again, not shipped"): 14 min 0 s, epoch 12 kept, validation
# loss 0.011743.
#
#   docs/studies/katarenga-net5.sh DIR        # writes DIR/*.gob and DIR/katarenga-5.nnue
#   WORKERS=16 docs/studies/katarenga-net5.sh DIR
#   HIDDEN=64 docs/studies/katarenga-net5.sh DIR
set -eu
dir=${1:?usage: katarenga-net5.sh DIR}
fp=${FAIRPLAY:-fairplay}
h=${HIDDEN:-32}
out=katarenga-5.nnue
[ "$h" = 32 ] || out=katarenga-5-h$h.nnue
case $fp in */*) fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp") ;; esac # a relative path survives the cd below
FAIRPLAY=$fp "$(dirname "$0")/katarenga-net5-h16.sh" "$dir"
cd "$dir"
"$fp" train -game katarenga \
	-data kat-d2.gob,kat-d2s2.gob,kat-n3s5.gob,kat-n3s6.gob,kat-n3s7.gob,kat-m3s21.gob,kat-m3s22.gob,kat-m3s23.gob,kat-d5s51.gob,kat-d5s52.gob,kat-d5n4s53.gob,kat-d5n4s54.gob \
	-hidden "$h" -hidden2 0 -holdout 10 -lambda 1 -epochs 12 -lr 0.0005 -save-net "$out"
