/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-fillback.c - when a step fails, find the trims that broke it and
 * put them back: first what the console names (informed fill-back,
 * verify-informed.c), then adaptive group testing over the trims in
 * subsystem order (verify.c's header says how), each culprit kept with
 * the step that needed it. The probes themselves are verify.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "verify-informed.h"
#include "verify-int.h"
#include "verify.h"

/* want[] for "trim the first k of order[], not the kept ones". */
static void
verify_prefix(struct verify_state *st, const size_t *live, size_t nlive,
    size_t k, bool *want)
{
	size_t i;

	memset(want, 0, st->v->ntrims * sizeof *want);
	for (i = 0; i < k && i < nlive; i++)
		want[live[i]] = true;
}

/* The number of halvings that bring n candidates down to one. */
static int
verify_log2(size_t n)
{
	int	k = 0;

	while (n > 1) {
		n = (n + 1) / 2;
		k++;
	}
	return k;
}

/*
 * Find the first trim of live[] (indexes of trims not kept, in subsystem
 * order) whose prefix fails, knowing that the prefix of length lo passes
 * and the whole list fails: first over subsystem boundaries, then inside
 * the guilty subsystem. Returns its position in live[], or -1 with
 * *cause; *step is the step that prefix failed.
 */
static long
verify_bisect(struct verify_state *st, const size_t *live, size_t nlive,
    size_t lo, char **step, char **cause)
{
	struct verify	*v = st->v;
	bool		*want = xcalloc(v->ntrims + 1, sizeof *want);
	size_t		*bounds = xcalloc(nlive + 2, sizeof *bounds);
	size_t		 nb = 0, i, hi = nlive, blo, bhi, mid;
	char		*s = NULL;
	int		 r;

	/* Subsystem boundaries after lo: prefix lengths that end a
	 * subsystem. */
	for (i = lo + 1; i <= nlive; i++)
		if (i == nlive || strcmp(v->trims[live[i]].subsys,
		    v->trims[live[i - 1]].subsys) != 0)
			bounds[nb++] = i;
	/* Over boundaries: the first boundary whose prefix fails. */
	blo = 0;
	bhi = nb - 1;	/* bounds[nb - 1] == nlive fails */
	while (blo < bhi) {
		mid = (blo + bhi) / 2;
		/* the rest of this halving, then (at least) the probe of
		 * the trims left once the culprit is back */
		st->left = verify_log2(bhi - blo);
		verify_prefix(st, live, nlive, bounds[mid], want);
		if ((r = verify_try(st, want, &s, cause)) < 0)
			goto fail;
		if (r == 0) {
			bhi = mid;
			free(*step);
			*step = s;
			s = NULL;
		} else
			blo = mid + 1;
	}
	hi = bounds[bhi];
	if (bhi > 0)
		lo = bounds[bhi - 1];
	/* Inside the subsystem: the first option whose prefix fails. */
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		st->left = verify_log2(hi - lo);
		verify_prefix(st, live, nlive, mid, want);
		if ((r = verify_try(st, want, &s, cause)) < 0)
			goto fail;
		if (r == 0) {
			hi = mid;
			free(*step);
			*step = s;
			s = NULL;
		} else
			lo = mid;
	}
	free(want);
	free(bounds);
	return (long)hi - 1;
fail:
	free(want);
	free(bounds);
	return -1;
}

/* Put trim i back, needed by step. */
static void
verify_keep(struct verify *v, size_t i, const char *step)
{
	struct verify_event e = { .kind = VEV_KEEP };

	v->trims[i].kept = true;
	free(v->trims[i].step);
	v->trims[i].step = xstrdup(step != NULL ? step : "boot");
	e.name = v->trims[i].name;
	e.state = v->trims[i].step;
	verify_emit(v, &e);
}

/* What informed fill-back is putting back for one named module. */
struct verify_informed_ctx {
	struct verify	*v;
	const char	*why;
	int		 kept;
};

/* A symbol that builds a named module: put back if it is a trim. */
static void
verify_informed_sym(void *arg, const char *sym)
{
	struct verify_informed_ctx	*c = arg;
	size_t				 i;

	for (i = 0; i < c->v->ntrims; i++) {
		if (c->v->trims[i].kept || strcmp(c->v->trims[i].name,
		    sym) != 0)
			continue;
		verify_keep(c->v, i, c->why);
		c->kept++;
	}
}

/*
 * Informed fill-back: put back the trims that build what the last boot
 * named (verify-informed.c), each recorded with the message that named
 * it. The number put back.
 */
