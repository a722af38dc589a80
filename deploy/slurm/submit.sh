#!/bin/bash
# Submits a fairplay run as a Slurm array of M shards plus a merge job that starts only when
# every shard has succeeded. Prints the two job ids ("ARRAY_ID MERGE_ID").
#
#   deploy/slurm/submit.sh RUN_DIR M [fairplay $FAIRPLAY_COMMAND flags...]
#   deploy/slurm/submit.sh /shared/kata-l0 16 -game katarenga -layout 0 -games 10000000 -seed 7
#
# RUN_DIR must be on a file system every node sees. Extra sbatch options go in SBATCH_OPTS
# (e.g. SBATCH_OPTS="--partition=short --time=01:00:00"); FAIRPLAY names the binary
# (default: fairplay on PATH); FAIRPLAY_COMMAND the subcommand (default play; also layouts or
# tournament), e.g. a layout race over 64 array tasks:
#   FAIRPLAY_COMMAND=layouts deploy/slurm/submit.sh /shared/race 64 -layouts all -race fair -seed 5
set -euo pipefail
if [ $# -lt 2 ]; then
	sed -n '2,12p' "$0" >&2
	exit 2
fi
run=$1 m=$2
shift 2
case $m in '' | *[!0-9]* | 0) echo "submit.sh: shard count $m: want a positive integer" >&2; exit 2 ;; esac
case ${FAIRPLAY_COMMAND:-play} in
play | layouts | tournament) ;;
*) echo "submit.sh: FAIRPLAY_COMMAND=$FAIRPLAY_COMMAND: want play, layouts or tournament" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$run"
run=$(cd "$run" && pwd)
export FAIRPLAY_RUN=$run
# shellcheck disable=SC2086
play=$(sbatch --parsable ${SBATCH_OPTS:-} --array=0-$((m - 1)) --chdir="$run" --export=ALL "$here/play.sbatch" "$@")
play=${play%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency=afterok:"$play" --kill-on-invalid-dep=yes --chdir="$run" --export=ALL "$here/merge.sbatch")
merge=${merge%%;*}
echo "$play $merge"
