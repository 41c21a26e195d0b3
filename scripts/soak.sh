#!/bin/sh
# soak.sh N [LOG]: runs the full `make test` N times in a row beside a
# background busy loop (`sh -c 'while :; do :; done'`, BUSY of them,
# default 1: one core of a 2-core VM held at 100%), logging each run's
# result and wall time to LOG (default .cache/soak/<UTC time>/soak.log, each
# run's output beside it), and prints a summary: how many passed, whether
# all N did in a row, the wall times, and the tests that failed.
#
#   scripts/soak.sh 10           # the issue's bar: ten in a row under load
#   BUSY=0 scripts/soak.sh 3     # without the background load
#
# It takes the machine for N full suites (about 20 minutes each on a
# loaded 2-core VM): run it where nothing else is measured.
set -u
cd "$(dirname "$0")/.."
n=${1:?usage: scripts/soak.sh N [LOG]}
dir=.cache/soak/$(date -u +%Y%m%dT%H%M%SZ)
log=${2:-$dir/soak.log}
mkdir -p "$dir" "$(dirname "$log")"
busy=${BUSY:-1}
loops=
stop_loops() { [ -z "$loops" ] || kill $loops 2>/dev/null; loops=; }
trap 'stop_loops' EXIT
trap 'stop_loops; exit 130' INT TERM
b=0
while [ "$b" -lt "$busy" ]; do
	sh -c 'while :; do :; done' &
	loops="$loops $!"
	b=$((b + 1))
done
printf 'run\tresult\twall_s\toutput\n' >"$log"
i=1
pass=0
while [ "$i" -le "$n" ]; do
	out="$dir/run-$i.out"
	t0=$(date +%s)
	if make test >"$out" 2>&1; then result=pass pass=$((pass + 1)); else result=FAIL; fi
	wall=$(($(date +%s) - t0))
	printf '%d\t%s\t%d\t%s\n' "$i" "$result" "$wall" "$out" | tee -a "$log"
	i=$((i + 1))
done
stop_loops
echo
echo "soak: $pass of $n runs passed beside $busy busy loop(s); log $log"
[ "$pass" -eq "$n" ] && echo "soak: all $n in a row" || echo "soak: NOT all $n in a row"
awk -F'\t' 'NR > 1 { s += $3; if (min == "" || $3 < min) min = $3; if ($3 > max) max = $3 }
	END { if (NR > 1) printf "soak: wall time min %d s, mean %d s, max %d s\n", min, s / (NR - 1), max }' "$log"
fails=$(grep -h -- '--- FAIL' "$dir"/run-*.out 2>/dev/null | sed 's/ (.*//; s/^ *--- FAIL: //' | sort | uniq -c | sort -rn)
[ -z "$fails" ] || { echo "soak: failed tests (times):"; echo "$fails"; }
[ "$pass" -eq "$n" ]
