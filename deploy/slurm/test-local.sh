#!/bin/bash
# End-to-end test of the Slurm recipe on a single-node Slurm cluster on localhost: starts munged,
# slurmctld and slurmd with a private configuration (1 node, 2 CPUs, its own ports and state
# directory), submits a small run as a 3-shard array plus the dependent merge through submit.sh,
# waits for it, plays the same run on this machine, and checks that the merged games.csv equals
# the single-machine one byte for byte. The daemons it started are stopped on exit.
#
# Needs root and the Debian packages slurm-wlm and munge
# (apt-get install -y slurm-wlm munge). Exits 77 (skipped) when they are missing.
#   deploy/slurm/test-local.sh            # builds ./cmd/fairplay
#   FAIRPLAY=/path/to/fairplay deploy/slurm/test-local.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
for cmd in sbatch squeue sinfo slurmctld slurmd munged; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		echo "SKIP: $cmd not installed (apt-get install -y slurm-wlm munge)"
		exit 77
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the local Slurm test starts daemons and must run as root"
	exit 77
fi

tmp=$(mktemp -d /tmp/fairplay-slurm.XXXXXX)
pids=()
cleanup() {
	local rc=$?
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for f in "$tmp"/slurmctld.pid "$tmp"/slurmd.pid "$tmp"/munged.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	if [ $rc != 0 ]; then
		echo "--- slurmctld.log"; tail -n 20 "$tmp/slurmctld.log" 2>/dev/null || true
		echo "--- slurmd.log"; tail -n 20 "$tmp/slurmd.log" 2>/dev/null || true
		echo "--- job output"; cat "$tmp"/run/*.out 2>/dev/null || true
		echo "FAIL (files kept in $tmp)"
	else
		rm -rf "$tmp"
	fi
	exit $rc
}
trap cleanup EXIT

if [ -z "${FAIRPLAY:-}" ]; then
	(cd "$repo" && go build -o "$tmp/fairplay" ./cmd/fairplay)
	FAIRPLAY=$tmp/fairplay
fi
export FAIRPLAY

# munge: a private key, socket and pid file, so that nothing of the host's munge is touched.
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=fairplaytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
	state=$(sinfo -h -o %T 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.5
done
if [ "$state" != idle ]; then
	echo "slurm node did not come up (state '$state')"
	exit 1
fi

# wait_jobs ARRAY MERGE waits up to 2 minutes for both jobs to leave the queue.
wait_jobs() {
	for _ in $(seq 240); do
		[ -z "$(squeue -h -j "$1,$2" 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	echo "jobs still queued after 2 minutes:"; squeue
	exit 1
}

args=(-game katarenga -games 600 -seed 11)
read -r play merge < <(SBATCH_OPTS="--cpus-per-task=1" "$here/submit.sh" "$tmp/run" 3 "${args[@]}")
echo "submitted array job $play and merge job $merge"
wait_jobs "$play" "$merge"
if [ ! -f "$tmp/run/merged/games.csv" ]; then
	echo "no merged games.csv"
	exit 1
fi
"$FAIRPLAY" play "${args[@]}" -progress never -out "$tmp/single" >/dev/null
cmp "$tmp/run/merged/games.csv" "$tmp/single/games.csv"
echo "PASS: $(($(wc -l <"$tmp/single/games.csv") - 1)) games, merged from 3 Slurm array tasks, equal byte for byte to one run"

# Another subcommand: a fair race over 6 boards (layouts -race fair), sharded by board.
race=(-layouts sample:3 -race fair -a random -b random -games-per-board 400 -batch 50 -seed 5)
read -r play merge < <(FAIRPLAY_COMMAND=layouts SBATCH_OPTS="--cpus-per-task=1" "$here/submit.sh" "$tmp/race" 3 "${race[@]}")
echo "submitted array job $play and merge job $merge (layouts)"
wait_jobs "$play" "$merge"
if [ ! -f "$tmp/race/merged/race.csv" ]; then
	echo "no merged race.csv"; cat "$tmp"/race/*.out 2>/dev/null || true
	exit 1
fi
"$FAIRPLAY" layouts "${race[@]}" -progress never -out "$tmp/race-single" >/dev/null
for f in boards.csv race.csv layouts.csv; do
	cmp "$tmp/race/merged/$f" "$tmp/race-single/$f"
done
echo "PASS: a fair race over $(($(wc -l <"$tmp/race-single/race.csv") - 1)) boards, merged from 3 Slurm array tasks, equal byte for byte to one run"
