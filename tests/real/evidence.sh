#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/evidence.sh - kctui evidence on the real Linux 6.1 tree with the
# bundle recorded from Debian's own 6.1 kernel under QEMU
# (tests/fixtures/evidence/cloud-vm): every loaded module attributed, at
# least 95% of the distinct traced functions attributed, known attributions
# right, the output formats as documented, bad bundles survived.
# KCTUI_KVER=6.12 (tests/real/evidence-6.12.sh): the same on Debian's 6.12
# tree with the bundle recorded from Debian's own 6.12 kernel
# (cloud-vm-6.12); the trace.dat and collect bundles are recordings of the
# 6.1 kernel and are checked on the 6.1 tree only.
#
#   KCTUI=/path/to/kctui tests/real/evidence.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup evidence
# BUNDLE: tree.sh's, recorded from the kernel of the tree's series

kctui_tree_or_fail "real/evidence$sfx" "$work/tree.log"
export KCTUI_CACHE_DIR=$work/cache

# kt ARGS...: kctui in the tree, output in $work/out, stderr in $work/err.
kt() { "$KCTUI" -C "$TREE" "$@" > "$work/out" 2> "$work/err"; }

if ! kt evidence -e "$BUNDLE" --format tsv --stats; then
	fail "real/evidence-runs$sfx" "kctui evidence failed"
	indent < "$work/err"
	exit 1
fi
cp "$work/out" "$work/tsv"
stats=$(grep 'kctui: modules' "$work/err")
pass "real/evidence-runs$sfx" "($stats)"

# Every loaded module attributed.
read -r mm mt <<<"$(sed -n 's/.*modules \([0-9]*\)\/\([0-9]*\) attributed.*/\1 \2/p' <<<"$stats")"
if [ -n "${mt:-}" ] && [ "$mt" -gt 0 ] && [ "$mm" = "$mt" ] &&
    [ "$mt" = "$(wc -l < "$BUNDLE/modules")" ]; then
	pass "real/evidence-modules-100%$sfx" "($mm of $mt)"
else
	fail "real/evidence-modules-100%$sfx" "$stats"
fi

# At least 95% of the distinct traced functions.
read -r fm ft <<<"$(sed -n 's/.*functions \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' <<<"$stats")"
if [ -n "${ft:-}" ] && [ "$ft" -gt 4000 ] && [ $((fm * 100)) -ge $((ft * 95)) ]; then
	pass "real/evidence-functions-95%$sfx" "($fm of $ft)"
else
	fail "real/evidence-functions-95%$sfx" "$stats"
fi

# Known attributions: symbol, verdict, an item its line must have.
check_attr() { check_attr_tsv "$work/tsv" "real/evidence-$1$sfx" "$@"; }
check_attr VIRTIO_NET used module:virtio_net
check_attr VIRTIO_NET used trace:virtnet_poll
check_attr VIRTIO_BLK used module:virtio_blk
check_attr EXT4_FS used module:ext4
check_attr EXT4_FS used trace:ext4_file_write_iter
check_attr EXT4_FS used "fs:ext4 mounted on /bundle"
check_attr CRYPTO_USER_API_HASH used module:algif_hash
check_attr DEVTMPFS used "fs:devtmpfs mounted on /dev"
check_attr INET used trace:tcp_sendmsg
# A kernel with its drivers built in (the drivers file's module "-", no
# modules file: a cloud provider's kernel, this project's CI machine):
# virtio_net's driver name is KBUILD_MODNAME in its source, so it is
# found as the module it would be.
bi=$work/builtin-bundle
mkdir -p "$bi"
cp "$BUNDLE/uname" "$BUNDLE/config.xz" "$BUNDLE/modalias" "$bi/" 2>/dev/null
awk '{ $4 = "-"; print }' "$BUNDLE/drivers" > "$bi/drivers"
if kt evidence -e "$bi" --format tsv; then
	check_attr_tsv "$work/out" "real/evidence-builtin-driver$sfx" VIRTIO_NET used \
		"device:virtio pci0000:00/0000:00:03.0/virtio2 bound to virtio_net"
else
	fail "real/evidence-builtin-driver$sfx" "kctui evidence failed"
	indent < "$work/err"
