/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_vm.c - the guest side of kctui verify: the vm and workload files
 * (every error with its PATH:LINE), the console marker parser, the newc
 * initramfs (listed and unpacked with the system's cpio, then run in a
 * chroot), and vm_run against a fake QEMU (a script printing a console).
 *
 * With KCTUI_VM_KERNEL set (not in the normal run) it also boots for
 * real: KCTUI_VM_KERNEL (a bzImage), KCTUI_VM_STAGING (a directory with
 * lib/modules/RELEASE), KCTUI_VM_RELEASE, KCTUI_VM_SPEC (a vm file),
 * KCTUI_VM_WORKLOAD (a workload), KCTUI_VM_DIR (scratch), and prints
 * what the guest reported on "# " lines.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <errno.h>

#define UNIT_PREFIX "vm/"
#include "unit.h"

#include "../../lib/strmap.h"
#include "../../core/verify/verify.h"
#include "../../core/machine/vm-allow.h"
#include "../../core/evidence/evidence.h"
#include "../../core/verify/verify-informed.h"
#include "../../core/kbuild/kbuild.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"

/* A string for printf, never NULL. */
#define S(x)	((x) != NULL ? (x) : "(none)")

#define FIXTURE	"tests/fixtures/evidence/cloud-vm"

/* Write text to dir/name; the path (malloc'd). */
static char *
put(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);

	if (!unit_write_file(p, text))
		printf("# could not write %s\n", p);
	return p;
}

/* A vm file with every directive loads into the spec it describes. */
static void
test_spec_ok(const char *dir)
{
	struct vm_spec	 s;
	char		*cause = NULL, *p;
	int		 ok;

	p = put(dir, "vm", "# the recorded machine\n"
	    "arch x86_64\n"
	    "machine q35\n"
	    "\n"
	    "cpu max,vendor=GenuineIntel\n"
	    "smp 2\n"
	    "memory 4096   \n"
	    "cmdline console=ttyS0  quiet\n"
	    "\t# indented comment\n"
	    "disk work 512M ext4 virtio-blk-pci\n"
	    "disk raw 4G none virtio-blk-pci\n"
	    "disk sata 64M vfat ide-hd,bus=ide.0\n"
	    "netdev user,id=net0\n"
	    "device virtio-net-pci,netdev=net0\n"
	    "object rng-random,filename=/dev/urandom,id=rng0\n");
	if (vm_spec_load(&s, p, &cause) != 0) {
		check("spec-ok", 0, cause);
		free(cause);
		free(p);
		return;
	}
	ok = strcmp(s.arch, "x86_64") == 0 && strcmp(s.machine, "q35") == 0 &&
	    strcmp(s.cpu, "max,vendor=GenuineIntel") == 0 && s.smp == 2 &&
	    s.memory == 4096 && strcmp(s.cmdline, "console=ttyS0  quiet") == 0;
	check("spec-ok", ok, s.cmdline);
	ok = s.ndisks == 3 && strcmp(s.disks[0].name, "work") == 0 &&
	    s.disks[0].size == 512ULL << 20 &&
	    strcmp(s.disks[0].fstype, "ext4") == 0 &&
	    strcmp(s.disks[0].device, "virtio-blk-pci") == 0 &&
	    s.disks[1].size == 4ULL << 30 &&
	    strcmp(s.disks[1].fstype, "none") == 0 &&
	    strcmp(s.disks[2].fstype, "vfat") == 0 &&
	    strcmp(vm_disk_mkfs("vfat"), "mkfs.vfat") == 0 &&
	    strcmp(vm_disk_mkfs("ext3"), "mkfs.ext3") == 0 &&
	    vm_disk_mkfs("none") == NULL;
	check("spec-disks", ok, NULL);
	ok = s.nargs == 6 && strcmp(s.args[0], "-netdev") == 0 &&
	    strcmp(s.args[1], "user,id=net0,restrict=on") == 0 &&
	    strcmp(s.args[2], "-device") == 0 &&
	    strcmp(s.args[4], "-object") == 0 &&
	    strcmp(s.args[5], "rng-random,filename=/dev/urandom,id=rng0") == 0;
	check("spec-args", ok, NULL);
	vm_spec_free(&s);
	free(p);
}

