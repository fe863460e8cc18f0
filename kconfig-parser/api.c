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
	info->expr = p->expr;
	if (p->expr != NULL && p->expr->type == E_SYMBOL)
		info->target = p->expr->left.sym;
	info->file = p->file;
	info->line = p->line;
	return true;
}

bool
kc_sym_is_const(const struct kc_symbol *s)
{
	return (s->flags & SYM_CONST) != 0;
}

bool
kc_sym_is_choice(const struct kc_symbol *s)
{
	return sym_is_choice(s);
}

bool
kc_sym_is_choice_value(const struct kc_symbol *s)
{
	return sym_is_choice_value(s);
}

struct kc_symbol *
kc_sym_choice(const struct kc_symbol *s)
{
	return sym_is_choice_value(s) ? s->choice : NULL;
}

int
kc_choice_nvalues(const struct kc_symbol *cs)
{
	return sym_is_choice(cs) ? cs->nvalues : 0;
}

struct kc_symbol *
kc_choice_value(const struct kc_symbol *cs, int i)
{
	if (!sym_is_choice(cs) || i < 0 || i >= cs->nvalues)
		return NULL;
	return cs->values[i];
}

struct kc_symbol *
kc_choice_selected(struct kconfig *k, struct kc_symbol *cs)
{
	sym_calc_value(k, cs);
	return cs->curr_tri == KC_YES ? cs->choice_sel : NULL;
}

bool
kc_sym_has_user_value(const struct kc_symbol *s)
{
	return sym_has_value(s);
}

enum kc_tri
kc_sym_user_tristate(const struct kc_symbol *s)
{
	return s->user_tri;
}

const char *
kc_sym_user_string(const struct kc_symbol *s)
{
	return s->user_str;
}

enum kc_tri
kc_sym_visible(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	return s->visible;
}

const struct kc_expr *
kc_sym_depends(const struct kc_symbol *s)
{
	return s->dir_dep.expr;
}

const struct kc_expr *
kc_sym_selected_by(const struct kc_symbol *s)
{
	return s->rev_dep.expr;
}

const struct kc_expr *
kc_sym_implied_by(const struct kc_symbol *s)
{
	return s->implied.expr;
}

enum kc_tri
kc_sym_depends_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	/* Choice values keep no dir_dep value of their own. */
	if (sym_is_choice_value(s))
		return expr_calc_value(k, s->dir_dep.expr);
	return s->dir_dep.tri;
}

enum kc_tri
kc_sym_selected_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	if (sym_is_choice_value(s))
		return s->rev_dep.expr ? expr_calc_value(k, s->rev_dep.expr) :
		    KC_NO;
	return s->rev_dep.tri;
}

enum kc_tri
kc_sym_implied_value(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	if (sym_is_choice_value(s))
		return s->implied.expr ? expr_calc_value(k, s->implied.expr) :
		    KC_NO;
	return s->implied.tri;
}

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

struct kc_menu *
kc_sym_menu(const struct kc_symbol *s)
{
	return s->menu;
}

bool
kc_sym_tristate_settable(struct kconfig *k, struct kc_symbol *s,
    enum kc_tri val)
{
	sym_calc_value(k, s);
	return sym_tristate_within_range(k, s, val);
}

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

struct kc_menu *
kc_menu_parent(const struct kc_menu *m)
{
	return m->parent;
}

struct kc_menu *
kc_menu_child(const struct kc_menu *m)
{
	return m->list;
}

struct kc_menu *
kc_menu_next(const struct kc_menu *m)
{
	return m->next;
}

struct kc_menu *
kc_menu_walk(const struct kc_menu *m)
{
	return menu_next((struct kc_menu *)m);
}

struct kc_symbol *
kc_menu_sym(const struct kc_menu *m)
{
	return m->sym;
}

const char *
kc_menu_prompt(const struct kc_menu *m)
{
	return m->prompt != NULL ? m->prompt->text : NULL;
}

const struct kc_expr *
kc_menu_prompt_cond(const struct kc_menu *m)
{
	return m->prompt != NULL ? m->prompt->visible.expr : NULL;
}

const struct kc_expr *
kc_menu_depends(const struct kc_menu *m)
{
	return m->dep;
}

const struct kc_expr *
kc_menu_visible_if(const struct kc_menu *m)
{
	return m->visibility;
}

bool
kc_menu_is_visible(struct kconfig *k, struct kc_menu *m)
{
	return menu_is_visible(k, m);
}

const char *
kc_menu_help(const struct kc_menu *m)
{
	return m->help;
}

const char *
kc_menu_file(const struct kc_menu *m)
{
	return m->file;
}

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
