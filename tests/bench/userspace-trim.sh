#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/userspace-trim.sh - a trim only the userspace step catches,
# on the tiny tree: tinyconfig + tests/fixtures/verify/tiny.config +
# tests/fixtures/userspace/systemd.config (what Debian's systemd and udev
# need, built in) is the untrimmed kernel and the baseline; the trimmed
# config turns USERSPACE_TRIM off (default SIGNALFD, which systemd's
# event loop needs). Under busybox alone the trim passes; with
# --userspace the Debian root's systemd fails on it, the step fails, and
# the loop puts the option back with systemd's lines in the report.
# FHANDLE, the first candidate, is tolerated by Debian 12's systemd 252
# and udev on this kernel: the step passed without it (degraded with
# systemd-sysctl.service failed, as on the baseline), so it stays
# trimmed. Not part of make check: the untrimmed kernel's first build
# and the probes' boots under TCG take about half an hour on 2 shared
# cores.
#
#   USERSPACE_TRIM="SIGNALFD"  the options the trimmed config turns off
#   USERSPACE_TINY=DIR         the base kernel's build directory (default
#                              $KCTUI_CACHE/userspace-tiny, kept)
#   USERSPACE_OUT=DIR          outputs (default build/bench-userspace-trim)
#   KCTUI                      the binary (default ./kctui)
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure
export KCTUI_CACHE
kctui_tree_clean_copy || { echo "userspace-trim.sh: no clean copy of the tree" >&2; exit 1; }
exec 8>&-
B=${USERSPACE_TINY:-$KCTUI_CACHE/userspace-tiny}
OUT=${USERSPACE_OUT:-$KCTUI_REPO/build/bench-userspace-trim}
TRIM=${USERSPACE_TRIM:-SIGNALFD}
mkdir -p "$B" "$OUT"
cc="gcc"
command -v ccache > /dev/null && cc="ccache gcc"

# The untrimmed kernel, built once (kept in $B), and its root for
# --base-kernel: boot/vmlinuz-REL, lib/modules/REL.
t0=$(now_ns)
if [ ! -e "$B/.config" ]; then
	make -s -C "$SRC" O="$B" tinyconfig > /dev/null
	cat "$KCTUI_REPO/tests/fixtures/verify/tiny.config" \
		"$KCTUI_REPO/tests/fixtures/userspace/systemd.config" >> "$B/.config"
	make -s -C "$SRC" O="$B" olddefconfig > /dev/null
fi
nice -n 10 make -s -C "$SRC" O="$B" CC="$cc" -j2 bzImage modules > "$OUT/base-build.log" 2>&1
rel=$(cat "$B/include/config/kernel.release")
rm -rf "$B/root"
nice -n 10 make -s -C "$SRC" O="$B" INSTALL_MOD_PATH="$B/root" modules_install > /dev/null 2>&1
mkdir -p "$B/root/boot"
cp "$B/arch/x86/boot/bzImage" "$B/root/boot/vmlinuz-$rel"
echo "untrimmed tiny kernel $rel: $(elapsed_since "$t0") s ($(grep -c '=y' "$B/.config") options y)"

# The bundle: that config, a small q35 machine, a one-step workload.
BUNDLE=$OUT/bundle
rm -rf "$BUNDLE"
mkdir -p "$BUNDLE"
cp "$B/.config" "$BUNDLE/config"
cat > "$BUNDLE/vm" <<'EOF'
# a small PC for the tiny kernel and Debian's systemd
arch x86_64
machine q35
cpu qemu64
smp 1
memory 1024
cmdline console=ttyS0
EOF
printf 'step hello echo hello\n' > "$BUNDLE/workload"

cp "$B/.config" "$OUT/trimmed.config"
for o in $TRIM; do
	sed -i "s/^CONFIG_$o=y/# CONFIG_$o is not set/" "$OUT/trimmed.config"
done
"$KCTUI" -C "$SRC" --config "$OUT/trimmed.config" olddefconfig > /dev/null 2>&1
for o in $TRIM; do
	grep -q "^CONFIG_$o=y" "$OUT/trimmed.config" && { echo "CONFIG_$o is still y" >&2; exit 1; }
done

t0=$(now_ns)
set +e
nice -n 10 "$KCTUI" -C "$SRC" --config "$OUT/trimmed.config" verify -e "$BUNDLE" \
	--userspace --base-kernel "$B/root" -j2 --work-dir "$KCTUI_CACHE/verify-userspace-tiny" \
	--decisions "$OUT/decisions" --format tsv --timeout 600 --no-kvm \
	> "$OUT/verify.tsv" 2> "$OUT/verify.err"
rc=$?
set -e
echo "verify --userspace, trimmed $TRIM: exit $rc in $(elapsed_since "$t0") s"
awk -F'\t' '$1 == "verdict" { printf "  probe %s: %s%s%s in %.0f s\n", $2, $3, ($4 != "" ? " at " : ""), $4, $5 }
	$1 == "keep" { printf "  put back %s: needed by step %s\n", $2, $3 }' "$OUT/verify.tsv"
sed -n '/^## The distribution/,/^## Steps/p' "$OUT/trimmed.config.verify.md" | sed '$d'
status=0
for o in $TRIM; do
	grep -q "^keep	CONFIG_$o	userspace" "$OUT/verify.tsv" || { echo "CONFIG_$o not put back for the userspace step"; status=1; }
done
exit $status
