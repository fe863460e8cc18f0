#!/bin/sh
# /init of the evidence-recording VM built by tests/evidence/record-vm.sh.
#
# Runs as PID 1 from the initramfs (busybox-static + Debian's kmod), then:
#   1. coldplug: modprobe every /sys/devices/**/modalias, as udev would,
#      repeated until the number of loaded modules stops changing;
#   2. mounts the bundle disk (virtio-blk, serial "bundle") at /bundle;
#   3. starts the function tracer and runs the workload (ext4 on the
#      virtio-blk disk with serial "work", tmpfs, loopback TCP/UDP, the
#      virtio-net NIC brought up and pinging the user-mode gateway, AF_ALG
#      sha256 + cbc(aes), fork/exec and pipes), then stops the tracer;
#   4. writes the bundle to /bundle/out and powers off.
# Lines starting with "KCTUI:" on the console are read by record-vm.sh.
# Nothing here is simulated: every file is what this kernel reported.

export PATH=/sbin:/bin:/usr/sbin:/usr/bin
# Debian's busybox-static runs its own applets for bare command names (ash
# and xargs prefer applets), so kmod's modprobe must be called by path.
MODPROBE=/sbin/modprobe
T=/sys/kernel/tracing
BUF_KB=262144            # ring buffer per CPU (KiB)
# dat mode: trace-cmd's buffer, and the functions it records (a subset, so
# that the committed trace.dat stays small)
DAT_BUF_KB=65536
DAT_FILTERS="-l ext4_* -l jbd2_* -l virtnet_* -l virtblk_* -l virtqueue_* -l tcp_* -l udp_* -l shmem_* -l crypto_* -l af_alg_* -l alg_*"
OUT=/bundle/out
META=/bundle/meta

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp /run
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tracefs tracefs $T
# The kernel asks this program for fs-*, crypto-*, net-pf-* ... modules.
echo $MODPROBE > /proc/sys/kernel/modprobe
hostname kctui-evidence

up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "KCTUI: $*"; }
finish() {
	say "status=$1"
	sync
	umount /mnt/work 2>/dev/null
	umount /mnt/tmp 2>/dev/null
	umount /bundle 2>/dev/null
	sync
	poweroff -f
	sleep 60
}

say "init_start uptime=$(up) kernel=$(uname -r)"
$MODPROBE --version | grep -q '^kmod version' || finish no-kmod

# ---- 1. coldplug ---------------------------------------------------------
# (no -q: it only silences messages; kmod goes on after a failed alias)
coldplug_pass() {
	find /sys/devices -name modalias -type f 2>/dev/null |
		while read -r f; do cat "$f" 2>/dev/null; done |
		grep -v '^$' | sort -u | xargs $MODPROBE -a 2>> /tmp/coldplug.err
}
pass=0
prev=-1
while :; do
	pass=$((pass + 1))
	coldplug_pass
	sleep 3
	n=$(wc -l < /proc/modules)
	say "coldplug_pass=$pass modules=$n uptime=$(up)"
	[ "$n" = "$prev" ] && [ $pass -ge 2 ] && break
	[ $pass -ge 10 ] && break
	prev=$n
done
cp /proc/modules /tmp/modules.coldplug

# ---- 2. bundle disk --------------------------------------------------------
disk() { # disk SERIAL -> /dev/vdX
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${b##*/}"
	done
}
BDEV=$(disk bundle)
WDEV=$(disk work)
say "disks bundle=$BDEV work=$WDEV"
# The desktop machine has no "work" disk: its workload finds its disks by
# serial itself (disk NAME of verify-init.sh).
[ -n "$BDEV" ] || finish no-disks
mkdir -p /bundle /mnt/work /mnt/tmp
mount -t ext4 "$BDEV" /bundle || finish no-bundle-mount
mkdir -p $OUT $META
cp /tmp/modules.coldplug $META/modules.coldplug
# "not found" is every modalias no module matches; keep the real failures
grep -v 'not found' /tmp/coldplug.err | sort -u > $META/coldplug.err
NIC=
for n in /sys/class/net/*; do
	[ -e "$n/device/driver" ] && [ -z "$NIC" ] && NIC=${n##*/}
done
say "nic=$NIC"

