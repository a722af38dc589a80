#!/bin/sh
# A minimal fairplay bot: always plays the first listed action.
while read -r cmd rest; do
  case "$cmd" in
    hello) echo "ready firstbot" ;;
    legal) n=$rest; read -r first; i=1; while [ "$i" -lt "$n" ]; do read -r _; i=$((i+1)); done ;;
    go) echo "info thinking"; echo "move $first" ;;
    quit) exit 0 ;;
  esac
done
