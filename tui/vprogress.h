/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vprogress.h - the verify run's progress line (v in the trim review):
 * the verify job's events folded into a small state, and that state
 * formatted into an attributed row, without curses (the unit tests read
 * it back: tests/unit/test_tui_verify.c).
 */
#ifndef KC_VPROGRESS_H
#define KC_VPROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "rows.h"

struct verify_job_event;

enum vprogress_step { VPS_RUNNING, VPS_PASS, VPS_FAIL };

struct vprogress_stepst {
	char			*name;
	enum vprogress_step	 state;
};

struct verify_progress {
	int		 probe;		/* builds and boots so far */
	size_t		 n, ntrims;	/* this probe trims n of ntrims */
	int		 left;		/* probes still to come at least (-1:
					   not known), and their time */
	double		 eta;
	char		*phase;		/* config, build, install, boot... */
	long		 done, total;	/* build objects (total 0: unknown) */
	struct vprogress_stepst *steps;	/* this probe's, as they come */
	size_t		 nsteps;
	size_t		 kept;		/* options put back so far */
	bool		 cancelling;	/* v v was pressed */
};

/* Width of the build bar, in cells between the brackets. */
#define VPROGRESS_BAR	20

void	 vprogress_init(struct verify_progress *);
void	 vprogress_free(struct verify_progress *);
/* Take one event of the job. */
void	 vprogress_event(struct verify_progress *,
	     const struct verify_job_event *);
/* " verify  probe 2 (3 of 5 trims): build [#####     ] 120/480 objects
 * ✓boot ✗net  1 put back", cut to width with an ellipsis. */
void	 vprogress_row(const struct verify_progress *, struct row *,
	     int width, bool ascii);
#endif
