#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/compare.sh - kctui against the kernel's own conf on Debian's
# linux-source-6.1: every case runs the oracle (`make ... TARGET` in the
# tree, with KCONFIG_CONFIG pointing at a scratch file) and kctui on an
# identical scratch directory, then requires every file in the two
# directories (config, config.old, defconfig, ...) to be byte-identical.
#
#   KCTUI=/path/to/kctui tests/real/compare.sh        (default: ./kctui)
#
# KCTUI_REAL_CASES  space-separated case names to run (default: all; see
#                   CASES below)
# KCTUI_FLAVOR      suffix for result names ("asan" -> name[asan])
# KCTUI_ORACLE_DIR  where oracle results are kept; tests/run.sh shares one
#                   between the normal and the asan pass of a run
# KCTUI_CACHE_DIR   kctui's $(shell) cache (default: a scratch directory)
# KCTUI_KVER        kernel series of the tree (tree.sh: 6.1, the default,
#                   or 6.12); results of another series than 6.1 are named
#                   real-KVER/CASE (tests/real/compare-6.12.sh sets it)
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup real

CASES="olddefconfig-amd64 olddefconfig-cloud olddefconfig-noconfig
	defconfig-x86_64 defconfig-default defconfig-arm64
	allnoconfig allyesconfig allmodconfig alldefconfig
	allnoconfig-allconfig allmodconfig-allconfig
	savedefconfig-amd64 savedefconfig-file noenv-olddefconfig
	cold-run warm-run no-cache
	defconfig-arm defconfig-riscv defconfig-powerpc defconfig-s390
	defconfig-sparc defconfig-um defconfig-m68k"

flavor=${KCTUI_FLAVOR:-normal}
want=${KCTUI_REAL_CASES:-all}

ORACLE=${KCTUI_ORACLE_DIR:-$work/oracle}
export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/shell-cache}

# Result names: real/CASE on 6.1, real-6.12/CASE on 6.12.
rtag=real
if [ "${KCTUI_KVER:-6.1}" != 6.1 ]; then
	rtag=real-$KCTUI_KVER
	ORACLE=$ORACLE-$KCTUI_KVER	# a shared KCTUI_ORACLE_DIR holds 6.1's
fi
mkdir -p "$ORACLE"

kctui_need_binary "$rtag/kctui$sfx"
kctui_tree_or_fail "$rtag/tree" "$work/tree.log"
cat "$work/tree.log" >&2

# Seed files for the KCONFIG_ALLCONFIG cases (one unknown symbol on purpose).
cat > "$work/seed-allno.config" <<'EOF'
CONFIG_64BIT=y
CONFIG_MODULES=y
CONFIG_NET=y
CONFIG_INET=y
CONFIG_BLOCK=y
CONFIG_EXT4_FS=m
CONFIG_PCI=y
# CONFIG_SWAP is not set
CONFIG_LOCALVERSION="-kctui"
CONFIG_LOG_BUF_SHIFT=16
CONFIG_NO_SUCH_SYMBOL_KCTUI=y
EOF
cat > "$work/seed-allmod.config" <<'EOF'
# CONFIG_MODULES is not set
# CONFIG_DRM is not set
CONFIG_HZ_100=y
CONFIG_CMDLINE="console=ttyS0"
EOF

# ----------------------------------------------------------------- runners
# mk DIR ARGS...: the oracle, make in the tree with KCONFIG_CONFIG=DIR/config
mk() {
	local d=$1; shift
	make -C "$TREE" --no-print-directory KCONFIG_CONFIG="$d/config" "$@"
}
# kt ARGS...: kctui
kt() { "$KCTUI" "$@"; }

prep_debian_amd64() { cp "$DEBIAN_AMD64" "$1/config"; }
prep_debian_cloud() { cp "$DEBIAN_CLOUD" "$1/config"; }
prep_none() { :; }
prep_olddef_result() {
	ensure_oracle olddefconfig-amd64 || return 1
	cp "$ORACLE/olddefconfig-amd64/config" "$1/config"
}

# Oracle that reuses another case's oracle result.
oracle_copy() {
	ensure_oracle "$2" || return 1
	cp -a "$ORACLE/$2/." "$1/" && rm -f "$1/.done" "$1/.log"
}

# savedefconfig writes ./defconfig in the tree (objtree) for make and, by
# default, for kctui too; move it into the case directory.
take_defconfig() {
	if [ -e "$TREE/defconfig" ]; then mv "$TREE/defconfig" "$1/defconfig"; fi
}

