#!/bin/bash
# build-kernel.sh BUNDLE ROOT - build a kernel with every loaded module
# built in and CONFIG_BUILTIN_MODULE_RANGES=y, for record-vm.sh to boot
# (KERNEL_ROOT=ROOT), so that a bundle records modules.builtin.ranges from
# a real kernel (docs/evidence.md, "modules.builtin.ranges").
#
# Why: a kernel whose drivers are built in lists no modules, and its
# kallsyms names no module for their functions; since 6.12 Kbuild can write
# modules.builtin.ranges, the address ranges of each built-in module, and
# kctui attributes traced functions through it.  Debian ships its kernels
# without that option, so the only real source is a kernel built here.
#
# Steps (nothing here edits a kernel file by hand):
#   1. unpack /usr/src/linux-source-KVER.tar.xz (KVER from BUNDLE's uname)
#      into WORK/linux-source-KVER (a pristine tree: Kbuild builds O= only
#      from a clean source tree);
#   2. kctui export -e BUNDLE --policy modules --accept all from BUNDLE's own
#      config (Debian's): the options the bundle's machine used;
#   3. every =m of that config set to y, and VMLINUX_MAP,
#      BUILTIN_MODULE_RANGES, DEBUG_INFO_NONE, LOCALVERSION, module
#      versions off (signing stays: SECURITY_LOCKDOWN_LSM selects it), with the kernel's own scripts/config, then
#      its own `make olddefconfig`; each requested value is checked after;
#   4. make bzImage modules (O=WORK/build), modules_install into ROOT, with
#      ROOT/boot/vmlinuz-KVER and ROOT/boot/config-KVER: the layout of a
#      Debian kernel package, which record-vm.sh unpacks.
#
# Environment: KCTUI_EVIDENCE_WORK (default /var/tmp/kctui-build-kernel),
#              JOBS (default: nproc), KCTUI (default ./kctui of this repo).
# Measured: 2 cores, no ccache, 6.12 from the cloud-vm-6.12 bundle: see
# tests/fixtures/evidence/cloud-vm-6.12-builtin/README.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bundle=${1:?usage: build-kernel.sh BUNDLE ROOT}
root=${2:?usage: build-kernel.sh BUNDLE ROOT}
work=${KCTUI_EVIDENCE_WORK:-/var/tmp/kctui-build-kernel}
jobs=${JOBS:-$(nproc)}
kctui=${KCTUI:-$repo/kctui}
localversion=-kctui-builtin

