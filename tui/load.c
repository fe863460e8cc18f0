/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load.c - the -e bundles are loaded on a thread after the first paint:
 * evidence, the tree's Kbuild and source indexes, the attribution, and
 * the trim suggestions, which run on a configuration of their own (a
 * third parse of the same tree with the values the interface started
 * with), so nothing here reads or writes the interface's configuration.
 * The thread writes a byte to a pipe when it is done; the interface
 * polls it and takes the result (load_finish) on its own thread. Curses
 * is never called here; the loaders' messages come back as text
 * (session_open_evidence's), never on stderr, and the first is shown on
 * the message line.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/evidence/attrib.h"
#include "../core/trim/decisions.h"
#include "../core/evidence/evidence.h"
#include "../core/session.h"
#include "../core/trim/trim.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/bgjob.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

struct tui_load {
	struct bgjob		 job;	/* the thread and its pipe */
	bool			 running;
	struct session		*session;
	struct kc_values	*values;	/* the interface's, at start */
	enum trim_policy	 policy;

	/* Results, read after the join. */
	struct session_evidence	 ce;
	bool			 ev_ok;
	struct kconfig		*k;		/* the trim's configuration */
	struct trim		*trim;
	struct trim_input	*in;
	struct decisions	*d;
	char			*dpath;
	char			*error;		/* why something failed */
	double			 ms_evidence, ms_trim;

	char			*said;		/* the loaders' first message */
	/* load_retrim: the evidence is keep_ce's, the decisions next_dpath
	 * (the new configuration's), and the review is replaced. */
	bool			 retrim;
	char			*next_dpath;
	/* Kept until the end: the interface shows their data. */
	struct session_evidence	 keep_ce;
	struct kconfig		*keep_k;
	struct trim_input	*keep_in;
};

/* The parse repeats the interface's warnings: already seen. */
static void
load_quiet(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* The trim's own configuration: the tree parsed again, with the values
 * the interface had when loading started. */
static struct kconfig *
load_config(struct tui_load *l, char **cause)
{
	struct kconfig *k = session_new_kconfig(l->session, load_quiet,
	    load_quiet);

	if (kconfig_parse(k, l->session->kconfig, cause) != 0) {
		kconfig_free(k);
		return NULL;
	}
	if (kconfig_values_restore(k, l->values) != 0) {
		*cause = xstrdup("trim: its parse made other symbols than the "
		    "interface's (cold $(shell) cache?)");
		kconfig_free(k);
		return NULL;
	}
	kconfig_recalc(k);
	return k;
}

static void *
load_main(void *arg)
{
	struct tui_load	*l = arg;
	char		*cause = NULL, *msgs = NULL;
	double		 t0 = clock_now();

	/* Its messages, for the message line: the first. A recompute
	 * for another configuration has its evidence already. */
	if (l->retrim)
		;
	else if (session_open_evidence(l->session, &l->ce, &msgs) != 0)
		l->error = xstrdup("evidence could not be loaded");
	else
		l->ev_ok = true;
	if (msgs != NULL && *msgs != '\0')
		l->said = xstrndup(msgs, strcspn(msgs, "\n"));
	free(msgs);
	l->ms_evidence = (clock_now() - t0) * 1e3;
	t0 = clock_now();
	if (l->ev_ok) {
		l->dpath = xstrdup(l->retrim ? l->next_dpath :
		    l->session->decisions);
		/* The directory's old .kctui-decisions, once (said); not
		 * while curses owns the terminal. */
		if (!l->retrim && (decisions_migrate(l->dpath, &cause) != 0 ||
		    cause != NULL))
			fprintf(stderr, "%s\n", cause);
		free(cause);
		cause = NULL;
		/* Bad lines are skipped (and said); the rest is honoured. */
		l->d = decisions_load(l->dpath, &cause);
		if (l->d == NULL) {
			l->error = cause;
			cause = NULL;
		} else if (cause != NULL) {
			l->error = cause;
			cause = NULL;
		}
	}
	if (l->d != NULL && (l->k = load_config(l, &cause)) == NULL) {
		free(l->error);
		l->error = cause;
		cause = NULL;
	}
	if (l->k != NULL) {
		l->in = xcalloc(1, sizeof *l->in);
		session_trim_input(&l->ce, l->d, l->policy, l->in);
		if ((l->trim = trim_suggest(l->k, l->in, &cause)) == NULL) {
			free(l->error);
			l->error = xasprintf("trim: %s", cause);
			free(cause);
		}
	}
	l->ms_trim = (clock_now() - t0) * 1e3;
	bgjob_wake(&l->job);
	return NULL;
}

void
load_start(struct tui *t)
{
	struct tui_load	*l;
	char		*cause = NULL;

	if (t->session->nbundles == 0)
		return;
	l = xcalloc(1, sizeof *l);
	l->session = t->session;
	l->values = kconfig_values_save(t->k);
	l->policy = t->session->policy;
	if (bgjob_start(&l->job, load_main, l, &cause) != 0) {
		tui_message(t, EL_ERROR, "evidence: %s", cause);
		free(cause);
		kconfig_values_free(l->values);
		free(l);
		return;
	}
	l->running = true;
	t->load = l;
}

/* The bundles against the configuration's architecture (core's
 * trim_arch_mismatch, as suggest and export check it), or NULL. */
static char *
load_arch_mismatch(struct tui *t, struct tui_load *l)
{
	struct session	*s = t->session;
	const char	*srcarch = envp_get(s->envp, "SRCARCH");

	return trim_arch_mismatch(l->ce.ev, s->config_text, t->config_path,
	    srcarch != NULL ? srcarch : "x86");
}

int
load_fd(struct tui *t)
{
	return t->load != NULL && t->load->running ? bgjob_fd(&t->load->job) :
	    -1;
}

bool
load_busy(struct tui *t)
{
	return t->load != NULL && t->load->running;
}

/* Recompute the suggestions for the configuration being edited now (see
 * tui.h): the thread of the first load again, with the evidence kept. */
void
load_retrim(struct tui *t)
{
	struct tui_load	*l = t->load;
	const char	*dpath = review_decisions_path(t);
	char		*cause = NULL;

	if (l == NULL || l->running || !l->ev_ok || t->trim == NULL ||
	    dpath == NULL)
		return;
	l->retrim = true;
	free(l->next_dpath);
	l->next_dpath = xstrdup(dpath);
	kconfig_values_free(l->values);
	l->values = kconfig_values_save(t->k);
	l->ce = l->keep_ce;
	free(l->error);
	l->error = NULL;
	l->trim = NULL;
	l->k = NULL;
	l->in = NULL;
	if (bgjob_start(&l->job, load_main, l, &cause) != 0) {
		tui_message(t, EL_ERROR, "trim: %s", cause);
		free(cause);
		memset(&l->ce, 0, sizeof l->ce);
		return;
	}
	l->running = true;
}

/* The recompute is done: the review replaced (its views closed first:
 * their lines name the old one's candidates), or the old one kept with
 * the reason. */
static int
load_finish_retrim(struct tui *t, struct tui_load *l)
{
	struct tui_view	*v;
	bool		 reopen = false;

	memset(&l->ce, 0, sizeof l->ce);	/* keep_ce's */
	l->retrim = false;
	if (l->trim == NULL) {
		tui_message(t, EL_ERROR, "Trim suggestions not recomputed: %s",
		    l->error != NULL ? l->error : "unknown");
		if (l->k != NULL)
			kconfig_free(l->k);
		free(l->in);
		decisions_free(l->d);
		free(l->dpath);
		l->k = NULL;
		l->in = NULL;
		l->d = NULL;
		l->dpath = NULL;
		return R_ALL;
	}
	for (v = t->view; v != NULL; v = v->prev)
		if (strncmp(v->ops->name, "trim", 4) == 0)
			reopen = true;
	while (t->view != NULL && t->view->prev != NULL &&
	    strncmp(t->view->ops->name, "trim", 4) == 0)
		tui_pop(t);
	pthread_mutex_lock(&t->trim_lock);
	review_free(t);
	pthread_mutex_unlock(&t->trim_lock);
	if (l->keep_k != NULL)
		kconfig_free(l->keep_k);
	free(l->keep_in);
	tui_message(t, EL_STATUS, "Trim suggestions recomputed for %s: %zu "
	    "candidates in %zu subsystems (t reviews them)", t->config_path,
	    trim_ncands(l->trim), trim_nsubsys(l->trim));
	t->trim = review_new(t, l->k, l->trim, l->d, l->dpath,
	    (int)l->policy, l->ms_trim);
	l->keep_k = l->k;
	l->keep_in = l->in;
	l->k = NULL;
	l->in = NULL;
	l->d = NULL;
	l->dpath = NULL;
	l->trim = NULL;
	/* Its counts on the values as they are (nothing changed: the
	 * configuration is not modified by it). */
	review_request(t);
	if (t->view != NULL)
		tree_build(t->view->tree);
	if (reopen)
		review_open(t);
	return R_ALL;
}

int
load_finish(struct tui *t)
{
	struct tui_load	*l = t->load;
	char		*said, *arch;

	if (l == NULL || !l->running)
		return R_NONE;
	bgjob_drain(&l->job);
	bgjob_join(&l->job);
	l->running = false;
	bgjob_close(&l->job);
	if (l->retrim)
		return load_finish_retrim(t, l);
	said = l->said;
	l->said = NULL;
	if (l->ev_ok) {
		t->a = l->ce.a;
		if (t->w != NULL) {
			worker_set_attrib(t->w, t->a);
			/* The verdicts come with the next computation. */
			t->gen = worker_submit(t->w, kconfig_values_save(t->k));
		} else {
			worker_snapshot_free(t->snap);
			t->snap = worker_snapshot_compute(t->k, t->a);
		}
	}
	if (l->trim != NULL) {
		t->trim = review_new(t, l->k, l->trim, l->d, l->dpath,
		    (int)l->policy, l->ms_evidence + l->ms_trim);
		l->d = NULL;
		l->dpath = NULL;
	}
	tui_bench(t, "evidence-loaded %.3f trim %.3f", l->ms_evidence,
	    l->ms_trim);
	if (l->ev_ok && (arch = load_arch_mismatch(t, l)) != NULL) {
		/* Said over the rest: every candidate of another
		 * architecture's evidence is a guess (suggest and export
		 * refuse without --any-arch). */
		tui_message(t, EL_ERROR, "%s: its trim candidates are no "
		    "evidence for this configuration", arch);
		free(arch);
	} else if (l->error != NULL)
		tui_message(t, EL_ERROR, "%s%s%s", l->error, said != NULL ?
		    ": " : "", said != NULL ? said : "");
	else if (said != NULL)
		tui_message(t, EL_STATUS, "%s", said);
	else if (t->trim != NULL)
		tui_message(t, EL_STATUS, "Evidence loaded: %zu trim "
		    "candidates in %zu subsystems (t reviews them)",
		    trim_ncands(l->trim), trim_nsubsys(l->trim));
	free(said);
	/* Kept for the interface's lifetime. */
	l->keep_ce = l->ce;
	l->keep_k = l->k;
	l->keep_in = l->in;
	memset(&l->ce, 0, sizeof l->ce);
	l->k = NULL;
	l->in = NULL;
	if (l->trim == NULL) {
		/* Nothing refers to them then. */
		if (l->keep_k != NULL)
			kconfig_free(l->keep_k);
		l->keep_k = NULL;
		free(l->keep_in);
		l->keep_in = NULL;
	}
	if (t->view != NULL)
		tree_build(t->view->tree);
	/* t while it loaded: now. */
	if (t->trim_wanted && t->trim != NULL)
		review_open_at(t, t->trim_wanted_sym);
	t->trim_wanted = false;
	return R_ALL;
}

void
load_free(struct tui *t)
{
	struct tui_load *l = t->load;

	if (l == NULL)
		return;
	if (l->running && l->retrim) {
		/* Leaving while it recomputes: the new trim goes, the kept
		 * evidence and configuration below. */
		bgjob_join(&l->job);
		bgjob_close(&l->job);
		trim_free(l->trim);
		l->trim = NULL;
		if (l->k != NULL)
			kconfig_free(l->k);
		free(l->in);
		l->k = NULL;
		l->in = NULL;
		memset(&l->ce, 0, sizeof l->ce);
	} else if (l->running) {
		/* Leaving while it still loads: wait for it (it can't be
		 * cancelled half-way), then drop everything. */
		bgjob_join(&l->job);
		bgjob_close(&l->job);
		l->keep_ce = l->ce;
		l->keep_k = l->k;
		l->keep_in = l->in;
		trim_free(l->trim);
		l->trim = NULL;
	}
	/* The review (review_free) owns the trim once handed over. */
	review_free(t);
	session_close_evidence(&l->keep_ce);
	if (l->keep_k != NULL)
		kconfig_free(l->keep_k);
	free(l->keep_in);
	decisions_free(l->d);
	free(l->dpath);
	free(l->error);
	free(l->said);
	free(l->next_dpath);
	kconfig_values_free(l->values);
	free(l);
	t->load = NULL;
	t->a = NULL;
}
