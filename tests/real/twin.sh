#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/twin.sh - `kctui twin` on the recorded bundles: the vm file
# and the workload printed, the same written with -o DIR (the bundle's
# helpers beside the workload), an existing file refused without --force
# and left as it was, replaced with it; the usage, and the errors. No
# kernel tree and no QEMU boot: core/twin's unit test checks what the
# files say (tests/unit/test_twin.c).
#
#   KCTUI=/path/to/kctui tests/real/twin.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
kctui_test_setup twin
kctui_need_binary "real/twin$sfx"

bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm

# printed: the vm file, then the workload, each under its header
if "$KCTUI" twin -e "$bundle" > "$work/out" 2> "$work/err" &&
	grep -q '^# ==> vm <==$' "$work/out" &&
	grep -q '^# ==> workload <==$' "$work/out" &&
	grep -q '^machine q35$' "$work/out" &&
	grep -q '^step fs-ext4 fs_ext4$' "$work/out"; then
	pass "real/twin/print$sfx"
else
	fail_with "real/twin/print$sfx" "no vm and workload printed" \
		cat "$work/out" "$work/err"
fi
sed -n '/^# ==> vm <==$/,/^# ==> workload <==$/p' "$work/out" |
	sed '1d;$d' | sed '$d' > "$work/printed-vm"
sed -n '/^# ==> workload <==$/,$p' "$work/out" | sed '1d' > "$work/printed-workload"

# written: DIR/vm and DIR/workload as printed, the helpers copied
out=$work/dir/twin
n=$(wc -l < "$bundle/drivers")
if "$KCTUI" twin -e "$bundle" -o "$out" > "$work/wout" 2> "$work/werr" &&
	cmp -s "$out/vm" "$work/printed-vm" &&
	cmp -s "$out/workload" "$work/printed-workload" &&
	cmp -s "$out/workload.d/tcploop.c" "$bundle/workload.d/tcploop.c" &&
	cmp -s "$out/workload.d/afalg.c" "$bundle/workload.d/afalg.c" &&
	grep -q "^wrote $out/vm: QEMU q35, $n of $n bound devices" "$work/wout"; then
	pass "real/twin/write$sfx"
else
	fail_with "real/twin/write$sfx" "DIR/vm, DIR/workload, workload.d" \
		sh -c "cat '$work/wout' '$work/werr'; ls -lR '$out'; diff '$out/vm' '$work/printed-vm' | head -20"
fi

# an existing file: refused, named, nothing touched; --force replaces it
echo "# mine" >> "$out/workload"
cp "$out/workload" "$work/mine"
if "$KCTUI" twin -e "$bundle" -o "$out" > "$work/rout" 2> "$work/rerr"; then
	fail_with "real/twin/refuse$sfx" "exit 0 over an existing vm" cat "$work/rerr"
elif grep -q "$out/vm exists (--force replaces it)" "$work/rerr" &&
	cmp -s "$out/workload" "$work/mine" && [ ! -s "$work/rout" ]; then
	pass "real/twin/refuse$sfx"
else
	fail_with "real/twin/refuse$sfx" "message or files" \
		sh -c "cat '$work/rerr'; diff '$out/workload' '$work/mine' | head"
fi
if "$KCTUI" twin -e "$bundle" -o "$out" --force > /dev/null 2> "$work/ferr" &&
	cmp -s "$out/workload" "$work/printed-workload"; then
	pass "real/twin/force$sfx"
else
	fail_with "real/twin/force$sfx" "--force did not replace" cat "$work/ferr"
fi
ls -a "$out" > "$work/ls"
if ! grep -q '\.tmp\.' "$work/ls"; then
	pass "real/twin/no-temporaries$sfx"
else
	fail_with "real/twin/no-temporaries$sfx" "temporaries left" cat "$work/ls"
fi

# the usage; no bundle; a bundle with no drivers file
if "$KCTUI" twin --help | grep -q '^usage: kctui \[OPTIONS\] *twin -e BUNDLE'; then
	pass "real/twin/help$sfx"
else
	fail_with "real/twin/help$sfx" "no usage" "$KCTUI" twin --help
fi
if "$KCTUI" twin > /dev/null 2> "$work/e1"; then
	fail "real/twin/no-bundle$sfx" "exit 0"
elif grep -q 'twin needs -e BUNDLE' "$work/e1"; then
	pass "real/twin/no-bundle$sfx"
else
	fail_with "real/twin/no-bundle$sfx" "message" cat "$work/e1"
fi
mkdir -p "$work/empty"
cp "$bundle/uname" "$work/empty/"
if "$KCTUI" twin -e "$work/empty" -o "$work/e-out" > /dev/null 2> "$work/e2"; then
	fail "real/twin/no-drivers$sfx" "exit 0"
elif grep -q 'no drivers file' "$work/e2" && [ ! -e "$work/e-out" ]; then
	pass "real/twin/no-drivers$sfx"
else
	fail_with "real/twin/no-drivers$sfx" "message, or files written" \
		sh -c "cat '$work/e2'; ls -l '$work'"
fi

# kctui verify on a bundle without a vm: the twin is made, written to the
# caches' directory (vm, and the workload when the bundle has none) and
# loaded before anything else is looked at; here the trimmed config is
# missing, so it stops right after, having built nothing. A bundle no twin
# can be made of (no drivers file) says so.
novm=$work/novm
cp -r "$bundle" "$novm"
rm -rf "$novm/vm" "$novm/workload" "$novm/workload.d"
export KCTUI_CACHE_DIR=$work/cache
"$KCTUI" --config "$work/nonexistent.config" verify -e "$novm" > "$work/v1" 2> "$work/v1e"
if grep -q 'nonexistent.config' "$work/v1e" && [ -s "$work/cache/twin/vm" ] &&
	grep -q '^device virtio-net-pci' "$work/cache/twin/vm" &&
	grep -q '^step fs-ext4 fs_ext4$' "$work/cache/twin/workload"; then
	pass "real/twin/verify-makes-twin$sfx"
else
	fail_with "real/twin/verify-makes-twin$sfx" "no twin written" \
		sh -c "cat '$work/v1e'; ls -l '$work/cache' '$work/cache/twin'"
fi
cp "$bundle/config.xz" "$work/empty/"
cp "$KCTUI_REPO/tests/fixtures/evidence/cloud-vm/workload" "$work/empty/"
if "$KCTUI" --config "$work/nonexistent.config" verify -e "$work/empty" > /dev/null 2> "$work/v2e"; then
	fail "real/twin/verify-no-twin$sfx" "exit 0"
elif grep -q 'the bundle has no vm file and no twin machine can be made from it: .*no drivers file' "$work/v2e"; then
	pass "real/twin/verify-no-twin$sfx"
else
	fail_with "real/twin/verify-no-twin$sfx" "message" cat "$work/v2e"
fi
