/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api.c - the read side of the public interface (kconfig.h,
 * "Introspection"): expressions, properties, menus, and saved user values.
 *
 * These are thin accessors over internal.h so that core/ and tui/ never
 * see the graph's layout; the engine can change its representation (say,
 * to recompute only what a change touches) without touching them.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static_assert((int)KC_EXPR_RANGE == (int)E_RANGE &&
    (int)KC_EXPR_SYMBOL == (int)E_SYMBOL && (int)KC_EXPR_OR == (int)E_OR,
    "public and internal expression types must agree");
static_assert((int)KC_PROP_SYMBOL == (int)P_SYMBOL &&
    (int)KC_PROP_DEFAULT == (int)P_DEFAULT,
    "public and internal property types must agree");

/* The operator of e. NULL is an absent condition (no "if", no
 * "depends on"), KC_EXPR_NONE, which the engine evaluates as y. */
enum kc_expr_op
kc_expr_op(const struct kc_expr *e)
{
	return e != NULL ? (enum kc_expr_op)e->type : KC_EXPR_NONE;
}

/* The left operand of OR/AND/NOT. */
const struct kc_expr *
kc_expr_left(const struct kc_expr *e)
{
	if (e == NULL)
		return NULL;
	switch (e->type) {
	case E_OR:
	case E_AND:
	case E_NOT:
		return e->left.expr;
	default:
		return NULL;
	}
}

/* The right operand of OR/AND. */
const struct kc_expr *
kc_expr_right(const struct kc_expr *e)
{
	if (e == NULL || (e->type != E_OR && e->type != E_AND))
		return NULL;
	return e->right.expr;
}

/* Whether e's operands are symbols (comparisons and RANGE). */
static bool
expr_has_sym_operands(const struct kc_expr *e)
{
	return e->type >= E_EQUAL && e->type <= E_GEQ ? true :
	    e->type == E_RANGE;
}

/* The symbol of a SYMBOL, or the left one of a comparison or RANGE. */
struct kc_symbol *
kc_expr_sym(const struct kc_expr *e)
{
	if (e == NULL || (e->type != E_SYMBOL && !expr_has_sym_operands(e)))
		return NULL;
	return e->left.sym;
}

/* The right symbol of a comparison or RANGE. */
struct kc_symbol *
kc_expr_sym2(const struct kc_expr *e)
{
	if (e == NULL || !expr_has_sym_operands(e))
		return NULL;
	return e->right.sym;
}

/* Evaluate with the current values; the engine's evaluator takes a
 * non-const pointer only because it caches symbol values. */
enum kc_tri
kc_expr_eval(struct kconfig *k, const struct kc_expr *e)
{
	return expr_calc_value(k, (struct kc_expr *)e);
}

/* e as conf prints it, for sentences and the TUI; malloc'd, the caller
 * frees it. The cast is only for the printer's signature. */
char *
kc_expr_str(const struct kc_expr *e)
{
	struct strbuf sb;

	strbuf_init(&sb);
	expr_print((struct kc_expr *)e, &sb, 0);
	return strbuf_detach(&sb);
}

/* The i-th property of a symbol. */
bool
kc_sym_prop(const struct kc_symbol *s, int i, struct kc_prop_info *info)
{
	const struct kc_prop *p;

	for (p = s->prop; p != NULL && i > 0; p = p->next)
		i--;
	if (p == NULL)
		return false;
	memset(info, 0, sizeof *info);
	info->kind = (enum kc_prop_kind)p->type;
	info->text = p->text;
	info->cond = p->visible.expr;
	info->own_cond = p->own_if;
	info->expr = p->expr;
	if (p->expr != NULL && p->expr->type == E_SYMBOL)
		info->target = p->expr->left.sym;
	info->file = p->file;
	info->line = p->line;
	return true;
}

/* Whether s is a constant: y, m, n or a quoted string in an expression.
 * Constants can't be set, and kc_sym_index() gives them -1. */
bool
kc_sym_is_const(const struct kc_symbol *s)
{
	return (s->flags & SYM_CONST) != 0;
}

/* Whether s is a choice block (named or not) rather than a config. */
bool
kc_sym_is_choice(const struct kc_symbol *s)
{
	return sym_is_choice(s);
}

/* Whether s is one of a choice's values, whose value the choice's
 * selection decides rather than its own user value. */
bool
kc_sym_is_choice_value(const struct kc_symbol *s)
{
	return sym_is_choice_value(s);
}

/* The choice a choice value belongs to; NULL for any other symbol. */
struct kc_symbol *
kc_sym_choice(const struct kc_symbol *s)
{
	return sym_is_choice_value(s) ? s->choice : NULL;
}