fi
# /proc/crypto refcnt: above 1 is a transform in use, 1 only registered.
check_attr CRYPTO_CRC32C_INTEL used "crypto:crc32c-intel in use"
check_attr CRYPTO_AES plausible "crypto:aes-generic registered"
# A template instance is its template's code (struct crypto_template
# .name); drbg.c builds its driver names at run time.
if [ "$TREE_KVER" = 6.1 ]; then
	check_attr CRYPTO_RSA used "crypto:pkcs1pad(rsa-generic,sha256) registered"
else
	check_attr CRYPTO_CBC plausible "crypto:cbc(ecb(aes-aesni)) registered"
	check_attr CRYPTO_DRBG plausible "crypto:drbg_nopr_hmac_sha512 registered"
fi

# TSV: three tab-separated columns, items kind:detail.
if awk -F'\t' 'NF != 3 || $1 !~ /^CONFIG_[A-Za-z0-9_]+$/ ||
    $2 !~ /^(used|plausible|none|no-code)$/ { bad = 1 } END { exit bad }' \
    "$work/tsv" &&
    ! cut -f3 "$work/tsv" | tr ';' '\n' | grep -vqE '^(module|trace|device|fs|crypto):'; then
	pass "real/evidence-tsv-format$sfx" "($(wc -l < "$work/tsv") symbols)"
else
	fail "real/evidence-tsv-format$sfx"
fi

# --unmapped: kind:name lines; no module, no crypto algorithm (template
# instances and run-time names included); no always-built function.
if kt evidence -e "$BUNDLE" --unmapped &&
    ! grep -vqE '^(module|trace|device|fs|crypto):' "$work/out" &&
    ! grep -qE '^(module|crypto):' "$work/out" &&
    ! grep -qxE 'trace:(schedule|vfs_read|do_sys_openat2|kmem_cache_alloc)' "$work/out"; then
	pass "real/evidence-unmapped$sfx" "($(wc -l < "$work/out") items)"
else
	fail "real/evidence-unmapped$sfx"
	head -5 "$work/out" "$work/err" | indent
fi

# Two bundles: the same one twice plus a copy with garbage is merged,
# and bad lines are warned about, never fatal.
mkdir -p "$work/bad"
cp "$BUNDLE/modules" "$BUNDLE/uname" "$work/bad/"
printf 'virtio_net 57344 0 - Live 0x0\n\001\002garbage\nnot a module line at all x y z\n' >> "$work/bad/modules"
head -c 70000 /dev/urandom > "$work/bad/trace"
printf 'root / ext4\n' > "$work/bad/mounts"
if kt evidence -e "$BUNDLE" -e "$work/bad" --format tsv &&
    grep -q 'malformed\|unknown format' "$work/err" &&
    grep -qP '^CONFIG_VIRTIO_NET\tused' "$work/out"; then
	pass "real/evidence-bad-bundle$sfx" "($(grep -c . "$work/err") warnings)"
else
	fail "real/evidence-bad-bundle$sfx"
	head -5 "$work/err" | indent
fi

# An empty bundle is no error; a missing one is, with its name.
mkdir -p "$work/empty"
if kt evidence -e "$work/empty" && ! kt evidence -e "$work/nonexistent" &&
    grep -q nonexistent "$work/err"; then
	pass "real/evidence-empty-missing$sfx"
else
	fail "real/evidence-empty-missing$sfx"
	indent < "$work/err"
fi

# Several bundles: each symbol says in how many it was seen (a second
# snapshot without virtio_net loaded must not hide the first), and -e
# before the mode works like -e after it.
mkdir -p "$work/second"
grep -v '^virtio_net ' "$BUNDLE/modules" > "$work/second/modules"
cp "$BUNDLE/uname" "$work/second/"
if kt -e "$BUNDLE" evidence -e "$work/second" &&
    grep -E '^CONFIG_VIRTIO_NET +used .*\(seen in 1 of 2 bundles\)$' "$work/out" >/dev/null &&
    grep -E '^CONFIG_EXT4_FS +used .*\(seen in 2 of 2 bundles\)$' "$work/out" >/dev/null; then
	pass "real/evidence-provenance$sfx"
else
	fail "real/evidence-provenance$sfx"
	grep -E 'VIRTIO_NET|EXT4_FS ' "$work/out" | indent
	indent < "$work/err"
fi

