#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/reliability.sh - no user file lost or replaced by surprise,
# and a bundle is untrusted input: each reproducer of the reliability issue
# on the real Linux 6.1 tree with Debian's cloud config and the cloud-vm
# bundle (tree.sh). Outputs that are devices, FIFOs and symlinks; two
# names for one file; a directory or FIFO as the config; a report that
# cannot be written (RLIMIT_FSIZE); a kill between the renames (strace
# fault injection); two writers at once (olddefconfig, decide); reasons
# with newlines; hostile vm files and verify options; evidence that lost
# events or has two copies of one file; misleading messages.
#
#   KCTUI=/path/to/kctui tests/real/reliability.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup reliability
flavor=${KCTUI_FLAVOR:-normal}

kctui_tree_or_fail "real/reliability$sfx" "$work/tree.log"
export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}

# kt ARGS...: kctui in the tree; stdout $work/out, stderr $work/err.
kt() { "$KCTUI" -C "$TREE" "$@" > "$work/out" 2> "$work/err"; }
# R NAME: the result name
R() { printf 'real/reliability-%s%s' "$1" "$sfx"; }
# expect_error NAME PATTERN ARGS...: kctui fails (exit 1) saying PATTERN
expect_error() {
	local n=$1 pat=$2 rc; shift 2
	timeout 60 "$KCTUI" -C "$TREE" "$@" > "$work/out" 2> "$work/err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$(R "$n")" "exit $rc, not 1"
		indent < "$work/err"
	elif grep -q -- "$pat" "$work/err"; then
		pass "$(R "$n")" "($(head -1 "$work/err" | cut -c1-150))"
	else
		fail "$(R "$n")" "no '$pat' in:"
		indent < "$work/err"
	fi
}
# check NAME TEXT CONDITION...: PASS when the command succeeds
check() {
	local n=$1 text=$2; shift 2
	if "$@"; then pass "$(R "$n")" "$text"; else fail "$(R "$n")" "$text"; fi
}
# Every directory holds no temporary of ours.
no_temps() { ! ls -a "$@" 2>/dev/null | grep -q '\.tmp\.'; }

cp "$DEBIAN_CLOUD" "$work/in.config"
cp "$work/in.config" "$work/orig.config"
in=$work/in.config

# ------------------------------------------------------------- outputs
# A character device is written in place, and never read back. The test's
# own node (as root, as CI runs): a kctui that replaced device nodes must
# not take the machine's /dev/null with it (one did, once). Without root,
# /dev/null, which a user cannot replace anyway.
null=/dev/null
mknod "$work/null" c 1 3 2>/dev/null && null=$work/null
kt --config "$in" -e "$BUNDLE" export -o "$null"
check export-dev-null "($null still a device)" test $? -eq 0 -a -c "$null"
# A symlink to /proc/self/fd/1, a pipe (what /dev/stdout is; the
# test's own link, not the machine's): written, not read (it hung).
ln -s /proc/self/fd/1 "$work/to-stdout"
n=$(timeout 60 "$KCTUI" -C "$TREE" --config "$in" -e "$BUNDLE" -s export \
    -o "$work/to-stdout" 2>"$work/err" | grep -c '^CONFIG_')
check export-link-to-pipe "($n CONFIG_ lines through the link)" test "$n" -gt 1000
check export-link-kept "(still a link)" test -L "$work/to-stdout"
# A symlink to a file: the target is replaced, the link stays.
echo old > "$work/target"
ln -s target "$work/link"
kt --config "$in" -e "$BUNDLE" export -o "$work/link"
check export-link-target "(link kept, target replaced, target.old kept)" \
	test -L "$work/link" -a "$(readlink "$work/link")" = target -a \
	"$(cat "$work/target.old")" = old
check export-link-content "" grep -q '^CONFIG_64BIT=y' "$work/target"
# A FIFO output: written in place for a reader.
mkfifo "$work/out.fifo"
(timeout 60 cat "$work/out.fifo" > "$work/from-fifo") &
reader=$!
timeout 60 "$KCTUI" -C "$TREE" --config "$in" -e "$BUNDLE" -s export \
    -o "$work/out.fifo" 2>"$work/err"
