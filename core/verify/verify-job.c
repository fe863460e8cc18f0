/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-job.c - the verify loop on a thread (see verify-job.h). One
 * mutex guards the event queue and the end state; a byte written to a
 * pipe wakes the interface, which takes every queued event at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/bgjob.h"
#include "../../lib/util.h"
#include "verify-job.h"

struct verify_job {
	pthread_mutex_t		 lock;
	struct bgjob		 job;	/* the thread and its pipe */
	struct verify		*v;
	struct kconfig		*(*open)(void *, char **);
	void			*open_arg;
	volatile sig_atomic_t	 cancel;

	/* Under lock. */
	struct verify_job_event	*ev;
	size_t			 nev, aev;
	bool			 done;
	int			 rc;
	char			*cause;
};

/* Wake the interface (a full pipe already will). */
static void
verify_job_wake(struct verify_job *j)
{
	bgjob_wake(&j->job);
}

/* A copy of s, or NULL. */
static char *
verify_job_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* The loop's event callback, on the job's thread: queue a copy. */
static void
verify_job_event(void *arg, const struct verify_event *e)
{
	struct verify_job	*j = arg;
	struct verify_job_event	*q;

	pthread_mutex_lock(&j->lock);
	if (j->nev == j->aev) {
		j->aev = j->aev != 0 ? j->aev * 2 : 16;
		j->ev = xrealloc(j->ev, j->aev * sizeof *j->ev);
	}
	q = &j->ev[j->nev++];
	memset(q, 0, sizeof *q);
	q->kind = e->kind;
	q->probe = e->probe;
	q->n = e->n;
	q->ntrims = e->ntrims;
	q->left = e->left;
	q->eta = e->eta;
	q->phase = verify_job_dup(e->phase);
	q->name = verify_job_dup(e->name);
	q->state = verify_job_dup(e->state);
	q->detail = verify_job_dup(e->detail);
	q->done = e->done;
	q->total = e->total;
	q->rc = e->rc;
	q->seconds = e->seconds;
	pthread_mutex_unlock(&j->lock);
	verify_job_wake(j);
}

/* The thread: open the configuration, run the loop, say it ended. */
static void *
verify_job_main(void *arg)
{
	struct verify_job	*j = arg;
	char			*cause = NULL;
	int			 rc = -1;

	if ((j->v->k = j->open(j->open_arg, &cause)) != NULL)
		rc = verify_run(j->v, &cause);
	pthread_mutex_lock(&j->lock);
	j->done = true;
	j->rc = rc;
	j->cause = cause;
	pthread_mutex_unlock(&j->lock);
	verify_job_wake(j);
	return NULL;
}

/* Start the loop on a thread (see verify-job.h). */
struct verify_job *
verify_job_start(struct verify *v, struct kconfig *(*open)(void *, char **),
    void *open_arg, char **cause)
{
	struct verify_job	*j = xcalloc(1, sizeof *j);

	pthread_mutex_init(&j->lock, NULL);
	j->v = v;
	j->open = open;
	j->open_arg = open_arg;
	v->event = verify_job_event;
	v->log = NULL;
	v->arg = j;
	v->cancel = &j->cancel;
	if (bgjob_start(&j->job, verify_job_main, j, cause) != 0) {
		pthread_mutex_destroy(&j->lock);
		free(j);
		return NULL;
	}
	return j;
}

/* Readable when events arrived or the loop ended. */
int
verify_job_fd(const struct verify_job *j)
{
	return bgjob_fd(&j->job);
}

/* The events since the last call; clears the fd. */
struct verify_job_event *
verify_job_events(struct verify_job *j, size_t *n)
{
	struct verify_job_event	*ev;

	bgjob_drain(&j->job);
	pthread_mutex_lock(&j->lock);
	ev = j->ev;
	*n = j->nev;
	j->ev = NULL;
	j->nev = j->aev = 0;
	pthread_mutex_unlock(&j->lock);
	return ev;
}

/* Free what verify_job_events returned. */
void
verify_job_events_free(struct verify_job_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ev[i].phase);
		free(ev[i].name);
		free(ev[i].state);
		free(ev[i].detail);
	}
	free(ev);
}

/* Whether the loop ended, with its return and reason. */
bool
verify_job_done(struct verify_job *j, int *rc, const char **cause)
{
	bool done;

	pthread_mutex_lock(&j->lock);
	done = j->done;
	if (done) {
		*rc = j->rc;
		*cause = j->cause;
	}
	pthread_mutex_unlock(&j->lock);
	return done;
}

/* The finished loop's results. */
struct verify *
verify_job_result(struct verify_job *j)
{
	return j->v;
}

/* Ask the loop to stop. */
void
verify_job_cancel(struct verify_job *j)
{
	j->cancel = 1;
}

/* Cancel, join, free (the job's configuration and v's results too). */
void
verify_job_free(struct verify_job *j)
{
	struct verify_job_event	*ev;
	size_t			 n;

	if (j == NULL)
		return;
	j->cancel = 1;
	bgjob_join(&j->job);
	ev = verify_job_events(j, &n);
	verify_job_events_free(ev, n);
	if (j->v->k != NULL)
		kconfig_free(j->v->k);
	j->v->k = NULL;
	verify_free(j->v);
	free(j->cause);
	bgjob_close(&j->job);
	pthread_mutex_destroy(&j->lock);
	free(j);
}