# ------------------------------------------------------------------- cases
# For every case: prep_for CASE DIR, oracle_CASE DIR, kctui_CASE DIR.
prep_for() {
	case $1 in
	olddefconfig-amd64|defconfig-x86_64|allnoconfig|noenv-olddefconfig| \
	cold-run|warm-run|no-cache) prep_debian_amd64 "$2";;
	olddefconfig-cloud) prep_debian_cloud "$2";;
	savedefconfig-*) prep_olddef_result "$2";;
	*) prep_none "$2";;
	esac
}

oracle_olddefconfig-amd64()  { mk "$1" olddefconfig; }
kctui_olddefconfig-amd64()   { kt -C "$TREE" --config "$1/config" olddefconfig; }

oracle_olddefconfig-cloud()  { mk "$1" olddefconfig; }
kctui_olddefconfig-cloud()   { KCONFIG_CONFIG="$1/config" kt -C "$TREE" olddefconfig; }

# No .config: conf falls back to KCONFIG_DEFCONFIG_LIST.
oracle_olddefconfig-noconfig() { mk "$1" olddefconfig; }
kctui_olddefconfig-noconfig()  { (cd "$TREE" && kt --config "$1/config" olddefconfig); }

oracle_defconfig-x86_64()    { mk "$1" x86_64_defconfig; }
kctui_defconfig-x86_64()     { (cd "$TREE" && kt --config "$1/config" defconfig arch/x86/configs/x86_64_defconfig); }

oracle_defconfig-default()   { mk "$1" defconfig; }
kctui_defconfig-default()    { kt -C "$TREE" --config "$1/config" defconfig; }

oracle_defconfig-arm64()     { mk "$1" ARCH=arm64 defconfig; }
kctui_defconfig-arm64()      { ARCH=arm64 kt -C "$TREE" --config "$1/config" defconfig; }
# Other architectures' default defconfigs: other Kconfig trees and
# KBUILD_DEFCONFIG rules (host gcc probes, as make does with ARCH= only).
for a in arm riscv powerpc s390 sparc um m68k; do
	eval "oracle_defconfig-$a() { mk \"\$1\" ARCH=$a defconfig; }"
	eval "kctui_defconfig-$a() { ARCH=$a kt -C \"\$TREE\" --config \"\$1/config\" defconfig; }"
done

for m in allnoconfig allyesconfig allmodconfig alldefconfig; do
	eval "oracle_$m() { mk \"\$1\" $m; }"
	eval "kctui_$m() { kt -C \"\$TREE\" --config \"\$1/config\" $m; }"
done

oracle_allnoconfig-allconfig() { KCONFIG_ALLCONFIG=$work/seed-allno.config mk "$1" allnoconfig; }
kctui_allnoconfig-allconfig()  { KCONFIG_ALLCONFIG=$work/seed-allno.config kt -C "$TREE" --config "$1/config" allnoconfig; }

oracle_allmodconfig-allconfig() { KCONFIG_ALLCONFIG=$work/seed-allmod.config mk "$1" allmodconfig; }
kctui_allmodconfig-allconfig()  { KCONFIG_ALLCONFIG=$work/seed-allmod.config kt -C "$TREE" --config "$1/config" allmodconfig; }

oracle_savedefconfig-amd64() {
	rm -f "$TREE/defconfig"
	mk "$1" savedefconfig && take_defconfig "$1"
}
kctui_savedefconfig-amd64() {
	rm -f "$TREE/defconfig"
	(cd "$TREE" && kt --config "$1/config" savedefconfig) && take_defconfig "$1"
}

oracle_savedefconfig-file()  { oracle_copy "$1" savedefconfig-amd64; }
kctui_savedefconfig-file()   { kt -C "$TREE" --config "$1/config" savedefconfig "$1/defconfig"; }

oracle_noenv-olddefconfig() {
	(cd "$TREE" && env -i PATH="$PATH" HOME="$HOME" make KCONFIG_CONFIG="$1/config" olddefconfig)
}
kctui_noenv-olddefconfig() {
	(cd "$TREE" && env -i PATH="$PATH" HOME="$HOME" KCTUI_CACHE_DIR="$KCTUI_CACHE_DIR" \
		"$KCTUI" --config "$1/config" olddefconfig)
}

