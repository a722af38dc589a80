#!/bin/sh
# Greets, then answers a move with a line of several megabytes.
read -r _; echo "ready hugebot"
while read -r cmd _; do [ "$cmd" = go ] && head -c 4000000 /dev/zero | tr '\0' 'x' && echo; done
