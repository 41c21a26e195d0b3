#!/bin/sh
# ladder.sh: the known-slowdown ladder of issue 18. For each slowdown (by
# default 0, 3, 5 and 10%; 0 is the A/A campaign) it runs CAMPAIGNS
# campaigns (default 5) of the demo's llama-server decode: an arm `base`
# against an arm `slowed` whose engine runs under cmd/slowdown, held
# stopped that share of the time. Each campaign is sequential (rounds 5 to
# MAX_ROUNDS, a look every 5, the rule new records are written under) with
# a time budget of LIMIT seconds (default 300: "campaigns of at most 5
# minutes"; schedule.rounds.max_time, so the last look the budget allows
# spends what is left of alpha). A campaign still running at twice LIMIT
# after its first run began is interrupted (an INCOMPLETE record); it
# waits up to WAIT_LOCK, default 2h, for other campaigns on the host to
# finish first. It prints
# one line a campaign and a table: slowdown, campaigns, detected
# (significantly slower), false claims (significantly faster), median time
# to decision. Records go to OUT (default .cache/ladder/<UTC time>), never
# to docs/.
#
#   scripts/ladder.sh                  # the whole ladder: 20 campaigns, up to 100 minutes
#   scripts/ladder.sh -n 1 5           # one campaign at 5%
#   scripts/ladder.sh -n 5 -t 300 0 3 5 10
#
# Needs what `make demo` provides: LLAMA_SERVER (default: the one
# scripts/install-llama-server.sh resolves) and the synthetic models in
# MODEL_DIR (default .cache/models). Run it on a quiet host: it is what it
# measures. THREADS (default 2, the demo's) is llama-server's -t: on a host
# with a background load use 1, since two threads on two cores of which one
# is busy spin at ggml's barriers, and stops that resume them together can
# make them faster, not slower.
set -eu
cd "$(dirname "$0")/.."
campaigns=5 limit=300 max_rounds=30 out=".cache/ladder/$(date -u +%Y%m%dT%H%M%SZ)"
wait_lock=${WAIT_LOCK:-2h} # for other campaigns on this host to finish
threads=${THREADS:-2}      # llama-server -t, the demo's
while getopts n:t:r:o: opt; do
	case $opt in
	n) campaigns=$OPTARG ;;
	t) limit=$OPTARG ;;
	r) max_rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n '2,/^set -eu/{/^set/d;s/^# \{0,1\}//;p;}' "$0" >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 0 3 5 10
LLAMA_SERVER=${LLAMA_SERVER:-$(scripts/install-llama-server.sh)}
MODEL_DIR=${MODEL_DIR:-$PWD/.cache/models}
[ -f "$MODEL_DIR/target.gguf" ] || { echo "ladder: no $MODEL_DIR/target.gguf: run make models" >&2; exit 1; }
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
go build -o "$out/bin/decodebench" ./cmd/decodebench
go build -o "$out/bin/slowdown" ./cmd/slowdown

