# shellcheck shell=bash
# tests/real/tree.sh - sourced helper: provide a pristine unpacked copy of
# one of Debian's linux-source-X.Y packages (6.1 by default, or 6.12) with
# the kernel's own scripts/kconfig/conf built (the test oracle), plus
# uncompressed copies of Debian's configs of that version.
#
# Usage:  . tests/real/tree.sh && kctui_tree_ensure [KVER]
#         (in a test: kctui_tree_or_fail NAME LOG)
# Sets:   TREE_KVER     the kernel series: 6.1 (default) or 6.12
#         TREE          unpacked tree   ($KCTUI_CACHE/linux-$TREE_KVER)
#         CONF          $TREE/scripts/kconfig/conf
#         DEBIAN_AMD64  uncompressed config.amd64_none_amd64
#         DEBIAN_CLOUD  uncompressed config.amd64_none_cloud-amd64
#         TREE_VERSION  Debian version of linux-source-KVER the tree came from
#         BUNDLE        the evidence bundle recorded from Debian's own kernel
#                       of that series under QEMU: tests/fixtures/evidence/
#                       cloud-vm (6.1), cloud-vm-KVER (any other)
#
# 6.1 keeps its historical names ($KCTUI_CACHE/linux-6.1,
# $KCTUI_CACHE/config.amd64_none_amd64, ...); any other series lives in
# $KCTUI_CACHE/linux-KVER and its configs in $KCTUI_CACHE/configs-KVER/.
#
# The tree is keyed by the installed package version: when it changes the
# tree is unpacked again.  Unpacking goes to a temporary directory that is
# renamed into place only when complete, so an interrupted unpack never
# leaves a half tree.  Tests and make both write into the tree
# (scripts/, include/config, include/generated, ./defconfig): use it from one
# process at a time (kctui_tree_ensure takes a lock, see below; run real
# tests serially).
#
# Environment: KCTUI_CACHE (default $HOME/.cache/kctui),
#              KCTUI_KVER: the series when kctui_tree_ensure gets none
#              (default 6.1),
#              KCTUI_TREE_SEED: optional already-unpacked tree of the same
#              version to copy instead of unpacking the tarball
#              (e.g. /var/cache/kctui/linux-source-6.1); only used when its
#              .kctui-version stamp or its Makefile version matches,
#              KCTUI_SRC_TARBALL, KCTUI_CONFIG_DIR: override the package
#              files of the KCTUI_KVER series.

KCTUI_CACHE=${KCTUI_CACHE:-${HOME:-/root}/.cache/kctui}
_kctui_tree_kver0=${KCTUI_KVER:-6.1}
_kctui_tree_tarball0=${KCTUI_SRC_TARBALL:-}
_kctui_tree_configdir0=${KCTUI_CONFIG_DIR:-}

# _kctui_tree_select KVER: point every variable at the KVER series.
_kctui_tree_select() {
	TREE_KVER=$1
	KCTUI_SRC_TARBALL=/usr/src/linux-source-$1.tar.xz
	KCTUI_CONFIG_DIR=/usr/src/linux-config-$1
	if [ "$1" = "$_kctui_tree_kver0" ]; then
		KCTUI_SRC_TARBALL=${_kctui_tree_tarball0:-$KCTUI_SRC_TARBALL}
		KCTUI_CONFIG_DIR=${_kctui_tree_configdir0:-$KCTUI_CONFIG_DIR}
	fi
	TREE=$KCTUI_CACHE/linux-$1
	CONF=$TREE/scripts/kconfig/conf
	if [ "$1" = 6.1 ]; then
		_kctui_tree_cfgdir=$KCTUI_CACHE
		BUNDLE=${KCTUI_REPO:-.}/tests/fixtures/evidence/cloud-vm
	else
		_kctui_tree_cfgdir=$KCTUI_CACHE/configs-$1
		BUNDLE=${KCTUI_REPO:-.}/tests/fixtures/evidence/cloud-vm-$1
	fi
	DEBIAN_AMD64=$_kctui_tree_cfgdir/config.amd64_none_amd64
	DEBIAN_CLOUD=$_kctui_tree_cfgdir/config.amd64_none_cloud-amd64
}
_kctui_tree_select "$_kctui_tree_kver0"

_kctui_tree_msg() { printf 'tree.sh: %s\n' "$*" >&2; }

_kctui_pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null
}

# Makefile VERSION.PATCHLEVEL.SUBLEVEL of an unpacked tree.
_kctui_tree_kver() {
	awk -F' *= *' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2}
		$1=="SUBLEVEL"{s=$2} END{if (v!="") print v"."p"."s}' \
		"$1/Makefile" 2>/dev/null
}

