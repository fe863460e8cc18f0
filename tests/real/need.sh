#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/need.sh - `kctui need PROFILE...` (profiles/*.yaml) on the
# real Linux 6.1 tree with Debian's cloud-amd64 config: every shipped
# profile applies; a profile the cloud config lacks (usb-storage,
# bluetooth) is enabled through enable's plans and the result is a fixed
# point of the KERNEL'S conf; the keep decisions name the profile; the
# containers profile survives `export` under every policy (and the same
# export without the decisions drops overlayfs, veth and the bridge:
# the decisions are what keeps them); options this tree can't give are
# said with the reason; malformed profiles give file:line and write
# nothing.
#
#   KCTUI=/path/to/kctui tests/real/need.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup need

export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}
# The project's profiles, whichever binary runs (build-asan/ has no
# profiles/ beside it), and none of the user's own.
export KCTUI_PROFILE_DIR=$KCTUI_REPO/profiles
export XDG_CONFIG_HOME=$work/xdg

kctui_need_binary "real/need$sfx"
kctui_tree_or_fail "real/need$sfx" "$work/tree.log"

mapfile -t ENVV < <("$KCTUI" -C "$TREE" print-env)
# conf_olddef FILE: the kernel's own conf --olddefconfig on FILE.
conf_olddef() {
	(cd "$TREE" && env -i "${ENVV[@]}" KCONFIG_CONFIG="$1" \
		"$CONF" -s --olddefconfig Kconfig) > "$work/conf.log" 2>&1
}
# val FILE SYM: y, m, or n.
val() {
	local v
	v=$(sed -n "s/^CONFIG_$2=//p" "$1")
	printf '%s\n' "${v:-n}"
}
# kt ARGS...: kctui on the tree, stdout in $work/out, stderr in $work/err.
kt() { "$KCTUI" -C "$TREE" "$@" > "$work/out" 2> "$work/err"; }

# Debian's cloud config brought up to date by the kernel's conf, in a
# directory of its own (the decisions file goes beside it).
mkdir -p "$work/a" "$work/b" "$work/c"
cp "$DEBIAN_CLOUD" "$work/cloud.config"
if ! conf_olddef "$work/cloud.config"; then
	fail "real/need-conf$sfx" "the kernel's conf failed"
	indent < "$work/conf.log"
	exit 1
fi

# ------------------------------------------------------------- the list
profiles="containers wireguard kvm-host nftables usb-storage nfs-client bluetooth systemd"
if kt need --list; then
	missing=
	for p in $profiles; do
		grep -q "^$p " "$work/out" || missing+=" $p"
	done
	[ -z "$missing" ] && pass "real/need-list$sfx" "($(wc -l < "$work/out") profiles)" ||
		fail_with "real/need-list$sfx" "missing:$missing" cat "$work/out"
else
	fail_with "real/need-list$sfx" "need --list failed" cat "$work/err"
fi

# ------------------------------------- every profile on the cloud config
# Each applies (exit 0: nothing required is missing on 6.1) and says
# what it changes; nothing is written without --apply and --no-record.
for p in $profiles; do
	cp "$work/cloud.config" "$work/c/cloud.config"
	if kt --config "$work/c/cloud.config" need --no-record "$p" &&
	    cmp -s "$work/cloud.config" "$work/c/cloud.config" &&
	    [ ! -e "$work/c/cloud.config.kctui-decisions" ] &&
	    grep -q "^$p: [0-9]* options: " "$work/out"; then
		pass "real/need-$p$sfx" "($(grep "^$p: " "$work/out" | cut -d: -f2- | sed 's/^ //'))"
	else
		fail_with "real/need-$p$sfx" "need $p" cat "$work/out" "$work/err"
	fi
done

# ----------------------- usb-storage and bluetooth: off in the cloud config
cp "$work/cloud.config" "$work/a/cloud.config"
if kt --config "$work/a/cloud.config" need containers usb-storage bluetooth \
    --apply -o "$work/a/need.config"; then
	pass "real/need-apply$sfx" "($(grep '^configuration written' "$work/out"))"
else
	fail_with "real/need-apply$sfx" "need --apply failed" cat "$work/out" "$work/err"
fi
grep -q '^  CONFIG_USB_STORAGE=m (was n): ' "$work/out" &&
grep -q '^  CONFIG_BT=m (was n): ' "$work/out" &&
	pass "real/need-apply-says$sfx" ||
	fail_with "real/need-apply-says$sfx" "no USB_STORAGE/BT lines" cat "$work/out"
