#!/bin/sh
# check_valgrind.sh VALGRIND MMEMU SUPPRESSIONS - one run of every shipped
# teaching scenario (scenarios/teaching/*.json) under memcheck, the simulation
# children included.  Fails on any memcheck error or definitely lost block in any
# process (the parent or a simulation child).
#
# A child's exit status does not reach `mmemu run` when its reply was complete,
# so each process writes its own log (--log-file with %p) and the logs' error
# summaries decide.  SimGrid runs with its default context factory, as users run
# it: its swapped contexts register every actor stack with valgrind
# (VALGRIND_STACK_REGISTER), so memcheck follows the stack switches and needs no
# suppression (tests/valgrind.supp says more).
# Shortening: one run per cell, and the smallest sizes that keep the code paths of
# each workload (reclaim, writeback, faults, the scheduler, a peak search); the
# scenarios' own values stay in the files.
set -eu
vg=$1
mmemu=$2
supp=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in scenarios/teaching/*.json; do
	n=$(basename "$f" .json)
	case $n in
	2read-small|2read-mmap) set -- --set workload.duration=2s ;;
	kernbench-small) set -- --set workload.files=16 ;;
	reaim-small) set -- --set workload.users_max=8 ;;
	trace-policies) set -- --set 'sweep={"workload.frames":[500]}' ;;
	lmbench-colouring) set -- --set workload.age_turnovers=0.25 --set workload.min_refs=4096 ;;
	aim9-small) set -- --set workload.duration=1ms ;;
	*) echo "check_valgrind.sh: $f: no shortening listed here: add one" >&2; exit 1 ;;
	esac
	echo "valgrind: $f $*"
	mkdir "$out/$n"
	"$vg" --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=9 --suppressions="$supp" --log-file="$out/$n/%p.log" \
		"$mmemu" run -q -j 2 --set runs=1 "$@" -o "$out/$n.json" "$f" ||
		{ echo "check_valgrind.sh: $f: mmemu run exited with $?" >&2; cat "$out/$n"/*.log >&2; exit 1; }
	logs=$(ls "$out/$n"/*.log | wc -l)
	bad=$(grep -L "ERROR SUMMARY: 0 errors" "$out/$n"/*.log || true)
	if [ -n "$bad" ]; then
		echo "check_valgrind.sh: $f: memcheck errors or definite leaks:" >&2
		cat $bad >&2
		exit 1
	fi
	echo "valgrind: $f: $logs processes, no error, no definite leak"
done
echo "valgrind: every teaching scenario is memcheck-clean"
