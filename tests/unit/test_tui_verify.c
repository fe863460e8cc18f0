/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_tui_verify.c - the verify run's progress line (v in the trim
 * review), with no curses and no job: events fed by hand, the row read
 * back as text and per-cell elements.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tui/rows.c"
#include "../../tui/vprogress.c"

#define UNIT_PREFIX "unit/tui_verify/"
#include "unit.h"

static struct verify_progress p;
static int bad_width;	/* lines not exactly their width */

/* Feed one event. */
static void
ev(enum verify_ev kind, const char *phase, const char *name,
    const char *state, long done, long total)
{
	struct verify_job_event e;

	memset(&e, 0, sizeof e);
	e.kind = kind;
	e.probe = 2;
	e.n = 3;
	e.ntrims = 5;
	e.phase = (char *)phase;
	e.name = (char *)name;
	e.state = (char *)state;
	e.done = done;
	e.total = total;
	vprogress_event(&p, &e);
}

/* The line at width, as text (trailing blanks cut) and elements. */
static void
line(int width, bool ascii, char **text, char **attrs)
{
	struct row	r;
	char		letters[EL_COUNT + 1];
	size_t		n;

	memset(letters, '.', EL_COUNT);
	letters[EL_COUNT] = '\0';
	letters[EL_BUSY] = 'B';
	letters[EL_STATUS] = 's';
	letters[EL_EV_USED] = 'P';
	letters[EL_ERROR] = 'F';
	row_init(&r);
	vprogress_row(&p, &r, width, ascii);
	bad_width += r.n != width;
	*text = row_text(&r);
	*attrs = row_attrs(&r, letters);
	n = strlen(*text);
	while (n > 0 && (*text)[n - 1] == ' ')
		(*text)[--n] = '\0';
	row_free(&r);
}

/* Compare the text with want. */
static void
want(const char *name, const char *got, const char *w)
{
	checkf(name, strcmp(got, w) == 0, "got \"%s\", want \"%s\"", got, w);
}

int
main(void)
{
	char *s, *a;

	vprogress_init(&p);
	line(100, true, &s, &a);
	want("starting", s, " verify  starting  (v v cancels)");
	checkf("starting-attrs", strncmp(a, "BBBBBBBBss", 10) == 0, "%s", a);
	free(s);
	free(a);

	/* A probe, its build a quarter done: 5 of 20 cells. */
	ev(VEV_PROBE, NULL, NULL, NULL, 0, 0);
	ev(VEV_PHASE, "config", NULL, NULL, 0, 0);
	line(100, true, &s, &a);
	want("config", s, " verify  probe 2 (3 of 5 trims): config  "
	    "(v v cancels)");
	free(s);
	free(a);
	ev(VEV_PHASE, "build", NULL, NULL, 0, 0);
	ev(VEV_BUILD, "build", NULL, NULL, 120, 480);
	line(100, true, &s, &a);
	want("build-bar", s, " verify  probe 2 (3 of 5 trims): build "
	    "[#####---------------] 120/480 objects  (v v cancels)");
	checkf("build-bar-attrs", strstr(a, "ssBBBBBsss") != NULL, "%s", a);
	free(s);
	free(a);
	line(100, false, &s, &a);
	want("build-bar-utf8", s, " verify  probe 2 (3 of 5 trims): build "
	    "[\u2588\u2588\u2588\u2588\u2588\u00b7\u00b7\u00b7\u00b7\u00b7"
	    "\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7] "
	    "120/480 objects  (v v cancels)");
	free(s);
	free(a);
	/* Unknown total: a count. */
	ev(VEV_BUILD, "build", NULL, NULL, 7, 0);
	line(100, true, &s, &a);
	want("build-count", s, " verify  probe 2 (3 of 5 trims): build 7 "
	    "objects  (v v cancels)");
	free(s);
	free(a);

	/* Steps as they come: pass, fail, one running. */
	ev(VEV_PHASE, "boot", NULL, NULL, 0, 0);
	ev(VEV_STEP, NULL, "hello", NULL, 0, 0);
	ev(VEV_STEP, NULL, "hello", "pass", 0, 0);
	ev(VEV_STEP, NULL, "net", NULL, 0, 0);
	ev(VEV_STEP, NULL, "net", "fail", 0, 0);
	ev(VEV_STEP, NULL, "disk", NULL, 0, 0);
	ev(VEV_KEEP, NULL, "BINFMT_ELF", "boot", 0, 0);
	line(100, true, &s, &a);
	want("steps", s, " verify  probe 2 (3 of 5 trims): boot  +hello "
	    "!net >disk  1 put back  (v v cancels)");
	checkf("steps-attrs", strstr(a, "ssPssssssFssssB") != NULL, "%s", a);
	free(s);
	free(a);
	line(100, false, &s, &a);
	want("steps-utf8", s, " verify  probe 2 (3 of 5 trims): boot  "
	    "\u2713hello \u2717net \u25b8disk  1 put back  (v v cancels)");
	free(s);
	free(a);

	/* Cancelling; cut to a narrow terminal with an ellipsis. */
	p.cancelling = true;
	line(40, true, &s, &a);
	want("cut-ascii", s, " verify  probe 2 (3 of 5 trims): boot...");
	free(s);
	free(a);
	line(40, false, &s, &a);
	want("cut-utf8", s, " verify  probe 2 (3 of 5 trims): boot  \u2026");
	free(s);
	free(a);
	line(100, true, &s, &a);
	checkf("cancelling", strstr(s, "1 put back  cancelling") != NULL,
	    "%s", s);
	free(s);
	free(a);

	/* A new probe forgets the steps and the build. */
	ev(VEV_PROBE, NULL, NULL, NULL, 0, 0);
	p.cancelling = false;
	line(100, true, &s, &a);
	want("new-probe", s, " verify  probe 2 (3 of 5 trims): config  "
	    "1 put back  (v v cancels)");
	free(s);
	free(a);
	{
		/* a probe of a bisection: the fewest still to come, and
		 * their time at the later probes' mean */
		struct verify_job_event e;

		memset(&e, 0, sizeof e);
		e.kind = VEV_PROBE;
		e.probe = 3;
		e.n = 2;
		e.ntrims = 5;
		e.left = 2;
		e.eta = 360;
		vprogress_event(&p, &e);
		line(100, true, &s, &a);
		want("estimate", s, " verify  probe 3 (2 of 5 trims, 2+ more ~6 "
		    "min): config  1 put back  (v v cancels)");
		free(s);
		free(a);
	}
	check("width", bad_width == 0, NULL);
	vprogress_free(&p);
	return unit_failures != 0;
}
