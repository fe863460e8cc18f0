/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expr.c - dependency expressions: building, evaluation and printing.
 *
 * Expressions are kept as written (plus the dependencies menu_finalize()
 * propagates); the kernel also rewrites them into simpler equivalent
 * forms, which changes nothing in their tristate value, so evaluation here
 * works on the unsimplified trees.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A leaf referring to one symbol. */
struct kc_expr *
expr_alloc_symbol(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_expr *e = arena_alloc(&k->arena, sizeof *e);

	e->type = E_SYMBOL;
	e->left.sym = sym;
	return e;
}

/* A unary node (E_NOT). */
struct kc_expr *
expr_alloc_one(struct kconfig *k, enum kc_expr_type type, struct kc_expr *ce)
{
	struct kc_expr *e = arena_alloc(&k->arena, sizeof *e);

	e->type = type;
	e->left.expr = ce;
	return e;
}

/* A binary logical node. */
struct kc_expr *
expr_alloc_two(struct kconfig *k, enum kc_expr_type type, struct kc_expr *e1,
    struct kc_expr *e2)
{
	struct kc_expr *e = arena_alloc(&k->arena, sizeof *e);

	e->type = type;
	e->left.expr = e1;
	e->right.expr = e2;
	return e;
}

/* A comparison between two symbols (or a range). */
struct kc_expr *
expr_alloc_comp(struct kconfig *k, enum kc_expr_type type, struct kc_symbol *s1,
    struct kc_symbol *s2)
{
	struct kc_expr *e = arena_alloc(&k->arena, sizeof *e);

	e->type = type;
	e->left.sym = s1;
	e->right.sym = s2;
	return e;
}

/* e1 && e2, where a missing side means "no condition". */
struct kc_expr *
expr_alloc_and(struct kconfig *k, struct kc_expr *e1, struct kc_expr *e2)
{
	if (e1 == NULL)
		return e2;
	return e2 != NULL ? expr_alloc_two(k, E_AND, e1, e2) : e1;
}

/* e1 || e2, where a missing side is dropped. */
struct kc_expr *
expr_alloc_or(struct kconfig *k, struct kc_expr *e1, struct kc_expr *e2)
{
	if (e1 == NULL)
		return e2;
	return e2 != NULL ? expr_alloc_two(k, E_OR, e1, e2) : e1;
}

/*
 * The test "e = n" ("e != n" when unequal), as conf builds it for the
 * condition of "depends on X if e" (7.0): the test goes down through the
 * operators, an && being n when either side is and an || when both are,
 * a negation turning = into != and back; a comparison is y or n already,
 * so it is kept or negated; a symbol becomes its comparison with n. The
 * shape matters beyond the value: "S = n" of a string symbol S is not
 * "!S".
 */
struct kc_expr *
expr_alloc_is_no(struct kconfig *k, struct kc_expr *e, bool unequal)
{
	struct kc_expr *l, *r, *res;

	switch (e->type) {
	case E_AND:
	case E_OR:
		l = expr_alloc_is_no(k, e->left.expr, false);
		r = expr_alloc_is_no(k, e->right.expr, false);
		res = expr_alloc_two(k, e->type == E_AND ? E_OR : E_AND, l, r);
		return unequal ? expr_alloc_one(k, E_NOT, res) : res;
	case E_NOT:
		return expr_alloc_is_no(k, e->left.expr, !unequal);
	case E_SYMBOL:
		return expr_alloc_comp(k, unequal ? E_UNEQUAL : E_EQUAL,
		    e->left.sym, &k->sym_no);
	default:
		return unequal ? e : expr_alloc_one(k, E_NOT, e);
	}
}

/*
 * Expressions are immutable once built, so sharing a subtree is safe and a
 * copy is only needed where a caller wants a distinct node; we still copy
 * to keep each property's tree its own (the TUI prints them separately).
 */
