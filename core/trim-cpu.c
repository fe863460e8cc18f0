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
#include <string.h>

#include "evidence.h"
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
