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

#include "trim/trim.h"

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
	/* Where core's messages for the user go (warnings of the engine
	 * while a query reads the configuration, where the values came
	 * from): the front end's; NULL: stderr, a line each. The browser
	 * takes them while curses owns the terminal. */
	void		(*say)(void *arg, const char *text);
	void		*say_arg;
	/* session_twin's: the QEMU whose devices were listed, and its
	 * "-device help" text (NULL: not asked yet, or no such QEMU). */
	char		*twin_qemu;
	char		*twin_devices;
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
/* A message for the user, through s->say (see above). */
void		 session_say(struct session *, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));
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
struct twin;
struct trim_input;
struct decisions;
/*
 * The trim's input from the session's evidence, the decisions and the
 * policy, the same for the command line and the browser: the evidence,
 * its index and attribution, the devices with no twin, where the .ko
 * files are ($KCTUI_MODULES_DIR, else the bundle's release's). in is
 * filled (zeroed first); it points into ce and d.
 */
void		 session_trim_input(const struct session_evidence *,
		     const struct decisions *, enum trim_policy,
		     struct trim_input *in);
/*
 * The twin machine of the evidence (core/twin), made the one way the
 * trim's "not verifiable" marks, kctui verify and kctui twin all use:
 * within this host's RAM and CPUs, with the devices of the QEMU that
 * will boot it (qemu: a name on $PATH or a path; NULL:
 * qemu-system-x86_64), asked once a session. Without that QEMU every
 * device of the table is assumed, and *note (malloc'd, may be NULL)
 * says so. -1 with *cause.
 */
int		 session_twin(struct session *, const struct evidence *,
		     const char *qemu, struct twin *, char **note,
		     char **cause);
/* A per-tree cache file beside the $(shell) cache ("PREFIX-<hash>.cache",
 * e.g. "kbuild"), malloc'd; NULL without a cache. */
char		*session_cache_file(const struct session *, const char *prefix);
#endif
