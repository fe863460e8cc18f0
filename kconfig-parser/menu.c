/* SPDX-License-Identifier: GPL-2.0 */
/*
 * menu.c - finishing the menu tree after parsing: propagating enclosing
 * dependencies into every entry and property, turning selects and implies
 * into reverse dependencies, building implicit submenus, flattening "if"
 * blocks, choice bookkeeping; and menu visibility.
 */
#include <string.h>

#include "internal.h"

/* Rewrite a bare m as "m && MODULES", so it is n without modules. */
static struct kc_expr *
menu_rewrite_m(struct kconfig *k, struct kc_expr *e)
{
	if (e == NULL)
		return NULL;
	switch (e->type) {
	case E_NOT:
		e->left.expr = menu_rewrite_m(k, e->left.expr);
		break;
	case E_OR:
	case E_AND:
		e->left.expr = menu_rewrite_m(k, e->left.expr);
		e->right.expr = menu_rewrite_m(k, e->right.expr);
		break;
	case E_SYMBOL:
		if (e->left.sym == &k->sym_mod)
			return expr_alloc_and(k, e,
			    expr_alloc_symbol(k, k->modules_sym));
		break;
	default:
		break;
	}
	return e;
}

/* Structural equality, with && and || operands in either order. */
static bool
expr_same(const struct kc_expr *a, const struct kc_expr *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->type != b->type)
		return false;
	switch (a->type) {
	case E_SYMBOL:
		return a->left.sym == b->left.sym;
	case E_NOT:
		return expr_same(a->left.expr, b->left.expr);
	case E_AND:
	case E_OR:
		return (expr_same(a->left.expr, b->left.expr) &&
		    expr_same(a->right.expr, b->right.expr)) ||
		    (expr_same(a->left.expr, b->right.expr) &&
		    expr_same(a->right.expr, b->left.expr));
	default:
		return a->left.sym == b->left.sym &&
		    a->right.sym == b->right.sym;
	}
}

/* Whether term is one of the conjuncts of e. */
static bool
expr_has_conjunct(const struct kc_expr *e, const struct kc_expr *term)
{
	if (e == NULL)
		return false;
	if (e->type == E_AND && !expr_same(e, term))
		return expr_has_conjunct(e->left.expr, term) ||
		    expr_has_conjunct(e->right.expr, term);
	return expr_same(e, term);
}

/* Whether every conjunct of base is a conjunct of dep: dep then implies
 * base, so an entry with dep fits in the submenu of a symbol whose prompt
 * depends on base. */
static bool
expr_covers(const struct kc_expr *dep, const struct kc_expr *base)
{
	if (base == NULL)
		return true;
	if (base->type == E_AND && !expr_has_conjunct(dep, base))
		return expr_covers(dep, base->left.expr) &&
		    expr_covers(dep, base->right.expr);
	if (base->type == E_SYMBOL && base->left.sym->name != NULL &&
	    base->left.sym->name[0] == 'y' && base->left.sym->name[1] == '\0' &&
	    (base->left.sym->flags & SYM_CONST))
		return true;
	return expr_has_conjunct(dep, base);
}

/* Add a P_CHOICE link from a value to its choice and append it to the
 * choice's list of values. */
static void
menu_add_choice_value(struct kconfig *k, struct kc_symbol *cs,
    struct kc_menu *m)
{
	struct kc_symbol *sym = m->sym;
	struct kc_prop *prop, **pp;

