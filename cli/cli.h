/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the command-line front end's files share.
 */
#ifndef KC_CLI_H
#define KC_CLI_H

#include <stdbool.h>

struct cli {
	const char	*dir;
	const char	*config;
	/* A --config that does not exist yet is fine (the browser writes
	 * it); for the query commands it is a typo and an error. */
	bool		 config_may_be_new;
	const char	*kconfig;
	bool		 no_cache;
	bool		 silent;
	bool		 verbose;
	int		 jobs;
	char	       **envp;
	char	       **vars;		/* NAME=value arguments */
	char		*cwd;		/* where kctui was started, for
					   relative paths given after -C */
	char	       **bundles;	/* -e BUNDLE (before or after the
					   mode), absolute paths */
	int		 nbundles;
	char		*cache;		/* $(shell) cache path, or NULL */
	/* The interactive browser's trim suggestions: --policy and
	 * --decisions (NULL: modules, .kctui-decisions in the tree). */
	const char	*policy;
	const char	*decisions;
};

struct kconfig;
struct evidence;
struct kbuild;
struct srcindex;
struct attrib;

/* Evidence with everything needed to attribute it. */
struct cli_evidence {
	struct evidence	*ev;
	struct kbuild	*kb;
	struct srcindex	*si;
	struct attrib	*a;
};

/* A configuration context with kctui's options (environment, $(shell)
 * cache, jobs); warn and info get c as their argument. */
struct kconfig *cli_new_kconfig(struct cli *, void (*warn)(void *, const char *),
	    void (*info)(void *, const char *));
/* Add a bundle path (as given) to c->bundles. */
void	 cli_add_bundle(struct cli *, const char *path);
/* Parse the tree's Kconfig and read the user's config as the
 * configuration tools do (new symbols take their defaults; nothing is
 * written). NULL, with the reason printed, on failure. */
struct kconfig *cli_open_config(struct cli *);
/* Load c->bundles, index the tree and attribute. -1 (reason printed)
 * on failure; 0 with everything NULL when no bundle was given. */
int	 cli_open_evidence(struct cli *, struct cli_evidence *);
/* Both at once (the evidence on a second thread); -1 if either fails. */
int	 cli_open_both(struct cli *, struct kconfig **, struct cli_evidence *,
	     double *t_config, double *t_evidence);
void	 cli_close_evidence(struct cli_evidence *);
/* Warnings from evidence readers and the engine: "kctui: text". */
void	 cli_warn_prefixed(void *, const char *text);

/* path made absolute against the starting directory (malloc'd). */
char	*cli_path(struct cli *, const char *path);

/* kctui evidence -e BUNDLE... [--format text|tsv] [--unmapped] */
int	cmd_evidence(struct cli *, int argc, char **argv);
/* kctui collect -o DIR [--trace-seconds N] [-- COMMAND ARGS...] */
int	cmd_collect(struct cli *, int argc, char **argv);
/* kctui explain SYMBOL */
int	cmd_explain(struct cli *, int argc, char **argv);
/* kctui enable SYMBOL[=y|m] [--apply -o FILE] */
int	cmd_enable(struct cli *, int argc, char **argv);
/* kctui suggest -e BUNDLE... [--policy P] [--format text|tsv]
 * [--decisions FILE] */
int	cmd_suggest(struct cli *, int argc, char **argv);
/* kctui export -e BUNDLE... -o FILE [--policy P] [--accept X]...
 * [--report FILE] [--decisions FILE] */
int	cmd_export(struct cli *, int argc, char **argv);
/* kctui decide CONFIG_X keep|trim|forget [REASON...] [--decisions FILE] */
int	cmd_decide(struct cli *, int argc, char **argv);
#endif