rc=$?
wait $reader
check export-fifo "(exit $rc; the reader got the config; still a FIFO)" \
	test $rc -eq 0 -a -p "$work/out.fifo" -a "$(grep -c '^CONFIG_' "$work/from-fifo")" -gt 1000
# savedefconfig to a character device leaves the node a node.
kt --config "$in" savedefconfig "$null"
check savedefconfig-dev-null "" test -c "$null"
check outputs-no-temps "" no_temps "$work"

# ------------------------------------------------- the same file twice
expect_error same-report-input 'are the same file' --config "$in" \
	-e "$BUNDLE" export -o "$work/o.config" --report "$in"
check same-report-input-untouched "" cmp -s "$in" "$work/orig.config"
check same-report-input-no-old "" test ! -e "$in.old"
expect_error same-o-report 'are the same file' --config "$in" \
	-e "$BUNDLE" export -o "$work/x" --report "$work/./x"
check same-o-report-nothing "" test ! -e "$work/x"
ln -s in.config "$work/in-link"
expect_error same-o-input-link 'are the same file' --config "$in" \
	-e "$BUNDLE" export -o "$work/in-link"
expect_error same-o-decisions 'are the same file' --config "$in" \
	-e "$BUNDLE" export -o "$work/dec" --decisions "$work/dec"

# ------------------------------------------------ inputs not regular
mkdir "$work/dir.config"
expect_error config-directory 'is a directory' --config "$work/dir.config" \
	-e "$BUNDLE" export -o "$work/o.config"
mkfifo "$work/fifo.config"
expect_error config-fifo 'not a regular file (a FIFO)' \
	--config "$work/fifo.config" -e "$BUNDLE" export -o "$work/o.config"
expect_error olddefconfig-fifo 'not a regular file (a FIFO)' \
	--config "$work/fifo.config" olddefconfig
expect_error decisions-fifo 'fifo.config: not a regular file' \
	--config "$in" decide CONFIG_EXT4_FS keep --decisions "$work/fifo.config"
expect_error decisions-directory 'dir.config: Is a directory' \
	--config "$in" -e "$BUNDLE" suggest --decisions "$work/dir.config"
if grep -q 'bad lines' "$work/err"; then
	fail "$(R decisions-directory-message)" "says 'bad lines'"
else
	pass "$(R decisions-directory-message)"
fi
bundle_with() {	# NAME: a copy of the bundle in $work/NAME
	rm -rf "$work/$1"
	cp -r "$BUNDLE" "$work/$1"
}
bundle_with fifo-bundle
rm -f "$work/fifo-bundle/modules"
mkfifo "$work/fifo-bundle/modules"
if timeout 60 "$KCTUI" -C "$TREE" --config "$in" -e "$work/fifo-bundle" \
    evidence > /dev/null 2> "$work/err" &&
    grep -q 'modules: not a regular file, skipped' "$work/err"; then
	pass "$(R bundle-fifo)" "(skipped, warned)"
else
	fail "$(R bundle-fifo)"; indent < "$work/err"
fi

# ------------------------------------- config and report, both or none
# The report cannot be written (a file-size limit below its size, above
# the config's): neither file is replaced, no temporary left.
echo "previous" > "$work/pair.config"
echo "previous" > "$work/pair.md"
(
	trap '' XFSZ
	ulimit -f 110	# KiB: the config is ~100 KiB, the report ~300
	exec "$KCTUI" -C "$TREE" --config "$in" -e "$BUNDLE" export \
		-o "$work/pair.config" --report "$work/pair.md"
) > "$work/out" 2> "$work/err"
rc=$?
check report-fails-nothing-replaced "(exit $rc: $(head -1 "$work/err" | cut -c1-100))" \
	test $rc -eq 1 -a "$(cat "$work/pair.config")" = previous -a \
	"$(cat "$work/pair.md")" = previous
