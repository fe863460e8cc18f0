/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell.c - $(shell,...) for the preprocessor.
 *
 * A command runs as "/bin/sh -c CMD" (posix_spawn) with the preprocessor's
 * environment, stdin from /dev/null and stderr inherited, the way the
 * kernel's popen() runs it.  At most 4096 bytes of output are read, then
 * shell_cook() applies the kernel's do_shell() rules.
 *
 * Identical commands run once per shell.  With jobs > 1 a command not
 * already known starts in the background and its caller gets a future
 * placeholder; at most jobs commands run at once, and waiting for one
 * keeps reading the pipes of all of them.
 *
 * What a command depends on is digested by shell-digest.c, and results
 * are kept between runs by shell-cache.c (see shell-int.h).
 */
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preprocess.h"
#include "shell-int.h"

#define SHELL_BUFSIZE	4096

/*
 * One $(shell) call of this run.  A job whose command text holds
 * placeholders of unfinished jobs waits (JOB_WAIT) and is substituted and
 * started from the loop that reaps jobs once they have finished; a job
 * whose command turns out to equal an earlier one's copies that job's
 * output (JOB_ALIAS); a ready job waits for a free slot in JOB_QUEUED.
 */
enum job_state {
	JOB_WAIT,
	JOB_ALIAS,
	JOB_QUEUED,
	JOB_RUNNING,
	JOB_DONE,
};

struct job {
	char		*cmd;		/* the command; NULL until known */
	char		*tmpl;		/* JOB_WAIT: text with placeholders */
	enum job_state	 state;
	size_t		 alias;		/* JOB_ALIAS: the job it copies */
	struct digest	 dig;
	pid_t		 pid;		/* > 0 while not reaped */
	int		 fd;		/* read end, -1 when closed */
	char		*buf;		/* SHELL_BUFSIZE + 1 bytes */
	size_t		 len;
	char		*out;		/* result once JOB_DONE */
	char		*error;		/* a failed start, not reported yet */
	int		 errfd;		/* captured stderr (memfd) or -1 */
};

/* Apply the kernel's do_shell() post-processing to raw output. */
size_t
shell_cook(char *buf, size_t len)
{
	size_t i;

	if (len >= SHELL_BUFSIZE)
		len = SHELL_BUFSIZE - 1;
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			buf[i] = ' ';
		else if (buf[i] == '\0')
			return i;
	}
	return len;
}

/* Start "/bin/sh -c cmd" with stderr to errfd (-1: ours); returns the
 * read end of its stdout or -1. */
static int
shell_spawn(const char *cmd, char *const *envp, int errfd, pid_t *pid,
    char **cause)
{
	posix_spawn_file_actions_t	 fa;
	char				*argv[4];
	int				 pfd[2], error;

	if (pipe2(pfd, O_CLOEXEC) != 0) {
		*cause = xasprintf("%s: pipe: %s", cmd, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	if (errfd != -1)
		posix_spawn_file_actions_adddup2(&fa, errfd, 2);

	argv[0] = (char *)"sh";
	argv[1] = (char *)"-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	error = posix_spawn(pid, "/bin/sh", &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (error != 0) {
		close(pfd[0]);
		*cause = xasprintf("%s: %s", cmd, strerror(error));
		return -1;
	}
	return pfd[0];
}

/* Wait for a child, ignoring its status as pclose's caller does. */
static void
shell_reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
}

/* Run cmd like make's $(shell ...): whole output, newlines folded. */
char *
shell_capture(const char *cmd, char *const *envp, char **cause)
{
	struct strbuf	 sb;
	char		 buf[4096];
	ssize_t		 n;
	size_t		 i;
	pid_t		 pid;
	int		 fd;

	if ((fd = shell_spawn(cmd, envp, -1, &pid, cause)) == -1)
		return NULL;
	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	close(fd);
	shell_reap(pid);
	while (sb.len > 0 && sb.s[sb.len - 1] == '\n')
		sb.s[--sb.len] = '\0';
	for (i = 0; i < sb.len; i++) {
		if (sb.s[i] == '\n')
			sb.s[i] = ' ';
	}
	return strbuf_detach(&sb);
}