# markers prints the wrapper comment lines that name, by absolute path,
# the binary (and libraries) the installed llama-server runs, so that the
# slowed arm's record identifies the same build.
markers() {
	srv=$(readlink -f "$1")
	dir=$(dirname "$srv")
	if [ "$(head -c 2 "$srv")" != "#!" ]; then
		echo "# decodebench-real-binary: $srv"
		return
	fi
	real=$(sed -n 's/^# decodebench-real-binary: //p' "$srv" | head -n 1)
	[ -n "$real" ] || return 0
	case $real in /*) ;; *) real=$(cd "$dir" && readlink -f "$real") ;; esac
	echo "# decodebench-real-binary: $real"
	libs=$(sed -n 's/^# decodebench-library-path: //p' "$srv" | head -n 1)
	[ -n "$libs" ] || return 0
	abs=
	old_ifs=$IFS IFS=:
	for l in $libs; do
		case $l in /*) ;; *) l=$(cd "$dir" && readlink -f "$l") ;; esac
		abs=${abs:+$abs:}$l
	done
	IFS=$old_ifs
	echo "# decodebench-library-path: $abs"
}

# wrapper writes the slowed arm's engine: llama-server under slowdown.
wrapper() { # STOP_PERCENT PATH
	mkdir -p "$(dirname "$2")"
	{
		echo "#!/bin/sh"
		echo "# llama-server held stopped $1% of the time (scripts/ladder.sh)"
		markers "$LLAMA_SERVER"
		echo "exec '$out/bin/slowdown' -stop $1% -- '$LLAMA_SERVER' \"\$@\""
	} >"$2"
	chmod 755 "$2"
}

scenario() { # STOP_PERCENT SEED WRAPPER
	cat <<YAML
# The known-slowdown ladder (scripts/ladder.sh): llama-server against itself
# held stopped $1% of the time by cmd/slowdown.
feature: ladder-stop$1
title: "Known slowdown: llama-server held stopped $1% of the time"
hardware: auto
vars:
  LLAMA_SERVER: llama-server
  MODEL_DIR: .cache/models
engine:
  preset: llama.cpp
  command: ["\${LLAMA_SERVER}", "-m", "\${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "\${PORT}",
            "--metrics", "-t", "$threads", "-np", "1", "-c", "1024"]
  ready: {path: /health, timeout: 120s}
  request: {endpoint: /completion, prompt: "Once upon a time", max_tokens: 256, temperature: 0, seed: 0, ignore_eos: true}
arms:
  - name: base
    args: ["--spec-type", "none"]
  - name: slowed
    args: ["--spec-type", "none"]
    engine:
      command: ["$3", "-m", "\${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "\${PORT}",
                "--metrics", "-t", "$threads", "-np", "1", "-c", "1024"]
baseline: base
allow_unverified: "both arms run the same build; the slowed arm differs only by the slowdown wrapper"
schedule:
  rounds: {min: 5, max: $max_rounds, max_time: ${limit}s, every: 5}
  warmup: 1
  order: rotate
  seed: $2
  cooldown: 1s
metrics:
  primary: decode_tok_s
gates: {max_spread: 50%, max_contended: 50%}
unmeasured:
  - "Everything but decode throughput under a known slowdown: this campaign measures the method's sensitivity."
YAML
}

summary="$out/ladder.tsv"
printf 'stop\tcampaign\tverdict\tcomparison\tseconds\truns\n' >"$summary"
for stop in "$@"; do
	wrapper "$stop" "$out/stop$stop/llama-server"
	i=1
	while [ "$i" -le "$campaigns" ]; do
		dir="$out/stop$stop/c$i"
		mkdir -p "$dir"
		scenario "$stop" "$i" "$out/stop$stop/llama-server" >"$dir/scenario.yaml"
		# The budget (max_time) ends the campaign. The safety net counts
		# from the first run (not the wait for the host lock, nor the
		# engine probes): at twice the budget SIGINT ends the campaign
		# with an INCOMPLETE record of what ran.
		LLAMA_SERVER=$LLAMA_SERVER MODEL_DIR=$MODEL_DIR "$out/bin/decodebench" run --wait-lock "$wait_lock" \
			--out "$dir/records" "$dir/scenario.yaml" >"$dir/run.out" 2>&1 &
		pid=$! t0= stopped=
		while kill -0 "$pid" 2>/dev/null; do
			if [ -z "$t0" ] && grep -q ' run 1/' "$dir/run.out" 2>/dev/null; then t0=$(date +%s); fi
			if [ -n "$t0" ] && [ -z "$stopped" ] && [ $(($(date +%s) - t0)) -ge $((2 * limit)) ]; then
				kill -INT "$pid" && stopped=1
			fi
			sleep 1
		done
		rc=0
		wait "$pid" || rc=$?
		secs=$(($(date +%s) - ${t0:-$(date +%s)}))
		rec=$(ls "$dir"/records/*.md 2>/dev/null | head -n 1)
		line="no record (exit $rc)" runs=0
		if [ -n "$rec" ]; then
			line=$(grep -m 1 '^- `slowed` vs `base`' "$rec" | sed 's/^- `slowed` vs `base`: //; s/ — .*//; s/;.*//') || true
			runs=$(sed -n 's/^| Runs | \([0-9]*\) measured.*/\1/p' "$rec" | head -n 1)
		fi
		printf '%s%%\t%d\t%d\t%s\t%d\t%s\n' "$stop" "$i" "$rc" "$line" "$secs" "${runs:-0}" | tee -a "$summary"
		i=$((i + 1))
	done
done

echo
echo "records and logs: $out"
awk -F'\t' 'NR > 1 {
	n[$1]++
	if ($4 ~ /slower/) slow[$1]++
	if ($4 ~ /faster/) fast[$1]++
	t[$1] = t[$1] " " $5
	if (!($1 in order)) { order[$1] = ++k; key[k] = $1 }
}
END {
	printf "%-9s %-10s %-22s %-24s %s\n", "slowdown", "campaigns", "detected (slower, sig.)", "false claims (faster)", "median time to decision (s)"
	for (j = 1; j <= k; j++) {
		s = key[j]
		m = split(substr(t[s], 2), v, " ")
		for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (v[b] + 0 < v[a] + 0) { x = v[a]; v[a] = v[b]; v[b] = x }
		med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
		printf "%-9s %-10d %-22d %-24d %s\n", s, n[s], slow[s] + 0, fast[s] + 0, med
	}
}' "$summary"
