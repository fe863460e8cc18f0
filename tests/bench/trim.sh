#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/trim.sh - `make bench`, trim part: kctui suggest on Debian's
# amd64 config with the cloud-vm bundle against the kernel's own
# `make localmodconfig` on the same input (a private cp -al copy of the
# tree, LSMOD = the bundle's modules), and one subsystem's consequence
# recompute (median over every subsystem, as suggest -v reports it); and
# explain / an enable plan against only loading the config (enable of a
# symbol that already has its value loads and stops).
#
#   BENCH_N=5                runs of each command
#   BENCH_TRIM_TARGET=0.2    ratio suggest/localmodconfig to meet
#   BENCH_CONSEQ_TARGET=15   ms, median consequence recompute
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env

kctui_binary
N=${BENCH_N:-5}
TARGET=${BENCH_TRIM_TARGET:-0.2}
CTARGET=${BENCH_CONSEQ_TARGET:-15}
BUNDLE=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
kctui_tree_ensure

kctui_workdir kctui-bench-trim
export KCTUI_CACHE_DIR=$work/cache

lm=$work/tree
cp -al "$TREE" "$lm" && rm -rf "$lm/scripts" && cp -a "$TREE/scripts" "$lm/scripts"
{ echo "Module                  Size  Used by"
  awk '{print $1, $2, $3}' "$BUNDLE/modules"; } > "$work/lsmod"

# median of numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# The source index and $(shell) caches warm, as for a user's second run.
"$KCTUI" -C "$TREE" --config "$work/s.config" -e "$BUNDLE" suggest >/dev/null 2>&1 || true
: > "$work/lm.times"; : > "$work/kt.times"; : > "$work/conseq"
for i in $(seq "$N"); do
	cp "$DEBIAN_AMD64" "$lm/.config"
	t0=$(now_ns)
	(cd "$lm" && env -i PATH="$PATH" HOME="$HOME" sh -c \
		"yes '' | make -s LSMOD='$work/lsmod' localmodconfig") >/dev/null 2>&1
	echo "$(elapsed_since "$t0")" >> "$work/lm.times"
	cp "$DEBIAN_AMD64" "$work/s.config"
	t0=$(now_ns)
	"$KCTUI" -v -C "$TREE" --config "$work/s.config" -e "$BUNDLE" suggest \
		>/dev/null 2>"$work/err"
	echo "$(elapsed_since "$t0")" >> "$work/kt.times"
	sed -n 's/.*recomputes: median \([0-9.]*\) ms.*/\1/p' "$work/err" >> "$work/conseq"
done
tl=$(median < "$work/lm.times"); tk=$(median < "$work/kt.times")
ratio=$(awk -v a="$tk" -v b="$tl" 'BEGIN { printf "%.2f", a / b }')
ok=$(awk -v r="$ratio" -v t="$TARGET" 'BEGIN { print (r <= t) ? "met" : "NOT met" }')
echo "trim suggest (Debian amd64, cloud-vm): localmodconfig ${tl} s, kctui suggest ${tk} s, ratio ${ratio} (target ${TARGET}: ${ok}), median of $N"
grep -o 'config [0-9]* ms, evidence [0-9]* ms, suggest [0-9]* ms' "$work/err" | sed 's/^/  last run: /'
cm=$(median < "$work/conseq")
ok=$(awk -v r="$cm" -v t="$CTARGET" 'BEGIN { print (r <= t) ? "met" : "NOT met" }')
echo "trim consequence recompute, one subsystem: median ${cm} ms (target ${CTARGET} ms: ${ok}); $(sed -n 's/.*(\([0-9]* subsystem\) consequence recomputes: median [0-9.]* ms, \(max [0-9.]* ms\).*/\1s, \2/p' "$work/err")"

# explain and enable: "not noticeably longer" than loading the config.
cp "$DEBIAN_CLOUD" "$work/c.config"
: > "$work/load.times"; : > "$work/ex.times"; : > "$work/en.times"
for i in $(seq "$N"); do
	for w in "load enable HZ_250" "ex explain NETFILTER" "en enable SND_SOC_ADAU7002"; do
		set -- $w
		t0=$(now_ns)
		"$KCTUI" -C "$TREE" --config "$work/c.config" "$2" "$3" >/dev/null 2>&1 || true
		echo "$(elapsed_since "$t0")" >> "$work/$1.times"
	done
done
tl=$(median < "$work/load.times"); te=$(median < "$work/ex.times"); tn=$(median < "$work/en.times")
echo "explain (Debian cloud-amd64): load ${tl} s, explain NETFILTER ${te} s ($(awk -v a="$te" -v b="$tl" 'BEGIN { printf "%.2f", a / b }')x), enable plan ${tn} s ($(awk -v a="$tn" -v b="$tl" 'BEGIN { printf "%.2f", a / b }')x), median of $N"
