/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - running a long child process (make, QEMU) and reading what it
 * prints line by line while it runs: a timeout, a cancel flag a worker
 * thread can raise, and the whole process group killed on either, so that
 * a hung guest or an interrupted build never outlives kctui.
 */
#ifndef KC_PROC_H
#define KC_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct proc_opts {
	char *const	*argv;		/* argv[0] is looked up in PATH */
	char *const	*envp;		/* NULL: ours */
	const char	*cwd;		/* NULL: ours */
	/* Seconds before the group gets SIGTERM (then SIGKILL 5 s later);
	 * 0: none. */
	double		 timeout;
	/* Each line of stdout and stderr (merged, in order), without its
	 * "\n" or "\r\n"; a last line without a newline comes too. */
	void		(*line)(void *arg, const char *line, size_t len);
	void		*arg;
	/* Polled a few times a second; non-zero stops the child as a
	 * timeout does. */
	volatile sig_atomic_t *cancel;
	/* Polled as cancel is: the caller's own reason to stop the child,
	 * typically set by line() on something it read (res->stopped). */
	volatile sig_atomic_t *stop;
	/* Called a few times a second (may set *stop); NULL: none. */
	void		(*tick)(void *arg, double seconds);
	/* The child's limits (0: ours): address space and file size in
	 * bytes, CPU seconds; for a compiler given somebody else's source
	 * (an #include of /dev/zero must not take the machine's memory). */
	unsigned long long limit_as, limit_cpu, limit_fsize;
	/* Called in the child before exec (after the limits' and cwd's
	 * turn comes: first); -1 with errno fails the start, as an exec
	 * failure does (lib/sandbox.h). NULL: none. */
	int		(*setup)(void *arg);
	void		*setup_arg;
};

struct proc_result {
	int		 exit_code;	/* exit status, or 128 + signal */
	int		 signal;	/* the signal that ended it, or 0 */
	bool		 timed_out;
	bool		 cancelled;
	bool		 stopped;	/* by opts.stop */
	double		 seconds;	/* wall time */
};

/* Run the child to its end (or timeout/cancel). -1 with *cause when it
 * could not be started (cause names argv[0] and the reason); else 0 and
 * *res filled, whatever the child's exit code. */
int	 proc_run(const struct proc_opts *, struct proc_result *,
	     char **cause);
/* Whether program (no slash: in PATH) can be executed. */
bool	 proc_have(const char *program);
/* The same, with why not in *cause (may be NULL): 0 or -1. */
int	 proc_find(const char *program, char **cause);
#endif
