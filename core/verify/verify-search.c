/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-search.c - which trims a failing step needs back, in a bounded
 * number of probes.
 *
 * A probe (a build and a boot) costs minutes, so the search counts them
 * against a budget (verify's --max-probes, 10 by default) that includes
 * the first probe, the one of every trim. It works in three phases:
 *
 * 1. Put-backs the console names come first: after a failed probe of the
 *    trims left, the modules its boot asked for (verify-informed.c) are
 *    put back and the trims left are probed again, one probe a round.
 * 2. When the console names nothing: delta debugging in batches by
 *    subsystem. The trims are in subsystem order (the directory of their
 *    Kconfig file), a probe trims a prefix of that list, and a binary
 *    search over subsystem boundaries narrows down the first batch of
 *    subsystems whose prefix fails (ktest's config_bisect and syzkaller's
 *    kconfig minimizer search by prefix too), and on to the option when
 *    log2(trims) + 1 halvings fit with the probe after them (a short
 *    list). Else it spends at most half the probes left on that, puts
 *    the batch back, and probes the trims left:
 *    if they fail, another culprit is past the batch and the search goes
 *    on from the longest prefix known to pass.
 * 3. Once the trims left pass, the probes left refine the batches put
 *    back, the largest first: trim again the first half of what is still
 *    unsearched in it, on top of the configuration that passed. A pass
 *    keeps that half trimmed (and is itself a verified configuration); a
 *    failure narrows the culprit to that half. A culprit narrowed to one
 *    option is put back alone; what follows it in its batch is tried
 *    again as a batch of its own.
 *
 * The result is always a configuration a probe passed: the trims left
 * after the last passing probe. When the budget is spent while the trims
 * left still fail, every trim past the longest prefix that passed is put
 * back, and that prefix (judged already) is the result. What the budget
 * left unsearched is said: each batch in the report with its size and
 * subsystems, and a note.
 *
 * Assumptions, stated because the probe count rests on them:
 * - monotony: trimming more never repairs a step (a prefix that fails
 *   stays failing when longer; putting trims back never breaks a step);
 * - a culprit is one option: a step fails when any culprit is trimmed,
 *   so two sets that pass pass together (phase 3 trims a half again on
 *   top of a passing configuration and keeps it on a pass);
 * - the untrimmed configuration passes (the baseline boots): a list put
 *   back entirely is not probed again.
 * With B probes, one silent culprit costs 1 + h + 1 + r probes with
 * h + r = B - 2 halvings in all (h over subsystem boundaries, r by
 * option count); k silent culprits share them. It never exceeds B.
 * Without a budget every culprit is found option by option.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "verify-search.h"

/* A segment of a batch put back: item indexes in list order; known: it
 * holds a culprit (a probe with it trimmed failed). Phase 3 splits them. */
struct vsearch_batch {
	size_t		*v;
	size_t		 n;
	bool		 known;
	char		*step;		/* the step that failed for it */
};

/* The search's own state beside struct vsearch. */
struct vsearch_run {
	struct vsearch	*s;
	size_t		*live;
	bool		*want;
	char	       **why;		/* per item kept by the search */
	char	       **named;		/* informed's answer */
	bool		*cand;		/* what informed may name */
	bool		*hit;		/* what it named, since cleared */
	struct vsearch_batch *b;
	size_t		 nb;
};

/* The number of halvings that bring n candidates down to one. */
static int
vsearch_log2(size_t n)
{
	int	k = 0;

	while (n > 1) {
		n = (n + 1) / 2;
		k++;
	}
	return k;
}

/* Probes left in the budget (a large number without one). */
static int
vsearch_room(const struct vsearch *s)
{
	return s->budget < 1 ? 1 << 20 : s->budget - s->probes;
}

/* "left" for a probe: the fewest still to come after it, within the
 * budget. */
static int
vsearch_left(const struct vsearch *s, int want)
{
	int room = vsearch_room(s) - 1;

	return want < room ? want : room;
}

/* One probe of want[], counted. */
static int
vsearch_probe(struct vsearch *s, const bool *want, int left, char **step,
    char **cause)
{
	s->probes++;
	return s->probe(s->arg, want, left, step, cause);
}

/* The indexes of the items not kept, in order; their number. */
static size_t
vsearch_live(const struct vsearch *s, size_t *live)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (!s->items[i].kept)
			live[n++] = i;
	return n;
}

/* want[]: the first k of live[], and nothing else. */
static void
vsearch_prefix(struct vsearch_run *sr, size_t k)
{
	size_t i;

	memset(sr->want, 0, (sr->s->n + 1) * sizeof *sr->want);
	for (i = 0; i < k; i++)
		sr->want[sr->live[i]] = true;
}

/* A failing probe's step replaces the one searched for. */
static void
vsearch_step(char **step, char **f)
{
	free(*step);
	*step = *f;
	*f = NULL;
}

