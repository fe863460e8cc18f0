/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.c - v in the trim review: verify what has been accepted so far.
 * The accepted candidates are exported to a trimmed config in the verify
 * build directory (as e does), and `kctui verify`'s loop runs on a thread
 * (core/verify/verify-job.h) over the bundle's config, machine and workload
 * (core/verify/verify-session.h), on its own struct kconfig parsed there. Its
 * events are taken on this thread when its pipe is readable (tui.c polls
 * it) and shown as a progress line (vprogress.c); the keys stay live.
 * When it ends: the report in a pager, the options put back marked as
 * kept (the review's decisions), verified or not on the message line.
 * v while it runs arms a cancel, a second v cancels.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/session.h"
#include "../core/verify/verify-job.h"
#include "../core/verify-session.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"
#include "vprogress.h"

struct tui_verify {
	struct verify		 v;	/* the job's from the start */
	struct verify_setup	 vs;	/* verify_prepare's, as the CLI's */
	char			*trimmed;
	struct verify_job	*job;
	struct verify_progress	 prog;
	bool			 armed;	/* v pressed once while running */
};

/* The job's parse repeats the interface's warnings: already seen. */
static void
verify_quiet(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* The job's own configuration, parsed on its thread. */
static struct kconfig *
verify_open(void *arg, char **cause)
{
	struct tui	*t = arg;
	struct kconfig	*k;

	char		*why = NULL;

	k = session_new_kconfig(t->session, verify_quiet, verify_quiet);
	if (kconfig_parse(k, t->session->kconfig, cause) != 0) {
		kconfig_free(k);
		return NULL;
	}
	/* The Kbuild index, here off the UI thread: without it the run
	 * finds by bisection alone what a failed boot names, as the
	 * command line's does after its warning. */
	if (verify_prepare_index(t->session, &t->verify->vs, &t->verify->v,
	    &why) != 0)
		free(why);
	return k;
}

/* Free the state (the job joined first). */
static void
verify_free_state(struct tui *t)
{
	struct tui_verify *tv = t->verify;

	if (tv == NULL)
		return;
	if (tv->job != NULL)
		verify_job_free(tv->job);	/* verify_free(&tv->v) */
	else
		verify_free(&tv->v);
	verify_setup_free(&tv->vs);
	vprogress_free(&tv->prog);
	free(tv->trimmed);
	free(tv);
	t->verify = NULL;
}

/* An error of the setup, as the command line says it (without its
 * "kctui: "), first line only. */
static int
verify_error(struct tui *t, const char *prefix, char *cause)
{
	char *nl;

	if (cause != NULL && (nl = strchr(cause, '\n')) != NULL)
		*nl = '\0';
	tui_message(t, EL_ERROR, "%s%s", prefix, cause != NULL ? cause :
	    "failed");
	free(cause);
	verify_free_state(t);
	return R_ALL;
}

/* Export the accepted trims and start the loop. */
static int
verify_start(struct tui *t)
{
	struct session		*s = t->session;
	struct tui_verify	*tv;
	struct verify_prepare_opts po;
	char			*cause = NULL;
	size_t			 nacc;

	if (review_naccepted(t) == 0) {
		tui_message(t, EL_STATUS, "Nothing to verify: accept trims "
		    "(a) first; v builds and boots what is accepted");
		return R_ALL;
	}
	tv = t->verify = xcalloc(1, sizeof *tv);
	vprogress_init(&tv->prog);
	memset(&po, 0, sizeof po);
	if (verify_prepare(s, &po, &tv->vs, &tv->v, &cause) != 0)
		return verify_error(t, "", cause);
	tv->trimmed = xasprintf("%s/trimmed.config", tv->vs.work);
	if (review_export_to(t, tv->trimmed, NULL, &nacc, &cause) != 0)
		return verify_error(t, "", cause);
	tv->v.trimmed = tv->trimmed;
	if ((tv->job = verify_job_start(&tv->v, verify_open, t,
	    &cause)) == NULL)
		return verify_error(t, "verify: ", cause);
	tui_message(t, EL_STATUS, "Verifying %zu accepted trims: build, "
	    "boot, judge (%s); v v cancels", nacc, tv->vs.work);
	return R_ALL;
}

/* v in the trim review: start verifying the accepted trims, or while a
 * run goes on, ask (then, pressed again, cancel). R_* flags. */
int
verify_key(struct tui *t)
{
	struct tui_verify *tv = t->verify;

	if (tv == NULL)
		return verify_start(t);
	if (tv->prog.cancelling) {
		tui_message(t, EL_STATUS, "verify: cancelling, it stops soon");
		return R_ALL;
	}
	if (!tv->armed) {
		tv->armed = true;
		tui_message(t, EL_STATUS, "verify is running: v again cancels "
		    "it");
		return R_ALL;
	}
	tv->armed = false;
	tv->prog.cancelling = true;
	verify_job_cancel(tv->job);
	tui_message(t, EL_STATUS, "verify: cancelling");
	return R_ALL;
}

/* Any other key: a pending cancel question is dropped. */
void
verify_other_key(struct tui *t)
{
	if (t->verify != NULL)
		t->verify->armed = false;
}

/* Whether a verify run is going on. */
bool
verify_running(struct tui *t)
{
	return t->verify != NULL && t->verify->job != NULL;
}

/* The running job's fd for the main loop's poll, or -1. */
int
verify_fd(struct tui *t)
{
	return verify_running(t) ? verify_job_fd(t->verify->job) : -1;
}

/* The report's headings: markdown's. */
static bool
verify_heading(const char *line)
{
	return *line == '#';
}

/* Enter, q or Esc close the report; the value keys do nothing. */
static int
verify_pager_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	(void)v;
	switch (act) {
	case A_ENTER:
	case A_QUIT:
		tui_pop(t);
		return R_ALL;
	case A_BACK:
	case A_VERIFY:
	case A_HELP:
		return -1;
	default:
		return R_NONE;
	}
}

/* The pager's bottom line for the verify report. */
static void
verify_pager_info(struct tui *t, struct tui_view *v, struct row *r,
    int width)
{
	(void)t;
	(void)width;
	row_addf(r, EL_STATUS, "%d lines; arrows scroll, Enter/Esc/q close",
	    tree_count(v->tree));
}

static const struct pager_ops verify_pager_ops = {
	verify_heading, verify_pager_action, verify_pager_info, NULL
};

/* The loop ended: its report, the options put back, the verdict. */
static int
verify_finish(struct tui *t, int rc, const char *jcause)
{
	struct tui_verify	*tv = t->verify;
	struct verify		*v = verify_job_result(tv->job);
	char			*why, *report, *nl;
	size_t			 kept;

	if (rc != 0)
		return verify_error(t, "verify: ", xstrdup(jcause != NULL ?
		    jcause : "failed"));
	report = verify_report(v);
	pager_open(t, &verify_pager_ops, NULL, xstrdup("Verify report"),
	    report, NULL);
	if (v->passed) {
		kept = review_keep_verified(t, v);
		tui_message(t, EL_STATUS, "verify: verified: %zu of %zu "
		    "trims hold, %zu put back (kept); %d probes",
		    v->ntrims - kept, v->ntrims, kept, v->probes);
	} else {
		why = verify_why(v, 0, false);
		if ((nl = strchr(why, '\n')) != NULL)
			*nl = '\0';
		tui_message(t, EL_ERROR, "verify: NOT verified: %s (the "
		    "decisions were not changed)", why);
		free(why);
	}
	verify_free_state(t);
	return R_ALL | R_REBUILD;
}

/* The job's fd is readable: take its events (UI thread), and at its end
 * show the report and apply what was put back. R_* flags. */
int
verify_ready(struct tui *t)
{
	struct tui_verify	*tv = t->verify;
	struct verify_job_event	*ev;
	const char		*cause = NULL;
	size_t			 n, i;
	int			 rc;

	if (!verify_running(t))
		return R_NONE;
	ev = verify_job_events(tv->job, &n);
	for (i = 0; i < n; i++)
		vprogress_event(&tv->prog, &ev[i]);
	verify_job_events_free(ev, n);
	if (verify_job_done(tv->job, &rc, &cause))
		return verify_finish(t, rc, cause);
	return n > 0 ? R_LINES : R_NONE;
}

/* The progress line, drawn over the bottom rule while a run goes on. */
void
verify_row(struct tui *t, struct row *r, int width)
{
	if (verify_running(t))
		vprogress_row(&t->verify->prog, r, width, t->ascii);
}

/* Cancel and free a run (leaving the browser). */
void
verify_stop(struct tui *t)
{
	verify_free_state(t);
}
