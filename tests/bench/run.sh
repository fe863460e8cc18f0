#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/run.sh - `make bench`: olddefconfig of Debian's amd64 config,
# the kernel's conf (run directly, `scripts/kconfig/conf --olddefconfig
# Kconfig` in the tree, under env -i with the environment `kctui print-env`
# reports) against kctui, cold (kctui's $(shell) cache wiped before every
# run) and warm.
#
#   BENCH_N=7           runs of each command per measurement
#   BENCH_TARGET=0.5    ratio kctui/conf to meet (printed, not enforced
#                       unless BENCH_STRICT=1)
#   BENCH_CALLGRIND=1   also count instructions of one warm kctui run with
#                       valgrind --tool=callgrind (if valgrind is installed)
#   KCTUI, BENCH        binaries (default ./kctui, build/bench)
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env

kctui_binary
BENCH=$(abspath "${BENCH:-$KCTUI_REPO/build/bench}")
N=${BENCH_N:-7}
TARGET=${BENCH_TARGET:-0.5}
strict=; [ "${BENCH_STRICT:-0}" = 1 ] && strict=-s

for b in "$KCTUI" "$BENCH"; do
	[ -x "$b" ] || { echo "bench: no executable $b (run make bench)" >&2; exit 1; }
done
kctui_tree_ensure

kctui_workdir kctui-bench
cache=$work/shell-cache
mkdir -p "$cache"

# The environment conf gets from make, as kctui derives it.
mapfile -t kenv < <("$KCTUI" -C "$TREE" print-env)
if [ ${#kenv[@]} -eq 0 ]; then
	echo "bench: kctui print-env printed nothing" >&2
	exit 1
fi

q() { printf '%q ' "$@"; }
# (bench runs "exec CMD": simple commands only; env -C changes directory)
conf_cmd="env -i -C $(q "$TREE") $(q PATH="$PATH" HOME="$HOME" "${kenv[@]}" \
	KCONFIG_CONFIG="$work/conf.config") ./scripts/kconfig/conf -s --olddefconfig Kconfig"
kctui_cmd="env $(q KCTUI_CACHE_DIR="$cache") $(q "$KCTUI") -C $(q "$TREE") --config $(q "$work/kctui.config") olddefconfig"
pre_conf="cp $(q "$DEBIAN_AMD64" "$work/conf.config")"
pre_kctui="cp $(q "$DEBIAN_AMD64" "$work/kctui.config")"
wipe="rm -rf $(q "$cache") && mkdir -p $(q "$cache")"

echo "bench: Debian linux-source-6.1 $TREE_VERSION, $N runs each, $(nproc) CPUs"
"$BENCH" -n "$N" -l "olddefconfig cold" -a conf -b kctui -t "$TARGET" $strict \
	-p "$pre_conf" -q "$pre_kctui && $wipe" "$conf_cmd" "$kctui_cmd"
"$BENCH" -n "$N" -l "olddefconfig warm" -a conf -b kctui -t "${BENCH_WARM_TARGET:-0.1}" $strict \
	-p "$pre_conf" -q "$pre_kctui" "$conf_cmd" "$kctui_cmd"

if cmp -s "$work/conf.config" "$work/kctui.config"; then
	echo "bench: outputs identical"
else
	echo "bench: WARNING: kctui's output differs from conf's:"
	diff -u "$work/conf.config" "$work/kctui.config" | head -20 | indent
fi

if [ "${BENCH_CALLGRIND:-0}" = 1 ]; then
	if command -v valgrind >/dev/null 2>&1; then
		cp "$DEBIAN_AMD64" "$work/kctui.config"
		KCTUI_CACHE_DIR=$cache valgrind --tool=callgrind \
			--callgrind-out-file="$work/callgrind.out" \
			"$KCTUI" -C "$TREE" --config "$work/kctui.config" olddefconfig \
			> /dev/null 2> "$work/callgrind.log" || true
		ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$work/callgrind.log" | tail -1)
		echo "callgrind warm kctui: ${ir:-?} instructions (Ir)"
		if [ -n "${BENCH_CALLGRIND_OUT:-}" ]; then
			cp "$work/callgrind.out" "$BENCH_CALLGRIND_OUT"
			echo "callgrind profile: $BENCH_CALLGRIND_OUT (callgrind_annotate)"
		fi
	else
		echo "callgrind: valgrind not installed, skipped"
	fi
fi

# The evidence side: trace ingest and the tree's indexes.
if [ -n "${BENCH_EVIDENCE:-}" ] && [ -x "$BENCH_EVIDENCE" ]; then
	"$BENCH_EVIDENCE" "$TREE" "$KCTUI_REPO/tests/fixtures/evidence/cloud-vm"
fi

# Trim suggestions against make localmodconfig, consequence recompute.
bash "$here/trim.sh"
# The interactive browser: first paint and key latency.
bash "$KCTUI_REPO/tests/bench/tui.sh"
