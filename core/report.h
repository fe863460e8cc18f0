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

struct report_input {
	struct trim			*t;
	struct kconfig			*k;
	const size_t			*accepted;	/* candidate indexes */
	size_t				 naccepted;
	const struct trim_change	*changes;	/* trim_consequences() */
	size_t				 nchanges;
	const char			*config_in, *config_out;
	const char			*policy;
	const char *const		*bundles;
	int				 nbundles;
	size_t				 ym_before, ym_after;
	const char			*decisions_file;
	/* Warnings about the evidence, one a line (evidence_trace_warnings:
	 * a trace that lost events), or NULL. */
	const char			*warnings;
	/* What a trim on the loaded modules alone would also remove
	 * (trim_beyond_modules()), with why each stays; has_beyond false
	 * when not computed (not every candidate accepted). */
	bool				 has_beyond;
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
/* Write data to path through a temporary file and a rename. */
int	report_write_file(const char *path, const char *data, size_t len,
	    char **cause);
/* Count the y/m bool/tristate symbols of a configuration. */
size_t	report_count_ym(struct kconfig *);
#endif
