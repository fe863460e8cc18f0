/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin.c - the twin machine from a bundle's evidence (twin.h): every
 * bound device of the drivers file looked up in the table
 * (twin-table.c) and given a twin or a reason why not, the machine type
 * (q35 or pc) from the chipset the bundle shows, the CPU vendor, the
 * CPUs and the memory; then the vm file (twin-vm.c) and the workload
 * (twin-workload.c) are written from that.
 *
 * The bound devices come from the drivers file line by line (split as
 * kctui verify's devices check splits them, vm_driver_split), not from
 * the evidence's items: those are one per driver name, and the twin
 * needs every device (two virtio-blk disks are two disks, two CPUs are
 * smp 2). Everything else comes from the evidence readers.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/strmap.h"
#include "../../lib/text.h"
#include "../evidence/evidence.h"
#include "../evidence/zstream.h"
#include "../machine/machine.h"
#include "twin-int.h"

/* Memory when the bundle does not say (MiB): what the project's own
 * recordings ran with, room for an initramfs holding a distribution's
 * whole modules tree (the baseline boot). */
#define TWIN_MEMORY_DEFAULT	4096
/* No more than this: the workload is small, and QEMU under TCG touches
 * what it is given. */
#define TWIN_MEMORY_MAX		8192
/* Less than this cannot boot a distribution kernel's initramfs. */
#define TWIN_MEMORY_MIN		512
/* CPUs: TCG runs each as a host thread; more than this buys nothing. */
#define TWIN_SMP_MAX		8

/* The bundle file name of bundle b (plain, .xz or .gz), decoded. */
static char *
twin_bundle_file(const struct twin_ctx *c, int b, const char *name)
{
	const struct ev_bundle	*eb = evidence_bundle(c->ev, b);
	char			*text, *vis;

	if (eb == NULL || eb->path == NULL || *eb->path == '\0')
		return NULL;
	if ((text = zstream_bundle_text(eb->path, name)) == NULL)
		return NULL;
	/* what the twin copies into its comments and messages is text:
	 * escape bytes made visible, as the evidence readers make its
	 * names (lib/text.h) */
	if (text_is_visible(text, strlen(text), TEXT_KEEP_NEWLINE))
		return text;
	vis = text_visible_str(text, TEXT_KEEP_NEWLINE);
	free(text);
	return vis;
}

/* The first bundle file of that name among the bundles (twin-int.h). */
char *
twin_bundle_text(const struct twin_ctx *c, const char *name)
{
	char	*text;
	int	 b;

	for (b = 0; b < evidence_nbundles(c->ev); b++)
		if ((text = twin_bundle_file(c, b, name)) != NULL)
			return text;
	return NULL;
}

/* Append "# TEXT" to sb, wrapped at 72 columns (twin-int.h). */
void
twin_comment(struct strbuf *sb, const char *fmt, ...)
{
	va_list		 ap;
	char		*text;
	const char	*p, *word;
	size_t		 col = 0, n;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	for (p = text; *p != '\0'; ) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		word = p;
		while (*p != '\0' && *p != ' ')
			p++;
		n = (size_t)(p - word);
		if (col > 0 && col + 1 + n > 72) {
			strbuf_addc(sb, '\n');
			col = 0;
		}
		if (col == 0) {
			strbuf_adds(sb, "#");
			col = 1;
		}
		strbuf_addc(sb, ' ');
		strbuf_add(sb, word, n);
		col += 1 + n;
	}
	if (col > 0)
		strbuf_addc(sb, '\n');
	free(text);
}

/* Order devices by path, then bus and driver: the recorded machine's
 * PCI order, a controller before what sits on it. */
static int
twin_device_cmp(const void *x, const void *y)
{
	const struct twin_device *a = x, *b = y;
	int			  r;

	if ((r = strcmp(a->path, b->path)) != 0)
		return r;
	if ((r = strcmp(a->bus, b->bus)) != 0)
		return r;
	return strcmp(a->driver, b->driver);
}

/*
 * Add one bound device, a line of a bundle's drivers file as the
 * evidence read it (the one reader: evidence_binding), unless it is there
 * already (several bundles of one machine); seen is the set of
 * "path\tbus\tdriver" of those added (a hash set: a million drivers
 * lines take seconds, not hours).
 */
