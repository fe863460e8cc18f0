/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.c - recursive dependency detection, reported as conf reports it:
 * the cycle with the property behind each step.
 */
#include <string.h>

#include "internal.h"

struct dep_stack {
	struct dep_stack	 *prev, *next;
	struct kc_symbol	 *sym;
	struct kc_prop		 *prop;
	struct kc_expr		**expr;
};

struct checker {
	struct kconfig		*k;
	struct dep_stack	*top;
};

static struct kc_symbol *check_sym(struct checker *, struct kc_symbol *);

/* Push a frame for sym. */
static void
stack_push(struct checker *c, struct dep_stack *s, struct kc_symbol *sym)
{
	memset(s, 0, sizeof *s);
	if (c->top != NULL)
		c->top->next = s;
	s->prev = c->top;
	s->sym = sym;
	c->top = s;
}

/* Pop the top frame. */
static void
stack_pop(struct checker *c)
{
	c->top = c->top->prev;
	if (c->top != NULL)
		c->top->next = NULL;
}

/* A symbol's name for the cycle report; "<choice>" for an unnamed one. */
static const char *
sname(struct kc_symbol *s)
{
	return s->name != NULL ? s->name : "<choice>";
}

/* Print the cycle that ends at last. */
static void
check_print(struct checker *c, struct kc_symbol *last)
{
	struct kconfig		*k = c->k;
	struct dep_stack	*s, cv;
	struct kc_symbol	*sym, *next;
	struct kc_prop		*prop;
	struct kc_menu		*m = NULL;
	bool			 pushed = false;

	if (sym_is_choice_value(last)) {
		stack_push(c, &cv, last);
		pushed = true;
		last = last->choice;
	}
	for (s = c->top; s != NULL; s = s->prev) {
		if (s->sym == last)
			break;
	}
	if (s == NULL) {
		kc_error(k, "unexpected recursive dependency error");
		goto out;
	}
	for (; s != NULL; s = s->next) {
		sym = s->sym;
		next = s->next != NULL ? s->next->sym : last;
		prop = s->prop != NULL ? s->prop : sym->prop;
		if (sym_is_choice(sym) || sym_is_choice_value(sym)) {
			for (prop = sym->prop; prop != NULL; prop = prop->next) {
				m = prop->menu;
				if (m != NULL)
					break;
			}
		}
		if (prop == NULL)
			continue;
		if (s->sym == last)
			kc_error(k, "%s:%d:error: recursive dependency detected!",
			    prop->file, prop->line);
		if (sym_is_choice(sym) && m != NULL)
			kc_error(k, "%s:%d:\tchoice %s contains symbol %s",
			    m->file, m->line, sname(sym), sname(next));
		else if (sym_is_choice_value(sym) && m != NULL)
			kc_error(k, "%s:%d:\tsymbol %s is part of choice %s",
			    m->file, m->line, sname(sym), sname(next));
		else if (s->expr == &sym->dir_dep.expr)
			kc_error(k, "%s:%d:\tsymbol %s depends on %s",
			    prop->file, prop->line, sname(sym), sname(next));
		else if (s->expr == &sym->rev_dep.expr)
			kc_error(k, "%s:%d:\tsymbol %s is selected by %s",
			    prop->file, prop->line, sname(sym), sname(next));
		else if (s->expr == &sym->implied.expr)
			kc_error(k, "%s:%d:\tsymbol %s is implied by %s",
			    prop->file, prop->line, sname(sym), sname(next));
		else if (s->expr != NULL)
			kc_error(k, "%s:%d:\tsymbol %s %s value contains %s",
			    prop->file, prop->line, sname(sym),
			    prop_type_name(prop->type), sname(next));
		else
			kc_error(k, "%s:%d:\tsymbol %s %s is visible depending "
			    "on %s", prop->file, prop->line, sname(sym),
			    prop_type_name(prop->type), sname(next));
	}
	kc_error(k, "For a resolution refer to "
	    "Documentation/kbuild/kconfig-language.rst");
	kc_error(k, "subsection \"Kconfig recursive dependency limitations\"");
out:
	if (pushed)
		stack_pop(c);
}

