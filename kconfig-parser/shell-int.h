/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell-int.h - what the files of the $(shell,...) runner share: the
 * runner itself and the digest that keys its disk cache.
 *
 *	shell.c		running commands: jobs, futures, the worker thread
 *	shell-digest.c	the identity of a command's inputs (a digest)
 *	shell-cache.c	the results cache on disk: load, lookup, add, save
 *
 * Private to those files; the rest of kconfig-parser uses shell.h.
 */
#ifndef KC_SHELL_INT_H
#define KC_SHELL_INT_H

#include <sys/types.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shell.h"
#include "../lib/strmap.h"
#include "../lib/util.h"

/* A streaming 128-bit hash (two independent 64-bit lanes). */
struct digest {
	uint64_t	a;
	uint64_t	b;
};

/* One cache record (shell-cache.c). */
struct centry {
	const char	*cmd;
	size_t		 cmdlen;
	const char	*out;
	size_t		 outlen;
	size_t		 next;		/* same cmd: entry index + 1, or 0 */
	struct digest	 dig;
	bool		 owned;		/* cmd/out malloc'd (not in file) */
	bool		 fresh;		/* added in this run */
	bool		 superseded;	/* replaced by a fresh entry */
};

/* A runner: its jobs (shell.c), cache (shell-cache.c) and what its
 * digests are made of (shell-digest.c). */
struct shell {
	char *const	*envp;
	char		*cache_path;
	int		 jobs;

	struct job	*job;
	size_t		 njob;
	size_t		 jobcap;
	struct strmap	 jobkeys;	/* command or template (the job's own
					   string) -> job index + 1 */
	int		 running;	/* JOB_RUNNING */
	size_t		 waiting;	/* JOB_WAIT and JOB_ALIAS */
	size_t		 queued;	/* JOB_QUEUED */
	size_t		 qlow;		/* no JOB_QUEUED job below this */
	size_t		 err_next;	/* next job whose stderr is due */
	size_t		 err_drop;	/* jobs from here on stay silent */

	struct centry	*ent;
	size_t		 nent;
	size_t		 entcap;
	struct strmap	 entmap;	/* cmd -> its latest entry index + 1,
					   the others chained through next */
	char		*filebuf;	/* the loaded cache file's payload */
	bool		 dirty;

	struct digest	 base;		/* cwd and environment */
	struct strmap	 words;		/* command word (arena) -> its
					   identity (owned string) */
	const char	*path;		/* PATH from envp */
	struct pathdir	*dirs;		/* PATH, split and listed lazily */
	size_t		 ndirs;
	bool		 dirs_ready;
	struct arena	 arena;		/* directory entry names, words */

	struct shell_stats stats;

	/* With jobs > 1 the job loop runs in a worker thread while commands
	 * are in flight, so that jobs are reaped and started however long
	 * the caller goes without calling us.  lock guards everything above
	 * (the public functions take it); cond tells waiters that jobs have
	 * moved on; a byte on wake[1] that the running set has changed. */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thread;
	bool		 threaded;
	bool		 stop;
	int		 wake[2];
};

/* shell-digest.c: hashing, and the digest of a command's inputs. */
void		 shell_base_digest(struct shell *);
void		 shell_digest(struct shell *, const char *, struct digest *);
void		 shell_digest_free(struct shell *);

/* shell-cache.c: the disk cache (with the lock held). */
struct centry	*shell_cache_find(struct shell *, const char *, size_t,
		     const struct digest *);
void		 shell_cache_add(struct shell *, const char *, size_t,
		     const char *, size_t, const struct digest *, bool);
void		 shell_cache_load(struct shell *);
int		 shell_cache_save(struct shell *, char **);
void		 shell_cache_free(struct shell *);

#endif
