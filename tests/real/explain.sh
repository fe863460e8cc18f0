#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/explain.sh - `kctui explain` and `kctui enable` on the real
# Linux 6.1 tree with Debian's cloud-amd64 (and amd64) configs as --config in
# a scratch directory: every reason kind on a real symbol (set by the user,
# a default, selected, implied, limited to m, a choice, hidden by a NOT
# conjunct or a parent entry), the dependents of a symbol checked against
# the kernel's own conf, evidence from the recorded bundle; enable plans
# applied with --apply -o and checked by running the KERNEL'S conf
# --olddefconfig on the result; refusals for impossible ones. (Their speed
# is measured by make bench, tests/bench/trim.sh.)
#
#   KCTUI=/path/to/kctui tests/real/explain.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup explain

export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}

kctui_need_binary "real/explain$sfx"
kctui_tree_or_fail "real/explain$sfx" "$work/tree.log"

# The environment conf gets from make, as kctui derives it.
mapfile -t ENVV < <("$KCTUI" -C "$TREE" print-env)
# conf_olddef FILE: the kernel's own conf --olddefconfig on FILE.
conf_olddef() {
	(cd "$TREE" && env -i "${ENVV[@]}" KCONFIG_CONFIG="$1" \
		"$CONF" -s --olddefconfig Kconfig) > "$work/conf.log" 2>&1
}

# The starting configs: Debian's, brought up to date by the kernel's conf
# (so that every value is what conf itself computes).
cp "$DEBIAN_CLOUD" "$work/cloud.config"
cp "$DEBIAN_AMD64" "$work/amd64.config"
if ! conf_olddef "$work/cloud.config" || ! conf_olddef "$work/amd64.config"; then
	fail "real/explain-conf$sfx" "the kernel's conf failed"
	indent < "$work/conf.log"
	exit 1
fi
cp "$work/cloud.config" "$work/cloud.orig"

# ex CONFIG SYMBOL...: kctui explain, stdout in $work/out, stderr in $work/err.
ex() {
	local cfg=$1; shift
	"$KCTUI" -C "$TREE" --config "$cfg" "$@" > "$work/out" 2> "$work/err"
}

# expect NAME SYMBOL TEXT...: every TEXT is a line (fixed string) of
# `explain SYMBOL` on the cloud config.
expect() {
	local name=$1 sym=$2 t missing=; shift 2
	if ! ex "$work/cloud.config" explain "$sym"; then
		fail_with "$name$sfx" "explain $sym failed" cat "$work/err"
		return
	fi
	for t in "$@"; do
		grep -qxF -- "$t" "$work/out" || missing+="$t"$'\n'
	done
	if [ -z "$missing" ]; then
		pass "$name$sfx" "($sym)"
	else
		fail "$name$sfx" "explain $sym lacks lines"
		{ printf 'missing:\n%s' "$missing"; echo got:; cat "$work/out"; } | indent
	fi
}

# The facts that differ between the trees tree.sh gives (TREE_KVER):
# Kconfig lines moved, IRQ_WORK became "def_bool y if SMP" in 6.12 (so
# another select-only option), SCSI_NSP32 gained HAS_IOPORT.
case $TREE_KVER in
6.12)
	sel_sym=IRQ_DOMAIN_HIERARCHY
	sel_line="Value: y, selected by GENERIC_MSI_IRQ (y) and X86_LOCAL_APIC (y)."
	nsp_dep="SCSI_LOWLEVEL && SCSI && PCI && SCSI && !64BIT && HAS_IOPORT"
	nsp_line=1208 tipc_line=57 ;;
*)
	sel_sym=IRQ_WORK
	sel_line="Value: y, selected by RELAY (y), PRINTK (y), NO_HZ_FULL (y), BPF_SYSCALL (y), TASKS_RCU (y), TASKS_RUDE_RCU (y), TASKS_TRACE_RCU (y), PERF_EVENTS (y) and 5 more."
	nsp_dep="SCSI_LOWLEVEL && SCSI && PCI && SCSI && !64BIT"
	nsp_line=1210 tipc_line=58 ;;
esac

# ------------------------------------------------------------ reason kinds
expect real/explain-user EXT4_FS \
	"CONFIG_EXT4_FS — The Extended 4 (ext4) filesystem (tristate)" \
	"Value: y, set by you in cloud.config." \
	"Defined at fs/ext4/Kconfig:29"
