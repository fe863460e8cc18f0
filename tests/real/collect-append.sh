#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/collect-append.sh - evidence over weeks on the real Linux 6.1
# tree: the cloud-vm bundle appended to (kctui collect --append, this
# machine's snapshot) is still read without a malformed line and keeps
# every module's attribution; a seen file (as weeks of hourly appends
# write it) makes `explain` say "seen N times, last D days ago"; a
# modprobed-db list imported into it shows in `evidence`.
#
#   KCTUI=/path/to/kctui tests/real/collect-append.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup collect-append

export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}

kctui_need_binary "real/collect-append$sfx"
kctui_tree_or_fail "real/collect-append$sfx" "$work/tree.log"

kt() { "$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" "$@" > "$work/out" 2> "$work/err"; }

# The cloud-vm bundle (its plain files and the kernel's), appended to
# twice on this machine.
b=$work/bundle
mkdir -p "$b"
for f in uname modules drivers mounts filesystems crypto modalias config.xz \
    kallsyms.xz modules.alias.xz; do
	cp "$BUNDLE/$f" "$b/$f"
done
kt -e "$BUNDLE" evidence --format tsv && cp "$work/out" "$work/before.tsv"
if "$KCTUI" collect --append "$b" > "$work/out" 2> "$work/err" &&
   "$KCTUI" collect --append "$b" > "$work/out" 2>> "$work/err" &&
   grep -q "^kctui: $b: 3 snapshots, " "$work/out"; then
	pass "real/collect-append-run$sfx" "($(sed 's/^kctui: [^:]*: //' "$work/out"))"
else
	fail_with "real/collect-append-run$sfx" "append failed" cat "$work/out" "$work/err"
fi
# Read as any bundle: no malformed line; every module the recording
# attributed is still attributed (the union keeps them).
kt -e "$b" evidence --format tsv
if grep -q "malformed" "$work/err"; then
	fail_with "real/collect-append-read$sfx" "malformed lines" cat "$work/err"
else
	lost=$(grep -o 'module:[a-z0-9_]*' "$work/before.tsv" | sort -u |
		comm -23 - <(grep -o 'module:[a-z0-9_]*' "$work/out" | sort -u))
	[ -z "$lost" ] && pass "real/collect-append-read$sfx" ||
		fail "real/collect-append-read$sfx" "modules no longer attributed: $lost"
fi

# Weeks of hourly appends, as the seen file records them: virtio_net
# seen 14 times, last 3 days ago, first 40 days ago.
now=$(date +%s)
mkdir -p "$work/weeks"
cp "$BUNDLE"/{uname,modules,drivers,mounts,filesystems,crypto,modalias,config.xz,kallsyms.xz,modules.alias.xz} "$work/weeks/"
printf '# kctui collect --append: KIND COUNT FIRST LAST NAME\nruns 20 %d %d\nmodule 14 %d %d virtio_net\nmodule 20 %d %d ext4\n' \
	$((now - 40 * 86400)) $((now - 3 * 86400 - 100)) \
	$((now - 40 * 86400)) $((now - 3 * 86400 - 100)) \
	$((now - 40 * 86400)) $((now - 7200)) > "$work/weeks/seen"
kt -e "$work/weeks" explain VIRTIO_NET
grep -qxF "  Module virtio_net seen 14 times, last 3 days ago (first 40 days ago)." "$work/out" &&
	pass "real/collect-append-explain$sfx" ||
	fail_with "real/collect-append-explain$sfx" "no seen line" cat "$work/out" "$work/err"
kt -e "$work/weeks" explain EXT4_FS
grep -qxF "  Module ext4 seen 20 times, last 2 hours ago (first 40 days ago)." "$work/out" &&
	pass "real/collect-append-explain-hours$sfx" ||
	fail_with "real/collect-append-explain-hours$sfx" "no seen line" cat "$work/out" "$work/err"
# Without a seen file: no such line.
kt -e "$BUNDLE" explain VIRTIO_NET
grep -q " seen [0-9]* time" "$work/out" &&
	fail_with "real/collect-append-explain-none$sfx" "a seen line" cat "$work/out" ||
	pass "real/collect-append-explain-none$sfx"

# modprobed-db's list: a module the recording never loaded (wireguard)
# becomes evidence for its option.
printf 'wireguard\nvirtio_net\n' > "$work/modprobed.db"
if "$KCTUI" collect --append "$work/weeks" --import-modprobed "$work/modprobed.db" \
    > "$work/out" 2> "$work/err"; then
	kt -e "$work/weeks" evidence --format tsv
	grep -qP '^CONFIG_WIREGUARD\tused\t.*module:wireguard' "$work/out" &&
		pass "real/collect-append-modprobed$sfx" ||
		fail_with "real/collect-append-modprobed$sfx" "WIREGUARD not used" grep WIREGUARD "$work/out"
	kt -e "$work/weeks" explain VIRTIO_NET
	# the list's time is its file's: now
	grep -qxF "  Module virtio_net seen 15 times, last less than an hour ago (first 40 days ago)." "$work/out" &&
		pass "real/collect-append-modprobed-count$sfx" ||
		fail_with "real/collect-append-modprobed-count$sfx" "count" cat "$work/out"
else
	fail_with "real/collect-append-modprobed$sfx" "import failed" cat "$work/err"
fi
