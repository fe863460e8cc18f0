/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin-vm.c - the twin's vm file (docs/evidence.md, "vm"): the machine,
 * the CPU, then a device (or disk) line for every bound device that has
 * a twin, in the order of the recorded machine's device paths, so that
 * QEMU gives them the recorded PCI slots where it can; the file systems'
 * disks on the storage controller; USB devices on the USB controller.
 * Every directive is checked against the allow-list (vm-allow.c) as it
 * is written, and every line says where it came from.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../evidence/evidence.h"
#include "twin-int.h"

/* Disk sizes: a file system's disk holds the workload's few MiB; a disk
 * that is only there to be bound again holds nothing. */
#define TWIN_FS_DISK	"256M"
#define TWIN_BARE_DISK	"64M"

/* Where the file systems' disks are placed while the file is written. */
struct twin_place {
	size_t		 fs;		/* next t->fs to place */
	int		 disks;		/* "diskN" names given */
	int		 hba_disks;	/* disks on a controller */
	char		*hba_fmt;	/* the first controller's disk device,
					   a printf format of the port */
	int		 hba_port;
	bool		 hba_unit;	/* PIIX IDE: bus=ide.N/2,unit=N%2 */
};

/* The IDs in a modalias, short: "8086:2922" for PCI and USB, the rest
 * as it is (cut at 40 characters); malloc'd, NULL without one. */
char *
twin_device_ids(const struct twin_device *d)
{
	const char	*m = d->modalias;
	unsigned	 v, p;

	if (m == NULL)
		return NULL;
	if (sscanf(m, "pci:v%8xd%8x", &v, &p) == 2)
		return xasprintf("%04x:%04x", v, p);
	if (sscanf(m, "usb:v%4xp%4x", &v, &p) == 2)
		return xasprintf("%04x:%04x", v, p);
	if (strlen(m) > 40)
		return xasprintf("%.37s...", m);
	return xstrdup(m);
}

/* The line number the next line of the vm text gets. */
static int
twin_lineno(const struct twin_ctx *c)
{
	const char	*p;
	int		 n = 1;

	for (p = c->vm.s; p != NULL && *p != '\0'; p++)
		n += *p == '\n';
	return n;
}

/* Append a directive line; opts (the QEMU option string, or a disk's
 * device) checked against the allow-list when dir >= 0. */
static void __attribute__((format(printf, 4, 5)))
twin_line(struct twin_ctx *c, int dir, const char *opts_at,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*line, *msg;
	int	 lineno = twin_lineno(c);

	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	strbuf_adds(&c->vm, line);
	strbuf_addc(&c->vm, '\n');
	if (dir >= 0 && opts_at != NULL) {
		msg = vm_allow_check(&c->allow, (enum vm_allow_directive)dir,
		    opts_at, lineno);
		if (msg != NULL && c->refused == NULL)
			c->refused = xasprintf("line %d '%s': %s", lineno,
			    line, msg);
		free(msg);
	}
	free(line);
}

/* "device OPTS", checked. */
static void __attribute__((format(printf, 2, 3)))
twin_device_line(struct twin_ctx *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*opts;

	va_start(ap, fmt);
	opts = xvasprintf(fmt, ap);
	va_end(ap);
	twin_line(c, VM_ALLOW_DEVICE, opts, "device %s", opts);
	free(opts);
}

/* A directive of another kind with one option string, checked. */
static void
twin_opts_line(struct twin_ctx *c, const char *directive,
    enum vm_allow_directive dir, const char *opts)
{
	twin_line(c, (int)dir, opts, "%s %s", directive, opts);
}

/* "disk NAME SIZE FSTYPE DEVICE", the device checked. */
static void
twin_disk_line(struct twin_ctx *c, const char *name, const char *size,
    const char *fstype, const char *device)
{
	twin_line(c, VM_ALLOW_DISK, device, "disk %s %s %s %s", name, size,
	    fstype, device);
}

/* The comment above a device's lines: what it was on the recorded
 * machine and what it is here. */
static void
twin_device_comment(struct twin_ctx *c, const struct twin_device *d)
{
	char	*ids = twin_device_ids(d);

	strbuf_addc(&c->vm, '\n');
	twin_comment(&c->vm, "%s %s at %s%s%s%s: %s", d->bus, d->driver,
	    d->path, ids != NULL ? " [" : "", ids != NULL ? ids : "",
	    ids != NULL ? "]" : "", d->why);
	free(ids);
}