static void
twin_add_binding(struct twin_ctx *c, struct strmap *seen, struct arena *a,
    const struct ev_binding *bd)
{
	struct twin		*t = c->t;
	struct twin_device	*d;
	struct strmap_entry	*e;
	char			*key;
	bool			 added;

	key = xasprintf("%s\t%s\t%s", bd->device, bd->bus, bd->driver);
	e = strmap_insert(seen, key, strlen(key), &added);
	if (added)
		e->key = arena_strdup(a, key);	/* the set's own copy */
	free(key);
	if (!added)
		return;
	if (t->ndevices == c->devices_cap) {
		c->devices_cap = c->devices_cap != 0 ? 2 * c->devices_cap : 64;
		t->devices = xrealloc(t->devices, c->devices_cap *
		    sizeof *t->devices);
	}
	d = &t->devices[t->ndevices++];
	memset(d, 0, sizeof *d);
	d->bus = xstrdup(bd->bus);
	d->driver = xstrdup(bd->driver);
	d->path = xstrdup(bd->device);
	/* Interned by the evidence, which outlives the twin's making. */
	d->module = bd->module;
	/* Each device's own modalias, by its path: two devices of one
	 * kind (a machine's two USB HID devices) keep theirs. */
	d->modalias = evidence_device_modalias(c->ev, d->path);
}

/* Every bound device of every bundle's drivers file, sorted; -1 with
 * *cause when no bundle has one. */
static int
twin_read_devices(struct twin_ctx *c, char **cause)
{
	const struct ev_binding	*bd;
	struct strmap		 seen;
	struct arena		 a;
	size_t			 i;
	int			 b, found = 0;

	for (b = 0; b < evidence_nbundles(c->ev); b++)
		found |= evidence_bundle(c->ev, b)->has_drivers;
	if (!found) {
		*cause = xasprintf("%s: no drivers file: the twin is made "
		    "from the devices the machine had bound (kctui collect "
		    "records it)", evidence_nbundles(c->ev) > 0 ?
		    evidence_bundle(c->ev, 0)->path : "(no bundle)");
		return -1;
	}
	strmap_init(&seen);
	arena_init(&a);
	for (i = 0; (bd = evidence_binding(c->ev, i)) != NULL; i++)
		twin_add_binding(c, &seen, &a, bd);
	strmap_free(&seen);
	arena_free(&a);
	/* an empty drivers file leaves devices NULL, which qsort must not
	 * be given */
	if (c->t->ndevices > 1)
		qsort(c->t->devices, c->t->ndevices, sizeof *c->t->devices,
		    twin_device_cmp);
	return 0;
}

/* Whether some device's modalias starts with prefix. */
static bool
twin_has_modalias(const struct evidence *ev, const char *prefix)
{
	size_t	i, n = evidence_count(ev, EV_DEVICE);

	for (i = 0; i < n; i++)
		if (strncmp(evidence_item(ev, EV_DEVICE, i)->name, prefix,
		    strlen(prefix)) == 0)
			return true;
	return false;
}

/* Whether a device of that driver is bound (its path has path_has). */
static bool
twin_has_driver(const struct twin *t, const char *driver,
    const char *path_has)
{
	size_t	i;

	for (i = 0; i < t->ndevices; i++)
		if (strcmp(t->devices[i].driver, driver) == 0 &&
		    (path_has == NULL ||
		    strstr(t->devices[i].path, path_has) != NULL))
			return true;
	return false;
}

/*
 * q35 or pc: QEMU's pc is the i440FX with the PIIX3 south bridge, q35
 * the ICH9. The bundle shows one of them by the host bridge's and the
 * south bridge's PCI IDs (8086:1237 i440FX, 8086:7000 PIIX3, 8086:7113
 * PIIX4; 8086:29c0 Q35, 8086:2918 ICH9 LPC) or their drivers (ata_piix,
 * piix4_smbus; lpc_ich and ahci at 00:1f). Anything else is a modern
 * machine: q35, QEMU's PCIe machine.
 */