struct kc_expr *
expr_copy(struct kconfig *k, const struct kc_expr *org)
{
	struct kc_expr *e;

	if (org == NULL)
		return NULL;
	e = arena_alloc(&k->arena, sizeof *e);
	*e = *org;
	switch (org->type) {
	case E_NOT:
		e->left.expr = expr_copy(k, org->left.expr);
		break;
	case E_AND:
	case E_OR:
		e->left.expr = expr_copy(k, org->left.expr);
		e->right.expr = expr_copy(k, org->right.expr);
		break;
	default:
		break;
	}
	return e;
}

enum string_kind { K_STRING, K_SIGNED, K_UNSIGNED };

union string_value {
	long long		s;
	unsigned long long	u;
};

/* How a symbol's string value compares: as a number of its type's base,
 * or as a string when it does not parse as one. */
static enum string_kind
expr_parse_string(const char *str, enum kc_type type, union string_value *val)
{
	char		 *tail;
	enum string_kind  kind;

	errno = 0;
	switch (type) {
	case KC_BOOL:
	case KC_TRISTATE:
		val->s = strcmp(str, "n") == 0 ? 0 :
		    strcmp(str, "m") == 0 ? 1 :
		    strcmp(str, "y") == 0 ? 2 : -1;
		return K_SIGNED;
	case KC_INT:
		val->s = strtoll(str, &tail, 10);
		kind = K_SIGNED;
		break;
	case KC_HEX:
		val->u = strtoull(str, &tail, 16);
		kind = K_UNSIGNED;
		break;
	default:
		val->s = strtoll(str, &tail, 0);
		kind = K_SIGNED;
		break;
	}
	if (errno == 0 && *tail == '\0' && tail > str &&
	    isxdigit((unsigned char)tail[-1]))
		return kind;
	return K_STRING;
}

/* Evaluate a comparison node. */
static enum kc_tri
expr_calc_compare(struct kconfig *k, struct kc_expr *e)
{
	struct kc_symbol	*l = e->left.sym, *r = e->right.sym;
	const char		*s1, *s2;
	enum string_kind	 k1 = K_STRING, k2 = K_STRING;
	union string_value	 lv = { 0 }, rv = { 0 };
	int			 res;

	sym_calc_value(k, l);
	sym_calc_value(k, r);
	s1 = sym_get_string_value(l);
	s2 = sym_get_string_value(r);
	if (l->type != KC_STRING || r->type != KC_STRING) {
		k1 = expr_parse_string(s1, l->type, &lv);
		k2 = expr_parse_string(s2, r->type, &rv);
	}
	if (k1 == K_STRING || k2 == K_STRING)
		res = strcmp(s1, s2);
	else if (k1 == K_UNSIGNED || k2 == K_UNSIGNED)
		res = (lv.u > rv.u) - (lv.u < rv.u);
	else
		res = (lv.s > rv.s) - (lv.s < rv.s);

	switch (e->type) {
	case E_EQUAL:
		return res ? KC_NO : KC_YES;
	case E_GEQ:
		return res >= 0 ? KC_YES : KC_NO;
	case E_GTH:
		return res > 0 ? KC_YES : KC_NO;
	case E_LEQ:
		return res <= 0 ? KC_YES : KC_NO;
	case E_LTH:
		return res < 0 ? KC_YES : KC_NO;
	case E_UNEQUAL:
		return res ? KC_YES : KC_NO;
	default:
		return KC_NO;
	}
}

/* The tristate value of an expression; no expression means y. */
enum kc_tri
expr_calc_value(struct kconfig *k, struct kc_expr *e)
{
	enum kc_tri v1, v2;

	if (e == NULL)
		return KC_YES;
	switch (e->type) {
	case E_SYMBOL:
		sym_calc_value(k, e->left.sym);
		return e->left.sym->curr_tri;
	/* Values are computed on demand (sym_calc_value), so a side that
	 * can't change the result need not be evaluated: n && x, y || x. */
	case E_AND:
		if ((v1 = expr_calc_value(k, e->left.expr)) == KC_NO)
			return KC_NO;
		v2 = expr_calc_value(k, e->right.expr);
		return EXPR_AND(v1, v2);
	case E_OR:
		if ((v1 = expr_calc_value(k, e->left.expr)) == KC_YES)
			return KC_YES;
		v2 = expr_calc_value(k, e->right.expr);
		return EXPR_OR(v1, v2);
	case E_NOT:
		return EXPR_NOT(expr_calc_value(k, e->left.expr));
	case E_EQUAL:
	case E_UNEQUAL:
	case E_LTH:
	case E_LEQ:
	case E_GTH:
	case E_GEQ:
		return expr_calc_compare(k, e);
	default:
		return KC_NO;
	}
}

