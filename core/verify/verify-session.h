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

#include "verify.h"

struct session;
struct decisions;

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
/* Point v at the inputs: base, spec, workload, and the twin's. */
void	 verify_inputs_apply(const struct verify_inputs *, struct verify *);

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