	prop = arena_alloc(&k->arena, sizeof *prop);
	prop->type = P_CHOICE;
	prop->expr = expr_alloc_symbol(k, cs);
	prop->menu = m;
	prop->file = m->file;
	prop->line = m->line;
	for (pp = &sym->prop; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = prop;
	sym->choice = cs;
	cs->values = xrealloc(cs->values,
	    (size_t)(cs->nvalues + 1) * sizeof *cs->values);
	cs->values[cs->nvalues++] = sym;
}

/* Warn about properties that make no sense for their symbol. */
static void
menu_check_props(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_prop		*prop;
	struct kc_symbol	*s2;

	for (prop = sym->prop; prop != NULL; prop = prop->next) {
		switch (prop->type) {
		case P_DEFAULT:
			if ((sym->type == KC_STRING || sym->type == KC_INT ||
			    sym->type == KC_HEX) && prop->expr->type != E_SYMBOL)
				kc_warn(k, "%s:%d:warning: default for config "
				    "symbol '%s' must be a single symbol",
				    prop->file, prop->line, sym->name);
			if (prop->expr->type != E_SYMBOL)
				break;
			s2 = prop_get_symbol(prop);
			if ((sym->type == KC_HEX || sym->type == KC_INT) &&
			    !(s2->type == KC_INT || s2->type == KC_HEX ||
			    (s2->type == KC_UNKNOWN &&
			    sym_string_valid(sym, s2->name))))
				kc_warn(k, "%s:%d:warning: '%s': number is "
				    "invalid", prop->file, prop->line,
				    sym->name);
			if (sym_is_choice(sym) && s2->choice != sym)
				kc_warn(k, "%s:%d:warning: choice default "
				    "symbol '%s' is not contained in the choice",
				    prop->file, prop->line, s2->name);
			break;
		case P_SELECT:
		case P_IMPLY:
			s2 = prop_get_symbol(prop);
			if (sym->type != KC_BOOL && sym->type != KC_TRISTATE)
				kc_warn(k, "%s:%d:warning: config symbol '%s' "
				    "uses %s, but is not bool or tristate",
				    prop->file, prop->line, sym->name,
				    prop_type_name(prop->type));
			else if (s2->type != KC_UNKNOWN &&
			    s2->type != KC_BOOL && s2->type != KC_TRISTATE)
				kc_warn(k, "%s:%d:warning: '%s' has wrong type. "
				    "'%s' only accept arguments of bool and "
				    "tristate type", prop->file, prop->line,
				    s2->name, prop_type_name(prop->type));
			break;
		case P_RANGE:
			if (sym->type != KC_INT && sym->type != KC_HEX)
				kc_warn(k, "%s:%d:warning: range is only "
				    "allowed for int or hex symbols",
				    prop->file, prop->line);
			break;
		default:
			break;
		}
	}
}

static void menu_finalize_in(struct kconfig *, struct kc_menu *, bool);

/* What a choice value must be: a prompt, no default, no prompt in another
 * choice group (warnings before 6.10, errors since; from 7.1 in no other
 * entry at all), and bool from 6.11. */
static void
menu_check_choice_value(struct kconfig *k, struct kc_symbol *cs,
    struct kc_menu *m)
{
	struct kc_prop	*prop;
	bool		 strict = k->rules.strict_choice_values;
	const char	*kind = strict ? "error" : "warning";
	void		(*report)(struct kconfig *, const char *, ...)
			    __attribute__((format(printf, 2, 3)));

