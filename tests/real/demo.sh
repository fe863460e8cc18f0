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

kctui_binary
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
# The main job without a terminal: Debian's amd64 config brought up to
# date, the cloud-vm evidence attributed, trims suggested and exported with
# a report, and the result checked with the kernel's own conf. Nothing is
# written into the tree.
demo=${KCTUI_DEMO_DIR:-$KCTUI_REPO/build/demo}
mkdir -p "$demo"
BUNDLE=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
cp "$DEBIAN_AMD64" "$demo/.config"
kt() { "$KCTUI" -C "$TREE" --config "$demo/.config" "$@"; }
ym() { grep -cE '^CONFIG_[A-Za-z0-9_]+=[ym]$' "$1" || true; }
echo "kctui demo: Debian linux-source-6.1 $TREE_VERSION in $TREE, files in $demo"

t0=$(now_ns)
kt -s olddefconfig
t_old=$(elapsed_since "$t0")
echo "  olddefconfig of Debian amd64: $(ym "$demo/.config") options y/m ($t_old s)"

kt evidence -e "$BUNDLE" --stats > "$demo/evidence.txt" 2> "$demo/evidence.err"
echo "  evidence (cloud-vm, Debian's 6.1 kernel under QEMU): $(sed -n 's/^kctui: //p' "$demo/evidence.err" | tail -n 1)"
echo "  for example:"
grep -E '^CONFIG_(VIRTIO_NET|EXT4_FS|CRYPTO_CRC32C_INTEL) ' "$demo/evidence.txt" | cut -c1-110 | sed 's/^/    /'

t0=$(now_ns)
kt -e "$BUNDLE" suggest > "$demo/suggest.txt"
t_sug=$(elapsed_since "$t0")
echo "  suggest ($t_sug s): $(head -n 1 "$demo/suggest.txt" | sed 's/^# //')"
grep -E '^[A-Z].*\[[0-9]+ candidates' "$demo/suggest.txt" | head -n 5 | sed 's/^/    /'

kt -e "$BUNDLE" export -o "$demo/trimmed.config" --report "$demo/report.md" 2>&1 | sed 's/^kctui: /  export: /'
kt explain VIRTIO_NET | head -n 4 | sed 's/^/    /'

# The kernel's own conf (make olddefconfig, as tests/real/compare.sh runs
# it) must accept the trimmed config unchanged.
cp "$demo/trimmed.config" "$demo/check.config"
if (cd "$TREE" && env -i PATH="$PATH" HOME="$HOME" \
    make -s KCONFIG_CONFIG="$demo/check.config" olddefconfig) >/dev/null 2>&1 &&
    cmp -s "$demo/trimmed.config" "$demo/check.config"; then
	echo "  the kernel's conf --olddefconfig leaves $demo/trimmed.config unchanged"
else
	echo "  WARNING: the kernel's conf changes $demo/trimmed.config" >&2
	exit 1
fi
echo "  report: $demo/report.md; on a terminal, make demo opens the browser"
