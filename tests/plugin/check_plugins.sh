#!/bin/sh
# check_plugins.sh MMEMU UNINSTALLED_PC_DIR SRCDIR BAD_PLUGINS... - the plugin tests:
#  1. the out-of-tree example (tests/plugin/example) is copied to a temporary
#     folder and built there with its own meson project against this build tree's
#     uninstalled mmemu-plugin.pc;
#  2. its "mru" module replays a loop with exact counts (6 faults of 12 where lru
#     has 12), through --plugin on replay and through a scenario's "plugins" (a
#     trace workload), and shows in `mmemu list`;
#     kept results of a sweep are reused only with the same plugin bytes;
#  3. a plugin with a module of each of the four kinds lists all four;
#  4. mmemu exports exactly emu/plugin/exports.list; each refused plugin exits 2 with one line naming the problem, and no results.
set -u
MMEMU=$1 UNINST=$2 SRC=$3
shift 3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

# --- 1. out-of-tree build
cp -r "$SRC/tests/plugin/example" "$tmp/mru"
if ! PKG_CONFIG_PATH="$UNINST" meson setup "$tmp/mru/build" "$tmp/mru" >"$tmp/setup.log" 2>&1 ||
   ! ninja -C "$tmp/mru/build" >"$tmp/ninja.log" 2>&1; then
	cat "$tmp/setup.log" "$tmp/ninja.log"
	bad "the example plugin does not build out of tree"
	exit 1
fi
so="$tmp/mru/build/mru.so"
exported=$(nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }')
[ "$exported" = "mmemu_plugin_init" ] || bad "mru.so exports \"$exported\", expected only mmemu_plugin_init"

# the executable exports exactly emu/plugin/exports.list
want=$(sed -n 's/^[[:space:]]*\([a-z_0-9]*\);$/\1/p' "$SRC/emu/plugin/exports.list" | sort)
have=$(nm -D --defined-only "$MMEMU" | awk '$2 == "T" { print $3 }' | sort)
[ "$want" = "$have" ] || bad "mmemu exports: $(echo "$have" | tr '\n' ' '), expected: $(echo "$want" | tr '\n' ' ')"

# --- 2. replay, list, scenario
refs=1,2,3,4,1,2,3,4,1,2,3,4
out=$("$MMEMU" replay --plugin "$so" --policy mru --frames 3 --refs $refs --json)
echo "$out" | grep -q '"faults": 6, "hits": 6' || bad "mru replay: $out"
out=$("$MMEMU" replay --policy lru --frames 3 --refs $refs --plugin="$so" --json)
echo "$out" | grep -q '"faults": 12, "hits": 0' || bad "lru replay with the plugin loaded: $out"
"$MMEMU" list --plugin "$so" | grep -q '^  mru  ' || bad "mmemu list does not show mru"
"$MMEMU" replay --policy mru --frames 3 --refs 1,2 >/dev/null 2>&1 && bad "mru known without the plugin"

printf '1\n2\n3\n4\n1\n2\n3\n4\n1\n2\n3\n4\n' > "$tmp/loop.txt"
cat > "$tmp/s.json" <<JSON
{ "name": "plugin-loop", "plugins": ["mru/build/mru.so"],
  "machine": { "arch": "x86_64", "cpus": 1, "clock": "1GHz", "memory": "64MiB",
    "disks": [ { "name": "sda", "read": "60MB/s", "write": "50MB/s", "seek_avg": "8ms",
                 "track_to_track": "1ms", "rpm": 7200, "size": "40GB" } ] },
  "kernels": { "lru": { "reclaim": "lru" }, "mru": { "reclaim": "mru" } },
  "workload": { "type": "trace", "file": "loop.txt", "format": "plain", "frames": 3 } }
JSON
if "$MMEMU" run "$tmp/s.json" -o "$tmp/r.json" >"$tmp/run.log" 2>&1; then
	python3 - "$tmp/r.json" <<'PY' || bad "scenario run with the plugin: wrong faults"
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["kernel"]: x["metrics"]["faults"] for x in r["runs"]}
sys.exit(0 if f == {"lru": 12, "mru": 6} else print(f) or 1)
PY
else
	cat "$tmp/run.log"
	bad "scenario with \"plugins\" does not run"
