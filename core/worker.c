/* SPDX-License-Identifier: GPL-2.0 */
/*
 * worker.c - background recomputation (see worker.h).
 *
 * One job slot and one result slot under a mutex: submit replaces a job
 * not yet started (it is stale), the thread drops a result whose
 * generation was superseded while it computed, and writes one byte to a
 * pipe when a result is ready so that the interface's poll() wakes up.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/bgjob.h"
#include "../lib/util.h"
#include "evidence/attrib.h"
#include "worker.h"

struct worker {
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct worker_hooks	 hooks;
	const struct attrib	*a;
	struct bgjob		 bg;	/* the thread and its pipe */

	/* Under lock. */
	uint64_t		 submitted;	/* newest generation */
	struct kc_values	*job;		/* queued, not started */
	uint64_t		 job_gen;
	struct worker_snapshot	*done;		/* finished, not collected */
	uint64_t		 collected;	/* newest generation handed out */
	uint64_t		 dropped;
	bool			 stop;
	char			*error;
};

struct worker_snapshot *
worker_snapshot_compute(struct kconfig *k, const struct attrib *a)
{
	struct worker_snapshot	*s = xcalloc(1, sizeof *s);
	struct kc_menu		*m;
	struct kc_symbol	*sym, *sel;
	double			 t0 = clock_now() * 1e3;
	int			 i, n = kconfig_nsymbols(k);

	s->nsyms = n;
	s->tri = xcalloc((size_t)n + 1, 1);
	s->vis = xcalloc((size_t)n + 1, 1);
	s->rev = xcalloc((size_t)n + 1, 1);
	s->flags = xcalloc((size_t)n + 1, 1);
	s->verdict = xcalloc((size_t)n + 1, 1);
	s->choice_sel = xcalloc((size_t)n + 1, sizeof *s->choice_sel);
	s->str = xcalloc((size_t)n + 1, sizeof *s->str);
	for (i = 0; i < n; i++) {
		enum kc_type t;

		sym = kconfig_symbol(k, i);
		t = kc_sym_type(sym);
		s->choice_sel[i] = -1;
		s->tri[i] = (uint8_t)(kc_sym_is_choice(sym) ?
		    kc_choice_mode(k, sym) : kc_sym_tristate(k, sym));
		s->vis[i] = (uint8_t)kc_sym_visible(k, sym);
		s->rev[i] = (uint8_t)kc_sym_selected_value(k, sym);
		if (kc_sym_has_user_value(sym))
			s->flags[i] |= WS_USER;
		if (t == KC_BOOL || t == KC_TRISTATE) {
			if (kc_sym_tristate_settable(k, sym, KC_NO))
				s->flags[i] |= WS_SET_N;
			if (t == KC_TRISTATE &&
			    kc_sym_tristate_settable(k, sym, KC_MOD))
				s->flags[i] |= WS_SET_M;
			if (kc_sym_tristate_settable(k, sym, KC_YES))
				s->flags[i] |= WS_SET_Y;
		} else if (t != KC_UNKNOWN && !kc_sym_is_choice(sym))
			s->str[i] = xstrdup(kc_sym_string(k, sym));
		if (!kc_sym_is_choice(sym) && kc_sym_is_written(k, sym))
			s->flags[i] |= WS_WRITTEN;
		if (kc_sym_is_choice(sym) &&
		    (sel = kc_choice_selected(k, sym)) != NULL)
			s->choice_sel[i] = kc_sym_index(sel);
		s->verdict[i] = WS_NO_VERDICT;
		if (a != NULL && kc_sym_name(sym) != NULL)
			s->verdict[i] = (uint8_t)attrib_verdict(a,
			    kc_sym_name(sym));
	}
	for (m = kconfig_root(k); m != NULL; m = kc_menu_walk(m))
		s->nmenus++;
	s->menu_vis = xcalloc((size_t)s->nmenus + 1, 1);
	for (i = 0, m = kconfig_root(k); m != NULL; m = kc_menu_walk(m), i++)
		s->menu_vis[i] = kc_menu_is_visible(k, m);
	s->compute_ms = clock_now() * 1e3 - t0;
	return s;
}

void
worker_snapshot_free(struct worker_snapshot *s)
{
	int i;

	if (s == NULL)
		return;
	if (s->consequences != NULL && s->consequences_free != NULL)
		s->consequences_free(s->consequences);
	for (i = 0; i < s->nsyms; i++)
		free(s->str[i]);
	free(s->str);
	free(s->tri);
	free(s->vis);
	free(s->rev);
	free(s->flags);
	free(s->verdict);
	free(s->choice_sel);
	free(s->menu_vis);
	free(s);
}

