/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_twin.c - the twin machine (core/twin/): the driver -> QEMU device
 * table on the real drivers and modalias lines of the project's bundles
 * and against their real modules.alias; for each bundle recorded under
 * QEMU, the twin made from its evidence alone is the machine it was
 * recorded on (the same QEMU devices as its hand-written vm file, the
 * same machine type, CPU and CPU count), every bound device has a twin,
 * and the vm file and the workload load with kctui verify's own loaders
 * (vm-spec.c and its allow-list); the host's caps, a QEMU without a
 * device, bundles that can have no twin.
 */
#include <sys/stat.h>

#include <errno.h>

#define UNIT_PREFIX "twin/"
#include "unit.h"

#include "../../core/evidence/evidence.h"
#include "../../core/twin/twin.h"
#include "../../core/verify/verify.h"
#include "../../core/machine/vm-allow.h"

#define FIXTURES	"tests/fixtures/evidence"

/* The bundles recorded under QEMU with a vm file, and the one kctui
 * collect wrote in the same VM (no vm file). */
static const char *const qemu_bundles[] = {
	"cloud-vm", "cloud-vm-6.12", "cloud-vm-6.12-builtin", NULL
};

/* A fixture bundle's evidence, or NULL (said). */
static struct evidence *
load(const char *name)
{
	struct evidence	*ev = evidence_new();
	char		*dir = xasprintf("%s/%s", FIXTURES, name), *cause = NULL;

	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
		printf("# %s: %s\n", dir, cause);
		free(cause);
		evidence_free(ev);
		ev = NULL;
	}
	free(dir);
	return ev;
}

/* A fixture file's text ("" when missing: the checks then fail). */
static char *
fixture_text(const char *bundle, const char *file)
{
	char	*p = xasprintf("%s/%s/%s", FIXTURES, bundle, file), *t;
	size_t	 len;

	t = file_read_all(p, &len);
	free(p);
	return t != NULL ? t : xstrdup("");
}

/* The rule for a real line of a fixture's drivers file; NULL, said,
 * when the line is not in the file. */
static const struct twin_rule *
rule_of_line(const char *bundle, const char *line)
{
	char			*text = fixture_text(bundle, "drivers");
	char			*copy, *bus, *drv, *dev, *want;
	const struct twin_rule	*r = NULL;

	want = xasprintf("%s\n", line);
	if (strstr(text, want) == NULL)
		printf("# '%s' is not a line of %s's drivers\n", line, bundle);
	else {
		copy = xstrdup(line);
		if (vm_driver_split(copy, &bus, &drv, &dev) == 0)
			r = twin_rule_find(bus, drv, dev);
		free(copy);
	}
	free(want);
	free(text);
	return r;
}

