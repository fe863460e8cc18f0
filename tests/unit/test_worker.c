/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_worker.c - the background worker, headless: on the TUI fixture
 * tree, a change made on one configuration is recomputed on the worker's
 * own copy and comes back through the pipe with the dependent values;
 * stale jobs are dropped (generation numbers); the consequences hook runs
 * with the values before the change; the snapshot equals one computed in
 * the foreground.
 */
#include <poll.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/worker.h"
#include "../../kconfig-parser/kconfig.h"

#define UNIT_PREFIX "unit/worker/"
#include "unit.h"

static int nconsequences, nbefore;

static struct kconfig *
open_fixture(void *arg, char **cause)
{
	static char		*noenv[] = { NULL };
	struct kconfig_options	 opt;
	struct kconfig		*k;

	(void)arg;
	memset(&opt, 0, sizeof opt);
	opt.envp = noenv;
	opt.warn = unit_quiet;
	opt.info = unit_quiet;
	k = kconfig_new(&opt);
	if (kconfig_parse(k, "tests/tui/fixture/Kconfig", cause) != 0) {
		kconfig_free(k);
		return NULL;
	}
	return k;
}

/* The open hook failing. */
static struct kconfig *
open_missing(void *arg, char **cause)
{
	(void)arg;
	*cause = strdup("nowhere/Kconfig: no such file");
	return NULL;
}

/* While gated, the hook holds the worker inside a job (after telling the
 * test it is there), so the test can queue newer jobs deterministically. */
static volatile int	gated;
static sem_t		gate, entered;

static void *
consequences(void *arg, struct kconfig *k, const struct kc_values *before)
{
	(void)arg;
	(void)k;
	if (gated) {
		sem_post(&entered);
		sem_wait(&gate);
	}
	nconsequences++;
	if (before != NULL)
		nbefore++;
	return strdup("consequences");
}

/* Wait for the next result (10 s at most). */
static struct worker_snapshot *
wait_result(struct worker *w)
{
	struct pollfd		 pfd = { worker_fd(w), POLLIN, 0 };
	struct worker_snapshot	*s;
	int			 i;

	for (i = 0; i < 100; i++) {
		if (poll(&pfd, 1, 100) > 0 && (s = worker_collect(w)) != NULL)
			return s;
	}
	return NULL;
}

int
main(void)
{
	struct worker_hooks	 hooks = { open_fixture, consequences, free,
				    NULL };
	struct worker_snapshot	*s, *fg;
	struct kconfig		*k;
	struct kc_symbol	*swap, *zswap, *crypto;
	struct worker		*w;
	char			*cause = NULL;
	uint64_t		 g1, g2, g3;
	int			 i;

	if ((k = open_fixture(NULL, &cause)) == NULL) {
		check("parse", 0, cause);
		return 1;
	}
	kconfig_read(k, "tests/tui/fixture/config", &cause);
	kconfig_recalc(k);
	swap = kconfig_find(k, "SWAP");
	zswap = kconfig_find(k, "ZSWAP");
	crypto = kconfig_find(k, "CRYPTO");
	w = worker_start(&hooks, NULL, &cause);
	check("start", w != NULL, cause ? cause : "");
	if (w == NULL)
		return 1;

	/* ZSWAP=y selects CRYPTO: computed over there. */
	kc_sym_set_tristate(k, zswap, KC_YES);
	g1 = worker_submit(w, kconfig_values_save(k));
	check("busy", worker_busy(w), "not busy after submit");
	s = wait_result(w);
	check("result", s != NULL && s->gen == g1, "no result");
	if (s == NULL)
		return 1;
	check("select", s->tri[kc_sym_index(crypto)] == KC_YES &&
	    s->rev[kc_sym_index(crypto)] == KC_YES, "CRYPTO not selected");
	check("consequences", s->consequences != NULL &&
	    strcmp(s->consequences, "consequences") == 0 &&
	    nconsequences == 1 && nbefore == 0, "hook not called");
	check("idle", !worker_busy(w), "still busy");
	/* The same as computing here. */
	fg = worker_snapshot_compute(k, NULL);
	check("same-as-foreground", fg->nsyms == s->nsyms &&
	    memcmp(fg->tri, s->tri, (size_t)s->nsyms) == 0 &&
	    memcmp(fg->vis, s->vis, (size_t)s->nsyms) == 0 &&
	    memcmp(fg->flags, s->flags, (size_t)s->nsyms) == 0 &&
	    fg->nmenus == s->nmenus &&
	    memcmp(fg->menu_vis, s->menu_vis, (size_t)s->nmenus) == 0,
	    "snapshots differ");
	worker_snapshot_free(fg);
	worker_snapshot_free(s);

	/* Three quick changes: only the newest must come back. The worker
	 * is held inside the first job while the two others are queued: the
	 * second is dropped unstarted, the first's result as stale. */
	sem_init(&gate, 0, 0);
	sem_init(&entered, 0, 0);
	gated = 1;
	kc_sym_set_tristate(k, swap, KC_NO);
	g1 = worker_submit(w, kconfig_values_save(k));
	sem_wait(&entered);
	gated = 0;
	kc_sym_set_tristate(k, swap, KC_YES);
	g2 = worker_submit(w, kconfig_values_save(k));
	kc_sym_set_tristate(k, swap, KC_NO);
	g3 = worker_submit(w, kconfig_values_save(k));
	sem_post(&gate);
	for (i = 0; i < 3; i++) {
		s = wait_result(w);
		if (s == NULL || s->gen == g3)
			break;
		worker_snapshot_free(s);
	}
	check("newest", s != NULL && s->gen == g3 && g1 < g2 && g2 < g3,
	    "newest generation not delivered");
	check("dropped", worker_dropped(w) >= 2, "the queued and the stale "
	    "jobs were not both dropped");
	check("depends", s != NULL && s->tri[kc_sym_index(zswap)] == KC_NO &&
	    s->vis[kc_sym_index(zswap)] == KC_NO, "ZSWAP still on");
	check("before", nbefore >= 1, "hook never got the previous values");
	worker_snapshot_free(s);
	check("error", worker_error(w) == NULL, "worker error");
	worker_stop(w);

	/* A worker whose configuration cannot be made says why. */
	{
		struct worker_hooks	 bad = { open_missing, NULL, NULL,
					    NULL };
		struct pollfd		 pfd;
		char			*e = NULL;

		w = worker_start(&bad, NULL, &cause);
		pfd.fd = worker_fd(w);
		pfd.events = POLLIN;
		poll(&pfd, 1, 10000);
		s = worker_collect(w);
		e = worker_error(w);
		check("open-error", s == NULL && e != NULL &&
		    strstr(e, "nowhere") != NULL && !worker_busy(w),
		    e != NULL ? e : "no error");
		free(e);
		worker_stop(w);
	}
	free(cause);
	kconfig_free(k);
	return unit_failures != 0;
}
