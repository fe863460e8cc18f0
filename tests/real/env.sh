#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/env.sh - `kctui print-env` against the environment the kernel's
# Makefile really gives conf (captured from the kconfig sub-make that runs
# conf), for the variables Kconfig files, their $(shell ...) helpers and conf
# itself read.  A variable must have the same value in both, or be absent
# from both.
#
#   KCTUI=/path/to/kctui tests/real/env.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup env

# Variables referenced as $(NAME) by 6.1's Kconfig files (or read from the
# environment by the scripts they run, or by conf) and set by the Makefile.
NAMES="ARCH SRCARCH SUBARCH KERNELVERSION CC LD AR NM OBJCOPY CC_VERSION_TEXT
	CLANG_FLAGS USERCFLAGS USERLDFLAGS RUSTC BINDGEN PAHOLE
	CROSS_COMPILE_COMPAT HEADER_ARCH srctree KCONFIG_DEFCONFIG_LIST"

kctui_need_binary "real/print-env$sfx"
kctui_tree_or_fail "real/tree" "$work/tree.log"

# A goal ending in "config" is a config target for the top Makefile, so this
# runs exactly where `make olddefconfig` would run conf: in the kconfig
# sub-make, with scripts/kconfig/Makefile's exports.
cat > "$work/cap.mk" <<'EOF'
kctui-envconfig: FORCE
	$(Q)$(MAKE) $(build)=scripts/kconfig -f $(KCTUI_CAP_MK) kctui-env
kctui-env:
	@env -0
EOF

# select NAMES < NUL-separated env > NAME=value lines, "NAME" alone if unset
select_names() {
	tr '\0' '\n' | awk -v names="$NAMES" '
		BEGIN { n = split(names, a, /[ \t\n]+/); for (i = 1; i <= n; i++) if (a[i] != "") want[a[i]] = 1 }
		{ k = $0; sub(/=.*/, "", k); if (k in want && !(k in seen)) { seen[k] = 1; v[k] = $0 } }
		END { for (k in want) print ((k in seen) ? v[k] : k " (unset)") }' | sort
}

# scenario NAME ENV-ASSIGNMENTS...: run both under env -i PATH HOME + them
# ("-" as the only assignment: the caller's cleaned environment instead).
scenario() {
	local name="real/print-env-$1$sfx"; shift
	local -a pre
	if [ "${1:-}" = - ]; then pre=(env); else pre=(env -i PATH="$PATH" HOME="$HOME" "$@"); fi
	if ! (cd "$TREE" && "${pre[@]}" make -s -f Makefile -f "$work/cap.mk" \
		KCTUI_CAP_MK="$work/cap.mk" kctui-envconfig) > "$work/make.env" 2>"$work/make.err"; then
		fail "$name" "capturing make's environment failed"
		indent < "$work/make.err"
		return
	fi
	if ! "${pre[@]}" KCTUI_CACHE_DIR="${KCTUI_CACHE_DIR:-$work/cache}" \
		"$KCTUI" -C "$TREE" print-env > "$work/kctui.env" 2>"$work/kctui.err"; then
		fail "$name" "kctui print-env failed"
		tail -20 "$work/kctui.err" | indent
		return
	fi
	select_names < "$work/make.env" > "$work/make.sel"
	tr '\n' '\0' < "$work/kctui.env" | select_names > "$work/kctui.sel"
	if cmp -s "$work/make.sel" "$work/kctui.sel"; then
		pass "$name"
	else
		fail "$name" "differs from make's environment for conf"
		diff -u --label make --label kctui "$work/make.sel" "$work/kctui.sel" | head -40 | indent
	fi
}

scenario default -
scenario noenv
scenario arm64 ARCH=arm64
scenario cross ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
# The Makefile assigns CC with "=", which overrides the environment.
scenario cc-from-env CC=clang
scenario userflags USERCFLAGS=-O3 USERLDFLAGS=-static
exit 0