/* Real lines of the bundles, and what the table makes of them. */
static void
test_table_lines(void)
{
	static const struct {
		const char	*bundle, *line;
		enum twin_role	 role;
		const char	*qemu;		/* NULL: none */
		unsigned	 machines;
	} cases[] = {
		{ "cloud-vm", "pci ahci pci0000:00/0000:00:1f.2 ahci", TR_HBA,
		  "ich9-ahci", TWIN_Q35 },
		{ "cloud-vm", "virtio virtio_blk pci0000:00/0000:00:01.0/virtio0 "
		  "virtio_blk", TR_DISK, "virtio-blk-pci", 0 },
		{ "cloud-vm", "virtio virtio_net pci0000:00/0000:00:03.0/virtio2 "
		  "virtio_net", TR_NIC, "virtio-net-pci", 0 },
		{ "cloud-vm", "virtio virtio_rng pci0000:00/0000:00:04.0/virtio3 "
		  "virtio_rng", TR_RNG, "virtio-rng-pci", 0 },
		{ "cloud-vm", "virtio virtio_balloon pci0000:00/0000:00:05.0/"
		  "virtio4 virtio_balloon", TR_DEVICE, "virtio-balloon-pci", 0 },
		{ "cloud-vm", "pci virtio-pci pci0000:00/0000:00:01.0 virtio_pci",
		  TR_WITH, "its virtio device", 0 },
		{ "cloud-vm", "platform iTCO_wdt pci0000:00/0000:00:1f.0/"
		  "iTCO_wdt.1.auto iTCO_wdt", TR_MACHINE, NULL, TWIN_Q35 },
		{ "cloud-vm", "pci lpc_ich pci0000:00/0000:00:1f.0 lpc_ich",
		  TR_MACHINE, NULL, TWIN_Q35 },
		{ "cloud-vm", "pci i801_smbus pci0000:00/0000:00:1f.3 i2c_i801",
		  TR_MACHINE, NULL, TWIN_Q35 },
		{ "cloud-vm", "acpi button LNXSYSTM:00/LNXPWRBN:00 -",
		  TR_MACHINE, NULL, TWIN_Q35 | TWIN_PC },
		{ "cloud-vm", "pnp i8042 kbd pnp0/00:00 -", TR_MACHINE, NULL,
		  TWIN_Q35 | TWIN_PC },
		{ "cloud-vm", "platform pcspkr platform/pcspkr pcspkr",
		  TR_MACHINE, NULL, TWIN_Q35 | TWIN_PC },
		{ "cloud-vm", "platform fw_cfg pci0000:00/QEMU0002:00 "
		  "qemu_fw_cfg", TR_MACHINE, NULL, TWIN_Q35 | TWIN_PC },
		{ "cloud-vm", "platform reg-dummy platform/reg-dummy -",
		  TR_KERNEL, NULL, 0 },
		{ "cloud-vm-6.12", "serial-base port platform/serial8250/"
		  "serial8250:0/serial8250:0.1 -", TR_KERNEL, NULL, 0 },
		{ "cloud-vm-6.12-builtin", "virtio virtio_blk pci0000:00/"
		  "0000:00:02.0/virtio1 -", TR_DISK, "virtio-blk-pci", 0 },
	};
	const struct twin_rule	*r;
	char			 name[96];
	size_t			 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		r = rule_of_line(cases[i].bundle, cases[i].line);
		snprintf(name, sizeof name, "table/%s:%zu", cases[i].bundle, i);
		checkf(name, r != NULL && r->role == cases[i].role &&
		    (cases[i].qemu == NULL ? r->qemu == NULL :
		    r->qemu != NULL && strcmp(r->qemu, cases[i].qemu) == 0) &&
		    r->machines == cases[i].machines, "%s: role %d qemu %s "
		    "machines %u", cases[i].line, r != NULL ? (int)r->role : -1,
		    r != NULL && r->qemu != NULL ? r->qemu : "(none)",
		    r != NULL ? r->machines : 0);
	}
}

/* Every line of every bundle's drivers file has a rule, and none says
 * "no twin": the bundles were all recorded on QEMU. */
static void
test_table_every_line(void)
{
	static const char *const bundles[] = {
		"cloud-vm", "cloud-vm-6.12", "cloud-vm-6.12-builtin",
		"cloud-vm-collect", NULL
	};
	const struct twin_rule	*r;
	char			*text, *line, *save = NULL, *bus, *drv, *dev;
	char			 name[96];
	size_t			 i, n, bad;

	for (i = 0; bundles[i] != NULL; i++) {
		text = fixture_text(bundles[i], "drivers");
		n = bad = 0;
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (vm_driver_split(line, &bus, &drv, &dev) != 0)
				continue;
			n++;
			r = twin_rule_find(bus, drv, dev);
			if (r == NULL || r->role == TR_NONE) {
				if (bad++ == 0)
					printf("# %s: %s %s has no twin\n",
					    bundles[i], bus, drv);
			}
		}
		snprintf(name, sizeof name, "table/every-line/%s", bundles[i]);
		checkf(name, n > 20 && bad == 0, "%zu lines, %zu without a "
		    "twin", n, bad);
		free(text);
	}
}

/*
 * The table's modaliases against the real ones: the kernel's
 * modules.alias of the bundles (6.1 and 6.12) maps each to the module
 * the table names (virtio devices through virtio_pci for their PCI
 * side, their driver's module for the virtio side), and where the
 * project's QEMU bundle has the same device bound, its modalias file
 * says exactly the table's string.
 */