/* Check every symbol an expression refers to. */
static struct kc_symbol *
check_expr(struct checker *c, struct kc_expr *e)
{
	struct kc_symbol *s;

	if (e == NULL)
		return NULL;
	switch (e->type) {
	case E_OR:
	case E_AND:
		if ((s = check_expr(c, e->left.expr)) != NULL)
			return s;
		return check_expr(c, e->right.expr);
	case E_NOT:
		return check_expr(c, e->left.expr);
	case E_SYMBOL:
		return check_sym(c, e->left.sym);
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		if ((s = check_sym(c, e->left.sym)) != NULL)
			return s;
		return check_sym(c, e->right.sym);
	default:
		return NULL;
	}
}

/* Check what a symbol's value depends on. */
static struct kc_symbol *
check_sym_deps(struct checker *c, struct kc_symbol *sym)
{
	struct dep_stack	 stack;
	struct kc_symbol	*s2;
	struct kc_prop		*prop;

	stack_push(c, &stack, sym);
	stack.expr = &sym->dir_dep.expr;
	if ((s2 = check_expr(c, sym->dir_dep.expr)) != NULL)
		goto out;
	stack.expr = &sym->rev_dep.expr;
	if ((s2 = check_expr(c, sym->rev_dep.expr)) != NULL)
		goto out;
	stack.expr = &sym->implied.expr;
	if ((s2 = check_expr(c, sym->implied.expr)) != NULL)
		goto out;
	stack.expr = NULL;
	for (prop = sym->prop; prop != NULL; prop = prop->next) {
		if (prop->type == P_CHOICE || prop->type == P_SELECT ||
		    prop->type == P_IMPLY)
			continue;
		stack.prop = prop;
		if ((s2 = check_expr(c, prop->visible.expr)) != NULL)
			break;
		if (prop->type != P_DEFAULT || sym_is_choice(sym))
			continue;
		stack.expr = &prop->expr;
		if ((s2 = check_expr(c, prop->expr)) != NULL)
			break;
		stack.expr = NULL;
	}
out:
	stack_pop(c);
	return s2;
}

/* Check a choice and all its values as one unit. */
static struct kc_symbol *
check_choice_deps(struct checker *c, struct kc_symbol *cs)
{
	struct dep_stack	 stack;
	struct kc_symbol	*s2;
	int			 i;

	stack_push(c, &stack, cs);
	for (i = 0; i < cs->nvalues; i++)
		cs->values[i]->flags |= SYM_CHECK | SYM_CHECKED;
	cs->flags |= SYM_CHECK | SYM_CHECKED;
	s2 = check_sym_deps(c, cs);
	cs->flags &= ~SYM_CHECK;
	if (s2 == NULL) {
		for (i = 0; i < cs->nvalues; i++) {
			if ((s2 = check_sym_deps(c, cs->values[i])) != NULL)
				break;
		}
	}
	for (i = 0; i < cs->nvalues; i++)
		cs->values[i]->flags &= ~SYM_CHECK;
	if (s2 != NULL && sym_is_choice_value(s2) && s2->choice == cs)
		s2 = cs;
	stack_pop(c);
	return s2;
}

/* Depth-first check from one symbol; the symbol closing a cycle, or NULL. */
static struct kc_symbol *
check_sym(struct checker *c, struct kc_symbol *sym)
{
	struct dep_stack	 stack;
	struct kc_symbol	*s2;

	if (sym->flags & SYM_CHECK) {
		check_print(c, sym);
		return sym;
	}
	if (sym->flags & SYM_CHECKED)
		return NULL;
	if (sym_is_choice_value(sym)) {
		stack_push(c, &stack, sym);
		s2 = check_sym(c, sym->choice);
		stack_pop(c);
	} else if (sym_is_choice(sym))
		s2 = check_choice_deps(c, sym);
	else {
		sym->flags |= SYM_CHECK | SYM_CHECKED;
		s2 = check_sym_deps(c, sym);
		sym->flags &= ~SYM_CHECK;
	}
	return s2;
}

/* Check every symbol, in conf's order; the number of cycles found. */
int
sym_check_all_deps(struct kconfig *k)
{
	struct checker		  c = { k, NULL };
	struct kc_symbol	**order;
	int			  i, n, errors = 0;

	order = sym_kernel_order(k, &n);
	for (i = 0; i < n; i++) {
		if (check_sym(&c, order[i]) != NULL)
			errors++;
	}
	return errors;
}
