/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-cpu.c - what the bundle's CPU needs, for the minimal policy: the
 * x86 options that serve one CPU vendor only (its support code, its
 * microcode loader, its machine-check handlers, its PMUs). Their code
 * runs at boot or on a hardware event, never in a trace, so the evidence
 * cannot speak for them; the CPU's vendor can. What the bundle's vendor's
 * CPUs need (support code, microcode, machine checks) is kept, a boot
 * essential of this CPU; another vendor's options are candidates, arch
 * core or not. Drivers whose code runs while the machine does
 * (intel_idle, the P-state drivers, IOMMUs) are not here: a trace speaks
 * for them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "trim-int.h"

/* The vendors, as cpuinfo's vendor_id names them. */
#define V_INTEL		"GenuineIntel"
#define V_AMD		"AuthenticAMD"
#define V_HYGON		"HygonGenuine"
#define V_CENTAUR	"CentaurHauls"
#define V_ZHAOXIN	"  Shanghai  "

/* One vendor's options, and what each does for that vendor's CPUs. */
static const struct {
	const char	*sym;
	const char	*vendor;
	const char	*what;
	/* what the vendor's CPUs need to boot and run safely (kept for
	 * them): support code, microcode, machine checks; the rest is a
	 * feature they may use, judged as the arch core */
	bool		 needs;
} cpu_options[] = {
	{ "CPU_SUP_INTEL", V_INTEL, "CPU support code", true },
	{ "MICROCODE_INTEL", V_INTEL, "microcode loader", true },
	{ "X86_MCE_INTEL", V_INTEL, "machine-check handlers", true },
	{ "PERF_EVENTS_INTEL_UNCORE", V_INTEL, "uncore PMU", false },
	{ "PERF_EVENTS_INTEL_RAPL", V_INTEL, "RAPL energy counters", false },
	{ "PERF_EVENTS_INTEL_CSTATE", V_INTEL, "C-state counters", false },
	{ "INTEL_TDX_GUEST", V_INTEL, "TDX guest support", false },
	{ "X86_SGX", V_INTEL, "SGX enclaves", false },
	{ "X86_INTEL_LPSS", V_INTEL, "LPSS platform devices", false },
	{ "CPU_SUP_AMD", V_AMD, "CPU support code", true },
	{ "MICROCODE_AMD", V_AMD, "microcode loader", true },
	{ "X86_MCE_AMD", V_AMD, "machine-check handlers", true },
	{ "AMD_NUMA", V_AMD, "NUMA topology from the northbridge", false },
	{ "AMD_MEM_ENCRYPT", V_AMD, "SME/SEV memory encryption", false },
	{ "X86_AMD_PLATFORM_DEVICE", V_AMD, "platform devices", false },
	{ "PERF_EVENTS_AMD_POWER", V_AMD, "power PMU", false },
	{ "PERF_EVENTS_AMD_UNCORE", V_AMD, "uncore PMU", false },
	{ "PERF_EVENTS_AMD_BRS", V_AMD, "branch sampling", false },
	{ "CPU_SUP_HYGON", V_HYGON, "CPU support code", true },
	{ "CPU_SUP_CENTAUR", V_CENTAUR, "CPU support code", true },
	{ "CPU_SUP_ZHAOXIN", V_ZHAOXIN, "CPU support code", true },
};

/* Guest support for one hypervisor: its code runs at boot when the
 * kernel finds that hypervisor, never in a trace. */
static const struct {
	const char	*sym;
	const char	*hypervisor;
	const char	*prefix;	/* its devices' modalias, or NULL */
} guest_options[] = {
	{ "XEN", "Xen", "xen" },
	{ "JAILHOUSE_GUEST", "Jailhouse", NULL },
	{ "ACRN_GUEST", "ACRN", NULL },
};

/* The x86 vendor numbers of the cpu modalias (X86_VENDOR_* of the
 * kernel: "cpu:type:x86,ven0000..."). */
static const char *
trim_cpu_vendor_num(unsigned v)
{
	switch (v) {
	case 0:
		return V_INTEL;
	case 2:
		return V_AMD;
	case 5:
		return V_CENTAUR;
	case 9:
		return V_HYGON;
	case 10:
		return V_ZHAOXIN;
	}
	return NULL;
}

/*
 * The recorded CPU's vendor from the bundles' cpu modalias (every
 * bundle's devices carry one; several bundles must agree), or NULL when
 * none says it or they disagree: then every vendor's options stay.
 */
const char *
trim_cpu_vendor(const struct evidence *ev)
{
	const struct ev_item	*it;
	const char		*v, *found = NULL;
	unsigned		 ven;
	size_t			 i, n;

	if (ev == NULL)
		return NULL;
	n = evidence_count(ev, EV_DEVICE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_DEVICE, i);
		if (strncmp(it->name, "cpu:type:x86,ven", 16) != 0 ||
		    sscanf(it->name + 16, "%4x", &ven) != 1 ||
		    (v = trim_cpu_vendor_num(ven)) == NULL)
			continue;
		if (found != NULL && strcmp(found, v) != 0)
			return NULL;
		found = v;
	}
	return found;
}

