#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/evidence-ranges.sh - modules.builtin.ranges on real data, on
# Debian's linux-source-6.12 tree.
#
# The bundle tests/fixtures/evidence/cloud-vm-6.12-builtin was recorded
# (tests/evidence/record-vm.sh, KERNEL_ROOT) from a 6.12 kernel built by
# tests/evidence/build-kernel.sh: the options the cloud-vm-6.12 bundle used,
# every module built in, CONFIG_BUILTIN_MODULE_RANGES=y. Its functions have
# no "[module]" in kallsyms; the kernel's own ranges file places them.
#
# The oracle is Debian's own 6.12 kernel (bundle cloud-vm-6.12), where the
# same drivers were loadable modules: a traced function that its kallsyms
# lists once, tagged [M], must be placed in built-in module M here; one it
# lists once without a tag (in Debian's image) and that is placed in no
# module here must not be tagged there. Then attribution: with the ranges,
# fewer functions stay ambiguous than with the same bundle copied without
# them, and none that was attributed is lost.
#
#   KCTUI=/path/to/kctui tests/real/evidence-ranges.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
KCTUI_KVER=6.12
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup evidence-ranges
repo=$(cd "$here/../.." && pwd)
builtin=$repo/tests/fixtures/evidence/cloud-vm-6.12-builtin
debian=$repo/tests/fixtures/evidence/cloud-vm-6.12

kctui_tree_or_fail "real/ranges$sfx" "$work/tree.log" 6.12
export KCTUI_CACHE_DIR=$work/cache

# kt ARGS...: kctui in the tree, output in $work/out, stderr in $work/err.
kt() { "$KCTUI" -C "$TREE" "$@" > "$work/out" 2> "$work/err"; }

xzcat "$builtin/config.xz" > "$work/builtin.config"
if ! kt --config "$work/builtin.config" evidence -e "$builtin" \
	--functions --format tsv; then
	fail "real/ranges-functions$sfx" "kctui evidence --functions failed"
	indent < "$work/err"
	exit 1