	report = strict ? kc_error : kc_warn;
	if (m->prompt == NULL)
		report(k, "%s:%d:%s: choice value must have a prompt%s",
		    m->file, m->line, kind, strict ?
		    " (required since Linux 6.10)" : "");
	if (!k->rules.tristate_choice && m->sym->type != KC_BOOL)
		kc_error(k, "%s:%d:error: choice member must be bool (tristate "
		    "choices were removed in Linux 6.11; this tree is %d.%d)",
		    m->file, m->line, k->rules.version, k->rules.patchlevel);
	for (prop = m->sym->prop; prop; prop = prop->next) {
		if (prop->type == P_DEFAULT)
			report(k, "%s:%d:%s: defaults for choice values not "
			    "supported%s", prop->file, prop->line, kind,
			    strict ? " (an error since Linux 6.10)" : "");
		if (prop->menu == m || prop->type != P_PROMPT)
			continue;
		if (k->rules.choice_prompt_one_entry)
			kc_error(k, "%s:%d:error: choice value must not have a "
			    "prompt in another entry (since Linux 7.1; this "
			    "tree is %d.%d)", prop->file, prop->line,
			    k->rules.version, k->rules.patchlevel);
		else if (prop->menu->parent->sym != cs)
			report(k, "%s:%d:%s: choice value used outside its "
			    "choice group", prop->file, prop->line, kind);
	}
}

/* Set a choice value's type from its choice's, warning on conflicts. */
static void
menu_set_type(struct kconfig *k, struct kc_menu *m, enum kc_type type)
{
	struct kc_symbol *sym = m->sym;

	if (sym->type == type)
		return;
	if (sym->type == KC_UNKNOWN) {
		sym->type = type;
		return;
	}
	kc_warn(k, "%s:%d:warning: ignoring type redefinition of '%s' from "
	    "'%s' to '%s'", m->file, m->line,
	    sym->name ? sym->name : "<choice>", sym_type_name(sym->type),
	    sym_type_name(type));
}

/*
 * Propagate parent's dependencies into its children and their properties,
 * then finish each child.
 *
 * The parent's dependency is shared, not copied, by every child: nothing
 * changes an expression once it has been propagated (menu_rewrite_m() only
 * rewrites an entry's own, not yet propagated, conditions), and sharing
 * keeps the graph of a whole kernel tree small.
 */
static void
menu_finalize_children(struct kconfig *k, struct kc_menu *parent)
{
	struct kc_symbol	*sym = parent->sym, *es;
	struct kc_menu		*m;
	struct kc_prop		*prop;
	struct kc_expr		*parentdep, *basedep, *dep;

	if (sym != NULL && sym_is_choice(sym)) {
		if (sym->type == KC_UNKNOWN) {
			/* The first typed value gives the choice its type. */
			for (m = parent->list; m != NULL; m = m->next) {
				if (m->sym != NULL && m->sym->type != KC_UNKNOWN) {
					menu_set_type(k, parent, m->sym->type);
					break;
				}
			}
		}
		for (m = parent->list; m != NULL; m = m->next) {
			if (m->sym != NULL && m->sym->type == KC_UNKNOWN)
				menu_set_type(k, m, sym->type);
		}
		/* The choice's mode bounds its values' visibility (a
		 * choice has no mode from 6.11: its dependencies do). */
		if (k->rules.tristate_choice)
			parentdep = expr_alloc_symbol(k, sym);
		else
			parentdep = parent->dep;
	} else
		parentdep = parent->dep;

	for (m = parent->list; m != NULL; m = m->next) {
		basedep = expr_fold_tautologies(k, menu_rewrite_m(k, m->dep));
		basedep = expr_alloc_and(k, parentdep, basedep);
		m->dep = basedep;
		prop = m->sym != NULL ? m->sym->prop : m->prompt;
		for (; prop != NULL; prop = prop->next) {
			/* Properties from another definition of the same
			 * symbol are handled at their own entry. */
			if (prop->menu != m)
				continue;
			dep = expr_fold_tautologies(k,
			    menu_rewrite_m(k, prop->visible.expr));
			dep = expr_alloc_and(k, basedep, dep);
			prop->visible.expr = dep;
			if (prop->type == P_SELECT) {
				es = prop_get_symbol(prop);
				es->rev_dep.expr = expr_alloc_or(k,
				    es->rev_dep.expr, expr_alloc_and(k,
				    expr_alloc_symbol(k, m->sym), dep));
			} else if (prop->type == P_IMPLY) {
				es = prop_get_symbol(prop);
				es->implied.expr = expr_alloc_or(k,
				    es->implied.expr, expr_alloc_and(k,
				    expr_alloc_symbol(k, m->sym), dep));
			}
		}
	}
	for (m = parent->list; m != NULL; m = m->next)
		menu_finalize_in(k, m, sym != NULL && sym_is_choice(sym));
}

/* Move the entries after a symbol that depend on it into its implicit
 * submenu, finishing each one. */
static void
menu_finalize_submenu(struct kconfig *k, struct kc_menu *parent)
{
	struct kc_symbol	*sym = parent->sym;
	struct kc_menu		*m, *last = NULL;
	struct kc_expr		*basedep, *dep;

	basedep = parent->prompt != NULL ? parent->prompt->visible.expr : NULL;
	for (m = parent->next; m != NULL; m = m->next) {
		dep = m->prompt != NULL ? m->prompt->visible.expr : m->dep;
		if (!expr_contains_symbol(dep, sym))
			break;
		/* Either an absolute dependency on sym, or dependencies
		 * that include sym and everything sym's prompt needs. */
		if (!expr_depends_symbol(dep, sym) && !expr_covers(dep, basedep))
			break;
		menu_finalize_in(k, m, false);
		m->parent = parent;
		last = m;
	}
	if (last != NULL) {
		parent->list = parent->next;
		parent->next = last->next;
		last->next = NULL;
	}
	sym->dir_dep.expr = expr_alloc_or(k, sym->dir_dep.expr, parent->dep);
}

/* Finish a menu entry and everything below it; inside_choice: a direct
 * value of a choice, which from 6.11 gets no implicit submenu. */
static void
menu_finalize_in(struct kconfig *k, struct kc_menu *parent,
    bool inside_choice)
{
	struct kc_symbol	*sym = parent->sym;
	struct kc_menu		*m, *last;
	struct kc_prop		*prop;
	struct kc_expr		*basedep;

	if (parent->list != NULL)
		menu_finalize_children(k, parent);
	else if (sym != NULL &&
	    !(inside_choice && k->rules.choice_priority))
		menu_finalize_submenu(k, parent);

	for (m = parent->list; m != NULL; m = m->next) {
		if (sym != NULL && sym_is_choice(sym) && m->sym != NULL &&
		    !sym_is_choice_value(m->sym)) {
			m->sym->flags |= SYM_CHOICEVAL;
			menu_check_choice_value(k, sym, m);
			/* Non-tristate values of a tristate choice need the
			 * choice to be y. */
			if (sym->type == KC_TRISTATE &&
			    m->sym->type != KC_TRISTATE) {
				basedep = expr_alloc_comp(k, E_EQUAL, sym,
				    &k->sym_yes);
				m->dep = expr_alloc_and(k, basedep, m->dep);
				for (prop = m->sym->prop; prop; prop = prop->next) {
					if (prop->menu != m)
						continue;
					prop->visible.expr = expr_alloc_and(k,
					    basedep, prop->visible.expr);
				}
			}
			menu_add_choice_value(k, sym, m);
		}
		/* Flatten "if" blocks and submenus of promptless entries. */
		if (m->list != NULL && (m->prompt == NULL ||
		    m->prompt->text == NULL)) {
			for (last = m->list; ; last = last->next) {
				last->parent = parent;
				if (last->next == NULL)
					break;
			}
			last->next = m->next;
			m->next = m->list;
			m->list = NULL;
		}
	}

	if (sym != NULL && !(sym->flags & SYM_WARNED)) {
		if (sym->type == KC_UNKNOWN)
			kc_warn(k, "%s:%d:warning: config symbol defined "
			    "without type", parent->file, parent->line);
		if (sym_is_choice(sym) && parent->prompt == NULL &&
		    !k->rules.choice_prompt_required)
			kc_warn(k, "%s:%d:warning: choice must have a prompt",
			    parent->file, parent->line);
		menu_check_props(k, sym);
		sym->flags |= SYM_WARNED;
	}

	/* A visible non-optional choice can't be n: as if selected to m
	 * (a choice has no mode from 6.11). */
	if (sym != NULL && !sym_is_optional(sym) && parent->prompt != NULL &&
	    k->rules.tristate_choice)
		sym->rev_dep.expr = expr_alloc_or(k, sym->rev_dep.expr,
		    expr_alloc_and(k, parent->prompt->visible.expr,
		    expr_alloc_symbol(k, &k->sym_mod)));
}

/* Finish the whole menu tree from its root. */
void
menu_finalize(struct kconfig *k, struct kc_menu *root)
{
	menu_finalize_in(k, root, false);
}

/*
 * A transitional symbol (6.18) has help and nothing else: no dependency
 * (its own, or its menu's or if-block's), no prompt, default, select,
 * imply or range, in any of its definitions. One error per entry, at the
 * entry for a dependency, else at the first property, as conf reports
 * them. 0, or -1 if any entry broke the rule.
 */
int
menu_check_transitional(struct kconfig *k, struct kc_menu *root)
{
	struct kc_menu	*m;
	struct kc_prop	*prop;
	int		 ret = 0;

	for (m = root; m != NULL; m = menu_next(m)) {
		if (m->sym == NULL || !(m->sym->flags & SYM_TRANS))
			continue;
		if (!expr_is_yes(k, m->dep) ||
		    !expr_is_yes(k, m->visibility)) {
			kc_error(k, "%s:%d: error: transitional symbols can "
			    "only have help sections", m->file, m->line);
			ret = -1;
			continue;
		}
		for (prop = m->sym->prop; prop != NULL; prop = prop->next) {
			/* Definitions and choice membership are no
			 * properties in conf. */
			if (prop->type == P_SYMBOL || prop->type == P_CHOICE)
				continue;
			kc_error(k, "%s:%d: error: transitional symbols can "
			    "only have help sections", prop->file, prop->line);
			ret = -1;
			break;
		}
	}
	return ret;
}

/* Whether a menu entry is shown; a symbol that is invisible itself but
 * has visible children counts as visible (and as set by the user). */
bool
menu_is_visible(struct kconfig *k, struct kc_menu *m)
{
	struct kc_menu	*child;
	struct kc_symbol *sym = m->sym;
	enum kc_tri	 visible;

	if (m->prompt == NULL)
		return false;
	if (m->visibility != NULL &&
	    expr_calc_value(k, m->visibility) == KC_NO)
		return false;
	if (sym != NULL) {
		sym_calc_value(k, sym);
		visible = m->prompt->visible.tri;
	} else {
		m->prompt->visible.tri = expr_calc_value(k,
		    m->prompt->visible.expr);
		visible = m->prompt->visible.tri;
	}
	if (visible != KC_NO)
		return true;
	if (sym == NULL || sym->curr_tri == KC_NO)
		return false;
	for (child = m->list; child != NULL; child = child->next) {
		if (menu_is_visible(k, child)) {
			sym->flags |= SYM_DEF_USER;
			return true;
		}
	}
	return false;
}

/* The text shown for an entry. */
const char *
menu_get_prompt(struct kc_menu *m)
{
	if (m->prompt != NULL)
		return m->prompt->text;
	if (m->sym != NULL)
		return m->sym->name;
	return NULL;
}

/* The entry after m in a depth-first walk of the tree, or NULL. */
struct kc_menu *
menu_next(struct kc_menu *m)
{
	if (m->list != NULL)
		return m->list;
	for (; m != NULL; m = m->parent) {
		if (m->next != NULL)
			return m->next;
	}
	return NULL;
}
