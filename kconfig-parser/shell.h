/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell.h - $(shell,...) execution for the preprocessor: commands run as
 * "/bin/sh -c CMD" with a given environment, stdin from /dev/null and
 * stderr inherited; output is post-processed like the kernel's do_shell().
 * Results are deduplicated within a run, kept in an on-disk cache between
 * runs, and may run in the background (futures).  Internal to
 * kconfig-parser.
 */
#ifndef KC_SHELL_H
#define KC_SHELL_H

#include <stdbool.h>
#include <stddef.h>

struct shell;

struct shell_stats {
	int	runs;		/* commands actually executed */
	int	cached;		/* answered from the disk cache */
	int	dedup;		/* answered from an identical earlier command */
	int	waits;		/* callers blocked on an unfinished command */
};

/* envp is borrowed and must outlive the shell; cache_path may be NULL. */
struct shell	*shell_create(char *const *envp, const char *cache_path,
		     int jobs);
/* Waits for running commands and saves the cache (errors are ignored). */
void		 shell_free(struct shell *);

/*
 * Run cmd.  Returns the post-processed output (malloc'd) or, when jobs > 1
 * and the answer is not known yet, a future placeholder (malloc'd) that
 * shell_result() turns into the output.  NULL and *cause on failure.
 *
 * With jobs > 1 cmd may hold placeholders of earlier results: if they
 * have not all finished, the answer is a new placeholder at once and the
 * command is substituted, looked up and started by the job loop (any
 * shell_* call that waits or polls) as soon as they have.  A ready command
 * with no free slot is queued, never waited for.
 */
char		*shell_run(struct shell *, const char *cmd, char **cause);
/* The output of future id (borrowed; valid until shell_free), waiting
 * for it.  A command that could not be started gives NULL and *cause the
 * first time it is asked for, then "". */
const char	*shell_result(struct shell *, unsigned int id, char **cause);
/* Have the commands of all the placeholders in s finished?  No waiting. */
bool		 shell_ready(struct shell *, const char *s);
/* s with every placeholder replaced by its output, waiting as needed. */
char		*shell_resolve(struct shell *, const char *s, char **cause);
/* Move background commands on without blocking: read their pipes, reap
 * the finished ones, start dependent and queued ones. */
void		 shell_poll(struct shell *);
/* Every command started so far has finished (no waiting). */
bool		 shell_idle(struct shell *);
/*
 * With jobs > 1 each command's stderr is captured and copied to ours in
 * the order of the calls, so that it comes out as if they ran one after
 * the other.  shell_flush_stderr() copies that of the jobs with ids below
 * limit, as far as they have finished (or waiting for them); jobs from
 * shell_drop_stderr()'s first on are silent (the input stopped before
 * them, at an error).  shell_mark() is the id of the next job.
 */
void		 shell_flush_stderr(struct shell *, size_t limit, bool wait);
void		 shell_drop_stderr(struct shell *, size_t first);
size_t		 shell_mark(struct shell *);
/* Wait for all background commands, copy their stderr, then save the cache
 * if it changed. */
int		 shell_wait_all(struct shell *, char **cause);
/* Save the cache now if anything was added. */
int		 shell_save(struct shell *, char **cause);
void		 shell_get_stats(const struct shell *, struct shell_stats *);

/*
 * One-off helper for env.c: run cmd with envp like make's $(shell ...)
 * (trailing newlines removed, others turned into spaces).  No cache.
 */
char		*shell_capture(const char *cmd, char *const *envp,
		     char **cause);

/* The kernel's do_shell() post-processing of raw output, in place:
 * truncation to 4095 bytes, trailing newlines, newlines to spaces, stop
 * at a NUL.  Returns the new length. */
size_t		 shell_cook(char *buf, size_t len);

#endif
