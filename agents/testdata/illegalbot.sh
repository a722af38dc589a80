#!/bin/sh
read -r _; echo "ready illegalbot"
while read -r cmd _; do [ "$cmd" = go ] && echo "move a1-h8"; done
