/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - features the user will need although the recording did not
 * see them (Docker, WireGuard, a USB stick once a month...): one YAML file
 * per feature in profiles/, the options it needs each with its reason and
 * the source that says so, and a workload step that proves the feature
 * (docs/profiles.md). A profile is applied through enable's engine and
 * recorded as keep decisions that name it, so every policy keeps it.
 */
#ifndef KC_PROFILE_H
#define KC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kconfig-parser/kconfig.h"

struct decisions;
struct enable_plan;

struct profile_option {
	char		*name;		/* without CONFIG_ */
	enum kc_tri	 value;		/* KC_YES, or KC_MOD: m or y */
	bool		 optional;	/* the feature works without it */
	char		*reason;	/* one line */
	char		*source;	/* where the need is documented */
	size_t		 line;		/* of its entry in the file */
};

struct profile {
	char			*path;		/* the file it was read from */
	char			*name;
	char			*description;
	struct profile_option	*options;
	size_t			 noptions;
	char			*step_name;	/* the workload step, or NULL */
	char			*step_description;
	char			*step_run;	/* its shell text, or NULL */
};

/* Read a profile from a buffer (name: the file name for messages) or a
 * file; NULL with *cause "file:line:column: message" on bad input. */
struct profile	*profile_parse_buffer(const char *name, const char *buf,
		     size_t len, char **cause);
struct profile	*profile_load_file(const char *path, char **cause);
/* A profile by name (found in the profile directories, see
 * profile_dirs()) or by path (with a '/' or ending in .yaml). */
struct profile	*profile_find(const char *spec, char **cause);
/* The directories searched, in order, NULL-terminated (free with
 * strv_free, lib/util.h). */
char		**profile_dirs(void);
/* The names of every profile found there, sorted, first found wins;
 * NULL-terminated. */
char		**profile_names(void);
void		 profile_free(struct profile *);
/* The profile's workload step as a workload file has it (docs/evidence.md,
 * "workload"): a comment, a shell function holding its run text, and
 * "step NAME need_NAME"; NULL when the profile has no run text. */
char		*profile_workload_text(const struct profile *);
/* Whether a workload text has a step called name already. */
bool		 profile_workload_has_step(const char *text, const char *name);

/* profile-detect.c: whether a bundle shows its machine ran systemd (its
 * mounts: cgroup2 at /sys/fs/cgroup, ...): the sign, malloc'd, or NULL. */
char		*profile_bundle_systemd(const char *bundle);

/* What applying one option did. */
enum profile_status {
	PROFILE_ALREADY,	/* the config gives it */
	PROFILE_PLANNED,	/* enable's plan applied */
	PROFILE_CANNOT,		/* no plan: why_not */
	PROFILE_ABSENT,		/* no such option in this tree */
	PROFILE_LOST		/* a later change took it away again */
};

struct profile_result {
	const struct profile		*profile;
	const struct profile_option	*opt;
	struct kc_symbol		*sym;		/* NULL when absent */
	enum kc_tri			 want;		/* what was asked */
	enum kc_tri			 was;		/* its value before */
	bool				 again;		/* planned again: a later
							   change took it away */
	enum profile_status		 status;
	struct enable_plan		*plan;		/* PLANNED */
	char				*why_not;	/* CANNOT, LOST */
};

struct profile_apply {
	struct profile_result	*results;
	size_t			 nresults;
	size_t			 nchanges;	/* steps applied, all plans */
	size_t			 nmissing;	/* required and not given */
};

/* Apply the profiles' options to the configuration, in order, each
 * through enable_plan()/enable_apply(); the values change in k (write
 * them or not). Never NULL. */
struct profile_apply *profile_apply(struct kconfig *,
		     struct profile *const *, size_t n);
void		 profile_apply_free(struct profile_apply *);
/* Record every option given (ALREADY or PLANNED) as a keep decision
 * whose reason names the profile ("need containers: ..."); a keep of
 * another profile gets this one's name added. Returns how many were
 * changed. */
size_t		 profile_record(const struct profile_apply *,
		     struct decisions *);
const char	*profile_status_name(enum profile_status);
#endif