/* Whether sym appears anywhere in e. */
bool
expr_contains_symbol(struct kc_expr *e, struct kc_symbol *sym)
{
	if (e == NULL)
		return false;
	switch (e->type) {
	case E_AND:
	case E_OR:
		return expr_contains_symbol(e->left.expr, sym) ||
		    expr_contains_symbol(e->right.expr, sym);
	case E_SYMBOL:
		return e->left.sym == sym;
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		return e->left.sym == sym || e->right.sym == sym;
	case E_NOT:
		return expr_contains_symbol(e->left.expr, sym);
	default:
		return false;
	}
}

/* Whether the OR chain e has the term !x (x a symbol). */
static bool
expr_or_has_not(const struct kc_expr *e, const struct kc_symbol *x)
{
	if (e->type == E_OR)
		return expr_or_has_not(e->left.expr, x) ||
		    expr_or_has_not(e->right.expr, x);
	return e->type == E_NOT && e->left.expr->type == E_SYMBOL &&
	    e->left.expr->left.sym == x;
}

/* Whether some term of the OR chain t is a bool x whose !x is a term of
 * the whole chain root too. */
static bool
expr_or_tautology(const struct kc_expr *root, const struct kc_expr *t)
{
	if (t->type == E_OR)
		return expr_or_tautology(root, t->left.expr) ||
		    expr_or_tautology(root, t->right.expr);
	return t->type == E_SYMBOL && t->left.sym->type == KC_BOOL &&
	    expr_or_has_not(root, t->left.sym);
}

/* Whether a dependency is none at all: absent, or plain y. */
bool
expr_is_yes(struct kconfig *k, const struct kc_expr *e)
{
	return e == NULL || (e->type == E_SYMBOL && e->left.sym == &k->sym_yes);
}

/* expr_fold_tautologies() on a node. */
static void
expr_fold_in(struct kconfig *k, struct kc_expr *e)
{
	struct kc_expr	*l, *r;

	switch (e->type) {
	case E_OR:
		if (expr_or_tautology(e, e)) {
			e->type = E_SYMBOL;
			e->left.sym = &k->sym_yes;
			e->right.sym = NULL;
			return;
		}
		expr_fold_in(k, e->left.expr);
		expr_fold_in(k, e->right.expr);
		return;
	case E_AND:
		l = e->left.expr;
		r = e->right.expr;
		expr_fold_in(k, l);
		expr_fold_in(k, r);
		if (expr_is_yes(k, l))
			*e = *r;
		else if (expr_is_yes(k, r))
			*e = *l;
		return;
	case E_NOT:
		expr_fold_in(k, e->left.expr);
		return;
	default:
		return;
	}
}

/*
 * Make every "x || !x" of a bool x in e the constant y, and drop it from
 * the && around it, in place (the value is the same wherever a node is
 * shared), as conf's expr_eliminate_dups() does to a menu's dependencies
 * before it builds implicit submenus, checks for recursive dependencies
 * and shows them: an entry after B that "depends on B || !B" is no child
 * of B, and no dependency on it. (6.12 has this with bool THERMAL and
 * NVMEM, "depends on THERMAL || !THERMAL".) Returns e, or NULL when all
 * of it folded to y.
 */
struct kc_expr *
expr_fold_tautologies(struct kconfig *k, struct kc_expr *e)
{
	if (e != NULL)
		expr_fold_in(k, e);
	return expr_is_yes(k, e) ? NULL : e;
}

