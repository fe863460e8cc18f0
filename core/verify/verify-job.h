/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-job.h - kctui verify on a thread, for the browser: the loop
 * (verify.c) runs on its own struct kconfig, its events are copied into a
 * queue, and a pipe becomes readable when there are new ones, so the
 * interface's poll() wakes up and the keys stay live. Nothing here
 * touches curses.
 */
#ifndef KC_VERIFY_JOB_H
#define KC_VERIFY_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "verify.h"

struct verify_job;

/* An event as the interface keeps it (strings copied). */
struct verify_job_event {
	enum verify_ev	 kind;
	int		 probe;
	size_t		 n, ntrims;
	char		*phase, *name, *state, *detail;
	long		 done, total;
	int		 rc;
	double		 seconds;
	int		 left;		/* VEV_PROBE's estimate (verify.h) */
	double		 eta;
};

/*
 * Start the loop on a thread. v is filled as for verify_run, except k:
 * open makes the job's own configuration on the thread (NULL with
 * *cause on failure); v's event, log, arg and cancel are the job's. The
 * job owns v from here until verify_job_free.
 */
struct verify_job *verify_job_start(struct verify *v,
		     struct kconfig *(*open)(void *arg, char **cause),
		     void *open_arg, char **cause);
/* Readable when events arrived or the loop ended. */
int		 verify_job_fd(const struct verify_job *);
/* The events since the last call (malloc'd array, *n of them; free with
 * verify_job_events_free); clears the fd. */
struct verify_job_event *verify_job_events(struct verify_job *, size_t *n);
void		 verify_job_events_free(struct verify_job_event *, size_t n);
/* Whether the loop ended; then *rc is verify_run's return and *cause
 * its reason (the job's; do not free). */
bool		 verify_job_done(struct verify_job *, int *rc,
		     const char **cause);
/* The finished loop's results (after verify_job_done). */
struct verify	*verify_job_result(struct verify_job *);
/* Ask the loop to stop (its child is killed); it ends soon after. */
void		 verify_job_cancel(struct verify_job *);
/* Cancel, join the thread, free everything (verify_free on v too). */
void		 verify_job_free(struct verify_job *);
#endif
