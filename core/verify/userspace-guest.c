/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace-guest.c - the shell that runs in the guest for verify's
 * userspace step (userspace.h), kept as C strings as helpers-shipped.c
 * keeps the workload's helpers: the part of the initramfs's /init that
 * hands the machine to the Debian root, and mmdebstrap's customize hook
 * that puts the check into that root.
 *
 * Everything the host reads is a line "@@kctui: ..." on the console:
 * "step userspace begin" (from /init, before the root is looked for, so
 * that a kernel that cannot mount it fails the step), "userspace
 * handover UPTIME", then from the root's check unit "userspace state
 * STATE", "userspace failed UNIT", "userspace log UNIT LINE", "userspace
 * time Startup finished in ...", "step userspace end rc=N", "done".
 */
#include "userspace.h"

/*
 * Sourced by verify-init.sh after the workload and its markers (the
 * modules, drivers and devices it reports are busybox's view, as
 * without the step). The root's disk is found by its serial; ext4 is
 * asked for by name (modprobe'd through the kernel's request for
 * fs-ext4). The kernel's modules go to a tmpfs over the root's
 * /lib/modules (the root is a snapshot QEMU throws away, and a tmpfs
 * needs no room on it); mv frees the initramfs's copy as it goes.
 * /dev, /proc and /sys move with the switch. Any failure ends the step
 * with rc=1 and its reason, and /init goes on to its end.
 */
const char userspace_init_sh[] =
"# kctui verify's userspace step (core/verify/userspace-guest.c), sourced\n"
"# by /init after the workload.\n"
"us_fail() {\n"
"\techo \"kctui: userspace: $*\"\n"
"\tmark \"step " USERSPACE_STEP " end rc=1\"\n"
"}\n"
"us_boot() {\n"
"\tmark \"step " USERSPACE_STEP " begin\"\n"
"\tmark \"userspace handover $(cut -d' ' -f1 /proc/uptime)\"\n"
"\tdev=\n"
"\tfor i in 1 2 3 4 5 6 7 8 9 10; do\n"
"\t\tdev=$(disk " USERSPACE_SERIAL ") && break\n"
"\t\tsleep 1\n"
"\tdone\n"
"\tif [ -z \"$dev\" ]; then\n"
"\t\tus_fail \"no disk with serial " USERSPACE_SERIAL " (the root's "
"virtio-blk disk; virtio_blk or virtio_pci missing?)\"\n"
"\t\treturn\n"
"\tfi\n"
"\tmkdir -p /newroot\n"
"\tif ! mount -t ext4 -o rw \"$dev\" /newroot; then\n"
"\t\tus_fail \"cannot mount $dev as ext4 (the root's file system: "
"EXT4_FS missing?)\"\n"
"\t\treturn\n"
"\tfi\n"
"\tif [ ! -L /newroot/sbin/init ] && [ ! -x /newroot/sbin/init ]; then\n"
"\t\tus_fail \"$dev has no /sbin/init\"\n"
"\t\tumount /newroot\n"
"\t\treturn\n"
"\tfi\n"
"\tr=$(uname -r)\n"
"\tif [ -d \"/lib/modules/$r\" ]; then\n"
"\t\tmkdir -p /newroot/lib/modules\n"
"\t\tif ! mount -t tmpfs -o mode=0755 tmpfs /newroot/lib/modules; then\n"
"\t\t\tus_fail \"cannot mount a tmpfs for the modules (TMPFS "
"missing?)\"\n"
"\t\t\tumount /newroot\n"
"\t\t\treturn\n"
"\t\tfi\n"
"\t\tmv \"/lib/modules/$r\" /newroot/lib/modules/\n"
"\tfi\n"
"\tfor m in /dev /proc /sys; do\n"
"\t\tmkdir -p \"/newroot$m\"\n"
"\t\tmount --move \"$m\" \"/newroot$m\" 2>/dev/null ||\n"
"\t\t\tumount -l \"$m\" 2>/dev/null\n"
"\tdone\n"
"\techo \"kctui: userspace: switching to $dev's /sbin/init\"\n"
"\texec switch_root /newroot /sbin/init\n"
"}\n"
"us_boot\n";

/*
 * mmdebstrap's --customize-hook: run as `sh -c HOOK exec ROOT`. The
 * check is a unit with no default dependencies wanted by sysinit.target
 * (it waits from the start, so a boot that ends in emergency mode is
 * reported too: IgnoreOnIsolate keeps it running there), and prints on
 * /dev/console, the serial console (console=ttyS0 of the machine's
 * command line). It reboots when done: QEMU runs with -no-reboot, so
 * that ends it even on a kernel without ACPI. A machine-id made here
 * (not a first boot: systemd-firstboot would ask questions on the
 * console), and firstboot masked all the same.
 */
const char userspace_hook_sh[] =
"set -e\n"
"r=$1\n"
"mkdir -p \"$r/usr/local/sbin\" \"$r/etc/systemd/system/sysinit.target.wants\"\n"
"cat > \"$r/usr/local/sbin/kctui-userspace\" <<'EOF'\n"
"#!/bin/sh\n"
"# kctui verify's userspace check (core/verify/userspace-guest.c): what\n"
"# systemd reached, on the serial console, then the end of the machine.\n"
"say() { echo \"@@kctui: $*\" > /dev/console; }\n"
"state=$(timeout 300 systemctl is-system-running --wait 2>/dev/null)\n"
"[ -n \"$state\" ] || state=unknown\n"
"say \"userspace state $state\"\n"
"systemctl list-units --state=failed --plain --no-legend --no-pager "
"--full 2>/dev/null |\n"
"while read -r unit rest; do\n"
"\tsay \"userspace failed $unit\"\n"
"\tjournalctl -b -u \"$unit\" -o cat -n 15 --no-pager 2>/dev/null |\n"
"\twhile IFS= read -r line; do\n"
"\t\tsay \"userspace log $unit $line\"\n"
"\tdone\n"
"done\n"
"systemd-analyze time --no-pager 2>/dev/null | head -n 1 |\n"
"while IFS= read -r line; do say \"userspace time $line\"; done\n"
"case $state in running|degraded) rc=0 ;; *) rc=1 ;; esac\n"
"say \"step " USERSPACE_STEP " end rc=$rc\"\n"
"say done\n"
"sync\n"
"systemctl --no-block reboot\n"
"sleep 120\n"
"echo b > /proc/sysrq-trigger\n"
"EOF\n"
"chmod 755 \"$r/usr/local/sbin/kctui-userspace\"\n"
"cat > \"$r/etc/systemd/system/kctui-userspace.service\" <<'EOF'\n"
"[Unit]\n"
"Description=kctui verify: the userspace check\n"
"DefaultDependencies=no\n"
"IgnoreOnIsolate=yes\n"
"\n"
"[Service]\n"
"Type=simple\n"
"ExecStart=/usr/local/sbin/kctui-userspace\n"
"\n"
"[Install]\n"
"WantedBy=sysinit.target\n"
"EOF\n"
"ln -sf ../kctui-userspace.service "
"\"$r/etc/systemd/system/sysinit.target.wants/kctui-userspace.service\"\n"
"ln -sf /dev/null \"$r/etc/systemd/system/systemd-firstboot.service\"\n"
"echo kctui-userspace > \"$r/etc/hostname\"\n"
"rm -f \"$r/etc/machine-id\"\n"
"chroot \"$r\" systemd-machine-id-setup\n";
