/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load.c - the -e bundles are loaded on a thread after the first paint:
 * evidence, the tree's Kbuild and source indexes, the attribution, and
 * the trim suggestions, which run on a configuration of their own (a
 * third parse of the same tree with the values the interface started
 * with), so nothing here reads or writes the interface's configuration.
 * The thread writes a byte to a pipe when it is done; the interface
 * polls it and takes the result (load_finish) on its own thread. Curses
 * is never called here; what the loaders print to stderr while curses
 * owns the terminal is caught in a temporary file and shown as a
 * message.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/attrib.h"
#include "../core/decisions.h"
#include "../core/evidence.h"
#include "../core/session.h"
#include "../core/trim.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

struct tui_load {
	pthread_t		 thread;
	int			 pipe[2];
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

	int			 saved_stderr;	/* -1: not redirected */
	FILE			*err;		/* what was printed meanwhile */
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
	char		*cause = NULL, *msgs = NULL, c = 1;
	double		 t0 = clock_now();
	ssize_t		 n;

	/* Its messages go to stderr, caught for the message line. */
	if (session_open_evidence(l->session, &l->ce, &msgs) != 0)
		l->error = xstrdup("evidence could not be loaded");
	else
		l->ev_ok = true;
	if (msgs != NULL)
		fputs(msgs, stderr);
	free(msgs);
	l->ms_evidence = (clock_now() - t0) * 1e3;
	t0 = clock_now();
	if (l->ev_ok) {
		l->dpath = xstrdup(l->session->decisions);
		/* The directory's old .kctui-decisions, once (said). */
		if (decisions_migrate(l->dpath, &cause) != 0 ||
		    cause != NULL)
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
		l->in->ev = l->ce.ev;
		l->in->kb = l->ce.kb;
		l->in->a = l->ce.a;
		l->in->d = l->d;
		l->in->policy = l->policy;
		l->in->nontwin_mods = l->ce.nontwin_mods;
		l->in->nontwin_why = l->ce.nontwin_why;
		l->in->nnontwin = l->ce.nnontwin;
		l->in->modules_dir = getenv("KCTUI_MODULES_DIR");
		if ((l->trim = trim_suggest(l->k, l->in, &cause)) == NULL) {
			free(l->error);
			l->error = xasprintf("trim: %s", cause);
			free(cause);
		}
	}
	l->ms_trim = (clock_now() - t0) * 1e3;
	do
		n = write(l->pipe[1], &c, 1);
	while (n < 0 && errno == EINTR);
	return NULL;
}

void
load_start(struct tui *t)
{
	struct tui_load	*l;
	int		 i, fd;

	if (t->session->nbundles == 0)
		return;
	l = xcalloc(1, sizeof *l);
	l->session = t->session;
	l->saved_stderr = -1;
	l->values = kconfig_values_save(t->k);
	l->policy = t->session->policy;
	if (pipe(l->pipe) != 0) {
		tui_message(t, EL_ERROR, "evidence: pipe: %s", strerror(errno));
		kconfig_values_free(l->values);
		free(l);
		return;
	}
	for (i = 0; i < 2; i++) {
		fcntl(l->pipe[i], F_SETFL, fcntl(l->pipe[i], F_GETFL) |
		    O_NONBLOCK);
		fcntl(l->pipe[i], F_SETFD, FD_CLOEXEC);
	}
	/* Warnings of the readers would scribble over the screen. */
	fflush(stderr);
	if ((l->err = tmpfile()) != NULL &&
	    (l->saved_stderr = dup(STDERR_FILENO)) >= 0) {
		fd = fileno(l->err);
		dup2(fd, STDERR_FILENO);
	}
	if ((errno = pthread_create(&l->thread, NULL, load_main, l)) != 0) {
		tui_message(t, EL_ERROR, "evidence: thread: %s",
		    strerror(errno));
		close(l->pipe[0]);
		close(l->pipe[1]);
		if (l->saved_stderr >= 0) {
			dup2(l->saved_stderr, STDERR_FILENO);
			close(l->saved_stderr);
		}
		if (l->err != NULL)
			fclose(l->err);
		kconfig_values_free(l->values);
		free(l);
		return;
	}
	l->running = true;
	t->load = l;
}

int
load_fd(struct tui *t)
{
	return t->load != NULL && t->load->running ? t->load->pipe[0] : -1;
}

bool
load_busy(struct tui *t)
{
	return t->load != NULL && t->load->running;
}

/* The first line of what was printed on stderr while loading. */
static char *
load_stderr(struct tui_load *l)
{
	char	line[1024];
	char	*s = NULL;

	if (l->saved_stderr >= 0) {
		fflush(stderr);
		dup2(l->saved_stderr, STDERR_FILENO);
		close(l->saved_stderr);
		l->saved_stderr = -1;
	}
	if (l->err == NULL)
		return NULL;
	rewind(l->err);
	if (fgets(line, sizeof line, l->err) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		s = xstrdup(line);
	}
	fclose(l->err);
	l->err = NULL;
	return s;
}

int
load_finish(struct tui *t)
{
	struct tui_load	*l = t->load;
	char		 buf[16], *said;

	if (l == NULL || !l->running)
		return R_NONE;
	while (read(l->pipe[0], buf, sizeof buf) > 0)
		;
	pthread_join(l->thread, NULL);
	l->running = false;
	close(l->pipe[0]);
	close(l->pipe[1]);
	said = load_stderr(l);
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
	if (l->error != NULL)
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
	if (l->running) {
		/* Leaving while it still loads: wait for it (it can't be
		 * cancelled half-way), then drop everything. */
		pthread_join(l->thread, NULL);
		close(l->pipe[0]);
		close(l->pipe[1]);
		free(load_stderr(l));
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
	kconfig_values_free(l->values);
	free(l);
	t->load = NULL;
	t->a = NULL;
}