# cold-run / warm-run: the first and the second run on one fresh shell cache.
oracle_cold-run()   { oracle_copy "$1" olddefconfig-amd64; }
kctui_cold-run() {
	rm -rf "$work/cache-$flavor"; mkdir -p "$work/cache-$flavor"
	KCTUI_CACHE_DIR=$work/cache-$flavor kt -C "$TREE" --config "$1/config" olddefconfig
}
oracle_warm-run()   { oracle_copy "$1" olddefconfig-amd64; }
kctui_warm-run() {
	if [ ! -d "$work/cache-$flavor" ]; then	# cold-run not selected: warm up
		mkdir -p "$work/warmup-$flavor"
		prep_debian_amd64 "$work/warmup-$flavor"
		kctui_cold-run "$work/warmup-$flavor" >/dev/null 2>&1
	fi
	KCTUI_CACHE_DIR=$work/cache-$flavor kt -C "$TREE" --config "$1/config" olddefconfig
}
oracle_no-cache()   { oracle_copy "$1" olddefconfig-amd64; }
kctui_no-cache()    { kt -C "$TREE" --no-cache --config "$1/config" olddefconfig; }

# ----------------------------------------------------------------- driver
# ensure_oracle CASE: run the oracle once per ORACLE dir.
ensure_oracle() {
	local c=$1 o=$ORACLE/$1 t0 rc
	[ -f "$o/.done" ] && return 0
	rm -rf "$o"; mkdir -p "$o"
	prep_for "$c" "$o" || return 1
	t0=$(now_ns)
	"oracle_$c" "$o" > "$o/.log" 2>&1
	rc=$?
	[ -f "$o/.time" ] || elapsed_since "$t0" > "$o/.time"	# kept by oracle_copy
	if [ $rc -ne 0 ]; then
		mv "$o/.log" "$o.log"
		rm -rf "$o"
		return 1
	fi
	touch "$o/.done"
}

# case_files DIR: the result files of a case directory
case_files() { (cd "$1" && find . -type f ! -name '.log' ! -name '.done' ! -name '.time' | sed 's|^\./||' | sort); }

run_case() {
	local c=$1 name="$rtag/$1$sfx" o=$ORACLE/$1 k=$work/$flavor/$1 t0 rc kt_time f bad=0
	if ! ensure_oracle "$c"; then
		fail "$name" "oracle (make) failed"
		tail -30 "$o.log" 2>/dev/null | indent
		return 1
	fi
	rm -rf "$k"; mkdir -p "$k"
	prep_for "$c" "$k" || { fail "$name" "prep failed"; return 1; }
	t0=$(now_ns)
	"kctui_$c" "$k" > "$k/.log" 2>&1
	rc=$?
	kt_time=$(elapsed_since "$t0")
	if [ $rc -ne 0 ]; then
		fail "$name" "kctui exited with status $rc"
		tail -30 "$k/.log" | indent
		return 1
	fi
	# sanitizer reports that did not change the exit status (env -i drops
	# UBSAN_OPTIONS=halt_on_error=1)
	if grep -qE 'runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer' "$k/.log"; then
		fail "$name" "sanitizer report"
		grep -E -A12 'runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer' "$k/.log" | head -30 | indent
		return 1
	fi
	local details=
	if [ "$(case_files "$o")" != "$(case_files "$k")" ]; then
		bad=1
		details+=$(diff <(case_files "$o") <(case_files "$k") |
			sed -n 's/^< /conf only:  /p; s/^> /kctui only: /p')$'\n'
	fi
	for f in $(comm -12 <(case_files "$o") <(case_files "$k")); do
		if ! cmp -s "$o/$f" "$k/$f"; then
			bad=1
			details+="$f differs (conf vs kctui):"$'\n'
			details+=$(diff -u --label "conf/$f" --label "kctui/$f" "$o/$f" "$k/$f" | head -40)$'\n'
		fi
	done
	if [ $bad -ne 0 ]; then
		fail "$name" "output differs from conf"
		printf '%s' "$details" | indent
		return 1
	fi
	pass "$name" "(conf $(cat "$o/.time") s, kctui $kt_time s; $(case_files "$o" | tr '\n' ' ' | sed 's/ $//'))"
}

for c in $CASES; do
	if [ "$want" != all ]; then
		case " $(echo $want) " in *" $c "*) ;; *) continue;; esac
	fi
	run_case "$c"
done
exit 0
