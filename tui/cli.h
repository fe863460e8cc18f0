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
	const char	*kconfig;
	bool		 no_cache;
	bool		 silent;
	bool		 verbose;
	int		 jobs;
	char	       **envp;
	char	       **vars;		/* NAME=value arguments */
	char		*cwd;		/* where kctui was started, for
					   relative paths given after -C */
};

/* path made absolute against the starting directory (malloc'd). */
char	*cli_path(struct cli *, const char *path);

/* kctui evidence -e BUNDLE... [--format text|tsv] [--unmapped] */
int	cmd_evidence(struct cli *, int argc, char **argv);
/* kctui collect -o DIR [--trace-seconds N] [-- COMMAND ARGS...] */
int	cmd_collect(struct cli *, int argc, char **argv);
#endif
