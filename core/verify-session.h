/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-session.h - what `kctui verify` and the browser's verify (v in
 * the trim review) both set up from a session: the bundle's files (the
 * untrimmed config, the workload, the vm), the machine and the workload
 * loaded, the build directory kept in the caches' directory, the keep
 * decisions of the options put back, and why a run is not verified.
 * Nothing here prints: errors come back through char **cause, in the
 * words the command line prints after "kctui: ".
 */
#ifndef KC_VERIFY_SESSION_H
#define KC_VERIFY_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "verify/verify.h"

struct session;
struct decisions;
struct kbuild;

/* The bundle's files, and the machine and workload they describe. */
struct verify_inputs {
	char		*base;		/* the untrimmed config */
	char		*workload_path;
	char		*vm_path;
	struct vm_spec	 spec;
	struct workload	 wl;
	/* A bundle without a vm: the twin machine made from its evidence
	 * (vm_path, and workload_path when the bundle has none and none
	 * was given, are the files written for it); what verify needs of
	 * it (struct verify's twin, nontwin, loose). */
	char		*twin;
	struct verify_nontwin *nontwin;
	size_t		 nnontwin;
	struct vm_driver *loose;
	size_t		 nloose;
};

/*
 * Find the bundle's files (base and workload may be given instead: paths
 * as typed, relative to where kctui started) and load the vm and the
 * workload; -1 with *cause ("BUNDLE: the bundle has no workload file
 * (...)", "PATH:LINE: ..."). The session has one bundle. vi is to be
 * freed either way.
 */
int	 verify_inputs_load(struct session *, struct verify_inputs *,
	     const char *base, const char *workload, char **cause);
void	 verify_inputs_free(struct verify_inputs *);
/* The steps of the profiles the session's decisions keep (`kctui need`)
 * appended to wl where it has none of their names, each said; how many. */
size_t	 verify_profile_steps(struct session *, struct workload *);
/* Point v at the inputs: base, spec, workload, and the twin's. */
void	 verify_inputs_apply(const struct verify_inputs *, struct verify *);

/*
 * Everything a verify run takes from a session, set up the same way for
 * `kctui verify` and the browser's v: the inputs (with the twin when the
 * bundle has no vm), the tree, the work directory (made), the jobs, and
 * the Kbuild index informed fill-back uses. The front ends add only the
 * trimmed config, their options, progress and cancel.
 */
struct verify_setup {
	struct verify_inputs vi;
	char		*userspace_why;	/* v->userspace_why, owned */
	char		*tree;		/* the tree's real path */
	char		*work;		/* the O= build directory, made */
	struct kbuild	*kb;		/* the index, or NULL (bisection) */
};

/* What the front ends may give instead of the bundle's own files. */
struct verify_prepare_opts {
	const char	*base;		/* --base FILE */
	const char	*workload;	/* --workload SCRIPT */
	const char	*work;		/* --work-dir DIR */
	int		 jobs;		/* -j (0: the session's, else CPUs) */
	/* The distribution userspace step: by itself (0: when the bundle
	 * shows its machine ran systemd), or asked on or off. */
	enum { VERIFY_US_AUTO, VERIFY_US_ON, VERIFY_US_OFF } userspace;
};

/*
 * Load the inputs, make the work directory and point v at them (tree,
 * base, spec, workload, twin, nontwin, loose, bundle, work, jobs); -1
 * with *cause (the command line's words, without "kctui: "). vs is to be
 * freed with verify_setup_free either way, after v's last use.
 */
int	 verify_prepare(struct session *, const struct verify_prepare_opts *,
	     struct verify_setup *, struct verify *, char **cause);
/*
 * The Kbuild index for informed fill-back (cached beside the evidence
 * commands' own), into vs and v; slow when not cached, so the browser
 * calls it on the job's thread. -1 with *cause when there is none: the
 * run goes on by bisection alone.
 */
int	 verify_prepare_index(struct session *, struct verify_setup *,
	     struct verify *, char **cause);
void	 verify_setup_free(struct verify_setup *);

/* The O= build directory and boots, kept between runs: work as given, or
 * one per tree in the caches' directory (malloc'd); NULL with *cause when
 * there is no caches' directory. */
char	*verify_work_dir(struct session *, const char *work, char **cause);

/* The reason of the keep decision of an option put back (malloc'd). */
char	*verify_keep_reason(const struct verify_trim *);
/* Record each option put back as a keep decision in d: how many. */
size_t	 verify_keep_decisions(struct decisions *, const struct verify *);

/* Why a finished run is not verified, one sentence without the "NOT
 * verified: " (malloc'd); timeout is the per-boot one asked for (0: the
 * default), no_fill_back as given. */
char	*verify_why(const struct verify *, double timeout, bool no_fill_back);
#endif