static void
test_table_aliases(void)
{
	static const char *const bundles[] = { "cloud-vm", "cloud-vm-6.12",
	    NULL };
	struct evidence		*ev;
	const struct twin_rule	*r;
	const char *const	*mods;
	char			 name[128];
	size_t			 i, j, k, n, nrules, bad;

	for (k = 0; bundles[k] != NULL; k++) {
		if ((ev = load(bundles[k])) == NULL) {
			check("aliases/load", 0, bundles[k]);
			continue;
		}
		bad = nrules = 0;
		for (i = 0; (r = twin_rule_at(i)) != NULL; i++) {
			if (r->modalias == NULL || r->module == NULL)
				continue;
			nrules++;
			n = evidence_alias_modules(ev, r->modalias, &mods);
			for (j = 0; j < n; j++)
				if (strcmp(mods[j], r->module) == 0)
					break;
			if (j == n) {
				bad++;
				printf("# %s: %s (%s): modules.alias says",
				    bundles[k], r->modalias, r->driver);
				for (j = 0; j < n; j++)
					printf(" %s", mods[j]);
				printf(", not %s\n", r->module);
			}
		}
		snprintf(name, sizeof name, "aliases/%s", bundles[k]);
		checkf(name, nrules >= 30 && bad == 0, "%zu of %zu rules not "
		    "in modules.alias", bad, nrules);
		evidence_free(ev);
	}
}

/* Every QEMU device of the table is on verify's allow-list, as a device
 * or, for disks, as a disk's device: the twin generates into it. */
static void
test_table_allowed(void)
{
	static const char *const hid[] = { "usb-kbd", "usb-mouse",
	    "usb-tablet", NULL };
	const struct twin_rule	*r;
	struct vm_allow		 a;
	const char		*q[2];
	char			*msg;
	size_t			 i, j, n = 0, bad = 0;
	int			 dir;

	memset(&a, 0, sizeof a);
	for (i = 0; (r = twin_rule_at(i)) != NULL; i++) {
		if (r->role == TR_NONE || r->role == TR_WITH ||
		    r->role == TR_MACHINE || r->role == TR_KERNEL)
			continue;
		dir = r->role == TR_DISK || r->role == TR_USBDISK ?
		    VM_ALLOW_DISK : VM_ALLOW_DEVICE;
		q[0] = r->qemu;
		q[1] = r->qemu_pc;
		for (j = 0; j < 2; j++) {
			if (q[j] == NULL)
				continue;
			n++;
			if ((msg = vm_allow_check(&a, dir, q[j], 1)) != NULL) {
				bad++;
				printf("# %s: %s\n", r->driver, msg);
				free(msg);
			}
		}
	}
	for (j = 0; hid[j] != NULL; j++) {
		n++;
		if ((msg = vm_allow_check(&a, VM_ALLOW_DEVICE, hid[j], 1)) !=
		    NULL) {
			bad++;
			printf("# %s\n", msg);
			free(msg);
		}
	}
	vm_allow_free(&a);
	checkf("table/allowed", n >= 35 && bad == 0, "%zu of %zu refused",
	    bad, n);
}

/* docs/verify.md's table ("The twin machine") has a row for every rule,
 * with its QEMU device. */
static void
test_doc(void)
{
	const struct twin_rule	*r;
	struct strbuf		 doc;
	const char		*sec;
	char			*row;
	size_t			 i, bad = 0;

	strbuf_init(&doc);
	unit_read_file("docs/verify.md", &doc);
	sec = strstr(doc.s, "\n## The twin machine\n");
	for (i = 0; sec != NULL && (r = twin_rule_at(i)) != NULL; i++) {
		row = xasprintf("\n| %s `%s`", r->bus, r->driver != NULL ?
		    r->driver : "(any)");
		if (strstr(sec, row) == NULL || (r->qemu != NULL &&
		    r->role != TR_WITH && strstr(strstr(sec, row), r->qemu) ==
		    NULL)) {
			if (bad++ == 0)
				printf("# no row%s for %s\n", row, r->qemu ?
				    r->qemu : "");
		}
		free(row);
	}
	checkf("doc/table", sec != NULL && i > 50 && bad == 0, "%zu rules "
	    "without their row", bad);
	strbuf_free(&doc);
}

/* The QEMU devices of a loaded vm file: each -device's type and each
 * disk's device, one word a line, sorted ("virtio-blk-pci\n..."). */
