/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-report.c - TRIMMED.verify.md: what a verify run did, probe by
 * probe, its steps and devices, what was put back and why, the verdict.
 */
#include <stdlib.h>
#include <string.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/util.h"
#include "verify-int.h"
#include "userspace.h"
#include "verify.h"

/* A trim's values, "y -> n". */
static const char *
verify_tri_name(int t)
{
	return t == KC_YES ? "y" : t == KC_MOD ? "m" : "n";
}

/* The report's table of the final boot's steps. */
static void
verify_report_steps(const struct verify *v, struct strbuf *sb)
{
	const struct vm_result	*r = &v->result;
	size_t			 i, j;

	strbuf_addf(sb, "\n## Steps of the last boot\n\n"
	    "| step | result | exit | seconds |\n| --- | --- | --- | --- |\n");
	strbuf_addf(sb, "| boot | %s | | |\n", r->booted ? "pass" : "FAIL");
	for (i = 0; i < r->nsteps; i++) {
		const struct vm_step *s = &r->steps[i];

		strbuf_addf(sb, "| %s | %s | %d | %.1f |\n", s->name,
		    s->state == VM_STEP_PASS ? "pass" :
		    s->state == VM_STEP_FAIL ? "FAIL" : "not reached",
		    s->rc, s->seconds);
	}
	for (i = 0; i < r->nsteps; i++) {
		const struct vm_step *s = &r->steps[i];

		if (s->state == VM_STEP_PASS || s->nlog == 0)
			continue;
		strbuf_addf(sb, "\nConsole of step %s:\n\n", s->name);
		for (j = 0; j < s->nlog; j++)
			strbuf_addf(sb, "    %s\n", s->log[j]);
	}
}

/* The report's comparison with the recorded machine. */
static void
verify_report_devices(const struct verify *v, struct strbuf *sb)
{
	size_t i;

	strbuf_addf(sb, "\n## Against the recorded machine\n\n"
	    "%zu modules loaded and %zu devices bound at the end of the "
	    "boot.\n", v->result.nmodules, v->result.ndrivers);
	if (v->nlost == 0)
		strbuf_addf(sb, "\nNo device the bundle had bound lost its "
		    "driver.\n");
	else {
		strbuf_addf(sb, "\nDevices bound in the bundle, unbound "
		    "here (bus driver device):\n\n");
		for (i = 0; i < v->nlost; i++)
			strbuf_addf(sb, "- %s\n", v->lost[i]);
	}
	if (v->nabsent > 0) {
		strbuf_addf(sb, "\nDevices bound in the bundle that this "
		    "machine does not have (the machine's difference, not "
		    "the trim's; bus driver device):\n\n");
		for (i = 0; i < v->nabsent; i++)
			strbuf_addf(sb, "- %s\n", v->absent[i]);
	}
	if (v->nmissing > 0) {
		strbuf_addf(sb, "\nModules loaded in the bundle, not "
		    "here (built in, trimmed, or not needed by this "
		    "workload):\n\n");
		for (i = 0; i < v->nmissing; i++)
			strbuf_addf(sb, "%s`%s`", i == 0 ? "" : ", ",
			    v->missing[i]);
		strbuf_addf(sb, "\n");
	}
}