/* Whether e can only be true when sym is (sym, sym=y, sym=m, sym!=n as a
 * conjunct): the test for putting an entry in sym's implicit submenu. */
bool
expr_depends_symbol(struct kc_expr *e, struct kc_symbol *sym)
{
	if (e == NULL)
		return false;
	switch (e->type) {
	case E_AND:
		return expr_depends_symbol(e->left.expr, sym) ||
		    expr_depends_symbol(e->right.expr, sym);
	case E_SYMBOL:
		return e->left.sym == sym;
	case E_EQUAL:
		if (e->left.sym == sym) {
			const char *n = e->right.sym->name;

			if (n != NULL && (strcmp(n, "y") == 0 ||
			    strcmp(n, "m") == 0))
				return true;
		}
		return false;
	case E_UNEQUAL:
		if (e->left.sym == sym) {
			const char *n = e->right.sym->name;

			if (n != NULL && strcmp(n, "n") == 0)
				return true;
		}
		return false;
	default:
		return false;
	}
}

/* Operator precedence for printing with minimal parentheses. */
static int
expr_prec(enum kc_expr_type t)
{
	switch (t) {
	case E_OR:
		return 1;
	case E_AND:
		return 2;
	case E_NOT:
		return 4;
	case E_SYMBOL:
		return 5;
	default:
		return 3;
	}
}

/* Append a symbol's name, quoted when it is a constant string. */
static void
expr_print_sym(struct kc_symbol *sym, struct strbuf *sb)
{
	if (sym->name == NULL)
		strbuf_adds(sb, "<choice>");
	else if ((sym->flags & SYM_CONST) && sym->name[0] != '\0' &&
	    !(sym->name[1] == '\0' && strchr("ynm", sym->name[0]) != NULL))
		strbuf_addf(sb, "\"%s\"", sym->name);
	else if (sym->flags & SYM_CONST)
		strbuf_adds(sb, sym->name[0] ? sym->name : "\"\"");
	else
		strbuf_adds(sb, sym->name);
}

/* Print an expression in Kconfig syntax. prevtoken is the precedence of
 * the enclosing operator (0 at the top). */
void
expr_print(struct kc_expr *e, struct strbuf *sb, int prevtoken)
{
	static const char *ops[] = {
		[E_EQUAL] = "=", [E_UNEQUAL] = "!=", [E_LTH] = "<",
		[E_LEQ] = "<=", [E_GTH] = ">", [E_GEQ] = ">=",
	};
	int prec;

	if (e == NULL) {
		strbuf_adds(sb, "y");
		return;
	}
	prec = expr_prec(e->type);
	if (prec < prevtoken)
		strbuf_addc(sb, '(');
	switch (e->type) {
	case E_SYMBOL:
		expr_print_sym(e->left.sym, sb);
		break;
	case E_NOT:
		strbuf_addc(sb, '!');
		expr_print(e->left.expr, sb, prec);
		break;
	case E_EQUAL:
	case E_UNEQUAL:
	case E_LTH:
	case E_LEQ:
	case E_GTH:
	case E_GEQ:
		expr_print_sym(e->left.sym, sb);
		strbuf_adds(sb, ops[e->type]);
		expr_print_sym(e->right.sym, sb);
		break;
	case E_OR:
		expr_print(e->left.expr, sb, prec);
		strbuf_adds(sb, " || ");
		expr_print(e->right.expr, sb, prec);
		break;
	case E_AND:
		expr_print(e->left.expr, sb, prec);
		strbuf_adds(sb, " && ");
		expr_print(e->right.expr, sb, prec);
		break;
	case E_RANGE:
		strbuf_addc(sb, '[');
		expr_print_sym(e->left.sym, sb);
		strbuf_addc(sb, ' ');
		expr_print_sym(e->right.sym, sb);
		strbuf_addc(sb, ']');
		break;
	default:
		strbuf_adds(sb, "<unknown>");
		break;
	}
	if (prec < prevtoken)
		strbuf_addc(sb, ')');
}
