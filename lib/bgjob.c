/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bgjob.c - a background thread with a self-pipe (see bgjob.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bgjob.h"
#include "util.h"

/* The pipe, then the thread (see bgjob.h). */
int
bgjob_start(struct bgjob *j, void *(*fn)(void *), void *arg, char **cause)
{
	int	error;

	if (pipe2(j->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		return -1;
	}
	if ((error = pthread_create(&j->thread, NULL, fn, arg)) != 0) {
		*cause = xasprintf("thread: %s", strerror(error));
		bgjob_close(j);
		return -1;
	}
	return 0;
}

/* One byte: the loop takes everything there is when it wakes, so a
 * write that finds the pipe full (EAGAIN) has nothing to add. */
void
bgjob_wake(struct bgjob *j)
{
	char	c = 1;
	ssize_t	n;

	do
		n = write(j->pipe[1], &c, 1);
	while (n < 0 && errno == EINTR);
}

/* The read end. */
int
bgjob_fd(const struct bgjob *j)
{
	return j->pipe[0];
}

/* Read until the pipe is empty (it is non-blocking). */
void
bgjob_drain(struct bgjob *j)
{
	char	buf[64];
	ssize_t	n;

	do
		n = read(j->pipe[0], buf, sizeof buf);
	while (n > 0 || (n < 0 && errno == EINTR));
}

/* Join the thread. */
void
bgjob_join(struct bgjob *j)
{
	pthread_join(j->thread, NULL);
}

/* Both ends, once. */
void
bgjob_close(struct bgjob *j)
{
	int	i;

	for (i = 0; i < 2; i++) {
		if (j->pipe[i] >= 0)
			close(j->pipe[i]);
		j->pipe[i] = -1;
	}
}