static char *
spec_devices(const struct vm_spec *s)
{
	char	**v = NULL, *p;
	size_t	  n = 0, i, j;
	struct strbuf sb;

	for (i = 0; i + 1 < s->nargs; i += 2) {
		if (strcmp(s->args[i], "-device") != 0)
			continue;
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = xstrndup(s->args[i + 1], strcspn(s->args[i + 1],
		    ","));
	}
	for (i = 0; i < s->ndisks; i++) {
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = xstrndup(s->disks[i].device,
		    strcspn(s->disks[i].device, ","));
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			p = v[j];
			v[j] = v[j - 1];
			v[j - 1] = p;
		}
	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	for (i = 0; i < n; i++) {
		strbuf_addf(&sb, "%s\n", v[i]);
		free(v[i]);
	}
	free(v);
	return strbuf_detach(&sb);
}

/* Write text to dir/name and load it as a vm file; 0 on success. */
static int
load_vm(const char *dir, const char *name, const char *text,
    struct vm_spec *s, char **cause)
{
	char	*p = xasprintf("%s/%s", dir, name);
	int	 rc;

	if (!unit_write_file(p, text)) {
		*cause = xasprintf("%s: cannot write", p);
		free(p);
		return -1;
	}
	rc = vm_spec_load(s, p, cause);
	free(p);
	return rc;
}

/* Write text to dir/name and load it as a workload; 0 on success. */
static int
load_workload(const char *dir, const char *name, const char *text,
    struct workload *w, char **cause)
{
	char	*p = xasprintf("%s/%s", dir, name);
	int	 rc;

	if (!unit_write_file(p, text)) {
		*cause = xasprintf("%s: cannot write", p);
		free(p);
		return -1;
	}
	rc = workload_load(w, p, cause);
	free(p);
	return rc;
}

/* Whether the workload has a step of that name. */
static bool
has_step(const struct workload *w, const char *name)
{
	size_t	i;

	for (i = 0; i < w->nsteps; i++)
		if (strcmp(w->steps[i], name) == 0)
			return true;
	return false;
}

/* How many lines of a drivers file (bound devices). */
static size_t
count_lines(const char *text)
{
	size_t	n = 0;

	for (; *text != '\0'; text++)
		n += *text == '\n';
	return n;
}

