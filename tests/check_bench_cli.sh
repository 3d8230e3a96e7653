#!/bin/sh
# check_bench_cli.sh - the benchmark executables' command lines (not their
# figures): --help prints the usage and exits 0 without running the benchmark, a
# bad option exits 2 with the usage on stderr, and bench_replay --load loads a
# small trace and reports it (or names a missing file, exit 2).
# usage: check_bench_cli.sh BENCH_REPLAY BENCH_CACHE BENCH_BIGMEM
set -u
fail() { echo "check_bench_cli: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for b in "$@"; do
	name=$(basename "$b")
	"$b" --help >"$tmp/out" 2>"$tmp/err" || fail "$name --help: exit $?"
	head -n 1 "$tmp/out" | grep -q "^usage: $name" || fail "$name --help: no usage line"
	[ "$(wc -l <"$tmp/out")" -le 20 ] || fail "$name --help: more than the usage"
	[ -s "$tmp/err" ] && fail "$name --help: wrote to stderr"
	"$b" --no-such-option 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "$name --no-such-option: exit $rc, expected 2"
	grep -q "usage: $name" "$tmp/err" || fail "$name --no-such-option: no usage on stderr"
	[ -s "$tmp/out" ] && fail "$name --no-such-option: wrote to stdout"
done
replay=$1
printf '1\n2\n1\n3\n' >"$tmp/t.trace"
"$replay" --load "$tmp/t.trace" --repeat 2 >"$tmp/out" 2>"$tmp/err" || fail "bench_replay --load: exit $?"
grep -q '^load 2: 4 refs, 3 pages: ' "$tmp/out" || fail "bench_replay --load: $(cat "$tmp/out")"
grep -q '^best of 2: ' "$tmp/out" || fail "bench_replay --load: no best line"
"$replay" --load "$tmp/missing" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "bench_replay --load missing: exit $rc, expected 2"
[ "$(cat "$tmp/err")" = "$tmp/missing: cannot open (No such file or directory)" ] ||
	fail "bench_replay --load missing: $(cat "$tmp/err")"
exit 0