# The second default wins: its line is quoted from the source with file:line.
expect real/explain-default INET_DCCP_DIAG \
	"CONFIG_INET_DCCP_DIAG (tristate, no prompt)" \
	"Value: m, by default (\"def_tristate m\" at net/dccp/Kconfig:26)." \
	"You can't set it: it has no prompt; only its defaults and selects decide its value."
expect real/explain-default-inactive X86_32 \
	"Value: n: no default applies and nothing selects it." \
	"  Its default \"def_bool y\" (arch/x86/Kconfig:11) does not apply: 64BIT is y."
expect real/explain-selected "$sel_sym" "$sel_line"
expect real/explain-select-blocker CRC32 \
	"Value: y, set by you in cloud.config." \
	"It selects BITREVERSE (now y)."
grep -q "^It can't be turned off or made a module because .*JBD2 (y).* select it\.$" \
	"$work/out" && pass "real/explain-select-blocker-text$sfx" ||
	fail_with "real/explain-select-blocker-text$sfx" "no select blocker" cat "$work/out"
expect real/explain-implied RT_MUTEXES \
	"Value: y, implied by FUTEX (y)."
expect real/explain-choice HZ_250 \
	"Value: y, chosen in the choice \"Timer frequency\"." \
	"  The choice is HZ_250 because you picked it in cloud.config." \
	"To turn it off, pick another value of its choice."
expect real/explain-choice-other HZ_1000 \
	"Value: n, because the choice \"Timer frequency\" picked HZ_250."
expect real/explain-hidden-not SCSI_NSP32 \
	"You can't change it: it is not shown because \"$nsp_dep\" is n: 64BIT is y." \
	"  64BIT is y — from its own dependencies (entry at drivers/scsi/Kconfig:$nsp_line)."
expect real/explain-hidden-parent SND_SOC_ADAU7002 \
	"  SOUND is n — it is listed under SOUND and only shown when that is on (sound/Kconfig:2)." \
	"  SND_SOC is n — it is listed under SND_SOC and only shown when that is on (sound/soc/Kconfig:6)."
expect real/explain-undefined-dep CAN_MSCAN \
	"You can't change it: it is not shown because \"NETDEVICES && CAN_DEV && CAN_NETLINK && PPC\" is n: CAN_DEV is n, CAN_NETLINK is n and PPC is not defined for this architecture." \
	"  PPC is not defined for this architecture — from its own dependencies (entry at drivers/net/can/mscan/Kconfig:4)."
expect real/explain-prefix CONFIG_RT_MUTEXES \
	"Value: y, implied by FUTEX (y)."

# Limited to m: TIPC_DIAG ("default y", depends on TIPC, which is m) with
# its line taken out of the config so that its default decides.
grep -v '^CONFIG_TIPC_DIAG=' "$work/cloud.config" > "$work/lim.config"
if ex "$work/lim.config" explain TIPC_DIAG &&
    grep -qxF "Value: m, by default (\"default y\" at net/tipc/Kconfig:$tipc_line)." "$work/out" &&
    grep -qxF '  The default is y, but it is limited to m because it depends on something that is m (TIPC is m).' "$work/out" &&
    grep -qxF "It can't be y, only m or n, because it depends on something that is m: TIPC is m." "$work/out"; then
	pass "real/explain-limited$sfx" "(TIPC_DIAG)"
else
	fail_with "real/explain-limited$sfx" "no limited-to-m reason" cat "$work/out" "$work/err"
fi

# Unknown symbols: a message, suggestions, exit 1.
ex "$work/cloud.config" explain E1000X; rc=$?
if [ $rc -eq 1 ] && grep -qF "kctui: no symbol E1000X in this tree (did you mean E1000" "$work/err"; then
	pass "real/explain-unknown$sfx"
else
	fail_with "real/explain-unknown$sfx" "exit $rc" cat "$work/err"
fi

# A --config that does not exist is a typo, not an empty configuration.
ex "$work/absent.config" explain NET; rc=$?
if [ $rc -eq 1 ] && [ ! -s "$work/out" ] &&
    grep -qxF "kctui: $work/absent.config: No such file or directory (--config names the configuration to read)" "$work/err"; then
	pass "real/explain-config-missing$sfx"
else
	fail_with "real/explain-config-missing$sfx" "exit $rc" cat "$work/err"
