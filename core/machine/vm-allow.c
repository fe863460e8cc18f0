/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm-allow.c - what a bundle's vm file may ask QEMU for. A bundle comes
 * from another machine and maybe another person, and its option strings
 * go to QEMU on this host: an allow-list, per directive, of the devices
 * (and machine, netdev, object, audiodev types) kctui knows to be guest
 * hardware only, and of the option keys each may set. Nothing that names
 * a host file, script, file descriptor, chardev, socket or host device
 * is on it; networking is user-mode only. The twin machine generates
 * into exactly this list (docs/evidence.md lists it).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "machine.h"
#include "vm-allow.h"

/* How a key's value is checked. */
enum allow_val {
	AV_TOKEN,	/* [A-Za-z0-9_.:+-]+: numbers, on/off, names, ids */
	AV_NET,		/* a token or an address with a prefix: '/' too */
	AV_NETDEV,	/* the id of a netdev line */
	AV_OBJECT,	/* the id of an object line */
	AV_AUDIODEV,	/* the id of an audiodev line */
	AV_RNGFILE,	/* /dev/urandom or /dev/random, nothing else */
};

struct allow_key {
	const char	*key;
	enum allow_val	 val;
};

/* Keys every device may set: where it sits, and its own id. */
static const struct allow_key keys_device[] = {
	{ "id", AV_TOKEN }, { "bus", AV_TOKEN }, { "addr", AV_TOKEN },
	{ "multifunction", AV_TOKEN }, { "bootindex", AV_TOKEN },
	{ NULL, 0 }
};
/* virtio transports. */
static const struct allow_key keys_virtio[] = {
	{ "disable-legacy", AV_TOKEN }, { "disable-modern", AV_TOKEN },
	{ "iommu_platform", AV_TOKEN }, { "ats", AV_TOKEN },
	{ "vectors", AV_TOKEN }, { "event_idx", AV_TOKEN },
	{ "indirect_desc", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_nic[] = {
	{ "netdev", AV_NETDEV }, { "mac", AV_TOKEN }, { "mq", AV_TOKEN },
	{ "x-pcie-lnksta-dllla", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_rng[] = {
	{ "rng", AV_OBJECT }, { "max-bytes", AV_TOKEN },
	{ "period", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_crypto[] = {
	{ "cryptodev", AV_OBJECT }, { NULL, 0 }
};
static const struct allow_key keys_usbhc[] = {
	{ "p2", AV_TOKEN }, { "p3", AV_TOKEN }, { "streams", AV_TOKEN },
	{ "masterbus", AV_TOKEN }, { "firstport", AV_TOKEN },
	{ "numintrs", AV_TOKEN }, { "intrs", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_usbdev[] = {
	{ "port", AV_TOKEN }, { "display", AV_TOKEN }, { "head", AV_TOKEN },
	{ "ports", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_audio[] = {
	{ "audiodev", AV_AUDIODEV }, { "msi", AV_TOKEN },
	{ "mixer", AV_TOKEN }, { "debug", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_display[] = {
	{ "vgamem_mb", AV_TOKEN }, { "xres", AV_TOKEN }, { "yres", AV_TOKEN },
	{ "edid", AV_TOKEN }, { "max_outputs", AV_TOKEN },
	{ "ram_size_mb", AV_TOKEN }, { "vram_size_mb", AV_TOKEN },
	{ "vram64_size_mb", AV_TOKEN },
	{ "max_hostmem", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_hba[] = {
	{ "num_queues", AV_TOKEN }, { "max_sectors", AV_TOKEN },
	{ "cmd_per_lun", AV_TOKEN }, { "ports", AV_TOKEN },
	{ "serial", AV_TOKEN }, { "max_ioqpairs", AV_TOKEN },
	{ "msi", AV_TOKEN }, { "msix", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_bridge[] = {
	{ "chassis", AV_TOKEN }, { "slot", AV_TOKEN }, { "port", AV_TOKEN },
	{ "chassis_nr", AV_TOKEN }, { "shpc", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_misc[] = {
	{ "deflate-on-oom", AV_TOKEN }, { "free-page-reporting", AV_TOKEN },
	{ "events", AV_TOKEN }, { "iobase", AV_TOKEN }, { "irq", AV_TOKEN },
	{ NULL, 0 }
};
/* What `disk NAME SIZE FSTYPE DEVICE` may add to its device: where it
 * sits and its geometry (drive= and serial= are kctui's). */
static const struct allow_key keys_disk[] = {
	{ "lun", AV_TOKEN }, { "scsi-id", AV_TOKEN }, { "channel", AV_TOKEN },
	{ "port", AV_TOKEN }, { "unit", AV_TOKEN }, { "nsid", AV_TOKEN },
	{ "logical_block_size", AV_TOKEN },
	{ "physical_block_size", AV_TOKEN },
	{ "discard_granularity", AV_TOKEN }, { "rotation_rate", AV_TOKEN },
	{ "num-queues", AV_TOKEN }, { "queue-size", AV_TOKEN },
	{ "removable", AV_TOKEN }, { NULL, 0 }
};

/* Which directives a driver may appear in. */
#define IN_DEVICE	0x1
#define IN_DISK		0x2

/* A QEMU device kctui lets a bundle ask for: guest hardware only. */
struct allow_driver {
	const char		*name;
	int			 where;
	const struct allow_key	*keys[3];
};

static const struct allow_driver drivers[] = {
	/* network (user-mode netdevs only: see netdev) */
	{ "virtio-net-pci", IN_DEVICE, { keys_nic, keys_virtio } },
	{ "e1000", IN_DEVICE, { keys_nic } },
	{ "e1000e", IN_DEVICE, { keys_nic } },
	{ "igb", IN_DEVICE, { keys_nic } },		/* QEMU 8.0 on */
	{ "rtl8139", IN_DEVICE, { keys_nic } },
	{ "vmxnet3", IN_DEVICE, { keys_nic } },
	{ "ne2k_pci", IN_DEVICE, { keys_nic } },
	{ "pcnet", IN_DEVICE, { keys_nic } },
	{ "i82559er", IN_DEVICE, { keys_nic } },
	{ "usb-net", IN_DEVICE, { keys_nic, keys_usbdev } },
	/* storage controllers */
	{ "ich9-ahci", IN_DEVICE, { keys_hba } },
	{ "virtio-scsi-pci", IN_DEVICE, { keys_hba, keys_virtio } },
	{ "lsi53c895a", IN_DEVICE, { keys_hba } },
	{ "lsi53c810", IN_DEVICE, { keys_hba } },
	{ "megasas", IN_DEVICE, { keys_hba } },
	{ "megasas-gen2", IN_DEVICE, { keys_hba } },
	{ "pvscsi", IN_DEVICE, { keys_hba } },
	{ "am53c974", IN_DEVICE, { keys_hba } },
	{ "dc390", IN_DEVICE, { keys_hba } },
	{ "mptsas1068", IN_DEVICE, { keys_hba } },
	/* a controller of nvme-ns disks, or one with its own disk */
	{ "nvme", IN_DEVICE, { keys_hba } },
	{ "nvme", IN_DISK, { keys_disk } },
	{ "sdhci-pci", IN_DEVICE, { keys_hba } },
	/* disks: only through `disk`, which makes their drive */
	{ "virtio-blk-pci", IN_DISK, { keys_disk, keys_virtio } },
	{ "scsi-hd", IN_DISK, { keys_disk } },
	{ "scsi-cd", IN_DISK, { keys_disk } },
	{ "ide-hd", IN_DISK, { keys_disk } },
	{ "ide-cd", IN_DISK, { keys_disk } },
	{ "nvme-ns", IN_DISK, { keys_disk } },
	{ "usb-storage", IN_DISK, { keys_disk, keys_usbdev } },
	{ "sd-card", IN_DISK, { keys_disk } },
	/* USB */
	{ "qemu-xhci", IN_DEVICE, { keys_usbhc } },
	{ "nec-usb-xhci", IN_DEVICE, { keys_usbhc } },
	{ "usb-ehci", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-ehci1", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-ehci2", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci1", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci2", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci3", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci4", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci5", IN_DEVICE, { keys_usbhc } },
	{ "ich9-usb-uhci6", IN_DEVICE, { keys_usbhc } },
	{ "piix3-usb-uhci", IN_DEVICE, { keys_usbhc } },
	{ "piix4-usb-uhci", IN_DEVICE, { keys_usbhc } },
	{ "pci-ohci", IN_DEVICE, { keys_usbhc } },
	{ "usb-kbd", IN_DEVICE, { keys_usbdev } },
	{ "usb-mouse", IN_DEVICE, { keys_usbdev } },
	{ "usb-tablet", IN_DEVICE, { keys_usbdev } },
	{ "usb-hub", IN_DEVICE, { keys_usbdev } },
	{ "usb-audio", IN_DEVICE, { keys_usbdev, keys_audio } },
	/* audio (audiodev none only: see audiodev) */
	{ "intel-hda", IN_DEVICE, { keys_audio } },
	{ "ich9-intel-hda", IN_DEVICE, { keys_audio } },
	{ "hda-duplex", IN_DEVICE, { keys_audio } },
	{ "hda-output", IN_DEVICE, { keys_audio } },
	{ "hda-micro", IN_DEVICE, { keys_audio } },
	{ "AC97", IN_DEVICE, { keys_audio } },
	{ "ES1370", IN_DEVICE, { keys_audio } },
	{ "sb16", IN_DEVICE, { keys_audio, keys_misc } },
	/* display */
	{ "VGA", IN_DEVICE, { keys_display } },
	{ "secondary-vga", IN_DEVICE, { keys_display } },
	{ "bochs-display", IN_DEVICE, { keys_display } },
	{ "cirrus-vga", IN_DEVICE, { keys_display } },
	{ "qxl", IN_DEVICE, { keys_display } },
	{ "qxl-vga", IN_DEVICE, { keys_display } },
	{ "virtio-gpu-pci", IN_DEVICE, { keys_display, keys_virtio } },
	{ "virtio-vga", IN_DEVICE, { keys_display, keys_virtio } },
	{ "ramfb", IN_DEVICE, { keys_display } },
	/* input, entropy, crypto, memory, watchdogs, buses, panic */
	{ "virtio-keyboard-pci", IN_DEVICE, { keys_virtio } },
	{ "virtio-mouse-pci", IN_DEVICE, { keys_virtio } },
	{ "virtio-tablet-pci", IN_DEVICE, { keys_virtio } },
	{ "virtio-rng-pci", IN_DEVICE, { keys_rng, keys_virtio } },
	{ "virtio-crypto-pci", IN_DEVICE, { keys_crypto, keys_virtio } },
	{ "virtio-balloon-pci", IN_DEVICE, { keys_misc, keys_virtio } },
	{ "i6300esb", IN_DEVICE, { keys_misc } },
	{ "ib700", IN_DEVICE, { keys_misc } },
	{ "pvpanic", IN_DEVICE, { keys_misc } },
	{ "pvpanic-pci", IN_DEVICE, { keys_misc } },
	{ "pcie-root-port", IN_DEVICE, { keys_bridge } },
	{ "pci-bridge", IN_DEVICE, { keys_bridge } },
	{ "pcie-pci-bridge", IN_DEVICE, { keys_bridge } },
	{ "x3130-upstream", IN_DEVICE, { keys_bridge } },
	{ "xio3130-downstream", IN_DEVICE, { keys_bridge } },
	{ NULL, 0, { NULL } }
};

/* Keys that look harmless but reach the host; refused by name so the
 * message can say why (they are on no list anyway). */
static const struct {
	const char	*key;
	const char	*why;
} host_keys[] = {
	{ "drive", "disks are given with 'disk' lines, which make their "
	    "drives" },
	{ "chardev", "a chardev is a host file, socket or terminal" },
	{ "romfile", "a ROM file is read from the host" },
	{ "fd", "a file descriptor of the host" },
	{ "file", "a host file" },
	{ "filename", "a host file" },
	{ "mem-path", "a host file mapped into the guest" },
	{ "memdev", "host memory backends are not allowed" },
	{ "script", "QEMU would run a host script" },
	{ "downscript", "QEMU would run a host script" },
	{ "helper", "QEMU would run a host program" },
	{ "hostfwd", "forwards a host port into the guest" },
	{ "guestfwd", "can run a host command" },
	{ "smb", "QEMU would run a host smbd on a host directory" },
	{ "tftp", "serves a host directory" },
	{ "bootfile", "serves a host file" },
	{ "host", "a host device" },
	{ "hostbus", "a host USB device" },
	{ "hostaddr", "a host USB device" },
	{ "hostdevice", "a host device" },
	{ "pcap", "writes a host file" },
	{ "sock", "a host socket" },
	{ "kernel", "kctui gives the kernel itself" },
	{ "initrd", "kctui gives the initramfs itself" },
	{ "append", "the kernel command line is 'cmdline'" },
	{ "dtb", "a host file" },
	{ "firmware", "a host file" },
	{ "serial", "kctui sets a disk's serial to its NAME" },
	{ NULL, NULL }
};

/* Machine types: QEMU's own boards (the versioned ones by prefix). */
static const char *const machine_types[] = {
	"q35", "pc", "isapc", "microvm", "virt", NULL
};
static const char *const machine_prefixes[] = {
	"pc-q35-", "pc-i440fx-", "virt-", NULL
};
static const struct allow_key keys_machine[] = {
	{ "usb", AV_TOKEN }, { "vmport", AV_TOKEN }, { "smm", AV_TOKEN },
	{ "hpet", AV_TOKEN }, { "pit", AV_TOKEN }, { "pic", AV_TOKEN },
	{ "sata", AV_TOKEN }, { "smbus", AV_TOKEN }, { "acpi", AV_TOKEN },
	{ "graphics", AV_TOKEN }, { "kernel-irqchip", AV_TOKEN },
	{ "kernel_irqchip", AV_TOKEN }, { "mem-merge", AV_TOKEN },
	{ "dump-guest-core", AV_TOKEN }, { "i8042", AV_TOKEN },
	{ "rtc", AV_TOKEN }, { "x-option-roms", AV_TOKEN },
	{ "gic-version", AV_TOKEN }, { "highmem", AV_TOKEN },
	{ "its", AV_TOKEN }, { "iommu", AV_TOKEN },
	{ "max-ram-below-4g", AV_TOKEN }, { "pcspk-audiodev", AV_AUDIODEV },
	{ "default-bus-bypass-iommu", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_netdev_user[] = {
	{ "id", AV_TOKEN }, { "ipv4", AV_TOKEN }, { "ipv6", AV_TOKEN },
	{ "net", AV_NET }, { "host", AV_NET }, { "dhcpstart", AV_NET },
	{ "dns", AV_NET }, { "ipv6-net", AV_NET }, { "ipv6-prefix", AV_NET },
	{ "ipv6-prefixlen", AV_TOKEN }, { "ipv6-host", AV_NET },
	{ "ipv6-dns", AV_NET }, { "restrict", AV_TOKEN },
	{ "domainname", AV_TOKEN }, { "hostname", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_object_rng_random[] = {
	{ "id", AV_TOKEN }, { "filename", AV_RNGFILE }, { NULL, 0 }
};
static const struct allow_key keys_object_id[] = {
	{ "id", AV_TOKEN }, { "queues", AV_TOKEN }, { NULL, 0 }
};
static const struct allow_key keys_audiodev_none[] = {
	{ "id", AV_TOKEN }, { "timer-period", AV_TOKEN }, { NULL, 0 }
};

/* Whether s is a token value: [A-Za-z0-9_.:+-]+ (AV_NET: '/' too). */
static bool
allow_token(const char *s, bool slash)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && strchr("_.:+-", *s) ==
		    NULL && !(slash && *s == '/'))
			return false;
	}
	return true;
}

/* The key's entry in up to three tables (and keys_device for devices). */
static const struct allow_key *
allow_find(const struct allow_key *const *tables, size_t ntables,
    const char *key)
{
	const struct allow_key	*k;
	size_t			 i;

	for (i = 0; i < ntables; i++) {
		for (k = tables[i]; k != NULL && k->key != NULL; k++)
			if (strcmp(k->key, key) == 0)
				return k;
	}
	return NULL;
}

/* Why a refused key reaches the host, or NULL. */
static const char *
allow_host_key(const char *key)
{
	size_t i;

	for (i = 0; host_keys[i].key != NULL; i++)
		if (strcmp(host_keys[i].key, key) == 0)
			return host_keys[i].why;
	return NULL;
}

/* Remember an id declared (kind: AV_NETDEV, AV_OBJECT, AV_AUDIODEV). */
static char *
allow_declare(struct vm_allow *a, enum allow_val kind, const char *id,
    int lineno)
{
	size_t i;

	for (i = 0; i < a->nids; i++)
		if (strcmp(a->ids[i].id, id) == 0)
			return xasprintf("id '%s' given twice (first at line "
			    "%d)", id, a->ids[i].lineno);
	a->ids = xrealloc(a->ids, (a->nids + 1) * sizeof *a->ids);
	a->ids[a->nids].id = xstrdup(id);
	a->ids[a->nids].kind = (int)kind;
	a->ids[a->nids].lineno = lineno;
	a->nids++;
	return NULL;
}

/* Remember a reference, checked by vm_allow_finish (ids may come later
 * in the file: QEMU creates backends before devices). */
static void
allow_refer(struct vm_allow *a, enum allow_val kind, const char *key,
    const char *id, int lineno)
{
	a->refs = xrealloc(a->refs, (a->nrefs + 1) * sizeof *a->refs);
	a->refs[a->nrefs].id = xstrdup(id);
	a->refs[a->nrefs].key = xstrdup(key);
	a->refs[a->nrefs].kind = (int)kind;
	a->refs[a->nrefs].lineno = lineno;
	a->nrefs++;
}

/*
 * Check the key=value list after the type (opts points after the first
 * comma, or is NULL): every key on the tables, once, with a value of its
 * class. what names the thing for messages ("device 'e1000'"). The id
 * key declares (declare != 0) an id of that kind. A malloc'd message, or
 * NULL when all is well.
 */
static char *
allow_keys(struct vm_allow *a, const char *what, char *opts,
    const struct allow_key *const *tables, size_t ntables,
    enum allow_val declare, int lineno)
{
	const struct allow_key	*k;
	const char		*why;
	char			*item, *save = NULL, *eq, *msg, **seen = NULL;
	size_t			 nseen = 0, i;

	msg = NULL;
	for (item = opts != NULL ? strtok_r(opts, ",", &save) : NULL;
	    item != NULL && msg == NULL; item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) == NULL) {
			msg = xasprintf("%s: '%s' has no value (key=value)",
			    what, item);
			break;
		}
		*eq = '\0';
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i], item) == 0)
				break;
		if (i < nseen) {
			msg = xasprintf("%s: '%s' given twice", what, item);
			break;
		}
		seen = xrealloc(seen, (nseen + 1) * sizeof *seen);
		seen[nseen++] = item;
		if ((k = allow_find(tables, ntables, item)) == NULL) {
			why = allow_host_key(item);
			msg = why != NULL ? xasprintf("%s: '%s' is not "
			    "allowed (%s)", what, item, why) :
			    xasprintf("%s: '%s' is not an option kctui "
			    "allows here (docs/evidence.md lists them)",
			    what, item);
			break;
		}
		switch (k->val) {
		case AV_RNGFILE:
			if (strcmp(eq + 1, "/dev/urandom") != 0 &&
			    strcmp(eq + 1, "/dev/random") != 0)
				msg = xasprintf("%s: filename must be "
				    "/dev/urandom or /dev/random, not '%s'",
				    what, eq + 1);
			break;
		default:
			if (!allow_token(eq + 1, k->val == AV_NET))
				msg = xasprintf("%s: bad value '%s' for '%s' "
				    "(letters, digits, '_', '.', ':', '+', "
				    "'-'%s)", what, eq + 1, item, k->val ==
				    AV_NET ? ", '/'" : "");
			else if (k->val == AV_NETDEV || k->val == AV_OBJECT ||
			    k->val == AV_AUDIODEV)
				allow_refer(a, k->val, item, eq + 1, lineno);
			else if (strcmp(item, "id") == 0 && declare != 0)
				msg = allow_declare(a, declare, eq + 1, lineno);
			break;
		}
	}
	free(seen);
	return msg;
}

/* The device's table entry for a directive (IN_DEVICE, IN_DISK), else
 * any entry of that name, or NULL. */
static const struct allow_driver *
allow_driver(const char *name, int where)
{
	const struct allow_driver *d, *any = NULL;

	for (d = drivers; d->name != NULL; d++) {
		if (strcmp(d->name, name) != 0)
			continue;
		if (d->where & where)
			return d;
		any = d;
	}
	return any;
}

/* Whether name is one of list, or starts with one of prefixes. */
static bool
allow_in(const char *name, const char *const *list,
    const char *const *prefixes)
{
	size_t i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	for (i = 0; prefixes != NULL && prefixes[i] != NULL; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0 &&
		    allow_token(name + strlen(prefixes[i]), false))
			return true;
	return false;
}

/* Why a device or disk driver is refused, or NULL with *drv set. */
static char *
allow_device(enum vm_allow_directive dir, const char *type,
    const struct allow_driver **drv)
{
	*drv = allow_driver(type, dir == VM_ALLOW_DISK ? IN_DISK : IN_DEVICE);
	if (dir == VM_ALLOW_DISK) {
		if (*drv != NULL && ((*drv)->where & IN_DISK))
			return NULL;
		return xasprintf("'%s' is not a disk device kctui allows "
		    "(virtio-blk-pci, scsi-hd, ide-hd, nvme, nvme-ns, "
		    "usb-storage, ...: docs/evidence.md)", type);
	}
	if (*drv != NULL && ((*drv)->where & IN_DEVICE))
		return NULL;
	if (*drv != NULL)
		return xasprintf("device '%s' is a disk: give it with 'disk "
		    "NAME SIZE FSTYPE %s'", type, type);
	return xasprintf("device '%s' is not one kctui allows (guest "
	    "hardware only: docs/evidence.md lists them)", type);
}

/* 'help' or '?' anywhere (a type, a key, a value) makes QEMU print a
 * list and exit 0 instead of booting: never a machine. */
static char *
allow_no_help(const char *opts)
{
	const char	*p = opts;
	size_t		 n;

	for (;;) {
		n = strcspn(p, ",=");
		if ((n == 4 && strncmp(p, "help", 4) == 0) ||
		    (n == 1 && *p == '?'))
			return xasprintf("'%.*s' in '%s' asks QEMU for a list, "
			    "not a machine", (int)n, p, opts);
		if (p[n] == '\0')
			return NULL;
		p += n + 1;
	}
}

/* A CPU model and its flags ("+x", "-x", "x", "x=y"): they describe the
 * virtual CPU only, so any token is fine here; the model is checked
 * against the QEMU that will run it before the boot (vm.c, -cpu help). */
static char *
allow_cpu(const char *type, char *rest)
{
	char	*item, *save = NULL, *eq;

	if (!allow_token(type, false))
		return xasprintf("bad cpu model '%s'", type);
	for (item = rest != NULL ? strtok_r(rest, ",", &save) : NULL;
	    item != NULL; item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) != NULL)
			*eq = '\0';
		if (!allow_token(item, false) ||
		    (eq != NULL && !allow_token(eq + 1, false)))
			return xasprintf("cpu '%s': bad flag '%s'", type,
			    item);
	}
	return NULL;
}

/* Check one directive's option string (see vm-allow.h). */
char *
vm_allow_check(struct vm_allow *a, enum vm_allow_directive dir,
    const char *opts, int lineno)
{
	const struct allow_driver	*drv;
	const struct allow_key		*tables[4];
	char				*copy, *rest, *msg = NULL, *what = NULL;
	const char			*type;

	if (strstr(opts, ",,") != NULL)
		return xasprintf("',,' (QEMU's escaped comma) is not allowed "
		    "in '%s'", opts);
	if ((msg = allow_no_help(opts)) != NULL)
		return msg;
	copy = xstrdup(opts);
	if ((rest = strchr(copy, ',')) != NULL)
		*rest++ = '\0';
	type = copy;
	/* "driver=NAME" is QEMU's long form of the leading name. */
	if (strncmp(type, "driver=", 7) == 0 || strncmp(type, "type=", 5) == 0)
		type = strchr(type, '=') + 1;
	switch (dir) {
	case VM_ALLOW_DEVICE:
	case VM_ALLOW_DISK:
		if ((msg = allow_device(dir, type, &drv)) != NULL)
			break;
		what = xasprintf("device '%s'", type);
		tables[0] = keys_device;
		tables[1] = drv->keys[0];
		tables[2] = drv->keys[1];
		tables[3] = drv->keys[2];
		msg = allow_keys(a, what, rest, tables, 4, 0, lineno);
		break;
	case VM_ALLOW_MACHINE:
		if (!allow_in(type, machine_types, machine_prefixes)) {
			msg = xasprintf("machine type '%s' is not one kctui "
			    "allows (q35, pc, pc-q35-*, pc-i440fx-*, microvm, "
			    "virt)", type);
			break;
		}
		what = xasprintf("machine '%s'", type);
		tables[0] = keys_machine;
		msg = allow_keys(a, what, rest, tables, 1, 0, lineno);
		break;
	case VM_ALLOW_NETDEV:
		if (strcmp(type, "user") != 0) {
			msg = xasprintf("netdev '%s' is not allowed: user-mode "
			    "networking only (netdev user,id=NAME), nothing "
			    "that reaches the host's network or sockets",
			    type);
			break;
		}
		what = xstrdup("netdev 'user'");
		tables[0] = keys_netdev_user;
		msg = allow_keys(a, what, rest, tables, 1, AV_NETDEV, lineno);
		break;
	case VM_ALLOW_OBJECT:
		if (strcmp(type, "rng-random") != 0 &&
		    strcmp(type, "rng-builtin") != 0 &&
		    strcmp(type, "cryptodev-backend-builtin") != 0) {
			msg = xasprintf("object '%s' is not allowed (rng-random,"
			    " rng-builtin, cryptodev-backend-builtin)", type);
			break;
		}
		what = xasprintf("object '%s'", type);
		tables[0] = strcmp(type, "rng-random") == 0 ?
		    keys_object_rng_random : keys_object_id;
		msg = allow_keys(a, what, rest, tables, 1, AV_OBJECT, lineno);
		break;
	case VM_ALLOW_AUDIODEV:
		if (strcmp(type, "none") != 0) {
			msg = xasprintf("audiodev '%s' is not allowed: 'none' "
			    "only (the guest plays to nowhere; no host sound "
			    "or file)", type);
			break;
		}
		what = xstrdup("audiodev 'none'");
		tables[0] = keys_audiodev_none;
		msg = allow_keys(a, what, rest, tables, 1, AV_AUDIODEV, lineno);
		break;
	case VM_ALLOW_CPU:
		msg = allow_cpu(type, rest);
		break;
	}
	free(what);
	free(copy);
	return msg;
}

/* Every reference names an id of its kind (see vm-allow.h). */
char *
vm_allow_finish(struct vm_allow *a, int *lineno)
{
	size_t	 i, j;

	for (i = 0; i < a->nrefs; i++) {
		for (j = 0; j < a->nids; j++)
			if (strcmp(a->ids[j].id, a->refs[i].id) == 0)
				break;
		*lineno = a->refs[i].lineno;
		if (j == a->nids)
			return xasprintf("%s=%s names no %s line's id",
			    a->refs[i].key, a->refs[i].id, a->refs[i].kind ==
			    AV_NETDEV ? "netdev" : a->refs[i].kind ==
			    AV_AUDIODEV ? "audiodev" : "object");
		if (a->ids[j].kind != a->refs[i].kind)
			return xasprintf("%s=%s names the id of a %s line "
			    "(line %d)", a->refs[i].key, a->refs[i].id,
			    a->ids[j].kind == AV_NETDEV ? "netdev" :
			    a->ids[j].kind == AV_AUDIODEV ? "audiodev" :
			    "object", a->ids[j].lineno);
	}
	return NULL;
}

/* Free what a check remembered. */
void
vm_allow_free(struct vm_allow *a)
{
	size_t i;

	for (i = 0; i < a->nids; i++)
		free(a->ids[i].id);
	for (i = 0; i < a->nrefs; i++) {
		free(a->refs[i].id);
		free(a->refs[i].key);
	}
	free(a->ids);
	free(a->refs);
	memset(a, 0, sizeof *a);
}

/* The i-th device of the allow-list (docs and their test), or NULL past
 * the end; *disk says whether it is given with 'disk'. */
const char *
vm_allow_device_at(size_t i, bool *disk)
{
	if (i >= sizeof drivers / sizeof drivers[0] - 1)
		return NULL;
	*disk = (drivers[i].where & IN_DISK) != 0;
	return drivers[i].name;
}
