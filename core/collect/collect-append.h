/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-append.h - evidence gathered over weeks: "kctui collect --append
 * BUNDLE" adds what this machine shows now (modules, bound devices,
 * mounts, crypto, file systems; no trace) to a bundle, and a "seen" file
 * keeps, per item, how many snapshots saw it and when first and last
 * (docs/evidence.md). Another bundle, or modprobed-db's list of modules,
 * can be merged the same way.
 */
#ifndef KC_COLLECT_APPEND_H
#define KC_COLLECT_APPEND_H

#include <stdbool.h>
#include <stdint.h>

struct collect_append_options {
	const char	*bundle;	/* created if missing */
	/* What to add: another bundle's directory, modprobed-db's list, or
	 * (both NULL) a snapshot of this machine taken now. */
	const char	*from;
	const char	*modprobed;
	/* What was skipped and why; NULL for none. */
	void		(*note)(void *, const char *);
	void		*arg;
};

struct collect_append_result {
	uint64_t	 runs;		/* snapshots in the bundle now */
	uint64_t	 modules;	/* modules in the bundle now */
	uint64_t	 new_modules;	/* of which this addition brought */
};

/* 0, or -1 with *cause (the bundle can't be read or written, the
 * snapshot failed, a bad modprobed-db line: file:line). */
int	collect_append(const struct collect_append_options *,
	    struct collect_append_result *, char **cause);
#endif
