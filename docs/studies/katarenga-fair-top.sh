#!/bin/sh
# Writes the candidate layouts of docs/studies/katarenga-fair-top.json to stdout: the 12 layouts
# of katarenga-layouts-top's sample (sample:100, seed 1) whose nearer seating's White rate, pooled
# over the kept boards.csv of every searching level of katarenga-layouts-strength (alpha-beta
# depths 1-3, both replicates) and of katarenga-layouts-top (ladder and families), lies nearest
# 1/2; ties go to the earlier layout. Boards 2k and 2k+1 of those sweeps are layout k's two
# seatings; a layout is written as its first board's colour grid, in the sample's order.
#
#   sh docs/studies/katarenga-fair-top.sh > docs/studies/katarenga-fair-top/candidates.txt
set -eu
export LC_ALL=C # sort -n and awk's printf read and write decimal points
cd "$(dirname "$0")"
keep=${KEEP:-12}
files="katarenga-layouts-strength/ladder/level-2/boards.csv.gz katarenga-layouts-strength/ladder/level-2-rep-2/boards.csv.gz
katarenga-layouts-strength/ladder/level-3/boards.csv.gz katarenga-layouts-strength/ladder/level-3-rep-2/boards.csv.gz
katarenga-layouts-strength/ladder/level-4/boards.csv.gz katarenga-layouts-strength/ladder/level-4-rep-2/boards.csv.gz
katarenga-layouts-top/ladder/level-1/boards.csv.gz katarenga-layouts-top/ladder/level-2/boards.csv.gz
katarenga-layouts-top/ladder/level-3/boards.csv.gz katarenga-layouts-top/ladder/level-4/boards.csv.gz
katarenga-layouts-top/families/level-1-rep-2/boards.csv.gz katarenga-layouts-top/families/level-2-rep-2/boards.csv.gz"
for f in $files; do
	[ -f "$f" ] || { echo "katarenga-fair-top.sh: $f is missing" >&2; exit 1; }
done
cat <<HEAD
# Katarenga layouts raced for fairness near the top of the rating list (docs/studies/katarenga-fair-top.json).
# The $keep of katarenga-layouts-top's 100 sampled layouts (sample:100, seed 1) whose nearer seating's White rate,
# pooled over the kept boards.csv of every searching level of katarenga-layouts-strength (depths 1-3, both replicates)
# and katarenga-layouts-top (ladder and families), 156 games a board, lies nearest 1/2 (ties: layout order).
# Made by docs/studies/katarenga-fair-top.sh; one colour grid a line, in the sample's order (White's seating first).
HEAD
# A layout's distance, as "k distance grid" lines; the assignment fails (set -e) when awk does.
pooled=$(for f in $files; do
	gzip -dc "$f" | tail -n +2
done | awk -F, '
# boards.csv columns: board, key, grid, n, white_wins, ...
{ n[$1] += $4; w[$1] += $5; grid[$1] = $3; if ($1 > last) last = $1 }
END {
	for (b = 0; b <= last; b++)
		if (n[b] != 156) { print "katarenga-fair-top.sh: board " b " has " n[b] " games, want 156" > "/dev/stderr"; exit 1 }
	for (b = 0; b <= last; b += 2) {
		d = -1
		for (s = 0; s < 2; s++) {
			r = w[b+s] / n[b+s]; e = r > 0.5 ? r - 0.5 : 0.5 - r
			if (d < 0 || e < d) d = e
		}
		printf "%d %.9f %s\n", b/2, d, grid[b]
	}
}')
printf '%s\n' "$pooled" | sort -k2,2n -k1,1n | head -n "$keep" | sort -k1,1n | cut -d' ' -f3