check report-fails-names-target "" grep -q "pair.md: File too large" "$work/err"
check report-fails-no-temps "" no_temps "$work"

# ------------------------------------------------ killed between renames
if command -v strace > /dev/null; then
	for when in 1 2; do
		cp "$work/orig.config" "$work/k.config"
		rm -f "$work/k.config.old"
		strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
			-e inject=rename,renameat,renameat2:signal=SIGKILL:when=$when \
			"$KCTUI" -C "$TREE" --config "$work/k.config" -s olddefconfig \
			> /dev/null 2>&1
		check "kill-rename-$when" "(the config in place and whole)" \
			cmp -s "$work/k.config" "$work/orig.config"
	done
	# The next write removes the dead writer's temporaries.
	echo '# CONFIG_EXT4_FS is not set' >> "$work/k.config"
	kt --config "$work/k.config" -s olddefconfig
	check kill-temps-swept "" no_temps "$work"
else
	fail "$(R kill-rename)" "strace is not installed (make deps installs it)"
fi

# ----------------------------------------------------------- races
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	cp "$work/orig.config" "$work/r.config"
	rm -f "$work/r.config.old"
	"$KCTUI" -C "$TREE" --config "$work/r.config" -s olddefconfig &
	"$KCTUI" -C "$TREE" --config "$work/r.config" -s olddefconfig &
	wait
	cmp -s "$work/r.config.old" "$work/orig.config" || bad=$((bad + 1))
done
check olddefconfig-race "(.old lost the original $bad of 10 times)" test $bad -eq 0
ndec=40
[ "$flavor" = normal ] || ndec=16
grep -oE '^CONFIG_[A-Z0-9_]+=[ym]' "$in" | cut -d= -f1 | head -$((2 * ndec)) > "$work/syms"
rm -f "$work/race.dec"
for half in 1 2; do
	if [ $half = 1 ]; then head -$ndec "$work/syms"; else tail -$ndec "$work/syms"; fi |
	while read -r s; do
		"$KCTUI" -C "$TREE" --config "$in" -s decide "$s" keep \
			--decisions "$work/race.dec" || echo "decide $s failed" >&2
	done &
done
wait
n=$(grep -c '^CONFIG_' "$work/race.dec")
check decide-race "($n of $((2 * ndec)) decisions kept)" test "$n" -eq $((2 * ndec))
expect_error decide-newline 'one line of text' --config "$in" decide \
	CONFIG_VIRTIO_NET keep $'needed\nCONFIG_EXT4_FS trim' --decisions "$work/nl.dec"
check decide-newline-nothing "" test ! -e "$work/nl.dec"
# Decided, then forgotten: no file appears.
kt --config "$in" decide CONFIG_EXT4_FS keep --decisions "$work/f.dec" &&
	rm "$work/f.dec" && kt --config "$in" decide CONFIG_EXT4_FS forget \
	--decisions "$work/f.dec"
check decide-forget-no-file "" test ! -e "$work/f.dec"

# ------------------------------------------------------ untrusted vm
vm_case() {	# NAME PATTERN LINE: the bundle's vm with LINE added
	local n=$1 pat=$2 line=$3
	bundle_with "vm-$n"
	printf '%s\n' "$line" >> "$work/vm-$n/vm"
	expect_error "vm-$n" "$pat" --config "$in" verify -e "$work/vm-$n" \
		--work-dir "$work/verify-$n"
	check "vm-$n-no-build" "" test ! -e "$work/verify-$n/build"
}
vm_case tap "netdev 'tap' is not allowed" 'netdev tap,id=t0,script=/tmp/x'
vm_case guestfwd "'guestfwd' is not allowed" 'netdev user,id=u1,guestfwd=tcp:10.0.2.9:1-cmd:sh'
vm_case mem-path "object 'memory-backend-file' is not allowed" \
	'object memory-backend-file,id=m0,mem-path=/etc/passwd,share=on'
