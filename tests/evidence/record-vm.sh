#!/bin/bash
# record-vm.sh [OUTDIR] - record a real kctui evidence bundle from Debian's
# own amd64 kernel booted under QEMU (TCG software emulation).
#
# OUTDIR defaults to tests/fixtures/evidence/cloud-vm (RECORD_MODE=dat:
# cloud-vm-dat, the same VM and workload recorded by trace-cmd into a
# trace.dat, with uname, modules and mounts only).  The bundle format is
# described in docs/evidence.md.  Not run by `make check`: it downloads a
# kernel package and runs a VM for several minutes.
#
# The bundle also gets vm (this machine) and workload (+ workload.d, the
# helpers' sources): what kctui verify boots and runs (docs/verify.md).
#
# Steps: install missing host packages with apt-get; `apt-get download` the
# linux-image package linux-image-amd64 depends on and unpack it with
# dpkg-deb -x; depmod; build an initramfs of busybox-static, Debian's kmod
# (the real modprobe), the static helpers compiled from tests/evidence/*.c,
# the whole modules tree and tests/evidence/init.sh as /init; make two ext4
# images (the workload's "work" disk and the "bundle" disk the guest writes
# the evidence to); boot a q35 "cloud VM" (virtio-blk, virtio-net with
# user-mode networking, virtio-rng, virtio-balloon, serial console) under a
# timeout; read the bundle back with `debugfs -R rdump`; compress; write
# README.
#
# Environment:
#   KCTUI_EVIDENCE_WORK  scratch directory (default /var/tmp/kctui-evidence-vm)
#   KERNEL_PKG           kernel package (default: what linux-image-amd64
#                        depends on)
#   QEMU_TIMEOUT         seconds before the VM is killed (default 1200)
#   QEMU_MEM             guest RAM in MiB (default 4096)
#   QEMU_SMP             guest CPUs (default 2; on a loaded host, 1 avoids
#                        soft lockups while ftrace patches text under TCG)
#   RECORD_MACHINE       "cloud" (default): the cloud VM above; "desktop": a
#                        desktop-like q35 machine (a vfat disk on AHCI, an
#                        ext4 USB stick, USB keyboard and tablet on xhci,
#                        e1000, Intel HDA with a codec on the "none" audio
#                        backend, bochs display, QEMU's parallel port) with
#                        tests/evidence/workload-desktop; OUTDIR defaults
#                        to tests/fixtures/evidence/desktop-vm; text mode
#   RECORD_MODE          "text" (default): ftrace text trace and every file;
#                        "dat": trace-cmd record of the workload (trace.dat)
#                        "collect": the bundle "kctui collect" records
#                        (./kctui, built first with make) around the workload

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mode=${RECORD_MODE:-text}
machine=${RECORD_MACHINE:-cloud}
case $machine in
cloud) wl_src=$here/workload ;;
desktop)
	wl_src=$here/workload-desktop
	[ "$mode" = text ] || { echo "RECORD_MACHINE=desktop records in text mode only" >&2; exit 1; }
	;;
*) echo "RECORD_MACHINE must be cloud or desktop" >&2; exit 1 ;;
esac
case $mode in
text) def=cloud-vm
	[ "$machine" = desktop ] && def=desktop-vm
	out=${1:-$repo/tests/fixtures/evidence/$def} ;;
dat) out=${1:-$repo/tests/fixtures/evidence/cloud-vm-dat} ;;
collect) out=${1:-$repo/tests/fixtures/evidence/cloud-vm-collect} ;;
*) echo "RECORD_MODE must be text, dat or collect" >&2; exit 1 ;;
esac
# OUTDIR is written after the cd to the scratch directory below.
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=${KCTUI_EVIDENCE_WORK:-/var/tmp/kctui-evidence-vm}
timeout_s=${QEMU_TIMEOUT:-1200}
mem=${QEMU_MEM:-4096}
smp=${QEMU_SMP:-2}

