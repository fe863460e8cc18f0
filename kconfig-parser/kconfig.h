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
#include <stdint.h>

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
/* The config an arch Makefile's generated defconfig (a base merged with
 * fragments, e.g. powerpc's ppc64le_defconfig) writes before its
 * olddefconfig, in *out: 0, 1 when target is no such rule, -1 (*cause). */
int		 kconfig_generated_defconfig(const char *srctree,
		     const char *srcarch, const char *target, char **out,
		     char **cause);
/* The same into a malloc'd string. */
char		*kconfig_write_string(struct kconfig *);

/* Whether the loaded configuration differs from what would be written
 * (conf_get_changed()). */
bool		 kconfig_changed(const struct kconfig *);
/* The defconfig the values came from for want of a configuration file
 * (conf's "using defaults found in FILE"), or NULL: a flag, so that
 * callers need not match the message's text. */
const char	*kconfig_defaults_from(const struct kconfig *);
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
/*
 * Introspection: what explain, trim and the TUI read (after kconfig_read()
 * or kconfig_recalc(), so that MODULES is known). Expressions and
 * properties belong to the configuration (freed with it); values are those
 * of the last computation, so call kc_sym_tristate() (or any value getter)
 * first when the configuration has changed.
 */
struct kc_expr;

/* Same order as the engine's own expression types. */
enum kc_expr_op {
	KC_EXPR_NONE, KC_EXPR_OR, KC_EXPR_AND, KC_EXPR_NOT,
	KC_EXPR_EQUAL, KC_EXPR_UNEQUAL, KC_EXPR_LTH, KC_EXPR_LEQ,
	KC_EXPR_GTH, KC_EXPR_GEQ, KC_EXPR_SYMBOL, KC_EXPR_RANGE
};

/* NULL is an absent expression (KC_EXPR_NONE), which evaluates to y. */
enum kc_expr_op	 kc_expr_op(const struct kc_expr *);
/* OR/AND: both operands; NOT: left only. */
const struct kc_expr *kc_expr_left(const struct kc_expr *);
const struct kc_expr *kc_expr_right(const struct kc_expr *);
/* SYMBOL: its symbol; comparisons and RANGE: left and right symbols. */
struct kc_symbol *kc_expr_sym(const struct kc_expr *);
struct kc_symbol *kc_expr_sym2(const struct kc_expr *);
enum kc_tri	 kc_expr_eval(struct kconfig *, const struct kc_expr *);
/* The expression as conf prints it (malloc'd). */
char		*kc_expr_str(const struct kc_expr *);

/* A property of a symbol, in definition order. */
enum kc_prop_kind {
	KC_PROP_UNKNOWN, KC_PROP_PROMPT, KC_PROP_COMMENT, KC_PROP_MENU,
	KC_PROP_DEFAULT, KC_PROP_CHOICE, KC_PROP_SELECT, KC_PROP_IMPLY,
	KC_PROP_RANGE, KC_PROP_SYMBOL
};

struct kc_prop_info {
	enum kc_prop_kind	 kind;
	const char		*text;	/* prompt text, or NULL */
	/* The condition: the property's own "if" ANDed with the enclosing
	 * dependencies (as the engine evaluates it); NULL is y. */
	const struct kc_expr	*cond;
	/* The property's own "if" alone, as written; NULL when it has none
	 * ("select B if C": C). */
	const struct kc_expr	*own_cond;
	/* default: the value; select/imply: the target (a SYMBOL); range:
	 * a RANGE; symbol (one definition): the symbol itself. */
	const struct kc_expr	*expr;
	struct kc_symbol	*target;	/* expr's symbol, when one */
	const char		*file;
	int			 line;
};

/* The i-th property (0...), false past the end. */
bool		 kc_sym_prop(const struct kc_symbol *, int i,
		     struct kc_prop_info *);

bool		 kc_sym_is_const(const struct kc_symbol *);
bool		 kc_sym_is_choice(const struct kc_symbol *);
bool		 kc_sym_is_choice_value(const struct kc_symbol *);
/* A choice value's choice; NULL for others. */
struct kc_symbol *kc_sym_choice(const struct kc_symbol *);
int		 kc_choice_nvalues(const struct kc_symbol *choice);
struct kc_symbol *kc_choice_value(const struct kc_symbol *choice, int i);
/* The value a y choice selects (NULL when none or not y). */
struct kc_symbol *kc_choice_selected(struct kconfig *, struct kc_symbol *);
/* y while a value is chosen (a tristate choice before 6.11 may be m or n) */
enum kc_tri	 kc_choice_mode(struct kconfig *, struct kc_symbol *choice);

/* The user's value (from .config or a set call), if any. */
bool		 kc_sym_has_user_value(const struct kc_symbol *);
enum kc_tri	 kc_sym_user_tristate(const struct kc_symbol *);
const char	*kc_sym_user_string(const struct kc_symbol *);

/* Prompt visibility (n: no prompt shown). */
enum kc_tri	 kc_sym_visible(struct kconfig *, struct kc_symbol *);
/* "depends on" (with enclosing menus and ifs), the OR of every select
 * ("A && cond" terms) and of every imply, with their current values. */