/* The twin of one QEMU bundle is the machine it was recorded on. */
static void
test_bundle(const char *dir, const char *bundle, bool has_vm)
{
	struct twin_opts	 o;
	struct twin		 t;
	struct vm_spec		 twin_spec, rec_spec;
	struct workload		 w;
	struct evidence		*ev;
	const struct ev_item	*it;
	char			*cause = NULL, *text, *rec, *mine, *p;
	char			 name[128], host[64];
	size_t			 i, n, ndev, missing, cpus;
	int			 rc;

#define NAME(s)	(snprintf(name, sizeof name, "%s/%s", bundle, s), name)
	if ((ev = load(bundle)) == NULL) {
		check(NAME("load"), 0, NULL);
		return;
	}
	memset(&o, 0, sizeof o);
	o.host_mib = 16384;
	o.host_cpus = 4;
	rc = twin_make(ev, &o, &t, &cause);
	check(NAME("make"), rc == 0, cause);
	free(cause);
	cause = NULL;
	if (rc != 0) {
		evidence_free(ev);
		return;
	}

	/* every bound device is there, and has a twin */
	text = fixture_text(bundle, "drivers");
	n = count_lines(text);
	checkf(NAME("devices"), t.ndevices == n && n > 20, "%zu devices, "
	    "%zu lines in drivers", t.ndevices, n);
	for (i = cpus = 0; i < t.ndevices; i++)
		cpus += strcmp(t.devices[i].driver, "processor") == 0;
	free(text);
	checkf(NAME("all-twinned"), twin_unverifiable_count(&t) == 0,
	    "%zu without a twin, first %s %s: %s",
	    twin_unverifiable_count(&t), twin_unverifiable_count(&t) ?
	    twin_unverifiable_at(&t, 0)->driver : "",
	    twin_unverifiable_count(&t) ?
	    twin_unverifiable_at(&t, 0)->path : "",
	    twin_unverifiable_count(&t) ?
	    twin_unverifiable_at(&t, 0)->why : "");

	/* the vm file loads with verify's loader and its allow-list */
	rc = load_vm(dir, "twin-vm", twin_vm_text(&t), &twin_spec, &cause);
	check(NAME("vm-loads"), rc == 0, cause);
	free(cause);
	cause = NULL;
	if (rc == 0) {
		/* every device with a device line is in it */
		mine = spec_devices(&twin_spec);
		for (i = ndev = missing = 0; i < t.ndevices; i++) {
			if (t.devices[i].state != TWIN_DEVICE)
				continue;
			ndev++;
			p = xasprintf("%s\n", t.devices[i].qemu);
			if (strstr(mine, p) == NULL) {
				missing++;
				printf("# %s %s: no %s in the vm\n",
				    t.devices[i].bus, t.devices[i].driver,
				    t.devices[i].qemu);
			}
			free(p);
		}
		checkf(NAME("device-lines"), ndev >= 4 && missing == 0,
		    "%zu devices with a line, %zu missing", ndev, missing);
		checkf(NAME("smp"), (size_t)twin_spec.smp == cpus &&
		    cpus > 0, "smp %d, %zu CPUs bound", twin_spec.smp, cpus);
		for (i = 0; i < twin_spec.ndisks; i++)
			if (strcmp(twin_spec.disks[i].name, "ext4") == 0)
				break;
		checkf(NAME("ext4-disk"), i < twin_spec.ndisks &&
		    strcmp(twin_spec.disks[i].fstype, "ext4") == 0,
		    "no disk 'ext4' made with mkfs.ext4");
		/* the same machine as the hand-written file */
		if (has_vm) {
			p = xasprintf("%s/%s/vm", FIXTURES, bundle);
			rc = vm_spec_load(&rec_spec, p, &cause);
			free(p);
			check(NAME("recorded-vm"), rc == 0, cause);
			free(cause);
			cause = NULL;
			if (rc == 0) {
				rec = spec_devices(&rec_spec);
				checkf(NAME("same-devices"), strcmp(rec, mine)
				    == 0, "recorded:\n%stwin:\n%s", rec, mine);
				checkf(NAME("same-machine"),
				    strcmp(rec_spec.machine,
				    twin_spec.machine) == 0 &&
				    strcmp(rec_spec.cpu, twin_spec.cpu) == 0 &&
				    rec_spec.smp == twin_spec.smp, "recorded %s "
				    "%s smp %d, twin %s %s smp %d",
				    rec_spec.machine, rec_spec.cpu, rec_spec.smp,
				    twin_spec.machine, twin_spec.cpu,
				    twin_spec.smp);
				free(rec);
				vm_spec_free(&rec_spec);
			}
		}
		free(mine);
		vm_spec_free(&twin_spec);
	}

	/* the workload loads, with a step for each tested file system, the
	 * loopback and the NIC, and every loaded module named */
	rc = load_workload(dir, "twin-workload", twin_workload_text(&t), &w,
	    &cause);
	check(NAME("workload-loads"), rc == 0, cause);
	free(cause);
	cause = NULL;
	if (rc == 0) {
		checkf(NAME("steps"), w.nsteps == t.nsteps && w.nsteps >= 4,
		    "%zu steps loaded, %zu made", w.nsteps, t.nsteps);
		for (i = missing = 0; i < t.nfs; i++) {
			p = xasprintf("fs-%s", t.fs[i].type);
			if (t.fs[i].tested != has_step(&w, p)) {
				missing++;
				printf("# %s: tested %d, step %d\n", p,
				    t.fs[i].tested, has_step(&w, p));
			}
			free(p);
		}
		checkf(NAME("fs-steps"), missing == 0 && has_step(&w,
		    "fs-ext4") && has_step(&w, "fs-tmpfs"), "%zu wrong",
		    missing);
		check(NAME("net-steps"), has_step(&w, "loopback-net") &&
		    has_step(&w, "net-virtio_net"), NULL);
		n = evidence_count(ev, EV_MODULE);
		for (i = missing = 0; i < n; i++) {
			it = evidence_item(ev, EV_MODULE, i);
			p = xasprintf(" %s", it->name);
			missing += strstr(w.text, p) == NULL;
			free(p);
		}
		checkf(NAME("modules"), missing == 0 && (n == 0 ||
		    has_step(&w, "modules")), "%zu of %zu modules not in the "
		    "workload", missing, n);
		workload_free(&w);
	}

	/* the recorded machine's host name (uname's second word) is in
	 * neither file */
	if (evidence_bundle(ev, 0)->uname != NULL &&
	    sscanf(evidence_bundle(ev, 0)->uname, "%*s %63s", host) == 1) {
		checkf(NAME("no-hostname"), strstr(t.vm, host) == NULL &&
		    strstr(t.workload, host) == NULL, "'%s' is in the twin",
		    host);
	} else
		check(NAME("no-hostname"), 0, "no uname");
	twin_free(&t);
	evidence_free(ev);
#undef NAME
}

