/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.c - run a child in its own process group, stream its output by
 * lines, stop it on timeout or cancel (see proc.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "proc.h"
#include "util.h"

/* How often the cancel flag and the clock are looked at (ms). */
#define PROC_TICK_MS	200
/* Grace between SIGTERM and SIGKILL (s): QEMU and make exit on TERM. */
#define PROC_KILL_GRACE	5.0

/* Why path cannot be run: NULL when it is an executable regular file
 * (a directory passes access(X_OK), and /etc/passwd is "there" but not a
 * program). */
static const char *
proc_unrunnable(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? "not found" :
		    strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory, not a program";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (access(path, X_OK) != 0)
		return "not executable";
	return NULL;
}

/*
 * Whether program can be run: a name with a '/' as it is, else the first
 * runnable file of that name on $PATH. With cause (may be NULL), why not
 * ("NAME: not found", "PATH: not executable", ...).
 */
int
proc_find(const char *program, char **cause)
{
	const char	*path, *p, *end, *why;
	char		*cand;

	if (strchr(program, '/') != NULL) {
		if ((why = proc_unrunnable(program)) == NULL)
			return 0;
		if (cause != NULL)
			*cause = xasprintf("%s: %s", program, why);
		return -1;
	}
	if ((path = getenv("PATH")) == NULL)
		path = "/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		cand = xasprintf("%.*s/%s", (int)(end - p),
		    end == p ? "." : p, program);
		why = proc_unrunnable(cand);
		free(cand);
		if (why == NULL)
			return 0;
		if (*end == '\0')
			break;
	}
	if (cause != NULL)
		*cause = xasprintf("%s: not found", program);
	return -1;
}

/* Whether program can be run (proc_find without the reason). */
bool
proc_have(const char *program)
{
	return proc_find(program, NULL) == 0;
}

/* Hand the complete lines in sb to the callback, keeping a partial one;
 * all of it when flush. */
static void
proc_lines(const struct proc_opts *o, struct strbuf *sb, bool flush)
{
	size_t	 start = 0, i, len;

	if (sb->s == NULL)	/* nothing read yet (a silent child) */
		return;
	for (i = 0; i < sb->len; i++) {
		if (sb->s[i] != '\n')
			continue;
		len = i - start;
		if (len > 0 && sb->s[start + len - 1] == '\r')
			len--;
		sb->s[start + len] = '\0';
		if (o->line != NULL)
			o->line(o->arg, sb->s + start, len);
		start = i + 1;
	}
	if (flush && start < sb->len) {
		len = sb->len - start;
		if (sb->s[start + len - 1] == '\r')
			len--;
		sb->s[start + len] = '\0';
		if (o->line != NULL)
			o->line(o->arg, sb->s + start, len);
		start = sb->len;
	}
	memmove(sb->s, sb->s + start, sb->len - start);
	sb->len -= start;
	sb->s[sb->len] = '\0';
}

/* Lower one resource limit of the child (0: leave it). */
static int
proc_limit(int resource, unsigned long long value)
{
	struct rlimit	rl;

	if (value == 0)
		return 0;
	rl.rlim_cur = rl.rlim_max = (rlim_t)value;
	return setrlimit(resource, &rl);
}

/* The child: own process group, stdin from /dev/null, stdout and stderr
 * to the pipe, then exec; 127 if that fails (the parent learns why from
 * the error pipe). */
static void
proc_child(const struct proc_opts *o, int out, int errpipe)
{
	int	 fd, e;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		close(fd);
	}
	dup2(out, 1);
	dup2(out, 2);
	if (o->setup != NULL && o->setup(o->setup_arg) != 0)
		goto fail;
	if (o->cwd != NULL && chdir(o->cwd) != 0)
		goto fail;
	if (proc_limit(RLIMIT_AS, o->limit_as) != 0 ||
	    proc_limit(RLIMIT_CPU, o->limit_cpu) != 0 ||
	    proc_limit(RLIMIT_FSIZE, o->limit_fsize) != 0)
		goto fail;
	if (o->envp != NULL)
		execvpe(o->argv[0], o->argv, o->envp);
	else
		execvp(o->argv[0], o->argv);
fail:
	e = errno;
	(void)!write(errpipe, &e, sizeof e);
	_exit(127);
}

/* Run the child to its end (or timeout/cancel); see proc.h. */
int
proc_run(const struct proc_opts *o, struct proc_result *res, char **cause)
{
	struct strbuf	 sb;
	struct pollfd	 pfd;
	double		 t0 = clock_now(), term_at = 0;
	char		 buf[8192];
	ssize_t		 n;
	pid_t		 pid;
	int		 out[2], ep[2], status = 0, e = 0;
	bool		 open_out = true;

	memset(res, 0, sizeof *res);
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(ep, O_CLOEXEC) != 0) {
		*cause = xasprintf("%s: pipe: %s", o->argv[0], strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		*cause = xasprintf("%s: fork: %s", o->argv[0], strerror(errno));
		close(out[0]); close(out[1]); close(ep[0]); close(ep[1]);
		return -1;
	}
	if (pid == 0)
		proc_child(o, out[1], ep[1]);
	setpgid(pid, pid);	/* both sides, whichever runs first */
	close(out[1]);
	close(ep[1]);
	if (read(ep[0], &e, sizeof e) == (ssize_t)sizeof e) {
		close(ep[0]);
		close(out[0]);
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		*cause = xasprintf("%s: %s", o->argv[0], strerror(e));
		return -1;
	}
	close(ep[0]);

	strbuf_init(&sb);
	for (;;) {
		double now = clock_now();

		if (o->tick != NULL && term_at == 0)
			o->tick(o->arg, now - t0);

		if (term_at == 0 && ((o->timeout > 0 && now - t0 > o->timeout) ||
		    (o->cancel != NULL && *o->cancel) ||
		    (o->stop != NULL && *o->stop))) {
			if (o->cancel != NULL && *o->cancel)
				res->cancelled = true;
			else if (o->stop != NULL && *o->stop)
				res->stopped = true;
			else
				res->timed_out = true;
			kill(-pid, SIGTERM);
			term_at = now;
		} else if (term_at != 0 && now - term_at > PROC_KILL_GRACE) {
			kill(-pid, SIGKILL);
			term_at = now + 3600;	/* once */
		}
		if (!open_out) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid)
				break;
			if (w == -1 && errno != EINTR) {
				status = 0;
				break;
			}
			poll(NULL, 0, PROC_TICK_MS);
			continue;
		}
		pfd.fd = out[0];
		pfd.events = POLLIN;
		if (poll(&pfd, 1, PROC_TICK_MS) <= 0)
			continue;
		n = read(out[0], buf, sizeof buf);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			/* Everyone with the pipe is gone (or closed it):
			 * only the exit status is left to wait for. */
			close(out[0]);
			open_out = false;
			continue;
		}
		strbuf_add(&sb, buf, (size_t)n);
		proc_lines(o, &sb, false);
	}
	if (open_out)
		close(out[0]);
	proc_lines(o, &sb, true);
	strbuf_free(&sb);
	/* Stragglers of the group (make's jobs) go with it. */
	if (res->timed_out || res->cancelled || res->stopped)
		kill(-pid, SIGKILL);
	if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		res->exit_code = 128 + res->signal;
	} else
		res->exit_code = WEXITSTATUS(status);
	res->seconds = clock_now() - t0;
	return 0;
}