/* The report (markdown) of a finished run. */
char *
verify_report(const struct verify *v)
{
	struct strbuf	 sb;
	size_t		 i, kept = 0;

	for (i = 0; i < v->ntrims; i++)
		kept += v->trims[i].kept;
	strbuf_init(&sb);
	strbuf_addf(&sb, "# kctui verify\n\n");
	/* One verdict line, whatever happened to KVM (a dangling else once
	 * printed both verdicts, or neither). */
	if (v->passed)
		strbuf_addf(&sb, "**Verified**: this config was built, booted "
		    "under QEMU (%s) on the bundle's machine, and every "
		    "workload step passed.\n", v->result.kvm ? "KVM" : "TCG");
	else
		strbuf_addf(&sb, "**Not verified**: the last probe failed "
		    "at %s%s%s. Do not trust this config.\n",
		    v->failure != NULL ? v->failure : "a step",
		    v->build_error != NULL ? ": " : "",
		    v->build_error != NULL ? v->build_error : "");
	if (v->kvm_error != NULL)
		strbuf_addf(&sb, "\n/dev/kvm is there but QEMU could not run "
		    "the guest with it (`%s`): every boot after that ran "
		    "under TCG.\n", v->kvm_error);
	strbuf_addf(&sb, "\n- untrimmed config: %s\n- trimmed config: %s\n"
	    "- bundle: %s\n- workload: %s (%zu steps)\n"
	    "- trims: %zu, put back: %zu, staying: %zu\n"
	    "- probes: %d builds and boots, %d answered by an earlier "
	    "probe; %.0f s in all (first %.0f s, later at most %.0f s)\n",
	    v->base, v->trimmed, v->bundle, v->workload->path,
	    v->workload->nsteps, v->ntrims, kept, v->ntrims - kept, v->probes,
	    v->cached, v->seconds, v->first_probe, v->later_probe_max);
	if (v->built_without_debug)
		strbuf_addf(&sb, "- built without debug information "
		    "(CONFIG_DEBUG_INFO_NONE): -g does not change the code, "
		    "but BTF (/sys/kernel/btf) was not tested; `--as-is` "
		    "builds the config's own\n");
	if (v->built_without_modversions)
		strbuf_addf(&sb, "- built without module versions "
		    "(CONFIG_MODVERSIONS=n): they do not change the code, "
		    "but the symbol CRC check at module load was not tested; "
		    "`--as-is` builds them\n");
	if (v->bzimage_bytes > 0)
		strbuf_addf(&sb, "- bzImage: %ld bytes\n", v->bzimage_bytes);
	strbuf_addf(&sb, "- baseline: %s\n", v->baseline != NULL ?
	    v->baseline : "none");
	if (v->twin != NULL)
		strbuf_addf(&sb, "- machine: %s\n", v->twin);
	if (v->informed > 0)
		strbuf_addf(&sb, "- put back because a failed boot named them: "
		    "%d (the rest by bisection)\n", v->informed);
	if (v->probes > 1 || v->budget_hit)
		strbuf_addf(&sb, "- search: at most %d probes (--max-probes; "
		    "0: no bound); %d culprit%s found option by option, %d batch%s put back "
		    "whole%s\n", v->max_probes == 0 ? VERIFY_MAX_PROBES :
		    v->max_probes < 0 ? 0 : v->max_probes, v->culprits, v->culprits == 1 ? "" : "s",
		    v->batches, v->batches == 1 ? "" : "es", v->budget_hit ?
		    " (the budget ended the search before every batch was "
		    "searched: see the notes and the put-backs)" : "");
	if (v->has_measured) {
		strbuf_addf(&sb, "\n## What the trim bought\n\nRead from "
		    "the kernels themselves: the image's bytes; vmlinux's sections as size(1) counts "
		    "them (the baseline's unpacked from its image by the "
		    "tree's scripts/extract-vmlinux); the system "
		    "calls compiled in (the syscall table's entries that are "
		    "neither sys_ni_syscall nor a weak stub; the baseline's "
		    "from its System.map); the modules and their bytes on "
		    "disk; the config's y+m, beside the tree's own `make "
		    "localmodconfig` of the untrimmed config with the "
		    "bundle's modules; the seconds from the kernel's start to "
		    "/init (its \"Run /init\" line) and to the end of coldplug "
		    "(/init's line once devices settled, its passes of 2 s "
		    "included), at their printk timestamps, the median of "
		    "the boots said, baseline and trim booted interleaved on "
		    "this machine under the same accelerator%s.\n\n",
		    v->nmeasured > 3 ? "; the last column, a config given "
		    "with --compare, is not built: its y+m only" : "");
		measure_table(&sb, v->measured, v->nmeasured);
		userspace_measure_rows(v, &sb, v->nmeasured);
	}
	userspace_report(v, &sb);
	verify_report_steps(v, &sb);
	if (kept > 0) {
		strbuf_addf(&sb, "\n## Put back\n\n| option | subsystem | "
		    "needed at boot by |\n| --- | --- | --- |\n");
		for (i = 0; i < v->ntrims; i++)
			if (v->trims[i].kept)
				strbuf_addf(&sb, "| CONFIG_%s | %s | %s |\n",
				    v->trims[i].name, v->trims[i].subsys,
				    v->trims[i].step);
	}
	if (kept < v->ntrims) {
		strbuf_addf(&sb, "\n## Trims that stay%s\n\n| option | "
		    "subsystem | change |\n| --- | --- | --- |\n",
		    v->passed ? " (verified by the boot)" : "");
		for (i = 0; i < v->ntrims; i++)
			if (!v->trims[i].kept)
				strbuf_addf(&sb, "| CONFIG_%s | %s | %s -> %s%s "
				    "|\n", v->trims[i].name, v->trims[i].subsys,
				    verify_tri_name(v->trims[i].from),
				    verify_tri_name(v->trims[i].to),
				    v->trims[i].tried ? " (--try)" : "");
	}
	if (v->result.finished)
		verify_report_devices(v, &sb);
	if (v->nnontwin > 0) {
		strbuf_addf(&sb, "\n## Not verifiable under QEMU: kept\n\n"
		    "The twin machine has no device for these; the options "
		    "that build their drivers were put back before the first "
		    "probe and no boot here judges them (bus driver device):"
		    "\n\n");
		for (i = 0; i < v->nnontwin; i++)
			strbuf_addf(&sb, "- %s %s %s%s%s%s%s%s: %s\n",
			    v->nontwin[i].bus, v->nontwin[i].driver,
			    v->nontwin[i].path,
			    v->nontwin[i].ids != NULL ? " [" : "",
			    v->nontwin[i].ids != NULL ? v->nontwin[i].ids : "",
			    v->nontwin[i].ids != NULL ? "]" : "",
			    v->nontwin[i].module != NULL ? ", module " : "",
			    v->nontwin[i].module != NULL ?
			    v->nontwin[i].module : "", v->nontwin[i].why);
	}
	return strbuf_detach(&sb);
}
