#!/bin/sh
# run.sh - build the libFuzzer targets and run each over a copy of its seed corpus
# (docs/fuzzing.md).
#
#   sh tests/fuzz/run.sh --time 60            each target for 60 s (CI: .ci/quickstart test)
#   sh tests/fuzz/run.sh --runs 10000000      each target for 10 M inputs (the benchmark:
#                                             .ci/quickstart fuzz)
#   (--runs and --time together: whichever comes first; neither: --time 60)
#   options: --build DIR (default build-fuzz, set up with clang when missing),
#            --keep (leave each target's grown corpus and log in the work directory),
#            --jobs N (targets run at a time; default the online CPUs),
#            then target names (default: scenario trace workfile loadfile)
#
# The committed corpus tests/fuzz/corpus/TARGET is copied to a fresh directory under
# $TMPDIR first: libFuzzer adds what it finds to its first corpus directory, and that
# must never be the committed one.  Crash inputs go to the same directory.  Prints
# one line per target (inputs run, seconds, inputs/s, coverage, corpus growth); on a
# crash it prints libFuzzer's report, keeps the directory and exits 1.
#
# LeakSanitizer stays on (-detect_leaks=1, libFuzzer's default under ASan): the
# targets free everything per input.  UBSan findings stop the run (halt_on_error).
set -eu
cd "$(dirname "$0")/../.."

limits=""
build=build-fuzz
jobs=$(nproc 2>/dev/null || echo 1)
keep=0
targets=""
while [ $# -gt 0 ]; do
	case "$1" in
	--time) limits="$limits -max_total_time=$2"; shift 2 ;;
	--runs) limits="$limits -runs=$2"; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	scenario|trace|workfile|loadfile) targets="$targets $1"; shift ;;
	*) echo "usage: sh tests/fuzz/run.sh [--time S] [--runs N] [--build DIR] [--keep] [--jobs N] [scenario|trace|workfile|loadfile ...]" >&2
	   exit 2 ;;
	esac
done
targets=${targets:-scenario trace workfile loadfile}
limits=${limits:--max_total_time=60}

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
for t in $targets; do
	set -- "$@" "tests/fuzz/fuzz_$t"
done
ninja -C "$build" "$@" >/dev/null

# One target: run it, then print its line (or its report) into $work/out.
# Returns: 0, or 1 on a crash (the directory is then kept).
fuzz_one() {
	t=$1 work=$2
	start=$(date +%s)
	if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	   "$build/tests/fuzz/fuzz_$t" $limits -timeout=30 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1; then
		secs=$(($(date +%s) - start))
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
		cov=$(sed -n 's/^#[0-9]*[ 	]*DONE *cov: \([0-9]*\).*/\1/p' "$work/log")
		seeds=$(ls tests/fuzz/corpus/"$t" | wc -l)
		grown=$(ls "$work/corpus" | wc -l)
		echo "fuzz_$t: $runs inputs in ${secs}s, $((runs / (secs > 0 ? secs : 1))) inputs/s, coverage $cov edges, corpus $seeds -> $grown" >"$work/out"
		[ "$keep" = 1 ] && echo "  kept: $work" >>"$work/out"
		return 0
	fi
	grep -v "^#[0-9]" "$work/log" | tail -60 >"$work/out"
	echo "fuzz_$t: FAILED; input and log kept in $work" >>"$work/out"
	return 1
}

# Up to $jobs targets at a time (each is one process on one core); their lines
# come out in target order.
status=0
set -- $targets
while [ $# -gt 0 ]; do
	batch=""
	n=0
	while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
		work=$(mktemp -d "${TMPDIR:-/tmp}/mmemu-fuzz-$1-XXXXXX")
		mkdir "$work/corpus"
		cp tests/fuzz/corpus/"$1"/* "$work/corpus/"
		fuzz_one "$1" "$work" &
		echo $! >"$work/pid"
		batch="$batch $work"
		n=$((n + 1))
		shift
	done
	for w in $batch; do
		if wait "$(cat "$w/pid")"; then
			cat "$w/out"
			[ "$keep" = 1 ] || rm -rf "$w"
		else
			status=1
			cat "$w/out"
		fi
	done
done
exit $status