/*
 * Whether an option serves one vendor's CPUs only: its vendor, in *what
 * what it is for that vendor and in *needs whether that vendor's CPUs
 * need it (either may be NULL); NULL when it serves every CPU.
 */
const char *
trim_cpu_option(const char *sym, const char **what, bool *needs)
{
	size_t i;

	for (i = 0; i < sizeof cpu_options / sizeof cpu_options[0]; i++) {
		if (strcmp(cpu_options[i].sym, sym) == 0) {
			if (what != NULL)
				*what = cpu_options[i].what;
			if (needs != NULL)
				*needs = cpu_options[i].needs;
			return cpu_options[i].vendor;
		}
	}
	return NULL;
}

/* The DMI system vendor of the bundles (the dmi modalias's svn field,
 * "QEMU", "Xen", "Dell Inc."), malloc'd, or NULL when none says it. */
static char *
trim_dmi_vendor(const struct evidence *ev)
{
	const struct ev_item	*it;
	const char		*p, *e;
	size_t			 i, n;

	n = evidence_count(ev, EV_DEVICE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_DEVICE, i);
		if (strncmp(it->name, "dmi:", 4) != 0 ||
		    (p = strstr(it->name, ":svn")) == NULL)
			continue;
		p += 4;
		e = strchr(p, ':');
		return xstrndup(p, e != NULL ? (size_t)(e - p) : strlen(p));
	}
	return NULL;
}

/* Whether a bundle shows a device or module whose name starts with
 * prefix ("xen": xen:vbd, xen-backend:..., xen_blkfront). */
static bool
trim_has_prefix(const struct evidence *ev, enum ev_kind kind,
    const char *prefix)
{
	size_t i, n = evidence_count(ev, kind), len = strlen(prefix);

	for (i = 0; i < n; i++)
		if (strncmp(evidence_item(ev, kind, i)->name, prefix, len) ==
		    0)
			return true;
	return false;
}

/*
 * Whether an option is guest support for a hypervisor the recorded
 * machine is not running on: its DMI names the machine (a machine with
 * no DMI says nothing) and no device or module of that hypervisor is in
 * the bundles. *why (malloc'd) says so; false when the evidence cannot
 * speak.
 */
bool
trim_cpu_guest_unused(const struct evidence *ev, const char *sym,
    char **why)
{
	char	*dmi;
	size_t	 i;

	for (i = 0; i < sizeof guest_options / sizeof guest_options[0]; i++)
		if (strcmp(guest_options[i].sym, sym) == 0)
			break;
	if (ev == NULL || i == sizeof guest_options / sizeof guest_options[0])
		return false;
	if ((dmi = trim_dmi_vendor(ev)) == NULL)
		return false;
	if (strcmp(dmi, guest_options[i].hypervisor) == 0 ||
	    (guest_options[i].prefix != NULL && (trim_has_prefix(ev,
	    EV_DEVICE, guest_options[i].prefix) || trim_has_prefix(ev,
	    EV_MODULE, guest_options[i].prefix)))) {
		free(dmi);
		return false;
	}
	if (why != NULL)
		*why = xasprintf("%s guest support; the recorded machine is "
		    "%s (DMI) and no bundle shows a %s device", guest_options[i]
		    .hypervisor, dmi, guest_options[i].hypervisor);
	free(dmi);
	return true;
}

/* uname's machine names and the kernel's SRCARCH each builds on (the
 * top Makefile's SUBARCH rules: i?86 and x86_64 are x86, ...); prefix:
 * the name starts the machine ("armv7l", "ppc64le", "riscv64"), else it
 * is the whole word. */
static const struct {
	const char	*machine;
	const char	*srcarch;
	bool		 prefix;
} arch_machines[] = {
	{ "x86_64", "x86", false }, { "amd64", "x86", false },
	{ "i386", "x86", false }, { "i486", "x86", false },
	{ "i586", "x86", false }, { "i686", "x86", false },
	{ "aarch64", "arm64", true }, { "arm64", "arm64", false },
	{ "armv", "arm", true }, { "riscv", "riscv", true },
	{ "ppc", "powerpc", true }, { "s390", "s390", true },
	{ "mips", "mips", true }, { "loongarch", "loongarch", true },
	{ "sparc", "sparc", true }, { "parisc", "parisc", true },
	{ "alpha", "alpha", false }, { "m68k", "m68k", false },
	{ "ia64", "ia64", false }, { "sh4", "sh", true },
	{ "sh3", "sh", true }, { "xtensa", "xtensa", false },
	{ "openrisc", "openrisc", false }, { "csky", "csky", false },
};

