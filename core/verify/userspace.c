/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace.c - verify's userspace step in the probe loop: the root got
 * before the baseline boots, each boot's check read and judged (the
 * baseline's failed units are the ones a probe may fail too), the step
 * put back like any other (its name is the failing step the fill-back
 * searches for), and its part of the report: how the step came to be
 * on, the root, both boots' states and `systemd-analyze time` as rows of
 * the measured table.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "userspace.h"
#include "verify-int.h"
#include "verify.h"

/* Debian's name of an architecture (QEMU's / the kernel's). */
const char *
userspace_debian_arch(const char *arch)
{
	if (arch == NULL || strcmp(arch, "x86_64") == 0)
		return "amd64";
	if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0)
		return "arm64";
	if (strcmp(arch, "i386") == 0 || strcmp(arch, "i686") == 0)
		return "i386";
	return arch;
}

/* Hand mmdebstrap's lines to the run's log. */
static void
us_log(void *arg, const char *line)
{
	struct verify *v = arg;

	if (v->log != NULL)
		v->log(v->arg, line);
}

/* The root from the cache, or made (see userspace.h). */
int
userspace_prepare(struct verify_state *st, char **cause)
{
	struct verify		*v = st->v;
	struct userspace_run	*us;
	char			*uname, *msg;

	if (!v->userspace || v->us != NULL)
		return 0;
	us = v->us = xcalloc(1, sizeof *v->us);
	uname = verify_bundle_file(v, "uname");
	us->suite = userspace_suite(uname);
	free(uname);
	us->root.cache = v->cache;
	us->root.suite = us->suite;
	us->root.arch = userspace_debian_arch(v->spec != NULL ? v->spec->arch :
	    v->arch);
	us->root.cancel = v->cancel;
	us->root.log = us_log;
	us->root.arg = v;
	msg = xasprintf("userspace: the Debian %s root (%s) from the cache, "
	    "made with mmdebstrap if it is not there", us->suite,
	    us->root.arch);
	verify_note(v, msg);
	free(msg);
	if (userspace_root_get(&us->root, cause) != 0)
		return -1;
	msg = us->root.built ? xasprintf("userspace: made %s in %.0f s "
	    "(%lld MiB)", us->root.image, us->root.seconds,
	    us->root.bytes >> 20) : xasprintf("userspace: %s (cached)",
	    us->root.image);
	verify_note(v, msg);
	free(msg);
	return 0;
}

const char *
userspace_image(const struct verify *v)
{
	return v->userspace && v->us != NULL ? v->us->root.image : NULL;
}

/* Replace a step's console lines with the verdict's: the summary, then
 * the quoted lines. */
static void
us_step_log(struct vm_step *s, const char *why,
    const struct userspace_boot *b)
{
	size_t i;

	for (i = 0; i < s->nlog; i++)
		free(s->log[i]);
	free(s->log);
	s->log = xcalloc(b->nquote + 1, sizeof *s->log);
	s->nlog = 0;
	s->log[s->nlog++] = xstrdup(why);
	for (i = 0; i < b->nquote; i++)
		s->log[s->nlog++] = xstrdup(b->quote[i]);
}

/* A boot's check judged (see userspace.h). A step that never began
 * (the boot died before /init got to it) is left to the loop: the boot
 * did not finish. One that began and never reported keeps its console
 * lines (the machine stopped or timed out in it). */
void
userspace_after_boot(struct verify_state *st, struct vm_result *r,
    bool baseline)
{
	struct verify		*v = st->v;
	struct userspace_run	*us = v->us;
	struct userspace_boot	 b, *keep;
	struct vm_step		*s = NULL;
	const char		**newly;
	char			*why;
	size_t			 i, nnewly;
	bool			 pass;

	if (us == NULL || userspace_image(v) == NULL)
		return;
	for (i = 0; i < r->nsteps; i++)
		if (strcmp(r->steps[i].name, USERSPACE_STEP) == 0)
			s = &r->steps[i];
	if (s == NULL)
		return;
	userspace_boot_parse(&b, s->log, s->nlog);
	if (!b.seen && s->state == VM_STEP_FAIL && s->rc == 1) {
		/* /init could not hand over: its reason is in the log */
		userspace_boot_free(&b);
		return;
	}
	pass = userspace_judge(baseline || !us->has_base ? NULL : &us->base,
	    &b, &why, &newly, &nnewly);
	/* the baseline defines what may fail: degraded is enough there */
	if (baseline && !pass && b.seen && strcmp(b.state, "degraded") == 0) {
		pass = true;
		free(why);
		why = NULL;
	}
	if (!pass) {
		if (s->state == VM_STEP_PASS)
			s->rc = 1;
		s->state = VM_STEP_FAIL;
		us_step_log(s, why, &b);
		if (!baseline)
			us->caught++;
	}
	free(why);
	free(newly);
	keep = baseline ? &us->base : &us->last;
	userspace_boot_free(keep);
	*keep = b;
	if (baseline) {
		us->has_base = true;
		us->base_step = s->seconds;
	} else {
		us->has_last = true;
		us->last_step = s->seconds;
	}
}

