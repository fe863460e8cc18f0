#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/verify.sh - kctui verify end to end on the real Linux 6.1 tree:
# a minimal x86_64 kernel (tinyconfig + tests/fixtures/verify/tiny.config:
# serial console, initramfs, one module) is built out of tree, booted under
# QEMU (TCG) with a workload of three steps, and a trimmed config that drops
# the ELF loader (every program in the initramfs is an ELF binary: nothing
# runs) and two harmless options is repaired by the loop: the ELF loader is
# put back with its reason in the decisions file, the harmless trims stay,
# and the final config is one the kernel's conf accepts unchanged.  Then
# bad input: a bundle without a workload, a tree not clean for O=, a
# missing QEMU, a guest that hangs, a build that fails; each a clear
# message, a non-zero exit and the user's files untouched.
#
# The build directory and the clean copy of the tree live in $KCTUI_CACHE
# (kept between runs, as verify keeps its own); the asan flavor reuses the
# normal run's build, so it costs boots, not builds.
#
#   KCTUI=/path/to/kctui tests/real/verify.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup verify
kctui_need_binary "real/verify$sfx"
kctui_tree_or_fail "real/verify$sfx" "$work/tree.log"
export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}
FRAG=$KCTUI_REPO/tests/fixtures/verify/tiny.config

for p in qemu-system-x86_64 busybox; do
	if ! command -v $p >/dev/null 2>&1; then
		fail "real/verify$sfx" "$p not installed (make deps installs it)"
		exit 1
	fi
done

# A clean copy of the tree for O= builds (the shared tree has the oracle's
# include/config): hard links, so it costs seconds; made again when the
# tree is.
SRC=$KCTUI_CACHE/linux-6.1-clean
WORK=$KCTUI_CACHE/verify-tiny
if [ "$(cat "$SRC/.kctui-version" 2>/dev/null)" != "$(cat "$TREE/.kctui-version")" ]; then
	rm -rf "$SRC" "$WORK" "$SRC.tmp"
	cp -al "$TREE" "$SRC.tmp" &&
		make -s -C "$SRC.tmp" mrproper > "$work/mrproper.log" 2>&1 &&
		mv "$SRC.tmp" "$SRC" || {
		fail "real/verify-tree$sfx" "could not make a clean copy of the tree"
		indent < "$work/mrproper.log"
		exit 1
	}
	# mrproper's hard-linked .kctui-version stays: it keys the copy
fi

# The untrimmed config: the kernel's own tinyconfig plus the fragment,
# through the kernel's own conf; with debug information and module
# versions, which verify builds without (the exported config keeps them).
B=$work/base-o
if ! { make -s -C "$SRC" O="$B" ARCH=x86_64 tinyconfig &&
	cat "$FRAG" >> "$B/.config" &&
	echo CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=y >> "$B/.config" &&
	echo CONFIG_MODVERSIONS=y >> "$B/.config" &&
	make -s -C "$SRC" O="$B" ARCH=x86_64 olddefconfig; } > "$work/base.log" 2>&1; then
	fail "real/verify-base$sfx" "tinyconfig + tiny.config failed"
	indent < "$work/base.log"
	exit 1
fi
cp "$B/.config" "$work/base.config"
val() { local v; v=$(grep -m1 "^$2=" "$1" | cut -d= -f2-); echo "${v:-n}"; }
for s in CONFIG_BINFMT_ELF CONFIG_SERIAL_8250_CONSOLE CONFIG_SGETMASK_SYSCALL CONFIG_FHANDLE CONFIG_DEBUG_INFO CONFIG_MODVERSIONS; do
	if [ "$(val "$work/base.config" $s)" != y ]; then
		fail "real/verify-base$sfx" "$s is not y in the untrimmed config"
		exit 1
	fi
done

# The bundle: the untrimmed config, the machine, the workload.
BUNDLE=$work/bundle
mkdir -p "$BUNDLE"
cp "$work/base.config" "$BUNDLE/config"
cat > "$BUNDLE/vm" <<'EOF'
# the smallest PC QEMU emulates: q35, one CPU, a serial console
arch x86_64
machine q35
cpu qemu64
smp 1
memory 256
cmdline console=ttyS0
EOF
cat > "$BUNDLE/workload" <<'EOF'
# steps of the tiny machine's workload
step hello echo hello from the trimmed kernel
step proc grep -q . /proc/version
step fork sh -c 'seq 1 200 | sort -r | head -n 1'
step module modprobe binfmt_misc
EOF

