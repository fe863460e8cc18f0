/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vprogress.c - the verify run's progress line (see vprogress.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/verify/verify-job.h"
#include "../lib/util.h"
#include "theme.h"
#include "vprogress.h"

/* An empty progress state. */
void
vprogress_init(struct verify_progress *p)
{
	memset(p, 0, sizeof *p);
}

/* Forget the steps of the previous probe. */
static void
vprogress_clear_steps(struct verify_progress *p)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		free(p->steps[i].name);
	free(p->steps);
	p->steps = NULL;
	p->nsteps = 0;
}

/* Free the state (it is empty again after). */
void
vprogress_free(struct verify_progress *p)
{
	vprogress_clear_steps(p);
	free(p->phase);
	memset(p, 0, sizeof *p);
}

/* The phase shown, a copy of phase (NULL: none). */
static void
vprogress_phase(struct verify_progress *p, const char *phase)
{
	free(p->phase);
	p->phase = phase != NULL ? xstrdup(phase) : NULL;
}

/* The step called name (added when new). */
static struct vprogress_stepst *
vprogress_step(struct verify_progress *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		if (strcmp(p->steps[i].name, name) == 0)
			return &p->steps[i];
	p->steps = xrealloc(p->steps, (p->nsteps + 1) * sizeof *p->steps);
	p->steps[p->nsteps].name = xstrdup(name);
	p->steps[p->nsteps].state = VPS_RUNNING;
	return &p->steps[p->nsteps++];
}

/* Take one of the job's events into the state (the UI thread). */
void
vprogress_event(struct verify_progress *p, const struct verify_job_event *e)
{
	struct vprogress_stepst *s;

	switch (e->kind) {
	case VEV_PROBE:
		p->probe = e->probe;
		p->n = e->n;
		p->ntrims = e->ntrims;
		p->left = e->left;
		p->eta = e->eta;
		p->done = p->total = 0;
		vprogress_phase(p, "config");
		vprogress_clear_steps(p);
		break;
	case VEV_PHASE:
		if (e->phase != NULL && strcmp(e->phase, "build") == 0 &&
		    (p->phase == NULL || strcmp(p->phase, "build") != 0))
			p->done = p->total = 0;
		vprogress_phase(p, e->phase);
		break;
	case VEV_BUILD:
		vprogress_phase(p, "build");
		p->done = e->done;
		p->total = e->total;
		break;
	case VEV_STEP:
		if (e->name == NULL)
			break;
		s = vprogress_step(p, e->name);
		if (e->state == NULL) {
			s->state = VPS_RUNNING;
			vprogress_phase(p, "boot");
		} else
			s->state = strcmp(e->state, "pass") == 0 ? VPS_PASS :
			    VPS_FAIL;
		break;
	case VEV_KEEP:
		p->kept++;
		break;
	case VEV_VERDICT:
	case VEV_NOTE:
		break;
	}
}

/* The build bar: "[######              ] 120/480 objects". */
static void
vprogress_bar(const struct verify_progress *p, struct row *r, bool ascii)
{
	long	fill;
	int	i;

	if (p->total <= 0) {
		row_addf(r, EL_STATUS, " %ld objects", p->done);
		return;
	}
	fill = p->done >= p->total ? VPROGRESS_BAR :
	    p->done * VPROGRESS_BAR / p->total;
	row_add(r, EL_STATUS, " [");
	for (i = 0; i < VPROGRESS_BAR; i++)
		row_add(r, i < fill ? EL_BUSY : EL_STATUS, i < fill ?
		    (ascii ? "#" : "\u2588") : (ascii ? "-" : "\u00b7"));
	row_addf(r, EL_STATUS, "] %ld/%ld objects", p->done, p->total);
}

/* The progress line: probe, phase, the build bar, each step's state and
 * the options put back so far, cut to width. */
void
vprogress_row(const struct verify_progress *p, struct row *r, int width,
    bool ascii)
{
	const struct vprogress_stepst	*s;
	size_t				 i;

	row_add(r, EL_BUSY, " verify ");
	if (p->probe == 0)
		row_add(r, EL_STATUS, " starting");
	else {
		row_addf(r, EL_STATUS, " probe %d (%zu of %zu trims", p->probe,
		    p->n, p->ntrims);
		/* the fewest probes still to come for this failure */
		if (p->left > 0)
			row_addf(r, EL_STATUS, ", %d+ more ~%.0f min", p->left,
			    p->eta / 60);
		row_addf(r, EL_STATUS, "): %s", p->phase != NULL ? p->phase :
		    "");
		if (p->phase != NULL && strcmp(p->phase, "build") == 0)
			vprogress_bar(p, r, ascii);
	}
	for (i = 0; i < p->nsteps; i++) {
		s = &p->steps[i];
		row_add(r, EL_STATUS, i == 0 ? "  " : " ");
		switch (s->state) {
		case VPS_PASS:
			row_add(r, EL_EV_USED, ascii ? "+" : "\u2713");
			break;
		case VPS_FAIL:
			row_add(r, EL_ERROR, ascii ? "!" : "\u2717");
			break;
		default:
			row_add(r, EL_BUSY, ascii ? ">" : "\u25b8");
			break;
		}
		row_add(r, EL_STATUS, s->name);
	}
	if (p->kept > 0)
		row_addf(r, EL_STATUS, "  %zu put back", p->kept);
	if (p->cancelling)
		row_add(r, EL_ERROR, "  cancelling");
	else
		row_add(r, EL_STATUS, "  (v v cancels)");
	if (r->n > width) {
		r->n = width - (ascii ? 3 : 1);
		row_add(r, EL_STATUS, ascii ? "..." : "\u2026");
	}
	row_fit(r, EL_STATUS, width);
}