static int
verify_informed_keep(struct verify_state *st, const char *step)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	struct verify_named		 nm;
	char				*console, *aliases, *why, *note;
	size_t				 i;

	memset(&nm, 0, sizeof nm);
	if (v->result.console != NULL &&
	    (console = file_read_all(v->result.console, NULL)) != NULL) {
		verify_named_scan(&nm, console);
		free(console);
	}
	for (i = 0; i < v->nlost; i++)
		verify_named_lost(&nm, v->lost[i]);
	aliases = verify_bundle_file(v, "modules.alias");
	memset(&c, 0, sizeof c);
	c.v = v;
	for (i = 0; i < nm.n; i++) {
		/* "STEP: MESSAGE", as long as a table cell can bear */
		why = xasprintf("%s: %.160s", step != NULL ? step : "boot",
		    nm.v[i].why);
		why[strcspn(why, "\r")] = '\0';
		c.why = why;
		(void)verify_named_options(v->kb, aliases, nm.v[i].name,
		    verify_informed_sym, &c);
		free(why);
	}
	if (c.kept > 0) {
		note = xasprintf("%d option%s put back because the boot named "
		    "them (%zu module%s named)", c.kept, c.kept == 1 ? "" :
		    "s", nm.n, nm.n == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	v->informed += c.kept;
	free(aliases);
	verify_named_free(&nm);
	return c.kept;
}

/*
 * A twin's devices with no twin: put back, before the first probe, the
 * trims that build their modules (the Kbuild index through the bundle's
 * modules.alias), each with the device as its reason. No boot here can
 * say whether a trim of them is harmless, so none is made.
 */
void
verify_keep_nontwin(struct verify_state *st)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	char				*aliases, *why, *note;
	size_t				 i;

	if (v->nnontwin == 0 || v->kb == NULL)
		return;
	aliases = verify_bundle_file(v, "modules.alias");
	memset(&c, 0, sizeof c);
	c.v = v;
	for (i = 0; i < v->nnontwin; i++) {
		if (v->nontwin[i].module == NULL)
			continue;
		why = xasprintf("not verifiable under QEMU: %s %s %s",
		    v->nontwin[i].bus, v->nontwin[i].driver,
		    v->nontwin[i].path);
		c.why = why;
		(void)verify_named_options(v->kb, aliases,
		    v->nontwin[i].module, verify_informed_sym, &c);
		free(why);
	}
	if (c.kept > 0) {
		note = xasprintf("%d option%s kept: they build drivers of "
		    "devices the twin machine does not have", c.kept,
		    c.kept == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	free(aliases);
}

/*
 * The fill-back loop: while the trims left fail, put back what the failed
 * boot names (informed fill-back: one probe for all of them), and only
 * when it names nothing, find one culprit by bisection and put it back.
 * lo, the length of the prefix known to pass, carries over: taking
 * culprits out of the list leaves the part of that prefix that remains.
 */
int
verify_fill_back(struct verify_state *st, const char *first_step,
    char **cause)
{
	struct verify	*v = st->v;
	size_t		*live = xcalloc(v->ntrims + 1, sizeof *live);
	bool		*want = xcalloc(v->ntrims + 1, sizeof *want);
	size_t		 nlive, i, lo = 0;
	char		*step = xstrdup(first_step), *s = NULL;
	long		 c;
	int		 r = 0;

	for (;;) {
		nlive = 0;
		for (i = 0; i < v->ntrims; i++)
			if (!v->trims[i].kept)
				live[nlive++] = i;
		if (nlive == 0) {
			/* Everything is back and it still fails: the
			 * untrimmed config fails this step too. */
			v->passed = false;
			break;
		}
		if (v->kb != NULL && verify_informed_keep(st, step) > 0) {
			for (i = 0, c = 0; i < lo; i++)
				c += !v->trims[live[i]].kept;
			lo = (size_t)c;
			goto probe;
		}
		c = verify_bisect(st, live, nlive, lo, &step, cause);
		if (c < 0) {
			r = -1;
			break;
		}
		verify_keep(v, live[c], step);
		lo = (size_t)c;
probe:
		/* The trims left, all of them: if they pass, that was the
		 * last probe. */
		st->left = 0;
		for (i = 0; i < v->ntrims; i++)
			want[i] = !v->trims[i].kept;
		if ((r = verify_try(st, want, &s, cause)) < 0)
			break;
		if (r == 1) {
			v->passed = true;
			r = 0;
			break;
		}
		free(step);
		step = s;
		s = NULL;
	}
	free(step);
	free(s);
	free(live);
	free(want);
	return r;
}