/* Wake the poller: one byte is enough, collect takes the newest. */
static void
worker_notify(struct worker *w)
{
	bgjob_wake(&w->bg);
}

/* The thread: open the configuration, then compute jobs as they come. */
static void *
worker_main(void *arg)
{
	struct worker		*w = arg;
	struct kconfig		*k;
	struct kc_values	*v, *before = NULL;
	struct worker_snapshot	*s;
	const struct attrib	*a;
	char			*cause = NULL;
	uint64_t		 gen;

	k = w->hooks.open(w->hooks.arg, &cause);
	pthread_mutex_lock(&w->lock);
	if (k == NULL) {
		w->error = cause != NULL ? cause : xstrdup("worker: no "
		    "configuration");
		pthread_mutex_unlock(&w->lock);
		worker_notify(w);
		return NULL;
	}
	for (;;) {
		while (w->job == NULL && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->stop)
			break;
		v = w->job;
		gen = w->job_gen;
		w->job = NULL;
		pthread_mutex_unlock(&w->lock);

		if (kconfig_values_restore(k, v) != 0) {
			pthread_mutex_lock(&w->lock);
			free(w->error);
			w->error = xstrdup("worker: values from another tree");
			kconfig_values_free(v);
			continue;
		}
		kconfig_recalc(k);
		pthread_mutex_lock(&w->lock);
		a = w->a;
		pthread_mutex_unlock(&w->lock);
		s = worker_snapshot_compute(k, a);
		s->gen = gen;
		if (w->hooks.consequences != NULL) {
			s->consequences = w->hooks.consequences(w->hooks.arg,
			    k, before);
			s->consequences_free = w->hooks.consequences_free;
		}
		kconfig_values_free(before);
		before = v;

		pthread_mutex_lock(&w->lock);
		if (gen < w->submitted) {
			/* Superseded while computing: nobody wants it. */
			w->dropped++;
			worker_snapshot_free(s);
			continue;
		}
		worker_snapshot_free(w->done);
		w->done = s;
		pthread_mutex_unlock(&w->lock);
		worker_notify(w);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	kconfig_values_free(before);
	kconfig_free(k);
	return NULL;
}

struct worker *
worker_start(const struct worker_hooks *hooks, const struct attrib *a,
    char **cause)
{
	struct worker	*w = xcalloc(1, sizeof *w);
	char		*why = NULL;

	w->hooks = *hooks;
	w->a = a;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (bgjob_start(&w->bg, worker_main, w, &why) != 0) {
		*cause = xasprintf("worker: %s", why);
		free(why);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return NULL;
	}
	return w;
}

void
worker_set_attrib(struct worker *w, const struct attrib *a)
{
	pthread_mutex_lock(&w->lock);
	w->a = a;
	pthread_mutex_unlock(&w->lock);
}

int
worker_fd(const struct worker *w)
{
	return bgjob_fd(&w->bg);
}

uint64_t
worker_submit(struct worker *w, struct kc_values *v)
{
	uint64_t gen;

	pthread_mutex_lock(&w->lock);
	gen = ++w->submitted;
	if (w->job != NULL) {
		kconfig_values_free(w->job);
		w->dropped++;
	}
	w->job = v;
	w->job_gen = gen;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return gen;
}

struct worker_snapshot *
worker_collect(struct worker *w)
{
	struct worker_snapshot	*s;

	bgjob_drain(&w->bg);
	pthread_mutex_lock(&w->lock);
	s = w->done;
	w->done = NULL;
	/* A result older than the newest job is still better than what is
	 * on screen: hand it out; worker_busy() stays true. */
	if (s != NULL)
		w->collected = s->gen;
	pthread_mutex_unlock(&w->lock);
	return s;
}

bool
worker_busy(struct worker *w)
{
	bool busy;

	pthread_mutex_lock(&w->lock);
	busy = w->error == NULL && (w->collected < w->submitted ||
	    w->done != NULL);
	pthread_mutex_unlock(&w->lock);
	return busy;
}

uint64_t
worker_dropped(struct worker *w)
{
	uint64_t n;

	pthread_mutex_lock(&w->lock);
	n = w->dropped;
	pthread_mutex_unlock(&w->lock);
	return n;
}

char *
worker_error(struct worker *w)
{
	char *e;

	pthread_mutex_lock(&w->lock);
	e = w->error != NULL ? xstrdup(w->error) : NULL;
	pthread_mutex_unlock(&w->lock);
	return e;
}

void
worker_stop(struct worker *w)
{
	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	bgjob_join(&w->bg);
	kconfig_values_free(w->job);
	worker_snapshot_free(w->done);
	free(w->error);
	bgjob_close(&w->bg);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