static void
twin_machine(struct twin_ctx *c)
{
	const struct evidence	*ev = c->ev;
	bool			 pc, q35;

	pc = twin_has_modalias(ev, "pci:v00008086d00001237") ||
	    twin_has_modalias(ev, "pci:v00008086d00007000") ||
	    twin_has_modalias(ev, "pci:v00008086d00007113") ||
	    twin_has_driver(c->t, "ata_piix", NULL) ||
	    twin_has_driver(c->t, "piix4_smbus", NULL);
	q35 = twin_has_modalias(ev, "pci:v00008086d000029C0") ||
	    twin_has_modalias(ev, "pci:v00008086d00002918") ||
	    twin_has_driver(c->t, "lpc_ich", "0000:00:1f.0") ||
	    twin_has_driver(c->t, "ahci", "0000:00:1f.2");
	if (pc && !q35) {
		c->machine = TWIN_PC;
		c->t->machine = "pc";
		c->machine_why = "the bundle shows the i440FX/PIIX chipset "
		    "(QEMU's pc)";
	} else {
		c->machine = TWIN_Q35;
		c->t->machine = "q35";
		c->machine_why = q35 ? "the bundle shows an ICH9 chipset (LPC "
		    "or AHCI at 00:1f, or the Q35 host bridge)" : "nothing "
		    "PIIX-like in the bundle: QEMU's PCIe machine";
	}
}

/* The vendor string of an x86 vendor number (the kernel's X86_VENDOR_*,
 * as the cpu modalias prints it), or NULL. */
static const char *
twin_cpu_vendor(unsigned v)
{
	switch (v) {
	case 0:
		return "GenuineIntel";
	case 2:
		return "AuthenticAMD";
	case 9:
		return "HygonGenuine";
	}
	return NULL;
}

/* A "key : value" line's value in /proc/cpuinfo or /proc/meminfo text,
 * the first one (malloc'd), or NULL. */
static char *
twin_info_value(const char *text, const char *key)
{
	const char	*p, *v, *e;
	size_t		 n = strlen(key);

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, key, n) != 0 || (p[n] != ' ' && p[n] != '\t' &&
		    p[n] != ':'))
			continue;
		if ((v = strchr(p, ':')) == NULL)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (e = v; *e != '\0' && *e != '\n'; e++)
			;
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		return xstrndup(v, (size_t)(e - v));
	}
	return NULL;
}

/* Whether s is a token QEMU's -cpu takes as a vendor (12 letters). */
static bool
twin_vendor_ok(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' &&
		    s[i] <= 'z')))
			return false;
	return i == 12;
}

/*
 * The CPU: QEMU's "max" (every feature this QEMU can give, under KVM
 * the host's) with the recorded vendor, from cpuinfo's vendor_id when
 * the bundle has it, else from the cpu modalias ("cpu:type:x86,ven0000
 * ..."): the kernel's vendor code (CPU_SUP_INTEL, CPU_SUP_AMD, their
 * microcode and KVM modules) runs as on the recorded machine. The CPUs:
 * cpuinfo's processors, else the cpu devices bound to "processor".
 */
static void
twin_cpu(struct twin_ctx *c, const char *cpuinfo)
{
	const char	*vendor = NULL, *p, *src = NULL;
	char		*v = NULL;
	unsigned	 ven;
	size_t		 i, n = 0;

	if (cpuinfo != NULL && (v = twin_info_value(cpuinfo, "vendor_id")) !=
	    NULL && twin_vendor_ok(v)) {
		vendor = v;
		src = "cpuinfo's vendor_id";
	}
	for (i = 0; vendor == NULL && i < evidence_count(c->ev, EV_DEVICE);
	    i++) {
		p = evidence_item(c->ev, EV_DEVICE, i)->name;
		if (strncmp(p, "cpu:type:x86,ven", 16) == 0 &&
		    sscanf(p + 16, "%4x", &ven) == 1 &&
		    (vendor = twin_cpu_vendor(ven)) != NULL)
			src = "the cpu modalias (system/cpu)";
	}
	c->cpu = vendor != NULL ? xasprintf("max,vendor=%s", vendor) :
	    xstrdup("max");
	c->cpu_why = vendor != NULL ? xasprintf("vendor %s from %s; max: "
	    "every CPU feature this QEMU gives", vendor, src) :
	    xstrdup("the bundle does not say the CPU vendor; max: every CPU "
	    "feature this QEMU gives");
	free(v);

	if (cpuinfo != NULL)
		for (p = cpuinfo; (p = strstr(p, "processor")) != NULL; p++)
			if (p == cpuinfo || p[-1] == '\n')
				n++;
	src = "cpuinfo";
	if (n == 0) {
		src = "the CPUs bound to 'processor'";
		for (i = 0; i < c->t->ndevices; i++)
			n += strcmp(c->t->devices[i].bus, "cpu") == 0 &&
			    strcmp(c->t->devices[i].driver, "processor") == 0;
	}
	if (n == 0) {
		n = 2;
		src = "the bundle does not say; two, so SMP code runs";
	}
	c->smp = (int)n;
	if (c->smp > TWIN_SMP_MAX)
		c->smp = TWIN_SMP_MAX;
	if (c->o->host_cpus > 0 && c->smp > c->o->host_cpus)
		c->smp = c->o->host_cpus;
	c->smp_why = c->smp == (int)n ? xasprintf("%zu CPU%s (%s)", n,
	    n == 1 ? "" : "s", src) : xasprintf("%zu CPUs (%s), capped at "
	    "%d (the host's CPUs, at most %d)", n, src, c->smp,
	    TWIN_SMP_MAX);
}