_kctui_tree_unpack() {
	local version=$1 tmp
	tmp=$(mktemp -d "$KCTUI_CACHE/.unpack.XXXXXX") || return 1
	local seed=${KCTUI_TREE_SEED:-}
	local upstream=${version%%-*}	# 6.1.192-3 -> 6.1.192
	upstream=${upstream%%+*}	# 6.12.118+b1 -> 6.12.118
	if [ -n "$seed" ] && [ -f "$seed/Makefile" ] &&
	   { [ "$(cat "$seed/.kctui-version" 2>/dev/null)" = "$version" ] ||
	     [ "$(_kctui_tree_kver "$seed")" = "$upstream" ]; }; then
		_kctui_tree_msg "copying seed tree $seed"
		cp -a "$seed" "$tmp/linux-source-$TREE_KVER" || { rm -rf "$tmp"; return 1; }
		# forget whatever was configured/built in the seed
		rm -rf "$tmp/linux-source-$TREE_KVER/include/config" \
		       "$tmp/linux-source-$TREE_KVER/include/generated" \
		       "$tmp/linux-source-$TREE_KVER/.config" "$tmp/linux-source-$TREE_KVER/.config.old"
	else
		_kctui_tree_msg "unpacking $KCTUI_SRC_TARBALL ($version) into $TREE"
		if ! tar -C "$tmp" -xJf "$KCTUI_SRC_TARBALL"; then
			rm -rf "$tmp"
			_kctui_tree_msg "unpacking failed"
			return 1
		fi
	fi
	if [ ! -f "$tmp/linux-source-$TREE_KVER/Makefile" ]; then
		rm -rf "$tmp"
		_kctui_tree_msg "tarball has no linux-source-$TREE_KVER/Makefile"
		return 1
	fi
	printf '%s\n' "$version" > "$tmp/linux-source-$TREE_KVER/.kctui-version"
	# swap in: the old tree (if any) is moved aside first, then removed
	if [ -e "$TREE" ]; then
		mv "$TREE" "$tmp/old" || { rm -rf "$tmp"; return 1; }
	fi
	mv "$tmp/linux-source-$TREE_KVER" "$TREE" || { rm -rf "$tmp"; return 1; }
	rm -rf "$tmp"
}

# Build the tree's own conf (and scripts/basic/fixdep) exactly as a config
# target would, without running it: "build_config" is the kconfig Makefile's
# build-only target for conf.
_kctui_tree_build_conf() {
	if ! make -C "$TREE" -s build_config >"$KCTUI_CACHE/.conf-build.log" 2>&1 ||
	   [ ! -x "$CONF" ]; then
		_kctui_tree_msg "building $CONF failed:"
		cat "$KCTUI_CACHE/.conf-build.log" >&2
		return 1
	fi
}

_kctui_tree_configs() {
	local f src dst
	for f in config.amd64_none_amd64 config.amd64_none_cloud-amd64; do
		src=$KCTUI_CONFIG_DIR/$f.xz
		if [ ! -f "$src" ]; then
			_kctui_tree_msg "missing $src (install linux-config-$TREE_KVER: make deps)"
			return 1
		fi
		dst=$_kctui_tree_cfgdir/$f
		if [ ! -f "$dst" ] || [ "$src" -nt "$dst" ]; then
			mkdir -p "$_kctui_tree_cfgdir" &&
			xz -dc "$src" > "$dst.tmp.$$" &&
				mv "$dst.tmp.$$" "$dst" || return 1
		fi
	done
}

_kctui_tree_ensure_locked() {
	local version
	version=$(_kctui_pkg_version "linux-source-$TREE_KVER")
	if [ -z "$version" ] || [ ! -f "$KCTUI_SRC_TARBALL" ]; then
		_kctui_tree_msg "linux-source-$TREE_KVER is not installed (run: make deps)"
		return 1
	fi
	TREE_VERSION=$version
	# leftovers of interrupted unpacks
	rm -rf "$KCTUI_CACHE"/.unpack.* 2>/dev/null
	if [ "$(cat "$TREE/.kctui-version" 2>/dev/null)" != "$version" ]; then
		_kctui_tree_unpack "$version" || return 1
	fi
	if [ ! -x "$CONF" ] || [ "$TREE/scripts/kconfig/conf.c" -nt "$CONF" ]; then
		_kctui_tree_build_conf || return 1
	fi
	_kctui_tree_configs || return 1
}

# Takes $KCTUI_CACHE/.tree.lock and keeps it until the calling process
# exits, so two test runs on one machine never share the tree at the same
# time (children of the holder, marked by KCTUI_TREE_LOCK_HELD, skip it).
# With KVER (6.1, 6.12) that series is selected first.
kctui_tree_ensure() {
	if [ $# -gt 0 ]; then _kctui_tree_select "$1"; fi
	mkdir -p "$KCTUI_CACHE" || return 1
	if [ -z "${KCTUI_TREE_LOCK_HELD:-}" ] && command -v flock >/dev/null 2>&1; then
		exec 8>"$KCTUI_CACHE/.tree.lock"
		if ! flock -n 8; then
			_kctui_tree_msg "waiting for another run using $TREE"
			flock -w 3600 8 || { _kctui_tree_msg "lock timeout"; return 1; }
		fi
		export KCTUI_TREE_LOCK_HELD=$$
	fi
	local rc=0
	_kctui_tree_ensure_locked || rc=1
	export TREE CONF DEBIAN_AMD64 DEBIAN_CLOUD TREE_VERSION TREE_KVER
	return $rc
}

# kctui_tree_clean_copy [LOG]: SRC, a copy of the 6.1 tree clean for O=
# builds (the shared tree has the oracle's include/config), made of hard
# links in seconds, made again when the tree is (its .kctui-version, a
# link mrproper keeps, keys it). Called with the tree's lock held; make's
# output into LOG (default: discarded). 1 if it cannot be made.
kctui_tree_clean_copy() {
	SRC=$KCTUI_CACHE/linux-6.1-clean
	if [ "$(cat "$SRC/.kctui-version" 2>/dev/null)" != "$(cat "$TREE/.kctui-version")" ]; then
		rm -rf "$SRC" "$SRC.tmp"
		cp -al "$TREE" "$SRC.tmp" &&
			make -s -C "$SRC.tmp" mrproper > "${1:-/dev/null}" 2>&1 &&
			mv "$SRC.tmp" "$SRC" || return 1
	fi
	export SRC
}

# kctui_tree_or_fail NAME LOG [KVER]: kctui_tree_ensure with its messages
# in LOG, or report FAIL NAME with them and exit.
kctui_tree_or_fail() {
	if ! kctui_tree_ensure ${3:+"$3"} 2>"$2"; then
		fail "$1" "could not prepare the kernel tree"
		indent < "$2"
		exit 1
	fi
}
