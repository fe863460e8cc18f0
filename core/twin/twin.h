/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin.h - the twin machine: a QEMU machine ("vm" file) and a workload
 * made from a bundle's evidence, for bundles recorded on real machines
 * (kctui collect on a laptop, a workstation, a cloud server) that have
 * no vm and no workload of their own. Every bound device of the bundle
 * is either given again (a QEMU device of the same kind on the same kind
 * of bus, or a part of the machine type), made by the kernel itself, or
 * listed as not verifiable under QEMU with the reason. docs/verify.md,
 * "The twin machine", has the table.
 *
 * The vm text is generated into the allow-list of core/verify/vm-allow.c
 * (every directive is checked against it before twin_make returns), so
 * kctui verify loads it like a bundle's own file.
 *
 * For kctui verify on a bundle with no vm: twin_qemu_devices() of its
 * --qemu into twin_opts.qemu_devices, the host's RAM and CPUs, then
 * twin_make(); twin_vm_text() and twin_workload_text() written to files
 * and read with vm_spec_load() and workload_load(), the workload's
 * helpers set to twin.helpers (the bundle's workload.d, when it has
 * one); the devices check leaves out the bundle's lines whose
 * twin_device_find() state is TWIN_NONE, and the report lists those
 * (twin_unverifiable_at) as not verifiable under QEMU. Where a device
 * comes with another (TWIN_WITH), the twin may bind fewer of them than
 * the bundle did (one QEMU keyboard for a keyboard's two HID
 * interfaces, one disk for several): match those by bus and driver.
 */
#ifndef KC_TWIN_H
#define KC_TWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evidence;

/* How a bound device of the bundle is given again in the twin. */
enum twin_state {
	TWIN_DEVICE,	/* a device or disk line of the vm file */
	TWIN_MACHINE,	/* part of the machine type (q35's AHCI, the i8042) */
	TWIN_WITH,	/* comes with another twin device (virtio-pci under
			   virtio_blk, a USB root hub, a disk's "sd") */
	TWIN_KERNEL,	/* made by the kernel itself, no hardware */
	TWIN_NONE,	/* no twin: not verifiable under QEMU */
};

/* One line of the bundle's drivers file: a device bound to a driver. */
struct twin_device {
	char		*bus;
	char		*driver;
	char		*path;		/* under /sys/devices */
	const char	*module;	/* its module, NULL when built in */
	const char	*modalias;	/* its IDs (modalias file), or NULL */
	enum twin_state	 state;
	const char	*qemu;		/* the QEMU device or machine part */
	char		*why;		/* how it is twinned, or why not */
};

/* A file system type the bundle had mounted, and what the twin does. */
struct twin_fs {
	char		*type;
	bool		 tested;	/* a workload step mounts it */
	char		*disk;		/* its disk's NAME, or NULL (no disk) */
	char		*why;		/* how it is tested, or why not */
};

struct twin_opts {
	/* The host's RAM in MiB: the twin gets at most this less 1 GiB
	 * (verify's margin); 0: no cap. */
	uint64_t	 host_mib;
	/* The host's CPUs: smp at most this; 0: no cap. */
	int		 host_cpus;
	/* The text of "qemu-system-x86_64 -device help" of the QEMU that
	 * will run the twin (twin_qemu_devices): a device it lacks (igb
	 * before QEMU 8.0) has no twin; NULL: every device of the table. */
	const char	*qemu_devices;
};

struct twin {
	char		*vm;		/* the vm file's text */
	char		*workload;	/* the workload's text */
	const char	*machine;	/* "q35" or "pc" */
	struct twin_device *devices;	/* every bound device, by path */
	size_t		 ndevices;
	struct twin_fs	*fs;		/* every mounted type */
	size_t		 nfs;
	char	       **steps;		/* the workload's step names */
	size_t		 nsteps;
	/* The bundle's workload.d the workload's helpers come from, and
	 * the helper files it uses ("tcploop.c"): kctui verify sets its
	 * workload's helpers to this directory; kctui twin -o copies the
	 * files. NULL and 0 when the workload uses busybox only. */
	char		*helpers;
	char	       **helper_files;
	size_t		 nhelper_files;
	/* The indexes of the devices with no twin (twin_unverifiable_at). */
	size_t		*none;
	size_t		 nnone;
};