/* The next file system that needs a disk, or NULL. */
static struct twin_fs *
twin_next_fs(struct twin_ctx *c, struct twin_place *pl)
{
	while (pl->fs < c->t->nfs) {
		struct twin_fs *f = &c->t->fs[pl->fs++];

		if (f->disk != NULL)
			return f;
	}
	return NULL;
}

/* The FSTYPE of a file system's disk line: ext4 is made on the host,
 * the others in the guest (the disk comes empty). */
static const char *
twin_disk_fstype(const struct twin_fs *f)
{
	return strcmp(f->type, "ext4") == 0 ? "ext4" : "none";
}

/* A disk that only binds its driver again. */
static void
twin_bare_disk(struct twin_ctx *c, struct twin_place *pl, const char *dev)
{
	char	*name = xasprintf("disk%d", ++pl->disks);

	twin_disk_line(c, name, TWIN_BARE_DISK, "none", dev);
	free(name);
}

/* A disk on the first controller (pl->hba_fmt), at its next port. */
static void
twin_hba_disk(struct twin_ctx *c, struct twin_place *pl,
    const struct twin_fs *f)
{
	char	*dev, *name = NULL;
	int	 port = pl->hba_port++;

	if (pl->hba_unit)
		dev = xasprintf("ide-hd,bus=ide.%d,unit=%d", port / 2,
		    port % 2);
	else
		dev = xasprintf(pl->hba_fmt, port);
	if (f != NULL)
		twin_disk_line(c, f->disk, TWIN_FS_DISK, twin_disk_fstype(f),
		    dev);
	else {
		name = xasprintf("disk%d", ++pl->disks);
		twin_disk_line(c, name, TWIN_BARE_DISK, "none", dev);
	}
	pl->hba_disks++;
	free(name);
	free(dev);
}

/* A storage controller: its device line (unless the machine has it),
 * then the file systems' disks when it is where they go. */
static void
twin_hba(struct twin_ctx *c, struct twin_place *pl,
    const struct twin_device *d)
{
	struct twin_fs	*f;
	char		*id = NULL, *fmt;
	bool		 first = pl->hba_fmt == NULL;

	if (d->state == TWIN_MACHINE && strcmp(d->driver, "ata_piix") == 0)
		fmt = xstrdup("");
	else if (d->state == TWIN_MACHINE)
		fmt = xstrdup("ide-hd,bus=ide.%d");
	else {
		id = xasprintf("%s%d", strcmp(d->qemu, "ich9-ahci") == 0 ?
		    "ahci" : "scsi", ++c->nids);
		twin_device_line(c, "%s,id=%s", d->qemu, id);
		fmt = strcmp(d->qemu, "ich9-ahci") == 0 ?
		    xasprintf("ide-hd,bus=%s.%%d", id) :
		    xasprintf("scsi-hd,bus=%s.0,scsi-id=%%d", id);
	}
	if (!first && (c->primary == NULL ||
	    strcmp(d->driver, c->primary) != 0)) {
		free(fmt);
		free(id);
		return;
	}
	if (first) {
		pl->hba_fmt = fmt;
		pl->hba_unit = d->state == TWIN_MACHINE &&
		    strcmp(d->driver, "ata_piix") == 0;
	} else {
		/* the primary controller comes after another: its disks
		 * from its own first port */
		free(pl->hba_fmt);
		pl->hba_fmt = fmt;
		pl->hba_port = 0;
		pl->hba_unit = false;
	}
	if (c->primary != NULL && strcmp(d->driver, c->primary) == 0)
		while ((f = twin_next_fs(c, pl)) != NULL)
			twin_hba_disk(c, pl, f);
	free(id);
}

/* A NIC on its own user-mode network: the first on QEMU's default
 * 10.0.2.0/24, the next on 10.0.3.0/24 ... so each has its gateway. */
static void
twin_nic(struct twin_ctx *c, const struct twin_device *d)
{
	int	 k = (int)c->nnics, id = ++c->nids;
	char	*opts;

	opts = k == 0 ? xasprintf("user,id=net%d", id) :
	    xasprintf("user,id=net%d,net=10.0.%d.0/24", id, 2 + k);
	twin_opts_line(c, "netdev", VM_ALLOW_NETDEV, opts);
	free(opts);
	twin_device_line(c, "%s,netdev=net%d", d->qemu, id);
	c->nics = xrealloc(c->nics, (c->nnics + 1) * sizeof *c->nics);
	c->nics[c->nnics].driver = d->driver;
	c->nics[c->nnics].subnet = 2 + k;
	c->nnics++;
}

