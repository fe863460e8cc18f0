#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/twin.sh - the twin machine proved on the project's QEMU
# bundles: each bundle copied without its vm, workload and workload.d, so
# that kctui verify makes the twin (core/twin) and its workload from the
# evidence, then `kctui verify --baseline-only`: the kernel the bundle was
# recorded on (Debian's package of its uname -r, apt-get download) booted
# on the twin with the generated workload. Every step and the devices
# step (every bound driver of the bundle that has a twin bound again)
# must pass. Prints, per bundle: the steps, the devices with no twin,
# the wall time. Not part of make check: each boot of a distribution
# kernel with its whole modules tree takes minutes under TCG.
#
#   TWIN_BUNDLES="cloud-vm cloud-vm-6.12 desktop-vm"   bundles to run
#   TWIN_VERIFY_POLICY=modules   then also export Debian's config trimmed
#                        with that policy from the bundle (without its vm)
#                        and verify it on the twin: built, booted, every
#                        generated step and the devices step passed (a
#                        kernel build: ~20 min on 2 cores; 6.1 bundles only)
#   KCTUI                the binary (default ./kctui)
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure
BUNDLES=${TWIN_BUNDLES:-cloud-vm cloud-vm-6.12 desktop-vm}
OUT=${TWIN_OUT:-$KCTUI_REPO/build/bench-twin}
mkdir -p "$OUT"

# The shared clean copy of the tree; only parsed here (nothing built).
kctui_tree_clean_copy || { echo "twin.sh: no clean copy of the tree" >&2; exit 1; }
exec 8>&-

status=0
for b in $BUNDLES; do
	src=$KCTUI_REPO/tests/fixtures/evidence/$b
	bd=$OUT/$b
	rm -rf "$bd"
	cp -r "$src" "$bd"
	rm -rf "$bd/vm" "$bd/workload" "$bd/workload.d"
	cp "$DEBIAN_AMD64" "$OUT/$b.config"
	t0=$(now_ns)
	"$KCTUI" -C "$SRC" --config "$OUT/$b.config" verify -e "$bd" \
		--baseline-only --work-dir "$KCTUI_CACHE/verify-twin" \
		--timeout 1200 > "$OUT/$b.out" 2> "$OUT/$b.err"
	rc=$?
	secs=$(elapsed_since "$t0")
	echo "twin $b: exit $rc in ${secs} s"
	grep -E '^(baseline|machine):' "$OUT/$b.out" | sed 's/^/  /'
	# the result lines only (the list of steps to run comes first)
	grep -E '^  (step +[^ ]+ +(pass|fail|not-reached)|no twin:)' "$OUT/$b.out" | sed 's/^/  /'
	[ $rc -eq 0 ] || { sed 's/^/  | /' "$OUT/$b.err"; status=1; }
	[ -n "${TWIN_VERIFY_POLICY:-}" ] || continue
	case $b in *6.12*) continue ;; esac
	p=$TWIN_VERIFY_POLICY
	cfg=$OUT/$b-$p.config
	rm -f "$cfg" "$cfg.old" "$OUT/$b-$p.decisions"
	"$KCTUI" -C "$SRC" --config "$DEBIAN_AMD64" export -e "$bd" --policy "$p" \
		--accept all -o "$cfg" --report "$OUT/$b-$p.md" \
		--decisions "$OUT/$b-$p.decisions" > /dev/null || { status=1; continue; }
	ym=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$cfg")
	t0=$(now_ns)
	"$KCTUI" -C "$SRC" --config "$cfg" verify -e "$bd" -j "$(nproc)" \
		--work-dir "$KCTUI_CACHE/verify-twin-$p" --decisions "$OUT/$b-$p.decisions" \
		--timeout 1200 > "$OUT/$b-$p.out" 2> "$OUT/$b-$p.err"
	rc=$?
	secs=$(elapsed_since "$t0")
	echo "twin $b, $p policy's export ($ym y+m): verify exit $rc in ${secs} s," \
		"final $(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$cfg") y+m"
	grep -E '^(verified|NOT verified|probe|put back|machine:|not verifiable)' "$OUT/$b-$p.out" | sed 's/^/  /'
	grep -E '^  (step +[^ ]+ +(pass|fail|not-reached)|no twin:)' "$OUT/$b-$p.out" | tail -n 20 | sed 's/^/  /'
	[ $rc -eq 0 ] || { sed 's/^/  | /' "$OUT/$b-$p.err" | tail -n 20; status=1; }
done
exit $status
