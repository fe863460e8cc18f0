#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/demo.sh - `make demo`: in the cached Debian linux-source-6.1
# tree, kctui olddefconfig on Debian's amd64 config, then kctui
# savedefconfig, and a short summary.  (Not a test: tests/run.sh skips it.)
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_clean_env

KCTUI=${KCTUI:-$KCTUI_REPO/kctui}
case $KCTUI in /*) ;; *) KCTUI=$PWD/$KCTUI;; esac
[ -x "$KCTUI" ] || { echo "demo: no executable $KCTUI (run make)" >&2; exit 1; }

kctui_tree_ensure
# On a terminal: the interactive browser on the real tree with Debian's
# cloud config and the bundled cloud-vm evidence (config kept outside the
# tree). Otherwise (CI logs) the non-interactive summary below.
if [ -t 0 ] && [ -t 1 ]; then
	demo=$(mktemp -d "${TMPDIR:-/tmp}/kctui-demo.XXXXXX")
	cp "$DEBIAN_CLOUD" "$demo/.config"
	echo "kctui demo: $TREE, config $demo/.config, evidence cloud-vm"
	"$KCTUI" -C "$TREE" --config "$demo/.config" \
		-e "$KCTUI_REPO/tests/fixtures/evidence/cloud-vm"
	echo "kctui demo: the configuration is in $demo/.config"
	exit 0
fi
cd "$TREE"
cp "$DEBIAN_AMD64" .config
echo "kctui demo: Debian linux-source-6.1 $TREE_VERSION in $TREE"

t0=$(now_ns)
"$KCTUI" olddefconfig
t_old=$(elapsed_since "$t0")
ny=$(grep -c '=y$' .config || true)
nm=$(grep -c '=m$' .config || true)
nall=$(grep -c '^CONFIG_' .config || true)
nnot=$(grep -c '^# CONFIG_.* is not set$' .config || true)

t0=$(now_ns)
"$KCTUI" savedefconfig
t_save=$(elapsed_since "$t0")
nd=$(grep -c '' defconfig || true)

cat <<EOF

  olddefconfig  $DEBIAN_AMD64
             -> $TREE/.config
                $ny symbols =y, $nm =m, $nall set in total, $nnot not set  ($t_old s)
  savedefconfig -> $TREE/defconfig: $nd lines  ($t_save s)
EOF