/* A remark, when the caller listens. */
static void
vsearch_note(struct vsearch *s, const char *text)
{
	if (s->note != NULL)
		s->note(s->arg, text);
}

/* Item i put back by the search, with why (replacing an older reason). */
static void
vsearch_keep1(struct vsearch_run *sr, size_t i, const char *why)
{
	sr->s->items[i].kept = true;
	free(sr->why[i]);
	sr->why[i] = xstrdup(why);
}

/* Put back what the last failed probe's console names among cand[], with
 * its message; how many. */
static int
vsearch_named(struct vsearch_run *sr, const char *step)
{
	struct vsearch	*s = sr->s;
	size_t		 i;
	int		 n;

	if (s->informed == NULL)
		return 0;
	n = s->informed(s->arg, step, sr->cand, sr->named);
	for (i = 0; i < s->n; i++) {
		if (sr->named[i] == NULL)
			continue;
		vsearch_keep1(sr, i, sr->named[i]);
		sr->hit[i] = true;
		free(sr->named[i]);
		sr->named[i] = NULL;
	}
	return n;
}

/*
 * Phase 2: narrow down the first failing prefix of live[] (its prefix lo
 * passes, the whole list fails) over subsystem boundaries, with at most
 * max halvings, to [*plo, *phi): the prefix *plo passes, *phi fails.
 * exact: on to the single option. 0, or -1 with *cause; *step
 * is the step the last failing prefix failed.
 */
static int
vsearch_bisect(struct vsearch_run *sr, size_t nlive, size_t lo, int max,
    bool exact, size_t *plo, size_t *phi, char **step, char **cause)
{
	struct vsearch	*s = sr->s;
	size_t		*bounds = xcalloc(nlive + 2, sizeof *bounds);
	size_t		 nb = 0, i, blo, bhi, mid, hi;
	char		*f = NULL;
	int		 r = 0;

	/* Prefix lengths that end a subsystem, after lo. */
	for (i = lo + 1; i <= nlive; i++)
		if (i == nlive || strcmp(s->items[sr->live[i]].subsys,
		    s->items[sr->live[i - 1]].subsys) != 0)
			bounds[nb++] = i;
	blo = 0;
	bhi = nb - 1;	/* bounds[nb - 1] == nlive fails */
	while (blo < bhi && max > 0) {
		mid = (blo + bhi) / 2;
		vsearch_prefix(sr, bounds[mid]);
		r = vsearch_probe(s, sr->want, vsearch_left(s,
		    vsearch_log2(bhi - blo)), &f, cause);
		if (r < 0)
			goto out;
		max--;
		if (r == 0) {
			bhi = mid;
			vsearch_step(step, &f);
		} else
			blo = mid + 1;
	}
	lo = blo > 0 ? bounds[blo - 1] : lo;
	hi = bounds[bhi];
	/* When exact, inside the one subsystem left too. */
	while (exact && blo == bhi && hi - lo > 1) {
		mid = (lo + hi) / 2;
		vsearch_prefix(sr, mid);
		r = vsearch_probe(s, sr->want, vsearch_log2(hi - lo), &f,
		    cause);
		if (r < 0)
			goto out;
		if (r == 0) {
			hi = mid;
			vsearch_step(step, &f);
		} else
			lo = mid;
	}
	*plo = lo;
	*phi = hi;
	r = 0;
out:
	free(f);
	free(bounds);
	return r < 0 ? -1 : 0;
}

/* A new segment of n items (copied) put back for step; it holds a
 * culprit if known. */
static struct vsearch_batch *
vsearch_segment(struct vsearch_run *sr, const size_t *v, size_t n,
    bool known, const char *step)
{
	struct vsearch_batch *b;

	sr->b = xrealloc(sr->b, (sr->nb + 1) * sizeof *sr->b);
	b = &sr->b[sr->nb++];
	b->v = xcalloc(n + 1, sizeof *b->v);
	memcpy(b->v, v, n * sizeof *v);
	b->n = n;
	b->known = known;
	b->step = xstrdup(step);
	return b;
}

/* The culprit range [lo, hi) of live[] found failing step: one option
 * put back as the culprit, more as a batch to refine later. */
static void
vsearch_put_back(struct vsearch_run *sr, size_t lo, size_t hi,
    const char *step)
{
	struct vsearch_batch	*b;
	char			*why;
	size_t			 i;

	if (hi - lo == 1) {
		why = xasprintf("%s: bisection (probe %d)", step,
		    sr->s->probes);
		vsearch_keep1(sr, sr->live[lo], why);
		free(why);
		sr->s->culprits++;
		return;
	}
	b = vsearch_segment(sr, sr->live + lo, hi - lo, true, step);
	for (i = 0; i < b->n; i++)
		vsearch_keep1(sr, b->v[i], step);
}