log() { printf '[record-vm %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get, mknod, cpio -R 0:0)"

# ---- host dependencies -----------------------------------------------------
need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have qemu-system-x86_64 || need_pkgs+=(qemu-system-x86)
dpkg -s busybox-static >/dev/null 2>&1 || need_pkgs+=(busybox-static)
have kmod || need_pkgs+=(kmod)
have debugfs && have mkfs.ext4 || need_pkgs+=(e2fsprogs)
[ "$machine" = cloud ] || have mkfs.vfat || need_pkgs+=(dosfstools)
have cpio || need_pkgs+=(cpio)
have xz || need_pkgs+=(xz-utils)
have gcc || need_pkgs+=(gcc)
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || need_pkgs+=(libc6-dev)
[ "$mode" = text ] || have trace-cmd || need_pkgs+=(trace-cmd)
have dpkg-deb || die "dpkg-deb missing: this script needs a Debian host"
if [ ${#need_pkgs[@]} -gt 0 ]; then
	log "installing ${need_pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		"${need_pkgs[@]}" >&2
fi

mkdir -p "$work"
cd "$work"

# ---- kernel package ----------------------------------------------------------
# KERNEL_ROOT: a kernel built here instead (tests/evidence/build-kernel.sh
# lays it out as a package: boot/vmlinuz-KVER, boot/config-KVER,
# lib/modules/KVER, boot/origin-KVER saying how it was built).
if [ -n "${KERNEL_ROOT:-}" ]; then
	kpkg=$(cd "$KERNEL_ROOT" && pwd)
	kver=$(ls -1 "$kpkg/lib/modules" | head -n 1)
	[ -n "$kver" ] || die "$kpkg/lib/modules is empty"
	pkg="a kernel built by tests/evidence/build-kernel.sh ($kver)"
	pkgver=$(sed -n 's/^source: //p' "$kpkg/boot/origin-$kver" 2>/dev/null | head -n 1)
	pkgver=${pkgver:-unknown}
	log "kernel $kver from $kpkg"
	depmod -b "$kpkg" "$kver"
else
	pkg=${KERNEL_PKG:-$(apt-cache depends linux-image-amd64 |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')}
	[ -n "$pkg" ] || die "cannot tell which kernel linux-image-amd64 depends on"
	deb=$(ls -1 "$work/${pkg}"_*_amd64.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		log "apt-get download $pkg"
		apt-get download "$pkg" >&2
		deb=$(ls -1 "$work/${pkg}"_*_amd64.deb | tail -n 1)
	fi
	pkgver=$(dpkg-deb -f "$deb" Version)
	kver=${pkg#linux-image-}
	log "kernel $pkg $pkgver ($kver)"
	if [ ! -e kpkg/.done-"$pkgver" ]; then
		rm -rf kpkg
		dpkg-deb -x "$deb" kpkg
		depmod -b kpkg "$kver"
		touch kpkg/.done-"$pkgver"
	fi
	kpkg=kpkg
fi
vmlinuz=$kpkg/boot/vmlinuz-$kver
ksrc="the package"
[ -n "${KERNEL_ROOT:-}" ] && ksrc="the build"
[ -e "$vmlinuz" ] && [ -e "$kpkg/boot/config-$kver" ] ||
	die "kernel $kver has no vmlinuz/config in $kpkg/boot"

# ---- initramfs ---------------------------------------------------------------
log "building initramfs"
rm -rf initramfs
mkdir -p initramfs/{bin,sbin,usr/bin,usr/sbin,lib/modules,lib64,lib/modprobe.d}
mkdir -p initramfs/{dev,proc,sys,tmp,run,mnt,boot,etc}
ir=$work/initramfs
cp /bin/busybox "$ir/bin/busybox"
file -L "$ir/bin/busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$ir/bin/busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "/bin/busybox is not static (install busybox-static)"
for a in $(chroot "$ir" /bin/busybox --list-full); do
	[ -e "$ir/$a" ] || ln -s /bin/busybox "$ir/$a"
done
# the real kmod, not busybox's module tools
cp /bin/kmod "$ir/bin/kmod"
for t in modprobe insmod rmmod lsmod modinfo depmod; do
	rm -f "$ir/sbin/$t" "$ir/bin/$t" "$ir/usr/sbin/$t" "$ir/usr/bin/$t"
	ln -s /bin/kmod "$ir/sbin/$t"
done
# copy_libs BINARY: the shared libraries ldd lists, into the initramfs
copy_libs() {
	local lib
	for lib in $(ldd "$1" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
		case $lib in
		*/ld-linux*) cp -L "$lib" "$ir/lib64/" ;;
		*) mkdir -p "$ir/lib/x86_64-linux-gnu"; cp -L "$lib" "$ir/lib/x86_64-linux-gnu/" ;;
		esac
	done
}
copy_libs /bin/kmod
if [ "$mode" = collect ]; then
	[ -x "$repo/kctui" ] || die "build ./kctui first (make)"
	cp "$repo/kctui" "$ir/usr/bin/kctui"
	copy_libs "$repo/kctui"
	{ chroot "$ir" /usr/bin/kctui --help 2>&1 || true; } | grep -q 'usage: kctui' ||
		die "kctui does not run in the initramfs"
fi
if [ "$mode" = dat ]; then
	cp "$(command -v trace-cmd)" "$ir/usr/bin/trace-cmd"
	copy_libs "$(command -v trace-cmd)"
	# (trace-cmd --version exits 255 after printing the version)
	{ chroot "$ir" /usr/bin/trace-cmd --version 2>&1 || true; } | grep -q 'trace-cmd version' ||
		die "trace-cmd does not run in the initramfs"
fi
cp /lib/modprobe.d/aliases.conf "$ir/lib/modprobe.d/" 2>/dev/null || true
chroot "$ir" /sbin/modprobe --version >/dev/null || die "kmod does not run in the initramfs"
# static helpers
for c in "$here"/*.c; do
	b=$(basename "$c" .c)
	gcc -static -O2 -Wall -Wextra -o "$ir/bin/$b" "$c"
done
cp -a "$kpkg/lib/modules/$kver" "$ir/lib/modules/"
cp "$kpkg/boot/config-$kver" "$ir/boot/"
if [ -z "${KERNEL_ROOT:-}" ]; then
	chroot "$ir" /sbin/modprobe -S "$kver" -n virtio_blk >/dev/null ||
		die "modprobe cannot resolve virtio_blk in the initramfs"
fi
install -m 0755 "$here/init.sh" "$ir/init"
# The workload kctui verify judges, with the same step/disk/nic functions
# (core/verify/verify-init.sh sourced for its functions only): what was traced
# is what a trimmed kernel must run again.
mkdir -p "$ir/etc/kctui" "$ir/lib/kctui"
install -m 0644 "$repo/core/verify/verify-init.sh" "$ir/lib/kctui/verify-init.sh"
install -m 0644 "$wl_src" "$ir/etc/kctui/workload"
cat > "$ir/bin/workload" <<'EOF_WORKLOAD'
#!/bin/sh
# /bin/workload [WORKDEV NIC]: the bundle's workload (/etc/kctui/workload),
# run as kctui verify's /init runs it; the arguments are not needed (the
# workload finds its disk and NIC itself).
KCTUI_FUNCTIONS_ONLY=1
. /lib/kctui/verify-init.sh
cd /root 2>/dev/null || cd /
. /etc/kctui/workload
EOF_WORKLOAD
chmod 0755 "$ir/bin/workload"
mknod -m 600 "$ir/dev/console" c 5 1
mknod -m 666 "$ir/dev/null" c 1 3
echo "root:x:0:0:root:/:/bin/sh" > "$ir/etc/passwd"
echo "root:x:0:" > "$ir/etc/group"
echo "kctui-evidence" > "$ir/etc/hostname"
# Uncompressed: under TCG the guest would spend longer inflating it.
(cd "$ir" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > initrd.cpio
log "initramfs $(du -h initrd.cpio | cut -f1)"

# ---- disks -------------------------------------------------------------------
rm -f work.img bundle.img sata.img stick.img
if [ "$machine" = cloud ]; then
	truncate -s 512M work.img
	mkfs.ext4 -q -F -L work work.img
else
	# as kctui verify makes a vm file's disks (core/verify/vm.c)
	truncate -s 256M sata.img
	mkfs.vfat -n sata sata.img >/dev/null
	truncate -s 128M stick.img
	mkfs.ext4 -q -F -L stick stick.img
fi
truncate -s 4G bundle.img
mkfs.ext4 -q -F -L bundle bundle.img

# quote_cmdline ARGS...: one line a shell can run again
quote_cmdline() {
	local a line=
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_./:=,@%+-]*) line+=" '$a'" ;;
		*) line+=" $a" ;;
		esac
	done
	printf '%s\n' "${line# }"
}

# record_vm_workload: the bundle's vm file (the machine of qemu_cmd below,
# in docs/evidence.md's format) and its workload with the helpers' sources,
# so that kctui verify can boot a trimmed kernel on the same machine and
# run the same steps.
record_vm_workload() {
	if [ "$machine" = desktop ]; then
		cat > "$out/vm" <<EOF_VM
# The machine this bundle was recorded on (tests/evidence/record-vm.sh,
# RECORD_MACHINE=desktop, $(date -u +%Y-%m-%d)), for kctui verify, in the
# order of the recorder's QEMU command line. Format: docs/evidence.md, "vm".
arch x86_64
machine q35
cpu max,vendor=GenuineIntel
smp $smp
memory $mem
cmdline console=ttyS0 panic=-1
# QEMU's default parallel port, which -nodefaults drops (pnp 00:02 ...)
legacy parallel
# a vfat disk on the machine's AHCI controller (00:1f.2)
disk sata 256M vfat ide-hd,bus=ide.0
device qemu-xhci,id=xhci
# a USB stick with ext4, then a keyboard and a tablet, on the xhci
disk stick 128M ext4 usb-storage,bus=xhci.0
device usb-kbd,bus=xhci.0
device usb-tablet,bus=xhci.0
netdev user,id=net0
device e1000,netdev=net0
audiodev none,id=snd0
device intel-hda
device hda-duplex,audiodev=snd0
device bochs-display
# the disk the recorder wrote the bundle to (kept so that the PCI slots
# match the bundle's drivers and modalias files)
disk bundle 4G ext4 virtio-blk-pci
EOF_VM
		cp "$wl_src" "$out/workload"
		rm -rf "$out/workload.d"
		mkdir -p "$out/workload.d"
		cp "$here"/afalg.c "$here"/pcmplay.c "$out/workload.d/"
		return 0
	fi
	cat > "$out/vm" <<EOF_VM
# The machine this bundle was recorded on (tests/evidence/record-vm.sh,
# $(date -u +%Y-%m-%d)), for kctui verify. Format: docs/evidence.md, "vm".
arch x86_64
machine q35
cpu max,vendor=GenuineIntel
smp $smp
memory $mem
cmdline console=ttyS0 panic=-1
disk work 512M ext4 virtio-blk-pci
disk bundle 4G ext4 virtio-blk-pci
netdev user,id=net0
device virtio-net-pci,netdev=net0
object rng-random,filename=/dev/urandom,id=rng0
device virtio-rng-pci,rng=rng0
device virtio-balloon-pci
EOF_VM
	cp "$wl_src" "$out/workload"
	rm -rf "$out/workload.d"
	mkdir -p "$out/workload.d"
	cp "$here"/*.c "$out/workload.d/"
}

# record_collect_bundle: RECORD_MODE=collect's OUTDIR: kctui collect's
# files as it wrote them.
record_collect_bundle() {
	local f
	for f in uname modules functions modalias drivers mounts crypto; do
		[ -s "raw/out/$f" ] || die "bundle file $f missing or empty"
	done
	grep -q '^ext4_' raw/out/functions || die "functions has no ext4_*"
	mkdir -p "$out"
	rm -f "$out"/*
	cp raw/out/* "$out/"
	{
		echo "kctui evidence bundle: cloud-vm-collect"
		echo "======================================="
		echo
		echo "Recorded by tests/evidence/record-vm.sh (RECORD_MODE=collect) on $(date -u +%Y-%m-%d):"
		echo "the VM of ../cloud-vm (see its README for the guest and the workload),"
		echo "where /init ran the host-built kctui (git $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)):"
		echo
		echo "    kctui collect -o OUT -- sh -c '/bin/workload WORKDEV NIC > LOG 2>&1'"
		echo
		echo "Every file here is as kctui collect wrote it; nothing was edited."
		echo "kctui collect's messages (stderr):"
		echo
		sed 's/^/    /' raw/meta/collect.err
		echo
		echo "Kernel:  Debian package $pkg, version $pkgver"
		echo "uname:   $(cat raw/out/uname)"
		echo "QEMU:    $qemu_version, TCG, ${wall} s wall time; command line:"
		echo
		echo "    $(quote_cmdline "${qemu_cmd[@]}")"
		echo
		echo "functions: $(wc -l < raw/out/functions) distinct traced functions."
	} > "$out/README"
	log "done: $out ($(du -sh "$out" | cut -f1)); $(wc -l < raw/out/functions) functions; QEMU ${wall}s"
}

# record_dat_bundle: RECORD_MODE=dat's OUTDIR, from raw/out.
record_dat_bundle() {
	local f events funcs
	for f in uname modules mounts trace.dat; do
		[ -s "raw/out/$f" ] || die "bundle file $f missing or empty"
	done
	trace-cmd report -i raw/out/trace.dat 2>/dev/null > report.txt ||
		die "trace-cmd report cannot read raw/out/trace.dat"
	grep -q -m 1 'function: *ext4_' report.txt ||
		die "trace.dat has no ext4_* function events"
	events=$(grep -c 'function:' report.txt)
	funcs=$(sed -n 's/.*function: *\([^ ]*\).*/\1/p' report.txt | LC_ALL=C sort -u | wc -l)
	mkdir -p "$out"
	rm -f "$out"/uname "$out"/modules "$out"/mounts "$out"/trace.dat "$out"/README
	for f in uname modules mounts trace.dat; do
		cp "raw/out/$f" "$out/$f"
	done
	{
		echo "kctui evidence bundle: cloud-vm-dat"
		echo "==================================="
		echo
		echo "Recorded by tests/evidence/record-vm.sh (RECORD_MODE=dat) on $(date -u +%Y-%m-%d):"
		echo "the VM and workload of ../cloud-vm (see its README for the guest), but"
		echo "the workload (tests/evidence/workload) traced by trace-cmd instead of"
		echo "the ftrace text interface, with:"
		echo
		echo "    trace-cmd record -q -p function $(sed -n 's/^DAT_FILTERS="\(.*\)"/\1/p' "$here/init.sh") \\"
		echo "        -b $(sed -n 's/^DAT_BUF_KB=\([0-9]*\).*/\1/p' "$here/init.sh") --file-version 7 --compression zstd \\"
		echo "        -o trace.dat /bin/workload WORKDEV NIC"
		echo
		echo "trace-cmd is the host's ($(dpkg-query -W -f='${Version}' trace-cmd)), copied into the"
		echo "initramfs with its libraries.  The -l filters keep the file small: only"
		echo "those functions were recorded.  Nothing here is synthetic."
		echo
		echo "Kernel:  Debian package $pkg, version $pkgver"
		echo "uname:   $(cat raw/out/uname)"
		echo "QEMU:    $qemu_version, TCG, ${wall} s wall time; command line:"
		echo
		echo "    $(quote_cmdline "${qemu_cmd[@]}")"
		echo
		echo "trace.dat: $events function events, $funcs distinct functions (counted"
		echo "with trace-cmd report on the host)."
		echo
		echo "Files: uname; modules (/proc/modules after the workload); mounts"
		echo "(/proc/mounts); trace.dat ($(stat -c %s raw/out/trace.dat) bytes, compressed"
		echo "inside by trace-cmd)."
	} > "$out/README"
	log "done: $out ($(du -sh "$out" | cut -f1)); $events events, $funcs functions; QEMU ${wall}s"
}

# ---- QEMU --------------------------------------------------------------------
# shellcheck disable=SC2054 # the commas are QEMU's option syntax
if [ "$machine" = desktop ]; then
qemu_cmd=(qemu-system-x86_64
	-machine q35,accel=tcg -cpu max,vendor=GenuineIntel -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -display none -serial stdio
	-kernel "$vmlinuz" -initrd initrd.cpio
	-append "console=ttyS0 panic=-1 kctui.mode=$mode"
	-parallel null
	-drive file=sata.img,format=raw,if=none,id=sata
	-device ide-hd,bus=ide.0,drive=sata,serial=sata
	-device qemu-xhci,id=xhci
	-drive file=stick.img,format=raw,if=none,id=stick
	-device usb-storage,bus=xhci.0,drive=stick,serial=stick
	-device usb-kbd,bus=xhci.0
	-device usb-tablet,bus=xhci.0
	-netdev user,id=net0 -device e1000,netdev=net0
	-audiodev none,id=snd0 -device intel-hda -device hda-duplex,audiodev=snd0
	-device bochs-display
	-drive file=bundle.img,format=raw,if=none,id=bundle
	-device virtio-blk-pci,drive=bundle,serial=bundle)
else
qemu_cmd=(qemu-system-x86_64
	-machine q35,accel=tcg -cpu max,vendor=GenuineIntel -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -display none -serial stdio
	-kernel "$vmlinuz" -initrd initrd.cpio
	-append "console=ttyS0 panic=-1 kctui.mode=$mode"
	-drive file=work.img,format=raw,if=none,id=work
	-device virtio-blk-pci,drive=work,serial=work
	-drive file=bundle.img,format=raw,if=none,id=bundle
	-device virtio-blk-pci,drive=bundle,serial=bundle
	-netdev user,id=net0 -device virtio-net-pci,netdev=net0
	-object rng-random,filename=/dev/urandom,id=rng0
	-device virtio-rng-pci,rng=rng0
	-device virtio-balloon-pci)
fi
qemu_version=$(qemu-system-x86_64 --version | head -n 1)
log "booting (timeout ${timeout_s}s): ${qemu_cmd[*]}"
t0=$(date +%s)
set +e
timeout "$timeout_s" "${qemu_cmd[@]}" < /dev/null 2>&1 | tee console.log |
	grep --line-buffered -E '^KCTUI:|Kernel panic|cpu[0-9]|overrun' >&2
qrc=${PIPESTATUS[0]}
set -e
t1=$(date +%s)
wall=$((t1 - t0))
log "QEMU exited rc=$qrc after ${wall}s"
tr -d '\r' < console.log > console.txt
grep -q '^KCTUI: status=ok' console.txt ||
	die "guest did not finish (see $work/console.txt)"

# ---- read the bundle back ----------------------------------------------------
rm -rf raw
mkdir raw
debugfs -R "rdump /out /meta $work/raw" bundle.img >/dev/null 2>&1
if [ "$mode" = dat ]; then
	record_dat_bundle
	record_vm_workload
	exit 0
fi
if [ "$mode" = collect ]; then
	record_collect_bundle
	record_vm_workload
	exit 0
fi
for f in uname modules trace trace-stats modalias drivers mounts filesystems \
	crypto kallsyms modules.alias config; do
	# A kernel with its drivers built in may have no module loaded.
	[ -n "${KERNEL_ROOT:-}" ] && [ "$f" = modules ] && [ -e raw/out/modules ] && continue
	[ -s "raw/out/$f" ] || die "bundle file $f missing or empty"
done
extra=
if [ -s raw/out/modules.builtin.ranges ]; then
	extra=modules.builtin.ranges.xz
fi
head -n 1 raw/out/trace | grep -q '^# tracer: function' ||
	die "trace is not function-tracer output"
pats="ext4_ virtio tcp_"
[ "$machine" = desktop ] && pats="fat_ ext4_ e1000_ azx_ ahci_ xhci_"
for pat in $pats; do
	grep -q -m 1 ": $pat" raw/out/trace || die "no $pat* functions in trace"
done
if awk '$1 ~ /^0+$/ { z++ } END { exit !(z > NR / 2) }' raw/out/kallsyms; then
	die "kallsyms addresses are hidden"
fi

awk '/^overrun:/ && $2 != 0 { bad = 1 } END { exit bad }' raw/out/trace-stats ||
	die "the ring buffer wrapped (overrun in raw/out/trace-stats): shorten the workload"
grep -q 'tracing_mark_write: kctui: workload start' raw/out/trace &&
	grep -q 'tracing_mark_write: kctui: workload end' raw/out/trace ||
	die "trace lacks the workload start/end markers"

# ---- OUTDIR --------------------------------------------------------------------
log "compressing into $out"
mkdir -p "$out"
for f in uname modules trace-stats modalias drivers mounts filesystems crypto \
	trace.xz kallsyms.xz modules.alias.xz config.xz modules.builtin.ranges.xz README; do
	rm -f "$out/$f"
done
for f in uname modules trace-stats modalias drivers mounts filesystems crypto; do
	cp "raw/out/$f" "$out/$f"
done
for f in kallsyms modules.alias config ${extra:+modules.builtin.ranges}; do
	xz -9 -T0 -c "raw/out/$f" > "$out/$f.xz"
done
# The trace is the bulk: a 256 MiB dictionary (the whole trace) and -e
# make it ~40% smaller than -9 (5.3 MB instead of 8.5 MB for 221 MB).
xz -9e -T1 --lzma2=preset=9e,dict=256MiB,nice=273 -c raw/out/trace > "$out/trace.xz"

# ---- README --------------------------------------------------------------------
kv() { sed -n "s/^KCTUI: .*\\<$1=\\([^ ]*\\).*/\\1/p" console.txt | tail -n 1; }
trace_lines=$(grep -vc '^#' raw/out/trace)
funcs=$(awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1); break } }' \
	raw/out/trace | LC_ALL=C sort -u | wc -l)
first_ts=$(awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }' raw/out/trace)
last_ts=$(awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i } } END { sub(":", "", t); print t }' raw/out/trace)
n_cold=$(wc -l < raw/meta/modules.coldplug)
awk '{ print $1 }' raw/meta/modules.coldplug | sort > mods.cold
awk '{ print $1 }' raw/meta/modules.pretrace | sort > mods.pretrace
awk '{ print $1 }' raw/out/modules | sort > mods.final
mount_mods=$(comm -13 mods.cold mods.pretrace | tr '\n' ' ')
wl_mods=$(comm -13 mods.pretrace mods.final | tr '\n' ' ')
cold_err=$(sed 's/^/       /' raw/meta/coldplug.err)
passes=$(grep '^KCTUI: coldplug_pass=' console.txt | sed 's/^KCTUI: //')
overruns=$(awk '/^cpu[0-9]+$/ { c = $1 } /^overrun:/ { printf "%s overrun %s; ", c, $2 }' raw/out/trace-stats)
entries=$(awk '/^cpu[0-9]+$/ { c = $1 } /^entries:/ { printf "%s entries %s; ", c, $2 }' raw/out/trace-stats)
raw_sz=$(du -b raw/out/trace | cut -f1)
cmdline=
for a in "${qemu_cmd[@]}"; do
	case $a in
	*[!A-Za-z0-9_./:=,@%+-]*) cmdline+=" '$a'" ;;
	*) cmdline+=" $a" ;;
	esac
