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

struct shell;

struct shell_stats {
	int	runs;		/* commands actually executed */
	int	cached;		/* answered from the disk cache */
	int	dedup;		/* answered from an identical earlier command */
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
 */
char		*shell_run(struct shell *, const char *cmd, char **cause);
/* The output of future id (borrowed; valid until shell_free). */
const char	*shell_result(struct shell *, unsigned int id, char **cause);
/* Wait for all background commands, then save the cache if it changed. */
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
