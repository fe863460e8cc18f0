/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-boottime.c - how fast the trim boots, beside the baseline: the
 * seconds from the kernel's start to /init and to the end of coldplug,
 * read from the console's printk timestamps (vm.c's vm_boot_times), on
 * the same machine under the same accelerator. The baseline's first boot
 * and the passing probe's boot count; with --boot-runs N, both kernels
 * are booted again, interleaved (baseline, trim, baseline, trim...), so
 * that a host busy for a while slows both alike, and the medians go in
 * the measured table. Also the table's other outputs (TSV, YAML) and the
 * --compare column.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "measure.h"
#include "verify-int.h"
#include "verify.h"

/* One timed boot's figures, kept when it got as far as /init. */
void
verify_boot_time_add(struct verify_state *st, int which,
    const struct vm_result *r)
{
	int n = st->ntimes[which];

	if (r->t_init < 0 || n >= VERIFY_BOOT_RUNS_MAX)
		return;
	st->times[which][0][n] = r->t_init;
	st->times[which][1][n] = r->t_coldplug;
	st->ntimes[which]++;
}

/* The medians of one kernel's boots into its column: to /init always, to
 * coldplug's end only when every boot showed it. */
static void
verify_boot_medians(struct verify_state *st, int which, struct measure *m)
{
	double	 x[VERIFY_BOOT_RUNS_MAX];
	int	 i, n = st->ntimes[which];
	bool	 cold = n > 0;

	if (n == 0)
		return;
	memcpy(x, st->times[which][0], (size_t)n * sizeof *x);
	m->boot_init = measure_median(x, n);
	for (i = 0; i < n; i++)
		cold = cold && st->times[which][1][i] >= 0;
	if (cold) {
		memcpy(x, st->times[which][1], (size_t)n * sizeof *x);
		m->boot_coldplug = measure_median(x, n);
	}
	m->boot_runs = n;
	m->accel = st->v->result.kvm ? "kvm" : "tcg";
}

/* One more timed boot of kernel (its modules in staging); false when it
 * could not be booted (said in a note). */
static bool
verify_boot_again(struct verify_state *st, int which, const char *kernel,
    const char *initrd, const char *staging, const char *release)
{
	struct vm_result	 r;
	char			*cause = NULL, *note;
	bool			 ok;

	memset(&r, 0, sizeof r);
	st->probe_t0 = clock_now();	/* its phases count from here */
	ok = verify_boot(st, kernel, initrd, staging, release, &r,
	    &cause) == 0;
	if (ok)
		verify_boot_time_add(st, which, &r);
	else {
		note = xasprintf("boot times: %s could not be booted again: "
		    "%s", which == 0 ? "the baseline" : "the trim", cause);
		verify_note(st->v, note);
		free(note);
	}
	free(cause);
	vm_result_free(&r);
	return ok;
}

/* The boots after the loop, interleaved (verify-int.h). */
void
verify_boot_times(struct verify_state *st)
{
	struct verify	*v = st->v;
	int		 runs = v->boot_runs < 1 ? 1 : v->boot_runs;
	char		*initrd, *note;

	if (runs > VERIFY_BOOT_RUNS_MAX)
		runs = VERIFY_BOOT_RUNS_MAX;
	if (v->passed && st->b.bzimage != NULL && runs > 1 &&
	    (v->cancel == NULL || !*v->cancel)) {
		note = xasprintf("boot times: booting %s%s again, interleaved, "
		    "for %d timed boots each", st->base_kernel != NULL ?
		    "the baseline and " : "", "the trim", runs);
		verify_note(v, note);
		free(note);
		initrd = xasprintf("%s/timed.cpio", st->bootdir);
		while ((st->ntimes[1] < runs || (st->base_kernel != NULL &&
		    st->ntimes[0] < runs)) &&
		    (v->cancel == NULL || !*v->cancel)) {
			if (st->base_kernel != NULL && st->ntimes[0] < runs &&
			    !verify_boot_again(st, 0, st->base_kernel, initrd,
			    st->base_root, st->base_release))
				break;
			if (st->ntimes[1] < runs && !verify_boot_again(st, 1,
			    st->b.bzimage, initrd, st->b.staging,
			    st->b.release))
				break;
		}
		free(initrd);
	}
	if (v->has_measured) {
		verify_boot_medians(st, 0, &v->measured[0]);
		if (v->passed)
			verify_boot_medians(st, 1, &v->measured[1]);
	}
}

/* REPORT without a trailing ".md", then ext (malloc'd). */
static char *
verify_beside(const char *report, const char *ext)
{
	size_t n = strlen(report);

	if (n > 3 && strcmp(report + n - 3, ".md") == 0)
		n -= 3;
	return xasprintf("%.*s%s", (int)n, report, ext);
}

/* The measured table as TSV and YAML (verify.h). */
int
verify_write_measured(const struct verify *v, const char *report,
    char **cause)
{
	struct strbuf	 sb;
	char		*path, *yaml;
	int		 rc;

	if (!v->has_measured)
		return 0;
	strbuf_init(&sb);
	measure_tsv(&sb, v->measured, v->nmeasured);
	path = verify_beside(report, ".tsv");
	rc = file_write_atomic(path, sb.s, sb.len, 0666, 0, cause);
	free(path);
	strbuf_free(&sb);
	if (rc != 0)
		return -1;
	if ((yaml = measure_yaml(v->measured, v->nmeasured, cause)) == NULL)
		return -1;
	path = verify_beside(report, ".yaml");
	rc = file_write_atomic(path, yaml, strlen(yaml), 0666, 0, cause);
	free(path);
	free(yaml);
	return rc;
}
