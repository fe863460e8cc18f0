/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - the symbol/menu/expression graph of one configuration.
 *
 * Every object here is allocated from the arena of its struct kconfig and
 * freed with it; names are interned there too. Nothing is global, so two
 * struct kconfig (the UI's and the worker's copy) never share state.
 *
 * Symbol validity uses a generation counter instead of the kernel's
 * SYMBOL_VALID bit: a symbol's value is current when sym->valid_gen equals
 * k->gen, so invalidating every symbol is one increment, and a single
 * symbol is invalidated by zeroing its own counter.
 */
#ifndef KC_INTERNAL_H
#define KC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kconfig.h"
#include "version.h"
#include "../lib/util.h"

struct pp;
struct kc_prop;

enum kc_expr_type {
	E_NONE, E_OR, E_AND, E_NOT,
	E_EQUAL, E_UNEQUAL, E_LTH, E_LEQ, E_GTH, E_GEQ,
	E_SYMBOL, E_RANGE
};

struct kc_expr {
	enum kc_expr_type	 type;
	union {
		struct kc_expr	*expr;
		struct kc_symbol *sym;
	} left, right;
};

/* A dependency expression and its last computed value. */
struct kc_depval {
	struct kc_expr	*expr;
	enum kc_tri	 tri;
};

enum kc_prop_type {
	P_UNKNOWN, P_PROMPT, P_COMMENT, P_MENU, P_DEFAULT, P_CHOICE,
	P_SELECT, P_IMPLY, P_RANGE, P_SYMBOL
};

struct kc_prop {
	struct kc_prop	 *next;		/* in the symbol's list */
	enum kc_prop_type type;
	const char	 *text;		/* prompt text */
	struct kc_depval  visible;	/* condition, then full visibility */
	struct kc_expr	 *expr;		/* default value, select target... */
	struct kc_expr	 *own_if;	/* its own "if" as written, or NULL */
	struct kc_menu	 *menu;		/* the menu entry defining it */
	const char	 *file;
	int		  line;
};

#define SYM_CONST	0x0001
#define SYM_CHECK	0x0008	/* on the recursion-check stack */
#define SYM_CHOICE	0x0010	/* a choice block */
#define SYM_CHOICEVAL	0x0020	/* a value of a choice */
#define SYM_OPTIONAL	0x0100
#define SYM_WRITE	0x0200	/* goes to .config */
#define SYM_WRITTEN	0x0800	/* already written this pass */
#define SYM_NO_WRITE	0x1000
#define SYM_CHECKED	0x2000
#define SYM_WARNED	0x8000	/* property checks done */
#define SYM_DEF_USER	0x10000	/* user value (from .config or a mode) */
#define SYM_NEED_SET_CHOICE 0x100000
#define SYM_PENDING	0x200000	/* name waits for a $(shell) result */
#define SYM_TRANS	0x400000	/* "transitional" (6.18): read, never
					 * written, always visible */

struct kc_symbol {
	const char	 *name;		/* interned; NULL for unnamed choice */
	enum kc_type	  type;
	int		  flags;
	uint32_t	  valid_gen;	/* == k->gen: curr is current */
	uint32_t	  order;	/* creation order */

	/* Current value: tri for bool/tristate/choice, str otherwise. For a
	 * choice, choice_sel is the selected value. */
	enum kc_tri	  curr_tri;
	const char	 *curr_str;
	struct kc_symbol *choice_sel;

	/* The user value (S_DEF_USER). */
	enum kc_tri	  user_tri;
	const char	 *user_str;
	struct kc_symbol *user_sel;	/* choice: the chosen value */

	enum kc_tri	  visible;
	struct kc_prop	 *prop;
	struct kc_depval  dir_dep;
	struct kc_depval  rev_dep;
	struct kc_depval  implied;

	/* Choices: their values in order; values: their choice. */
	struct kc_symbol **values;
	int		   nvalues;
	struct kc_symbol  *choice;
	/* 6.11 choices: a value's priority, higher first (the last value
	 * read from a file or chosen); 0 keeps the order of the Kconfig. */
	uint64_t	   prio;