/* One device with its own lines, USB devices excepted. */
static void
twin_emit(struct twin_ctx *c, struct twin_place *pl, size_t i)
{
	const struct twin_device *d = &c->t->devices[i];
	const struct twin_rule	 *r = c->rule[i];
	struct twin_fs		 *f;
	char			 *opts;
	int			  id;

	if (r == NULL || (d->state != TWIN_DEVICE &&
	    !(d->state == TWIN_MACHINE && r->role == TR_HBA)))
		return;
	if (r->role == TR_USBHID || r->role == TR_USBDISK ||
	    r->role == TR_USBDEV || strcmp(d->qemu, "usb-hub") == 0)
		return;
	twin_device_comment(c, d);
	switch (r->role) {
	case TR_DISK:
		f = c->primary != NULL && strcmp(d->driver, c->primary) == 0 ?
		    twin_next_fs(c, pl) : NULL;
		if (f != NULL)
			twin_disk_line(c, f->disk, TWIN_FS_DISK,
			    twin_disk_fstype(f), d->qemu);
		else
			twin_bare_disk(c, pl, d->qemu);
		break;
	case TR_HBA:
		twin_hba(c, pl, d);
		break;
	case TR_NIC:
		twin_nic(c, d);
		break;
	case TR_USBHC:
		id = ++c->nids;
		twin_device_line(c, "%s,id=usb%d", d->qemu, id);
		/* EHCI takes high-speed devices only: the keyboards and
		 * disks go on another controller */
		if (c->usb_bus == NULL && strstr(d->qemu, "ehci") == NULL)
			c->usb_bus = xasprintf("usb%d.0", id);
		break;
	case TR_HDA:
		id = ++c->nids;
		opts = xasprintf("none,id=snd%d", id);
		twin_opts_line(c, "audiodev", VM_ALLOW_AUDIODEV, opts);
		free(opts);
		twin_device_line(c, "%s,id=hda%d", d->qemu, id);
		twin_device_line(c, "hda-duplex,bus=hda%d.0,audiodev=snd%d",
		    id, id);
		break;
	case TR_AUDIO:
		id = ++c->nids;
		opts = xasprintf("none,id=snd%d", id);
		twin_opts_line(c, "audiodev", VM_ALLOW_AUDIODEV, opts);
		free(opts);
		twin_device_line(c, "%s,audiodev=snd%d", d->qemu, id);
		break;
	case TR_RNG:
		id = ++c->nids;
		opts = xasprintf("rng-random,filename=/dev/urandom,id=rng%d",
		    id);
		twin_opts_line(c, "object", VM_ALLOW_OBJECT, opts);
		free(opts);
		twin_device_line(c, "%s,rng=rng%d", d->qemu, id);
		break;
	case TR_CRYPTO:
		id = ++c->nids;
		opts = xasprintf("cryptodev-backend-builtin,id=crypto%d", id);
		twin_opts_line(c, "object", VM_ALLOW_OBJECT, opts);
		free(opts);
		twin_device_line(c, "%s,cryptodev=crypto%d", d->qemu, id);
		break;
	case TR_DEVICE:
		if (strcmp(d->qemu, "pcie-root-port") == 0) {
			id = ++c->nids;
			twin_device_line(c, "pcie-root-port,id=port%d,"
			    "chassis=%d", id, id);
		} else
			twin_device_line(c, "%s", d->qemu);
		break;
	default:
		break;
	}
}

/* The USB devices, on the first USB controller that takes them (a
 * qemu-xhci when the bundle's controllers cannot). */