/*
 * Make the twin of the evidence's machine (the drivers, modalias,
 * modules, mounts, crypto and uname files of its bundles; cpuinfo and
 * meminfo when a bundle has them). -1 with *cause when the bundle
 * cannot have a twin (not x86_64, no drivers file) or the host is too
 * small; *out is then empty.
 */
int		 twin_make(const struct evidence *, const struct twin_opts *,
		     struct twin *out, char **cause);
/* The host's RAM and CPUs into o (the caps of twin_opts); 0 when
 * unknown. */
void		 twin_opts_host(struct twin_opts *o);
/* The vm file and the workload, as kctui twin prints and writes them. */
const char	*twin_vm_text(const struct twin *);
const char	*twin_workload_text(const struct twin *);
/* A bound device of the bundle (a line of its drivers file), or NULL:
 * kctui verify's devices check leaves out those whose state is
 * TWIN_NONE. */
const struct twin_device *twin_device_find(const struct twin *,
		     const char *bus, const char *driver, const char *path);
/* How many bound devices have no twin; the i-th of them. */
size_t		 twin_unverifiable_count(const struct twin *);
const struct twin_device *twin_unverifiable_at(const struct twin *,
		     size_t i);
void		 twin_free(struct twin *);
/* A device's IDs, short ("8086:2922" for PCI and USB, else its
 * modalias cut at 40 characters); malloc'd, NULL when unknown. */
char		*twin_device_ids(const struct twin_device *);

/* ------------------------------------------------------ twin-table.c */

/* What a driver of the table becomes in the twin. */
enum twin_role {
	TR_MACHINE,	/* part of the machine types in .machines */
	TR_KERNEL,	/* a device the kernel makes (no hardware) */
	TR_WITH,	/* comes with another twin device (.qemu says which) */
	TR_NIC,		/* .qemu with a user-mode netdev */
	TR_DISK,	/* .qemu is a disk device: a disk line */
	TR_HBA,		/* a storage controller: a device line, disks on it
			   (on .machines, the machine's own) */
	TR_USBHC,	/* a USB host controller */
	TR_USBHID,	/* a USB HID interface: usb-kbd, usb-mouse or
			   usb-tablet after its modalias's protocol */
	TR_USBDISK,	/* a disk on the USB controller */
	TR_USBDEV,	/* another USB device on the controller */
	TR_HDA,		/* an HD Audio controller, with hda-duplex */
	TR_AUDIO,	/* a sound card with an audiodev */
	TR_DEVICE,	/* a plain device line */
	TR_RNG,		/* virtio-rng with its rng-random object */
	TR_CRYPTO,	/* virtio-crypto with its builtin backend */
	TR_NONE,	/* no twin: .note says why */
};

/* Machine types, for .machines. */
#define TWIN_Q35	0x1
#define TWIN_PC		0x2

/* One line of the table: a kernel driver (as in /sys/bus/BUS/drivers)
 * and the QEMU device that it binds. */
struct twin_rule {
	const char	*bus;
	const char	*driver;
	const char	*path_has;	/* only devices whose path has this */
	enum twin_role	 role;
	const char	*qemu;		/* QEMU device (q35) */
	const char	*qemu_pc;	/* on pc, when it differs */
	unsigned	 machines;	/* where it is part of the machine */
	const char	*module;	/* the driver's module */
	const char	*modalias;	/* the QEMU device's modalias in the
					   guest (PCI: QEMU's default
					   subsystem 1af4:1100), or NULL */
	const char	*note;		/* the source, or why no twin */
};

/* The rule for a bound device, or NULL: no twin known. */
const struct twin_rule *twin_rule_find(const char *bus, const char *driver,
		     const char *path);
/* The i-th rule, or NULL past the end (docs and tests). */
const struct twin_rule *twin_rule_at(size_t i);
/* How a mounted file system type is tested: 'd' a disk made on the host
 * (ext4), 'm' a disk the guest formats with busybox (*mkfs set), 'p' a
 * disk-less mount (tmpfs, tracefs...), 'i' mounted by the guest's /init
 * already, 0 not at all (*why set). */
int		 twin_fs_kind(const char *type, const char **mkfs,
		     const char **why);

/* ------------------------------------------------------- twin-qemu.c */

/* The text of "QEMU -device help" (qemu NULL: qemu-system-x86_64), for
 * twin_opts.qemu_devices; NULL with *cause when it cannot be run. */
char		*twin_qemu_devices(const char *qemu, char **cause);
/* Whether that text lists the device. */
bool		 twin_qemu_has(const char *help, const char *device);

#endif
