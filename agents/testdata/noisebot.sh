#!/bin/sh
# Greets, then answers a move with binary noise.
read -r _; echo "ready noisebot"
while read -r cmd _; do [ "$cmd" = go ] && printf 'move \001\002\377\000\n'; done