vm_case drive "'drive' is not allowed" 'device virtio-scsi-pci,drive=work'
vm_case romfile "'romfile' is not allowed" 'device e1000,netdev=net0,romfile=/etc/passwd'
bundle_with vm-control
sed -i 's/^cmdline .*/cmdline console=ttyS0 \x1b[2J panic=-1/' "$work/vm-control/vm"
expect_error vm-control 'contains a control character' --config "$in" verify \
	-e "$work/vm-control" --work-dir "$work/verify-control"
bundle_with vm-machine-kernel
sed -i 's/^machine q35$/machine q35,kernel=\/x,append=y/' "$work/vm-machine-kernel/vm"
expect_error vm-machine-kernel "'kernel' is not allowed" --config "$in" verify \
	-e "$work/vm-machine-kernel" --work-dir "$work/verify-mk"
bundle_with vm-memory
sed -i 's/^memory 4096$/memory 1048576/' "$work/vm-memory/vm"
expect_error vm-memory 'does not fit this host' --config "$in" verify \
	-e "$work/vm-memory" --work-dir "$work/verify-mem"
check vm-memory-no-build "" test ! -e "$work/verify-mem/build"
bundle_with vm-disk
sed -i 's/^disk work 512M/disk work 8388607T/' "$work/vm-disk/vm"
expect_error vm-disk "disk size '8388607T' is more than 64 GiB" --config "$in" \
	verify -e "$work/vm-disk" --work-dir "$work/verify-disk"
# issue 37, item 6: the sum wrapped in a uint64 (two 8388607T and a
# 2097153M disk passed a 64 MiB tmpfs); now each at most 64 GiB and all
# at most 256 GiB, checked
bundle_with vm-disks-sum
for i in 1 2 3 4 5; do
	echo "disk big$i 60G ext4 virtio-blk-pci" >> "$work/vm-disks-sum/vm"
done
expect_error vm-disks-sum 'its disks add up to more than 256 GiB' --config "$in" \
	verify -e "$work/vm-disks-sum" --work-dir "$work/verify-disks"
check vm-disks-sum-no-image "" test ! -e "$work/verify-disks/boot"
# item 7: 'help' made QEMU print its CPU list and exit 0
bundle_with vm-cpu-help
sed -i 's/^cpu .*/cpu help/' "$work/vm-cpu-help/vm"
expect_error vm-cpu-help "'help' in 'help' asks QEMU for a list" --config "$in" \
	verify -e "$work/vm-cpu-help" --work-dir "$work/verify-cpu"
bundle_with vm-nul
printf 'smp\0 2\n' >> "$work/vm-nul/vm"
expect_error vm-nul 'vm:20: not a text file (a NUL byte)' --config "$in" verify \
	-e "$work/vm-nul" --work-dir "$work/verify-nul"
bundle_with vm-fifo
rm "$work/vm-fifo/vm"; mkfifo "$work/vm-fifo/vm"
expect_error vm-fifo 'vm: not a regular file' --config "$in" verify \
	-e "$work/vm-fifo" --work-dir "$work/verify-fifo"
expect_error qemu-directory '/tmp: is a directory, not a program' --config "$in" \
	verify -e "$BUNDLE" --qemu /tmp --work-dir "$work/verify-q"
expect_error qemu-not-executable '/etc/passwd: not executable' --config "$in" \
	verify -e "$BUNDLE" --qemu /etc/passwd --work-dir "$work/verify-q"
for t in nan inf -1 0; do
	expect_error "timeout-$t" "timeout $t: not a number of seconds" \
		--config "$in" verify -e "$BUNDLE" --timeout "$t"
done

# ------------------------------------------------------ honest evidence
bundle_with overrun
sed -i '0,/^overrun: 0$/s//overrun: 1234/' "$work/overrun/trace-stats"
for cmd in evidence suggest; do
	kt --config "$in" -e "$work/overrun" $cmd
	check "overrun-warned-$cmd" "" grep -q 'the trace lost 1234 events' "$work/err"