/* How many values a choice has; 0 when cs is not a choice. */
int
kc_choice_nvalues(const struct kc_symbol *cs)
{
	return sym_is_choice(cs) ? cs->nvalues : 0;
}

/* A choice's i-th value in definition order; NULL when cs is not a
 * choice or i is out of range. */
struct kc_symbol *
kc_choice_value(const struct kc_symbol *cs, int i)
{
	if (!sym_is_choice(cs) || i < 0 || i >= cs->nvalues)
		return NULL;
	return cs->values[i];
}

/* The value a choice selects now. Only a y choice has one: in an m
 * choice every value is m or n independently, so NULL then (and for n).
 * From 6.11 a choice has no mode: its visible value that is y, if any. */
struct kc_symbol *
kc_choice_selected(struct kconfig *k, struct kc_symbol *cs)
{
	int i;

	if (k->rules.choice_priority) {
		for (i = 0; i < cs->nvalues; i++) {
			sym_calc_value(k, cs->values[i]);
			if (cs->values[i]->visible != KC_NO &&
			    cs->values[i]->curr_tri == KC_YES)
				return cs->values[i];
		}
		return NULL;
	}
	sym_calc_value(k, cs);
	return cs->curr_tri == KC_YES ? cs->choice_sel : NULL;
}

/* A choice's mode: before 6.11 its own value (y: one value is chosen, m:
 * each value m or n, n: off); from 6.11 a choice has no value of its
 * own, and it is y while its prompt is visible. */
enum kc_tri
kc_choice_mode(struct kconfig *k, struct kc_symbol *cs)
{
	sym_calc_value(k, cs);
	if (k->rules.choice_priority)
		return cs->visible != KC_NO ? KC_YES : KC_NO;
	return cs->curr_tri;
}

/* Whether s has a user value (from .config or a set call), which it
 * keeps whether or not its prompt is visible now. */
bool
kc_sym_has_user_value(const struct kc_symbol *s)
{
	return sym_has_value(s);
}

/* The user's bool/tristate value as given, before visibility and
 * selects limit it; meaningful only with kc_sym_has_user_value(). */
enum kc_tri
kc_sym_user_tristate(const struct kc_symbol *s)
{
	return s->user_tri;
}

/* The user's string value for int/hex/string symbols, or NULL. The
 * string is interned in the configuration and freed with it. */
const char *
kc_sym_user_string(const struct kc_symbol *s)
{
	return s->user_str;
}

/* The prompt's visibility (n: no prompt shown), recomputed first when
 * values changed; it caps the value a user can give. */
enum kc_tri
kc_sym_visible(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	return s->visible;
}

/* The full "depends on" of s, with enclosing menus and ifs; owned by
 * the configuration, NULL for none (y). */
const struct kc_expr *
kc_sym_depends(const struct kc_symbol *s)
{
	return s->dir_dep.expr;
}

/* The OR of every select of s ("A && cond" terms); NULL when nothing
 * selects it. */
const struct kc_expr *
kc_sym_selected_by(const struct kc_symbol *s)
{
	return s->rev_dep.expr;
}

/* The OR of every imply of s; NULL when nothing implies it. */
const struct kc_expr *
kc_sym_implied_by(const struct kc_symbol *s)
{
	return s->implied.expr;
}

/* The current value of s's dependencies, which bounds its value. */
enum kc_tri
kc_sym_depends_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	/* Choice values keep no dir_dep value of their own. */
	if (sym_is_choice_value(s))
		return expr_calc_value(k, s->dir_dep.expr);
	return s->dir_dep.tri;
}

/* The current value of what selects s: a floor for its value, even
 * over unmet dependencies (conf warns then). Choice values keep none
 * of their own, so it is evaluated here. */
enum kc_tri
kc_sym_selected_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	if (sym_is_choice_value(s))
		return s->rev_dep.expr ? expr_calc_value(k, s->rev_dep.expr) :
		    KC_NO;
	return s->rev_dep.tri;
}

/* The current value of what implies s: a default floor that, unlike a
 * select, the user may still lower. Evaluated here for choice values. */
enum kc_tri
kc_sym_implied_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	if (sym_is_choice_value(s))
		return s->implied.expr ? expr_calc_value(k, s->implied.expr) :
		    KC_NO;
	return s->implied.tri;
}

/* Whether s goes to .config (a value or "is not set" line), as
 * sym_calc_value() decides it; recomputed first. */
bool
kc_sym_is_written(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	return (s->flags & SYM_WRITE) != 0;
}