/* Each broken vm file fails with exactly this message after "PATH". */
static void
test_spec_errors(const char *dir)
{
	static const char *const base = "arch x86_64\nmachine q35\n"
	    "memory 64\n";
	static const struct {
		const char	*name, *text, *msg;
	} cases[] = {
		{ "unknown", "bogus 1\n", ":4: unknown directive 'bogus'" },
		{ "missing-arg", "smp\n", ":4: 'smp' needs a number" },
		{ "extra-arg", "cpu max extra\n", ":4: 'cpu' takes only one "
		    "value (extra 'extra'; QEMU options have no spaces)" },
		{ "bad-number", "smp two\n", ":4: bad number 'two' for 'smp' "
		    "(1 to 288)" },
		{ "zero", "smp 0\n", ":4: bad number '0' for 'smp' (1 to "
		    "288)" },
		{ "duplicate", "memory 128\n", ":4: 'memory' given twice "
		    "(first at line 3)" },
		{ "dash", "device -kernel\n", ":4: 'device' options must not "
		    "start with '-': -kernel" },
		{ "space", "netdev user, id=x\n", ":4: 'netdev' takes only "
		    "one option string (extra 'id=x'; QEMU options have no "
		    "spaces)" },
		{ "disk-args", "disk work 1G ext4\n", ":4: 'disk' needs NAME "
		    "SIZE FSTYPE DEVICE" },
		{ "disk-size", "disk work 1X ext4 virtio-blk-pci\n", ":4: bad "
		    "size '1X' for 'disk' (a number with K, M, G or T, e.g. "
		    "512M)" },
		{ "disk-fs", "disk work 1G xfs virtio-blk-pci\n", ":4: unknown "
		    "file system 'xfs' for disk 'work' (ext2, ext3, ext4, vfat or "
		    "none)" },
		{ "disk-name", "disk a,b 1G ext4 virtio-blk-pci\n", ":4: bad "
		    "disk name 'a,b' (letters, digits, '_', '.', '-')" },
		{ "disk-twice", "disk a 1G ext4 virtio-blk-pci\ndisk a 1G ext4 "
		    "virtio-blk-pci\n", ":5: disk 'a' given twice" },
		/* The allow-list: what a hostile bundle tried. */
		{ "allow-tap", "netdev tap,id=n0,script=/tmp/x\n", ":4: netdev "
		    "'tap' is not allowed: user-mode networking only (netdev "
		    "user,id=NAME), nothing that reaches the host's network "
		    "or sockets" },
		{ "allow-guestfwd", "netdev user,id=n0,guestfwd=tcp:10.0.2.9:1"
		    "-cmd:sh\n", ":4: netdev 'user': 'guestfwd' is not allowed "
		    "(can run a host command)" },
		{ "allow-smb", "netdev user,id=n0,smb=/\n", ":4: netdev "
		    "'user': 'smb' is not allowed (QEMU would run a host smbd "
		    "on a host directory)" },
		{ "allow-mem-path", "object memory-backend-file,id=m,mem-path="
		    "/etc/passwd,share=on\n", ":4: object 'memory-backend-file'"
		    " is not allowed (rng-random, rng-builtin, "
		    "cryptodev-backend-builtin)" },
		{ "allow-rng-file", "object rng-random,id=r,filename=/etc/"
		    "shadow\n", ":4: object 'rng-random': filename must be "
		    "/dev/urandom or /dev/random, not '/etc/shadow'" },
		{ "allow-drive", "device e1000,drive=work\n", ":4: device "
		    "'e1000': 'drive' is not allowed (disks are given with "
		    "'disk' lines, which make their drives)" },
		{ "allow-disk-as-device", "device virtio-blk-pci\n", ":4: device "
		    "'virtio-blk-pci' is a disk: give it with 'disk NAME SIZE "
		    "FSTYPE virtio-blk-pci'" },
		{ "allow-vfio", "device vfio-pci,host=01:00.0\n", ":4: device "
		    "'vfio-pci' is not one kctui allows (guest hardware only: "
		    "docs/evidence.md lists them)" },
		{ "allow-chardev", "device usb-kbd,chardev=c0\n", ":4: device "
		    "'usb-kbd': 'chardev' is not allowed (a chardev is a host "
		    "file, socket or terminal)" },
		{ "allow-romfile", "device e1000,romfile=/etc/passwd\n", ":4: "
		    "device 'e1000': 'romfile' is not allowed (a ROM file is "
		    "read from the host)" },
		{ "allow-bad-value", "device e1000,mac=52:54:00:12:34:56,id=a/b"
		    "\n", ":4: device 'e1000': bad value 'a/b' for 'id' "
		    "(letters, digits, '_', '.', ':', '+', '-')" },
		{ "allow-escaped-comma", "device e1000,id=a,,b\n", ":4: ',,' "
		    "(QEMU's escaped comma) is not allowed in 'e1000,id=a,,b'" },
		{ "allow-netdev-ref", "device e1000,netdev=nope\n", ":4: "
		    "netdev=nope names no netdev line's id" },
		{ "allow-audiodev", "audiodev pa,id=a0\n", ":4: audiodev 'pa' "
		    "is not allowed: 'none' only (the guest plays to nowhere; "
		    "no host sound or file)" },
		{ "allow-disk-serial", "disk w 1G ext4 virtio-blk-pci,serial="
		    "x\n", ":4: device 'virtio-blk-pci': 'serial' is not "
		    "allowed (kctui sets a disk's serial to its NAME)" },
		{ "allow-disk-device", "disk w 1G ext4 e1000\n", ":4: 'e1000' "
		    "is not a disk device kctui allows (virtio-blk-pci, "
		    "scsi-hd, ide-hd, nvme, nvme-ns, usb-storage, ...: "
		    "docs/evidence.md)" },
		{ "legacy-unknown", "legacy floppy\n", ":4: unknown legacy "
		    "device 'floppy' (parallel or serial)" },
		{ "allow-cmdline-control", "cmdline console=ttyS0 \x1b[2J\n",
		    ":4: 'cmdline' contains a control character" },
		{ "accel", "machine pc\n", ":4: 'machine' given twice (first "
		    "at line 2)" },
		{ "no-console", "cmdline quiet\n", ":4: 'cmdline' has no "
		    "console= (the markers are read from the serial console)" },
		{ "no-cmdline", "smp 1\n", ": no 'cmdline' line (required: "
		    "arch, machine, memory, cmdline)" },
	};
	struct vm_spec	 s;
	size_t		 i;
	char		*p, *text, *cause, *want;

	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		text = xasprintf("%s%s%s", base, cases[i].text,
		    strcmp(cases[i].name, "no-cmdline") == 0 ||
		    strcmp(cases[i].name, "no-console") == 0 ||
		    strcmp(cases[i].name, "allow-cmdline-control") == 0 ? "" :
		    "cmdline console=ttyS0\n");
		p = put(dir, "vm", text);
		want = xasprintf("%s%s", p, cases[i].msg);
		cause = NULL;
		checkf(cases[i].name, vm_spec_load(&s, p, &cause) == -1 &&
		    cause != NULL && strcmp(cause, want) == 0,
		    "got '%s', want '%s'", S(cause), want);
		free(cause);
		free(want);
		free(text);
		free(p);
	}
	p = put(dir, "vm", "arch x86_64\nmachine q35,kernel=/x,append=y\n");
	cause = NULL;
	want = xasprintf("%s:2: machine 'q35': 'kernel' is not allowed (kctui "
	    "gives the kernel itself)", p);
	checkf("allow-machine-kernel", vm_spec_load(&s, p, &cause) == -1 &&
	    cause != NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	free(p);
	p = xasprintf("%s/vm", dir);
	{
		FILE *f = fopen(p, "w");

		fwrite("arch x86_64\nmachine q35\nmem\0ory 64\n", 1, 35, f);
		fclose(f);
	}
	cause = NULL;
	want = xasprintf("%s:3: not a text file (a NUL byte)", p);
	checkf("spec-nul", vm_spec_load(&s, p, &cause) == -1 && cause !=
	    NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	unlink(p);
	if (mkfifo(p, 0600) == 0) {
		cause = NULL;
		want = xasprintf("%s: not a regular file", p);
		checkf("spec-fifo", vm_spec_load(&s, p, &cause) == -1 &&
		    cause != NULL && strcmp(cause, want) == 0, "got '%s'",
		    S(cause));
		free(cause);
		free(want);
		unlink(p);
	} else
		check("spec-fifo", 0, "mkfifo failed");
	free(p);
	p = put(dir, "vm", "arch x86_64\nmachine q35,accel=kvm\n");
	cause = NULL;
	want = xasprintf("%s:2: 'machine' must not set accel= (kctui chooses "
	    "kvm or tcg)", p);
	checkf("spec-accel", vm_spec_load(&s, p, &cause) == -1 && cause !=
	    NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	free(p);
}

/* Symbols joined by ",". */
static void
join_sym(void *arg, const char *sym)
{
	struct strbuf *sb = arg;

	strbuf_addf(sb, "%s%s", sb->len ? "," : "", sym);
}

/*
 * Informed fill-back's reading of a failed boot: kmod's FATAL line for a
 * module name and for a request_module alias, an unknown file system
 * type, a lost driver; each mapped through modules.alias and the Kbuild
 * index to the options that build it.
 */
static void
test_informed(void)
{
	static const char console[] =
	    "[    1.2] Run /init as init process\r\n"
	    "@@kctui: step module begin\n"
	    "modprobe: FATAL: Module binfmt_misc not found in directory "
	    "/lib/modules/6.1.192\r\n"
	    "modprobe: FATAL: Module fs-vfat not found in directory "
	    "/lib/modules/6.1.192\n"
	    "mount: unknown filesystem type 'vfat'\n"
	    "modprobe: module loop not found in modules.dep\n"
	    "modprobe: FATAL: Module binfmt_misc not found in directory x\n";
	static const char aliases[] =
	    "# Aliases extracted from modules themselves.\n"
	    "alias fs-vfat vfat\n"
	    "alias pci:v00008086d0000100Esv*sd*bc*sc*i* e1000\n";
	struct verify_named	 nm;
	struct evidence		*al = evidence_new();
	struct kbuild		*kb = kbuild_new_empty();
	struct strbuf		 sb;
	const char		*t;
	size_t			 n;

	t = "obj-$(CONFIG_BINFMT_MISC) += binfmt_misc.o\n";
	kbuild_parse_text(kb, "fs", t, strlen(t));
	t = "obj-$(CONFIG_VFAT_FS) += vfat.o\nvfat-y := namei_vfat.o\n";
	kbuild_parse_text(kb, "fs/fat", t, strlen(t));
	t = "obj-$(CONFIG_E1000) += e1000.o\ne1000-objs := e1000_main.o\n";
	kbuild_parse_text(kb, "drivers/net/ethernet/intel/e1000", t,
	    strlen(t));
	memset(&nm, 0, sizeof nm);
	verify_named_scan(&nm, console);
	verify_named_lost(&nm, "pci e1000 0000:00:02.0");
	checkf("informed-scan", nm.n == 4 &&
	    strcmp(nm.v[0].name, "binfmt_misc") == 0 &&
	    strcmp(nm.v[1].name, "fs-vfat") == 0 &&
	    strcmp(nm.v[2].name, "loop") == 0 &&
	    strcmp(nm.v[3].name, "e1000") == 0 &&
	    strncmp(nm.v[0].why, "modprobe: FATAL: Module binfmt_misc", 35) ==
	    0 && strstr(nm.v[3].why, "lost its driver") != NULL,
	    "%zu named: %s, %s", nm.n, nm.n > 0 ? nm.v[0].name : "",
	    nm.n > 1 ? nm.v[1].name : "");
	strbuf_init(&sb);
	/* the aliases read as verify reads the bundle's: the evidence's */
	evidence_read_aliases(al, -1, aliases, strlen(aliases));
	n = verify_named_options(kb, al, "binfmt_misc", join_sym, &sb);
	checkf("informed-module", n == 1 && sb.s != NULL &&
	    strcmp(sb.s, "BINFMT_MISC") == 0, "%zu objects: %s", n, S(sb.s));
	strbuf_free(&sb);
	strbuf_init(&sb);
	n = verify_named_options(kb, al, "fs-vfat", join_sym, &sb);
	checkf("informed-alias", n >= 1 && sb.s != NULL &&
	    strstr(sb.s, "VFAT_FS") != NULL, "%zu objects: %s", n, S(sb.s));
	strbuf_free(&sb);
	strbuf_init(&sb);
	n = verify_named_options(kb, NULL, "fs-nonexistent", join_sym, &sb);
	check("informed-unknown", n == 0 && sb.len == 0, sb.s);
	strbuf_free(&sb);
	verify_named_free(&nm);
	evidence_free(al);
	kbuild_free(kb);
}

/* The devices step: a device whose path moved (QEMU's default parallel
 * port gone under -nodefaults, every later ISA device up by one: seen on
 * a desktop-like bundle) is matched by bus and driver, not lost. */
static void
test_match_devices(void)
{
	static const struct vm_driver want[] = {
		{ "pnp", "parport_pc", "pnp0/00:02" },
		{ "pnp", "serial", "pnp0/00:03" },
		{ "pnp", "rtc_cmos", "pnp0/00:04" },
		{ "pnp", "system", "pnp0/00:05" },
		{ "pci", "e1000", "pci0000:00/0000:00:02.0" },
		{ "pci", "snd_hda_intel", "pci0000:00/0000:00:1b.0" },
	};
	static const struct vm_driver have[] = {
		{ "pnp", "serial", "pnp0/00:02" },
		{ "pnp", "rtc_cmos", "pnp0/00:03" },
		{ "pnp", "system", "pnp0/00:04" },
		{ "pci", "e1000", "pci0000:00/0000:00:02.0" },
		{ "pci", "ahci", "pci0000:00/0000:00:1b.0" },
	};
	bool	lost[6];

	verify_match_devices(want, 6, have, 5, lost);
	checkf("devices-moved", lost[0] && !lost[1] && !lost[2] && !lost[3] &&
	    !lost[4] && lost[5], "lost %d %d %d %d %d %d", lost[0], lost[1],
	    lost[2], lost[3], lost[4], lost[5]);
}

/* Lines of the desktop-vm bundle's drivers and modalias files (recorded
 * by tests/evidence/record-vm.sh, RECORD_MACHINE=desktop). */
static const struct vm_driver desk_want[] = {
	{ "pci", "xhci_hcd", "pci0000:00/0000:00:01.0" },
	{ "usb", "usb", "pci0000:00/0000:00:01.0/usb2" },
	{ "usb", "usb", "pci0000:00/0000:00:01.0/usb2/2-1" },
	{ "usb", "usb-storage", "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0" },
	{ "scsi", "sd", "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0/host6/"
	  "target6:0:0/6:0:0:0" },
	{ "pci", "e1000", "pci0000:00/0000:00:02.0" },
	{ "pci", "ahci", "pci0000:00/0000:00:1f.2" },
};
#define DESK_N (sizeof desk_want / sizeof desk_want[0])
static const char *const desk_alias[][2] = {
	{ "pci0000:00/0000:00:01.0",
	  "pci:v00001B36d0000000Dsv00001AF4sd00001100bc0Csc03i30" },
	{ "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0",
	  "usb:v46F4p0001d0000dc00dsc00dp00ic08isc06ip50in00" },
	{ "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0",
	  "scsi:t-0x00" },
	{ "pci0000:00/0000:00:02.0",
	  "pci:v00008086d0000100Esv00001AF4sd00001100bc02sc00i00" },
};

/* Run the devices step's two passes over desk_want; "L" lost, "A"
 * absent, "-" bound, one letter per device. */
static void
absent_run(const struct vm_driver *bound, size_t nbound,
    const struct vm_device *have, size_t nhave, char *out)
{
	struct strmap	m;
	bool		lost[DESK_N], absent[DESK_N];
	size_t		i;

	strmap_init(&m);
	for (i = 0; i < sizeof desk_alias / sizeof desk_alias[0]; i++)
		strmap_set(&m, desk_alias[i][0], strlen(desk_alias[i][0]),
		    (void *)desk_alias[i][1]);
	verify_match_devices(desk_want, DESK_N, bound, nbound, lost);
	verify_absent_devices(desk_want, DESK_N, lost, &m, have, nhave, bound,
	    nbound, absent);
	for (i = 0; i < DESK_N; i++)
		out[i] = !lost[i] ? '-' : absent[i] ? 'A' : 'L';
	out[DESK_N] = '\0';
	strmap_free(&m);
}

/* A device the booted machine does not have is its difference, not a
 * lost driver: the USB stick missing under a bound xhci is absent; with
 * xhci trimmed (its PCI device there, unbound) the controller and all
 * below it are lost; the e1000 gone from the machine is absent, but
 * there under another path without a driver it is lost. */
static void
test_absent_devices(void)
{
	static const struct vm_driver bound_nostick[] = {
		{ "pci", "xhci_hcd", "pci0000:00/0000:00:01.0" },
		{ "usb", "usb", "pci0000:00/0000:00:01.0/usb2" },
		{ "pci", "e1000", "pci0000:00/0000:00:02.0" },
		{ "pci", "ahci", "pci0000:00/0000:00:1f.2" },
	};
	static const struct vm_device dev_all[] = {
		{ "pci0000:00/0000:00:01.0",
		  "pci:v00001B36d0000000Dsv00001AF4sd00001100bc0Csc03i30" },
		{ "pci0000:00/0000:00:02.0",
		  "pci:v00008086d0000100Esv00001AF4sd00001100bc02sc00i00" },
		{ "pci0000:00/0000:00:1f.2",
		  "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01" },
	};
	static const struct vm_driver bound_noxhci[] = {
		{ "pci", "e1000", "pci0000:00/0000:00:02.0" },
		{ "pci", "ahci", "pci0000:00/0000:00:1f.2" },
	};
	static const struct vm_driver bound_nonic[] = {
		{ "pci", "xhci_hcd", "pci0000:00/0000:00:01.0" },
		{ "usb", "usb", "pci0000:00/0000:00:01.0/usb2" },
		{ "usb", "usb", "pci0000:00/0000:00:01.0/usb2/2-1" },
		{ "usb", "usb-storage",
		  "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0" },
		{ "scsi", "sd", "pci0000:00/0000:00:01.0/usb2/2-1/2-1:1.0/host6/"
		  "target6:0:0/6:0:0:0" },
		{ "pci", "ahci", "pci0000:00/0000:00:1f.2" },
	};
	static const struct vm_device dev_nonic[] = {
		{ "pci0000:00/0000:00:01.0",
		  "pci:v00001B36d0000000Dsv00001AF4sd00001100bc0Csc03i30" },
		{ "pci0000:00/0000:00:1f.2",
		  "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01" },
	};
	static const struct vm_device dev_nicmoved[] = {
		{ "pci0000:00/0000:00:01.0",
		  "pci:v00001B36d0000000Dsv00001AF4sd00001100bc0Csc03i30" },
		{ "pci0000:00/0000:00:03.0",
		  "pci:v00008086d0000100Esv00001AF4sd00001100bc02sc00i00" },
	};
	char	out[DESK_N + 1];

	absent_run(bound_nostick, 4, dev_all, 3, out);
	check("absent-stick", strcmp(out, "--AAA--") == 0, out);
	absent_run(bound_noxhci, 2, dev_all, 3, out);
	check("absent-xhci-trimmed", strcmp(out, "LLLLL--") == 0, out);
	absent_run(bound_nonic, 6, dev_nonic, 2, out);
	check("absent-nic", strcmp(out, "-----A-") == 0, out);
	absent_run(bound_nonic, 6, dev_nicmoved, 2, out);
	check("absent-nic-unbound-elsewhere", strcmp(out, "-----L-") == 0,
	    out);
	/* no device lines (an older guest /init): all stay lost */
	absent_run(bound_noxhci, 2, NULL, 0, out);
	check("absent-unknown", strcmp(out, "LLLLL--") == 0, out);
}

/* The report's verdict: exactly one of "Verified" and "Not verified",
 * for each outcome with and without a KVM failure (a dangling else once
 * printed both for every verified run, and neither for a failed one
 * after KVM failed). */
static void
test_report_verdict(void)
{
	static const struct {
		const char	*name;
		bool		 passed;
		const char	*kvm;
	} cases[] = {
		{ "verdict-pass", true, NULL },
		{ "verdict-pass-kvm", true, "KVM internal error. Suberror: 1" },
		{ "verdict-fail", false, NULL },
		{ "verdict-fail-kvm", false, "KVM internal error. Suberror: 1" },
	};
	struct workload	 w;
	struct verify	 v;
	char		*text, *steps[] = { "net" };
	size_t		 i;
	bool		 ver, notver, kvm;

	memset(&w, 0, sizeof w);
	w.path = "workload";
	w.steps = steps;
	w.nsteps = 1;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&v, 0, sizeof v);
		v.base = "base.config";
		v.trimmed = "trimmed.config";
		v.bundle = "bundle";
		v.workload = &w;
		v.result.cur = -1;
		v.passed = cases[i].passed;
		v.kvm_error = cases[i].kvm != NULL ? xstrdup(cases[i].kvm) :
		    NULL;
		v.failure = cases[i].passed ? NULL : xstrdup("net");
		text = verify_report(&v);
		ver = strstr(text, "**Verified**") != NULL;
		notver = strstr(text, "**Not verified**: the last probe failed "
		    "at net.") != NULL;
		kvm = strstr(text, "/dev/kvm is there but QEMU could not run") !=
		    NULL;
		checkf(cases[i].name, ver == cases[i].passed && notver ==
		    !cases[i].passed && kvm == (cases[i].kvm != NULL),
		    "verified %d, not verified %d, kvm %d", ver, notver, kvm);
		free(text);
		free(v.kvm_error);
		free(v.failure);
	}
}