# The trimmed config: the ELF loader (breaks everything) and two harmless
# options off, through kctui's own olddefconfig.
cp "$work/base.config" "$work/trimmed.config"
sed -i -e 's/^CONFIG_BINFMT_ELF=y/# CONFIG_BINFMT_ELF is not set/' \
	-e 's/^CONFIG_SGETMASK_SYSCALL=y/# CONFIG_SGETMASK_SYSCALL is not set/' \
	-e 's/^CONFIG_FHANDLE=y/# CONFIG_FHANDLE is not set/' \
	-e 's/^CONFIG_BINFMT_MISC=m/# CONFIG_BINFMT_MISC is not set/' "$work/trimmed.config"
"$KCTUI" -C "$SRC" --config "$work/trimmed.config" olddefconfig > /dev/null 2>&1
cp "$work/trimmed.config" "$work/trimmed.orig"

kv() { # kv ARGS...: kctui verify in the clean tree; out/err/rc
	"$KCTUI" -C "$SRC" "$@" > "$work/out" 2> "$work/err"
	rc=$?
}

# ---- the loop: ELF loader put back, harmless trims stay -------------------
name="real/verify-fill-back$sfx"
t0=$(now_ns)
if [ "$sfx" = "" ]; then
	kv --config "$work/trimmed.config" verify -e "$BUNDLE" -j2 \
		--work-dir "$WORK" --decisions "$work/decisions" --format tsv \
		--timeout 120
	secs=$(elapsed_since "$t0")
	cp "$work/out" "$work/loop.tsv"
	if [ $rc -ne 0 ]; then
		fail "$name" "exit $rc"
		indent < "$work/err"; tail -n 30 "$work/out" | indent
		exit 1
	fi
	pass "$name" "verified in $secs s, $(grep -c '^probe' "$work/loop.tsv") probes"
	grep -q $'^keep\tCONFIG_BINFMT_ELF\tboot: bisection (probe [0-9]*)$' "$work/loop.tsv" &&
		pass "real/verify-culprit$sfx" ||
		fail_with "real/verify-culprit$sfx" "BINFMT_ELF not put back for boot" cat "$work/loop.tsv"
	# Informed fill-back: the step's own "modprobe: module binfmt_misc not
	# found in modules.dep" (busybox's modprobe) names the module; the
	# Kbuild index maps it to BINFMT_MISC, put back with that message and
	# no bisection for it.
	grep -q $'^keep\tCONFIG_BINFMT_MISC\tmodule: modprobe: module binfmt_misc not found' "$work/loop.tsv" &&
		pass "real/verify-culprit-step$sfx" ||
		fail_with "real/verify-culprit-step$sfx" "BINFMT_MISC not put back for step module by its message" cat "$work/loop.tsv"
	grep -q $'^note\t.*1 option put back because the boot named them' "$work/loop.tsv" &&
		pass "real/verify-informed$sfx" "($(grep -c '^probe' "$work/loop.tsv") probes)" ||
		fail_with "real/verify-informed$sfx" "no informed fill-back" cat "$work/loop.tsv"
	[ "$(grep -c '^keep' "$work/loop.tsv")" = 2 ] &&
		pass "real/verify-only-culprits$sfx" ||
		fail_with "real/verify-only-culprits$sfx" "more than the two culprits put back" cat "$work/loop.tsv"
	f=$work/trimmed.config
	if [ "$(val "$f" CONFIG_BINFMT_ELF)" = y ] && [ "$(val "$f" CONFIG_BINFMT_MISC)" = m ] &&
	   [ "$(val "$f" CONFIG_SGETMASK_SYSCALL)" = n ] &&
	   [ "$(val "$f" CONFIG_FHANDLE)" = n ]; then
		pass "real/verify-final$sfx"
	else
		fail "real/verify-final$sfx" "final config: BINFMT_ELF=$(val "$f" CONFIG_BINFMT_ELF) SGETMASK_SYSCALL=$(val "$f" CONFIG_SGETMASK_SYSCALL) FHANDLE=$(val "$f" CONFIG_FHANDLE)"
	fi
	cmp -s "$work/trimmed.orig" "$work/trimmed.config.old" &&
		pass "real/verify-old-kept$sfx" ||
		fail "real/verify-old-kept$sfx" "the trimmed config was not kept as .old"
	grep -q '^CONFIG_BINFMT_ELF keep  # needed at boot: boot: bisection (probe [0-9]*)$' "$work/decisions" &&
		grep -q '^CONFIG_BINFMT_MISC keep  # needed at boot: module: modprobe: module binfmt_misc not found' "$work/decisions" &&
		pass "real/verify-decision$sfx" ||
		fail_with "real/verify-decision$sfx" "no keep decision" cat "$work/decisions"
	# Built without debug information and module versions; the final
	# config keeps both.
	if [ "$(val "$WORK/build/.config" CONFIG_DEBUG_INFO_NONE)" = y ] &&
	   [ "$(val "$WORK/build/.config" CONFIG_DEBUG_INFO)" = n ] &&
	   [ "$(val "$f" CONFIG_DEBUG_INFO)" = y ] &&
	   grep -q '^- built without debug information' "$work/trimmed.config.verify.md"; then
		pass "real/verify-no-debug-info$sfx"
	else
		fail "real/verify-no-debug-info$sfx" "built with DEBUG_INFO=$(val "$WORK/build/.config" CONFIG_DEBUG_INFO), final DEBUG_INFO=$(val "$f" CONFIG_DEBUG_INFO)"
	fi
	if [ "$(val "$WORK/build/.config" CONFIG_MODVERSIONS)" = n ] &&
	   [ "$(val "$f" CONFIG_MODVERSIONS)" = y ] &&
	   [ ! -e "$WORK/build/Module.symvers" -o -z "$(awk '$1 != "0x00000000"' "$WORK/build/Module.symvers" | head -1)" ] &&
	   grep -q '^- built without module versions' "$work/trimmed.config.verify.md"; then
		pass "real/verify-no-modversions$sfx"
	else
		fail "real/verify-no-modversions$sfx" "built with MODVERSIONS=$(val "$WORK/build/.config" CONFIG_MODVERSIONS), final MODVERSIONS=$(val "$f" CONFIG_MODVERSIONS)"
	fi
	grep -q '^\*\*Verified\*\*' "$work/trimmed.config.verify.md" &&
		grep -q '| CONFIG_BINFMT_ELF | fs | boot: bisection (probe [0-9]*) |' "$work/trimmed.config.verify.md" &&
		pass "real/verify-report$sfx" ||
		fail_with "real/verify-report$sfx" "report" cat "$work/trimmed.config.verify.md"
	# What the trim bought: every row of the measured table, the
	# trimmed build's figures (column 1; 0 is the baseline's) read from
	# its bzImage and vmlinux (ELF sections, the syscall table), equal
	# to what size(1) says.
	md=$work/trimmed.config.verify.md
	rows=0
	for r in 'bzImage bytes' 'vmlinux text bytes' 'vmlinux data bytes' 'vmlinux bss bytes' \
	    'modules' 'modules bytes (files)' 'system calls compiled in' 'y+m options'; do
		grep -q "^| $r |" "$md" && rows=$((rows + 1))
	done
	cell() { grep "^| $1 |" "$md" | awk -F'|' -v c="$2" '{ gsub(/^ +| +$/, "", $(c + 3)); print $(c + 3) }'; }
	read -r st sd sb _ < <(size "$WORK/build/vmlinux" 2>/dev/null | sed -n 2p)
	if [ "$rows" = 8 ] && [ "$(cell 'bzImage bytes' 1)" = "$(stat -c %s "$WORK/build/arch/x86/boot/bzImage")" ] &&
	   [ "$(cell 'vmlinux text bytes' 1)" = "$st" ] && [ "$(cell 'vmlinux bss bytes' 1)" = "$sb" ] &&
	   [[ "$(cell 'system calls compiled in' 1)" =~ ^[1-9][0-9]*\ \(vmlinux\)$ ]] &&
	   [ "$(cell 'y+m options' 1)" = "$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$work/trimmed.config")" ]; then
		pass "real/verify-measured$sfx" "(trimmed: bzImage $(cell 'bzImage bytes' 1), text $st, data $sd, bss $sb, system calls $(cell 'system calls compiled in' 1), y+m $(cell 'y+m options' 1))"
	else
		fail_with "real/verify-measured$sfx" "measured table ($rows of 8 rows; size(1): $st $sd $sb)" \
			sed -n '/^## What the trim bought/,/^## Steps/p' "$md"
	fi
	# The kernel's conf accepts the final config unchanged.
	mkdir -p "$work/check-o"
	cp "$work/trimmed.config" "$work/check-o/.config"
	make -s -C "$SRC" O="$work/check-o" ARCH=x86_64 olddefconfig > /dev/null 2>&1
	if diff <(grep -v '^#' "$work/trimmed.config" | grep .) \
		<(grep -v '^#' "$work/check-o/.config" | grep .) > "$work/diff"; then
		pass "real/verify-conf-accepts$sfx"
	else
		fail_with "real/verify-conf-accepts$sfx" "conf changed the final config" cat "$work/diff"
	fi
	# Every step passed on the last boot, in tsv.
	last=$(awk -F'\t' '$1=="probe"{p=$2} END{print p}' "$work/loop.tsv")
	n=$(awk -F'\t' -v p="$last" '$1=="step" && $2==p && $4=="pass"' "$work/loop.tsv" | wc -l)
	[ "$n" = 4 ] && pass "real/verify-steps$sfx" ||
		fail_with "real/verify-steps$sfx" "$n of 4 steps passed on the last boot" cat "$work/loop.tsv"
	cp "$work/trimmed.config" "$KCTUI_CACHE/verify-tiny.final"

	# A minimal trim put back from a console message: `kctui export
	# --policy minimal` of the untrimmed config with the tiny bundle
	# (no trace: the one module it never loaded, BINFMT_MISC, is its only
	# candidate); its step's modprobe fails, informed fill-back puts it
	# back with that message, the second probe passes: 2 probes, no
	# bisection (the issue's "repaired in 2 probes", counted from the
	# TSV). The second probe rebuilds only what changed in the same O=
	# directory: its objects and build seconds are printed. The measured
	# table also as TSV and YAML beside the report, with the boot times
	# (1 timed boot here; the bench asks for 3) and a --compare column.
	"$KCTUI" -C "$SRC" --config "$work/base.config" export -e "$BUNDLE" \
		--policy minimal --accept all -o "$work/fs.config" \
		--report "$work/fs-export.md" --decisions "$work/decisions-fs" > /dev/null 2>&1
	kv --config "$work/fs.config" verify -e "$BUNDLE" -j2 --work-dir "$WORK" \
		--decisions "$work/decisions-fs" --format tsv --timeout 120 \
		--report "$work/fs.md" --boot-runs 1 --compare "$work/base.config"
	np=$(grep -c $'^probe\t' "$work/out")
	objs2=$(awk -F'\t' '$1 == "build" && $2 == 2 { n = $3 } END { print n + 0 }' "$work/out")
	bsecs2=$(awk -F'\t' '$1 == "phase" && $2 == 2 && $3 == "build" { b = $4 }
		$1 == "phase" && $2 == 2 && $3 == "install" { i = $4 } END { printf "%.0f", i - b }' "$work/out")
	if [ $rc -eq 0 ] && [ "$np" = 2 ] &&
	   grep -q '^- `CONFIG_BINFMT_MISC` (m)' "$work/fs-export.md" &&
	   grep -q $'^verdict\t1\tfail\tmodule' "$work/out" &&
	   grep -q $'^keep\tCONFIG_BINFMT_MISC\tmodule: modprobe: module binfmt_misc not found' "$work/out" &&
	   grep -q $'^verdict\t2\tpass' "$work/out" &&
	   grep -q '| CONFIG_BINFMT_MISC | fs | module: modprobe: module binfmt_misc not found' "$work/fs.md" &&
	   [ "$(val "$work/fs.config" CONFIG_BINFMT_MISC)" = m ]; then
		pass "real/verify-informed-two-probes" "$np probes: the minimal trim's BINFMT_MISC put back by the module step's message; probe 2 built $objs2 objects in ${bsecs2} s (same O= directory)"
	else
		fail_with "real/verify-informed-two-probes" "exit $rc, $np probes" cat "$work/out" "$work/err"
	fi
	# The measured table in three forms, the same figures: every row in
	# the TSV, the trim's boot to /init timed (the baseline has no
	# kernel here), the --compare column's y+m that of the config.
	tsv=$work/fs.tsv yml=$work/fs.yaml
	rows=$(awk -F'\t' 'NR > 1 { n++ } END { print n + 0 }' "$tsv" 2>/dev/null)
	tinit=$(awk -F'\t' '$1 == "boot_init_seconds" { print $3 }' "$tsv" 2>/dev/null)
	cym=$(awk -F'\t' '$1 == "ym" { print $5 }' "$tsv" 2>/dev/null)
	mdbz=$(grep '^| bzImage bytes |' "$work/fs.md" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
	if [ "$rows" = 10 ] && [[ "$tinit" =~ ^[0-9]+\.[0-9]+$ ]] &&
	   [ "$cym" = "$(grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$work/base.config")" ] &&
	   [ "$(awk -F'\t' '$1 == "bzimage_bytes" { print $3 }' "$tsv")" = "$mdbz" ] &&
	   grep -q '^| boot to /init (s) | - | [0-9.]* (1 boot, [kt][vc][mg]) |' "$work/fs.md" &&
	   python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); c = d["columns"]; sys.exit(0 if len(c) == 4 and c[1]["bzimage_bytes"] == int(sys.argv[2]) and c[1]["boot_runs"] == 1 and c[1]["boot_init_seconds"] > 0 else 1)' "$yml" "$mdbz" 2> /dev/null; then
		pass "real/verify-measured-tsv-yaml" "(trim to /init $tinit s; --compare y+m $cym)"
	else
		fail_with "real/verify-measured-tsv-yaml" "rows $rows, /init '$tinit', compare y+m '$cym'" cat "$tsv" "$yml"
	fi

	# Modules built in (what `kctui export --builtin` makes): MODULES=n,
	# BINFMT_MISC=y. The initramfs has no module tree, only the build's
	# modules.builtin; the module step's "modprobe binfmt_misc" is
	# answered from it by /init's stand-in and passes; the measured
	# table says 0 modules.
	sed -e 's/^CONFIG_MODULES=y/# CONFIG_MODULES is not set/' \
	    -e 's/^CONFIG_BINFMT_MISC=m/CONFIG_BINFMT_MISC=y/' "$work/base.config" > "$work/builtin.config"
	"$KCTUI" -C "$SRC" --config "$work/builtin.config" olddefconfig > /dev/null 2>&1
	kv --config "$work/builtin.config" verify -e "$BUNDLE" -j2 --work-dir "$WORK" \
		--decisions "$work/decisions-builtin" --format tsv --timeout 120 \
		--report "$work/builtin.md"
	np=$(grep -c $'^probe\t' "$work/out")
	mods=$(grep '^| modules |' "$work/builtin.md" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
	if [ $rc -eq 0 ] && [ "$np" = 1 ] &&
	   [ "$(val "$work/builtin.config" CONFIG_MODULES)" = n ] &&
	   [ "$(val "$work/builtin.config" CONFIG_BINFMT_MISC)" = y ] &&
	   grep -q $'^step\t1\tmodule\tpass' "$work/out" &&
	   grep -q '^\*\*Verified\*\*' "$work/builtin.md" && [ "$mods" = 0 ]; then
		pass "real/verify-builtin" "(MODULES=n, BINFMT_MISC=y: verified in $np probe, the module step answered from modules.builtin; measured modules: $mods)"
	else
		fail_with "real/verify-builtin" "exit $rc, $np probes, modules '$mods'" cat "$work/out" "$work/err" "$work/builtin.md"
	fi
fi

# ---- bad input ---------------------------------------------------------------
final=$KCTUI_CACHE/verify-tiny.final
[ -f "$final" ] || final=$work/base.config
cp "$final" "$work/user.config"
sum() { cat "$work/user.config" "$work/decisions2" 2>/dev/null | md5sum; }
echo "CONFIG_X keep  # mine" > "$work/decisions2"
before=$(sum)

# expect NAME PATTERN: non-zero exit, PATTERN on stderr, files untouched
expect() {
	if [ $rc -eq 0 ]; then
		fail "$1" "exit 0"; indent < "$work/out"; return
	fi
	if ! grep -q -- "$2" "$work/err"; then
		fail_with "$1" "no message matching '$2'" cat "$work/err"; return
	fi
	if [ "$(sum)" != "$before" ]; then
		fail "$1" "the config or the decisions file changed"; return
	fi
	pass "$1" "exit $rc: $(head -n 1 "$work/err")"
}

mkdir -p "$work/noworkload"
cp "$BUNDLE/vm" "$BUNDLE/config" "$work/noworkload/"
kv --config "$work/user.config" verify -e "$work/noworkload" --work-dir "$WORK" \
	--decisions "$work/decisions2"
expect "real/verify-no-workload$sfx" "has no workload file"

echo 'echo no steps here' > "$work/nosteps"
kv --config "$work/user.config" verify -e "$BUNDLE" --workload "$work/nosteps" \
	--work-dir "$WORK" --decisions "$work/decisions2"
expect "real/verify-no-steps$sfx" "no step lines"

printf 'arch x86_64\nmachine q35\nmemory lots\n' > "$work/badvm"
mkdir -p "$work/badvm.d"
cp "$BUNDLE/workload" "$BUNDLE/config" "$work/badvm.d/"
cp "$work/badvm" "$work/badvm.d/vm"
kv --config "$work/user.config" verify -e "$work/badvm.d" --work-dir "$WORK" \
	--decisions "$work/decisions2"
expect "real/verify-bad-vm$sfx" "vm:3:"

# The shared tree has include/config (conf ran in it): not clean for O=.
kv --config "$work/user.config" -C "$TREE" verify -e "$BUNDLE" --work-dir "$WORK" \
	--decisions "$work/decisions2"
expect "real/verify-unclean-tree$sfx" "not clean"

kv --config "$work/user.config" verify -e "$BUNDLE" --work-dir "$WORK" \
	--qemu /nonexistent/qemu-system-x86_64 --decisions "$work/decisions2"
expect "real/verify-no-qemu$sfx" "qemu-system-x86_64: not found"

# A guest that hangs: the workload sleeps past the timeout.
cp -r "$BUNDLE" "$work/hang"
printf 'step hang sleep 600\n' > "$work/hang/workload"
kv --config "$work/user.config" verify -e "$work/hang" --work-dir "$WORK" \
	--timeout 25 --no-fill-back --decisions "$work/decisions2"
expect "real/verify-hang$sfx" "timed out"

# QEMU itself fails before the guest prints anything (texts seen on real
# hosts): the host's failure. One probe, no fill-back, exit 1, the config
# and the decisions untouched.
for q in msr:"qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" \
    device:"qemu-system-x86_64: -device foo: 'foo' is not a valid device model name" \
    bus:"qemu-system-x86_64: -device usb-storage,bus=xhci.0: Bus 'xhci.0' not found"; do
	printf '#!/bin/sh\necho "%s" >&2\nexit 1\n' "${q#*:}" > "$work/qemu-${q%%:*}"
	chmod +x "$work/qemu-${q%%:*}"
	kv --config "$work/user.config" verify -e "$BUNDLE" --work-dir "$WORK" \
		--qemu "$work/qemu-${q%%:*}" --format tsv --decisions "$work/decisions2"
	expect "real/verify-host-fails-${q%%:*}$sfx" "QEMU could not run this machine: ${q#*: }"
	n=$(grep -c '^probe	' "$work/out")
	if [ "$n" -eq 1 ]; then
		pass "real/verify-host-fails-${q%%:*}-one-probe$sfx"
	else
		fail "real/verify-host-fails-${q%%:*}-one-probe$sfx" "$n probes"
	fi
done

# The baseline: the kernel the bundle was recorded on, booted before any
# build. Here the loop's own last build stands for it (unpacked as a
# package is: boot/vmlinuz-REL, lib/modules/REL).
rel=$(cat "$WORK/build/include/config/kernel.release" 2>/dev/null)
ROOT=$work/baseline-root
mkdir -p "$ROOT/boot"
cp "$WORK/build/arch/x86/boot/bzImage" "$ROOT/boot/vmlinuz-$rel" 2>/dev/null
cp -a "$WORK/build/staging/lib" "$ROOT/" 2>/dev/null
cp -r "$BUNDLE" "$work/basefail"
printf 'step hello echo hello\nstep broken false\n' > "$work/basefail/workload"
kv --config "$work/user.config" verify -e "$work/basefail" --work-dir "$WORK" \
	--base-kernel "$ROOT" --format tsv --decisions "$work/decisions2"
expect "real/verify-baseline-fails$sfx" "the baseline, $ROOT/boot/vmlinuz-$rel (the kernel the bundle was recorded on), failed at broken"
if [ "$(grep -c '^probe	' "$work/out")" = 0 ]; then
	pass "real/verify-baseline-fails-nothing-built$sfx"
else
	fail "real/verify-baseline-fails-nothing-built$sfx" "$(grep -c '^probe	' "$work/out") probes"
fi
if [ "$sfx" = "" ]; then
	cp "$work/user.config" "$work/base-ok.config"
	kv --config "$work/base-ok.config" verify -e "$BUNDLE" --work-dir "$WORK" \
		--base-kernel "$ROOT" --no-fill-back --decisions "$work/decisions3"
	if [ $rc -eq 0 ] && grep -q "^- baseline: $ROOT/boot/vmlinuz-$rel booted and passed every step" \
	    "$work/base-ok.config.verify.md"; then
		pass "real/verify-baseline-passes" "($(grep '^- baseline' "$work/base-ok.config.verify.md"))"
	else
		fail "real/verify-baseline-passes" "exit $rc"
		indent < "$work/err"; grep -i baseline "$work/base-ok.config.verify.md" | indent
	fi
	grep -q '^- baseline: none (the bundle names no kernel release' "$work/trimmed.config.verify.md" &&
		pass "real/verify-baseline-none-said" ||
		fail_with "real/verify-baseline-none-said" "no baseline line" grep -i baseline "$work/trimmed.config.verify.md"
fi

# --baseline-only: the baseline's steps, then stop; nothing built, no
# file written (the way to check a bundle's vm and workload, or a twin).
cp "$work/user.config" "$work/bo.config"
kv --config "$work/bo.config" verify -e "$BUNDLE" --work-dir "$WORK" \
	--base-kernel "$ROOT" --baseline-only --format tsv --decisions "$work/decisions4"
if [ $rc -eq 0 ] && grep -q $'^step\t0\thello\tpass' "$work/out" &&
   grep -q $'^step\t0\tmodule\tpass' "$work/out" &&
   ! grep -q $'^probe\t' "$work/out" && cmp -s "$work/bo.config" "$work/user.config" &&
   [ ! -e "$work/bo.config.verify.md" ] && [ ! -e "$work/decisions4" ]; then
	pass "real/verify-baseline-only$sfx" "$(grep -c $'^step\t0' "$work/out") steps, no probe, nothing written"
else
	fail "real/verify-baseline-only$sfx" "exit $rc"
	indent < "$work/err"; indent < "$work/out"
fi

# --base-kernel of a package unpacked with dpkg-deb -x has no
# modules.dep (the package's installation makes it): said before any
# boot, with the command, and the user's directory not written.
if [ "$sfx" = "" ]; then
	ROOT2=$work/baseline-nodep
	cp -a "$ROOT" "$ROOT2" && rm -f "$ROOT2/lib/modules/$rel/modules.dep"
	cp "$work/user.config" "$work/bn.config"
	kv --config "$work/bn.config" verify -e "$BUNDLE" --work-dir "$WORK" \
		--base-kernel "$ROOT2" --baseline-only --decisions "$work/decisions5"
	if [ $rc -ne 0 ] && grep -qF "$ROOT2/lib/modules/$rel/modules.dep: no modules.dep" "$work/err" &&
	   grep -qF "run 'depmod -b $ROOT2 $rel'" "$work/err" &&
	   [ ! -e "$ROOT2/lib/modules/$rel/modules.dep" ] && ! grep -q 'step' "$work/out"; then
		pass "real/verify-base-kernel-no-depmod" "exit $rc, nothing booted"
	else
		fail_with "real/verify-base-kernel-no-depmod" "exit $rc" cat "$work/err" "$work/out"
	fi
fi

# distcc: with DISTCC_HOSTS set, a probe's compiles go to the distccd
# named there (here one on 127.0.0.1), behind ccache (CCACHE_PREFIX);
# CCACHE_RECACHE makes ccache compile instead of answering from its
# cache. A copy of the loop's build directory with two objects removed,
# verified with its own last config: the probe compiles those (and
# little else), by distccd.
if [ "$sfx" = "" ]; then
	name=real/verify-distcc
	if ! command -v distccd > /dev/null 2>&1 || ! command -v distcc > /dev/null 2>&1; then
		fail "$name" "distcc not installed (make deps installs it)"
	else
		DW=$work/distcc-wd
		rm -rf "$DW"
		cp -a "$WORK" "$DW"
		rm -f "$DW/build/kernel/fork.o" "$DW/build/fs/exec.o"
		port=$((20000 + $$ % 20000))
		# (run as root it becomes the distccd user, which cannot write
		# in $work: its log goes to stderr, kept by this shell; it must
		# not hold the tree's lock, fd 8, should it outlive the test)
		distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 \
			--port "$port" --jobs 2 --log-stderr --log-level info \
			2> "$work/distccd.log" 8>&- &
		echo $! > "$work/distccd.pid"
		# Ready when it says it has started (its own log line), not
		# after a guess of a second; at most 20 s.
		for ((i = 0; i < 200; i++)); do
			grep -q 'daemon started' "$work/distccd.log" 2>/dev/null && break
			kill -0 "$(cat "$work/distccd.pid")" 2>/dev/null || break
			sleep 0.1
		done
		# the copy's own last config: only the removed objects compile
		cp "$DW/build/.config" "$work/dc.config"
		DISTCC_HOSTS="127.0.0.1:$port/2" CCACHE_RECACHE=1 \
			kv --config "$work/dc.config" verify -e "$BUNDLE" --work-dir "$DW" \
			--no-baseline --no-fill-back --decisions "$work/decisions5" -j2
		kill "$(cat "$work/distccd.pid")" 2>/dev/null
		wait "$(cat "$work/distccd.pid")" 2>/dev/null
		n=$(grep -c 'COMPILE_OK' "$work/distccd.log" 2>/dev/null)
		if [ $rc -eq 0 ] && [ "${n:-0}" -ge 2 ] &&
		   grep -q 'COMPILE_OK.*kernel/fork\.c' "$work/distccd.log"; then
			pass "$name" "verified, $n compiles by distccd on 127.0.0.1"
		else
			fail "$name" "exit $rc, ${n:-0} compiles by distccd"
			indent < "$work/err"; tail -n 5 "$work/distccd.log" 2>/dev/null | indent
		fi
		rm -rf "$DW"
	fi
fi

# A build that fails: an initramfs source that does not exist (a string
# option, not a trim: no fill-back can repair it).
sed 's|^CONFIG_INITRAMFS_SOURCE=.*|CONFIG_INITRAMFS_SOURCE="/nonexistent/kctui-initramfs"|' \
	"$work/user.config" > "$work/broken.config"
cp "$work/broken.config" "$work/broken.orig"
kv --config "$work/broken.config" verify -e "$BUNDLE" --work-dir "$WORK" \
	--no-fill-back --decisions "$work/decisions2"
before_b=$(md5sum < "$work/broken.orig")
if [ $rc -ne 0 ] && grep -q 'build' "$work/err" &&
   [ "$(md5sum < "$work/broken.config")" = "$before_b" ]; then
	pass "real/verify-build-failure$sfx" "exit $rc: $(grep -m1 build "$work/err")"
else
	fail "real/verify-build-failure$sfx" "exit $rc"
	indent < "$work/err"; tail -n 20 "$work/out" | indent
fi
exit 0
