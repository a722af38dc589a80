#!/bin/sh
# A persistent bot (protocol 2): plays the first listed action. With $PERSISTBOT_LOG set it
# appends "start PID", each ping and time line and "quit PID" there. With $PERSISTBOT_DIE set
# it exits instead of moving in the second game of a process, once in all (it creates that
# file). With the argument "badpong" it answers every ping after its first with a wrong number.
mode=$1
log() { if [ -n "$PERSISTBOT_LOG" ]; then echo "$*" >> "$PERSISTBOT_LOG"; fi; }
log "start $$"
games=0
while read -r cmd rest; do
  case "$cmd" in
    hello) set -- $rest; if [ "$2" -ge 2 ]; then echo "feature persistent=1"; fi; echo "ready persistbot" ;;
    newgame) games=$((games+1)) ;;
    ping) log "ping $rest"; if [ "$mode" = badpong ] && [ "$rest" != 1 ]; then echo "pong x"; else echo "pong $rest"; fi ;;
    time) log "time $rest" ;;
    legal) n=$rest; read -r first; i=1; while [ "$i" -lt "$n" ]; do read -r _; i=$((i+1)); done ;;
    go)
      if [ -n "$PERSISTBOT_DIE" ] && [ "$games" = 2 ] && [ ! -e "$PERSISTBOT_DIE" ]; then : > "$PERSISTBOT_DIE"; exit 3; fi
      echo "move $first" ;;
    quit) log "quit $$"; exit 0 ;;
  esac
done