fi
cp "$work/out" "$work/homes"
# Every line: name, one of the five homes, a module or "-".
bad=$(awk -F'\t' 'NF != 3 || $2 !~ /^(module|built-in|core|image|unknown)$/ ||
	($2 ~ /^(module|built-in)$/) == ($3 == "-")' "$work/homes" | head -3)
nb=$(awk -F'\t' '$2 == "built-in"' "$work/homes" | wc -l)
nc=$(awk -F'\t' '$2 == "core"' "$work/homes" | wc -l)
ni=$(awk -F'\t' '$2 == "image"' "$work/homes" | wc -l)
nm=$(awk -F'\t' '$2 == "module"' "$work/homes" | wc -l)
nt=$(wc -l < "$work/homes")
if [ -z "$bad" ] && [ "$nt" -gt 4000 ] && [ "$nb" -gt 500 ] &&
	[ $(((nb + nc) * 100)) -ge $((nt * 95)) ]; then
	pass "real/ranges-functions$sfx" "($nt traced: $nb in built-in modules, $nc core, $ni image, $nm loaded modules)"
else
	fail "real/ranges-functions$sfx" "$nt traced: $nb built-in, $nc core, $ni image, $nm module"
	printf '%s\n' "$bad" | indent
fi

# The oracle: Debian's kallsyms, names listed exactly once.
xzcat "$debian/kallsyms.xz" | awk '
	{ n = $3; sub(/\.(constprop|isra|part|cold|llvm|lto_priv|localalias)(\.[0-9]+)*$/, "", n)
	  m = NF >= 4 ? $4 : "-"; gsub(/[][]/, "", m); if (m != "-") gsub(/-/, "_", m)
	  c[n]++; mod[n] = m }
	END { for (n in c) if (c[n] == 1) print n "\t" mod[n] }' |
	LC_ALL=C sort > "$work/debian-once"
awk -F'\t' '{ m = $3; if (m != "-") gsub(/-/, "_", m); print $1 "\t" $2 "\t" m }' "$work/homes" |
	LC_ALL=C sort > "$work/homes-sorted"
LC_ALL=C join -t "$(printf '\t')" "$work/homes-sorted" "$work/debian-once" > "$work/joined"
# In a module there: the same module here (an object in several
# modules: one of them).
agree=$(awk -F'\t' '$4 != "-" && $2 == "built-in" {
	n = split($3, w, " "); for (i = 1; i <= n; i++) if (w[i] == $4) { print; break } }' \
	"$work/joined" | wc -l)
disagree=$(awk -F'\t' '$4 != "-" && $2 != "built-in" { print; next }
	$4 != "-" { n = split($3, w, " "); for (i = 1; i <= n; i++) if (w[i] == $4) next; print }' \
	"$work/joined")
if [ "$agree" -gt 300 ] && [ -z "$disagree" ]; then
	pass "real/ranges-agree-with-debian-modules$sfx" "($agree functions in Debian's modules placed in the same built-in module)"
else
	fail "real/ranges-agree-with-debian-modules$sfx" "$agree agree; disagreeing (name, home, module, Debian's module):"
	printf '%s\n' "$disagree" | head -10 | indent
fi
# Core here: in Debian's image too.
core_ok=$(awk -F'\t' '$2 == "core" && $4 == "-"' "$work/joined" | wc -l)
core_bad=$(awk -F'\t' '$2 == "core" && $4 != "-"' "$work/joined")
if [ "$core_ok" -gt 1000 ] && [ -z "$core_bad" ]; then
	pass "real/ranges-core-in-debian-image$sfx" "($core_ok core functions, all in Debian's image)"
else
	fail "real/ranges-core-in-debian-image$sfx" "$core_ok in the image; in a Debian module:"
	printf '%s\n' "$core_bad" | head -10 | indent
fi

# Attribution with the ranges against the same bundle without them; then
# both without config.xz, as from a machine with no /boot/config, where
# the running kernel's config cannot narrow a name's candidate files.
copy_bundle() { # DIR FILE...: the bundle without FILEs
	local d=$1
	shift
	mkdir -p "$d"
	cp -a "$builtin/." "$d/"
	for f in "$@"; do rm -f "$d/$f"; done
}
copy_bundle "$work/noranges" modules.builtin.ranges.xz
copy_bundle "$work/noconfig" config.xz
copy_bundle "$work/noconfig-noranges" config.xz modules.builtin.ranges.xz
stats() { # BUNDLE TSV: the --stats line; the symbols in TSV
	kt --config "$work/builtin.config" evidence -e "$1" --format tsv --stats ||
		return 1
	cp "$work/out" "$2"
	grep 'kctui: modules' "$work/err"
}
num() { sed -n "s|.*$1.*|\\1|p" <<<"$2"; }
if ! with=$(stats "$builtin" "$work/tsv-with") ||
	! without=$(stats "$work/noranges" "$work/tsv-without") ||
	! nc_with=$(stats "$work/noconfig" "$work/tsv-nc-with") ||
	! nc_without=$(stats "$work/noconfig-noranges" "$work/tsv-nc-without"); then
	fail "real/ranges-attribution$sfx" "kctui evidence --stats failed"
	indent < "$work/err"
	exit 1
fi
amb_w=$(num ' \([0-9]*\) ambiguous' "$with")
amb_wo=$(num ' \([0-9]*\) ambiguous' "$without")
map_w=$(num 'functions \([0-9]*\)/' "$with")
map_wo=$(num 'functions \([0-9]*\)/' "$without")
placed=$(num ' \([0-9]*\) placed by' "$with")
placed_wo=$(num ' \([0-9]*\) placed by' "$without")
if [ -n "$amb_w" ] && [ -n "$amb_wo" ] && [ "$amb_w" -le "$amb_wo" ] &&
	[ "$map_w" -ge "$map_wo" ] && [ "$placed" -gt 4000 ] && [ "$placed_wo" = 0 ]; then
	pass "real/ranges-attribution$sfx" "(ambiguous $amb_wo -> $amb_w, attributed $map_wo -> $map_w, $placed placed by the ranges)"
else
	fail "real/ranges-attribution$sfx" "with: $with; without: $without"
fi
amb_w=$(num ' \([0-9]*\) ambiguous' "$nc_with")
amb_wo=$(num ' \([0-9]*\) ambiguous' "$nc_without")
# Options only the run without the ranges names: wrong candidates the
# ranges ruled out. The running kernel's own config rules them out too:
# none is in the run with config.xz and without the ranges.
cut -f1 "$work/tsv-nc-with" | LC_ALL=C sort > "$work/syms-nc-with"
cut -f1 "$work/tsv-nc-without" | LC_ALL=C sort > "$work/syms-nc-without"
cut -f1 "$work/tsv-without" | LC_ALL=C sort > "$work/syms-without"
LC_ALL=C comm -13 "$work/syms-nc-with" "$work/syms-nc-without" > "$work/ruled-out"
LC_ALL=C comm -23 "$work/syms-nc-with" "$work/syms-nc-without" > "$work/added"
ruled=$(wc -l < "$work/ruled-out")
built=$(LC_ALL=C comm -12 "$work/ruled-out" "$work/syms-without")
if [ -n "$amb_w" ] && [ -n "$amb_wo" ] && [ "$amb_w" -lt "$amb_wo" ] &&
	[ "$ruled" -gt 10 ] && [ -z "$built" ] && [ ! -s "$work/added" ]; then
	pass "real/ranges-without-config$sfx" "(ambiguous $amb_wo -> $amb_w; $ruled options ruled out, as the running kernel's config does; e.g. $(head -3 "$work/ruled-out" | tr '\n' ' '))"
else
	fail "real/ranges-without-config$sfx" "ambiguous $amb_wo -> $amb_w, $ruled ruled out; ruled out but attributed with the config: $(printf '%s ' $built); added: $(head -5 "$work/added" | tr '\n' ' ')"
fi

# Known attributions with the ranges: symbol, verdict, an item its line
# must have (TSV of kctui evidence).
check_attr() { check_attr_tsv "$work/tsv-with" "real/ranges-$1$sfx" "$@"; }
check_attr EXT4_FS used trace:ext4_file_write_iter
check_attr VIRTIO_NET used trace:virtnet_poll
check_attr VIRTIO_BLK used trace:virtio_queue_rq
check_attr CRYPTO_USER_API_SKCIPHER used trace:skcipher_recvmsg

# A damaged ranges file (a line cut short): a message naming the file and
# the line, the rest read as before.
mkdir -p "$work/badranges"
cp -a "$builtin/." "$work/badranges/"
{ xzcat "$builtin/modules.builtin.ranges.xz" | head -n 5; echo ".text 0061"
	xzcat "$builtin/modules.builtin.ranges.xz" | tail -n +6; } |
	xz -c > "$work/badranges/modules.builtin.ranges.xz"
if kt --config "$work/builtin.config" evidence -e "$work/badranges" --format tsv &&
	grep -q "modules.builtin.ranges.xz: 1 malformed line, first at line 6: .text 0061\$" "$work/err" &&
	cmp -s "$work/out" "$work/tsv-with"; then
	pass "real/ranges-malformed$sfx" "(warned, same attribution)"
else
	fail "real/ranges-malformed$sfx" "$(head -3 "$work/err")"
fi
exit 0
