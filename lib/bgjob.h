/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bgjob.h - a background thread that wakes a poll() loop: the thread
 * runs, and writes a byte to a self-pipe whenever it has something (a
 * result, events, the end); the loop polls the read end and drains it
 * before taking what the thread left under its own lock. The one way
 * the browser's worker, its evidence load and verify's job do it.
 */
#ifndef KC_BGJOB_H
#define KC_BGJOB_H

#include <pthread.h>

struct bgjob {
	pthread_t	 thread;
	int		 pipe[2];	/* [0] polled, [1] written by the
					   thread; both non-blocking,
					   close-on-exec */
};

/* Make the pipe and start fn(arg) on a thread; -1 with *cause ("pipe:
 * ...", "thread: ...") and nothing left open. Everything the thread
 * reads must be set up before. */
int	 bgjob_start(struct bgjob *, void *(*fn)(void *), void *arg,
	     char **cause);
/* From the thread: wake the loop (a full pipe already will). */
void	 bgjob_wake(struct bgjob *);
/* The fd to poll for reading. */
int	 bgjob_fd(const struct bgjob *);
/* From the loop: empty the pipe, so that poll() waits again. */
void	 bgjob_drain(struct bgjob *);
/* Wait for the thread to end (it must be told to, its own way). */
void	 bgjob_join(struct bgjob *);
/* Close the pipe, after the join. */
void	 bgjob_close(struct bgjob *);
#endif
