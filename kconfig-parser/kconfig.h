/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconfig.h - the Kconfig engine: parse a kernel's Kconfig tree, read and
 * write .config files, and evaluate symbols exactly as the kernel's own
 * scripts/kconfig/conf does.
 *
 * All state lives in a struct kconfig; there are no globals, so several
 * configurations can be alive (and used on different threads) at once.
 * Functions that can fail return -1 (or NULL) and set *cause to a
 * malloc'd message ("file:line: text" where a location is known), which
 * the caller frees. Warnings go to the diagnostics callback.
 */
#ifndef KCONFIG_H
#define KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct kconfig;
struct kc_symbol;
struct kc_menu;

enum kc_tri { KC_NO, KC_MOD, KC_YES };

enum kc_type {
	KC_UNKNOWN, KC_BOOL, KC_TRISTATE, KC_INT, KC_HEX, KC_STRING
};

/* How conf_set_all_new_symbols() answers the symbols without a value. */
enum kc_new_mode { KC_NEW_NO, KC_NEW_MOD, KC_NEW_YES, KC_NEW_DEFAULT };

struct kconfig_options {
	/* Environment for $(VAR) and $(shell,...): "NAME=value", NULL
	 * terminated. NULL means no environment at all. */
	char *const	*envp;
	/* $(shell,...) result cache file, or NULL for none. */
	const char	*shell_cache;
	/* Parallel $(shell,...) jobs while parsing (0: one at a time). */
	int		 shell_jobs;
	/* Refuse $(shell,...) (an error): for untrusted input (fuzzing). */
	bool		 no_shell;
	/* Warnings and informational messages (one line, no newline);
	 * NULL prints them on stderr. $(info,...) text goes to info. */
	void		(*warn)(void *arg, const char *text);
	void		(*info)(void *arg, const char *text);
	void		*arg;
};

struct kconfig	*kconfig_new(const struct kconfig_options *);
void		 kconfig_free(struct kconfig *);

/* Parse a top-level Kconfig file (sources are followed, relative to the
 * current directory, then to $srctree, as conf does), then finalize the
 * menu tree and check for recursive dependencies. */
int		 kconfig_parse(struct kconfig *, const char *file, char **cause);
/* The same from memory, for tests and fuzzing. */
int		 kconfig_parse_buffer(struct kconfig *, const char *name,
		     const char *buf, size_t len, char **cause);

/* conf_read(): read a .config (NULL: $KCONFIG_CONFIG or .config, falling
 * back to $KCONFIG_DEFCONFIG_LIST) as the user's values and recompute.
 * Returns 1 when no file could be read, 0 when read, -1 on error. */
int		 kconfig_read(struct kconfig *, const char *path, char **cause);
/* conf_read_simple(): only load the values (KCONFIG_ALLCONFIG seeds). */
int		 kconfig_read_simple(struct kconfig *, const char *path,
		     char **cause);
int		 kconfig_read_buffer(struct kconfig *, const char *name,
		     const char *buf, size_t len, char **cause);

/* Give every symbol without a value one (allnoconfig & co). */
void		 kconfig_set_all_new(struct kconfig *, enum kc_new_mode);

/* Write the configuration as conf does (header, menu comments), to a
 * temporary file renamed over path; the previous file becomes path.old.
 * An unchanged file is left alone. Returns 0, or -1 with *cause. */
int		 kconfig_write(struct kconfig *, const char *path, char **cause);
/* Write the minimal configuration (savedefconfig). */
int		 kconfig_write_defconfig(struct kconfig *, const char *path,
		     char **cause);
/* The same into a malloc'd string. */
char		*kconfig_write_string(struct kconfig *);

/* Whether the loaded configuration differs from what would be written
 * (conf_get_changed()). */
bool		 kconfig_changed(const struct kconfig *);
/* Unmet-dependency warnings seen (for KCONFIG_WERROR). */
int		 kconfig_dep_warnings(const struct kconfig *);

/* Counters for -v and the benchmarks. */
struct kconfig_stats {
	int	nsymbols;
	int	nfiles;
	int	shell_runs;	/* $(shell,...) commands executed */
	int	shell_cached;	/* answered from the disk cache */
	int	shell_dedup;	/* answered from an identical command */
};
void		 kconfig_get_stats(const struct kconfig *,
		     struct kconfig_stats *);

/* Symbols. */
struct kc_symbol *kconfig_find(struct kconfig *, const char *name);
int		  kconfig_nsymbols(const struct kconfig *);
struct kc_symbol *kconfig_symbol(const struct kconfig *, int index);
const char	 *kc_sym_name(const struct kc_symbol *);
enum kc_type	  kc_sym_type(const struct kc_symbol *);
enum kc_tri	  kc_sym_tristate(struct kconfig *, struct kc_symbol *);
const char	 *kc_sym_string(struct kconfig *, struct kc_symbol *);
bool		  kc_sym_set_string(struct kconfig *, struct kc_symbol *,
		      const char *value);

/* Menus. */
struct kc_menu	*kconfig_root(struct kconfig *);
const char	*kconfig_mainmenu(struct kconfig *);

/* Kconfig files read, in order (include/config/auto.conf.cmd). */
int		 kconfig_nfiles(const struct kconfig *);
const char	*kconfig_file(const struct kconfig *, int index);
#endif