static void
twin_usb(struct twin_ctx *c, struct twin_place *pl)
{
	const struct twin_device *d;
	const struct twin_rule	 *r;
	struct twin_fs		 *f;
	char			 *dev, *opts;
	size_t			  i;
	int			  id;

	for (i = 0; i < c->t->ndevices; i++) {
		d = &c->t->devices[i];
		r = c->rule[i];
		/* usb-hub: an external hub's interface, whose rule is the
		 * root hubs' (twin.c) */
		if (d->state != TWIN_DEVICE || r == NULL ||
		    (r->role != TR_USBHID && r->role != TR_USBDISK &&
		    r->role != TR_USBDEV && strcmp(d->qemu, "usb-hub") != 0))
			continue;
		if (c->usb_bus == NULL) {
			id = ++c->nids;
			strbuf_addc(&c->vm, '\n');
			twin_comment(&c->vm, "a controller for the USB devices "
			    "below (the bundle's takes high-speed devices "
			    "only, or has no twin)");
			twin_device_line(c, "qemu-xhci,id=usb%d", id);
			c->usb_bus = xasprintf("usb%d.0", id);
		}
		twin_device_comment(c, d);
		if (r->role == TR_USBDISK) {
			dev = xasprintf("%s,bus=%s", d->qemu, c->usb_bus);
			f = c->primary != NULL &&
			    strcmp(d->driver, c->primary) == 0 ?
			    twin_next_fs(c, pl) : NULL;
			if (f != NULL)
				twin_disk_line(c, f->disk, TWIN_FS_DISK,
				    twin_disk_fstype(f), dev);
			else
				twin_bare_disk(c, pl, dev);
			free(dev);
		} else if (strcmp(d->qemu, "usb-audio") == 0) {
			id = ++c->nids;
			opts = xasprintf("none,id=snd%d", id);
			twin_opts_line(c, "audiodev", VM_ALLOW_AUDIODEV, opts);
			free(opts);
			twin_device_line(c, "usb-audio,bus=%s,audiodev=snd%d",
			    c->usb_bus, id);
		} else
			twin_device_line(c, "%s,bus=%s", d->qemu, c->usb_bus);
	}
	/* more file systems than the bundle had USB disks: one more each */
	if (c->primary != NULL && strcmp(c->primary, "usb-storage") == 0 &&
	    c->usb_bus != NULL) {
		dev = xasprintf("usb-storage,bus=%s", c->usb_bus);
		while ((f = twin_next_fs(c, pl)) != NULL)
			twin_disk_line(c, f->disk, TWIN_FS_DISK,
			    twin_disk_fstype(f), dev);
		free(dev);
	}
}

/* The file systems' disks no bundle device took (more types than
 * virtio-blk or NVMe disks), after the last of them. */
static void
twin_more_disks(struct twin_ctx *c, struct twin_place *pl)
{
	const struct twin_rule	*r = NULL;
	struct twin_fs		*f;
	size_t			 i;
	bool			 said = false;

	for (i = 0; i < c->t->ndevices && c->primary != NULL; i++)
		if (strcmp(c->t->devices[i].driver, c->primary) == 0)
			r = c->rule[i];
	if (r == NULL || r->role != TR_DISK)
		return;
	while ((f = twin_next_fs(c, pl)) != NULL) {
		if (!said) {
			strbuf_addc(&c->vm, '\n');
			twin_comment(&c->vm, "more file systems than the "
			    "bundle had %s disks: one more disk each",
			    c->primary);
			said = true;
		}
		twin_disk_line(c, f->disk, TWIN_FS_DISK, twin_disk_fstype(f),
		    r->qemu);
	}
}

/* The recorded machine's disks and their sizes (kctui collect's disks
 * file), said beside the twin's: each file system the bundle mounted gets
 * a disk of TWIN_FS_DISK, enough for its step; a disk's size changes no
 * driver the boot tests. */
static void
twin_disks_comment(struct twin_ctx *c)
{
	char		*text = twin_bundle_text(c, "disks");
	const char	*p, *nl;
	struct strbuf	 sb;
	unsigned long long bytes;
	char		 name[64];

	if (text == NULL)
		return;
	strbuf_init(&sb);
	for (p = text; *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		nl = nl != NULL ? nl + 1 : p + strlen(p);
		if (sscanf(p, "%63s %llu", name, &bytes) != 2)
			continue;
		strbuf_addf(&sb, "%s%s %.1f GiB", sb.len != 0 ? ", " : "",
		    name, (double)bytes / (1024.0 * 1024 * 1024));
	}
	if (sb.len != 0)
		twin_comment(&c->vm, "the recorded machine's disks (disks): "
		    "%s; the twin's are %s each, one per file system type "
		    "mounted: a disk's size changes no driver", sb.s,
		    TWIN_FS_DISK);
	strbuf_free(&sb);
	free(text);
}

