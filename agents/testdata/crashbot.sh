#!/bin/sh
# Greets, then dies when asked to move.
read -r _; echo "ready crashbot"
while read -r cmd _; do [ "$cmd" = go ] && exit 3; done