	struct kc_symbol *hnext;	/* hash chain */
	struct kc_symbol *forward;	/* pending: the real symbol */
	struct kc_menu	 *menu;		/* first menu entry, if any */
};

#define MENU_ROOT	0x01

struct kc_menu {
	struct kc_menu	 *next;
	struct kc_menu	 *parent;
	struct kc_menu	 *list;
	struct kc_symbol *sym;
	struct kc_prop	 *prompt;
	struct kc_expr	 *visibility;	/* "visible if" */
	struct kc_expr	 *dep;
	const char	 *help;
	const char	 *file;
	int		  line;
	int		  flags;
};

#define SYM_HASHSIZE	9973	/* the kernel's, so hash-order walks match */

struct kconfig {
	struct arena	  arena;
	struct intern	  strings;
	struct pp	 *pp;
	struct kconfig_options opt;
	struct kc_rules	  rules;	/* the tree's version's semantics */
	uint64_t	  prio_next;	/* choice value priorities (6.11) */

	struct kc_symbol *hash[SYM_HASHSIZE];
	struct kc_symbol **syms;	/* every symbol, creation order */
	int		   nsyms;
	size_t		   asyms;
	struct kc_symbol **korder;	/* kernel hash-walk order, cached */
	int		   nkorder;

	struct kc_symbol  sym_yes, sym_mod, sym_no, sym_empty;
	struct kc_symbol *modules_sym;
	enum kc_tri	  modules_val;
	uint32_t	  gen;

	struct kc_menu	  root;
	const char	**files;	/* every Kconfig file read, in order */
	int		  nfiles;
	size_t		  afiles;

	struct kc_symbol **pending;	/* symbols named by $(shell) futures */
	int		   npending;

	const char	 *config_prefix;	/* $CONFIG_ or "CONFIG_" */

	bool		  changed;	/* conf_get_changed() */
	/* The defconfig read for want of a .config (interned), or NULL:
	 * kconfig_defaults_from(). */
	const char	 *defaults_from;

	/* Incremental invalidation (graph.c): the readers of each symbol,
	 * and the scratch of the walk. */
	bool		  incremental;
	int		 *g_off, *g_to, *g_fill, *g_queue;
	uint32_t	 *g_stamp, g_mark;
	int		  g_nsyms;
	/* A symbol was invalidated without its readers (a choice settling
	 * its values, a config read): the walk may not stop early until
	 * the next full clear. */
	bool		  g_unwalked;

	/* Checkpoints (journal.c): each symbol's user state before its
	 * first change since kconfig_checkpoint(), and the generation of
	 * the user values. */
	bool		  j_on;
	struct kc_undo	 *j_undo;
	size_t		  j_n, j_alloc;
	uint32_t	 *j_stamp, j_epoch;
	int		  j_nsyms;
	uint64_t	  user_gen, user_next, j_gen0;
	int		  dep_warnings;
	int		  errors;
	struct strbuf	  errbuf;	/* errors for *cause */
};