/* The segment whose probe promises the most trims again: one not known
 * to hold a culprit likely passes whole, one that does gives half on a
 * pass; -1 when none is left. */
static long
vsearch_next(const struct vsearch_run *sr)
{
	long	 best = -1;
	size_t	 i, gain, bgain = 0;

	for (i = 0; i < sr->nb; i++) {
		const struct vsearch_batch *b = &sr->b[i];

		if (b->n == 0 || (b->known && b->n == 1))
			continue;
		gain = b->known ? b->n / 2 : b->n;
		if (best < 0 || gain > bgain) {
			best = (long)i;
			bgain = gain;
		}
	}
	return best;
}

/*
 * Phase 3: while probes are left, trim again the most promising segment
 * put back (half of it when it holds a culprit) on top of the trims left,
 * which pass. 0, or -1 with *cause.
 */
static int
vsearch_refine(struct vsearch_run *sr, char **cause)
{
	struct vsearch		*s = sr->s;
	struct vsearch_batch	*b;
	size_t			 i, j, half;
	long			 k;
	char			*f = NULL, *why;
	int			 r;

	while (vsearch_room(s) > 0 && (k = vsearch_next(sr)) >= 0) {
		b = &sr->b[k];
		half = b->known ? b->n / 2 : b->n;
		for (i = 0; i < s->n; i++)
			sr->want[i] = !s->items[i].kept;
		for (i = 0; i < half; i++)
			sr->want[b->v[i]] = true;
		r = vsearch_probe(s, sr->want, vsearch_left(s, b->known ?
		    vsearch_log2(b->n) - 1 : 0), &f, cause);
		if (r < 0)
			return -1;
		if (r == 0) {
			free(b->step);
			b->step = f;
			f = NULL;
			memset(sr->cand, 0, (s->n + 1) * sizeof *sr->cand);
			memset(sr->hit, 0, (s->n + 1) * sizeof *sr->hit);
			for (i = 0; i < half; i++)
				sr->cand[b->v[i]] = true;
			if (vsearch_named(sr, b->step) > 0) {
				/* Named: out of the segment, put back with
				 * the message; the rest is not known to hold
				 * a culprit any more. */
				for (i = 0, j = 0; i < b->n; i++)
					if (!sr->hit[b->v[i]])
						b->v[j++] = b->v[i];
				b->n = j;
				b->known = false;
				continue;
			}
		}
		free(f);
		f = NULL;
		if (r == 1) {
			/* Trimmed again; the culprit, if known, is in the
			 * rest. */
			for (i = 0; i < half; i++)
				s->items[b->v[i]].kept = false;
			memmove(b->v, b->v + half, (b->n - half) *
			    sizeof *b->v);
			b->n -= half;
		} else if (b->known) {
			/* In the first half; the rest is not known to hold
			 * one (a segment of its own). */
			vsearch_segment(sr, sr->b[k].v + half, sr->b[k].n -
			    half, false, sr->b[k].step);
			b = &sr->b[k];
			b->n = half;
		} else
			b->known = true;
		if (!b->known || b->n != 1)
			continue;
		why = xasprintf("%s: bisection (probe %d)", b->step,
		    s->probes);
		vsearch_keep1(sr, b->v[0], why);
		free(why);
		s->culprits++;
		b->n = 0;
	}
	return 0;
}

/* What the budget left unsearched, said: the batches' reasons and a
 * note each. */
static void
vsearch_say_batches(struct vsearch_run *sr)
{
	struct vsearch	*s = sr->s;
	size_t		 i, j, n;
	char		*why, *note;

	for (i = 0; i < sr->nb; i++) {
		struct vsearch_batch *b = &sr->b[i];
		const char	*first, *last;

		if (b->n == 0)
			continue;
		n = b->n;
		first = s->items[b->v[0]].subsys;
		last = s->items[b->v[b->n - 1]].subsys;
		why = xasprintf("%s: in a batch of %zu options (%s%s%s)%s, put "
		    "back whole: the budget of %d probes ended the search", b->step,
		    n, first, strcmp(first, last) != 0 ? " to " : "",
		    strcmp(first, last) != 0 ? last : "", b->known ?
		    " that holds a culprit" : "", s->budget);
		for (j = 0; j < b->n; j++)
			vsearch_keep1(sr, b->v[j], why);
		free(why);
		note = xasprintf("probe budget: %zu options (%s%s%s) put back "
		    "whole for step %s, not searched option by option", n,
		    first, strcmp(first, last) != 0 ? " to " : "",
		    strcmp(first, last) != 0 ? last : "", b->step);
		vsearch_note(s, note);
		free(note);
		s->batches++;
		s->budget_hit = true;
	}
}