/* The memory: meminfo's MemTotal when the bundle has it, else the
 * default, capped; -1 with *cause when the host is too small. */
static int
twin_memory(struct twin_ctx *c, const char *meminfo, char **cause)
{
	char		*v = NULL;
	long		 want = 0, cap = TWIN_MEMORY_MAX;
	const char	*src = "the bundle does not say its RAM";

	if (meminfo != NULL && (v = twin_info_value(meminfo, "MemTotal")) !=
	    NULL && (want = strtol(v, NULL, 10) / 1024) > 0)
		src = "meminfo's MemTotal";
	else
		want = TWIN_MEMORY_DEFAULT;
	free(v);
	/* whole 256 MiB, as a machine's RAM is */
	want = (want + 255) / 256 * 256;
	if (c->o->host_mib > 0 && c->o->host_mib < (uint64_t)cap + 1024)
		cap = (long)c->o->host_mib - 1024;
	if (cap < TWIN_MEMORY_MIN) {
		*cause = xasprintf("this host has %llu MiB of RAM: a twin "
		    "needs %d MiB and 1 GiB to spare", (unsigned long long)
		    c->o->host_mib, TWIN_MEMORY_MIN);
		return -1;
	}
	c->memory = want > cap ? (int)cap : (int)want;
	c->memory_why = want > cap ? xasprintf("%ld MiB (%s), capped at %ld "
	    "(at most %d, and the host's RAM less 1 GiB)", want, src, cap,
	    TWIN_MEMORY_MAX) : xasprintf("%ld MiB (%s)", want, src);
	return 0;
}

/* The QEMU device a rule gives on this machine, or NULL. */
static const char *
twin_rule_qemu(const struct twin_ctx *c, const struct twin_rule *r)
{
	if (c->machine == TWIN_PC && r->qemu_pc != NULL)
		return r->qemu_pc;
	return r->qemu;
}

/* The USB HID device an interface's modalias asks for: its boot
 * protocol (ip01 keyboard, ip02 mouse), else a tablet (any HID). */
static const char *
twin_hid_kind(const char *modalias)
{
	const char	*p;

	if (modalias == NULL || (p = strstr(modalias, "ic03isc01ip")) ==
	    NULL)
		return "usb-tablet";
	if (strncmp(p + 11, "01", 2) == 0)
		return "usb-kbd";
	if (strncmp(p + 11, "02", 2) == 0)
		return "usb-mouse";
	return "usb-tablet";
}