/* Every device of the allow-list is in docs/evidence.md, as `NAME`
 * (the doc is the list users read; the table is what kctui checks). */
static void
test_allow_doc(void)
{
	char		*doc, *needle;
	const char	*name;
	bool		 disk;
	size_t		 i, missing = 0;
	char		 first[64] = "";

	if ((doc = file_read_all("docs/evidence.md", NULL)) == NULL) {
		check("allow-doc", 0, "docs/evidence.md not readable");
		return;
	}
	for (i = 0; (name = vm_allow_device_at(i, &disk)) != NULL; i++) {
		needle = xasprintf("`%s`", name);
		if (strstr(doc, needle) == NULL && missing++ == 0)
			snprintf(first, sizeof first, "%s", name);
		free(needle);
	}
	checkf("allow-doc", i > 50 && missing == 0, "%zu devices, %zu not "
	    "in docs/evidence.md (first: %s)", i, missing, first);
	free(doc);
}

/* Steps in order, helpers found; no steps, a duplicate, a bad name. */
static void
test_workload(const char *dir)
{
	struct workload	 w;
	char		*p, *d, *cause = NULL, *want;
	int		 ok;

	d = xasprintf("%s/workload.d", dir);
	mkdir(d, 0777);
	p = put(dir, "workload", "#!/bin/sh\n"
	    "do_net() { ping -c1 10.0.2.2; }\n"
	    "step ext4 mount /dev/vda /mnt\n"
	    "  \tstep\tnet.1 do_net\n"
	    "stepper ignored\n"
	    "echo step x y\n"
	    "step last-one false\n");
	ok = workload_load(&w, p, &cause) == 0;
	check("workload-ok", ok && w.nsteps == 3 &&
	    strcmp(w.steps[0], "ext4") == 0 &&
	    strcmp(w.steps[1], "net.1") == 0 &&
	    strcmp(w.steps[2], "last-one") == 0 && w.helpers != NULL &&
	    strcmp(w.helpers, d) == 0, cause);
	if (ok)
		workload_free(&w);
	free(p);

	p = put(dir, "workload", "echo hi\n");
	want = xasprintf("%s: no step lines (a workload marks each step with "
	    "'step NAME COMMAND...')", p);
	cause = NULL;
	checkf("workload-none", workload_load(&w, p, &cause) == -1 && cause !=
	    NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	free(p);

	p = put(dir, "workload", "step a true\n\nstep b true\nstep a false\n");
	want = xasprintf("%s:4: step a given twice (first at line 1)", p);
	cause = NULL;
	checkf("workload-dup", workload_load(&w, p, &cause) == -1 && cause !=
	    NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	free(p);

	p = put(dir, "workload", "step a/b true\n");
	want = xasprintf("%s:1: bad step name (letters, digits, '_', '.', '-', "
	    "then the command)", p);
	cause = NULL;
	checkf("workload-name", workload_load(&w, p, &cause) == -1 && cause !=
	    NULL && strcmp(cause, want) == 0, "got '%s'", S(cause));
	free(cause);
	free(want);
	free(p);
	rmdir(d);
	free(d);
}

/* The cloud-vm bundle's vm and workload files load: the recorded
 * machine, six steps, the helpers. */
static void
test_fixture(void)
{
	static const char *const names[] = { "ext4", "tmpfs", "loopback-net",
	    "virtio-net", "afalg", "processes" };
	struct vm_spec	 s;
	struct workload	 w;
	char		*cause = NULL;
	size_t		 i;
	int		 ok;

	if (access(FIXTURE "/vm", R_OK) != 0) {
		skip("fixture", "no " FIXTURE);
		return;
	}
	ok = vm_spec_load(&s, FIXTURE "/vm", &cause) == 0;
	check("fixture-vm", ok && strcmp(s.machine, "q35") == 0 &&
	    s.memory == 4096 && s.smp == 2 && s.ndisks == 2 &&
	    strcmp(s.disks[0].name, "work") == 0 && s.nargs == 10, cause);
	if (ok)
		vm_spec_free(&s);
	free(cause);
	cause = NULL;
	ok = workload_load(&w, FIXTURE "/workload", &cause) == 0 &&
	    w.nsteps == 6 && w.helpers != NULL;
	for (i = 0; ok && i < 6; i++)
		ok = strcmp(w.steps[i], names[i]) == 0;
	check("fixture-workload", ok, cause);
	if (cause == NULL)
		workload_free(&w);
	free(cause);
}

/* Feed a console transcript line by line. */
static void
feed(struct vm_result *r, const char *text)
{
	const char	*nl;

	for (; *text != '\0'; text = nl + 1) {
		nl = strchr(text, '\n');
		vm_result_line(r, text, nl - text);
	}
}

/* A console with kernel lines, interleaved markers, a failing step, a
 * step not in the workload, one never reached. */
static void
test_console(void)
{
	struct workload	 w;
	struct vm_result r;
	char		*steps[] = { "ext4", "net", "bad", "never" };

	memset(&w, 0, sizeof w);
	w.steps = steps;
	w.nsteps = 4;
	vm_result_init(&r, &w);
	feed(&r, "[    0.000000] Linux version 6.1.0\n"
	    "[    1.2] Run /init as init process\n"
	    "@@kctui: init 6.1.0-57-amd64\n"
	    "@@kctui: coldplug pass=1 modules=35\n"
	    "@@kctui: coldplug pass=2 modules=35[    6.25] kctui: coldplug "
	    "done\n"
	    "[    6.5] kctui: coldplug done\n"
	    "@@kctui: step ext4 begin\n"
	    "[    9.1] EXT4-fs (vda): mounted filesystem\n"
	    "wrote 4096 bytes\r\n"
	    "@@kctui: step ext4 end rc=0\n"
	    "[   10.0] virtio_net virtio1 eth0: renamed@@kctui: step net begin\n"
	    "PING 10.0.2.2 (10.0.2.2): 56 data bytes\n"
	    "[   11.5] random: crng init done@@kctui: step net end rc=0\n"
	    "@@kctui: step bad begin\n"
	    "@@kctui: step bad end rc=1\n"
	    "@@kctui: step extra begin\n"
	    "@@kctui: step extra end rc=0\n"
	    "@@kctui: module virtio_net\n"
	    "@@kctui: module ext4\n"
	    "@@kctui: driver pci virtio-pci pci0000:00/0000:00:01.0\n"
	    "@@kctui: driver pnp i8042 kbd pnp0/00:00\n"
	    "@@kctui: driver bogus\n"
	    "@@kctui: device pci0000:00/0000:00:1f.2 pci:v00008086d00002922sv"
	    "00001AF4sd00001100bc01sc06i01\n"
	    "@@kctui: device pnp0/00:00 pnp:dPNP0303\n"
	    "@@kctui: device lonely\n"
	    "@@kctui: done\n"
	    "[   12.0] reboot: Power down\n");
	vm_result_end(&r);
	check("console-booted", r.booted && r.finished && !r.timed_out, NULL);
	/* the boot times: the kernel's line and /init's, the first each */
	checkf("console-boot-times", r.t_init == 1.2 && r.t_coldplug == 6.25,
	    "init %g, coldplug %g", r.t_init, r.t_coldplug);
	check("console-ext4", r.steps[0].state == VM_STEP_PASS &&
	    r.steps[0].nlog == 2 && strstr(r.steps[0].log[0], "EXT4-fs") &&
	    strcmp(r.steps[0].log[1], "wrote 4096 bytes") == 0, NULL);
	check("console-net-interleaved", r.steps[1].state == VM_STEP_PASS &&
	    r.steps[1].nlog == 2 &&
	    strcmp(r.steps[1].log[1], "[   11.5] random: crng init done") == 0,
	    r.steps[1].nlog > 0 ? r.steps[1].log[0] : NULL);
	check("console-fail", r.steps[2].state == VM_STEP_FAIL &&
	    r.steps[2].rc == 1 && r.steps[2].nlog == 0, NULL);
	check("console-never", r.steps[3].state == VM_STEP_NOT_REACHED &&
	    r.steps[3].nlog == 27 &&
	    strcmp(r.steps[3].log[26], "[   12.0] reboot: Power down") == 0,
	    NULL);
	check("console-extra", r.nsteps == 5 &&
	    strcmp(r.steps[4].name, "extra") == 0 &&
	    r.steps[4].state == VM_STEP_PASS, NULL);
	check("console-devices", r.ndevices == 2 &&
	    strcmp(r.devices[0].path, "pci0000:00/0000:00:1f.2") == 0 &&
	    strcmp(r.devices[0].modalias, "pci:v00008086d00002922sv00001AF4"
	    "sd00001100bc01sc06i01") == 0 &&
	    strcmp(r.devices[1].modalias, "pnp:dPNP0303") == 0, NULL);
	check("console-modules", r.nmodules == 2 &&
	    strcmp(r.modules[1], "ext4") == 0, NULL);
	check("console-drivers", r.ndrivers == 2 &&
	    strcmp(r.drivers[0].driver, "virtio-pci") == 0 &&
	    strcmp(r.drivers[0].device, "pci0000:00/0000:00:01.0") == 0 &&
	    strcmp(r.drivers[1].bus, "pnp") == 0 &&
	    strcmp(r.drivers[1].driver, "i8042 kbd") == 0 &&
	    strcmp(r.drivers[1].device, "pnp0/00:00") == 0, NULL);
	{
		/* the bundle's drivers lines split as the markers do: a
		 * driver name with a space once lost every i8042 device */
		char l1[] = "pnp i8042 kbd pnp0/00:00 -  ";
		char l2[] = "pci virtio-pci pci0000:00/0000:00:01.0 virtio_pci";
		char l3[] = "pnp kbd -";
		char *bus, *drv, *dev;

		check("bundle-driver-space",
		    vm_driver_split(l1, &bus, &drv, &dev) == 0 &&
		    strcmp(bus, r.drivers[1].bus) == 0 &&
		    strcmp(drv, r.drivers[1].driver) == 0 &&
		    strcmp(dev, r.drivers[1].device) == 0, NULL);
		check("bundle-driver-plain",
		    vm_driver_split(l2, &bus, &drv, &dev) == 0 &&
		    strcmp(drv, r.drivers[0].driver) == 0 &&
		    strcmp(dev, r.drivers[0].device) == 0, NULL);
		check("bundle-driver-short",
		    vm_driver_split(l3, &bus, &drv, &dev) == -1, NULL);
	}
	vm_result_free(&r);

	/* the guest died inside a step: it failed, rc -1, with its lines */
	vm_result_init(&r, &w);
	feed(&r, "@@kctui: init x\n@@kctui: step ext4 begin\n"
	    "Kernel panic - not syncing: oops\n");
	vm_result_end(&r);
	check("console-died", r.booted && !r.finished &&
	    r.steps[0].state == VM_STEP_FAIL && r.steps[0].rc == -1 &&
	    r.steps[0].nlog == 1 && r.steps[1].nlog == 3, NULL);
	vm_result_free(&r);
}

/* Run a shell command; its first line of output (malloc'd, "" if none). */
static char *
run_line(const char *cmd)
{
	FILE		*f = popen(cmd, "r");
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 n;

	if (f == NULL)
		return xstrdup("");
	n = getline(&line, &cap, f);
	pclose(f);
	if (n <= 0) {
		free(line);
		return xstrdup("");
	}
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* Whether `cpio -itv` of the archive has a line matching the grep
 * pattern. */
static bool
cpio_has(const char *archive, const char *pattern)
{
	char	*cmd = xasprintf("cpio -itv < '%s' 2>/dev/null | grep -cE '%s'",
		    archive, pattern);
	char	*n = run_line(cmd);
	bool	 ok = atoi(n) > 0;

	free(cmd);
	free(n);
	return ok;
}

/* The archive unpacked by cpio: /init is the script, /dev/console a
 * device, and (as root) kmod and a helper run in a chroot. */
static void
check_unpacked(const char *wd, const char *out)
{
	struct stat	 st;
	struct strbuf	 sb;
	char		*cmd, *line, *p;
	int		 ok;

	cmd = xasprintf("mkdir -p '%s/root' && cd '%s/root' && "
	    "cpio -id --quiet < '%s'", wd, wd, out);
	ok = system(cmd) == 0;
	free(cmd);
	strbuf_init(&sb);
	p = xasprintf("%s/root/init", wd);
	check("initramfs-init-text", ok && unit_read_file(p, &sb) &&
	    strcmp(sb.s, verify_init_sh) == 0, NULL);
	free(p);
	strbuf_free(&sb);
	p = xasprintf("%s/root/dev/console", wd);
	check("initramfs-console", stat(p, &st) == 0 &&
	    S_ISCHR(st.st_mode) && major(st.st_rdev) == 5 &&
	    minor(st.st_rdev) == 1, NULL);
	free(p);
	if (geteuid() == 0) {
		cmd = xasprintf("chroot '%s/root' /sbin/modprobe "
		    "--version 2>&1", wd);
		line = run_line(cmd);
		check("initramfs-chroot-kmod", strncmp(line, "kmod "
		    "version", 12) == 0, line);
		free(line);
		free(cmd);
		cmd = xasprintf("chroot '%s/root' /bin/sh -c "
		    "'PATH=/usr/local/bin:/bin; hello' 2>&1", wd);
		line = run_line(cmd);
		check("initramfs-chroot-helper", strcmp(line,
		    "hello from helper") == 0, line);
		free(line);
		free(cmd);
	} else
		skip("initramfs-chroot-kmod", "not root");
}

/* A small initramfs (busybox, kmod, a workload with a C helper and a
 * script, no modules): listed by cpio, unpacked, run in a chroot. */
static void
test_initramfs(const char *dir)
{
	struct initramfs o;
	struct workload	 w;
	char		*wd = xasprintf("%s/ir", dir), *hd, *p, *out, *cause = NULL;
	char		*cmd;
	int		 ok;

	if (access("/usr/bin/cpio", X_OK) != 0 || access("/bin/kmod", X_OK) != 0
	    || access("/bin/busybox", X_OK) != 0) {
		skip("initramfs", "needs cpio, kmod and busybox-static");
		free(wd);
		return;
	}
	hd = xasprintf("%s/workload.d", wd);
	path_mkdir_p(hd, 0777, NULL);
	free(put(hd, "hello.c", "#include <stdio.h>\nint main(void) { "
	    "puts(\"hello from helper\"); return 0; }\n"));
	p = put(hd, "tool.sh", "#!/bin/sh\necho tool\n");
	chmod(p, 0750);
	free(p);
	p = put(wd, "workload", "step one hello\nstep two tool.sh\n");
	if (workload_load(&w, p, &cause) != 0) {
		check("initramfs", 0, cause);
		free(cause);
		free(p);
		free(hd);
		free(wd);
		return;
	}
	free(p);
	out = xasprintf("%s/initrd.cpio", wd);
	memset(&o, 0, sizeof o);
	o.out = out;
	o.workload = &w;
	o.scratch = wd;
	o.build_bundle_c = true;	/* hello.c is no helper of kctui's */
	ok = initramfs_build(&o, &cause) == 0;
	check("initramfs-build", ok, cause);
	free(cause);
	cause = NULL;
	if (ok) {
		check("initramfs-init", cpio_has(out, "^-rwxr-xr-x .* init$"), NULL);
		check("initramfs-busybox", cpio_has(out, " bin/busybox$") &&
		    cpio_has(out, "^lrwxrwxrwx .* bin/sh -> /bin/busybox$"), NULL);
		check("initramfs-kmod", cpio_has(out, "^lrwxrwxrwx .* "
		    "sbin/modprobe -> /bin/kmod$") && cpio_has(out,
		    " lib/x86_64-linux-gnu/libc.so.6$") && cpio_has(out,
		    " lib64/ld-linux-x86-64.so.2$"), NULL);
		check("initramfs-devices", cpio_has(out, "^crw------- .* 5, +1 "
		    ".* dev/console$") && cpio_has(out, "^crw-rw-rw- .* 1, +3 "
		    ".* dev/null$"), NULL);
		check("initramfs-workload", cpio_has(out, " etc/kctui/workload$")
		    && cpio_has(out, "^-rwxr-xr-x .* usr/local/bin/hello$") &&
		    cpio_has(out, "^-rwxr-x--- .* usr/local/bin/tool.sh$") &&
		    cpio_has(out, "^drwxrwxrwt .* tmp$"), NULL);
		cmd = xasprintf("cpio -it < '%s' 2>/dev/null | LC_ALL=C "
		    "sort -c", out);
		check("initramfs-sorted", system(cmd) == 0, NULL);
		free(cmd);
		check_unpacked(wd, out);
	}
	/* a dynamic busybox is refused, and nothing is left behind */
	o.busybox = "/bin/kmod";
	o.out = p = xasprintf("%s/bad.cpio", wd);
	cause = NULL;
	checkf("initramfs-not-static", initramfs_build(&o, &cause) == -1 &&
	    cause != NULL && strcmp(cause, "/bin/kmod is not static (apt-get "
	    "install busybox-static)") == 0 && access(p, F_OK) != 0, "got %s",
	    S(cause));
	free(cause);
	free(p);
	workload_free(&w);
	free(out);
	free(hd);
	free(wd);
}

/* Progress events, joined by ",". */
static void
progress(void *arg, const char *event)
{
	struct strbuf	*sb = arg;

	if (sb->len > 0)
		strbuf_addc(sb, ',');
	strbuf_adds(sb, event);
}

/*
 * /dev/kvm opens but KVM cannot run the guest (both seen nested under
 * Firecracker): QEMU says so and pauses the guest, or spins without a
 * word. Either way the boot is stopped (at once, or after the silence
 * allowed) and run again under TCG, saying why; with a memo, later runs
 * in this boot of the host go to TCG at once.
 */
static void
test_kvm_fallback(const struct vm_boot *base, const char *dir)
{
	static const struct {
		const char	*name, *kvm_lines, *error;
	} cases[] = {
		{ "run-kvm-fails", "  echo 'KVM internal error. Suberror: 1' "
		  ">&2\n  echo 'emulation failure' >&2\n",
		  "KVM internal error. Suberror: 1" },
		{ "run-kvm-silent", "  echo 'qemu-system-x86_64: warning: "
		  "host lacks a feature' >&2\n",
		  "no console output in 1 s under KVM" },
	};
	struct vm_boot	 b = *base;
	struct vm_result r;
	struct strbuf	 ev;
	char		*p, *text, *name, *cause = NULL;
	char		*memo = xasprintf("%s/kvm-memo", dir);
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		text = xasprintf("#!/bin/sh\ncase \"$*\" in *accel=kvm*)\n"
		    "%s  exec sleep 30;;\nesac\n"
		    "exec \"$(dirname \"$0\")/fake-qemu\" \"$@\"\n",
		    cases[i].kvm_lines);
		p = put(dir, cases[i].name, text);
		free(text);
		chmod(p, 0755);
		b.qemu = p;
		b.timeout = 20;
		b.no_kvm = false;
		b.assume_kvm = true;
		b.kvm_silence = 1;
		b.kvm_memo = i == 0 ? memo : NULL;
		b.progress = progress;
		strbuf_init(&ev);
		b.arg = &ev;
		rc = vm_run(&b, &r, &cause);
		check(cases[i].name, rc == 0 && !r.kvm && r.finished &&
		    !r.timed_out && r.seconds < 10 && r.kvm_error != NULL &&
		    strcmp(r.kvm_error, cases[i].error) == 0 &&
		    r.steps[0].state == VM_STEP_PASS,
		    r.kvm_error != NULL ? r.kvm_error : cause);
		name = xasprintf("%s-progress", cases[i].name);
		check(name, ev.s != NULL &&
		    strcmp(ev.s, "boot,kvm-failed,boot,step a,done") == 0,
		    ev.s);
		free(name);
		strbuf_free(&ev);
		vm_result_free(&r);
		if (i == 0) {
			/* Remembered for this boot of the host: the next
			 * run goes straight to TCG and says why. */
			strbuf_init(&ev);
			rc = vm_run(&b, &r, &cause);
			check("run-kvm-remembered", rc == 0 && !r.kvm &&
			    r.finished && r.kvm_error != NULL &&
			    strcmp(r.kvm_error, cases[0].error) == 0 &&
			    ev.s != NULL && strcmp(ev.s,
			    "boot,step a,done") == 0, ev.s);
			strbuf_free(&ev);
			vm_result_free(&r);
			b.kvm_memo = NULL;
		}
		free(p);
		free(cause);
		cause = NULL;
	}
	free(memo);
}

/*
 * QEMU itself fails before the guest prints a line (the three texts seen:
 * an assertion under a nested KVM, a device it does not know, a bus no
 * device created): under KVM the boot is tried again under TCG; when
 * QEMU fails under TCG too, the result says it was the host's failure,
 * in QEMU's words, and nothing is judged. A guest that panics (QEMU
 * exits 0 under -no-reboot) is not the host's.
 */
static void
test_host_failure(const struct vm_boot *base, const char *dir)
{
	static const struct {
		const char	*name, *script, *error;
		bool		 kvm;
	} cases[] = {
		{ "host-msr-assert", "echo 'qemu-system-x86_64: error: failed "
		  "to set MSR 0x10a to 0x69' >&2\necho \"qemu-system-x86_64: "
		  "../target/i386/kvm/kvm.c:3227: kvm_buf_set_msrs: Assertion "
		  "\\`ret == cpu->kvm_msr_buf->nmsrs' failed.\" >&2\n"
		  "kill -ABRT $$\n", "error: failed to set MSR 0x10a to 0x69; "
		  "../target/i386/kvm/kvm.c:3227: kvm_buf_set_msrs: Assertion "
		  "`ret == cpu->kvm_msr_buf->nmsrs' failed.", false },
		{ "host-unknown-device", "echo \"qemu-system-x86_64: -device "
		  "foo-bar: 'foo-bar' is not a valid device model name\" >&2\n"
		  "exit 1\n", "-device foo-bar: 'foo-bar' is not a valid "
		  "device model name", false },
		{ "host-missing-bus", "echo \"qemu-system-x86_64: -device "
		  "usb-storage,bus=xhci.0: Bus 'xhci.0' not found\" >&2\n"
		  "exit 1\n", "-device usb-storage,bus=xhci.0: Bus 'xhci.0' not "
		  "found", true },
		{ "host-silent-exit", "exit 3\n", "QEMU exited with status 3 "
		  "before the guest printed anything", false },
	};
	struct vm_boot	 b = *base;
	struct vm_result r;
	char		*p, *text, *cause = NULL;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		text = xasprintf("#!/bin/sh\n%s", cases[i].script);
		p = put(dir, cases[i].name, text);
		free(text);
		chmod(p, 0755);
		b.qemu = p;
		b.timeout = 20;
		b.no_kvm = !cases[i].kvm;
		b.assume_kvm = cases[i].kvm;
		b.kvm_memo = NULL;
		b.progress = NULL;
		rc = vm_run(&b, &r, &cause);
		checkf(cases[i].name, rc == 0 && r.host_error != NULL &&
		    strcmp(r.host_error, cases[i].error) == 0 && !r.booted &&
		    (cases[i].kvm ? r.kvm_error != NULL : r.kvm_error == NULL),
		    "rc %d, host error '%s', kvm error '%s'", rc,
		    S(r.host_error), S(r.kvm_error));
		vm_result_free(&r);
		free(p);
		free(cause);
		cause = NULL;
	}
	/* A guest that printed and then panicked: QEMU exits 0. */
	p = put(dir, "guest-panic", "#!/bin/sh\necho '[    0.000000] Linux "
	    "version 6.1'\necho 'Kernel panic - not syncing: VFS'\nexit 0\n");
	chmod(p, 0755);
	b.qemu = p;
	b.no_kvm = true;
	b.assume_kvm = false;
	rc = vm_run(&b, &r, &cause);
	check("host-not-guest-panic", rc == 0 && r.host_error == NULL &&
	    !r.booted, S(r.host_error));
	vm_result_free(&r);
	free(p);
	free(cause);
}

/* vm_run against fake QEMUs: the command line it gets, the disk made,
 * the console parsed and logged, progress; a hung guest times out; a
 * missing QEMU is named. */
static void
test_run_fake(const char *dir)
{
	struct vm_spec	 spec;
	struct workload	 w;
	struct vm_boot	 b;
	struct vm_result r;
	struct strbuf	 ev, sb;
	char		*sp, *wp, *q, *hang, *cause = NULL, *p, *want;
	int		 rc;

	sp = put(dir, "vm", "arch x86_64\nmachine q35\nmemory 256\n"
	    "cmdline console=ttyS0\ndevice qemu-xhci,id=xhci\n"
	    "disk work 8M ext4 usb-storage,bus=xhci.0\n"
	    "device virtio-rng-pci\nlegacy parallel\n");
	wp = put(dir, "workload", "step a true\nstep b false\n");
	q = put(dir, "fake-qemu", "#!/bin/sh\n"
	    "printf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args\"\n"
	    "echo '[    0.1] Linux version'\n"
	    "echo '@@kctui: init 6.1'\n"
	    "echo '@@kctui: step a begin'\necho 'out a'\n"
	    "echo '@@kctui: step a end rc=0'\n"
	    "echo '@@kctui: module ext4'\necho '@@kctui: done'\n");
	hang = put(dir, "hang-qemu", "#!/bin/sh\necho '@@kctui: init 6.1'\n"
	    "exec sleep 30\n");
	chmod(q, 0755);
	chmod(hang, 0755);
	if (vm_spec_load(&spec, sp, &cause) != 0 ||
	    workload_load(&w, wp, &cause) != 0) {
		check("run-fake", 0, cause);
		free(cause);
		return;
	}
	memset(&b, 0, sizeof b);
	b.spec = &spec;
	b.workload = &w;
	b.qemu = q;
	b.kernel = "bzImage";
	b.initrd = "initrd.cpio";
	b.dir = xasprintf("%s/run", dir);
	b.no_kvm = true;
	b.progress = progress;
	strbuf_init(&ev);
	b.arg = &ev;
	rc = vm_run(&b, &r, &cause);
	check("run-fake", rc == 0 && r.booted && r.finished && !r.timed_out &&
	    !r.kvm && r.nsteps == 2 && r.steps[0].state == VM_STEP_PASS &&
	    r.steps[0].nlog == 1 && r.steps[1].state == VM_STEP_NOT_REACHED &&
	    r.steps[1].nlog == 7 && r.nmodules == 1, cause);
	check("run-fake-progress", ev.s != NULL &&
	    strcmp(ev.s, "boot,step a,done") == 0, ev.s);
	strbuf_init(&sb);
	p = xasprintf("%s/args", dir);
	unit_read_file(p, &sb);
	free(p);
	want = xasprintf("-machine\nq35,accel=tcg\n-smp\n1\n-m\n256\n"
	    "-nodefaults\n-no-reboot\n-display\nnone\n-serial\nstdio\n"
	    "-kernel\nbzImage\n-initrd\ninitrd.cpio\n-append\nconsole=ttyS0 "
	    "panic=-1 printk.time=1\n-device\nqemu-xhci,id=xhci\n"
	    "-drive\nfile=%s/work.img,format=raw,if=none,id=work\n"
	    "-device\nusb-storage,bus=xhci.0,drive=work,serial=work\n"
	    "-device\nvirtio-rng-pci\n-parallel\nnull\n", b.dir);
	checkf("run-fake-args", strcmp(sb.s, want) == 0, "got\n%s", sb.s);
	free(want);
	p = xasprintf("%s/work.img", b.dir);
	want = xasprintf("blkid -o value -s TYPE '%s'", p);
	free(p);
	p = run_line(want);
	check("run-fake-disk", strcmp(p, "ext4") == 0, p);
	free(p);
	free(want);
	check("run-fake-console", r.console != NULL &&
	    unit_read_file(r.console, &sb) &&
	    strncmp(sb.s, "[    0.1] Linux version\n@@kctui: init 6.1\n", 41) ==
	    0, sb.s);
	strbuf_free(&sb);
	vm_result_free(&r);

	b.qemu = hang;
	b.timeout = 1;
	b.progress = NULL;
	rc = vm_run(&b, &r, &cause);
	check("run-timeout", rc == 0 && r.timed_out && r.booted &&
	    !r.finished && r.steps[0].nlog == 1, cause);
	vm_result_free(&r);

	test_kvm_fallback(&b, dir);
	test_host_failure(&b, dir);
	b.progress = NULL;

	b.qemu = "qemu-system-kctui-nonesuch";
	cause = NULL;
	rc = vm_run(&b, &r, &cause);
	check("run-no-qemu", rc == -1 && cause != NULL && strcmp(cause,
	    "qemu-system-kctui-nonesuch: not found (apt-get install "
	    "qemu-system-x86)") == 0, cause);
	free(cause);
	vm_result_free(&r);

	strbuf_free(&ev);
	free((char *)b.dir);
	vm_spec_free(&spec);
	workload_free(&w);
	free(sp);
	free(wp);
	free(q);
	free(hang);
}

/* The state of a step, as a word. */
static const char *
state_name(enum vm_step_state s)
{
	return s == VM_STEP_PASS ? "pass" : s == VM_STEP_FAIL ? "FAIL" :
	    "not-reached";
}

/* KCTUI_VM_KERNEL set: build the initramfs and boot it for real (TCG),
 * say what came back. */
static void
test_real_boot(void)
{
	const char	*kernel = getenv("KCTUI_VM_KERNEL");
	const char	*dir = getenv("KCTUI_VM_DIR");
	struct initramfs o;
	struct vm_spec	 spec;
	struct workload	 w;
	struct vm_boot	 b;
	struct vm_result r;
	char		*cause = NULL, *initrd;
	double		 t0;
	size_t		 i, k;
	int		 rc;

	/* A tool for boots by hand, not a test of the normal run (which
	 * boots for real in tests/real/verify.sh): nothing to report. */
	if (kernel == NULL || *kernel == '\0' || dir == NULL)
		return;
	if (vm_spec_load(&spec, getenv("KCTUI_VM_SPEC"), &cause) != 0 ||
	    workload_load(&w, getenv("KCTUI_VM_WORKLOAD"), &cause) != 0) {
		check("real-boot", 0, cause);
		free(cause);
		return;
	}
	initrd = xasprintf("%s/initrd.cpio", dir);
	memset(&o, 0, sizeof o);
	o.out = initrd;
	o.staging = getenv("KCTUI_VM_STAGING");
	o.release = getenv("KCTUI_VM_RELEASE");
	o.workload = &w;
	o.scratch = dir;
	t0 = clock_now();
	rc = initramfs_build(&o, &cause);
	printf("# initramfs %.1f s\n", clock_now() - t0);
	check("real-initramfs", rc == 0, cause);
	memset(&b, 0, sizeof b);
	b.spec = &spec;
	b.workload = &w;
	b.kernel = kernel;
	b.initrd = initrd;
	b.dir = dir;
	b.timeout = 900;
	t0 = clock_now();
	rc = rc == 0 ? vm_run(&b, &r, &cause) : -1;
	printf("# vm_run %.1f s (qemu %.1f s) kvm=%d timed_out=%d\n",
	    clock_now() - t0, r.seconds, r.kvm, r.timed_out);
	check("real-boot", rc == 0 && r.booted && r.finished, cause);
	for (i = 0; rc == 0 && i < r.nsteps; i++) {
		printf("# step %s %s rc=%d %.1f s\n", r.steps[i].name,
		    state_name(r.steps[i].state), r.steps[i].rc,
		    r.steps[i].seconds);
		for (k = 0; k < r.steps[i].nlog; k++)
			printf("#   | %s\n", r.steps[i].log[k]);
	}
	printf("# %zu modules:", r.nmodules);
	for (i = 0; i < r.nmodules; i++)
		printf(" %s", r.modules[i]);
	printf("\n# %zu drivers\n", r.ndrivers);
	for (i = 0; i < r.ndrivers; i++)
		printf("#   %s %s %s\n", r.drivers[i].bus, r.drivers[i].driver,
		    r.drivers[i].device);
	free(cause);
	vm_result_free(&r);
	free(initrd);
	vm_spec_free(&spec);
	workload_free(&w);
}

int
main(void)
{
	char	 dir[] = "/tmp/kctui-test-vm.XXXXXX";

	if (!unit_tmpdir(dir))
		return 1;
	test_spec_ok(dir);
	test_spec_errors(dir);
	test_allow_doc();
	test_report_verdict();
	test_informed();
	test_match_devices();
	test_absent_devices();
	test_workload(dir);
	test_fixture();
	test_console();
	test_initramfs(dir);
	test_run_fake(dir);
	test_real_boot();
	unit_rmtree(dir);
	return unit_failures != 0;
}