# A bundle from another kernel version: warned about, still read.
mkdir -p "$work/old"
cp "$BUNDLE/modules" "$work/old/"
printf 'Linux oldhost 5.10.0-28-amd64 #1 SMP Debian 5.10.209-2 (2024-01-31) x86_64 GNU/Linux\n' > "$work/old/uname"
if kt evidence -e "$work/old" --format tsv &&
    grep -q "recorded on Linux 5.10.0-28-amd64 but this tree is $TREE_KVER" "$work/err" &&
    grep -qP '^CONFIG_VIRTIO_NET\tused' "$work/out"; then
	pass "real/evidence-other-version$sfx"
else
	fail "real/evidence-other-version$sfx"
	indent < "$work/err"
fi

# --all: every y/m option of the configuration with its verdict, options
# without evidence included (four TSV columns: name, value, verdict, items).
cp "$DEBIAN_CLOUD" "$work/cloud.config"
if kt --config "$work/cloud.config" evidence -e "$BUNDLE" --all --format tsv &&
    awk -F'\t' 'NF != 4 || $2 !~ /^[ym]$/ ||
	$3 !~ /^(used|plausible|none|no-code)$/ { bad = 1 } END { exit bad }' "$work/out" &&
    grep -qP '^CONFIG_VIRTIO_NET\tm\tused\tmodule:virtio_net' "$work/out" &&
    grep -qP '^CONFIG_EXPERT\ty\tno-code\t$' "$work/out" &&
    [ "$(grep -cP '\t(none)\t' "$work/out")" -gt 100 ]; then
	pass "real/evidence-all$sfx" "($(wc -l < "$work/out") options: $(cut -f3 "$work/out" | sort | uniq -c | tr -s ' \n' ' '))"
else
	fail "real/evidence-all$sfx"
	head -3 "$work/out" "$work/err" | indent
fi

[ "$TREE_KVER" = 6.1 ] || exit 0

# trace.dat (trace-cmd's binary format, read with libtracecmd): the same
# VM's workload recorded by trace-cmd (tests/fixtures/evidence/cloud-vm-dat).
DAT=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm-dat
if kt evidence -e "$DAT" --format tsv --stats; then
	cp "$work/out" "$work/tsv"
	stats=$(grep 'kctui: modules' "$work/err")
	read -r fm ft <<<"$(sed -n 's/.* functions \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' <<<"$stats")"
	if [ -n "${ft:-}" ] && [ "$ft" -ge 500 ] && [ $((fm * 100)) -ge $((ft * 95)) ]; then
		pass "real/evidence-trace-dat$sfx" "($fm of $ft functions attributed)"
	else
		fail "real/evidence-trace-dat$sfx" "$stats"
	fi
	check_attr EXT4_FS used trace:ext4_fill_super
	check_attr VIRTIO_BLK used trace:virtblk_done
	check_attr VIRTIO_NET used trace:virtnet_poll
else
	fail "real/evidence-trace-dat$sfx" "kctui evidence failed on trace.dat"
	indent < "$work/err"
fi

# What `kctui collect` itself recorded on a real kernel (the cloud-vm VM,
# kctui run by its /init around the workload: tests/evidence/record-vm.sh
# RECORD_MODE=collect): a complete bundle that attributes as well as the
# hand-recorded one.
COL=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm-collect
if kt evidence -e "$COL" --format tsv --stats; then
	cp "$work/out" "$work/tsv"
	stats=$(grep 'kctui: modules' "$work/err")
	read -r mm mt <<<"$(sed -n 's/.*modules \([0-9]*\)\/\([0-9]*\) attributed.*/\1 \2/p' <<<"$stats")"
	read -r fm ft <<<"$(sed -n 's/.* functions \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' <<<"$stats")"
	if [ -n "${ft:-}" ] && [ "$ft" -ge 3000 ] && [ $((fm * 100)) -ge $((ft * 95)) ] &&
	    [ "${mt:-0}" -gt 0 ] && [ "$mm" = "$mt" ]; then
		pass "real/evidence-collected$sfx" "($stats)"
	else
		fail "real/evidence-collected$sfx" "$stats"
	fi
	check_attr EXT4_FS used module:ext4
	check_attr VIRTIO_BLK used trace:virtblk_done
	check_attr INET used trace:tcp_sendmsg
else
	fail "real/evidence-collected$sfx" "kctui evidence failed on the collected bundle"
	indent < "$work/err"
fi