done
kt --config "$in" -e "$work/overrun" export -o "$work/ov.config" --report "$work/ov.md"
check overrun-warned-export "" grep -q 'the trace lost 1234 events' "$work/err"
check overrun-in-report "" grep -q '^- \*\*warning\*\*: .*the trace lost 1234 events' "$work/ov.md"
kt --config "$in" -e "$BUNDLE" evidence
check no-overrun-no-warning "" test "$(grep -c 'trace lost' "$work/err")" -eq 0
bundle_with twocopies
xz -dc "$BUNDLE/trace.xz" | head -1000 > "$work/twocopies/trace"
kt --config "$in" -e "$work/twocopies" evidence --stats
check two-copies-warned "" grep -q 'twocopies/trace: ignored: .*trace.xz is read' "$work/err"
kt --config "$in" -e "$BUNDLE" evidence --format tsv
cp "$work/out" "$work/one.tsv"
kt --config "$in" -e "$work/twocopies" evidence --format tsv
check two-copies-reads-complete "(the same attribution as the bundle alone)" \
	cmp -s "$work/one.tsv" "$work/out"
bundle_with longline
head -c 10000000 /dev/zero | tr '\0' x > "$work/longline/modules"
echo >> "$work/longline/modules"
kt --config "$in" -e "$work/longline" evidence
check long-line-one "" grep -q 'modules: unknown format, skipped (1 line not understood' "$work/err"
# ------------------------------------- issue 37: nothing reaches the host
echo 'root:SECRET-HASH:19000:0:99999:7:::' > "$work/shadow"
# item 4: twin -o copied a workload.d link's target (/etc/shadow) into
# DIR/workload.d/tcploop.c
bundle_with twin-link
rm -f "$work/twin-link/vm" "$work/twin-link/workload"
ln -sf "$work/shadow" "$work/twin-link/workload.d/tcploop.c"
expect_error twin-link 'workload.d/tcploop.c: a symbolic link' \
	twin -e "$work/twin-link" -o "$work/twin-link-out"
check twin-link-nothing-written "" test ! -e "$work/twin-link-out/workload.d/tcploop.c"
check twin-link-no-secret "" sh -c "! grep -rqs SECRET-HASH '$work/twin-link-out' '$work/out'"
# items 1, 4: a bundle file that is a link is skipped, said, never read
bundle_with link-modules
ln -sf "$work/shadow" "$work/link-modules/modules"
kt --config "$in" -e "$work/link-modules" evidence --unmapped
check bundle-link-skipped "" grep -q 'link-modules/modules: a symbolic link' "$work/err"
check bundle-link-not-read "" sh -c "! grep -qs SECRET-HASH '$work/out' '$work/err'"
# item 5: escape bytes in drivers were printed raw by evidence --unmapped
bundle_with escapes
printf 'pci e1000\033]0;owned\007x 0000:00:09.0 -\n' >> "$work/escapes/drivers"
kt --config "$in" -e "$work/escapes" evidence --unmapped
escapes_shown() {
	grep -qF 'e1000\x1b]0;owned\x07x' "$work/out" &&
	    ! grep -q "$(printf '\033')" "$work/out"
}
check escapes-unmapped '(shown as \x1b)' escapes_shown
# item 9: collect -o into an existing bundle kept its stale files
mkdir -p "$work/collected"
echo 'arch x86_64' > "$work/collected/vm"
expect_error collect-not-empty 'collected: not empty' collect -o "$work/collected" --no-trace
check collect-not-empty-kept "" test -e "$work/collected/vm"
if timeout 120 "$KCTUI" collect -o "$work/collected" --no-trace --force \
    > "$work/out" 2> "$work/err" && test -e "$work/collected/uname" &&
    test ! -e "$work/collected/vm"; then
	pass "$(R collect-force)" "(stale vm gone, uname written)"
else
	fail "$(R collect-force)"; indent < "$work/err"
