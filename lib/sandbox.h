/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sandbox.h - a child process that sees nothing of the host but what it is
 * given: for the compiler run on somebody else's C (a bundle's
 * workload.d), whose #include "/etc/shadow" or .incbin "~/.ssh/id_rsa"
 * would otherwise read any file the user can. Linux namespaces (user,
 * mount, network, IPC, UTS): a tmpfs root holding read-only binds of the
 * system directories named, one read-write directory, /tmp and /dev/null;
 * no network. Called in the child between fork and exec (proc_opts.setup).
 */
#ifndef KC_SANDBOX_H
#define KC_SANDBOX_H

struct sandbox {
	/* Host paths visible read-only at the same path (directories,
	 * files, or symbolic links recreated as such); NULL-terminated.
	 * A path that does not exist is left out. */
	const char *const *ro;
	/* One host directory visible read-write at the same path. */
	const char	*rw;
	/* An empty directory of the host's, made by the caller, where the
	 * new root is built (a tmpfs mounted on it, in the child's own
	 * mount namespace only). */
	const char	*root;
};

/* Enter the sandbox (in the child: it changes the process's namespaces
 * and root for good); 0, or -1 with errno. */
int	 sandbox_enter(const struct sandbox *);
/* The system directories a C compiler needs, for sandbox.ro. */
extern const char *const sandbox_cc_paths[];

#endif