/* The first definition with help text. */
const char *
kc_sym_help(const struct kc_symbol *s)
{
	const struct kc_prop *p;

	for (p = s->prop; p != NULL; p = p->next) {
		if (p->menu != NULL && p->menu->help != NULL)
			return p->menu->help;
	}
	return s->menu != NULL ? s->menu->help : NULL;
}

/* The menu entry of s's first definition, or NULL for a symbol only
 * referred to (never defined in this tree). */
struct kc_menu *
kc_sym_menu(const struct kc_symbol *s)
{
	return s->menu;
}

/* Whether the user could set val now, as menuconfig would allow it
 * (sym_tristate_within_range()): between what selects it and its
 * visibility. Recomputes first so the range is current. */
bool
kc_sym_tristate_settable(struct kconfig *k, struct kc_symbol *s,
    enum kc_tri val)
{
	sym_calc_value(k, s);
	return sym_tristate_within_range(k, s, val);
}

/* Set a bool/tristate as a user would (for a choice value: select it).
 * False when val is out of range; readers recompute lazily. */
bool
kc_sym_set_tristate(struct kconfig *k, struct kc_symbol *s, enum kc_tri val)
{
	return sym_set_tristate_value(k, s, val);
}

/* Drop the user value; a choice value's choice forgets its selection
 * too when it was this symbol. */
void
kc_sym_unset(struct kconfig *k, struct kc_symbol *s)
{
	if (!sym_has_value(s))
		return;
	journal_note(k, s);
	if (sym_is_choice_value(s))
		journal_note(k, s->choice);
	s->flags &= ~SYM_DEF_USER;
	s->user_tri = KC_NO;
	s->user_str = NULL;
	if (sym_is_choice_value(s) && s->choice->user_sel == s) {
		s->choice->user_sel = NULL;
		s->choice->flags &= ~SYM_DEF_USER;
	}
	graph_invalidate(k, s);
}

/* s's index into kconfig_symbol(), stable for the configuration's
 * life, for arrays over symbols; -1 for constants, which have none. */
int
kc_sym_index(const struct kc_symbol *s)
{
	return (s->flags & SYM_CONST) ? -1 : (int)s->order;
}

/* What kind of entry a menu is: the prompt's type, else its symbol. */
enum kc_menu_kind
kc_menu_kind(const struct kc_menu *m)
{
	if (m->prompt != NULL && m->prompt->type == P_MENU)
		return KC_MENU_MENU;
	if (m->prompt != NULL && m->prompt->type == P_COMMENT)
		return KC_MENU_COMMENT;
	if (m->sym != NULL)
		return sym_is_choice(m->sym) ? KC_MENU_CHOICE : KC_MENU_SYMBOL;
	return KC_MENU_OTHER;
}

/* The entry m is shown under, or NULL for the root. */
struct kc_menu *
kc_menu_parent(const struct kc_menu *m)
{
	return m->parent;
}

/* m's first child entry, or NULL: the entries shown under it (a
 * submenu's, or a config's dependents that menu_finalize() nested). */
struct kc_menu *
kc_menu_child(const struct kc_menu *m)
{
	return m->list;
}

/* m's next sibling in the tree, or NULL. */
struct kc_menu *
kc_menu_next(const struct kc_menu *m)
{
	return m->next;
}

/* The entry after m in a depth-first walk (children first), NULL at
 * the end; for visiting every entry without recursion. */
struct kc_menu *
kc_menu_walk(const struct kc_menu *m)
{
	return menu_next((struct kc_menu *)m);
}

/* The symbol an entry defines (a config, menuconfig or choice), or
 * NULL for menus, comments and ifs. */
struct kc_symbol *
kc_menu_sym(const struct kc_menu *m)
{
	return m->sym;
}

/* The entry's prompt text, or NULL: an entry without one is never
 * shown to the user. */
const char *
kc_menu_prompt(const struct kc_menu *m)
{
	return m->prompt != NULL ? m->prompt->text : NULL;
}

/* The prompt's condition, its "if" ANDed with the enclosing
 * dependencies; NULL when there is no prompt or it is always shown. */
const struct kc_expr *
kc_menu_prompt_cond(const struct kc_menu *m)
{
	return m->prompt != NULL ? m->prompt->visible.expr : NULL;
}

/* The entry's own "depends on" (NULL: none). */
const struct kc_expr *
kc_menu_depends(const struct kc_menu *m)
{
	return m->dep;
}

/* A menu's "visible if", which hides the menu without changing the
 * values under it; NULL when there is none. */
const struct kc_expr *
kc_menu_visible_if(const struct kc_menu *m)
{
	return m->visibility;
}