fi
check collect-force-no-leftover "" sh -c "! ls '$work' | grep -q 'collected.kctui-'"
# item 14: a cache changed by a tool that recomputes its plain checksum
# (hash_buf64, lib/util.c) does not change the evidence: the seal is keyed
# (cache.key), the cache refused and rebuilt, and -v says so.
c14=$work/cache14
KCTUI_CACHE_DIR=$c14 "$KCTUI" -C "$TREE" --config "$in" -e "$BUNDLE" evidence --functions \
	> "$work/fn1" 2> /dev/null
forge_trace_cache() {
	python3 - "$1" <<'PY'
import struct, sys
M = (1 << 64) - 1
def fnv(h, b):
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & M
    return h
def hash_buf64(b):
    h = 0x9e3779b97f4a7c15 ^ len(b)
    i = 0
    while i + 8 <= len(b):
        w = struct.unpack_from('<Q', b, i)[0]
        h = ((h ^ w) * 0xff51afd7ed558ccd) & M
        h ^= h >> 29
        i += 8
    return fnv(h, b[i:])
d = open(sys.argv[1], 'rb').read()
payload = d[48:] + b'forged_function_x 1000\n'
hdr = bytearray(d[:48])
struct.pack_into('<QQ', hdr, 24, len(payload), hash_buf64(payload))
open(sys.argv[1], 'r+b').write(bytes(hdr) + payload)
PY
}
forged=
for f in "$c14"/trace-*.cache; do [ -e "$f" ] && forge_trace_cache "$f" && forged=$f; done
KCTUI_CACHE_DIR=$c14 "$KCTUI" -v -C "$TREE" --config "$in" -e "$BUNDLE" evidence --functions \
	> "$work/fn2" 2> "$work/err"
if [ -n "$forged" ] && ! grep -q forged_function_x "$work/fn2" && cmp -s "$work/fn1" "$work/fn2" &&
    grep -q "cache $forged: seal mismatch .*: not used, rebuilt" "$work/err"; then
	pass "$(R cache-forged-rebuilt)" "($(grep -c . "$work/fn2") functions, as before)"
else
	fail "$(R cache-forged-rebuilt)" "forged ${forged:-nothing}; stderr:"
	indent < "$work/err"
	diff "$work/fn1" "$work/fn2" | head -5 | indent
fi
# rebuilt: the next run uses it, and says nothing
KCTUI_CACHE_DIR=$c14 "$KCTUI" -v -C "$TREE" --config "$in" -e "$BUNDLE" evidence --functions \
	> "$work/fn3" 2> "$work/err"
if cmp -s "$work/fn1" "$work/fn3" && ! grep -q "rebuilt" "$work/err"; then
	pass "$(R cache-rebuilt-quiet)"
else
	fail "$(R cache-rebuilt-quiet)"; indent < "$work/err"
fi
# The key is the user's alone: one others can read makes no cache trusted.
chmod 0644 "$c14/cache.key"
KCTUI_CACHE_DIR=$c14 "$KCTUI" -v -C "$TREE" --config "$in" -e "$BUNDLE" evidence --functions \
	> "$work/fn4" 2> "$work/err"
if cmp -s "$work/fn1" "$work/fn4" && grep -q "cache.key: not the user's own private key file" "$work/err"; then
	pass "$(R cache-key-private)"
else
	fail "$(R cache-key-private)"; indent < "$work/err"
fi
chmod 0600 "$c14/cache.key"
# ------------------------------------------------------ the command line
if "$KCTUI" verify --help > "$work/out" 2>&1 &&
    grep -q '^usage: kctui \[OPTIONS\] *verify -e BUNDLE' "$work/out" &&
    grep -q -- '--base-kernel ROOT' "$work/out"; then
	pass "$(R command-help)" "(kctui verify --help)"
else
	fail "$(R command-help)"; indent < "$work/out"
fi
if "$KCTUI" --version > "$work/out" 2>&1 && grep -q '^kctui [0-9]' "$work/out"; then
	pass "$(R version)" "($(cat "$work/out"))"
else
	fail "$(R version)"; indent < "$work/out"
fi
exit 0
