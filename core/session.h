/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - what one run of kctui works on, resolved once from the
 * command line: the kernel tree, the configuration file, the top Kconfig,
 * conf's environment, the evidence bundles, the caches, the trim policy
 * and the decisions file. The command line (cli/) fills it; the commands
 * and the browser (tui/) read it and open the configuration and the
 * evidence through it, so that they all see exactly the same state.
 */
#ifndef KC_SESSION_H
#define KC_SESSION_H

#include <stdbool.h>

#include "trim.h"

struct kconfig;
struct evidence;
struct kbuild;
struct srcindex;
struct attrib;

struct session {
	const char	*dir;		/* -C DIR, or NULL: here */
	const char	*config;	/* --config as given, or NULL */
	/* The configuration read and written: $KCONFIG_CONFIG (which
	 * --config sets), else .config in the tree. */
	const char	*config_path;
	/* A --config that does not exist yet is fine (the browser writes
	 * it); for the query commands it is a typo and an error. */
	bool		 config_may_be_new;
	/* The configuration file's text as session_open_config read it,
	 * or NULL (none): what an export's report compares the file it
	 * writes with, whatever was saved over it since. */
	char		*config_text;
	const char	*kconfig;	/* the top Kconfig file */
	char	       **envp;		/* conf's environment */
	char	       **vars;		/* NAME=value arguments */
	int		 nvars;
	char		*cwd;		/* where kctui was started, for
					   relative paths given after -C */
	char	       **bundles;	/* -e BUNDLE (before or after the
					   mode), absolute paths */
	int		 nbundles;
	char		*cache_dir;	/* the per-tree caches' directory, or
					   NULL (--no-cache, no HOME) */
	char		*cache;		/* $(shell) cache file, or NULL */
	bool		 no_cache;
	bool		 silent;	/* -s */
	bool		 verbose;	/* -v */
	int		 jobs;		/* -j */
	enum trim_policy policy;	/* --policy */
	char		*decisions;	/* --decisions resolved, else
					   CONFIG.kctui-decisions beside
					   the configuration file */
	bool		 decisions_given;	/* by --decisions */
};

/* Evidence with everything needed to attribute it. */
struct session_evidence {
	struct evidence	*ev;
	struct kbuild	*kb;
	struct srcindex	*si;
	struct attrib	*a;
	/* Bound devices with no QEMU twin (core/twin): their modules and
	 * why, for trim_input's nontwin; none when a bundle has a vm. */
	char		**nontwin_mods;
	char		**nontwin_why;
	size_t		  nnontwin;
};

void		 session_init(struct session *);
void		 session_free(struct session *);
int		 session_setup(struct session *, char **cause);
char		*session_path(const struct session *, const char *path);
char		*session_beside_config(const struct session *,
		     const char *name);
void		 session_add_bundle(struct session *, const char *path);
void		 session_set_decisions(struct session *, const char *path);

struct kconfig	*session_new_kconfig(struct session *,
		     void (*warn)(void *, const char *),
		     void (*info)(void *, const char *));
int		 session_check_kconfig(struct session *, char **cause);
struct kconfig	*session_open_config(struct session *, char **cause);
int		 session_open_evidence(struct session *,
		     struct session_evidence *, char **msgs);
int		 session_open_both(struct session *, struct kconfig **,
		     struct session_evidence *, double *t_config,
		     double *t_evidence, char **msgs);
void		 session_close_evidence(struct session_evidence *);
/* A per-tree cache file beside the $(shell) cache ("PREFIX-<hash>.cache",
 * e.g. "kbuild"), malloc'd; NULL without a cache. */
char		*session_cache_file(const struct session *, const char *prefix);
#endif
