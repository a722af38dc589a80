#!/bin/sh
# Greets, starts a child that would run for long, writes its pid to $FORKBOT_PIDFILE, then
# never answers a move: the runner must kill the child with the bot (process group).
sleep 300 &
echo $! > "$FORKBOT_PIDFILE"
read -r _; echo "ready forkbot"
while read -r _; do :; done
