/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain-expr.c - a false condition in words: the expression tree walked
 * to name the one or two symbols a user would change (the false
 * conjuncts of an AND, the cheapest alternative of an OR, "X is y" for a
 * false NOT X), and the symbol to blame. explain.c makes the sentences.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "explain-int.h"
#include "explain.h"

/* ------------------------------------------------------------------ */
/* Expressions in words. */

/* Collect the operands of nested ops of one kind (a && b && c). */
void
ex_flatten(const struct kc_expr *e, enum kc_expr_op op,
    const struct kc_expr ***v, size_t *n)
{
	if (e != NULL && kc_expr_op(e) == op) {
		ex_flatten(kc_expr_left(e), op, v, n);
		ex_flatten(kc_expr_right(e), op, v, n);
		return;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = e;
}

static int ex_cost_high(struct kconfig *, const struct kc_expr *,
    enum kc_tri);

/* How many symbols a user must change for e >= want (a guess used to
 * pick the cheapest alternative of an OR). */
static int
ex_cost_low(struct kconfig *k, const struct kc_expr *e, enum kc_tri want)
{
	struct kc_symbol	*s;
	int			 a, b;

	if (kc_expr_eval(k, e) >= want)
		return 0;
	switch (kc_expr_op(e)) {
	case KC_EXPR_SYMBOL:
		s = kc_expr_sym(e);
		return explain_has_prompt(s) ? 1 : EX_COST_FIXED;
	case KC_EXPR_NOT:
		return ex_cost_high(k, kc_expr_left(e), (enum kc_tri)(2 - want));
	case KC_EXPR_AND:
		return ex_cost_low(k, kc_expr_left(e), want) +
		    ex_cost_low(k, kc_expr_right(e), want);
	case KC_EXPR_OR:
		a = ex_cost_low(k, kc_expr_left(e), want);
		b = ex_cost_low(k, kc_expr_right(e), want);
		return a < b ? a : b;
	default:
		s = kc_expr_sym(e);
		return s != NULL && explain_has_prompt(s) ? 1 : EX_COST_FIXED;
	}
}

/* The same for e <= lim. */
static int
ex_cost_high(struct kconfig *k, const struct kc_expr *e, enum kc_tri lim)
{
	struct kc_symbol	*s;
	int			 a, b;

	if (kc_expr_eval(k, e) <= lim)
		return 0;
	switch (kc_expr_op(e)) {
	case KC_EXPR_SYMBOL:
		s = kc_expr_sym(e);
		return explain_has_prompt(s) ? 1 : EX_COST_FIXED;
	case KC_EXPR_NOT:
		return ex_cost_low(k, kc_expr_left(e), (enum kc_tri)(2 - lim));
	case KC_EXPR_AND:
		a = ex_cost_high(k, kc_expr_left(e), lim);
		b = ex_cost_high(k, kc_expr_right(e), lim);
		return a < b ? a : b;
	case KC_EXPR_OR:
		return ex_cost_high(k, kc_expr_left(e), lim) +
		    ex_cost_high(k, kc_expr_right(e), lim);
	default:
		s = kc_expr_sym(e);
		return s != NULL && explain_has_prompt(s) ? 1 : EX_COST_FIXED;
	}
}

/* "B" for a constant, "B (5)" for a symbol compared against. */
static void
ex_operand(struct kconfig *k, struct strbuf *sb, struct kc_symbol *s)
{
	if (kc_sym_is_const(s))
		strbuf_addf(sb, "%s", kc_sym_name(s));
	else
		strbuf_addf(sb, "%s (%s)", ex_name(s), ex_value(k, s));
}

/* A comparison in words, as it holds (truth) or not. */
static void
ex_compare(struct kconfig *k, const struct kc_expr *e, bool truth,
    struct strbuf *sb)
{
	struct kc_symbol	*a = kc_expr_sym(e), *b = kc_expr_sym2(e);
	const char		*rel;

	switch (kc_expr_op(e)) {
	case KC_EXPR_EQUAL:
		rel = truth ? "" : "not ";
		break;
	case KC_EXPR_UNEQUAL:
		rel = truth ? "not " : "";
		break;
	case KC_EXPR_LTH:
		rel = truth ? "below " : "not below ";
		break;
	case KC_EXPR_LEQ:
		rel = truth ? "not above " : "above ";
		break;
	case KC_EXPR_GTH:
		rel = truth ? "above " : "not above ";
		break;
	case KC_EXPR_GEQ:
		rel = truth ? "at least " : "below ";
		break;
	default:
		rel = "";
		break;
	}
	/* "X is y" reads better than "X is y, y". */
	if (*rel == '\0') {
		strbuf_addf(sb, "%s is %s", ex_name(a), ex_value(k, a));
		return;
	}
	strbuf_addf(sb, "%s is %s, %s", ex_name(a), ex_value(k, a), rel);
	ex_operand(k, sb, b);
}

/* A symbol leaf: "PCI is n", or why it can't be otherwise. */
static void
ex_leaf(struct kconfig *k, struct kc_symbol *s, struct strbuf *sb)
{
	if (kc_sym_is_const(s)) {
		strbuf_addf(sb, "the condition is the constant %s",
		    kc_sym_name(s));
		return;
	}
	if (!ex_is_defined(s)) {
		strbuf_addf(sb, "%s is not defined for this architecture",
		    ex_name(s));
		return;
	}
	strbuf_addf(sb, "%s is %s", ex_name(s), ex_value(k, s));
}

/*
 * The "or"s an explanation names one alternative of (the cheapest to
 * change): how many, and the most others one had. The note that the
 * others do not hold either is said inline after the alternative when
 * there is one "or", once at the end when there are several (Debian's
 * MLX5_CORE: "VXLAN || !VXLAN" three times over would say it thrice).
 */
struct ex_alts {
	size_t	n;		/* "or"s cut to one alternative */
	size_t	others;		/* the most alternatives left unnamed */
	bool	inline_note;	/* say it after the alternative */
};

static void ex_high(struct kconfig *, const struct kc_expr *, enum kc_tri,
    struct strbuf *, struct ex_alts *);

/* Join the phrases of a list of operands: "A, B and C". */
static void
ex_join(struct kconfig *k, const struct kc_expr **v, size_t n, bool low,
    enum kc_tri t, struct strbuf *sb, struct ex_alts *alts);

/* That the alternatives not named do not hold either: others of one
 * "or", or of each of several (n). */
static void
ex_alts_note(struct strbuf *sb, size_t n, size_t others)
{
	if (n > 1)
		strbuf_adds(sb, others == 1 ? " (and in each, the other "
		    "alternative does not hold either)" : " (and in each, none "
		    "of the other alternatives holds)");
	else if (others == 1)
		strbuf_adds(sb, " (and the other alternative does not hold "
		    "either)");
	else
		strbuf_addf(sb, " (and none of the other %zu alternatives "
		    "holds)", others);
}

/* Why e < want. */
static void
ex_low(struct kconfig *k, const struct kc_expr *e, enum kc_tri want,
    struct strbuf *sb, struct ex_alts *alts)
{
	const struct kc_expr	**v = NULL, **bad = NULL, *best = NULL;
	size_t			  n = 0, nbad = 0, i;
	int			  c, bestc = 0;

	if (kc_expr_eval(k, e) >= want)
		return;
	switch (kc_expr_op(e)) {
	case KC_EXPR_NONE:
		break;
	case KC_EXPR_SYMBOL:
		ex_leaf(k, kc_expr_sym(e), sb);
		break;
	case KC_EXPR_NOT:
		ex_high(k, kc_expr_left(e), (enum kc_tri)(2 - want), sb,
		    alts);
		break;
	case KC_EXPR_AND:
		ex_flatten(e, KC_EXPR_AND, &v, &n);
		for (i = 0; i < n; i++) {
			if (kc_expr_eval(k, v[i]) >= want)
				continue;
			bad = xrealloc(bad, (nbad + 1) * sizeof *bad);
			bad[nbad++] = v[i];
		}
		ex_join(k, bad, nbad, true, want, sb, alts);
		break;
	case KC_EXPR_OR:
		/* Every alternative is false: name the cheapest. */
		ex_flatten(e, KC_EXPR_OR, &v, &n);
		for (i = 0; i < n; i++) {
			c = ex_cost_low(k, v[i], want);
			if (best == NULL || c < bestc) {
				best = v[i];
				bestc = c;
			}
		}
		ex_low(k, best, want, sb, alts);
		if (n > 1) {
			alts->n++;
			if (n - 1 > alts->others)
				alts->others = n - 1;
			if (alts->inline_note)
				ex_alts_note(sb, 1, n - 1);
		}
		break;
	default:
		ex_compare(k, e, false, sb);
		break;
	}
	free(v);
	free(bad);
}

/* Why e > lim (what makes a negated condition fail). */
static void
ex_high(struct kconfig *k, const struct kc_expr *e, enum kc_tri lim,
    struct strbuf *sb, struct ex_alts *alts)
{
	const struct kc_expr	**v = NULL, **bad = NULL;
	size_t			  n = 0, nbad = 0, i;

	if (kc_expr_eval(k, e) <= lim)
		return;
	switch (kc_expr_op(e)) {
	case KC_EXPR_NONE:
		strbuf_adds(sb, "the condition is always true");
		break;
	case KC_EXPR_SYMBOL:
		ex_leaf(k, kc_expr_sym(e), sb);
		break;
	case KC_EXPR_NOT:
		ex_low(k, kc_expr_left(e), (enum kc_tri)(2 - lim), sb, alts);
		break;
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		ex_flatten(e, kc_expr_op(e), &v, &n);
		for (i = 0; i < n; i++) {
			if (kc_expr_eval(k, v[i]) <= lim)
				continue;
			bad = xrealloc(bad, (nbad + 1) * sizeof *bad);
			bad[nbad++] = v[i];
		}
		ex_join(k, bad, nbad, false, lim, sb, alts);
		break;
	default:
		ex_compare(k, e, true, sb);
		break;
	}
	free(v);
	free(bad);
}

/* Join the phrases for a list of operands, "A, B and C", at most
 * EX_LIST_MAX of them then "and N more"; low says why each is below t
 * (ex_low), else why each is above it (ex_high). */
static void
ex_join(struct kconfig *k, const struct kc_expr **v, size_t n, bool low,
    enum kc_tri t, struct strbuf *sb, struct ex_alts *alts)
{
	size_t i;

	for (i = 0; i < n && i < EX_LIST_MAX; i++) {
		if (i > 0)
			strbuf_adds(sb, i + 1 == n ? " and " : ", ");
		if (low)
			ex_low(k, v[i], t, sb, alts);
		else
			ex_high(k, v[i], t, sb, alts);
	}
	if (n > EX_LIST_MAX)
		strbuf_addf(sb, " and %zu more", n - EX_LIST_MAX);
}

/* Why e is below want, naming the symbols to change; malloc'd, ""
 * when e already has the value. Also used by enable.c's refusals. */
char *
explain_why_low(struct kconfig *k, const struct kc_expr *e, enum kc_tri want)
{
	struct strbuf	sb;
	struct ex_alts	alts;

	/* One "or" gets its note where it is; several, one note at the
	 * end: the first pass counts them. */
	strbuf_init(&sb);
	memset(&alts, 0, sizeof alts);
	ex_low(k, e, want, &sb, &alts);
	if (alts.n == 1) {
		strbuf_reset(&sb);
		memset(&alts, 0, sizeof alts);
		alts.inline_note = true;
		ex_low(k, e, want, &sb, &alts);
	} else if (alts.n > 1)
		ex_alts_note(&sb, alts.n, alts.others);
	return strbuf_detach(&sb);
}

/* The first symbol a false condition names, and whether it is named
 * for being on (a conflict). */
struct kc_symbol *
ex_culprit(struct kconfig *k, const struct kc_expr *e, enum kc_tri want,
    bool low, bool *neg)
{
	struct kc_symbol *s;

	if (low ? kc_expr_eval(k, e) >= want : kc_expr_eval(k, e) <= want)
		return NULL;
	switch (kc_expr_op(e)) {
	case KC_EXPR_NONE:
		return NULL;
	case KC_EXPR_NOT:
		return ex_culprit(k, kc_expr_left(e),
		    (enum kc_tri)(2 - want), !low, neg);
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		if ((s = ex_culprit(k, kc_expr_left(e), want, low, neg)))
			return s;
		return ex_culprit(k, kc_expr_right(e), want, low, neg);
	default:
		s = kc_expr_sym(e);
		if (s == NULL || kc_sym_is_const(s))
			return NULL;
		/* Found through a NOT (or a failed !=): a conflict. */
		*neg = !low;
		return s;
	}
}

/* The first symbol a false condition names (to jump to). */
struct kc_symbol *
ex_first_culprit(struct kconfig *k, const struct kc_expr *e, enum kc_tri want,
    bool low)
{
	bool neg = false;

	return ex_culprit(k, e, want, low, &neg);
}

/* The false conjuncts of e, as text, into sb. */
static void
ex_false_part(struct kconfig *k, const struct kc_expr *e, struct strbuf *sb)
{
	char *s;

	if (kc_expr_eval(k, e) != KC_NO)
		return;
	if (kc_expr_op(e) == KC_EXPR_AND) {
		ex_false_part(k, kc_expr_left(e), sb);
		ex_false_part(k, kc_expr_right(e), sb);
		return;
	}
	s = kc_expr_str(e);
	if (sb->len > 0)
		strbuf_adds(sb, " && ");
	/* Joined with &&: an || keeps its parentheses. */
	if (kc_expr_op(e) == KC_EXPR_OR)
		strbuf_addf(sb, "(%s)", s);
	else
		strbuf_adds(sb, s);
	free(s);
}

/* Why a menu entry is not shown (see explain.h). */
char *
explain_hidden(struct kconfig *k, struct kc_menu *m)
{
	struct strbuf		 sb;
	struct kc_symbol	*s = kc_menu_sym(m);

	if (kc_menu_is_visible(k, m))
		return NULL;
	strbuf_init(&sb);
	ex_false_part(k, kc_menu_depends(m), &sb);
	if (sb.len == 0 && kc_menu_visible_if(m) != NULL) {
		ex_false_part(k, kc_menu_visible_if(m), &sb);
		if (sb.len > 0) {
			char *r = xasprintf("visible if %s", sb.s);
			strbuf_free(&sb);
			return r;
		}
	}
	if (sb.len == 0)
		ex_false_part(k, kc_menu_prompt_cond(m), &sb);
	if (sb.len > 0) {
		char *r = xasprintf("depends on %s", sb.s);
		strbuf_free(&sb);
		return r;
	}
	strbuf_free(&sb);
	if (s != NULL && kc_menu_prompt(m) == NULL)
		return xstrdup("has no prompt");
	if (kc_menu_kind(m) == KC_MENU_MENU || kc_menu_kind(m) == KC_MENU_CHOICE)
		return xstrdup("nothing visible inside");
	return xstrdup("not visible");
}

/* ------------------------------------------------------------------ */
/* Expressions as menuconfig's help shows them. */

/* The binding of an operator: || below &&, below the rest (a symbol, a
 * comparison, a negation), as the kernel's expr_print orders them. */
static int
ex_values_prec(const struct kc_expr *e)
{
	switch (kc_expr_op(e)) {
	case KC_EXPR_OR:
		return 1;
	case KC_EXPR_AND:
		return 2;
	case KC_EXPR_NOT:
		return 3;
	default:
		return 4;
	}
}

/* A symbol of an expression: a constant as written ("y", "64", "\"s\""),
 * a symbol of no type (one this architecture never defines, S390 on
 * x86) by its name alone, any other with its value ("BLOCK [=y]"). */
static void
ex_values_sym(struct kconfig *k, struct kc_symbol *s, struct strbuf *sb)
{
	const char *name = kc_sym_name(s);

	if (name == NULL) {
		strbuf_adds(sb, "<choice>");
		return;
	}
	if (kc_sym_is_const(s)) {
		if (strcmp(name, "y") == 0 || strcmp(name, "m") == 0 ||
		    strcmp(name, "n") == 0 || (*name >= '0' && *name <= '9') ||
		    *name == '-')
			strbuf_adds(sb, name);
		else
			strbuf_addf(sb, "\"%s\"", name);
		return;
	}
	if (kc_sym_type(s) == KC_UNKNOWN)
		strbuf_adds(sb, name);
	else
		strbuf_addf(sb, "%s [=%s]", name, kc_sym_string(k, s));
}

/* explain_expr_values below an operator of binding prec. */
static void
ex_values(struct kconfig *k, const struct kc_expr *e, struct strbuf *sb,
    int prec)
{
	static const char *const cmp[] = {
		[KC_EXPR_EQUAL] = "=", [KC_EXPR_UNEQUAL] = "!=",
		[KC_EXPR_LTH] = "<", [KC_EXPR_LEQ] = "<=",
		[KC_EXPR_GTH] = ">", [KC_EXPR_GEQ] = ">="
	};
	enum kc_expr_op	 op;
	int		 my;
	char		*str;

	if (e == NULL) {
		strbuf_adds(sb, "y");
		return;
	}
	op = kc_expr_op(e);
	my = ex_values_prec(e);
	if (my < prec)
		strbuf_addc(sb, '(');
	switch (op) {
	case KC_EXPR_NONE:
		strbuf_adds(sb, "y");
		break;
	case KC_EXPR_OR:
	case KC_EXPR_AND:
		/* associative: a chain of one operator needs none */
		ex_values(k, kc_expr_left(e), sb, my);
		strbuf_adds(sb, op == KC_EXPR_OR ? " || " : " && ");
		ex_values(k, kc_expr_right(e), sb, my);
		break;
	case KC_EXPR_NOT:
		/* "!S390", "!X86_32 [=n]", "!(A [=y] && B [=n])": the
		 * parentheses only around what binds looser than "!" */
		strbuf_addc(sb, '!');
		ex_values(k, kc_expr_left(e), sb, my);
		break;
	case KC_EXPR_SYMBOL:
		ex_values_sym(k, kc_expr_sym(e), sb);
		break;
	case KC_EXPR_EQUAL:
	case KC_EXPR_UNEQUAL:
	case KC_EXPR_LTH:
	case KC_EXPR_LEQ:
	case KC_EXPR_GTH:
	case KC_EXPR_GEQ:
		ex_values_sym(k, kc_expr_sym(e), sb);
		strbuf_adds(sb, cmp[op]);
		ex_values_sym(k, kc_expr_sym2(e), sb);
		break;
	default:
		str = kc_expr_str(e);
		strbuf_adds(sb, str);
		free(str);
		break;
	}
	if (my < prec)
		strbuf_addc(sb, ')');
}

/* An expression with its symbols' values, as menuconfig's help prints
 * it (see explain.h). */
void
explain_expr_values(struct kconfig *k, const struct kc_expr *e,
    struct strbuf *sb)
{
	ex_values(k, e, sb, 0);
}
