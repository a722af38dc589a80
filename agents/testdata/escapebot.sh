#!/bin/sh
# Starts two children that leave the bot's process group: one through setsid, one by a double
# fork (its parent exits at once), writes their pids to $ESCAPEBOT_PIDFILE, then answers no
# move: closing the bot must end both. With the argument "persist" it offers persistent mode
# (protocol 2) and answers pings.
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo $! > "$ESCAPEBOT_PIDFILE"
(setsid sh -c 'echo $$ >> "$ESCAPEBOT_PIDFILE"; exec sleep 301' </dev/null >/dev/null 2>&1 &)
while [ "$(wc -l < "$ESCAPEBOT_PIDFILE")" -lt 2 ]; do sleep 0.01; done
read -r _
if [ "$1" = persist ]; then echo "feature persistent=1"; fi
echo "ready escapebot"
while read -r cmd rest; do if [ "$cmd" = ping ]; then echo "pong $rest"; fi; done
if [ "$1" = hang ]; then exec sleep 300; fi # still running when closed: killed by the timeout