fi
# Without any config the values come from conf's defconfig list, and kctui
# says which file, as conf does: "set by you" would otherwise mislead.
KCONFIG_CONFIG="$work/absent.config" "$KCTUI" -C "$TREE" explain NET > "$work/out" 2> "$work/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "^kctui: no $work/absent.config: using defaults found in [^ ]" "$work/err" &&
    grep -q "^Value: " "$work/out" && [ ! -e "$work/absent.config" ]; then
	pass "real/explain-no-config$sfx" "($(sed -n 's/.*using defaults found in //p' "$work/err"))"
else
	fail_with "real/explain-no-config$sfx" "exit $rc" cat "$work/err"
fi

# ------------------------------------------- dependents, against conf
# What explain says turning SYMBOL off also changes must be what the
# kernel's conf does with SYMBOL switched off in the config.
# values FILE: "NAME=v" for every bool/tristate value (n when absent).
values() { sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=\([ym]\)$/\1=\2/p' "$1" | sort; }
dependents() {
	local sym=$1 n listed want
	ex "$work/cloud.config" explain "$sym" || { fail "real/explain-dependents-$sym$sfx" "explain failed"; return; }
	n=$(sed -n 's/^Turning it off would also change \([0-9]*\) other option.*/\1/p' "$work/out")
	sed "s/^CONFIG_$sym=.*/# CONFIG_$sym is not set/" "$work/cloud.config" > "$work/off.config"
	conf_olddef "$work/off.config"
	values "$work/cloud.config" > "$work/v0"
	values "$work/off.config" > "$work/v1"
	# Symbols whose value differs (either side), without SYMBOL itself.
	want=$(comm -3 "$work/v0" "$work/v1" | sed 's/^\t//; s/=.*//' | sort -u | grep -vx "$sym" | wc -l)
	listed=$(grep -c '^  [A-Z0-9_]*: [nmy] -> [nmy]$' "$work/out")
	if [ -n "$n" ] && [ "$n" = "$want" ] && { [ "$listed" = "$n" ] || [ "$listed" = 12 ]; }; then
		pass "real/explain-dependents-$sym$sfx" "($n options, as conf)"
	else
		fail "real/explain-dependents-$sym$sfx" "explain says ${n:-?}, conf changes $want"
		{ comm -3 "$work/v0" "$work/v1"; cat "$work/out"; } | head -40 | indent
	fi
}
dependents NET_VENDOR_INTEL
dependents EXT4_FS
dependents NETFILTER

# ------------------------------------------------------------- evidence
if ex "$work/cloud.config" -e "$BUNDLE" explain VIRTIO_NET &&
    grep -qE '^Evidence: used — module virtio_net loaded(;.*)?\.$' "$work/out"; then
	pass "real/explain-evidence$sfx" "($(grep ^Evidence "$work/out"))"
else
	fail_with "real/explain-evidence$sfx" "no evidence line" cat "$work/out" "$work/err"
fi

# --------------------------------------------------------------- enable
# plan NAME CONFIG SYMBOL[=v] WANT-LINE...: a plan that works, applied with
# --apply -o; the kernel's conf --olddefconfig on the result must keep
# SYMBOL at the value (and change nothing: kctui wrote what conf computes).
plan() {
	local name=$1 cfg=$2 arg=$3 sym=${3%%=*} val=y t missing=; shift 3
	case $arg in *=m) val=m;; esac
	cp "$cfg" "$work/in.config"
	rm -f "$work/new.config"
	if ! ex "$work/in.config" enable "$arg" --apply -o "$work/new.config"; then
		fail_with "$name$sfx" "enable $arg failed" cat "$work/out" "$work/err"
		return
	fi
	for t in "$@"; do
		grep -qxF -- "$t" "$work/out" || missing+="$t"$'\n'
	done
	if [ -n "$missing" ]; then
		fail "$name$sfx" "plan lacks lines"
		{ printf 'missing:\n%s' "$missing"; echo got:; cat "$work/out"; } | indent
		return
	fi
	if ! cmp -s "$cfg" "$work/in.config"; then
		fail "$name$sfx" "the input config was changed"
		return
	fi
	cp "$work/new.config" "$work/conf.config"
	if ! conf_olddef "$work/conf.config"; then
		fail_with "$name$sfx" "conf failed on the result" cat "$work/conf.log"
		return
	fi
	if grep -qx "CONFIG_$sym=$val" "$work/conf.config" &&
	    cmp -s "$work/new.config" "$work/conf.config"; then
		pass "$name$sfx" "($(grep -c '^  [0-9]*\. ' "$work/out") steps; conf keeps CONFIG_$sym=$val)"
	else
		fail "$name$sfx" "after conf: $(grep "CONFIG_$sym[= ]" "$work/conf.config")"
		{ cat "$work/out"; diff "$work/new.config" "$work/conf.config" | head -20; } | indent
	fi
}

