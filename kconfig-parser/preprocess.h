/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preprocess.h - the Kconfig macro language (kconfig-macro-language.rst):
 * variables, built-in and user functions, environment, $(shell,...) with an
 * on-disk cache and asynchronous execution.  Internal to kconfig-parser.
 *
 * The lexer calls pp_expand_token() for a word containing '$' and
 * pp_expand_dollar() for a '$' inside a quoted string, exactly where the
 * kernel's lexer calls expand_one_token()/expand_dollar(); assignments
 * ("NAME = value", ":=", "+=") go to pp_assign().
 *
 * Errors never exit: functions return NULL (or -1) and set *cause to a
 * malloc'd "file:line: message" text; the caller frees it.
 *
 * Futures.  With pp_options.shell_jobs > 1 a $(shell,...) whose output is
 * not needed at once is started in the background and its expansion is a
 * placeholder: the bytes PP_FUTURE_START, a decimal id, PP_FUTURE_END.  The
 * parser keeps placeholders in symbol words and strings until the end of
 * the parse and resolves them then, so compiler probes run in parallel with
 * parsing.  Nothing else waits for a command unless it must have its text:
 *  - $(shell,CMD) with placeholders in CMD is a new placeholder at once; the
 *    command is substituted and started when those have finished;
 *  - error-if, warning-if and info calls with placeholders in their
 *    arguments are queued with their file:line (and every later such call
 *    while the queue is not empty, to keep the order of messages); queued
 *    calls run as soon as their commands have finished, at the latest in
 *    pp_wait_all().  A queued error-if that fires makes the pp call that
 *    runs it return an error with the kernel's "file:line: text".  An
 *    entry point that fails first runs the queue, so that an earlier
 *    error-if is the one reported;
 *  - a variable name computed from a placeholder, and pp_resolve(), wait.
 * Results are the same as with shell_jobs <= 1; only timing differs.
 */
#ifndef KC_PREPROCESS_H
#define KC_PREPROCESS_H

#include <stdbool.h>

#include "env.h"	/* envp_get() for $(NAME) */

#define PP_FUTURE_START	'\001'
#define PP_FUTURE_END	'\002'

enum pp_flavor {
	PP_SIMPLE,	/* := */
	PP_RECURSIVE,	/* =  */
	PP_APPEND,	/* += */
};

enum pp_msg {
	PP_INFO,	/* $(info,...): the kernel prints "text\n" on stdout */
	PP_WARNING,	/* $(warning-if,...): "file:line: text\n" on stderr */
};

struct pp_options {
	/* Environment seen by $(NAME) lookups and by $(shell,...) commands:
	 * NULL-terminated "NAME=value" strings; copied by pp_create. */
	char *const	*envp;
	/* On-disk cache of $(shell,...) results, or NULL for none. */
	const char	*cache_path;
	/* Parallel shell commands; 0 or 1 runs each at once (no futures). */
	int		 shell_jobs;
	/* $(shell,...) is an error: for untrusted input (fuzzing). */
	bool		 no_shell;
	/* Where $(info) and $(warning-if) go; text has no trailing newline
	 * and, for warnings, already starts with "file:line: ". */
	void		(*message)(void *arg, enum pp_msg, const char *text);
	void		*message_arg;
};

struct pp;

struct pp	*pp_create(const struct pp_options *);
void		 pp_free(struct pp *);	/* waits for running commands */

/* Where the lexer is, for $(filename), $(lineno) and error messages. The
 * file name pointer must stay valid while it is current. */
void		 pp_set_location(struct pp *, const char *file, int line);

/* "name = value" and friends; value is the raw text after the operator. */
int		 pp_assign(struct pp *, const char *name, const char *value,
		     enum pp_flavor, char **cause);

/* *str points just after a '$'; expand one reference, advance *str past
 * it. A '$' not followed by '(' expands to "$" (the kernel's behaviour). */
char		*pp_expand_dollar(struct pp *, const char **str, char **cause);

/* Expand from *str up to the end of a token (blank, newline, or any of
 * the characters the kernel's is_end_of_token() stops at), advancing *str. */
char		*pp_expand_token(struct pp *, const char **str, char **cause);

/* Expand a whole string (all references). */
char		*pp_expand_string(struct pp *, const char *in, char **cause);

/* Replace every future placeholder in s by its command's output, waiting
 * as needed; returns a new string. */
char		*pp_resolve(struct pp *, const char *s, char **cause);
bool		 pp_has_future(const char *s);
/* Run the queued checks and wait for every background command (end of
 * parse); -1 and *cause if a queued error-if fired. */
int		 pp_wait_all(struct pp *, char **cause);
/* Run the queued checks now, waiting for their commands; for a caller
 * about to report its own error or warning, which must come after them.
 * -1 and *cause if a queued error-if fired. */
int		 pp_sync(struct pp *, char **cause);
/* Are error-if/warning-if/info calls queued (see above)? */
bool		 pp_checks_pending(const struct pp *);
/* Every $(shell) started so far has finished (a check, not a wait). */
bool		 pp_idle(struct pp *);

/* Environment lookup through the pp's environment (not getenv). */
const char	*pp_getenv(const struct pp *, const char *name);

/* Environment variables the Kconfig files referenced, in first-use order,
 * for include/config/auto.conf.cmd. Returns the count. */
int		 pp_env_used(const struct pp *, const char ***names,
		     const char ***values);

/* Statistics for benchmarks and -v. */
struct pp_stats {
	int	shell_runs;	/* commands actually executed */
	int	shell_cached;	/* answered from the disk cache */
	int	shell_dedup;	/* answered from an identical earlier command */
	int	shell_waits;	/* times a caller blocked on a command */
};
void		 pp_get_stats(const struct pp *, struct pp_stats *);
#endif
