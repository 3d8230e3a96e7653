#!/bin/sh
# check_mrc.sh MMEMU - the `mmemu mrc` command line: the exact LRU curve of a
# hand-computed string in text and JSON (misses 10 10 7 6 5 at 1..5 frames, as
# replay counts them), SHARDS stating its method and error, `mmemu plot` drawing
# the curves, and usage errors exiting 2 with one line and no output.
set -u
M=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
refs=1,2,3,1,2,4,1,5,2,3
"$M" mrc --refs $refs --json > "$tmp/lru.json" || bad "mrc --json"
python3 - "$tmp/lru.json" <<'PY' || bad "exact curve"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["format"] == "mmemu-mrc/1" and m["method"] == "exact" and m["error"] == "none: exact"
assert [p["misses"] for p in m["points"]] == [10, 10, 7, 6, 5], m["points"]
assert [p["frames"] for p in m["points"]] == [1, 2, 3, 4, 5]
PY
for c in 1 3 5; do
	want=$("$M" replay --policy lru --frames $c --refs $refs --json | sed 's/.*"faults": \([0-9]*\).*/\1/')
	got=$("$M" mrc --refs $refs --sizes $c | awk '$1 == '$c' { print $2 }')
	[ "$(python3 -c "print(round($want / 10, 6) == $got)")" = True ] || bad "$c frames: mrc $got, replay $want faults"
done
"$M" mrc --refs $refs --policy fifo --sizes 1,3 --json > "$tmp/fifo.json" &&
	grep -q '"method": "simulate"' "$tmp/fifo.json" || bad "fifo: simulate by default"
"$M" tracegen --kind zipf --refs 20000 --pages 2000 --seed 3 > "$tmp/z.txt" 2>/dev/null
"$M" mrc --trace "$tmp/z.txt" --rate 0.1 --points 5 > "$tmp/s.txt" || bad "shards"
grep -q '^method   shards (rate 0.1: .* error: 2 standard errors)' "$tmp/s.txt" || bad "shards header: $(head -2 "$tmp/s.txt")"
[ "$(awk 'NR > 5' "$tmp/s.txt" | wc -l)" -eq 5 ] || bad "shards: not 5 points"
"$M" plot "$tmp/lru.json" "$tmp/fifo.json" -o "$tmp/c.svg" && grep -q 'lru (exact)' "$tmp/c.svg" &&
	grep -q 'fifo (simulate)' "$tmp/c.svg" || bad "plot of two curves"
usage() {   # usage PATTERN ARGS...
	pat=$1
	shift
	"$M" mrc "$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q -- "$pat" "$tmp/e" ||
		bad "mrc $*: exit $rc, $(cat "$tmp/e")"
}
usage 'give exactly one of --trace and --refs'
usage '--rate: expected a sampling rate in (0, 1)' --refs $refs --rate 2
usage '--method: expected exact, shards or simulate' --refs $refs --method x
usage '--method: exact: one pass gives every size only for lru' --refs $refs --policy fifo --method exact
usage '--method shards needs --rate' --refs $refs --method shards
usage '--sizes: expected frame counts' --refs $refs --sizes 3,x
usage '--sizes: expected increasing frame counts' --refs $refs --sizes 3,2
usage 'give --sizes or --points, not both' --refs $refs --sizes 3 --points 4
usage 'unknown option "--bogus"' --refs $refs --bogus
usage '--policy: unknown reclaim module "nosuch"' --refs $refs --policy nosuch
usage 'nofile' --trace "$tmp/nofile"
"$M" plot "$tmp/lru.json" --x a -o "$tmp/x.svg" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'no --x, --y or --series' "$tmp/e" || bad "plot curve with --x: exit $rc"
[ $fail -eq 0 ] && echo "mrc: all checks passed"
exit $fail