plan real/enable-chain "$work/cloud.config" SND_SOC_ADAU7002 \
	"To make CONFIG_SND_SOC_ADAU7002 y, 4 changes:" \
	"  1. CONFIG_SOUND=y: SND_SOC_ADAU7002 depends on SOUND" \
	"  2. CONFIG_SND=y: SND_SOC_ADAU7002 depends on SND" \
	"  3. CONFIG_SND_SOC=y: SND_SOC_ADAU7002 depends on SND_SOC" \
	"  4. CONFIG_SND_SOC_ADAU7002=y: the option you asked for"
plan real/enable-module "$work/cloud.config" E1000=m \
	"To make CONFIG_E1000 m, 1 change:" \
	"  1. CONFIG_E1000=m: the option you asked for"
plan real/enable-y-needs-y "$work/cloud.config" TIPC_DIAG=y \
	"  1. CONFIG_TIPC=y: TIPC_DIAG depends on TIPC"
plan real/enable-choice "$work/cloud.config" NTP_PPS \
	"  1. CONFIG_HZ_PERIODIC=y: pick HZ_PERIODIC instead of NO_HZ_FULL in their choice" \
	"  2. CONFIG_NTP_PPS=y: the option you asked for"
plan real/enable-conflict "$work/cloud.config" SCSI_NSP32 \
	"  2. CONFIG_64BIT=n: SCSI_NSP32 can only be enabled while 64BIT is off (it depends on !64BIT)"
plan real/enable-promptless "$work/cloud.config" SENSORS_LIS3_SPI \
	"  1. CONFIG_ACPI=n: SENSORS_LIS3_SPI can only be enabled while ACPI is off (it depends on !ACPI)" \
	"  2. CONFIG_SPI=y: SENSORS_LIS3_SPI depends on SPI_MASTER; SPI_MASTER has no prompt and defaults on when SPI is y"
plan real/enable-amd64-choice "$work/amd64.config" TICK_CPU_ACCOUNTING

# refuse NAME SYMBOL MESSAGE: exit 2 and the message.
refuse() {
	local name=$1 sym=$2 msg=$3
	ex "$work/cloud.config" enable "$sym"; local rc=$?
	if [ $rc -eq 2 ] && grep -qxF -- "$msg" "$work/out"; then
		pass "$name$sfx" "($sym)"
	else
		fail "$name$sfx" "exit $rc"
		{ echo "want: $msg"; cat "$work/out" "$work/err"; } | indent
	fi
}
refuse real/enable-refuse-arch MMAP_ALLOW_UNINITIALIZED \
	"CONFIG_MMAP_ALLOW_UNINITIALIZED can't be made y: MMU can't be turned off: it has no prompt and is y for this architecture."
refuse real/enable-refuse-promptless SERIAL_TXX9_STDSERIAL \
	"CONFIG_SERIAL_TXX9_STDSERIAL can't be made y: HAS_TXX9_SERIAL is not something you can set: it has no prompt and is n for this architecture."
refuse real/enable-refuse-undefined CAN_MSCAN \
	"CONFIG_CAN_MSCAN can't be made y: PPC is not something you can set: it is not defined for this architecture (other Kconfig files only refer to it)."
ex "$work/cloud.config" enable HZ_250; rc=$?
if [ $rc -eq 0 ] && grep -qxF "CONFIG_HZ_250 is already y." "$work/out"; then
	pass "real/enable-already$sfx"
else
	fail_with "real/enable-already$sfx" "exit $rc" cat "$work/out" "$work/err"
fi
ex "$work/cloud.config" enable IRQ_WORK=m; rc=$?
[ $rc -eq 2 ] && grep -qF "IRQ_WORK is a bool option" "$work/out" &&
	pass "real/enable-bool-m$sfx" || fail_with "real/enable-bool-m$sfx" "exit $rc" cat "$work/out"
if cmp -s "$work/cloud.config" "$work/cloud.orig"; then
	pass "real/explain-input-untouched$sfx"
else
	fail "real/explain-input-untouched$sfx" "the cloud config was written"
fi
