#!/bin/sh
# /init of the guest "kctui verify" boots (core/verify/verify-init.sh, made into
# the C string verify_init_sh by the Makefile; core/verify/initramfs.c packs it).
# busybox sh as PID 1 in an initramfs of busybox-static, Debian's kmod, the
# kernel's modules (if any), the bundle's workload (/etc/kctui/workload) and
# its helpers (/usr/local/bin).
#
# Everything the host reads is a line "@@kctui: ..." on the serial console
# (core/verify/vm.c): init RELEASE, coldplug pass=N modules=M, step NAME begin,
# step NAME end rc=N, module NAME, driver BUS DRIVER DEVICE, done.
# It must also work on a tiny kernel: no modules, no block devices in sysfs,
# perhaps no devtmpfs; every optional step is tried quietly.

export PATH=/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin
export HOME=/root
# busybox runs its own applets for bare command names: kmod by path
MODPROBE=/sbin/modprobe

mark() { echo "@@kctui: $*"; }

# ---- what the workload may use
# disk_serial /sys/block/X: the serial QEMU gave the disk. virtio-blk
# has it in serial, NVMe in device/serial; SCSI and ATA disks (libata
# answers SCSI's VPD page 0x80 with the ATA serial) in device/vpd_pg80
# after a 4-byte header, padded with blanks; USB storage in the USB
# device's serial, above the disk in sysfs.
disk_serial() {
	for s in "$1/serial" "$1/device/serial"; do
		if [ -r "$s" ]; then
			cat "$s" 2>/dev/null
			return 0
		fi
	done
	if [ -r "$1/device/vpd_pg80" ]; then
		dd if="$1/device/vpd_pg80" bs=1 skip=4 2>/dev/null | tr -d '\000'
		return 0
	fi
	d=$(readlink -f "$1/device" 2>/dev/null) || return 1
	while [ -n "$d" ] && [ "$d" != /sys ]; do
		if [ -r "$d/serial" ] && [ -r "$d/idVendor" ]; then
			cat "$d/serial" 2>/dev/null
			return 0
		fi
		d=${d%/*}
	done
	return 1
}
# disk SERIAL: the /dev node of the vm file's disk of that name (virtio,
# SCSI, ATA, NVMe or USB)
disk() {
	for b in /sys/block/*; do
		s=$(disk_serial "$b" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		if [ -n "$s" ] && [ "$s" = "$1" ]; then
			echo "/dev/${b##*/}"
			return 0
		fi
	done
	return 1
}
# nic DRIVER: the first network interface bound to that driver
nic() {
	for n in /sys/class/net/*; do
		d=$(readlink "$n/device/driver" 2>/dev/null) || continue
		if [ "${d##*/}" = "$1" ]; then
			echo "${n##*/}"
			return 0
		fi
	done
	return 1
}
# step NAME COMMAND...: run one marked step of the workload
step() {
	name=$1
	shift
	echo "@@kctui: step $name begin"
	"$@"
	rc=$?
	echo "@@kctui: step $name end rc=$rc"
}

# tests/evidence/record-vm.sh's recording VM runs the same workload with
# the same functions: it sources this file with KCTUI_FUNCTIONS_ONLY=1.
if [ -n "${KCTUI_FUNCTIONS_ONLY:-}" ]; then
	return 0 2>/dev/null || exit 0
fi

mount -t proc proc /proc
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /tmp /run /mnt
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs -o mode=1777 tmpfs /dev/shm 2>/dev/null
# The kernel asks this program for fs-*, crypto-*, net-pf-* ... modules.
[ -e /proc/sys/kernel/modprobe ] && [ -x $MODPROBE ] &&
	echo $MODPROBE > /proc/sys/kernel/modprobe
hostname kctui-verify 2>/dev/null

mark "init $(uname -r)"