log() { printf '[build-kernel %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

bundle=$(cd "$bundle" && pwd)
mkdir -p "$work" "$root"
work=$(cd "$work" && pwd)
root=$(cd "$root" && pwd)
[ -x "$kctui" ] || die "$kctui missing: run make first"
[ -s "$bundle/uname" ] && [ -s "$bundle/config.xz" ] ||
	die "$bundle has no uname or config.xz"
# "Linux host 6.12.118+deb12-amd64 ..." -> 6.12
kser=$(awk '{ split($3, v, "."); print v[1] "." v[2]; exit }' "$bundle/uname")
tarball=/usr/src/linux-source-$kser.tar.xz
[ -e "$tarball" ] || die "$tarball missing (apt-get install linux-source-$kser)"
# Kbuild runs generate_builtin_ranges.awk with gawk, which Debian does not
# install by default.
if ! command -v gawk >/dev/null; then
	log "installing gawk"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gawk >&2
fi

src=$work/linux-source-$kser
if [ ! -e "$src/.kctui-unpacked" ]; then
	log "unpacking $tarball"
	rm -rf "$src" "$work/unpack"
	mkdir -p "$work/unpack"
	tar -xf "$tarball" -C "$work/unpack"
	mv "$work/unpack/linux-source-$kser" "$src"
	rmdir "$work/unpack"
	touch "$src/.kctui-unpacked"
fi

log "config: kctui export --policy modules from the bundle's own config"
xzcat "$bundle/config.xz" > "$work/base.config"
"$kctui" -C "$src" --config "$work/base.config" export -e "$bundle" \
	-o "$work/trimmed.config" --policy modules --accept all >&2

# Everything the trim kept as a module, built in; then the build options.
# Set with the kernel's own scripts/config, then its conf (olddefconfig)
# resolves dependants and choices; each value is checked after it.
sets=()
while IFS= read -r sym; do
	sets+=("$sym=y")
done < <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=m$/\1/p' "$work/trimmed.config")
log "${#sets[@]} modules set to y"
want=(VMLINUX_MAP=y BUILTIN_MODULE_RANGES=y DEBUG_INFO_NONE=y
	DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=n MODVERSIONS=n
	"LOCALVERSION=\"$localversion\"")
mkdir -p "$work/build"
cp "$work/trimmed.config" "$work/build/.config"
args=()
for w in "${sets[@]}" "${want[@]}"; do
	case $w in
	*=y) args+=(--enable "${w%=y}") ;;
	*=n) args+=(--disable "${w%=n}") ;;
	*) v=${w#*=}; v=${v#\"}; args+=(--set-str "${w%%=*}" "${v%\"}") ;;
	esac
done
"$src/scripts/config" --file "$work/build/.config" "${args[@]}"
make -s -C "$src" O="$work/build" olddefconfig >&2
# The build options must hold; a module that conf keeps at m (an
# invisible tristate whose default is m, say) stays a module: listed.
for w in "${want[@]}"; do
	case $w in
	*=n) grep -qx "# CONFIG_${w%=n} is not set" "$work/build/.config" ||
		die "CONFIG_${w%=n} is not off after olddefconfig" ;;
	*) grep -qx "CONFIG_$w" "$work/build/.config" ||
		die "CONFIG_$w did not hold after olddefconfig" ;;
	esac
done
for w in "${sets[@]}"; do
	grep -qx "CONFIG_$w" "$work/build/.config" ||
		log "CONFIG_${w%=y} is $(grep "^CONFIG_${w%=y}=" "$work/build/.config" || echo off) after olddefconfig"
done
nm=$(grep -c '=m$' "$work/build/.config" || true)
log "config: $(grep -c '=y$' "$work/build/.config") =y, $nm =m"

log "make -j$jobs bzImage modules"
incremental=
[ -e "$work/build/vmlinux" ] && incremental=" (incremental: the build directory held an earlier build)"
start=$(date +%s)
make -s -C "$src" O="$work/build" -j"$jobs" bzImage modules >&2
end=$(date +%s)
log "built in $((end - start)) s"
[ -s "$work/build/modules.builtin.ranges" ] ||
	die "the build wrote no modules.builtin.ranges"
kver=$(cat "$work/build/include/config/kernel.release")
rm -rf "$root/lib/modules/$kver"
make -s -C "$src" O="$work/build" INSTALL_MOD_PATH="$root" modules_install >&2
mkdir -p "$root/boot"
cp "$work/build/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$kver"
cp "$work/build/.config" "$root/boot/config-$kver"
cp "$work/build/System.map" "$root/boot/System.map-$kver"
[ -s "$root/lib/modules/$kver/modules.builtin.ranges" ] ||
	die "modules_install did not install modules.builtin.ranges"
{
	echo "source: linux-source-$kser $(dpkg-query -W -f='${Version}' "linux-source-$kser" 2>/dev/null || echo unknown)"
	echo "steps: tests/evidence/build-kernel.sh $(basename "$bundle") (git $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)):"
	echo "  kctui export --policy modules --accept all of that bundle's config,"
	echo "  ${#sets[@]} options =m set to y, then ${want[*]}"
	echo "  (scripts/config), make olddefconfig: $(grep -c '=y$' "$work/build/.config") =y, $nm =m"
	echo "build: make -j$jobs bzImage modules, $((end - start)) s$incremental on $(nproc) CPUs, gcc $(gcc -dumpversion)"
	echo "ranges: $(wc -l < "$root/lib/modules/$kver/modules.builtin.ranges") lines of modules.builtin.ranges"
} > "$root/boot/origin-$kver"
log "kernel $kver in $root ($(wc -l < "$root/lib/modules/$kver/modules.builtin.ranges") range lines)"
