/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine.h - the machine a bundle describes: its "vm" file (the QEMU
 * machine, checked against the allow-list, vm-allow.h), its "workload"
 * (the steps that judge a boot), the file systems its disks can be made
 * with, and the lines of its "drivers" file that name bound devices.
 * Read by kctui verify (core/verify/), which boots it, and written by the
 * twin (core/twin/), which makes one from the evidence: both stand on
 * this folder, neither on the other (vm-spec.c, vm-allow.c).
 */
#ifndef KC_MACHINE_H
#define KC_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A disk the workload uses: an empty raw image made for each boot. */
struct vm_disk {
	char		*name;		/* id and serial */
	uint64_t	 size;		/* bytes */
	char		*fstype;	/* "ext4", "vfat", ... or "none" */
	char		*device;	/* QEMU device, e.g. virtio-blk-pci */
	size_t		 at;		/* its place among vm_spec.args: a
					   disk's device may sit on a bus an
					   earlier device line creates */
};

/* The largest disk a vm file may ask for, and the most all its disks
 * may add up to: the images are sparse, but mkfs and the guest's writes
 * fill them, and a bundle is somebody else's file (docs/evidence.md). */
#define VM_DISK_MAX	(64ULL << 30)
#define VM_DISKS_MAX	(256ULL << 30)

/*
 * The bundle's "vm" file: the QEMU machine it was recorded on
 * (docs/evidence.md).
 */
struct vm_spec {
	char		*path;
	char		*arch;		/* x86_64 */
	char		*machine;	/* -machine, without accel */
	char		*cpu;		/* -cpu */
	int		 smp;
	int		 memory;	/* MiB */
	char		*cmdline;	/* kernel command line (console=...) */
	char	       **args;		/* other QEMU arguments, in pairs:
					   "-device" "virtio-rng-pci", ... */
	size_t		 nargs;
	struct vm_disk	*disks;
	size_t		 ndisks;
};

/* Read a vm file; -1 with *cause "PATH:LINE: what is wrong". */
int	 vm_spec_load(struct vm_spec *, const char *path, char **cause);
void	 vm_spec_free(struct vm_spec *);

/*
 * The bundle's "workload": a /bin/sh script run in the guest after
 * coldplug, its steps marked by lines "step NAME COMMAND..." (the guest's
 * init defines step()); helper programs in "workload.d/" beside it (C
 * sources are compiled static for the guest, other files copied).
 */
struct workload {
	char		*path;
	char		*text;
	char	       **steps;		/* step names, in script order */
	size_t		 nsteps;
	char		*helpers;	/* workload.d, or NULL if none */
};

/* -1 with *cause "PATH:LINE: ..." (no steps, bad step name, duplicate). */
int	 workload_load(struct workload *, const char *path, char **cause);
void	 workload_free(struct workload *);
/* Steps appended (their text parsed with the script's); -1 with *cause,
 * the workload unchanged. */
int	 workload_append(struct workload *, const char *text, char **cause);

/*
 * The file systems a vm file's disk may be made with, and the host
 * program that makes each (docs/evidence.md).
 */
struct vm_mkfs {
	const char	*fstype;
	const char	*prog;
	const char	*label;		/* the label option */
	size_t		 label_max;
};

/* The table's entry for FSTYPE, or NULL for a type kctui cannot make. */
const struct vm_mkfs *vm_mkfs_find(const char *fstype);
/* The host program that makes FSTYPE on a disk image ("mkfs.ext4",
 * "mkfs.vfat", ...), NULL for a type kctui cannot make. */
const char *vm_disk_mkfs(const char *fstype);

/* A bound device: a line of the bundle's drivers file, or of the
 * guest's "driver" markers. */
struct vm_driver {
	char		*bus, *driver, *device;
};

/* Split a drivers line "BUS DRIVER... DEVICE MODULE" in place (the
 * driver may hold spaces); -1 when it has too few fields. */
int	 vm_driver_split(char *, char **, char **, char **);
#endif
