#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/userspace.sh - the root of kctui verify's userspace step
# (core/verify/userspace-root.c): made by mmdebstrap from Debian's
# packages for the cloud-vm bundle's release (bookworm, amd64), in the
# kctui cache ($KCTUI_CACHE/userspace, kept between runs: the first run
# on a machine pays for it, about 90 s), an ext4 image with systemd,
# udev, kmod and kctui's check unit; asked again it is the same file,
# untouched (never made again by surprise); a failed making leaves
# nothing behind, and says what failed.
#
# Booting it is too long for make check's budget under TCG (Debian's
# 6.1 kernel with its 400 MB of modules: about 140 s for the boot alone
# on 2 cores): tests/bench/userspace.sh boots the baseline into it, and
# tests/unit/test_userspace.c judges consoles recorded from such boots.
#
#   KCTUI=/path/to/kctui tests/real/userspace.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup userspace
kctui_need_binary "real/userspace$sfx"
kctui_tree_or_fail "real/userspace$sfx" "$work/tree.log"
export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}
export KCTUI_CACHE

for p in mmdebstrap genext2fs debugfs dumpe2fs; do
	command -v $p > /dev/null 2>&1 ||
		{ fail "real/userspace$sfx" "$p not installed (make deps installs it)"; exit 0; }
done

kr() { # kr ARGS...: kctui verify --userspace-root on the cloud-vm bundle
	set +e
	nice -n 10 "$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" verify -e "$BUNDLE" \
		--userspace-root "$@" > "$work/out" 2> "$work/err"
	rc=$?
	set -e
}
set -e
t0=$(now_ns)
kr
secs=$(elapsed_since "$t0")
img=$(sed -n 's/ (Debian .*//p' "$work/out")
set +e
if [ $rc -eq 0 ] && [ -f "$img" ] && grep -q "(Debian bookworm, amd64: " "$work/out" &&
   [ "$(dirname "$img")" = "$KCTUI_CACHE/userspace" ]; then
	pass "real/userspace-root$sfx" "($(sed 's/^[^(]*//' "$work/out") in ${secs} s)"
else
	fail_with "real/userspace-root$sfx" "exit $rc" cat "$work/out" "$work/err"
	exit 0
fi

# ext4 (the guest mounts it as such), with a journal and extents
feat=$(dumpe2fs -h "$img" 2> /dev/null | sed -n 's/^Filesystem features: *//p')
case " $feat " in
*" has_journal "*" extent"*) pass "real/userspace-root-ext4$sfx" ;;
*) fail "real/userspace-root-ext4$sfx" "features: $feat" ;;
esac

# What the step needs in it: systemd as /sbin/init, udev, kmod, the check
# wanted by sysinit.target, a machine-id, firstboot masked.
de() { debugfs -R "$1" "$img" 2> /dev/null; }
missing=
for f in /usr/lib/systemd/systemd /usr/bin/udevadm /usr/bin/kmod \
    /usr/bin/systemctl /usr/bin/systemd-analyze \
    /usr/local/sbin/kctui-userspace /etc/systemd/system/kctui-userspace.service; do
	de "stat $f" | grep -q "^Inode:" || missing="$missing $f"
done
de "stat /usr/sbin/init" | grep -q "Type: symlink" || missing="$missing /sbin/init"
[ -z "$missing" ] && pass "real/userspace-root-content$sfx" ||
	fail "real/userspace-root-content$sfx" "missing:$missing"
if de "stat /etc/systemd/system/sysinit.target.wants/kctui-userspace.service" |
	grep -q 'Fast link dest: "../kctui-userspace.service"' &&
   de "cat /etc/systemd/system/kctui-userspace.service" |
	grep -q "ExecStart=/usr/local/sbin/kctui-userspace" &&
   de "cat /usr/local/sbin/kctui-userspace" | grep -q "is-system-running --wait" &&
   [ "$(de "cat /etc/hostname")" = kctui-userspace ]; then
	pass "real/userspace-root-check-unit$sfx"
else
	fail "real/userspace-root-check-unit$sfx" "the check unit is not wanted by sysinit.target"
fi
de "cat /var/lib/dpkg/status" > "$work/status"
for p in systemd systemd-sysv udev kmod; do
	grep -A2 "^Package: $p\$" "$work/status" | grep -q "^Status: install ok installed" ||
		{ fail "real/userspace-root-packages$sfx" "$p not installed in the root"; p=; break; }
done
[ -n "$p" ] && pass "real/userspace-root-packages$sfx" \
	"(systemd $(grep -A8 '^Package: systemd$' "$work/status" | sed -n 's/^Version: //p'))"

# Asked again: the same file, not made again (same inode and time).
before=$(stat -c '%i %Y %s' "$img")
t0=$(now_ns)
kr
secs=$(elapsed_since "$t0")
if [ $rc -eq 0 ] && grep -q ": cached, " "$work/out" && [ "$(stat -c '%i %Y %s' "$img")" = "$before" ]; then
	pass "real/userspace-root-cached$sfx" "(${secs} s)"
else
	fail_with "real/userspace-root-cached$sfx" "exit $rc, $(stat -c '%i %Y %s' "$img") was $before" cat "$work/out"
fi

# A making that fails (an mmdebstrap that writes half a file and dies):
# exit 1 naming it, no root and no temporary file left in that cache.
mkdir -p "$work/bin" "$work/cache2"
printf '#!/bin/sh\nfor a; do t=$a; done\necho partial > "$t"\necho "E: cannot download" >&2\nexit 3\n' \
	> "$work/bin/mmdebstrap"
chmod +x "$work/bin/mmdebstrap"
PATH=$work/bin:$PATH KCTUI_CACHE=$work/cache2 kr
if [ $rc -eq 1 ] && grep -q "mmdebstrap exited with status 3: E: cannot download" "$work/err" &&
   [ -z "$(ls -A "$work/cache2/userspace")" ]; then
	pass "real/userspace-root-fails-clean$sfx"
else
	fail_with "real/userspace-root-fails-clean$sfx" "exit $rc; left: $(ls -A "$work/cache2/userspace" 2>&1)" cat "$work/err"
fi
exit 0
