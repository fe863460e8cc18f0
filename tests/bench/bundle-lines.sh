#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/bundle-lines.sh - no bundle file of a million lines takes
# more than seconds (issue 37, item 11): a copy of the cloud-vm bundle
# without its vm whose modules and drivers files have N lines each (the
# recorded lines, then made-up modules, some out of tree, and devices
# bound under the recorded PCI devices), then `kctui twin` and `kctui
# evidence` on it (the evidence of a bundle without a vm makes its twin,
# twin_module_out_of_tree() included). Prints the wall time of each. A
# bench, not a timed test: not run by make check.
#
#   BENCH_LINES=1000000   lines of modules and of drivers
#   KCTUI                 the binary (default ./kctui)
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure
N=${BENCH_LINES:-1000000}
OUT=${BENCH_OUT:-$KCTUI_REPO/build/bench-bundle-lines}
rm -rf "$OUT"
mkdir -p "$OUT/b"
SRC=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
for f in uname modalias mounts filesystems crypto config.xz kallsyms.xz \
    modules.alias.xz; do
	cp "$SRC/$f" "$OUT/b/"
done
{
	cat "$SRC/modules"
	awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
		printf "mod%d 16384 0 - Live 0xffffffffc0000000%s\n", i,
		    i % 10 == 0 ? " (OE)" : "" }'
} > "$OUT/b/modules"
{
	cat "$SRC/drivers"
	awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
		printf "usb usbfake%d pci0000:00/0000:00:1d.0/usb1/1-%d/1-%d:1.%d mod%d\n",
		    i % 97, i / 1000, i / 1000, i % 1000, i }'
} > "$OUT/b/drivers"
export KCTUI_CACHE_DIR=$OUT/cache
printf '%s lines of modules and drivers\n' "$N"
t0=$(now_ns)
timeout 3600 "$KCTUI" twin -e "$OUT/b" > "$OUT/twin.out" 2> "$OUT/twin.err"
rc=$?
printf 'twin:     exit %d, %s s\n' "$rc" "$(elapsed_since "$t0")"
t0=$(now_ns)
timeout 3600 "$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" -e "$OUT/b" \
    evidence --unmapped > "$OUT/evidence.out" 2> "$OUT/evidence.err"
rc=$?
printf 'evidence: exit %d, %s s\n' "$rc" "$(elapsed_since "$t0")"
