/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the export's report: every option removed, its subsystem,
 * its reason and what it dragged along, as markdown, or as YAML when the
 * file name ends in .yaml (docs/trim.md).
 */
#ifndef KC_REPORT_H
#define KC_REPORT_H

#include <stdbool.h>
#include <stddef.h>

struct kconfig;
struct kc_symbol;
struct trim;
struct trim_change;

/* One option whose line differs between the input and the file written
 * (report_diff_compute): its values as written ("n" for "is not set"),
 * NULL where a file has no line for it (only for options that are not
 * bool or tristate: for those no line is n). */
struct report_diff {
	char	*name;		/* without CONFIG_ */
	char	*was;		/* in the input */
	char	*base;		/* the input as the engine read it */
	char	*now;		/* in the file written */
};

struct report_input {
	struct trim			*t;
	struct kconfig			*k;	/* the configuration written */
	const size_t			*accepted;	/* candidate indexes */
	size_t				 naccepted;
	const struct trim_change	*changes;	/* trim_consequences() */
	size_t				 nchanges;
	const char			*config_in, *config_out;
	/* The report is the difference between these two files' texts
	 * (every option whose line differs, nothing else): the input as
	 * read (NULL: there was none, base stands for it), and the file
	 * written. base is the input as the engine read it (new options
	 * with their defaults, values the tree computes), before any
	 * change: what differs from the input there is the tree's update
	 * (as olddefconfig), not a change of the user's or the trim's. */
	const char			*text_in, *text_base, *text_out;
	/* Why of a change neither the trim nor the tree's update explains
	 * (the browser: a value set in its menus), or NULL. */
	const char			*other_why;
	const char			*policy;
	const char *const		*bundles;
	int				 nbundles;
	const char			*decisions_file;
	/* Warnings about the evidence, one a line (evidence_trace_warnings:
	 * a trace that lost events), or NULL. */
	const char			*warnings;
	/* What a trim on the loaded modules alone would also remove
	 * (trim_beyond_modules()), with why each stays; has_beyond false
	 * when not computed (not every candidate accepted). */
	bool				 has_beyond;
	/* export --builtin: modules made y, those left m (some names),
	 * MODULES set to n (export_builtin()). */
	bool				 builtin, builtin_modules_off;
	size_t				 builtin_made_y, builtin_nleft;
	const char			*builtin_left;
	struct kc_symbol *const		*beyond;
	char *const			*beyond_why;
	size_t				 nbeyond;
};

/* Write the report to path (atomically); YAML when it ends in .yaml or .yml. */
int	report_write(const char *path, const struct report_input *,
	    char **cause);
/* The report's text for path, as report_write would write it (malloc'd,
 * its length in *len); NULL with *cause on failure. */
char	*report_render(const char *path, const struct report_input *,
	    size_t *len, char **cause);
struct report_diff *report_diff_compute(const char *in, const char *base,
	    const char *out, struct kconfig *, size_t *n);
void	report_diff_free(struct report_diff *, size_t n);
size_t	report_diff_count_ym(const char *text);
/* Count the y/m bool/tristate symbols of a configuration. */
size_t	report_count_ym(struct kconfig *);
#endif
