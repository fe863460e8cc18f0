#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/profiles.sh - every profile's workload step (profiles/*.yaml)
# run on a booted kernel: the cloud-vm bundle's workload with the steps of
# all profiles appended by `kctui need --workload`, judged by
# `kctui verify --baseline-only` on Debian's own 6.1 kernel (the package
# the bundle was recorded from, fetched by verify, every module there), under QEMU on the
# bundle's machine. Each step must pass: a step that fails on the kernel
# that has every option of its profile is a broken step, not a finding.
# Prints each step's verdict and the wall time. Not part of `make check`
# (one boot of a distribution kernel with its 400 MB of modules in the
# initramfs: minutes under TCG).
#
#   KCTUI                the binary (default ./kctui)
#   PROFILES="a b ..."   the profiles (default: all of profiles/)
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure

# verify wants a tree clean for O= builds: the shared clean copy.
kctui_tree_clean_copy || { echo "profiles.sh: no clean copy of the tree" >&2; exit 1; }
exec 8>&-

BUNDLE=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
OUT=${PROFILES_OUT:-$KCTUI_REPO/build/bench-profiles}
PROFILES=${PROFILES:-$(cd "$KCTUI_REPO/profiles" && ls *.yaml | sed 's/\.yaml$//' | tr '\n' ' ')}
rm -rf "$OUT" && mkdir -p "$OUT"

rel=$(awk '{print $3}' "$BUNDLE/uname")

cp -r "$BUNDLE" "$OUT/bundle"
cp "$DEBIAN_CLOUD" "$OUT/base.config"
# shellcheck disable=SC2086
"$KCTUI" -C "$SRC" --config "$OUT/base.config" need --no-record $PROFILES \
	--workload "$OUT/bundle/workload" > "$OUT/need.out"
t0=$(now_ns)
set +e
"$KCTUI" -C "$SRC" --config "$OUT/base.config" verify -e "$OUT/bundle" \
	--baseline-only --format tsv --timeout 900 \
	--work-dir "$OUT/work" > "$OUT/verify.tsv" 2> "$OUT/verify.err"
rc=$?
set -e
secs=$(elapsed_since "$t0")
echo "profiles bench: Debian $rel booted with the steps of: $PROFILES"
awk -F'\t' '$1 == "step" { printf "  %-14s %s\n", $3, $4 }' "$OUT/verify.tsv"
echo "  verify --baseline-only: exit $rc in ${secs} s"
failed=0
for p in $PROFILES; do
	name=$(awk '/^step:/ { s = 1 } s && /^  name:/ { print $2; exit }' "$KCTUI_REPO/profiles/$p.yaml")
	[ -n "$name" ] || continue
	if ! awk -F'\t' -v n="$name" '$1 == "step" && $3 == n && $4 == "pass" { ok = 1 } END { exit !ok }' "$OUT/verify.tsv"; then
		echo "  FAILED: the $p profile's step $name" >&2
		failed=1
	fi
done
[ $rc -eq 0 ] || sed 's/^/  | /' "$OUT/verify.err" | tail -30
exit $((rc != 0 || failed))