same_file "real/need-input-untouched$sfx" "$work/cloud.config" "$work/a/cloud.config"
bad=
for s in USB_SUPPORT USB USB_XHCI_HCD USB_STORAGE USB_UAS VFAT_FS EXFAT_FS \
    NLS_CODEPAGE_437 BT BT_BREDR BT_LE BT_RFCOMM BT_HIDP BT_HCIBTUSB RFKILL UHID \
    OVERLAY_FS VETH BRIDGE; do
	case $(val "$work/a/need.config" $s) in y|m) ;; *) bad+=" $s" ;; esac
done
[ -z "$bad" ] && pass "real/need-apply-values$sfx" ||
	fail "real/need-apply-values$sfx" "not y/m:$bad"
cp "$work/a/need.config" "$work/a/need.conf"
conf_olddef "$work/a/need.conf"
same_file "real/need-apply-fixed-point-conf$sfx" "$work/a/need.config" "$work/a/need.conf"

# The decisions: one keep per option given, naming the profile; shared
# options name both.
dec=$work/a/cloud.config.kctui-decisions
if grep -qx 'CONFIG_OVERLAY_FS keep  # need containers: .*' "$dec" &&
   grep -qx 'CONFIG_USB_UAS keep  # need usb-storage: .*' "$dec" &&
   grep -qx 'CONFIG_BT keep  # need bluetooth: .*' "$dec"; then
	pass "real/need-decisions$sfx" "($(grep -c ' keep ' "$dec") keeps)"
else
	fail_with "real/need-decisions$sfx" "decisions lack the profile" head -20 "$dec"
fi
cp "$dec" "$work/dec.1"
kt --config "$work/a/cloud.config" need containers systemd --no-record >/dev/null
kt --config "$work/a/cloud.config" need containers systemd
if grep -qx 'CONFIG_CGROUPS keep  # need containers, systemd: .*' "$dec" &&
   grep -qx 'CONFIG_FHANDLE keep  # need systemd: .*' "$dec" &&
   [ "$(grep -c '^CONFIG_CGROUPS ' "$dec")" = 1 ]; then
	pass "real/need-decisions-shared$sfx"
else
	fail_with "real/need-decisions-shared$sfx" "CGROUPS" grep -E 'CGROUPS|FHANDLE' "$dec"
fi
# Once more: nothing new.
cp "$dec" "$work/dec.2"
kt --config "$work/a/cloud.config" need containers systemd
same_file "real/need-decisions-idempotent$sfx" "$work/dec.2" "$dec"

# ---------------------------------------- kept by every policy of export
# need containers on the cloud config, then export: every option the
# profile's decisions keep and the config had stays; without the
# decisions the aggressive export drops overlayfs, veth and the bridge
# (the cloud-vm recording never used them), so this test can fail.
cp "$work/cloud.config" "$work/b/cloud.config"
kt --config "$work/b/cloud.config" need containers
kept=$(sed -n 's/^CONFIG_\([A-Z0-9_]*\) keep .*/\1/p' "$work/b/cloud.config.kctui-decisions")
for policy in aggressive modules verified; do
	name=need-export-$policy
	if ! kt --config "$work/b/cloud.config" -e "$BUNDLE" export --policy $policy \
	    -o "$work/b/$policy.config"; then
		fail_with "real/$name$sfx" "export failed" cat "$work/err"
		continue
	fi
	lost=
	for s in $kept; do
		[ "$(val "$work/cloud.config" "$s")" = n ] && continue
		[ "$(val "$work/b/$policy.config" "$s")" = n ] && lost+=" $s"
	done
	[ -z "$lost" ] && pass "real/$name$sfx" "($(wc -w <<<"$kept") kept; $(sed 's/^kctui: //' "$work/out"))" ||
		fail "real/$name$sfx" "trimmed:$lost"
done
bad=
for s in OVERLAY_FS VETH BRIDGE CGROUPS MEMCG NAMESPACES NET_NS PID_NS IPC_NS \
    UTS_NS USER_NS CGROUP_PIDS CGROUP_BPF SECCOMP_FILTER IP_NF_NAT \
    IP_NF_TARGET_MASQUERADE NETFILTER_XT_MATCH_CONNTRACK BRIDGE_NETFILTER; do
	case $(val "$work/b/aggressive.config" $s) in y|m) ;; *) bad+=" $s" ;; esac
done
[ -z "$bad" ] && pass "real/need-export-containers$sfx" ||
	fail "real/need-export-containers$sfx" "not y/m:$bad"
cp "$work/b/aggressive.config" "$work/b/aggressive.conf"
conf_olddef "$work/b/aggressive.conf"
same_file "real/need-export-fixed-point-conf$sfx" "$work/b/aggressive.config" "$work/b/aggressive.conf"
cp "$work/b/aggressive.config" "$work/b/aggressive.kt"
"$KCTUI" -C "$TREE" --config "$work/b/aggressive.kt" olddefconfig >/dev/null 2>&1
same_file "real/need-export-fixed-point-kctui$sfx" "$work/b/aggressive.config" "$work/b/aggressive.kt"

