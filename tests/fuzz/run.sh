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
keep=0
targets=""
while [ $# -gt 0 ]; do
	case "$1" in
	--time) limits="$limits -max_total_time=$2"; shift 2 ;;
	--runs) limits="$limits -runs=$2"; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	scenario|trace|workfile|loadfile) targets="$targets $1"; shift ;;
	*) echo "usage: sh tests/fuzz/run.sh [--time S] [--runs N] [--build DIR] [--keep] [scenario|trace|workfile|loadfile ...]" >&2
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

status=0
for t in $targets; do
	work=$(mktemp -d "${TMPDIR:-/tmp}/mmemu-fuzz-$t-XXXXXX")
	mkdir "$work/corpus"
	cp tests/fuzz/corpus/"$t"/* "$work/corpus/"
	start=$(date +%s)
	if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	   "$build/tests/fuzz/fuzz_$t" $limits -timeout=30 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1; then
		secs=$(($(date +%s) - start))
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
		cov=$(sed -n 's/^#[0-9]*[ 	]*DONE *cov: \([0-9]*\).*/\1/p' "$work/log")
		seeds=$(ls tests/fuzz/corpus/"$t" | wc -l)
		grown=$(ls "$work/corpus" | wc -l)
		echo "fuzz_$t: $runs inputs in ${secs}s, $((runs / (secs > 0 ? secs : 1))) inputs/s, coverage $cov edges, corpus $seeds -> $grown"
		if [ "$keep" = 1 ]; then
			echo "  kept: $work"
		else
			rm -rf "$work"
		fi
	else
		status=1
		grep -v "^#[0-9]" "$work/log" | tail -60
		echo "fuzz_$t: FAILED; input and log kept in $work" >&2
	fi
done
exit $status