/* The header: the machine, the CPU, the memory, and what has no twin. */
static void
twin_head(struct twin_ctx *c)
{
	const struct twin_device *d;
	const struct ev_bundle	 *eb = evidence_bundle(c->ev, 0);
	size_t			  i, n = twin_unverifiable_count(c->t);
	char			 *ids;

	twin_comment(&c->vm, "The twin of the machine the bundle %s was "
	    "recorded on, made by kctui twin from its evidence "
	    "(docs/verify.md, \"The twin machine\"). Format: "
	    "docs/evidence.md, \"vm\". kctui verify adds -nodefaults "
	    "-no-reboot -display none -serial stdio, the kernel and the "
	    "initramfs.", eb != NULL ? eb->path : "");
	if (n > 0) {
		strbuf_addc(&c->vm, '\n');
		twin_comment(&c->vm, "Not verifiable under QEMU: %zu bound "
		    "device%s with no twin (what only %s need%s is kept, not "
		    "verified):", n, n == 1 ? "" : "s", n == 1 ? "it" :
		    "they", n == 1 ? "s" : "");
		for (i = 0; (d = twin_unverifiable_at(c->t, i)) != NULL;
		    i++) {
			ids = twin_device_ids(d);
			twin_comment(&c->vm, "- %s %s at %s%s%s%s%s%s: %s",
			    d->bus, d->driver, d->path, ids != NULL ? " [" :
			    "", ids != NULL ? ids : "", ids != NULL ? "]" : "",
			    d->module != NULL ? ", module " : "",
			    d->module != NULL ? d->module : "", d->why);
			free(ids);
		}
	}
	strbuf_addc(&c->vm, '\n');
	twin_line(c, -1, NULL, "arch x86_64");
	twin_comment(&c->vm, "%s: %s", c->t->machine, c->machine_why);
	twin_line(c, VM_ALLOW_MACHINE, c->t->machine, "machine %s",
	    c->t->machine);
	twin_comment(&c->vm, "%s", c->cpu_why);
	twin_line(c, VM_ALLOW_CPU, c->cpu, "cpu %s", c->cpu);
	twin_comment(&c->vm, "%s", c->smp_why);
	twin_line(c, -1, NULL, "smp %d", c->smp);
	twin_comment(&c->vm, "%s", c->memory_why);
	twin_line(c, -1, NULL, "memory %d", c->memory);
	twin_line(c, -1, NULL, "cmdline console=ttyS0");
	twin_disks_comment(c);
}

/* The ISA ports beyond the console: a second UART, a parallel port. */
static void
twin_legacy(struct twin_ctx *c)
{
	size_t	i, serial = 0, parallel = 0;

	for (i = 0; i < c->t->ndevices; i++) {
		if (strcmp(c->t->devices[i].bus, "pnp") != 0 ||
		    c->t->devices[i].state != TWIN_MACHINE)
			continue;
		serial += strcmp(c->t->devices[i].driver, "serial") == 0;
		parallel += strcmp(c->t->devices[i].driver, "parport_pc") == 0;
	}
	if (serial <= 1 && parallel == 0)
		return;
	strbuf_addc(&c->vm, '\n');
	twin_comment(&c->vm, "the ISA ports the bundle had besides the "
	    "console's (kctui's -serial stdio is the first UART)");
	for (i = 1; i < serial; i++)
		twin_line(c, -1, NULL, "legacy serial");
	for (i = 0; i < parallel; i++)
		twin_line(c, -1, NULL, "legacy parallel");
}

/* Write the vm file into c->vm (twin-int.h). */
void
twin_vm_write(struct twin_ctx *c)
{
	struct twin_place	 pl;
	size_t			 i;
	bool			 sd = false;
	char			*msg;
	int			 lineno = 0;

	memset(&pl, 0, sizeof pl);
	twin_head(c);
	for (i = 0; i < c->t->ndevices; i++)
		twin_emit(c, &pl, i);
	twin_more_disks(c, &pl);
	twin_usb(c, &pl);
	for (i = 0; i < c->t->ndevices; i++)
		sd |= strcmp(c->t->devices[i].bus, "scsi") == 0 &&
		    strcmp(c->t->devices[i].driver, "sd") == 0 &&
		    c->t->devices[i].state == TWIN_WITH;
	if (sd && pl.hba_fmt != NULL && pl.hba_disks == 0) {
		strbuf_addc(&c->vm, '\n');
		twin_comment(&c->vm, "a disk for the bundle's SCSI/ATA disks "
		    "(sd) on the first controller");
		twin_hba_disk(c, &pl, NULL);
	}
	twin_legacy(c);
	if ((msg = vm_allow_finish(&c->allow, &lineno)) != NULL) {
		if (c->refused == NULL)
			c->refused = xasprintf("line %d: %s", lineno, msg);
		free(msg);
	}
	free(pl.hba_fmt);
}
