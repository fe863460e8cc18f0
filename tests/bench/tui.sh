#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/bench/tui.sh - the interactive browser on Linux 6.1 with Debian's
# cloud config, in a private tmux server: time to the first full paint
# (target <= 0.5 s warm, no evidence; also reported with -e cloud-vm),
# and key-to-paint latency while the worker recomputes (target median
# <= 16 ms). Times come from the binary itself (KCTUI_BENCH_LOG: it logs
# first-paint since main, and for each batch of keys the time from
# reading them to the end of the paint, with whether the worker was busy).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
# shellcheck source=../tui/tmux.sh
. "$here/../tui/tmux.sh"
kctui_clean_env
kctui_binary
kctui_tree_ensure >/dev/null 2>&1 || { echo "tui bench: no tree"; exit 1; }
work=$(mktemp -d)
trap 'tui_stop; rm -rf "$work"' EXIT
cp "$DEBIAN_CLOUD" "$work/.config"
"$KCTUI" -C "$TREE" --config "$work/copy" olddefconfig >/dev/null 2>&1	# warm

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "?"}'; }

# first paint, five warm runs
for i in 1 2 3 4 5; do
	log=$work/paint.$i
	TUI_SOCK=kctui-bench-$$-$i
	tui_start "$TREE" env KCTUI_BENCH_LOG="$log" "$KCTUI" --config "$work/.config"
	tui_wait "Main menu" 60
	tui_keys q; tui_wait "[exited" 10
	tui_stop
done
fp=$(cat "$work"/paint.* | awk '/^first-paint/ {print $2}' | median)
echo "tui first paint (Linux 6.1, cloud config, warm): median ${fp} ms over 5 runs (target <= 500)"

log=$work/ev.log
TUI_SOCK=kctui-bench-$$-ev
tui_start "$TREE" env KCTUI_BENCH_LOG="$log" "$KCTUI" --config "$work/.config" -e "$KCTUI_REPO/tests/fixtures/evidence/cloud-vm"
tui_wait "suggested trim" 120
tui_keys q; tui_wait "[exited" 10; tui_stop
echo "tui first paint with -e cloud-vm (evidence loads on a thread after it): $(awk '/^first-paint/ {print $2}' "$log") ms; evidence + attribution $(awk '/^evidence-loaded/ {print $2}' "$log") ms, trim suggestions $(awk '/^evidence-loaded/ {print $4}' "$log") ms later"

# the trim review: accept and undo a subsystem (each starts a recompute
# with its consequences on the worker) and move around meanwhile
log=$work/trim.log
TUI_SOCK=kctui-bench-$$-trim
tui_start "$TREE" env KCTUI_BENCH_LOG="$log" "$KCTUI" --config "$work/.config" -e "$KCTUI_REPO/tests/fixtures/evidence/cloud-vm" --decisions "$work/decisions"
tui_wait "suggested trim" 120
tui_keys t; tui_wait "subsystems reviewed"
tui_keys Down Down Down Down Down Enter; tui_wait "Trim review ›"; sleep 1
for i in $(seq 1 15); do
	tui_keys a; sleep 0.05; tui_keys Down; sleep 0.05; tui_keys Up; sleep 0.1
	tui_keys u; sleep 0.05; tui_keys Down; sleep 0.05; tui_keys Up; sleep 0.1
done
tui_keys Escape Escape; sleep 0.5
tui_stop
tlat=$(awk '/^key/ {print $2}' "$log" | median)
tmax=$(awk '/^key/ {print $2}' "$log" | sort -n | tail -1)
cq=$(awk '/^consequences/ {print $2}' "$log" | median)
ncq=$(awk '/^consequences/' "$log" | wc -l)
echo "tui trim review keys (accept/undo of Networking options, 42 candidates, and moves): median ${tlat} ms, max ${tmax} ms; consequences on the worker (each candidate and the whole subsystem): median ${cq} ms over $ncq results"

# latency: toggle options (each starts a recomputation) and move around
# while the worker works
log=$work/keys.log
TUI_SOCK=kctui-bench-$$-keys
tui_start "$TREE" env KCTUI_BENCH_LOG="$log" "$KCTUI" --config "$work/.config"
tui_wait "Main menu" 60
tui_keys / '^NET_CORE$' Enter; tui_wait "1 match"; tui_keys Down Enter
sleep 1
for i in $(seq 1 40); do
	tui_keys Space; sleep 0.02; tui_keys Down; sleep 0.02; tui_keys Up; sleep 0.05
done
tui_keys Escape Escape; sleep 0.5
tui_stop
nbusy=$(awk '/^key/ && $4 == 1' "$log" | wc -l)
lat=$(awk '/^key/ && $4 == 1 {print $2}' "$log" | median)
all=$(awk '/^key/ {print $2}' "$log" | median)
max=$(awk '/^key/ {print $2}' "$log" | sort -n | tail -1)
wk=$(awk '/^worker/ {print $2}' "$log" | median)
echo "tui key-to-paint while recomputing: median ${lat} ms over $nbusy paints (target <= 16); all keys median ${all} ms, max ${max} ms"
echo "tui worker recomputation (restore + recalc + snapshot): median ${wk} ms"
