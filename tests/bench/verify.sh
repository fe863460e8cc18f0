#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/verify.sh - kctui verify on a distribution config: Debian's
# amd64 config trimmed with the cloud-vm bundle (kctui export, each policy),
# built and booted on the bundle's machine under QEMU by `kctui verify`,
# workload judged, trims put back where a step needs them.  Prints, per
# policy: the cold loop's wall time (build + boot + workload of the first
# probe, target <= 25 min on 2 cores without KVM), every later probe's
# (target <= 3 min), the objects built, and the bzImage and modules sizes
# against Debian's own untrimmed kernel package (same config, downloaded
# with apt-get download).  Not part of `make check` or `make bench`: it
# builds several distribution kernels (tens of minutes each on 2 cores).
#
#   VERIFY_POLICIES="modules aggressive verified"   policies to run
#   VERIFY_FRESH=1      a new build directory per policy (a cold loop);
#                       default: one directory kept between policies and
#                       runs, as verify keeps it
#   VERIFY_JOBS=N       make -j (default: the number of CPUs)
#   VERIFY_LATER=0      no later round (default: after the first policy,
#                       one option put back and verified again in the same
#                       build directory, as fill-back's next probe is)
#   VERIFY_BUNDLE=NAME  a bundle of tests/fixtures/evidence (or a path) with
#                       a vm and a workload (default cloud-vm; desktop-vm)
#   VERIFY_BOOT_RUNS=N  timed boots of the baseline and of the verified
#                       trim, interleaved, their medians in the measured
#                       table (default 3; kctui verify --boot-runs)
#   VERIFY_MAX_PROBES=N the probe budget (default 10; 0: no bound)
#   KCTUI               the binary (default ./kctui)
#
# The exported config keeps Debian's debug information and module
# versions; kctui verify builds its probes without them (docs/verify.md,
# --as-is).
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure
BUNDLE=${VERIFY_BUNDLE:-cloud-vm}
case $BUNDLE in */*) ;; *) BUNDLE=$KCTUI_REPO/tests/fixtures/evidence/$BUNDLE ;; esac
BNAME=$(basename "$BUNDLE")
POLICIES=${VERIFY_POLICIES:-modules aggressive verified}
JOBS=${VERIFY_JOBS:-$(nproc)}
OUT=${VERIFY_OUT:-$KCTUI_REPO/build/bench-verify/$BNAME}
mkdir -p "$OUT"

for p in qemu-system-x86_64 busybox openssl; do
	command -v $p > /dev/null || { echo "verify bench: $p missing (make deps; openssl: apt-get install libssl-dev)" >&2; exit 1; }
done

# The clean copy of the tree tests/real/verify.sh makes, shared.
kctui_tree_clean_copy || { echo "verify.sh: no clean copy of the tree" >&2; exit 1; }
# Only the clean copy is built from (O=) and the shared tree is not
# written: let tests run beside this long bench.
exec 8>&-

# Debian's untrimmed kernel: the package the bundle was recorded from.
rel=$(awk '{print $3}' "$BUNDLE/uname")
pkgdir=$KCTUI_CACHE/debian-kernel-$rel
if [ ! -d "$pkgdir/boot" ]; then
	mkdir -p "$pkgdir.tmp"
	(cd "$pkgdir.tmp" && apt-get download "linux-image-$rel" > /dev/null &&
		dpkg-deb -x linux-image-"$rel"_*.deb root) || {
		echo "verify bench: cannot download linux-image-$rel" >&2; exit 1; }
	mv "$pkgdir.tmp/root" "$pkgdir" && rm -rf "$pkgdir.tmp"
fi
deb_bz=$(stat -c %s "$pkgdir/boot/vmlinuz-$rel")
deb_mod=$(du -sb "$pkgdir/lib/modules/$rel" | cut -f1)
deb_ym=$(xzcat "$BUNDLE/config.xz" | grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$')

# make localmodconfig on the same input with the bundle's modules: the
# count the aggressive policy's verified config is held to (<= 0.85x).
lmt=$OUT/lmc-tree
rm -rf "$lmt"
cp -al "$SRC" "$lmt" && rm -rf "$lmt/scripts" && cp -a "$SRC/scripts" "$lmt/scripts"
{ echo "Module Size Used by"; awk '{print $1, $2, $3}' "$BUNDLE/modules"; } > "$OUT/lsmod"
cp "$DEBIAN_AMD64" "$lmt/.config"
(cd "$lmt" && yes '' | make -s LSMOD="$OUT/lsmod" localmodconfig > /dev/null 2>&1)
lmc_ym=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$lmt/.config")
rm -rf "$lmt"
echo "verify bench on $BNAME: make localmodconfig y/m $lmc_ym (0.85x: $((lmc_ym * 85 / 100)))"

# bench_verify CONFIG WORKDIR TAG: kctui verify of CONFIG in WORKDIR,
# decisions and output in $OUT/*-TAG; sets rc and secs (wall time).
bench_verify() {
	local t0
	t0=$(now_ns)
	set +e
	"$KCTUI" -C "$SRC" --config "$1" verify -e "$BUNDLE" -j "$JOBS" \
		--work-dir "$2" --decisions "$OUT/decisions-$3" \
		--format tsv --timeout 900 --boot-runs "${VERIFY_BOOT_RUNS:-3}" \
		--max-probes "${VERIFY_MAX_PROBES:-10}" \
		> "$OUT/verify-$3.tsv" 2> "$OUT/verify-$3.err"
	rc=$?
	set -e
	secs=$(elapsed_since "$t0")
}

for policy in $POLICIES; do
	cfg=$OUT/trim-$policy.config
	rm -f "$cfg" "$cfg.old" "$OUT/decisions-$policy"
	"$KCTUI" -C "$SRC" --config "$DEBIAN_AMD64" export -e "$BUNDLE" \
		--policy "$policy" --accept all -o "$cfg" \
		--report "$OUT/trim-$policy.md" --decisions "$OUT/decisions-$policy" > /dev/null
	ym=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$cfg")
	wd=$KCTUI_CACHE/verify-debian-$BNAME
	[ "${VERIFY_FRESH:-0}" = 1 ] && { rm -rf "$wd-$policy"; wd=$wd-$policy; }
	bench_verify "$cfg" "$wd" "$policy"
	final_ym=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$cfg")
	bz=$(stat -c %s "$wd/build/arch/x86/boot/bzImage" 2>/dev/null || echo 0)
	mod=$(du -sb "$wd/build/staging/lib/modules" 2>/dev/null | cut -f1 || echo 0)
	echo "verify $policy: exit $rc in ${secs} s; y/m Debian $deb_ym, exported $ym, final $final_ym" \
		"($(awk -v a="$final_ym" -v b="$lmc_ym" 'BEGIN { printf "%.2f", a / b }')x localmodconfig's $lmc_ym)"
	awk -F'\t' '
		$1 == "build" { objs[$2] = $3 }
		$1 == "phase" { ph[$2] = ph[$2] sprintf(" %s@%.0f", $3, $4) }
		$1 == "verdict" { printf "  probe %s: %s%s%s in %.0f s, %d objects built\n", $2, $3,
			($4 != "" ? " at " : ""), $4, $5, objs[$2]
			printf "    phases (s from the probe'"'"'s start):%s\n", ph[$2] }
		$1 == "keep" { printf "  put back %s: needed at boot: %s\n", $2, $3 }
		$1 == "note" { printf "  note: %s\n", $2 }
		$1 == "step" { steps[$2] = steps[$2] " " $3 "=" $4 }
		END { for (p in steps) last = p; if (last != "") printf "  steps of probe %s:%s\n", last, steps[last] }
	' "$OUT/verify-$policy.tsv"
	awk -F'\t' '$1 == "verdict" { n++; if (n == 1) c = $5; else if ($5 > m) m = $5 }
		END { printf "  cold loop %.0f s (target <= 1500), later probes max %.0f s (target <= 180)\n", c, m }' \
		"$OUT/verify-$policy.tsv"
	echo "  bzImage $bz bytes (Debian's untrimmed $deb_bz), modules $mod bytes installed stripped (Debian's $deb_mod)"
	echo "  probes: $(grep -c $'^probe\t' "$OUT/verify-$policy.tsv") (budget ${VERIFY_MAX_PROBES:-10}), put back: $(grep -c $'^keep\t' "$OUT/verify-$policy.tsv")"
	sed -n '/^## What the trim bought/,/^## Steps/p' "$cfg.verify.md" | grep '^|' | sed 's/^/  /'
	[ $rc -eq 0 ] || sed 's/^/  | /' "$OUT/verify-$policy.err"
done

# A later round: what each fill-back probe after the first costs.  The
# first policy's verified config with one option put back (CONFIG_DUMMY=m,
# a one-file module not in the bundle), verified again in the same build
# directory: an incremental build, modules_install, boot and workload.
first=${POLICIES%% *}
if [ "${VERIFY_LATER:-1}" = 1 ] && [ -n "$first" ]; then
	cfg=$OUT/later.config
	sed 's/^# CONFIG_DUMMY is not set$/CONFIG_DUMMY=m/' "$OUT/trim-$first.config" > "$cfg"
	"$KCTUI" -C "$SRC" --config "$cfg" olddefconfig > /dev/null
	grep -qx 'CONFIG_DUMMY=m' "$cfg" || { echo "verify later round: CONFIG_DUMMY=m not accepted" >&2; exit 1; }
	wd=$KCTUI_CACHE/verify-debian-$BNAME
	[ "${VERIFY_FRESH:-0}" = 1 ] && wd=$wd-$first
	rm -f "$OUT/decisions-later"
	VERIFY_BOOT_RUNS=1 bench_verify "$cfg" "$wd" later
	echo "verify later round ($first + CONFIG_DUMMY=m, same build directory): exit $rc in ${secs} s (target <= 180)"
	awk -F'\t' '
		$1 == "build" { objs[$2] = $3 }
		$1 == "verdict" { printf "  probe %s: %s in %.0f s, %d objects built\n", $2, $3, $5, objs[$2] }
	' "$OUT/verify-later.tsv"
	[ $rc -eq 0 ] || sed 's/^/  | /' "$OUT/verify-later.err"
fi