/* Create a shell runner. */
struct shell *
shell_create(char *const *envp, const char *cache_path, int jobs)
{
	struct shell *sh = xcalloc(1, sizeof *sh);

	sh->envp = envp;
	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->cond, NULL);
	sh->wake[0] = sh->wake[1] = -1;
	sh->err_drop = SIZE_MAX;
	sh->jobs = jobs > 1 ? jobs : 1;
	sh->path = envp_get(envp, "PATH");
	strmap_init(&sh->words);
	strmap_init(&sh->jobkeys);
	arena_init(&sh->arena);
	strmap_init(&sh->entmap);
	if (cache_path != NULL) {
		sh->cache_path = xstrdup(cache_path);
		shell_base_digest(sh);
		shell_cache_load(sh);
	}
	return sh;
}

/* If s starts a placeholder, its length (and *id); else 0. */
static size_t
shell_placeholder(const char *s, size_t *id)
{
	const char	*p = s + 1;
	size_t		 v = 0;

	if (*s != PP_FUTURE_START)
		return 0;
	while (*p >= '0' && *p <= '9' && p - s < 20)
		v = v * 10 + (size_t)(*p++ - '0');
	if (p == s + 1 || *p != PP_FUTURE_END)
		return 0;
	*id = v;
	return (size_t)(p + 1 - s);
}

/* Have all the jobs whose placeholders s holds finished? (locked) */
static bool
shell_ready_locked(const struct shell *sh, const char *s)
{
	const char	*q;
	size_t		 id, n;

	for (q = strchr(s, PP_FUTURE_START); q != NULL;
	    q = strchr(q + 1, PP_FUTURE_START)) {
		if ((n = shell_placeholder(q, &id)) == 0 || id >= sh->njob)
			continue;
		if (sh->job[id].state != JOB_DONE)
			return false;
	}
	return true;
}

/* Substitute the placeholders of s, whose jobs have all finished. */
static char *
shell_subst_done(struct shell *sh, const char *s)
{
	struct strbuf	 sb;
	const char	*p = s, *q;
	size_t		 id, n;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	while ((q = strchr(p, PP_FUTURE_START)) != NULL) {
		strbuf_add(&sb, p, q - p);
		if ((n = shell_placeholder(q, &id)) == 0 || id >= sh->njob ||
		    sh->job[id].state != JOB_DONE) {
			strbuf_addc(&sb, *q);
			p = q + 1;
			continue;
		}
		strbuf_adds(&sb, sh->job[id].out);
		p = q + n;
	}
	strbuf_adds(&sb, p);
	return strbuf_detach(&sb);
}

/* Find the job of a command or template; SIZE_MAX if none. */
static size_t
shell_job_find(struct shell *sh, const char *key)
{
	void	*v = strmap_get(&sh->jobkeys, key, strlen(key));

	return v != NULL ? (size_t)(uintptr_t)v - 1 : SIZE_MAX;
}

/* Make key (which must outlive the table) find job i. */
static void
shell_key_add(struct shell *sh, const char *key, size_t i)
{
	strmap_set(&sh->jobkeys, key, strlen(key), (void *)(uintptr_t)(i + 1));
}

/* Add a job in state JOB_WAIT with no command yet; returns its index. */
static size_t
shell_job_add(struct shell *sh)
{
	struct job *j;

	XGROW(sh->job, sh->jobcap, sh->njob + 1, 64);
	j = &sh->job[sh->njob];
	memset(j, 0, sizeof *j);
	j->state = JOB_WAIT;
	j->fd = -1;
	j->errfd = -1;
	return sh->njob++;
}

static void	*shell_worker(void *);

/* The running set has changed: have the worker (started if need be)
 * poll the new one. */