/* The helpers: the bundles with workload.d use its tcploop and afalg;
 * the collect bundle has none, and busybox's nc does the loopback. */
static void
test_helpers(void)
{
	struct twin_opts	 o;
	struct twin		 t;
	struct evidence		*ev;
	char			*cause = NULL;

	memset(&o, 0, sizeof o);
	if ((ev = load("cloud-vm")) != NULL && twin_make(ev, &o, &t,
	    &cause) == 0) {
		checkf("helpers/cloud-vm", t.helpers != NULL &&
		    t.nhelper_files == 2 &&
		    strcmp(t.helper_files[0], "tcploop.c") == 0 &&
		    strcmp(t.helper_files[1], "afalg.c") == 0 &&
		    strstr(t.workload, "\ttcploop 5555") != NULL &&
		    strstr(t.workload, "step afalg ") != NULL,
		    "helpers %s, %zu files", t.helpers ? t.helpers : "(none)",
		    t.nhelper_files);
		twin_free(&t);
	} else
		check("helpers/cloud-vm", 0, cause);
	evidence_free(ev);
	free(cause);
	cause = NULL;
	if ((ev = load("cloud-vm-collect")) != NULL && twin_make(ev, &o, &t,
	    &cause) == 0) {
		checkf("helpers/collect", t.helpers == NULL &&
		    t.nhelper_files == 0 &&
		    strstr(t.workload, "nc -l -p 5555") != NULL &&
		    strstr(t.workload, "step afalg ") == NULL, "helpers %s",
		    t.helpers ? t.helpers : "(none)");
		twin_free(&t);
	} else
		check("helpers/collect", 0, cause);
	evidence_free(ev);
	free(cause);
}

/* The memory and the CPUs are capped by the host; a host too small is
 * an error. */
static void
test_host_caps(const char *dir)
{
	struct twin_opts	 o;
	struct twin		 t;
	struct vm_spec		 s;
	struct evidence		*ev;
	char			*cause = NULL;
	int			 rc;

	if ((ev = load("cloud-vm")) == NULL) {
		check("caps/load", 0, NULL);
		return;
	}
	memset(&o, 0, sizeof o);
	o.host_mib = 2048;
	o.host_cpus = 1;
	rc = twin_make(ev, &o, &t, &cause);
	if (rc == 0 && load_vm(dir, "caps-vm", t.vm, &s, &cause) == 0) {
		checkf("caps/capped", s.memory == 1024 && s.smp == 1,
		    "memory %d smp %d", s.memory, s.smp);
		vm_spec_free(&s);
	} else
		check("caps/capped", 0, cause);
	if (rc == 0)
		twin_free(&t);
	free(cause);
	cause = NULL;
	o.host_mib = 16384;
	o.host_cpus = 0;
	rc = twin_make(ev, &o, &t, &cause);
	if (rc == 0 && load_vm(dir, "caps-vm", t.vm, &s, &cause) == 0) {
		checkf("caps/default", s.memory == 4096 && s.smp == 2,
		    "memory %d smp %d", s.memory, s.smp);
		vm_spec_free(&s);
	} else
		check("caps/default", 0, cause);
	if (rc == 0)
		twin_free(&t);
	free(cause);
	cause = NULL;
	o.host_mib = 1400;
	rc = twin_make(ev, &o, &t, &cause);
	checkf("caps/too-small", rc != 0 && cause != NULL &&
	    strstr(cause, "1400 MiB") != NULL, "rc %d: %s", rc,
	    cause != NULL ? cause : "(no cause)");
	if (rc == 0)
		twin_free(&t);
	free(cause);
	evidence_free(ev);
}