/* The SRCARCH of a uname machine word ("x86_64", "aarch64") or, with
 * srcarch_too, of an architecture's own name too ("x86", "powerpc": a
 * config heading's word); NULL when the word names none. */
static const char *
trim_arch_of_word(const char *w, size_t n, bool srcarch_too)
{
	size_t	i, l;

	for (i = 0; i < sizeof arch_machines / sizeof arch_machines[0]; i++) {
		l = strlen(arch_machines[i].machine);
		if ((n == l || (arch_machines[i].prefix && n > l)) &&
		    memcmp(w, arch_machines[i].machine, l) == 0)
			return arch_machines[i].srcarch;
		l = strlen(arch_machines[i].srcarch);
		if (srcarch_too && n == l &&
		    memcmp(w, arch_machines[i].srcarch, l) == 0)
			return arch_machines[i].srcarch;
	}
	return NULL;
}

/*
 * The SRCARCH a bundle was recorded on: its uname -a line's machine
 * (the last word that names one, before "GNU/Linux"), else its cpu
 * modalias ("cpu:type:x86,...", "cpu:type:aarch64:..."); NULL when it
 * says neither. The machine word itself in *machine (malloc'd).
 */
static const char *
trim_bundle_arch(const struct evidence *ev, int b, char **machine)
{
	const struct ev_bundle	*bu = evidence_bundle(ev, b);
	const struct ev_item	*it;
	const char		*p, *w, *arch = NULL;
	size_t			 i, n;

	*machine = NULL;
	/* "Linux HOST RELEASE #VERSION... MACHINE [PROC PLATFORM] OS":
	 * the version has spaces, so the machine is found from the end */
	for (p = bu->uname; p != NULL && *p != '\0'; p = w + n) {
		w = p + strspn(p, " \t\n");
		n = strcspn(w, " \t\n");
		if (n == 0)
			break;
		if (w != bu->uname && trim_arch_of_word(w, n, false) != NULL) {
			arch = trim_arch_of_word(w, n, false);
			free(*machine);
			*machine = xstrndup(w, n);
		}
	}
	if (arch != NULL)
		return arch;
	n = evidence_count(ev, EV_DEVICE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_DEVICE, i);
		if (strncmp(it->name, "cpu:type:", 9) != 0 ||
		    (it->bundles & ((uint64_t)1 << (b & 63))) == 0)
			continue;
		w = it->name + 9;
		if ((arch = trim_arch_of_word(w, strcspn(w, ",:"), true)) !=
		    NULL) {
			*machine = xstrndup(w, strcspn(w, ",:"));
			return arch;
		}
	}
	return NULL;
}

/* The architecture a config's text was written for: its heading's
 * "# Linux/ARCH VERSION Kernel Configuration", as conf writes it; NULL
 * when it has none. */
static const char *
trim_config_arch(const char *text)
{
	const char	*p, *w;

	for (p = text; p != NULL && *p == '#'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, "# Linux/", 8) != 0)
			continue;
		w = p + 8;
		return trim_arch_of_word(w, strcspn(w, " \t\n"), true);
	}
	return NULL;
}

/*
 * Whether the bundles and the configuration are of one architecture:
 * NULL when they are (or nothing says), else a malloc'd sentence naming
 * each side. A bundle recorded on x86_64 says nothing of an arm64
 * config's drivers: every option it never saw would be a candidate. The
 * configuration's architecture is its heading's; a config read with
 * another SRCARCH is said too (its symbols are another tree's).
 * config_name names it in the sentence.
 */
char *
trim_arch_mismatch(const struct evidence *ev, const char *config_text,
    const char *config_name, const char *srcarch)
{
	struct strbuf	 sb;
	const char	*carch, *barch;
	char		*machine;
	int		 b;

	strbuf_init(&sb);
	carch = config_text != NULL ? trim_config_arch(config_text) : NULL;
	if (carch != NULL && srcarch != NULL && strcmp(carch, srcarch) != 0)
		strbuf_addf(&sb, "%s is a configuration for %s, read here as "
		    "%s (SRCARCH=%s; give ARCH=%s to read it as its own)",
		    config_name, carch, srcarch, srcarch, carch);
	if (carch == NULL)
		carch = srcarch;
	for (b = 0; ev != NULL && carch != NULL &&
	    b < evidence_nbundles(ev); b++) {
		if ((barch = trim_bundle_arch(ev, b, &machine)) != NULL &&
		    strcmp(barch, carch) != 0)
			strbuf_addf(&sb, "%s%s was recorded on %s (%s), the "
			    "configuration is for %s: its evidence says nothing "
			    "of this architecture's options", sb.len ? "; " :
			    "", evidence_bundle(ev, b)->path, machine, barch,
			    carch);
		free(machine);
	}
	if (sb.len == 0) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
