#!/bin/sh
# check_slurm.sh MMEMU - `mmemu sweep --slurm` and `mmemu collect` against a real
# Slurm: a one-node cluster on loopback, started here from Debian's packages
# (munge, slurmctld, slurmd) with its own munge key and socket, a generated
# slurm.conf and private ports in a temporary folder, and stopped at the end
# (only the daemons this script started, by their pid files).
#   1. a 4-task array sweep of 16 simulations; one task is cancelled (scancel)
#      after it kept its first simulation: its shard keeps at most 3, the other
#      shards all 4 each;
#   2. collect then exits 1 (simulations missing) and writes nothing;
#   3. resubmitting submits shard 2 alone (#SBATCH --array=2), which runs exactly
#      the missing simulations; no other kept file is touched;
#   4. collect's file equals a local `mmemu sweep` of the same scenario byte for
#      byte apart from "host"; a third submission has nothing to run.
# Skips (exit 77) when not root or when the Slurm or munge commands are missing.
set -u
MMEMU=$1
for c in munged munge slurmctld slurmd sbatch squeue scancel sinfo; do
	if ! command -v "$c" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$c" ]; then
		echo "check_slurm: $c not installed (apt-get install slurmctld slurmd slurm-client munge): skipped"
		exit 77
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "check_slurm: needs root (slurmd runs the jobs as their user): skipped"
	exit 77