static void
shell_wake(struct shell *sh)
{
	sigset_t	all, old;
	ssize_t		n;

	if (sh->jobs <= 1)
		return;
	if (!sh->threaded) {
		if (pipe2(sh->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
			sh->wake[0] = sh->wake[1] = -1;
			return;	/* callers poll instead */
		}
		/* Signals are for the main thread. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		sh->stop = false;
		sh->threaded = pthread_create(&sh->thread, NULL, shell_worker,
		    sh) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!sh->threaded) {
			close(sh->wake[0]);
			close(sh->wake[1]);
			sh->wake[0] = sh->wake[1] = -1;
		}
		return;
	}
	do
		n = write(sh->wake[1], "", 1);
	while (n == -1 && errno == EINTR);
}

/* Start job i's command in the background. */
static void
shell_start(struct shell *sh, size_t i)
{
	struct job	*j = &sh->job[i];
	char		*cause = NULL;

	/* In parallel, stderr is kept and replayed in the order of the
	 * input (shell_flush_stderr). */
	if (sh->jobs > 1 && i >= sh->err_next && i < sh->err_drop)
		j->errfd = memfd_create("kctui-stderr", MFD_CLOEXEC);
	j->fd = shell_spawn(j->cmd, sh->envp, j->errfd, &j->pid, &cause);
	if (j->fd == -1) {
		/* Remember the failure as an empty, uncached answer. */
		j->out = xstrdup("");
		j->error = cause;
		j->state = JOB_DONE;
		return;
	}
	j->buf = xmalloc(SHELL_BUFSIZE + 1);
	j->state = JOB_RUNNING;
	shell_wake(sh);
	sh->running++;
	sh->stats.runs++;
}

/*
 * Job i's command is known (cmd, which is taken over): answer it from an
 * identical earlier command or the disk cache, or start it now if a slot
 * is free, else queue it.
 */
static void
shell_launch(struct shell *sh, size_t i, char *cmd)
{
	struct job	*j = &sh->job[i];
	struct centry	*e;
	size_t		 k;

	if ((k = shell_job_find(sh, cmd)) != SIZE_MAX) {
		free(cmd);
		sh->stats.dedup++;
		if (sh->job[k].state == JOB_DONE) {
			j->out = xstrdup(sh->job[k].out);
			j->state = JOB_DONE;
		} else {
			j->alias = k;
			j->state = JOB_ALIAS;
			sh->waiting++;
		}
		return;
	}
	j->cmd = cmd;
	shell_key_add(sh, cmd, i);
	if (sh->cache_path != NULL) {
		shell_digest(sh, cmd, &j->dig);
		e = shell_cache_find(sh, cmd, strlen(cmd), &j->dig);
		if (e != NULL) {
			sh->stats.cached++;
			j->out = xstrndup(e->out, e->outlen);
			j->state = JOB_DONE;
			return;
		}
	}
	if (sh->running < sh->jobs && sh->queued == 0) {
		shell_start(sh, i);
		return;
	}
	j->state = JOB_QUEUED;
	sh->queued++;
	if (i < sh->qlow)
		sh->qlow = i;
}

/* Start the queued job that comes first in the input. */
static void
shell_start_next(struct shell *sh)
{
	size_t i;

	for (i = sh->qlow; i < sh->njob; i++) {
		if (sh->job[i].state == JOB_QUEUED)
			break;
	}
	if (i == sh->njob) {
		/* Cannot happen: queued counts JOB_QUEUED jobs. */
		sh->queued = 0;
		return;
	}
	sh->queued--;
	sh->qlow = i + 1;
	shell_start(sh, i);
}

/*
 * Someone waits for job i: start it now if it is queued (even beyond the
 * limit: the waiter is not working meanwhile), or the jobs it needs.
 */
static void
shell_promote(struct shell *sh, size_t i)
{
	const char	*q;
	size_t		 id;

	switch (sh->job[i].state) {
	case JOB_QUEUED:
		sh->queued--;
		shell_start(sh, i);
		break;
	case JOB_ALIAS:
		shell_promote(sh, sh->job[i].alias);
		break;
	case JOB_WAIT:
		for (q = strchr(sh->job[i].tmpl, PP_FUTURE_START); q != NULL;
		    q = strchr(q + 1, PP_FUTURE_START)) {
			if (shell_placeholder(q, &id) != 0 && id < i)
				shell_promote(sh, id);
		}
		break;
	default:
		break;
	}
}

/*
 * Move every job on that can move without waiting: copy finished
 * originals into aliases, substitute and launch jobs whose placeholders
 * have all finished, and start queued jobs while slots are free, earliest
 * in the input first (as the kernel would run them; dependent jobs, often
 * on the way to others, come before later probes).
 */
static void
shell_progress(struct shell *sh)
{
	struct job	*j;
	size_t		 i;
	bool		 changed;

	do {
		changed = false;
		for (i = 0; sh->waiting > 0 && i < sh->njob; i++) {
			j = &sh->job[i];
			if (j->state == JOB_ALIAS &&
			    sh->job[j->alias].state == JOB_DONE) {
				j->out = xstrdup(sh->job[j->alias].out);
				j->state = JOB_DONE;
				sh->waiting--;
				changed = true;
			} else if (j->state == JOB_WAIT &&
			    shell_ready_locked(sh, j->tmpl)) {
				sh->waiting--;
				shell_launch(sh, i, shell_subst_done(sh,
				    j->tmpl));
				changed = true;
			}
		}
		while (sh->running < sh->jobs && sh->queued > 0) {
			shell_start_next(sh);
			changed = true;
		}
	} while (changed);
}

/* A job has reached EOF or its buffer is full: close, reap, cook. */
static void
shell_finish(struct shell *sh, struct job *j)
{
	size_t len;

	close(j->fd);
	j->fd = -1;
	shell_reap(j->pid);
	j->pid = 0;
	len = shell_cook(j->buf, j->len);
	j->out = xstrndup(j->buf, len);
	free(j->buf);
	j->buf = NULL;
	j->state = JOB_DONE;
	sh->running--;
	if (sh->cache_path != NULL)
		shell_cache_add(sh, j->cmd, strlen(j->cmd), j->out, len,
		    &j->dig, true);
}

/* A running job's pipe is readable: read, and finish it at EOF. */
static void
shell_read(struct shell *sh, struct job *j)
{
	ssize_t r;

	r = read(j->fd, j->buf + j->len, SHELL_BUFSIZE - j->len);
	if (r == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (r > 0)
		j->len += (size_t)r;
	if (r <= 0 || j->len == SHELL_BUFSIZE)
		shell_finish(sh, j);
}

/*
 * The worker thread: the job loop while commands are in flight.  It polls
 * the running jobs' pipes and the wake pipe with the lock released, then
 * reads, finishes, moves the other jobs on and tells the waiters.
 */
static void *
shell_worker(void *arg)
{
	struct shell	*sh = arg;
	struct pollfd	*pfd = NULL;
	struct job	*j;
	size_t		*idx = NULL, cap = 0, i, n;
	char		 buf[64];

	pthread_mutex_lock(&sh->lock);
	while (!sh->stop) {
		shell_progress(sh);
		pthread_cond_broadcast(&sh->cond);
		if (cap < (size_t)sh->running + 1) {
			cap = (size_t)sh->running + 16;
			pfd = xrealloc(pfd, cap * sizeof *pfd);
			idx = xrealloc(idx, cap * sizeof *idx);
		}
		pfd[0].fd = sh->wake[0];
		pfd[0].events = POLLIN;
		n = 1;
		for (i = 0; i < sh->njob && n < (size_t)sh->running + 1; i++) {
			if (sh->job[i].state != JOB_RUNNING)
				continue;
			pfd[n].fd = sh->job[i].fd;
			pfd[n].events = POLLIN;
			idx[n++] = i;
		}
		for (i = 0; i < n; i++)
			pfd[i].revents = 0;
		pthread_mutex_unlock(&sh->lock);
		i = poll(pfd, n, -1) > 0;
		pthread_mutex_lock(&sh->lock);
		if (!i)
			continue;	/* EINTR */
		if (pfd[0].revents != 0) {
			while (read(sh->wake[0], buf, sizeof buf) > 0)
				;
		}
		/* Only this thread finishes jobs: those polled still run. */
		for (i = 1; i < n; i++) {
			j = &sh->job[idx[i]];
			if (pfd[i].revents != 0 && j->state == JOB_RUNNING)
				shell_read(sh, j);
		}
	}
	pthread_mutex_unlock(&sh->lock);
	free(pfd);
	free(idx);
	return NULL;
}

/* Stop the worker once nothing runs (locked; returns locked). */
static void
shell_stop_worker(struct shell *sh)
{
	if (!sh->threaded)
		return;
	sh->stop = true;
	shell_wake(sh);
	pthread_mutex_unlock(&sh->lock);
	pthread_join(sh->thread, NULL);
	pthread_mutex_lock(&sh->lock);
	sh->threaded = false;
	close(sh->wake[0]);
	close(sh->wake[1]);
	sh->wake[0] = sh->wake[1] = -1;
}

/*
 * One round of the job loop: read the pipes of running jobs that have
 * output, waiting up to timeout ms (-1: until one has), finish the jobs at
 * EOF, then move the others on.
 */
static void
shell_step(struct shell *sh, int timeout)
{
	struct pollfd	 fds[64], *pfd = fds;
	size_t		 i, n = 0, *idx, idxs[64];

	if (sh->running > 0) {
		if ((size_t)sh->running > 64) {
			pfd = xcalloc(sh->running, sizeof *pfd);
			idx = xcalloc(sh->running, sizeof *idx);
		} else
			idx = idxs;
		for (i = 0; i < sh->njob && n < (size_t)sh->running; i++) {
			if (sh->job[i].state != JOB_RUNNING)
				continue;
			pfd[n].fd = sh->job[i].fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			idx[n++] = i;
		}
		if (poll(pfd, n, timeout) > 0) {
			for (i = 0; i < n; i++) {
				if (pfd[i].revents != 0)
					shell_read(sh, &sh->job[idx[i]]);
			}
		}
		if (pfd != fds) {
			free(pfd);
			free(idx);
		}
	}
	shell_progress(sh);
}

/* Move background jobs on without blocking. */
void
shell_poll(struct shell *sh)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->threaded)
		shell_step(sh, 0);
	pthread_mutex_unlock(&sh->lock);
}

/* Whether every job so far has finished (moved on first, never
 * waited for): a readiness check for callers that must not block. */
bool
shell_idle(struct shell *sh)
{
	bool	idle;

	pthread_mutex_lock(&sh->lock);
	if (!sh->threaded)
		shell_step(sh, 0);
	idle = sh->running == 0 && sh->queued == 0 && sh->waiting == 0;
	pthread_mutex_unlock(&sh->lock);
	return idle;
}

/* Wait for the jobs to move on: by the worker, else by polling. */
static void
shell_wait_step(struct shell *sh)
{
	if (sh->threaded)
		pthread_cond_wait(&sh->cond, &sh->lock);
	else
		shell_step(sh, -1);
}

/* Wait until job i has finished. */
static void
shell_wait_job(struct shell *sh, size_t i)
{
	if (sh->job[i].state != JOB_DONE) {
		shell_progress(sh);
		shell_promote(sh, i);
		if (sh->job[i].state != JOB_DONE)
			sh->stats.waits++;
	}
	while (sh->job[i].state != JOB_DONE) {
		if (sh->running == 0) {
			shell_progress(sh);
			if (sh->job[i].state == JOB_DONE)
				break;
			if (sh->running == 0) {
				/* Cannot happen: placeholders name only
				 * earlier jobs, so something must run. */
				sh->job[i].error = xasprintf("$(shell) "
				    "future %zu cannot finish", i);
				sh->job[i].out = xstrdup("");
				sh->job[i].state = JOB_DONE;
				break;
			}
		}
		shell_wait_step(sh);
	}
}

/* The caller's copy of job i's answer: output or placeholder. */
static char *
shell_answer(struct shell *sh, size_t i)
{
	if (sh->job[i].state == JOB_DONE)
		return xstrdup(sh->job[i].out);
	return xasprintf("%c%zu%c", PP_FUTURE_START, i, PP_FUTURE_END);
}

/* Run a command (locked). */
static char *
shell_run_locked(struct shell *sh, const char *cmd, char **cause)
{
	struct job	*j;
	size_t		 i;

	if (sh->jobs > 1 && strchr(cmd, PP_FUTURE_START) != NULL &&
	    !shell_ready_locked(sh, cmd)) {
		/* A dependent future: substituted and started later. */
		if ((i = shell_job_find(sh, cmd)) != SIZE_MAX) {
			sh->stats.dedup++;
			return shell_answer(sh, i);
		}
		i = shell_job_add(sh);
		j = &sh->job[i];
		j->tmpl = xstrdup(cmd);
		sh->waiting++;
		shell_key_add(sh, j->tmpl, i);
		return shell_answer(sh, i);
	}
	if (strchr(cmd, PP_FUTURE_START) != NULL)
		cmd = shell_subst_done(sh, cmd);
	else
		cmd = xstrdup(cmd);
	if ((i = shell_job_find(sh, cmd)) != SIZE_MAX) {
		free((char *)cmd);
		sh->stats.dedup++;
		if (sh->jobs <= 1)
			shell_wait_job(sh, i);
		return shell_answer(sh, i);
	}
	i = shell_job_add(sh);
	shell_launch(sh, i, (char *)cmd);
	j = &sh->job[i];
	if (j->state == JOB_RUNNING && sh->jobs <= 1)
		shell_wait_job(sh, i);
	if (j->error != NULL) {
		*cause = j->error;
		j->error = NULL;
		return NULL;
	}
	return shell_answer(sh, i);
}

/* Run a command (see shell.h). */
char *
shell_run(struct shell *sh, const char *cmd, char **cause)
{
	char *res;

	pthread_mutex_lock(&sh->lock);
	res = shell_run_locked(sh, cmd, cause);
	pthread_mutex_unlock(&sh->lock);
	return res;
}

/* Have all the jobs whose placeholders s holds finished? */
bool
shell_ready(struct shell *sh, const char *s)
{
	bool ready;

	if (strchr(s, PP_FUTURE_START) == NULL)
		return true;
	pthread_mutex_lock(&sh->lock);
	ready = shell_ready_locked(sh, s);
	pthread_mutex_unlock(&sh->lock);
	return ready;
}

/* The output of a future (locked). */
static const char *
shell_result_locked(struct shell *sh, unsigned int id, char **cause)
{
	struct job *j;

	if (id >= sh->njob) {
		*cause = xasprintf("unknown $(shell) future %u", id);
		return NULL;
	}
	shell_wait_job(sh, id);
	j = &sh->job[id];
	if (j->error != NULL) {
		*cause = j->error;
		j->error = NULL;
		return NULL;
	}
	return j->out;
}

/* The output of a future; job outputs never move once done. */
const char *
shell_result(struct shell *sh, unsigned int id, char **cause)
{
	const char *out;

	pthread_mutex_lock(&sh->lock);
	out = shell_result_locked(sh, id, cause);
	pthread_mutex_unlock(&sh->lock);
	return out;
}

/* Replace every placeholder in s by its output, waiting as needed. */
char *
shell_resolve(struct shell *sh, const char *s, char **cause)
{
	struct strbuf	 sb;
	const char	*p = s, *q, *out;
	size_t		 id, n;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	pthread_mutex_lock(&sh->lock);
	while ((q = strchr(p, PP_FUTURE_START)) != NULL) {
		strbuf_add(&sb, p, q - p);
		if ((n = shell_placeholder(q, &id)) == 0) {
			/* Not a placeholder after all: keep the byte. */
			strbuf_addc(&sb, *q);
			p = q + 1;
			continue;
		}
		if (id > UINT_MAX)
			id = UINT_MAX;
		out = shell_result_locked(sh, (unsigned)id, cause);
		if (out == NULL) {
			pthread_mutex_unlock(&sh->lock);
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_adds(&sb, out);
		p = q + n;
	}
	pthread_mutex_unlock(&sh->lock);
	strbuf_adds(&sb, p);
	return strbuf_detach(&sb);
}

/* Copy job i's captured stderr to ours, unless dropped, and close it. */
static void
shell_emit_stderr(struct shell *sh, size_t i)
{
	struct job	*j = &sh->job[i];
	char		 buf[4096];
	ssize_t		 n, w, off;
	off_t		 pos = 0;

	if (j->errfd == -1)
		return;
	while (i < sh->err_drop &&
	    (n = pread(j->errfd, buf, sizeof buf, pos)) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		pos += n;
		for (off = 0; off < n; off += w) {
			w = write(STDERR_FILENO, buf + off, (size_t)(n - off));
			if (w == -1 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				break;
		}
	}
	close(j->errfd);
	j->errfd = -1;
}

/* Replay stderr (locked); see shell_flush_stderr. */
static void
shell_flush_stderr_locked(struct shell *sh, size_t limit, bool wait)
{
	while (sh->err_next < sh->njob && sh->err_next < limit) {
		if (sh->job[sh->err_next].state != JOB_DONE) {
			if (!wait)
				break;
			shell_wait_job(sh, sh->err_next);
		}
		shell_emit_stderr(sh, sh->err_next++);
	}
}

/* Copy the captured stderr of jobs before limit to ours, in order, as far
 * as they have finished (or waiting for them). */
void
shell_flush_stderr(struct shell *sh, size_t limit, bool wait)
{
	pthread_mutex_lock(&sh->lock);
	shell_flush_stderr_locked(sh, limit, wait);
	pthread_mutex_unlock(&sh->lock);
}

/* Jobs from first on never show their stderr. */
void
shell_drop_stderr(struct shell *sh, size_t first)
{
	pthread_mutex_lock(&sh->lock);
	if (first < sh->err_drop)
		sh->err_drop = first;
	pthread_mutex_unlock(&sh->lock);
}

/* The number of jobs so far: the id the next one will have. */
size_t
shell_mark(struct shell *sh)
{
	size_t n;

	pthread_mutex_lock(&sh->lock);
	n = sh->njob;
	pthread_mutex_unlock(&sh->lock);
	return n;
}

/* Wait for every background command and save the cache. */
int
shell_wait_all(struct shell *sh, char **cause)
{
	size_t	i;
	int	ret;

	pthread_mutex_lock(&sh->lock);
	for (;;) {
		shell_progress(sh);
		if (sh->running == 0)
			break;
		shell_wait_step(sh);
	}
	shell_stop_worker(sh);
	for (i = 0; i < sh->njob; i++) {
		if (sh->job[i].state == JOB_DONE)
			continue;
		/* Cannot happen (see shell_wait_job). */
		if (sh->job[i].state == JOB_QUEUED ||
		    sh->job[i].state == JOB_RUNNING)
			continue;
		sh->job[i].out = xstrdup("");
		sh->job[i].state = JOB_DONE;
	}
	sh->waiting = 0;
	shell_flush_stderr_locked(sh, SIZE_MAX, true);
	ret = shell_cache_save(sh, cause);
	for (i = 0; i < sh->njob; i++) {
		if (sh->job[i].error == NULL)
			continue;
		if (ret != 0)
			free(*cause);
		*cause = sh->job[i].error;
		sh->job[i].error = NULL;
		ret = -1;
		break;
	}
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* Save the cache now if anything was added. */
int
shell_save(struct shell *sh, char **cause)
{
	int ret;

	pthread_mutex_lock(&sh->lock);
	ret = shell_cache_save(sh, cause);
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* Statistics. */
void
shell_get_stats(const struct shell *sh, struct shell_stats *st)
{
	pthread_mutex_t *lock = (pthread_mutex_t *)&sh->lock;

	pthread_mutex_lock(lock);
	*st = sh->stats;
	pthread_mutex_unlock(lock);
}

/* Free a shell runner. */
void
shell_free(struct shell *sh)
{
	char		*cause = NULL;
	size_t		 i;

	if (sh == NULL)
		return;
	if (shell_wait_all(sh, &cause) != 0)
		free(cause);
	for (i = 0; i < sh->njob; i++) {
		free(sh->job[i].cmd);
		free(sh->job[i].tmpl);
		free(sh->job[i].out);
		free(sh->job[i].buf);
		free(sh->job[i].error);
		if (sh->job[i].errfd != -1)
			close(sh->job[i].errfd);
	}
	free(sh->job);
	strmap_free(&sh->jobkeys);
	shell_cache_free(sh);
	shell_digest_free(sh);
	free(sh->cache_path);
	pthread_cond_destroy(&sh->cond);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}
