/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - the trimmed configuration and its report (docs/trim.md),
 * written the same way by `kctui export` and the browser's trim review.
 */
#ifndef KC_EXPORT_H
#define KC_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "trim.h"

/* What --builtin did (export_builtin()). */
struct export_builtin {
	size_t	 made_y;	/* modules made y */
	size_t	 nleft;		/* still m: they can only be modules */
	char	*left;		/* some of their names, or NULL (malloc'd) */
	bool	 modules_off;	/* MODULES set to n */
};

struct trim_export {
	struct trim		*t;
	/* The trim's configuration: what accepting the candidates changes,
	 * and the y/m count before, are computed on it. */
	struct kconfig		*k;
	/* The configuration written; NULL: the accepted candidates are
	 * set to n in k, and k is written. */
	struct kconfig		*result;
	const size_t		*accepted;	/* candidate indexes */
	size_t			 naccepted;
	const char		*out;		/* the trimmed config */
	const char		*report;	/* its report, or NULL */
	const char		*config_in;	/* for the report */
	/* With config_text_set, the input file's text as read (NULL:
	 * there was none); else config_in is read when the report is made
	 * (nothing wrote it since). */
	const char		*config_text;
	bool			 config_text_set;
	/* The input as the engine read it, written out, or NULL: k, before
	 * the accepted candidates are applied to it. */
	const char		*config_base;
	/* Why of a change in the file written that neither the trim nor
	 * the tree's update of the input explains, or NULL. */
	const char		*other_why;
	enum trim_policy	 policy;
	const char *const	*bundles;
	int			 nbundles;
	const char		*decisions_file;
	/* Every kept module built in, and MODULES=n when none is left
	 * (export_builtin()). */
	bool			 builtin;

	/* What was done. */
	size_t			 removed;	/* y/m options set to n */
	size_t			 ym_before, ym_after;
	/* Candidates that could not be set to n (malloc'd), or NULL. */
	char			*warning;
	/* With builtin: what it did (left is the caller's to free). */
	struct export_builtin	 bi;
};

int		 trim_export(struct trim_export *, char **cause);
/* One rule for outputs, the command line's and the browser's: two of a
 * command's files (labels[i] names names[i]; NULL: not given) that are
 * one file, after symlinks and "./", are refused before anything is
 * written (an export over its input config would replace it). 0, or -1
 * with *cause ("CMD: A (a) and B (b) are the same file; nothing
 * written"). */
int		 export_distinct_files(const char *cmd,
		     const char *const *labels, const char *const *names,
		     size_t n, char **cause);
size_t		 trim_changes_removed(const struct trim_change *, size_t);
/* export-builtin.c: every m option of k made y, then MODULES=n when no
 * m is left; on k's values (the written configuration). */
void		 export_builtin(struct kconfig *, struct export_builtin *);
#endif