fi

# kept results are keyed by the plugin's digest: a changed plugin reruns them
"$MMEMU" sweep -j 1 -q -o "$tmp/keep" "$tmp/s.json" || bad "sweep with a plugin"
"$MMEMU" sweep -j 1 -o "$tmp/keep" "$tmp/s.json" 2>&1 | grep -q '2 simulations: 0 ran, 2 reused' ||
	bad "the same plugin does not reuse kept results"
printf 'x' >> "$so"    # other bytes, same code (the loader ignores trailing bytes)
"$MMEMU" sweep -j 1 -o "$tmp/keep" "$tmp/s.json" 2>&1 | grep -q '2 simulations: 2 ran, 0 reused' ||
	bad "a changed plugin reuses kept results"

# --- 3. all four kinds
kinds=$(for p in "$@"; do case $p in *bad_kinds.so) echo "$p";; esac; done)
"$MMEMU" list --plugin "$kinds" > "$tmp/list.txt"
for m in plugtest plugkmap plugcolor plugalloc; do
	grep -q "^  $m " "$tmp/list.txt" || bad "list with bad_kinds.so lacks $m"
done

# --- 4. refused plugins: exit 2, one line, the reason
expect() {   # expect NAME PATTERN
	p=$(for q in $all; do case $q in *bad_$1.so) echo "$q";; esac; done)
	"$MMEMU" replay --plugin "$p" --policy lru --frames 1 --refs 1 >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc -eq 2 ] || bad "bad_$1: exit $rc, expected 2"
	[ ! -s "$tmp/o" ] || bad "bad_$1: output on stdout"
	[ "$(wc -l <"$tmp/e")" -eq 1 ] || bad "bad_$1: not one line: $(cat "$tmp/e")"
	grep -q "$2" "$tmp/e" || bad "bad_$1: \"$(cat "$tmp/e")\" lacks \"$2\""
}
all="$*"
expect abi 'built for plugin ABI version 99, this mmemu loads version 1'
expect undef 'undefined symbol: reclaim_create'
expect noentry 'not an mmemu plugin: it does not export mmemu_plugin_init()'
expect dup 'duplicate reclaim module name "lru" (a built-in module has it)'
expect version 'reclaim module "future" implements interface version 3 (this build supports 1..2)'
expect none 'registered no module'
expect unchecked 'registered a module before its ABI version was checked'
"$MMEMU" list --plugin "$tmp/nonexistent.so" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'nonexistent.so: cannot read: No such file or directory' "$tmp/e" ||
	bad "missing file: exit $rc, $(cat "$tmp/e")"
"$MMEMU" list --plugin 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--plugin: expected a shared object file' "$tmp/e" || bad "--plugin without a file"
# a duplicate across two plugins; the same file twice is loaded once
"$MMEMU" list --plugin "$so" --plugin "$so" >/dev/null || bad "the same plugin twice"
cp "$so" "$tmp/mru2.so"
"$MMEMU" list --plugin "$so" --plugin "$tmp/mru2.so" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'duplicate reclaim module name "mru" (another plugin registered it)' "$tmp/e" ||
	bad "two plugins with one name: exit $rc, $(cat "$tmp/e")"
# a scenario's bad list: one line naming the scenario file and JSON path
sed 's|"plugins": \["mru/build/mru.so"\]|"plugins": ["mru/build/mru.so", 3]|' "$tmp/s.json" > "$tmp/b.json"
"$MMEMU" run "$tmp/b.json" -o "$tmp/rb.json" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'b.json: plugins\[1\]: expected a shared object file name' "$tmp/e" &&
	[ ! -e "$tmp/rb.json" ] || bad "bad plugins list: exit $rc, $(cat "$tmp/e")"
sed 's|mru/build/mru.so|nothere.so|' "$tmp/s.json" > "$tmp/b.json"
"$MMEMU" validate "$tmp/b.json" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'b.json: plugins: plugin .*nothere.so: cannot read' "$tmp/e" ||
	bad "missing scenario plugin: exit $rc, $(cat "$tmp/e")"
[ $fail -eq 0 ] && echo "plugins: all checks passed"
exit $fail