done
cmdline=${cmdline# }

if [ "$machine" = desktop ]; then
	devices_txt='Devices: q35 (ICH9 LPC, SMBus, AHCI built into the machine), QEMU'"'"'s
ISA parallel port (-parallel null), an ide-hd disk on the AHCI controller
(serial "sata", vfat made with mkfs.vfat), qemu-xhci with a usb-storage
stick (serial "stick", ext4), a usb-kbd and a usb-tablet, e1000 on
user-mode networking, intel-hda with hda-duplex on the "none" audio
backend, bochs-display, a virtio-blk-pci disk (serial "bundle": where the
guest wrote this bundle), a 16550 serial console (ttyS0).  -cpu max with
vendor=GenuineIntel.'
	workload_txt=$(sed -n 's/^\(step .*\)/   - \1/p' "$wl_src")
else
	devices_txt='Devices: q35 (ICH9 LPC, SMBus, AHCI built into the machine), two
virtio-blk-pci disks (serial "work": the workload'"'"'s ext4 disk, serial
"bundle": where the guest wrote this bundle; both are in mounts), a
virtio-net-pci NIC on user-mode networking, virtio-rng-pci,
virtio-balloon-pci, a 16550 serial console (ttyS0).  -cpu max with
vendor=GenuineIntel.'
	workload_txt=$(cat <<'EOF_WL'
   - ext4 on the "work" virtio-blk disk mounted at /mnt/work: 4 MiB from
     /dev/zero and 256 KiB from /dev/urandom written with fsync, 16 small
     files, sync -f, rename, symlink, unlink, ls -lR, reads (one with
     O_DIRECT), md5sum, df, sync;
   - tmpfs at /mnt/tmp: 2 MiB written, a file copied from ext4 and
     compared, unlink;
   - lo up, tcploop: 1 MiB over TCP on 127.0.0.1 plus a UDP datagram;
   - the virtio-net NIC up, 10.0.2.15/24, default route, 2 pings to the
     user-mode gateway 10.0.2.2 and one to itself;
   - afalg: sha256 over 256 KiB and cbc(aes) encryption of 4 x 64 KiB
     through AF_ALG (af_alg, algif_hash, algif_skcipher load on demand);
   - fork/exec and pipes: seq | sort | md5sum, 8 x sh -c '... | cat'.
EOF_WL
)
fi
title="kctui evidence bundle: $(basename "$out")"
{
	cat <<EOF
$title
$(printf '%s\n' "$title" | tr -c '\n' '=')

Recorded by tests/evidence/record-vm.sh on $(date -u +%Y-%m-%d) from a real
kernel under QEMU software emulation (TCG).  Nothing in this directory is
synthetic: every file is what the guest kernel reported.  Format:
docs/evidence.md.

$(if [ -n "${KERNEL_ROOT:-}" ]; then
	echo "Kernel:  $pkg; how it was built:"
	echo
	sed 's/^/    /' "$kpkg/boot/origin-$kver"
	echo
	echo "uname:   $(cat raw/out/uname)"
	echo "Config:  config.xz is /boot/config-$kver of that build."
else
	echo "Kernel:  Debian package $pkg, version $pkgver"
	echo "uname:   $(cat raw/out/uname)"
	echo "Config:  config.xz is /boot/config-$kver from that package (the same as"
	echo "         Debian's config.amd64_none_amd64)."
fi)
QEMU:    $qemu_version
         TCG (no KVM) on a $(nproc)-CPU host; wall time ${wall} s for the
         whole run (boot, coldplug, workload, writing the bundle).

QEMU command line (run in the scratch directory; vmlinuz from $ksrc,
initrd.cpio built by record-vm.sh, the .img files are the empty disks
made there with mkfs.ext4 / mkfs.vfat):

    $cmdline

Guest
-----
/init is tests/evidence/init.sh, in an uncompressed initramfs holding
busybox-static, Debian's kmod (the real modprobe, also written to
/proc/sys/kernel/modprobe so kernel module requests work), the static
helpers tests/evidence/*.c (afalg, tcploop, pcmplay), and the
$ksrc's whole /lib/modules/$kver tree (depmod run on the host).

$devices_txt

Phases
------
1. Boot to /init (kernel and built-in drivers, not traced).
2. Coldplug as udev would: kmod's \`modprobe -a\` of every
   /sys/devices/**/modalias, repeated (3 s apart) until the module count
   stopped changing (not traced):
$(printf '%s\n' "$passes" | sed 's/^/       /')
   $n_cold modules loaded after coldplug.  kmod's messages for modules that
   matched a modalias but did not load (deduplicated; "not found" lines for
   modaliases no module matches left out):
${cold_err:-       none}
3. The bundle disk mounted at /bundle (not traced); the kernel requested
   these modules:
       ${mount_mods:-none}
4. Traced workload (function tracer, started after coldplug, stopped right
   after the workload; trace_marker lines "kctui: workload start" and
   "kctui: workload end" bracket it; the steps are the bundle's workload
   file):
$workload_txt
   Modules the kernel requested during the workload (loading them is in
   the trace):
       ${wl_mods:-none}
5. Bundle written (tracer stopped): modules is the final /proc/modules;
   mounts has the workload's file systems still mounted, if any.

Trace
-----
buffer_size_kb $(grep -o '^BUF_KB=[0-9]*' "$here/init.sh" | cut -d= -f2) per CPU, 2 CPUs.
$trace_lines event lines ($(grep -c '^#' raw/out/trace) header lines), $funcs distinct functions, timestamps
$first_ts .. $last_ts s, $raw_sz bytes uncompressed.
Per CPU: ${entries}
         ${overruns}
(overrun 0 means the ring buffer did not wrap: the trace covers the whole
workload.)

Files
-----
EOF
	(cd "$out" && for f in uname modules trace.xz trace-stats modalias drivers \
		mounts filesystems crypto kallsyms.xz modules.alias.xz config.xz $extra; do
		printf '    %-26s %10d bytes\n' "$f" "$(stat -c %s "$f")"
	done)
	printf '    %-26s %10s bytes (without README)\n' total \
		"$(cd "$out" && cat uname modules trace.xz trace-stats modalias drivers \
			mounts filesystems crypto kallsyms.xz modules.alias.xz config.xz $extra | wc -c)"
	if [ -n "$extra" ]; then
		echo
		echo "modules.builtin.ranges.xz is /lib/modules/$kver/modules.builtin.ranges"
		echo "as the guest saw it (installed by the build's modules_install)."
	fi
} > "$out/README"
record_vm_workload
log "done: $out ($(du -sh "$out" | cut -f1)); trace $trace_lines lines, $funcs functions; QEMU ${wall}s"
