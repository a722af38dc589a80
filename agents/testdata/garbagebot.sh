#!/bin/sh
read -r _; echo "ready garbagebot"
while read -r cmd _; do [ "$cmd" = go ] && echo "banana"; done