/* Whether menuconfig would show the entry now (menu_is_visible()): a
 * visible prompt, or a set symbol with a visible child. Not const: it
 * recomputes, and marks such a symbol as user-set, as the kernel does. */
bool
kc_menu_is_visible(struct kconfig *k, struct kc_menu *m)
{
	return menu_is_visible(k, m);
}

/* This entry's own help text, or NULL; kc_sym_help() looks across
 * all of a symbol's definitions. */
const char *
kc_menu_help(const struct kc_menu *m)
{
	return m->help;
}

/* The Kconfig file the entry is in ("" for the root); the string
 * belongs to the configuration. */
const char *
kc_menu_file(const struct kc_menu *m)
{
	return m->file;
}

/* The line of the entry in kc_menu_file(). */
int
kc_menu_line(const struct kc_menu *m)
{
	return m->line;
}

/* One symbol's user value, independent of the arena it came from. */
struct kc_value {
	int		 flags;		/* SYM_DEF_USER only */
	enum kc_tri	 tri;
	char		*str;
	int		 sel;		/* choice: user_sel's index, or -1 */
};

struct kc_values {
	int		 n;
	struct kc_value	*v;
};

/* Copy every symbol's user value, for undo or for another struct
 * kconfig parsed from the same tree: strings are copied out of k's
 * table and choice selections kept as indexes, so nothing points into
 * k. Free with kconfig_values_free(). */
struct kc_values *
kconfig_values_save(const struct kconfig *k)
{
	struct kc_values	*vs = xcalloc(1, sizeof *vs);
	const struct kc_symbol	*s;
	int			 i;

	vs->n = k->nsyms;
	vs->v = xcalloc((size_t)k->nsyms + 1, sizeof *vs->v);
	for (i = 0; i < k->nsyms; i++) {
		s = k->syms[i];
		vs->v[i].flags = s->flags & (SYM_DEF_USER | SYM_NEED_SET_CHOICE);
		vs->v[i].tri = s->user_tri;
		vs->v[i].str = s->user_str != NULL ? xstrdup(s->user_str) :
		    NULL;
		vs->v[i].sel = s->user_sel != NULL ? (int)s->user_sel->order :
		    -1;
	}
	return vs;
}

/* Whether a symbol's user value differs from a saved one. */
static bool
values_differ(const struct kc_symbol *s, const struct kc_value *v,
    struct kc_symbol *const *syms, int nsyms)
{
	const struct kc_symbol *sel;

	if ((s->flags & (SYM_DEF_USER | SYM_NEED_SET_CHOICE)) != v->flags)
		return true;
	if (s->user_tri != v->tri)
		return true;
	if ((s->user_str == NULL) != (v->str == NULL) ||
	    (v->str != NULL && strcmp(s->user_str, v->str) != 0))
		return true;
	sel = v->sel >= 0 && v->sel < nsyms ? syms[v->sel] : NULL;
	return s->user_sel != sel;
}

/*
 * Put saved user values back. In full mode everything is invalidated; in
 * incremental mode only what reads a symbol whose user value differs (a
 * trim's consequence restores the few symbols it set).
 */
int
kconfig_values_restore(struct kconfig *k, const struct kc_values *vs)
{
	struct kc_symbol	*s;
	int			 i;

	if (vs->n != k->nsyms)
		return -1;
	for (i = 0; i < k->nsyms; i++) {
		s = k->syms[i];
		if (k->incremental && !values_differ(s, &vs->v[i], k->syms,
		    k->nsyms))
			continue;
		journal_note(k, s);
		s->flags &= ~(SYM_DEF_USER | SYM_NEED_SET_CHOICE);
		s->flags |= vs->v[i].flags;
		s->user_tri = vs->v[i].tri;
		s->user_str = vs->v[i].str != NULL ?
		    kc_intern(k, vs->v[i].str) : NULL;
		s->user_sel = vs->v[i].sel >= 0 && vs->v[i].sel < k->nsyms ?
		    k->syms[vs->v[i].sel] : NULL;
		if (k->incremental)
			graph_invalidate(k, s);
	}
	if (!k->incremental)
		sym_clear_all_valid(k);
	return 0;
}

/* Free values from kconfig_values_save(); NULL is ignored. */
void
kconfig_values_free(struct kc_values *vs)
{
	int i;

	if (vs == NULL)
		return;
	for (i = 0; i < vs->n; i++)
		free(vs->v[i].str);
	free(vs->v);
	free(vs);
}

/* Invalidate and recompute every symbol now. */
void
kconfig_recalc(struct kconfig *k)
{
	int i;

	sym_clear_all_valid(k);
	for (i = 0; i < k->nsyms; i++)
		sym_calc_value(k, k->syms[i]);
}