# ---- a kernel without loadable modules (kctui export --builtin, MODULES=n):
# the workload's module steps ask modprobe for modules that are built in
# now. kmod has no module tree to read; a stand-in answers from the
# build's modules.builtin (lib/modules/RELEASE/modules.builtin), as kmod
# does for a built-in module, and fails with kmod's own message for one
# that is not there, which kctui verify reads to put its option back.
if [ ! -e /proc/modules ] && [ -r "/lib/modules/$(uname -r)/modules.builtin" ]; then
	echo "kctui: no loadable modules; modprobe answers from modules.builtin"
	rm -f $MODPROBE
	cat > $MODPROBE <<'EOF'
#!/bin/sh
# modprobe of a kernel without loadable modules (kctui verify's /init)
list=/lib/modules/$(uname -r)/modules.builtin
rc=0
for a in "$@"; do
	case $a in -*) continue ;; esac
	m=$(echo "$a" | tr - _)
	sed 's,.*/,,; s,\.ko$,,' "$list" | tr - _ | grep -qx "$m" && continue
	echo "modprobe: FATAL: Module $a not found in directory /lib/modules/$(uname -r)" >&2
	rc=1
done
exit $rc
EOF
	chmod 755 $MODPROBE
	# busybox runs its own modprobe applet for the bare name: the
	# workload's steps get the stand-in through a function instead
	modprobe() { $MODPROBE "$@"; }
fi

# ---- coldplug, as udev would: modprobe every modalias until the number of
# loaded modules stops changing (devices behind buses appear late)
coldplug_pass() {
	find /sys/devices -name modalias -type f 2>/dev/null |
		while read -r f; do cat "$f" 2>/dev/null; done |
		grep -v '^$' | sort -u | xargs -r $MODPROBE -a -q 2>/dev/null
}
if [ -e /proc/modules ] && [ -d "/lib/modules/$(uname -r)" ] &&
	[ -x $MODPROBE ]; then
	pass=0
	prev=-1
	while :; do
		pass=$((pass + 1))
		coldplug_pass
		sleep 2
		n=$(wc -l < /proc/modules)
		mark "coldplug pass=$pass modules=$n"
		[ "$n" = "$prev" ] && [ $pass -ge 2 ] && break
		[ $pass -ge 10 ] && break
		prev=$n
	done
fi

# The end of coldplug, at the kernel's clock: its printk timestamp on the
# console is the boot time verify measures (<2>: shown at any loglevel
# but quiet's lowest).
echo "<2>kctui: coldplug done" > /dev/kmsg 2>/dev/null

# ---- the workload, in a subshell: its exit or failure does not end init
if [ -r /etc/kctui/workload ]; then
	(cd /root 2>/dev/null; . /etc/kctui/workload)
fi
sync

# ---- what the kernel ended with
if [ -r /proc/modules ]; then
	while read -r m rest; do
		mark "module $m"
	done < /proc/modules
fi
for l in /sys/bus/*/drivers/*/*; do
	[ -L "$l" ] || continue
	t=$(readlink -f "$l")
	case $t in /sys/devices/*) ;; *) continue ;; esac
	drv=${l%/*}
	bus=${drv%/drivers/*}
	mark "driver ${bus#/sys/bus/} ${drv##*/} ${t#/sys/devices/}"
done
# Every device the machine has, bound or not, with its modalias: a device
# the bundle had bound that is here without a driver lost it; one that is
# not here at all is the machine's difference, not the trim's.
find /sys/devices -name modalias -type f 2>/dev/null |
	while read -r f; do
		a=$(cat "$f" 2>/dev/null) || continue
		[ -n "$a" ] || continue
		d=${f%/modalias}
		mark "device ${d#/sys/devices/} $a"
	done
# The distribution's userspace step (kctui verify --userspace, core/verify/
# userspace-guest.c): hands the machine to systemd on the root's disk and
# does not come back, unless it could not.
[ -r /etc/kctui/userspace ] && . /etc/kctui/userspace
mark done
sync
# QEMU runs with -no-reboot, so a reboot ends it: unlike a power-off
# this needs no ACPI in the kernel (a power-off without it halts the
# machine and QEMU would run on until the timeout).
reboot -f
sleep 5