cp "$work/cloud.config" "$work/c/cloud.config"
rm -f "$work/c/cloud.config.kctui-decisions"
if kt --config "$work/c/cloud.config" -e "$BUNDLE" export --policy aggressive \
    -o "$work/c/aggressive.config"; then
	dropped=
	for s in OVERLAY_FS VETH BRIDGE; do
		[ "$(val "$work/c/aggressive.config" $s)" = n ] && dropped+=" $s"
	done
	[ "$dropped" = " OVERLAY_FS VETH BRIDGE" ] &&
		pass "real/need-export-without$sfx" "(trimmed without the profile:$dropped)" ||
		fail "real/need-export-without$sfx" "only trimmed:$dropped"
else
	fail_with "real/need-export-without$sfx" "export failed" cat "$work/err"
fi

# ------------------------------------------------ every profile on allnoconfig
# Long plans (MODULES off: m asked is given as y; EXPERT turned on for
# KCMP makes NAMESPACES, given by "default !EXPERT", n: planned again):
# every option this tree defines is given and conf keeps the result.
mkdir -p "$work/no"
if "$KCTUI" -C "$TREE" --config "$work/no/no.config" allnoconfig >/dev/null 2>&1 &&
   kt --config "$work/no/no.config" need --no-record $profiles --apply -o "$work/no/need.config"; then
	bad=
	for p in $profiles; do
		for s in $(sed -n 's/^  - name: //p' "$KCTUI_REPO/profiles/$p.yaml"); do
			case $s in MEMCG_SWAP|NFT_COUNTER) continue ;; esac
			case $(val "$work/no/need.config" "$s") in y|m) ;; *) bad+=" $s" ;; esac
		done
	done
	[ -z "$bad" ] && pass "real/need-allnoconfig$sfx" "($(grep '^configuration written' "$work/out" | sed 's/.*(//; s/)//'))" ||
		fail_with "real/need-allnoconfig$sfx" "not given:$bad" grep "can't give" "$work/out"
	cp "$work/no/need.config" "$work/no/need.conf"
	conf_olddef "$work/no/need.conf"
	same_file "real/need-allnoconfig-fixed-point-conf$sfx" "$work/no/need.config" "$work/no/need.conf"
else
	fail_with "real/need-allnoconfig$sfx" "need failed (exit $?)" grep "can't give" "$work/out"
fi

# ------------------------------------------ what this tree can't give
cat > "$work/cant.yaml" <<'EOF'
name: cant
description: options this tree can't give
options:
  - name: MMAP_ALLOW_UNINITIALIZED
    value: y
    reason: wants MMU off
    source: a test
  - name: NO_SUCH_OPTION_AT_ALL
    value: m
    optional: true
    reason: nothing
    source: a test
  - name: USB_UAS
    value: m
    reason: planned through its dependencies
    source: a test
EOF
cp "$work/cloud.config" "$work/c/cloud.config"
kt --config "$work/c/cloud.config" need "$work/cant.yaml" --no-record
rc=$?
if [ $rc = 2 ] &&
   grep -q "^  CONFIG_MMAP_ALLOW_UNINITIALIZED=y: this tree can't give it: .*MMU" "$work/out" &&
   grep -q "^  CONFIG_NO_SUCH_OPTION_AT_ALL: this tree can't give it (optional): no Kconfig file of this tree defines it\.$" "$work/out" &&
   grep -q "^  CONFIG_USB_UAS=m (was n): planned through its dependencies; first:$" "$work/out" &&
   grep -q "^      1\. CONFIG_USB_SUPPORT=y: " "$work/out" &&
   grep -q "^1 option needed this tree can't give (above)\.$" "$work/out"; then
	pass "real/need-cannot$sfx" "(exit 2)"
else
	fail_with "real/need-cannot$sfx" "exit $rc" cat "$work/out" "$work/err"
fi

# --------------------------------------------------- malformed profiles
# file:line(:column), exit 1, no decisions and no config written.
bad_profile() {
	local name=$1 want=$2 rc
	cp "$work/cloud.config" "$work/c/cloud.config"
	rm -f "$work/c/cloud.config.kctui-decisions" "$work/c/out.config"
	kt --config "$work/c/cloud.config" need containers "$work/$name.yaml" \
		--apply -o "$work/c/out.config"
	rc=$?
	if [ $rc = 1 ] && grep -qxF -- "kctui: $work/$name.yaml:$want" "$work/err" &&
	   [ ! -e "$work/c/cloud.config.kctui-decisions" ] && [ ! -e "$work/c/out.config" ]; then
		pass "real/need-malformed-$name$sfx" "($name.yaml:$want)"
	else
		fail_with "real/need-malformed-$name$sfx" "exit $rc" cat "$work/err"
	fi
}
printf 'name: nosource\ndescription: d\noptions:\n  - name: VETH\n    value: m\n    reason: r\n' \
	> "$work/nosource.yaml"
