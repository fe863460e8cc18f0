#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/userspace.sh - kctui verify's userspace step measured on the
# cloud-vm bundle's baseline, Debian 12's own 6.1 kernel (fetched by
# verify with apt-get download into its work directory, kept): the root
# made by mmdebstrap (cold in a fresh cache when USERSPACE_COLD=1, then
# cached), its size; the baseline booted with --baseline-only without
# the step and with it, under TCG (and KVM when /dev/kvm is usable and
# USERSPACE_KVM=1): the wall times, what the step adds, systemd's state
# and `systemd-analyze time`. Each boot with the step must reach running
# or degraded (exit 1 otherwise). Not part of make check: the boots alone
# take about 4 minutes under TCG on 2 cores.
#
#   USERSPACE_COLD=1    make the root in a fresh cache first (about 90 s)
#   USERSPACE_KVM=1     the boots under KVM too
#   USERSPACE_OUT=DIR   outputs (default build/bench-userspace)
#   KCTUI               the binary (default ./kctui)
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
# The clean copy of the tree tests/real/verify.sh makes, shared (verify
# builds out of tree: the tree must be clean).
kctui_tree_clean_copy || { echo "userspace.sh: no clean copy of the tree" >&2; exit 1; }
exec 8>&-
OUT=${USERSPACE_OUT:-$KCTUI_REPO/build/bench-userspace}
WORK=$KCTUI_CACHE/verify-userspace-bench
mkdir -p "$OUT"
cp "$DEBIAN_CLOUD" "$OUT/cloud.config"

kv() { # kv TAG ARGS...: kctui verify of the cloud-vm bundle; rc, secs
	local tag=$1 t0
	shift
	t0=$(now_ns)
	set +e
	nice -n 10 "$KCTUI" -C "$SRC" --config "$OUT/cloud.config" verify -e "$BUNDLE" \
		--work-dir "$WORK" --decisions "$OUT/decisions" "$@" \
		> "$OUT/$tag.out" 2> "$OUT/$tag.err"
	rc=$?
	set -e
	secs=$(elapsed_since "$t0")
}

if [ "${USERSPACE_COLD:-0}" = 1 ]; then
	cold=$(mktemp -d "${TMPDIR:-/tmp}/kctui-userspace-cold.XXXXXX")
	KCTUI_CACHE=$cold kv root-cold --userspace-root
	echo "root, cold: exit $rc in $secs s: $(cat "$OUT/root-cold.out")"
	rm -rf "$cold"
fi
kv root --userspace-root
echo "root: exit $rc in $secs s: $(cat "$OUT/root.out")"
img=$(sed -n 's/ (Debian .*//p' "$OUT/root.out")
echo "root: $(du -h --apparent-size "$img" | cut -f1) apparent, $(du -h "$img" | cut -f1) allocated"

accels="--no-kvm"
[ "${USERSPACE_KVM:-0}" = 1 ] && [ -w /dev/kvm ] && accels="$accels kvm"
status=0
for a in $accels; do
	if [ "$a" = kvm ]; then flag=; name=kvm; else flag=$a; name=tcg; fi
	kv "base-$name" --baseline-only --no-userspace $flag
	without=$secs
	echo "baseline without the step ($name): exit $rc in $secs s"
	kv "userspace-$name" --baseline-only --userspace $flag
	echo "baseline with the step ($name): exit $rc in $secs s (the step adds $(awk -v a="$secs" -v b="$without" 'BEGIN { printf "%.0f", a - b }') s)"
	grep '^userspace: ' "$OUT/userspace-$name.out" || true
	grep -q '^userspace: \(running\|degraded\)' "$OUT/userspace-$name.out" || status=1
	grep -q 'under KVM' "$OUT/userspace-$name.out" || [ "$name" = tcg ] ||
		echo "  (KVM did not run this guest: $(grep -o 'under [A-Z]*' "$OUT/userspace-$name.out" | head -1))"
done
exit $status