/* Write len bytes to path (a copied fixture file, xz included). */
static void
file_write_all_test(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/* kctui collect's sockstat6 and disks: an IPv6 socket in use is IPv6
 * used, where no trace says so (the collect bundle without its trace);
 * the disks' sizes are said in the vm file's head. */
static void
test_collect_files(const char *dir)
{
	static const char *const files[] = { "uname", "drivers", "modalias",
	    "modules", "mounts", "config.xz", "crypto", "filesystems", NULL };
	struct evidence	*ev;
	struct twin	 t;
	char		*b = xasprintf("%s/collect-files", dir), *p, *text;
	char		*cause = NULL;
	size_t		 i, len;
	int		 pass;

	for (pass = 0; pass < 2; pass++) {
		mkdir(b, 0755);
		for (i = 0; files[i] != NULL; i++) {
			p = xasprintf("%s/cloud-vm-collect/%s", FIXTURES,
			    files[i]);
			text = file_read_all(p, &len);
			free(p);
			p = xasprintf("%s/%s", b, files[i]);
			/* binary (config.xz): written as read */
			if (text != NULL)
				file_write_all_test(p, text, len);
			free(p);
			free(text);
		}
		p = xasprintf("%s/sockstat6", b);
		unit_write_file(p, pass ? "TCP6: inuse 1\nUDP6: inuse 0\n" :
		    "TCP6: inuse 0\nUDP6: inuse 0\n");
		free(p);
		p = xasprintf("%s/disks", b);
		unit_write_file(p, "vda 10737418240\nvdb 536870912\n");
		free(p);
		ev = evidence_new();
		if (evidence_load(ev, b, NULL, NULL, &cause) != 0 ||
		    twin_make(ev, NULL, &t, &cause) != 0) {
			check(pass ? "collect/sockstat6-used" :
			    "collect/sockstat6-unused", 0, cause);
			free(cause);
			cause = NULL;
			evidence_free(ev);
			continue;
		}
		if (pass)
			checkf("collect/sockstat6-used", strstr(t.workload,
			    "IPv6 sockets open (sockstat6)") != NULL &&
			    strstr(t.workload, "::1") != NULL, "%s",
			    "no IPv6 loopback for TCP6: inuse 1");
		else {
			checkf("collect/sockstat6-unused", strstr(t.workload,
			    "IPv6") == NULL, "%s",
			    "IPv6 tested with no socket and no trace");
			checkf("collect/disks", strstr(t.vm,
			    "disks (disks): vda 10.0 GiB, vdb 0.5 GiB") !=
			    NULL, "%s", "no disks line in the vm's head");
		}
		twin_free(&t);
		evidence_free(ev);
	}
	free(b);
}

/* A QEMU without a device: the device has no twin and no line. */
static void
test_qemu_devices(void)
{
	struct twin_opts	 o;
	struct twin		 t;
	struct strbuf		 help;
	struct evidence		*ev;
	const struct twin_device *d;
	const char		*dev, *list, *end;
	char			*cause = NULL, *p;
	size_t			 i;
	bool			 disk;

	/* lines as "qemu-system-x86_64 -device help" prints them */
	check("qemu/has", twin_qemu_has("name \"e1000e\", bus PCI, desc "
	    "\"Intel 82574L GbE Controller\"\n", "e1000e") &&
	    !twin_qemu_has("name \"e1000e\", bus PCI\n", "e1000") &&
	    !twin_qemu_has("name \"igb\"\n", "e1000e"), NULL);
	strbuf_init(&help);
	for (i = 0; (dev = vm_allow_device_at(i, &disk)) != NULL; i++)
		if (strcmp(dev, "virtio-balloon-pci") != 0)
			strbuf_addf(&help, "name \"%s\", bus PCI\n", dev);
	memset(&o, 0, sizeof o);
	o.qemu_devices = help.s;
	if ((ev = load("cloud-vm")) != NULL && twin_make(ev, &o, &t,
	    &cause) == 0) {
		checkf("qemu/find", twin_device_find(&t, "virtio",
		    "virtio_balloon", "pci0000:00/0000:00:05.0/virtio4") ==
		    twin_unverifiable_at(&t, 1) && twin_device_find(&t,
		    "virtio", "virtio_net", "pci0000:00/0000:00:03.0/virtio2")
		    ->state == TWIN_DEVICE && twin_device_find(&t, "virtio",
		    "virtio_net", "pci0000:00/0000:00:09.0/virtio2") == NULL,
		    "twin_device_find");
		/* the device, and its PCI transport with it */
		d = twin_unverifiable_at(&t, 1);
		checkf("qemu/missing-device", twin_unverifiable_count(&t) == 2 &&
		    d != NULL && strcmp(d->driver, "virtio_balloon") == 0 &&
		    strstr(d->why, "this QEMU has no 'virtio-balloon-pci'") !=
		    NULL && strstr(t.vm, "\ndevice virtio-balloon-pci") ==
		    NULL && strstr(t.vm, "Not verifiable under QEMU") != NULL,
		    "%zu without a twin", twin_unverifiable_count(&t));
		d = twin_unverifiable_at(&t, 0);
		checkf("qemu/transport", d != NULL &&
		    strcmp(d->path, "pci0000:00/0000:00:05.0") == 0 &&
		    strcmp(d->driver, "virtio-pci") == 0, "first without a "
		    "twin: %s", d != NULL ? d->path : "(none)");
		/* the modules step does not load its module */
		list = strstr(t.workload, "\tfor m in");
		end = list != NULL ? strstr(list, "; do") : NULL;
		p = list != NULL && end != NULL ? xstrndup(list, (size_t)(end -
		    list)) : xstrdup("");
		checkf("qemu/module-skipped", *p != '\0' &&
		    strstr(p, " virtio_balloon") == NULL &&
		    strstr(p, " virtio_net") != NULL &&
		    strstr(t.workload, "# not loaded, for devices with no "
		    "twin: virtio_balloon") != NULL, "list:%s", p);
		free(p);
		twin_free(&t);
	} else
		check("qemu/missing-device", 0, cause);
	evidence_free(ev);
	free(cause);
	strbuf_free(&help);
}

/* Bundles that can have no twin: no drivers file; another arch. */
static void
test_no_twin(const char *dir)
{
	struct twin		 t;
	struct evidence		*ev;
	char			*b = xasprintf("%s/bundle", dir), *p;
	char			*cause = NULL;
	int			 rc;

	mkdir(b, 0755);
	p = xasprintf("%s/uname", b);
	unit_write_file(p, "Linux pi 6.1.0-rpi7-rpi-v8 #1 SMP PREEMPT "
	    "Debian 1:6.1.63-1+rpt1 (2023-11-24) aarch64 GNU/Linux\n");
	free(p);
	ev = evidence_new();
	if (evidence_load(ev, b, NULL, NULL, &cause) == 0) {
		rc = twin_make(ev, NULL, &t, &cause);
		checkf("no-twin/arch", rc != 0 && cause != NULL &&
		    strstr(cause, "not x86_64") != NULL, "rc %d: %s", rc,
		    cause != NULL ? cause : "(none)");
	} else
		check("no-twin/arch", 0, cause);
	free(cause);
	cause = NULL;
	evidence_free(ev);
	p = xasprintf("%s/uname", b);
	unit_write_file(p, "Linux kctui-evidence 6.1.0-57-amd64 #1 SMP "
	    "PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26) x86_64 "
	    "GNU/Linux\n");
	free(p);
	ev = evidence_new();
	if (evidence_load(ev, b, NULL, NULL, &cause) == 0) {
		rc = twin_make(ev, NULL, &t, &cause);
		checkf("no-twin/no-drivers", rc != 0 && cause != NULL &&
		    strstr(cause, "no drivers file") != NULL, "rc %d: %s", rc,
		    cause != NULL ? cause : "(none)");
	} else
		check("no-twin/no-drivers", 0, cause);
	free(cause);
	evidence_free(ev);
	free(b);
}

int
main(void)
{
	char	dir[] = "/tmp/kctui-test-twin.XXXXXX";
	size_t	i;

	if (!unit_tmpdir(dir))
		return 1;
	test_table_lines();
	test_table_every_line();
	test_table_aliases();
	test_table_allowed();
	test_doc();
	for (i = 0; qemu_bundles[i] != NULL; i++)
		test_bundle(dir, qemu_bundles[i], true);
	test_bundle(dir, "cloud-vm-collect", false);
	test_helpers();
	test_host_caps(dir);
	test_collect_files(dir);
	test_qemu_devices();
	test_no_twin(dir);
	unit_rmtree(dir);
	return unit_failures != 0;
}