const struct kc_expr *kc_sym_depends(const struct kc_symbol *);
const struct kc_expr *kc_sym_selected_by(const struct kc_symbol *);
const struct kc_expr *kc_sym_implied_by(const struct kc_symbol *);
enum kc_tri	 kc_sym_depends_value(struct kconfig *, struct kc_symbol *);
enum kc_tri	 kc_sym_selected_value(struct kconfig *, struct kc_symbol *);
enum kc_tri	 kc_sym_implied_value(struct kconfig *, struct kc_symbol *);
/* Whether the symbol goes to .config (a line, set or "is not set"). */
bool		 kc_sym_is_written(struct kconfig *, struct kc_symbol *);
/* The help text of its first entry with one, or NULL. */
const char	*kc_sym_help(const struct kc_symbol *);
/* Its first menu entry (definition), or NULL. */
struct kc_menu	*kc_sym_menu(const struct kc_symbol *);

/* Whether the user could set val now (sym_tristate_within_range()). */
bool		 kc_sym_tristate_settable(struct kconfig *, struct kc_symbol *,
		     enum kc_tri val);
/* Set a bool/tristate as a user would (choice values: select it);
 * false when val is out of range. Recomputes lazily. */
bool		 kc_sym_set_tristate(struct kconfig *, struct kc_symbol *,
		     enum kc_tri val);
/* Forget the user value, so the symbol takes its default again. */
void		 kc_sym_unset(struct kconfig *, struct kc_symbol *);
/* Symbol index (for arrays over kconfig_symbol()), -1 for constants. */
int		 kc_sym_index(const struct kc_symbol *);

/* Menu entries. */
enum kc_menu_kind {
	KC_MENU_SYMBOL,		/* config (may have children shown under it) */
	KC_MENU_CHOICE,
	KC_MENU_MENU,		/* menu, and menuconfig (kc_menu_sym() set:
				   a symbol that is also a submenu) */
	KC_MENU_COMMENT,
	KC_MENU_OTHER		/* if blocks without a prompt, the root */
};
enum kc_menu_kind kc_menu_kind(const struct kc_menu *);
struct kc_menu	*kc_menu_parent(const struct kc_menu *);
struct kc_menu	*kc_menu_child(const struct kc_menu *);
struct kc_menu	*kc_menu_next(const struct kc_menu *);
/* Depth-first successor (children first), NULL at the end. */
struct kc_menu	*kc_menu_walk(const struct kc_menu *);
struct kc_symbol *kc_menu_sym(const struct kc_menu *);
/* The prompt, or NULL (an entry without one is never shown). */
const char	*kc_menu_prompt(const struct kc_menu *);
/* The prompt's condition (with enclosing dependencies). */
const struct kc_expr *kc_menu_prompt_cond(const struct kc_menu *);
/* "depends on" of the entry and its "visible if". */
const struct kc_expr *kc_menu_depends(const struct kc_menu *);
const struct kc_expr *kc_menu_visible_if(const struct kc_menu *);
/* menu_is_visible(): shown in a menuconfig. */
bool		 kc_menu_is_visible(struct kconfig *, struct kc_menu *);
const char	*kc_menu_help(const struct kc_menu *);
const char	*kc_menu_file(const struct kc_menu *);
int		 kc_menu_line(const struct kc_menu *);

/*
 * User values, saved and restored: undo, and handing a configuration to
 * another struct kconfig parsed from the same tree (the background
 * worker's copy), where symbols have the same indexes.
 */
struct kc_values;
struct kc_values *kconfig_values_save(const struct kconfig *);
/* Returns -1 when v was saved from a different tree (symbol count). */
int		 kconfig_values_restore(struct kconfig *,
		     const struct kc_values *);
void		 kconfig_values_free(struct kc_values *);
/* Recompute every value now (after set calls). */
void		 kconfig_recalc(struct kconfig *);
/*
 * Incremental invalidation (off by default): a changed user value makes
 * only the symbols computed from it recompute, not all of them. Values are
 * the same either way; only the number of recomputes (and so of conf's
 * per-recompute unmet-dependency warnings) differs, which is why the
 * conf-compatible modes leave it off.
 */
void		 kconfig_set_incremental(struct kconfig *, bool);
bool		 kconfig_incremental(const struct kconfig *);
/*
 * The symbols whose values are computed from the symbol at index
 * (directly: its dependents, what it selects or implies, what has it in
 * a default, range or prompt condition, its choice's values): *n indexes,
 * owned by k.
 */
const int	*kconfig_readers(struct kconfig *, int index, int *n);
/* Build the graph behind kconfig_readers() and incremental invalidation
 * now rather than on first use (for a caller with time to spare, e.g.
 * while another thread loads evidence). */
void		 kconfig_prepare_graph(struct kconfig *);
/*
 * Checkpoints: kconfig_checkpoint() (false if one is already open) starts
 * noting the user values the set, unset and restore calls change;
 * kconfig_rollback() puts them back, recomputing only what reads them, at
 * a cost proportional to the changes; kconfig_checkpoint_end() keeps
 * them. A config read ends a checkpoint.
 */
bool		 kconfig_checkpoint(struct kconfig *);
void		 kconfig_rollback(struct kconfig *);
void		 kconfig_checkpoint_end(struct kconfig *);
/* A number naming the current user values: it changes with any of them,
 * and a rollback gives back the checkpoint's. */
uint64_t	 kconfig_user_generation(const struct kconfig *);
#endif