/* Phases 1 and 2 until the trims left pass or the budget is spent; 0, or
 * -1 with *cause. */
static int
vsearch_locate(struct vsearch_run *sr, const char *first_step, char **cause)
{
	struct vsearch	*s = sr->s;
	size_t		 nlive, i, c, lo = 0, plo, phi;
	char		*step = xstrdup(first_step), *f = NULL, *note;
	int		 r = 0, max;
	bool		 exact;

	for (;;) {
		nlive = vsearch_live(s, sr->live);
		if (nlive == 0) {
			note = xasprintf("every trim is back and step %s still "
			    "fails: the untrimmed config fails it too", step);
			vsearch_note(s, note);
			free(note);
			break;
		}
		for (i = 0; i < s->n; i++)
			sr->cand[i] = false;
		for (i = 0; i < nlive; i++)
			sr->cand[sr->live[i]] = true;
		if (vsearch_named(sr, step) > 0) {
			/* The part of the passing prefix still trimmed. */
			for (i = 0, c = 0; i < lo; i++)
				c += !s->items[sr->live[i]].kept;
			lo = c;
			s->informed_rounds++;
		} else {
			/* All of a prefix that passed fails now: a flaky
			 * step or no monotony; search it all again. */
			if (lo >= nlive) {
				vsearch_note(s, "trims that passed together "
				    "fail now (a flaky step, or trimming more "
				    "repaired one): searching them all again");
				lo = 0;
			}
			/* Down to the option when that fits with the
			 * probe after it (a short list), else half of what
			 * is left, the probe after it kept. */
			exact = vsearch_log2(nlive - lo) + 1 <=
			    vsearch_room(s) - 2;
			max = exact ? 1 << 20 : (vsearch_room(s) - 1) / 2;
			if (vsearch_bisect(sr, nlive, lo, max, exact, &plo, &phi,
			    &step, cause) != 0) {
				r = -1;
				break;
			}
			vsearch_put_back(sr, plo, phi, step);
			lo = plo;
		}
		nlive = vsearch_live(s, sr->live);
		if (vsearch_room(s) <= 0) {
			/* No probe left: keep only the prefix that passed. */
			if (lo < nlive) {
				note = xasprintf("probe budget of %d spent: the "
				    "%zu trims past the longest prefix that "
				    "passed are put back, unsearched", s->budget,
				    nlive - lo);
				vsearch_note(s, note);
				free(note);
				note = xasprintf("%s: past the last prefix that "
				    "passed when the %d probes were spent", step,
				    s->budget);
				for (i = lo; i < nlive; i++)
					vsearch_keep1(sr, sr->live[i], note);
				free(note);
				s->budget_hit = true;
			}
			/* Trimming nothing is the untrimmed config: it is
			 * not judged here (see the top). */
			s->passed = lo > 0;
			break;
		}
		/* The trims left, all of them. */
		vsearch_prefix(sr, nlive);
		if ((r = vsearch_probe(s, sr->want, 0, &f, cause)) < 0)
			break;
		if (r == 1) {
			s->passed = true;
			r = 0;
			break;
		}
		vsearch_step(&step, &f);
		r = 0;
	}
	free(step);
	free(f);
	return r;
}

/* Put back what step needs; see the top of the file. */
int
vsearch_run(struct vsearch *s, const char *first_step, char **cause)
{
	struct vsearch_run	 sr;
	size_t			 i;
	int			 r;

	memset(&sr, 0, sizeof sr);
	sr.s = s;
	sr.live = xcalloc(s->n + 1, sizeof *sr.live);
	sr.want = xcalloc(s->n + 1, sizeof *sr.want);
	sr.why = xcalloc(s->n + 1, sizeof *sr.why);
	sr.named = xcalloc(s->n + 1, sizeof *sr.named);
	sr.cand = xcalloc(s->n + 1, sizeof *sr.cand);
	sr.hit = xcalloc(s->n + 1, sizeof *sr.hit);
	s->passed = false;
	r = vsearch_locate(&sr, first_step, cause);
	if (r == 0 && s->passed)
		r = vsearch_refine(&sr, cause);
	if (r == 0) {
		vsearch_say_batches(&sr);
		/* Told once the search is over: a batch's options trimmed
		 * again by phase 3 are not put-backs. */
		for (i = 0; i < s->n; i++)
			if (s->items[i].kept && sr.why[i] != NULL &&
			    s->keep != NULL)
				s->keep(s->arg, i, sr.why[i]);
	}
	for (i = 0; i < s->n; i++)
		free(sr.why[i]);
	for (i = 0; i < sr.nb; i++) {
		free(sr.b[i].v);
		free(sr.b[i].step);
	}
	free(sr.b);
	free(sr.why);
	free(sr.named);
	free(sr.cand);
	free(sr.hit);
	free(sr.live);
	free(sr.want);
	return r;
}