/* Set a device's state and its text. */
static void __attribute__((format(printf, 4, 5)))
twin_set(struct twin_device *d, enum twin_state state, const char *qemu,
    const char *fmt, ...)
{
	va_list	ap;

	d->state = state;
	d->qemu = qemu;
	free(d->why);
	va_start(ap, fmt);
	d->why = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Whether a device is the interface of a USB hub that is not a root
 * hub: its USB device ("1-1" in .../usb1/1-1/1-1:1.0) is not the
 * controller's root hub ("usb1"). */
static bool
twin_external_hub(const struct twin_device *d)
{
	const char	*end, *dev;

	if (strcmp(d->bus, "usb") != 0 || strcmp(d->driver, "hub") != 0 ||
	    (end = strrchr(d->path, '/')) == NULL)
		return false;
	for (dev = end; dev > d->path && dev[-1] != '/'; dev--)
		;
	return strncmp(dev, "usb", 3) != 0;
}

/* twin_qemu_has, remembered per device name: a scan of QEMU's whole
 * -device help per bound device was quadratic in the drivers file. */
static bool
twin_ctx_qemu_has(struct twin_ctx *c, const char *q)
{
	struct strmap_entry	*e;
	bool			 added;

	e = strmap_insert(&c->qemu_has, q, strlen(q), &added);
	if (added) {
		e->key = arena_strdup(&c->scratch, q);
		e->value = twin_qemu_has(c->o->qemu_devices, q) ?
		    (void *)2 : (void *)1;
	}
	return e->value == (void *)2;
}

/* One device's twin from its rule. */
static void
twin_decide(struct twin_ctx *c, size_t i)
{
	struct twin_device	*d = &c->t->devices[i];
	const struct twin_rule	*r = c->rule[i];
	const char		*q;

	if (r == NULL) {
		twin_set(d, TWIN_NONE, NULL, "QEMU has no model of it that "
		    "kctui knows (docs/verify.md, \"The twin machine\")");
		return;
	}
	if (twin_external_hub(d)) {
		/* a hub of its own, not a controller's root hub: QEMU's
		 * usb-hub on the twin's USB controller */
		if (c->o->qemu_devices == NULL ||
		    twin_qemu_has(c->o->qemu_devices, "usb-hub"))
			twin_set(d, TWIN_DEVICE, "usb-hub", "usb-hub: a USB "
			    "hub");
		else
			twin_set(d, TWIN_NONE, NULL, "this QEMU has no "
			    "'usb-hub'");
		return;
	}
	switch (r->role) {
	case TR_NONE:
		twin_set(d, TWIN_NONE, NULL, "%s", r->note);
		return;
	case TR_KERNEL:
		twin_set(d, TWIN_KERNEL, NULL, "made by the kernel: %s",
		    r->note);
		return;
	case TR_WITH:
		twin_set(d, TWIN_WITH, r->qemu, "comes with %s: %s", r->qemu,
		    r->note);
		return;
	case TR_MACHINE:
		if (r->machines & c->machine)
			twin_set(d, TWIN_MACHINE, c->t->machine, "part of "
			    "QEMU's %s: %s", c->t->machine, r->note);
		else
			twin_set(d, TWIN_NONE, NULL, "only QEMU's %s has it "
			    "(%s), and the twin is %s", c->machine == TWIN_PC ?
			    "q35" : "pc", r->note, c->t->machine);
		return;
	default:
		break;
	}
	if (r->role == TR_HBA && (r->machines & c->machine)) {
		twin_set(d, TWIN_MACHINE, c->t->machine, "part of QEMU's %s: "
		    "%s", c->t->machine, r->note);
		return;
	}
	q = r->role == TR_USBHID ? twin_hid_kind(d->modalias) :
	    twin_rule_qemu(c, r);
	if (q == NULL) {
		twin_set(d, TWIN_NONE, NULL, "only QEMU's %s has it (%s)",
		    c->machine == TWIN_PC ? "q35" : "pc", r->note);
		return;
	}
	if (strcmp(q, "pcie-root-port") == 0 && c->machine != TWIN_Q35) {
		twin_set(d, TWIN_NONE, NULL, "a PCIe root port: QEMU's pc is "
		    "PCI only");
		return;
	}
	if (c->o->qemu_devices != NULL && !twin_ctx_qemu_has(c, q)) {
		twin_set(d, TWIN_NONE, NULL, "this QEMU has no '%s' (%s)", q,
		    r->note);
		return;
	}
	twin_set(d, TWIN_DEVICE, q, "%s: %s", q, r->note);
}

/* The nearest device bound above device i (its path a prefix of i's,
 * up to a '/'), or -1: by the path's ancestors looked up in paths (each
 * path to its last device + 1), in the depth of the path, not the number
 * of devices. */
static long
twin_parent_of(const struct twin *t, const struct strmap *paths, size_t i)
{
	const char	*p = t->devices[i].path;
	size_t		 n = strlen(p);
	void		*v;

	while (n > 0) {
		while (n > 0 && p[n - 1] != '/')
			n--;
		if (n == 0)
			break;
		n--;	/* the '/' */
		if ((v = strmap_get(paths, p, n)) != NULL)
			return (long)((uintptr_t)v - 1);
	}
	return -1;
}

/*
 * What comes with another device follows it: under a device with no
 * twin (a disk on a RAID controller, a HID device on I2C), or above
 * only such devices (the PCI transport of a virtio-serial, the USB
 * device of a Bluetooth interface), it has no twin either. Several HID
 * interfaces of one USB device are one QEMU device.
 */
static void
twin_follow(struct twin_ctx *c)
{
	struct twin		*t = c->t;
	struct twin_device	*d, *p;
	struct strmap		 paths, groups;
	struct strmap_entry	*e;
	size_t			 i, *kids, *none;
	long			 up, *parent;
	char			 key[64];
	bool			 added;

	strmap_init(&paths);
	strmap_reserve(&paths, t->ndevices);
	for (i = 0; i < t->ndevices; i++)
		strmap_set(&paths, t->devices[i].path,
		    strlen(t->devices[i].path), (void *)(uintptr_t)(i + 1));
	parent = xcalloc(t->ndevices + 1, sizeof *parent);
	kids = xcalloc(t->ndevices + 1, sizeof *kids);
	none = xcalloc(t->ndevices + 1, sizeof *none);
	for (i = 0; i < t->ndevices; i++)
		parent[i] = twin_parent_of(t, &paths, i);
	strmap_free(&paths);
	for (i = 0; i < t->ndevices; i++) {
		d = &t->devices[i];
		if (d->state != TWIN_WITH || (up = parent[i]) < 0)
			continue;
		p = &t->devices[up];
		if (p->state == TWIN_NONE)
			twin_set(d, TWIN_NONE, NULL, "under %s %s, which has "
			    "no twin", p->driver, p->path);
	}
	/* Devices are sorted by path, so a parent comes before its
	 * children: from the last device back, each child is final when
	 * it is counted into its parent's kids. */
	for (i = t->ndevices; i-- > 0; ) {
		d = &t->devices[i];
		if (d->state == TWIN_WITH && kids[i] > 0 && kids[i] == none[i])
			twin_set(d, TWIN_NONE, NULL, "%s of devices that have "
			    "no twin", d->driver);
		if (parent[i] >= 0) {
			kids[parent[i]]++;
			none[parent[i]] += d->state == TWIN_NONE;
		}
	}
	/* usbhid interfaces: one QEMU device per USB device (the path's
	 * parent), the keyboard winning over the mouse over the tablet;
	 * the first interface of each (rule, parent) takes the others */
	strmap_init(&groups);
	for (i = 0; i < t->ndevices; i++) {
		p = &t->devices[i];
		if (p->state != TWIN_DEVICE || c->rule[i] == NULL ||
		    c->rule[i]->role != TR_USBHID)
			continue;
		snprintf(key, sizeof key, "%p %ld", (const void *)c->rule[i],
		    parent[i]);
		e = strmap_insert(&groups, key, strlen(key), &added);
		if (added) {
			e->key = arena_strdup(&c->scratch, key);
			e->value = (void *)(uintptr_t)(i + 1);
			continue;
		}
		d = &t->devices[(uintptr_t)e->value - 1];
		if (strcmp(p->qemu, "usb-kbd") == 0 ||
		    (strcmp(p->qemu, "usb-mouse") == 0 &&
		    strcmp(d->qemu, "usb-tablet") == 0))
			d->qemu = p->qemu;
		twin_set(p, TWIN_WITH, d->qemu, "another interface of "
		    "the USB device %s", d->path);
	}
	strmap_free(&groups);
	free(parent);
	free(kids);
	free(none);
}

/* The file system types the bundle had mounted, and how each is
 * tested; the storage driver their disks go on. */
static void
twin_filesystems(struct twin_ctx *c)
{
	/* Where file system disks go, best first: the kinds a root file
	 * system is likely on. */
	static const char *const order[] = {
		"nvme", "virtio_blk", "ahci", "virtio_scsi", "sym53c8xx",
		"megaraid_sas", "vmw_pvscsi", "mptsas", "ata_piix",
		"usb-storage", NULL
	};
	struct twin		*t = c->t;
	struct twin_fs		*f;
	const struct ev_item	*it;
	const char		*mkfs, *why;
	size_t			 i, j, n = evidence_count(c->ev, EV_MOUNT);
	int			 kind;

	for (i = 0; order[i] != NULL && c->primary == NULL; i++)
		for (j = 0; j < t->ndevices; j++)
			if (strcmp(t->devices[j].driver, order[i]) == 0 &&
			    (t->devices[j].state == TWIN_DEVICE ||
			    t->devices[j].state == TWIN_MACHINE)) {
				c->primary = order[i];
				break;
			}
	t->fs = xcalloc(n + 1, sizeof *t->fs);
	for (i = 0; i < n; i++) {
		it = evidence_item(c->ev, EV_MOUNT, i);
		f = &t->fs[t->nfs++];
		f->type = xstrdup(it->name);
		kind = twin_fs_kind(it->name, &mkfs, &why);
		switch (kind) {
		case 'i':
			f->why = xstrdup("mounted by the guest's /init itself");
			break;
		case 'p':
			f->tested = true;
			f->why = xstrdup("mounted, and written and read back "
			    "where it holds files");
			break;
		case 'd':
		case 'm':
			if (c->primary == NULL) {
				f->why = xstrdup("no disk: the bundle has no "
				    "storage controller the twin has");
				break;
			}
			f->tested = true;
			f->disk = xstrdup(it->name);
			f->why = kind == 'd' ? xasprintf("disk '%s' on %s, "
			    "made with mkfs.%s on the host", f->disk,
			    c->primary, f->type) : xasprintf("disk '%s' on "
			    "%s, made with busybox %s in the guest", f->disk,
			    c->primary, mkfs);
			break;
		default:
			f->why = xstrdup(why);
			break;
		}
	}
}

/* The bundle's workload.d, if it has the helpers the workload uses. */
static void
twin_helpers(struct twin_ctx *c)
{
	const struct ev_bundle	*eb;
	struct stat		 st;
	char			*p;
	int			 b;

	for (b = 0; b < evidence_nbundles(c->ev) && c->helpers == NULL; b++) {
		eb = evidence_bundle(c->ev, b);
		if (eb->path == NULL || *eb->path == '\0')
			continue;
		/* lstat: a helper that is a link is still the bundle's (and
		 * refused by name when read, lib/beneath.h), not a host file
		 * read through it */
		p = xasprintf("%s/workload.d/tcploop.c", eb->path);
		c->tcploop = lstat(p, &st) == 0;
		free(p);
		p = xasprintf("%s/workload.d/afalg.c", eb->path);
		c->afalg = lstat(p, &st) == 0;
		free(p);
		if (c->tcploop || c->afalg)
			c->helpers = xasprintf("%s/workload.d", eb->path);
	}
}

/* A helper file the workload runs, to be copied beside it. */
static void
twin_add_helper(struct twin *t, const char *name)
{
	t->helper_files = xrealloc(t->helper_files, (t->nhelper_files + 1) *
	    sizeof *t->helper_files);
	t->helper_files[t->nhelper_files++] = xstrdup(name);
}

/* The host's RAM (MiB) and online CPUs, for the caps. */
void
twin_opts_host(struct twin_opts *o)
{
	long	pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	long	cpus = sysconf(_SC_NPROCESSORS_ONLN);

	o->host_mib = pages > 0 && psize > 0 ?
	    (uint64_t)pages * (uint64_t)psize >> 20 : 0;
	o->host_cpus = cpus > 0 ? (int)cpus : 0;
}

/* The devices with no twin, indexed once their states are final: the
 * callers walk them by index. */
static void
twin_index_unverifiable(struct twin *t)
{
	size_t	i;

	free(t->none);
	t->none = xcalloc(t->ndevices + 1, sizeof *t->none);
	t->nnone = 0;
	for (i = 0; i < t->ndevices; i++)
		if (t->devices[i].state == TWIN_NONE)
			t->none[t->nnone++] = i;
}

/* Make the twin (twin.h). */
int
twin_make(const struct evidence *ev, const struct twin_opts *o,
    struct twin *out, char **cause)
{
	static const struct twin_opts	 none;
	struct twin_ctx			 c;
	const struct ev_bundle		*eb;
	char				*cpuinfo, *meminfo;
	size_t				 i;
	int				 rc = -1;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	arena_init(&c.scratch);
	c.ev = ev;
	c.o = o != NULL ? o : &none;
	c.t = out;
	strbuf_init(&c.vm);
	eb = evidence_nbundles(ev) > 0 ? evidence_bundle(ev, 0) : NULL;
	if (eb != NULL && eb->uname != NULL &&
	    strstr(eb->uname, " x86_64") == NULL) {
		/* The table is the PC's, and QEMU's x86 machines. */
		*cause = xasprintf("%s: recorded on '%s', not x86_64: kctui's "
		    "twin machines are x86_64 PCs", eb->path, eb->uname);
		goto out;
	}
	if (twin_read_devices(&c, cause) != 0)
		goto out;
	twin_machine(&c);
	c.rule = xcalloc(out->ndevices + 1, sizeof *c.rule);
	for (i = 0; i < out->ndevices; i++) {
		c.rule[i] = twin_rule_find(out->devices[i].bus,
		    out->devices[i].driver, out->devices[i].path);
		twin_decide(&c, i);
	}
	twin_follow(&c);
	twin_index_unverifiable(out);
	cpuinfo = twin_bundle_text(&c, "cpuinfo");
	meminfo = twin_bundle_text(&c, "meminfo");
	twin_cpu(&c, cpuinfo);
	rc = twin_memory(&c, meminfo, cause);
	free(cpuinfo);
	free(meminfo);
	if (rc != 0)
		goto out;
	twin_filesystems(&c);
	twin_helpers(&c);
	twin_vm_write(&c);
	if (c.refused != NULL) {
		/* A twin outside the allow-list is kctui's bug: say which
		 * line rather than hand QEMU something it was not meant to
		 * get. */
		*cause = xasprintf("the twin's vm file is refused by the "
		    "allow-list (a bug): %s", c.refused);
		rc = -1;
		goto out;
	}
	out->vm = strbuf_detach(&c.vm);
	twin_workload_write(&c);
	if (c.helpers != NULL) {
		out->helpers = c.helpers;
		c.helpers = NULL;
		if (c.tcploop)
			twin_add_helper(out, "tcploop.c");
		if (c.afalg)
			twin_add_helper(out, "afalg.c");
	}
	rc = 0;
out:
	strbuf_free(&c.vm);
	arena_free(&c.scratch);
	strmap_free(&c.qemu_has);
	vm_allow_free(&c.allow);
	free(c.rule);
	free(c.cpu);
	free(c.cpu_why);
	free(c.smp_why);
	free(c.memory_why);
	free(c.refused);
	free(c.nics);
	free(c.usb_bus);
	free(c.helpers);
	if (rc != 0)
		twin_free(out);
	return rc;
}

/* The vm file's text. */
const char *
twin_vm_text(const struct twin *t)
{
	return t->vm;
}

/* The workload's text. */
const char *
twin_workload_text(const struct twin *t)
{
	return t->workload;
}

/* A bound device by its bus, driver and path, or NULL. */
const struct twin_device *
twin_device_find(const struct twin *t, const char *bus, const char *driver,
    const char *path)
{
	size_t	i;

	for (i = 0; i < t->ndevices; i++)
		if (strcmp(t->devices[i].path, path) == 0 &&
		    strcmp(t->devices[i].driver, driver) == 0 &&
		    strcmp(t->devices[i].bus, bus) == 0)
			return &t->devices[i];
	return NULL;
}

/* How many bound devices have no twin. */
size_t
twin_unverifiable_count(const struct twin *t)
{
	return t->nnone;
}

/* The i-th device with no twin, or NULL. */
const struct twin_device *
twin_unverifiable_at(const struct twin *t, size_t i)
{
	return i < t->nnone ? &t->devices[t->none[i]] : NULL;
}

/* Free a twin. */
void
twin_free(struct twin *t)
{
	size_t	i;

	free(t->vm);
	free(t->workload);
	for (i = 0; i < t->ndevices; i++) {
		free(t->devices[i].bus);
		free(t->devices[i].driver);
		free(t->devices[i].path);
		free(t->devices[i].why);
	}
	free(t->devices);
	free(t->none);
	for (i = 0; i < t->nfs; i++) {
		free(t->fs[i].type);
		free(t->fs[i].disk);
		free(t->fs[i].why);
	}
	free(t->fs);
	for (i = 0; i < t->nsteps; i++)
		free(t->steps[i]);
	free(t->steps);
	free(t->helpers);
	for (i = 0; i < t->nhelper_files; i++)
		free(t->helper_files[i]);
	free(t->helper_files);
	memset(t, 0, sizeof *t);
}