bad_profile nosource "4: CONFIG_VETH: no source (where the need is documented)"
printf 'name: badvalue\ndescription: d\noptions:\n  - name: VETH\n    value: yes\n    reason: r\n    source: s\n' \
	> "$work/badvalue.yaml"
bad_profile badvalue "5:12: value: y or m, not 'yes'"
printf 'name: syntax\ndescription: d\noptions:\n  - name: "VETH\n' > "$work/syntax.yaml"
bad_profile syntax "5:1: found unexpected end of stream"
printf 'name: other\ndescription: d\noptions:\n  - { name: VETH, value: m, reason: r, source: s }\n' \
	> "$work/misnamed.yaml"
bad_profile misnamed " the profile is named 'other', the file misnamed.yaml: rename one"
kt need no-such-profile
grep -q "^kctui: no profile no-such-profile (kctui need --list shows them" "$work/err" &&
	pass "real/need-unknown$sfx" || fail_with "real/need-unknown$sfx" "no message" cat "$work/err"

# -------------------------------- systemd, when the bundle shows it ran
# The cloud-vm recording booted busybox: nothing added. A copy whose
# mounts have cgroup2 at /sys/fs/cgroup (systemd's unified layout): the
# systemd profile is applied and recorded by itself.
mkdir -p "$work/d" "$work/sd"
cp "$work/cloud.config" "$work/d/cloud.config"
kt --config "$work/d/cloud.config" -e "$BUNDLE" need
grep -q "^no profile named, and the bundles show none" "$work/out" &&
	[ ! -e "$work/d/cloud.config.kctui-decisions" ] && pass "real/need-detect-none$sfx" ||
	fail_with "real/need-detect-none$sfx" "something applied" cat "$work/out"
cp "$BUNDLE"/{uname,modules,mounts} "$work/sd/"
echo "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0" >> "$work/sd/mounts"
if kt --config "$work/d/cloud.config" -e "$work/sd" need wireguard &&
   grep -q "shows its machine ran systemd (cgroup2 mounted at /sys/fs/cgroup): profile systemd applied too" "$work/out" &&
   grep -qx 'CONFIG_FHANDLE keep  # need systemd: .*' "$work/d/cloud.config.kctui-decisions" &&
   grep -qx 'CONFIG_WIREGUARD keep  # need wireguard: .*' "$work/d/cloud.config.kctui-decisions"; then
	pass "real/need-detect-systemd$sfx"
else
	fail_with "real/need-detect-systemd$sfx" "systemd not applied" cat "$work/out" "$work/err"
fi

# ------------------------------------------- the steps into the twin's workload
# kctui twin writes the cloud-vm machine's workload; need --workload adds
# the profiles' steps (those with a script) for verify --workload to run;
# the result is still a workload (busybox sh parses it, verify's reader
# is tests/unit/test_profile.c's) and a second run adds nothing.
if kt --config "$work/cloud.config" twin -e "$BUNDLE" -o "$work/twin"; then
	cp "$work/twin/workload" "$work/workload.orig"
	kt --config "$work/cloud.config" need --no-record bluetooth containers kvm-host \
		nfs-client nftables systemd usb-storage wireguard \
		--workload "$work/twin/workload"
	missing=
	for st in bluetooth containers kvm-host nfs-client nftables systemd \
	    usb-storage wireguard; do
		grep -qx "step $st need_${st//-/_}" "$work/twin/workload" ||
			missing="$missing $st"
	done
	if [ -z "$missing" ] &&
	   ! grep -q "its step is described, not written as a script" "$work/out" &&
	   busybox sh -n "$work/twin/workload" 2> "$work/sh.err" &&
	   cmp -s "$work/workload.orig" <(head -n "$(wc -l < "$work/workload.orig")" "$work/twin/workload"); then
		pass "real/need-workload$sfx" "($(grep -c '^step ' "$work/twin/workload") steps)"
	else
		fail_with "real/need-workload$sfx" "workload (no step:$missing)" cat "$work/out" "$work/sh.err"
	fi
	cp "$work/twin/workload" "$work/workload.1"
	kt --config "$work/cloud.config" need --no-record containers --workload "$work/twin/workload"
	same_file "real/need-workload-once$sfx" "$work/workload.1" "$work/twin/workload"
else
	fail_with "real/need-workload$sfx" "twin failed" cat "$work/err"
fi