fi
PATH=$PATH:/usr/sbin
T=$(mktemp -d /tmp/mmemu-slurm.XXXXXX)
export SLURM_CONF=$T/slurm.conf
fail=0
stop() {
	for p in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/pid"; do
		[ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
		sleep 1
	done
}
cleanup() {
	stop
	if [ "$fail" = 0 ]; then rm -rf "$T"; else echo "check_slurm: kept $T"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
die() {
	echo "check_slurm: FAIL: $*"
	fail=1
	for f in "$T"/log/*.log; do echo "--- $f"; tail -n 20 "$f"; done
	exit 1
}

# two free TCP ports (not listening now), from a per-process base
listening() { # port -> 0 when some socket listens on it
	h=$(printf ':%04X ' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h="$h" '$4 == "0A" && index($2 " ", h)' | grep -q .
}
port=$((20000 + $$ % 20000))
while listening $port || listening $((port + 1)); do port=$((port + 2)); done

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/runs" "$T/local" || die "mkdir"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null && chmod 400 "$T/munge/key"
munged --force --socket="$T/munge/sock" --key-file="$T/munge/key" --log-file="$T/log/munged.log" \
	--pid-file="$T/munge/pid" --seed-file="$T/munge/seed" || die "munged did not start"
host=$(hostname -s)
cat >"$SLURM_CONF" <<EOF
ClusterName=mmemutest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
InactiveLimit=0
KillWait=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=mmemu Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -i || die "slurmctld did not start"
slurmd || die "slurmd did not start"
i=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	[ $i -gt 60 ] && die "the node is not idle after 60 s: $(sinfo -h -o %t 2>&1)"
	sleep 1
done

# 16 simulations of a 200,000-reference trace (about 1 s each: task 2 must still be running when it is cancelled): 2 kernels x 2 sweep points x 4 runs
"$MMEMU" tracegen --kind zipf --refs 200000 --pages 40000 --seed 3 -o "$T/slow.trace" || die "tracegen"
cat >"$T/slow.json" <<'EOF'
{ "name": "slow", "machine": { "arch": "x86_64", "cpus": 1, "clock": "1GHz", "memory": "64MiB",
  "disks": [ { "name": "sda", "read": "60MB/s", "write": "50MB/s", "seek_avg": "8ms",
	       "track_to_track": "1ms", "rpm": 7200, "size": "40GB" } ] },
  "kernels": { "fifo": { "reclaim": "fifo" }, "lru": { "reclaim": "lru" } },
  "workload": { "type": "trace", "file": "slow.trace" },
  "sweep": { "workload.frames": [ 1000, 2000 ] }, "runs": 4, "seed": 1 }
EOF
S=$T/slow.json
K=$T/runs/slow.d
"$MMEMU" sweep -q -j 2 --out "$T/local" "$S" || die "local sweep"

wait_job() { # jobid: until squeue no longer lists it
	i=0
	while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && die "job $1 still queued after 300 s"
		sleep 0.5
	done
}
jobid() { sed -n 's/^submitted Slurm job \([0-9]*\):.*/\1/p' "$1"; }
count() { # files of shard $1 (of 4) kept
	n=0
	for k in $(seq $(($1 - 1)) 4 15); do
		[ -f "$K/$(printf %04d "$k").json" ] && n=$((n + 1))
	done
	echo $n
}

# 1. the array, with task 2 cancelled after its first kept simulation
"$MMEMU" sweep --slurm --max-tasks 4 --out "$T/runs" "$S" >"$T/sub1.txt" || die "submission: $(cat "$T/sub1.txt")"
grep -q ": 4 of 4 shards (16 of 16 simulations to run)" "$T/sub1.txt" || die "first submission: $(cat "$T/sub1.txt")"
grep -qx '#SBATCH --array=1-4' "$T/runs/slow.sbatch" || die "script: $(cat "$T/runs/slow.sbatch")"
J=$(jobid "$T/sub1.txt")
i=0
until [ -f "$K/0001.json" ]; do
	i=$((i + 1))
	[ $i -gt 3000 ] && die "shard 2 kept nothing in 60 s"
	sleep 0.02
done
scancel "${J}_2" || die "scancel"
wait_job "$J"
k2=$(count 2)
[ "$k2" -le 3 ] || die "cancelled shard 2 kept $k2 of 4 simulations (it finished before scancel)"
for s in 1 3 4; do
	[ "$(count $s)" = 4 ] || die "shard $s kept $(count $s) of 4 simulations"
	grep -q "shard $s/4: 4 simulations: 4 ran, 0 reused, 0 failed" "$T/runs/slurm-${J}_$s.out" ||
		die "task $s: $(cat "$T/runs/slurm-${J}_$s.out")"
done

# 2. collect sees the hole
"$MMEMU" collect --out "$T/runs" "$S" >"$T/col1.txt"
[ $? = 1 ] || die "collect with missing simulations did not exit 1"
grep -q "16 simulations: 0 ran, $((12 + k2)) reused, 0 failed, $((4 - k2)) missing" "$T/col1.txt" ||
	die "collect: $(cat "$T/col1.txt")"
[ ! -e "$T/runs/slow.json" ] || die "collect wrote a partial results file"

# 3. resubmission: shard 2 alone, only its missing simulations
stat -c '%n %i %Y %s' "$K"/*.json >"$T/before.txt"
"$MMEMU" sweep --slurm --max-tasks 4 --out "$T/runs" "$S" >"$T/sub2.txt" || die "resubmission"
grep -q ": 1 of 4 shards ($((4 - k2)) of 16 simulations to run)" "$T/sub2.txt" || die "resubmission: $(cat "$T/sub2.txt")"
grep -qx '#SBATCH --array=2' "$T/runs/slow.sbatch" || die "script: $(cat "$T/runs/slow.sbatch")"
J2=$(jobid "$T/sub2.txt")
wait_job "$J2"
grep -q "shard 2/4: 4 simulations: $((4 - k2)) ran, $k2 reused, 0 failed" "$T/runs/slurm-${J2}_2.out" ||
	die "rerun of shard 2: $(cat "$T/runs/slurm-${J2}_2.out")"
ls "$T"/runs/slurm-"${J2}"_*.out | grep -qv "_2.out" && die "tasks other than 2 ran: $(ls "$T/runs")"
stat -c '%n %i %Y %s' "$K"/*.json | grep -F -x -f "$T/before.txt" | cmp -s - "$T/before.txt" ||
	die "kept files changed by the rerun"

# 4. collect equals the local sweep before "host"; nothing left to submit
"$MMEMU" collect --out "$T/runs" "$S" >"$T/col2.txt" || die "collect: $(cat "$T/col2.txt")"
grep -q "16 simulations: 0 ran, 16 reused, 0 failed; results: $T/runs/slow.json" "$T/col2.txt" ||
	die "collect: $(cat "$T/col2.txt")"
sed '/^ "host": {/,$d' "$T/local/slow.json" >"$T/a.txt"
sed '/^ "host": {/,$d' "$T/runs/slow.json" >"$T/b.txt"
[ -s "$T/a.txt" ] && grep -q '"runs"' "$T/a.txt" || die "no results before host"
cmp "$T/a.txt" "$T/b.txt" || die "collect's results differ from the local sweep's"
"$MMEMU" sweep --slurm --max-tasks 4 --out "$T/runs" "$S" >"$T/sub3.txt" || die "third submission"
grep -q "all 16 simulations are kept" "$T/sub3.txt" || die "third submission: $(cat "$T/sub3.txt")"
echo "check_slurm: ok (job $J: shard 2 cancelled with $k2 of 4 kept; job $J2 reran $((4 - k2)))"
