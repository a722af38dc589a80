#!/bin/sh
# Greets, then never answers a move in time.
read -r _; echo "ready slowbot"
while read -r cmd _; do [ "$cmd" = go ] && sleep 5; done