/* One cell of seconds, or "-". */
static void
us_cell(struct strbuf *sb, bool has, double s)
{
	if (!has || s < 0)
		strbuf_adds(sb, " - |");
	else
		strbuf_addf(sb, " %.2f |", s);
}

/*
 * The measured table's rows of the userspace step (after
 * measure_table's, ncol columns: baseline, trimmed, then columns with
 * no boot): `systemd-analyze time`'s kernel and userspace, its total,
 * and the step's wall time on the host.
 */
void
userspace_measure_rows(const struct verify *v, struct strbuf *sb, int ncol)
{
	const struct userspace_run *us = v->us;
	static const char *const rows[] = {
		"systemd-analyze: kernel s (to systemd; includes kctui's "
		    "/init and workload)",
		"systemd-analyze: userspace s",
		"systemd-analyze: total s",
		"userspace step, wall s (switch to systemd's end)",
	};
	size_t	 i;
	int	 c;

	if (us == NULL || userspace_image(v) == NULL)
		return;
	for (i = 0; i < sizeof rows / sizeof *rows; i++) {
		strbuf_addf(sb, "| %s |", rows[i]);
		for (c = 0; c < ncol; c++) {
			const struct userspace_boot *b = c == 0 ? &us->base :
			    &us->last;
			bool has = c == 0 ? us->has_base : c == 1 &&
			    us->has_last;

			us_cell(sb, has, i == 0 ? b->kernel : i == 1 ?
			    b->userspace : i == 2 ? b->total : c == 0 ?
			    us->base_step : us->last_step);
		}
		strbuf_addc(sb, '\n');
	}
}

/* One boot's line of the report's section. */
static void
us_report_boot(struct strbuf *sb, const char *what,
    const struct userspace_boot *b)
{
	size_t i;

	strbuf_addf(sb, "- %s: %s", what, b->seen ? b->state :
	    "no report from the root's check");
	if (b->nfailed > 0) {
		strbuf_adds(sb, "; failed units:");
		for (i = 0; i < b->nfailed; i++)
			strbuf_addf(sb, " %s", b->failed[i]);
	}
	if (b->time_line != NULL)
		strbuf_addf(sb, "; `systemd-analyze time`: %s", b->time_line);
	strbuf_addc(sb, '\n');
}

/* The report's section (see userspace.h). */
void
userspace_report(const struct verify *v, struct strbuf *sb)
{
	const struct userspace_run *us = v->us;

	if (!v->userspace) {
		strbuf_addf(sb, "\n## The distribution's userspace\n\n"
		    "Not booted: %s.\n", v->userspace_why != NULL ?
		    v->userspace_why : "not asked for");
		return;
	}
	strbuf_adds(sb, "\n## The distribution's userspace\n\n");
	strbuf_addf(sb, "After the workload, /init switches to a Debian root "
	    "on a disk of its own (systemd, udev, kmod; the kernel's modules "
	    "on a tmpfs over its /lib/modules) and the step `%s` is judged "
	    "by `systemctl is-system-running --wait`: running, or degraded "
	    "with no failed unit that did not fail on the baseline.\n\n",
	    USERSPACE_STEP);
	strbuf_addf(sb, "- on because: %s\n", v->userspace_why != NULL ?
	    v->userspace_why : "asked for");
	if (us == NULL || us->root.image == NULL) {
		strbuf_adds(sb, "- the root could not be had: the step did "
		    "not run\n");
		return;
	}
	strbuf_addf(sb, "- root: %s (Debian %s, %s; %lld MiB on disk; %s)\n",
	    us->root.image, us->suite, us->root.arch, us->root.bytes >> 20,
	    us->root.built ? "made by this run" : "from the cache");
	if (us->root.built)
		strbuf_addf(sb, "- root made in %.0f s by mmdebstrap\n",
		    us->root.seconds);
	if (us->has_base)
		us_report_boot(sb, "baseline", &us->base);
	if (us->has_last)
		us_report_boot(sb, v->passed ? "trimmed (verified)" :
		    "trimmed (last probe)", &us->last);
	if (us->caught > 0)
		strbuf_addf(sb, "- probes the userspace step failed: %d\n",
		    us->caught);
}

void
userspace_free(struct verify *v)
{
	struct userspace_run *us = v->us;

	if (us == NULL)
		return;
	userspace_root_free(&us->root);
	userspace_boot_free(&us->base);
	userspace_boot_free(&us->last);
	free(us->suite);
	free(us);
	v->us = NULL;
}