/* kconfig.c */
void	kc_warn(struct kconfig *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	kc_error(struct kconfig *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
const char *kc_intern(struct kconfig *, const char *);

/* expr.c */
struct kc_expr	*expr_alloc_symbol(struct kconfig *, struct kc_symbol *);
struct kc_expr	*expr_alloc_one(struct kconfig *, enum kc_expr_type,
		     struct kc_expr *);
struct kc_expr	*expr_alloc_two(struct kconfig *, enum kc_expr_type,
		     struct kc_expr *, struct kc_expr *);
struct kc_expr	*expr_alloc_comp(struct kconfig *, enum kc_expr_type,
		     struct kc_symbol *, struct kc_symbol *);
struct kc_expr	*expr_alloc_and(struct kconfig *, struct kc_expr *,
		     struct kc_expr *);
struct kc_expr	*expr_alloc_or(struct kconfig *, struct kc_expr *,
		     struct kc_expr *);
struct kc_expr	*expr_copy(struct kconfig *, const struct kc_expr *);
struct kc_expr	*expr_alloc_is_no(struct kconfig *, struct kc_expr *,
		     bool unequal);
enum kc_tri	 expr_calc_value(struct kconfig *, struct kc_expr *);
bool		 expr_contains_symbol(struct kc_expr *, struct kc_symbol *);
bool		 expr_is_yes(struct kconfig *, const struct kc_expr *);
struct kc_expr	*expr_fold_tautologies(struct kconfig *, struct kc_expr *);
bool		 expr_depends_symbol(struct kc_expr *, struct kc_symbol *);
void		 expr_print(struct kc_expr *, struct strbuf *, int prevtoken);

/* symbol.c */
struct kc_symbol *sym_lookup(struct kconfig *, const char *, int flags);
/* pending.c: after the parse and its $(shell)s, the pending symbols
 * resolved (see there). */
void		  sym_resolve_pending(struct kconfig *);
struct kc_symbol *sym_find(struct kconfig *, const char *);
struct kc_symbol **sym_kernel_order(struct kconfig *, int *n);
void		 sym_calc_value(struct kconfig *, struct kc_symbol *);
void		 sym_calc_visibility(struct kconfig *, struct kc_symbol *);
void		 sym_clear_all_valid(struct kconfig *);
enum kc_type	 sym_get_type(struct kconfig *, struct kc_symbol *);
const char	*sym_get_string_value(struct kc_symbol *);
const char	*sym_get_string_default(struct kconfig *, struct kc_symbol *);
bool		 sym_string_valid(struct kc_symbol *, const char *);
bool		 sym_string_within_range(struct kconfig *, struct kc_symbol *,
		     const char *);
bool		 sym_tristate_within_range(struct kconfig *,
		     struct kc_symbol *, enum kc_tri);
bool		 sym_set_tristate_value(struct kconfig *, struct kc_symbol *,
		     enum kc_tri);
bool		 sym_set_string_value(struct kconfig *, struct kc_symbol *,
		     const char *);
struct kc_symbol *sym_choice_default(struct kconfig *, struct kc_symbol *);
struct kc_symbol *prop_get_symbol(struct kc_prop *);
void		 sym_set_all_choice_values(struct kconfig *,
		     struct kc_symbol *);
const char	*sym_type_name(enum kc_type);
const char	*prop_type_name(enum kc_prop_type);

#define sym_is_choice(s)	(((s)->flags & SYM_CHOICE) != 0)
#define sym_is_choice_value(s)	(((s)->flags & SYM_CHOICEVAL) != 0)
#define sym_is_optional(s)	(((s)->flags & SYM_OPTIONAL) != 0)
#define sym_has_value(s)	(((s)->flags & SYM_DEF_USER) != 0)
#define sym_is_valid(k, s)	((s)->valid_gen == (k)->gen)

#define EXPR_OR(a, b)	((a) > (b) ? (a) : (b))
#define EXPR_AND(a, b)	((a) < (b) ? (a) : (b))
#define EXPR_NOT(a)	((enum kc_tri)(2 - (a)))

/* graph.c */
void		 graph_invalidate(struct kconfig *, struct kc_symbol *);
void		 graph_invalidate_many(struct kconfig *, struct kc_symbol **,
		     size_t);
void		 graph_free(struct kconfig *);

/* journal.c */
struct kc_undo {
	struct kc_symbol	*sym;
	int			 flags;
	enum kc_tri		 tri;
	const char		*str;
	struct kc_symbol	*sel;
	uint64_t		 prio;
};
void		 journal_init(struct kconfig *);
void		 journal_free(struct kconfig *);
void		 journal_note(struct kconfig *, struct kc_symbol *);
void		 journal_reset(struct kconfig *);

/* menu.c */
int		 menu_check_transitional(struct kconfig *, struct kc_menu *);
void		 menu_finalize(struct kconfig *, struct kc_menu *);
bool		 menu_is_visible(struct kconfig *, struct kc_menu *);
const char	*menu_get_prompt(struct kc_menu *);
struct kc_menu	*menu_next(struct kc_menu *);

/* check.c */
int		 sym_check_all_deps(struct kconfig *);

/* parser.c */
int		 parse_file(struct kconfig *, const char *);
int		 parse_buffer(struct kconfig *, const char *, const char *,
		     size_t);
#endif