# ---- 3. traced workload ----------------------------------------------------
# kctui.mode=collect: the bundle is what "kctui collect" (the binary the
# host built, with its libraries) records while it runs the workload.
if grep -q 'kctui.mode=collect' /proc/cmdline; then
	say "trace_start uptime=$(up) mode=collect"
	# the workload's own output to its log, kctui's messages to collect.err
	/usr/bin/kctui collect -o $OUT -- \
		sh -c '/bin/workload "$1" "$2" > /tmp/workload.log 2>&1' sh "$WDEV" "$NIC" \
		2> $META/collect.err
	rc=$?
	say "trace_stop uptime=$(up) rc=$rc"
	cat $META/collect.err
	cp /tmp/workload.log $META/workload.log
	say "bundle_done uptime=$(up)"
	[ $rc = 0 ] && finish ok
	finish collect-failed
fi
# kctui.mode=dat on the kernel command line: record the workload with
# trace-cmd into trace.dat instead (a smaller bundle for the trace.dat
# reader: uname, modules, mounts, trace.dat).
if grep -q 'kctui.mode=dat' /proc/cmdline; then
	cp /proc/modules $META/modules.pretrace
	say "trace_start uptime=$(up) mode=dat"
	set -f	# the filters are globs for trace-cmd, not for the shell
	trace-cmd record -q -p function $DAT_FILTERS -b $DAT_BUF_KB \
		--file-version 7 --compression zstd -o $OUT/trace.dat \
		/bin/workload "$WDEV" "$NIC" > /tmp/workload.log 2>&1
	rc=$?
	set +f
	say "trace_stop uptime=$(up) rc=$rc bytes=$(wc -c < $OUT/trace.dat)"
	cp /tmp/workload.log $META/workload.log
	uname -a > $OUT/uname
	cat /proc/modules > $OUT/modules
	cat /proc/mounts > $OUT/mounts
	say "bundle_done uptime=$(up)"
	finish ok
fi
cp /proc/modules $META/modules.pretrace
echo 0 > $T/tracing_on
echo $BUF_KB > $T/buffer_size_kb
echo function > $T/current_tracer
echo > $T/trace
say "trace_start uptime=$(up)"
# console output is kept out of the traced window
echo 1 > $T/tracing_on
echo "kctui: workload start" > $T/trace_marker
/bin/workload "$WDEV" "$NIC" > /tmp/workload.log 2>&1
echo "kctui: workload end" > $T/trace_marker
echo 0 > $T/tracing_on
say "trace_stop uptime=$(up)"
cat /tmp/workload.log
cp /tmp/workload.log $META/workload.log

# ---- 4. the bundle ---------------------------------------------------------
uname -a > $OUT/uname
cat /proc/modules > $OUT/modules
for c in $T/per_cpu/cpu*; do
	echo "${c##*/}"
	cat "$c/stats"
done > $OUT/trace-stats
cat $OUT/trace-stats
cat $T/trace > $OUT/trace
say "trace_written uptime=$(up) bytes=$(wc -c < $OUT/trace)"
echo nop > $T/current_tracer

find /sys/devices -name modalias -type f 2>/dev/null | sort |
	while read -r f; do
		a=$(cat "$f" 2>/dev/null) || continue
		d=${f%/modalias}
		echo "${d#/sys/devices/} $a"
	done > $OUT/modalias

for l in /sys/bus/*/drivers/*/*; do
	[ -L "$l" ] || continue
	t=$(readlink -f "$l")
	case $t in /sys/devices/*) ;; *) continue ;; esac
	drv=${l%/*}
	bus=${drv%/drivers/*}
	mod=-
	[ -L "$drv/module" ] && mod=$(basename "$(readlink "$drv/module")")
	echo "${bus#/sys/bus/} ${drv##*/} ${t#/sys/devices/} $mod"
done > $OUT/drivers

cat /proc/mounts > $OUT/mounts
cat /proc/filesystems > $OUT/filesystems
cat /proc/crypto > $OUT/crypto
cat /proc/kallsyms > $OUT/kallsyms
cp "/lib/modules/$(uname -r)/modules.alias" $OUT/modules.alias
# Kernels built with CONFIG_BUILTIN_MODULE_RANGES (6.12 on) only.
if [ -e "/lib/modules/$(uname -r)/modules.builtin.ranges" ]; then
	cp "/lib/modules/$(uname -r)/modules.builtin.ranges" $OUT/
fi
cp "/boot/config-$(uname -r)" $OUT/config
dmesg > $META/dmesg
say "bundle_done uptime=$(up)"
finish ok
