/* SPDX-License-Identifier: GPL-2.0 */
/*
 * enable.c - plan the changes that let a symbol take a value.
 *
 * A recursive solver over the expression trees: "make e >= v" and "make e
 * <= v", where an AND needs both sides, an OR its cheapest side (fewest
 * changes), a NOT flips the direction, and a symbol is reached either
 * through its prompt (make the prompt's condition hold, then set it) or,
 * without a prompt, through what computes it (a select of it, its first
 * active default, an imply). A symbol that a select holds up can only be
 * lowered by switching the selects off. Results are memoized per
 * (symbol, direction, value) and the depth is bounded. The plan is then
 * applied on a saved copy of the values and checked with the engine: a
 * change may hide or reveal another condition, so the solver runs again
 * from the new state until the target has the value or no progress is
 * made; steps that turn out unneeded are dropped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enable.h"
#include "explain.h"
#include "../../lib/util.h"

#define EN_DEPTH	32	/* symbols deep */
#define EN_NODES	200000	/* symbol expansions per search */
#define EN_ROUNDS	6	/* plan, apply, re-plan */
#define EN_FAIL		1000000	/* the cost of no plan */

enum en_dir { EN_GE, EN_LE };

/* How the symbol a condition belongs to relates to a symbol in it. */
enum en_rel {
	REL_DEPENDS,	/* needer's prompt depends on the leaf */
	REL_SELECTED,	/* leaf selects the (promptless) needer */
	REL_DEFAULT,	/* needer's default depends on the leaf */
	REL_DEFAULT_DOWN, /* the same, the needer to go down */
	REL_IMPLIED,	/* leaf implies the needer */
	REL_UNSELECT,	/* needer must go down: leaf selects it */
	REL_MODULES,	/* needer is to be m */
	REL_CHOICE	/* leaf is another value of needer's choice */
};

struct en_why {
	struct kc_symbol	*needer;
	enum en_rel		 rel;
};

struct en_step {
	struct kc_symbol	*sym;
	enum kc_tri		 value;
	char			*reason;	/* NULL: the caller's to say */
	char			*via;		/* promptless links on the way */
};

struct en_res {
	bool		 ok;
	struct en_step	*steps;
	size_t		 n;
	char		*why;		/* !ok */
};

struct en_memo {
	int		 state;		/* 0 new, 1 in progress, 2 done */
	int		 budget;	/* depth left when a failure was found */
	struct en_res	 res;
};

struct en_ctx {
	struct kconfig	*k;
	struct en_memo	*memo;		/* nsyms * 6 */
	int		 nsyms;
	long		 nodes;
	struct kc_symbol *modules;
};

/* A symbol's name for reasons; "<choice>" for an unnamed choice. */
static const char *
en_name(const struct kc_symbol *s)
{
	const char *n = kc_sym_name(s);

	return n != NULL ? n : "<choice>";
}

/* Whether s is bool or tristate: only those can be planned for. */
static bool
en_is_tri(const struct kc_symbol *s)
{
	return kc_sym_type(s) == KC_BOOL || kc_sym_type(s) == KC_TRISTATE;
}

/* Defined here: has a "config" entry (not only referred to). */
static bool
en_is_defined(const struct kc_symbol *s)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind == KC_PROP_SYMBOL)
			return true;
	}
	return kc_sym_is_choice(s);
}

/* Whether the first definition is in an architecture's Kconfig. */
static bool
en_is_arch(const struct kc_symbol *s)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind == KC_PROP_SYMBOL)
			return pi.file != NULL && strncmp(pi.file, "arch/",
			    5) == 0;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Results. */

/* Free what a result owns and leave it empty (a failure with no
 * reason), ready to be reused or dropped. */
static void
en_res_clear(struct en_res *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->steps[i].reason);
		free(r->steps[i].via);
	}
	free(r->steps);
	free(r->why);
	memset(r, 0, sizeof *r);
}

/* A success with no steps: the requirement already holds. */
static struct en_res
en_ok(void)
{
	struct en_res r;

	memset(&r, 0, sizeof r);
	r.ok = true;
	return r;
}

static struct en_res
en_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A failure with its reason formatted from fmt. */
static struct en_res
en_fail(const char *fmt, ...)
{
	struct en_res	r;
	va_list		ap;

	memset(&r, 0, sizeof r);
	va_start(ap, fmt);
	r.why = xvasprintf(fmt, ap);
	va_end(ap);
	return r;
}

/* A result's cost, for choosing between alternatives: its number of
 * steps, or EN_FAIL so that any plan beats a failure. */
static size_t
en_cost(const struct en_res *r)
{
	return r->ok ? r->n : EN_FAIL;
}

/* Append a step unless the same one is there; false when the plan already
 * sets the symbol to another value (a contradiction). */
static bool
en_push(struct en_res *r, struct kc_symbol *s, enum kc_tri v,
    const char *reason, const char *via)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->steps[i].sym != s)
			continue;
		/* m for one need and y for another: y serves both. */
		if (r->steps[i].value != KC_NO && v != KC_NO) {
			if (v > r->steps[i].value)
				r->steps[i].value = v;
			return true;
		}
		return r->steps[i].value == v;
	}
	r->steps = xrealloc(r->steps, (r->n + 1) * sizeof *r->steps);
	r->steps[r->n].sym = s;
	r->steps[r->n].value = v;
	r->steps[r->n].reason = reason ? xstrdup(reason) : NULL;
	r->steps[r->n].via = via ? xstrdup(via) : NULL;
	r->n++;
	return true;
}

/* a += b (b's steps after a's); b is consumed. */
static void
en_merge(struct en_res *a, struct en_res *b)
{
	size_t i;

	if (!a->ok) {
		en_res_clear(b);
		return;
	}
	if (!b->ok) {
		en_res_clear(a);
		*a = *b;
		memset(b, 0, sizeof *b);
		return;
	}
	for (i = 0; i < b->n; i++) {
		if (!en_push(a, b->steps[i].sym, b->steps[i].value,
		    b->steps[i].reason, b->steps[i].via)) {
			en_res_clear(a);
			*a = en_fail("%s would have to be both on and off",
			    en_name(b->steps[i].sym));
			break;
		}
	}
	en_res_clear(b);
}

/* Keep the cheaper of best and r (r consumed); the first failure's
 * reason is kept when both fail. */
static void
en_better(struct en_res *best, bool *have, struct en_res *r)
{
	if (!*have) {
		*best = *r;
		*have = true;
	} else if (en_cost(r) < en_cost(best)) {
		en_res_clear(best);
		*best = *r;
	} else {
		en_res_clear(r);
	}
	memset(r, 0, sizeof *r);
}

/* A deep copy of r (steps and reasons duplicated), so that memo
 * entries and what callers go on to change never share memory. */
static struct en_res
en_copy(const struct en_res *r)
{
	struct en_res	c;
	size_t		i;

	memset(&c, 0, sizeof c);
	c.ok = r->ok;
	c.why = r->why ? xstrdup(r->why) : NULL;
	for (i = 0; i < r->n; i++)
		en_push(&c, r->steps[i].sym, r->steps[i].value,
		    r->steps[i].reason, r->steps[i].via);
	return c;
}

/* ------------------------------------------------------------------ */
/* Reasons. */

/* What the needer's condition wants of the leaf, as a clause. */
static char *
en_reason_text(const struct en_why *w, struct kc_symbol *leaf, enum en_dir d,
    enum kc_tri v)
{
	const char *n = en_name(w->needer), *l = en_name(leaf);

	/* A bool is y or n: "at most m" is n, "at least m" is y. */
	if (v == KC_MOD && kc_sym_type(leaf) == KC_BOOL)
		v = d == EN_GE ? KC_YES : KC_NO;
	switch (w->rel) {
	case REL_DEPENDS:
		if (d == EN_GE)
			return xasprintf("%s depends on %s", n, l);
		if (v == KC_NO)
			return xasprintf("%s can only be enabled while %s is "
			    "off (it depends on !%s)", n, l, l);
		return xasprintf("%s depends on %s being at most %s", n, l,
		    explain_tri_name(v));
	case REL_SELECTED:
		return xasprintf("%s selects %s, which has no prompt", l, n);
	case REL_DEFAULT:
		return xasprintf("%s %s and defaults on when %s is %s", n,
		    explain_has_prompt(w->needer) ? "is not shown" :
		    "has no prompt", l, d == EN_GE ? (v == KC_MOD ?
		    "at least m" : "y") : explain_tri_name(v));
	case REL_DEFAULT_DOWN:
		return xasprintf("%s %s and its default goes off when %s is "
		    "%s", n, explain_has_prompt(w->needer) ? "is not shown" :
		    "has no prompt", l, d == EN_GE ? "on" :
		    explain_tri_name(v));
	case REL_IMPLIED:
		return xasprintf("%s implies %s", l, n);
	case REL_UNSELECT:
		if (d == EN_LE)
			return xasprintf("%s selects %s, which has to be off",
			    l, n);
		return xasprintf("so that nothing selects %s", n);
	case REL_MODULES:
		return xasprintf("%s is to be a module", n);
	case REL_CHOICE:
		return xasprintf("pick %s instead of %s in their choice", l,
		    n);
	}
	return xstrdup("needed");
}

/* Fill the reasons the symbol-level result left to its user. */
static void
en_fill(struct en_res *r, const struct en_why *w, struct kc_symbol *leaf,
    enum en_dir d, enum kc_tri v)
{
	char	*text, *nv;
	bool	 promptless;
	size_t	 i;

	if (!r->ok || r->n == 0)
		return;
	text = en_reason_text(w, leaf, d, v);
	/* A promptless needer's reason is only a link: whoever needs the
	 * needer says why. */
	promptless = w->rel == REL_SELECTED || w->rel == REL_DEFAULT ||
	    w->rel == REL_DEFAULT_DOWN || w->rel == REL_IMPLIED;
	for (i = 0; i < r->n; i++) {
		if (r->steps[i].reason != NULL)
			continue;
		if (!promptless) {
			r->steps[i].reason = xstrdup(text);
			continue;
		}
		nv = r->steps[i].via ? xasprintf("%s; %s", text,
		    r->steps[i].via) : xstrdup(text);
		free(r->steps[i].via);
		r->steps[i].via = nv;
	}
	free(text);
}

/* ------------------------------------------------------------------ */
/* The solver. */

static struct en_res en_sym(struct en_ctx *, struct kc_symbol *, enum en_dir,
    enum kc_tri, int depth);

/* Whether e already meets "e >= v" (EN_GE) or "e <= v" (EN_LE) with
 * the current values, in which case it needs no change. */
static bool
en_holds(struct kconfig *k, const struct kc_expr *e, enum en_dir d,
    enum kc_tri v)
{
	enum kc_tri x = kc_expr_eval(k, e);

	return d == EN_GE ? x >= v : x <= v;
}

/* A symbol-level requirement used from a condition. */
static struct en_res
en_leaf(struct en_ctx *c, struct kc_symbol *s, enum en_dir d, enum kc_tri v,
    int depth, const struct en_why *w)
{
	struct en_res r = en_sym(c, s, d, v, depth);

	en_fill(&r, w, s, d, v);
	return r;
}

/* s compared with a tristate constant t: make (s == t) hold (want) or
 * fail. */
static struct en_res
en_equal(struct en_ctx *c, struct kc_symbol *s, enum kc_tri t, bool want,
    int depth, const struct en_why *w)
{
	struct en_res a, b;

	if (want) {
		a = en_leaf(c, s, EN_GE, t, depth, w);
		b = en_leaf(c, s, EN_LE, t, depth, w);
		en_merge(&a, &b);
		return a;
	}
	if (t == KC_NO)
		return en_leaf(c, s, EN_GE, KC_MOD, depth, w);
	if (t == KC_YES)
		return en_leaf(c, s, EN_LE, KC_MOD, depth, w);
	return en_leaf(c, s, EN_LE, KC_NO, depth, w);
}

/* The constant tristate a symbol is, or -1. */
static int
en_const_tri(const struct kc_symbol *s)
{
	const char *n = kc_sym_name(s);

	if (!kc_sym_is_const(s) || n == NULL || n[1] != '\0')
		return -1;
	return n[0] == 'y' ? KC_YES : n[0] == 'm' ? KC_MOD : n[0] == 'n' ?
	    KC_NO : -1;
}

/* Make e >= v (EN_GE) or e <= v (EN_LE). */
static struct en_res
en_expr(struct en_ctx *c, const struct kc_expr *e, enum en_dir d,
    enum kc_tri v, int depth, const struct en_why *w)
{
	struct en_res		 a, b;
	struct kc_symbol	*s, *s2;
	enum kc_expr_op		 op = kc_expr_op(e);
	bool			 have = false, truth;
	int			 t;
	char			*why;

	if (en_holds(c->k, e, d, v))
		return en_ok();
	switch (op) {
	case KC_EXPR_NONE:
		return en_fail("the condition is always true");
	case KC_EXPR_SYMBOL:
		return en_leaf(c, kc_expr_sym(e), d, v, depth, w);
	case KC_EXPR_NOT:
		return en_expr(c, kc_expr_left(e), d == EN_GE ? EN_LE : EN_GE,
		    (enum kc_tri)(2 - v), depth, w);
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		if ((op == KC_EXPR_AND) == (d == EN_GE)) {
			/* Both sides must change. */
			a = en_expr(c, kc_expr_left(e), d, v, depth, w);
			if (!a.ok)
				return a;
			b = en_expr(c, kc_expr_right(e), d, v, depth, w);
			en_merge(&a, &b);
			return a;
		}
		a = en_expr(c, kc_expr_left(e), d, v, depth, w);
		b = en_expr(c, kc_expr_right(e), d, v, depth, w);
		have = true;	/* a is the first candidate */
		en_better(&a, &have, &b);
		return a;
	case KC_EXPR_EQUAL:
	case KC_EXPR_UNEQUAL:
		s = kc_expr_sym(e);
		s2 = kc_expr_sym2(e);
		/* The comparison must become true (GE) or false (LE). */
		truth = (d == EN_GE) == (op == KC_EXPR_EQUAL);
		if (s != NULL && s2 != NULL && en_is_tri(s) &&
		    (t = en_const_tri(s2)) >= 0)
			return en_equal(c, s, (enum kc_tri)t, truth, depth, w);
		if (s != NULL && s2 != NULL && en_is_tri(s2) &&
		    (t = en_const_tri(s)) >= 0)
			return en_equal(c, s2, (enum kc_tri)t, truth, depth, w);
		break;
	default:
		break;
	}
	why = explain_why_low(c->k, e, d == EN_GE ? v : KC_YES);
	if (d == EN_LE) {
		free(why);
		why = kc_expr_str(e);
		a = en_fail("\"%s\" holds, and kctui can't plan changes of "
		    "numbers or strings", why);
	} else {
		a = en_fail("%s, and kctui can't plan changes of numbers or "
		    "strings", why);
	}
	free(why);
	return a;
}

/* The OR of a symbol's prompt conditions; false when it has no prompt. */
static bool
en_prompt_route(struct en_ctx *c, struct kc_symbol *s, enum kc_tri need,
    int depth, struct en_res *out)
{
	struct kc_prop_info	pi;
	struct en_why		w = { s, REL_DEPENDS };
	struct en_res		r;
	bool			have = false;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (!EX_IS_PROMPT(pi.kind))
			continue;
		r = en_expr(c, pi.cond, EN_GE, need, depth, &w);
		en_better(out, &have, &r);
	}
	return have;
}

/* Raise a symbol without using its prompt: through a select of it, its
 * defaults (the i-th wins when its condition holds and the earlier ones'
 * don't) or an imply. */
static struct en_res
en_derived_up(struct en_ctx *c, struct kc_symbol *s, enum kc_tri v, int depth)
{
	const struct kc_expr	*rev = kc_sym_selected_by(s), *t;
	struct kc_prop_info	 pi, pj;
	struct en_why		 wsel = { s, REL_SELECTED };
	struct en_why		 wdef = { s, REL_DEFAULT };
	struct en_why		 wimp = { s, REL_IMPLIED };
	struct en_res		 best, r, x;
	bool			 have = false;
	int			 i, j;

	memset(&best, 0, sizeof best);
	/* Selects: the OR of "A && cond" terms. */
	while (rev != NULL) {
		if (kc_expr_op(rev) == KC_EXPR_OR) {
			t = kc_expr_right(rev);
			rev = kc_expr_left(rev);
		} else {
			t = rev;
			rev = NULL;
		}
		r = en_expr(c, t, EN_GE, v, depth, &wsel);
		en_better(&best, &have, &r);
	}
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		r = en_expr(c, pi.cond, EN_GE, v, depth, &wdef);
		x = en_expr(c, pi.expr, EN_GE, v, depth, &wdef);
		en_merge(&r, &x);
		for (j = 0; r.ok && j < i && kc_sym_prop(s, j, &pj); j++) {
			if (pj.kind != KC_PROP_DEFAULT)
				continue;
			x = en_expr(c, pj.cond, EN_LE, KC_NO, depth, &wdef);
			en_merge(&r, &x);
		}
		en_better(&best, &have, &r);
	}
	t = kc_sym_implied_by(s);
	while (t != NULL) {
		const struct kc_expr *term;

		if (kc_expr_op(t) == KC_EXPR_OR) {
			term = kc_expr_right(t);
			t = kc_expr_left(t);
		} else {
			term = t;
			t = NULL;
		}
		r = en_expr(c, term, EN_GE, v, depth, &wimp);
		x = en_expr(c, kc_sym_depends(s), EN_GE, v, depth, &wimp);
		en_merge(&r, &x);
		en_better(&best, &have, &r);
	}
	if (!have)
		return en_fail("%s is not something you can set: it has no "
		    "prompt and is %s for this architecture", en_name(s),
		    explain_tri_name(kc_sym_tristate(c->k, s)));
	if (!best.ok) {
		char *sub = best.why;

		best.why = en_is_arch(s) ? xasprintf("%s is not something you "
		    "can set: it has no prompt and is %s for this "
		    "architecture", en_name(s),
		    explain_tri_name(kc_sym_tristate(c->k, s))) :
		    xasprintf("%s is not something you can set (it has no "
		    "prompt), and what would make it %s can't be met: %s",
		    en_name(s), explain_tri_name(v), sub);
		free(sub);
	}
	return best;
}

/* Lower a symbol: switch its selects off, and, unless its prompt is
 * shown (then the user's value rules), its active default. */
static struct en_res
en_down(struct en_ctx *c, struct kc_symbol *s, enum kc_tri v, int depth)
{
	struct en_why		 wun = { s, REL_UNSELECT };
	struct en_why		 wdef = { s, REL_DEFAULT_DOWN };
	struct kc_prop_info	 pi;
	struct en_res		 r, a, b;
	bool			 have = false;
	int			 i;

	/* No select at all is no obstacle (an absent expression is y). */
	r = kc_sym_selected_by(s) == NULL ? en_ok() :
	    en_expr(c, kc_sym_selected_by(s), EN_LE, v, depth, &wun);
	if (!r.ok) {
		char *sub = r.why;

		r.why = xasprintf("%s can't be turned down to %s because "
		    "something that stays on selects it: %s", en_name(s),
		    explain_tri_name(v), sub);
		free(sub);
		return r;
	}
	if (explain_has_prompt(s) && kc_sym_visible(c->k, s) != KC_NO) {
		en_push(&r, s, kc_sym_type(s) == KC_BOOL && v == KC_MOD ?
		    KC_NO : v, NULL, NULL);
		return r;
	}
	/* The value comes from the first active default: make its
	 * condition or its value low enough. */
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT ||
		    kc_expr_eval(c->k, pi.cond) == KC_NO)
			continue;
		a = en_expr(c, pi.cond, EN_LE, v, depth, &wdef);
		b = en_expr(c, pi.expr, EN_LE, v, depth, &wdef);
		have = true;	/* a is the first candidate */
		en_better(&a, &have, &b);
		en_merge(&r, &a);
		break;
	}
	if (!r.ok && !explain_has_prompt(s)) {
		char *sub = r.why;
		bool  fixed;

		/* Fixed by constants: nothing anyone sets changes it. */
		fixed = strncmp(sub, "the condition is ", 17) == 0;
		r.why = en_is_arch(s) || !have || fixed ? xasprintf("%s can't be "
		    "turned off: it has no prompt and is %s for this "
		    "architecture", en_name(s),
		    explain_tri_name(kc_sym_tristate(c->k, s))) :
		    xasprintf("%s can't be turned down to %s (it has no "
		    "prompt): %s", en_name(s), explain_tri_name(v), sub);
		free(sub);
	}
	return r;
}

/* Pick another value of s's choice (s must go off). */
static struct en_res
en_choice_other(struct en_ctx *c, struct kc_symbol *s, int depth)
{
	struct kc_symbol	*cs = kc_sym_choice(s), *o;
	struct en_why		 w = { s, REL_CHOICE };
	struct en_res		 best, r;
	bool			 have = false;
	int			 i;

	memset(&best, 0, sizeof best);
	for (i = 0; (o = kc_choice_value(cs, i)) != NULL; i++) {
		if (o == s)
			continue;
		r = en_leaf(c, o, EN_GE, KC_YES, depth, &w);
		en_better(&best, &have, &r);
	}
	if (!have)
		return en_fail("%s is the only value of its choice", en_name(s));
	return best;
}

/* Make the choice value s the choice's pick. */
static struct en_res
en_choice_pick(struct en_ctx *c, struct kc_symbol *s, int depth)
{
	struct kc_symbol	*cs = kc_sym_choice(s);
	struct en_res		 r, x;

	memset(&r, 0, sizeof r);
	if (!en_prompt_route(c, s, KC_YES, depth, &r))
		return en_fail("%s has no prompt in its choice", en_name(s));
	if (!r.ok)
		return r;
	memset(&x, 0, sizeof x);
	if (kc_choice_mode(c->k, cs) == KC_NO &&
	    en_prompt_route(c, cs, KC_YES, depth, &x))
		en_merge(&r, &x);
	else
		en_res_clear(&x);
	if (r.ok)
		en_push(&r, s, KC_YES, NULL, NULL);
	return r;
}

/* Compute (uncached) s >= v or s <= v. */
static struct en_res
en_sym_compute(struct en_ctx *c, struct kc_symbol *s, enum en_dir d,
    enum kc_tri v, int depth)
{
	struct en_res	 r, alt, x;
	struct en_why	 wmod = { s, REL_MODULES };
	enum kc_tri	 t, need;
	bool		 have;

	if (d == EN_LE) {
		if (kc_sym_choice(s) != NULL && v == KC_NO &&
		    kc_choice_mode(c->k, kc_sym_choice(s)) == KC_YES)
			return en_choice_other(c, s, depth);
		return en_down(c, s, v, depth);
	}
	if (kc_sym_choice(s) != NULL)
		return en_choice_pick(c, s, depth);
	/* The value to set and the visibility it needs. */
	t = kc_sym_type(s) == KC_BOOL ? KC_YES : v;
	if (t == KC_MOD && c->modules != NULL &&
	    kc_sym_tristate(c->k, c->modules) == KC_NO)
		t = KC_YES;
	need = kc_sym_type(s) == KC_BOOL ? KC_MOD : t;
	memset(&r, 0, sizeof r);
	have = en_prompt_route(c, s, need, depth, &r);
	if (have && r.ok && t == KC_MOD && v == KC_MOD && c->modules &&
	    kc_sym_tristate(c->k, c->modules) == KC_NO) {
		x = en_leaf(c, c->modules, EN_GE, KC_YES, depth, &wmod);
		en_merge(&r, &x);
	}
	if (have && r.ok)
		en_push(&r, s, t, NULL, NULL);
	/* Without a prompt, or with one that can't be shown: what
	 * computes it. */
	if (!have || !r.ok) {
		alt = en_derived_up(c, s, v, depth);
		if (!have || alt.ok) {
			if (have)
				en_res_clear(&r);
			return alt;
		}
		en_res_clear(&alt);
	}
	return r;
}

/* Memoized symbol-level requirement. */
static struct en_res
en_sym(struct en_ctx *c, struct kc_symbol *s, enum en_dir d, enum kc_tri v,
    int depth)
{
	struct en_memo	*m;
	struct en_res	 r;
	enum kc_tri	 cur;
	int		 idx;

	if (kc_sym_is_const(s))
		return en_fail("the condition is the constant %s",
		    kc_sym_name(s) ? kc_sym_name(s) : "?");
	if (!en_is_defined(s))
		return en_fail("%s is not something you can set: it is not "
		    "defined for this architecture (other Kconfig files only "
		    "refer to it)", en_name(s));
	if (!en_is_tri(s))
		return en_fail("%s is a %s, not an on/off option", en_name(s),
		    kc_sym_type(s) == KC_STRING ? "string" : "number");
	cur = kc_sym_tristate(c->k, s);
	if (d == EN_GE ? cur >= v : cur <= v)
		return en_ok();
	/* A bool is never m: at least m is y, at most m is n. */
	if (v == KC_MOD && kc_sym_type(s) == KC_BOOL)
		v = d == EN_GE ? KC_YES : KC_NO;
	idx = kc_sym_index(s);
	if (idx < 0 || idx >= c->nsyms)
		return en_fail("%s can't be changed", en_name(s));
	m = &c->memo[idx * 6 + (int)d * 3 + (int)v];
	if (m->state == 2 && (m->res.ok || m->budget >= EN_DEPTH - depth))
		return en_copy(&m->res);
	if (m->state == 1)
		return en_fail("%s depends on itself", en_name(s));
	if (depth >= EN_DEPTH)
		return en_fail("the chain of dependencies is too long");
	if (++c->nodes > EN_NODES)
		return en_fail("the search got too large");
	if (m->state == 2)
		en_res_clear(&m->res);
	m->state = 1;
	r = en_sym_compute(c, s, d, v, depth + 1);
	m->state = 2;
	m->budget = EN_DEPTH - depth;
	m->res = en_copy(&r);
	return r;
}

/* ------------------------------------------------------------------ */
/* Plans. */

/* Free the memo and start a fresh one sized for k: memoized results
 * hold only for the values they were computed from, so each search
 * round, after steps were applied, starts again. */
static void
en_ctx_reset(struct en_ctx *c)
{
	int i;

	if (c->memo != NULL) {
		for (i = 0; i < c->nsyms * 6; i++)
			en_res_clear(&c->memo[i].res);
		free(c->memo);
	}
	c->nsyms = kconfig_nsymbols(c->k);
	c->memo = xcalloc((size_t)c->nsyms * 6 + 1, sizeof *c->memo);
	c->nodes = 0;
}

/* Set one step as a user would; false when it can't be set now. */
static bool
en_apply_step(struct kconfig *k, struct kc_symbol *s, enum kc_tri v)
{
	if (kc_sym_tristate(k, s) == v && (kc_sym_has_user_value(s) ||
	    !explain_has_prompt(s)))
		return true;
	if (!kc_sym_tristate_settable(k, s, v))
		return kc_sym_tristate(k, s) == v;
	return kc_sym_set_tristate(k, s, v);
}

/* Apply steps [0, n) except skip (-1: none) from the saved state; whether
 * the target ends with want. */
static bool
en_try(struct kconfig *k, const struct kc_values *saved,
    const struct enable_step *st, size_t n, size_t skip,
    struct kc_symbol *target, enum kc_tri want)
{
	size_t i;

	kconfig_values_restore(k, saved);
	for (i = 0; i < n; i++) {
		if (i == skip)
			continue;
		if (!en_apply_step(k, st[i].sym, st[i].value))
			return false;
	}
	return kc_sym_tristate(k, target) == want;
}

/* Append a step to the plan unless the same change is there already.
 * Takes ownership of reason (freed when the step is a duplicate). */
static void
en_plan_add(struct enable_plan *p, struct kc_symbol *s, enum kc_tri v,
    char *reason)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++) {
		if (p->steps[i].sym == s && p->steps[i].value == v) {
			free(reason);
			return;
		}
	}
	p->steps = xrealloc(p->steps, (p->nsteps + 1) * sizeof *p->steps);
	p->steps[p->nsteps].sym = s;
	p->steps[p->nsteps].value = v;
	p->steps[p->nsteps].reason = reason;
	p->nsteps++;
}

static void
en_refuse(struct enable_plan *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Mark the plan refused with a reason formatted from fmt; a later
 * refusal replaces an earlier one. */
static void
en_refuse(struct enable_plan *p, const char *fmt, ...)
{
	va_list ap;

	p->ok = false;
	free(p->why_not);
	va_start(ap, fmt);
	p->why_not = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Refuse at once what no plan can give: an undefined or non-tristate
 * symbol, m for a bool. false when refused. */
static bool
en_settable(struct enable_plan *p, struct kc_symbol *s, enum kc_tri want)
{
	if (!en_is_defined(s)) {
		en_refuse(p, "%s is not something you can set: it is not "
		    "defined for this architecture", en_name(s));
		return false;
	}
	if (!en_is_tri(s)) {
		en_refuse(p, "%s is not an on/off option: set its value in "
		    "the configuration instead", en_name(s));
		return false;
	}
	if (want == KC_MOD && kc_sym_type(s) == KC_BOOL) {
		en_refuse(p, "%s is a bool option: it can be y or n, not m",
		    en_name(s));
		return false;
	}
	return true;
}

/* The reason shown for one step: the step's own, what it serves, or the
 * target itself. */
static char *
en_step_reason(const struct en_step *st, struct kc_symbol *s,
    enum kc_tri want)
{
	if (st->sym == s && st->reason == NULL)
		return xstrdup("the option you asked for");
	if (st->reason == NULL && st->via != NULL)
		return xstrdup(st->via);
	if (st->reason == NULL)
		return xasprintf("so that %s can be %s", en_name(s),
		    explain_tri_name(want));
	if (st->via != NULL)
		return xasprintf("%s; %s", st->reason, st->via);
	return xstrdup(st->reason);
}

/*
 * Search rounds: each finds the changes the current values still need and
 * applies them to k, until s has the value (true) or a round finds nothing
 * or a condition that can't be met (the plan refused). Several rounds,
 * because a change can make a new dependency visible (a choice, a default).
 */
static bool
en_search(struct enable_plan *p, struct kconfig *k, struct kc_symbol *s,
    enum kc_tri want)
{
	struct en_ctx	c;
	struct en_res	r;
	size_t		i;
	int		round;
	bool		done = false;

	memset(&c, 0, sizeof c);
	c.k = k;
	c.modules = kconfig_find(k, "MODULES");
	for (round = 0; round < EN_ROUNDS && !done; round++) {
		en_ctx_reset(&c);
		if (kc_sym_tristate(k, s) < want) {
			r = en_sym(&c, s, EN_GE, want, 0);
			/* A tristate to be exactly m may come out y. */
			if (r.ok && want == KC_MOD) {
				struct en_res x = en_sym(&c, s, EN_LE,
				    KC_MOD, 0);

				en_merge(&r, &x);
			}
		} else {
			r = en_sym(&c, s, EN_LE, want, 0);
		}
		if (!r.ok) {
			en_refuse(p, "%s", r.why);
			en_res_clear(&r);
			break;
		}
		if (r.n == 0) {
			en_refuse(p, "no change found that makes %s %s",
			    en_name(s), explain_tri_name(want));
			en_res_clear(&r);
			break;
		}
		for (i = 0; i < r.n; i++) {
			en_plan_add(p, r.steps[i].sym, r.steps[i].value,
			    en_step_reason(&r.steps[i], s, want));
			en_apply_step(k, r.steps[i].sym, r.steps[i].value);
		}
		en_res_clear(&r);
		done = kc_sym_tristate(k, s) == want;
	}
	en_ctx_reset(&c);
	free(c.memo);
	return done;
}

/* A plan found: target last, check it from the saved values in order,
 * then drop each step the plan holds without. */
static void
en_settle(struct enable_plan *p, struct kconfig *k, struct kc_values *saved,
    struct kc_symbol *s, enum kc_tri want)
{
	struct enable_step	tmp;
	size_t			i, j;

	for (i = 0; i + 1 < p->nsteps; i++) {
		if (p->steps[i].sym != s)
			continue;
		tmp = p->steps[i];
		memmove(&p->steps[i], &p->steps[i + 1],
		    (p->nsteps - i - 1) * sizeof *p->steps);
		p->steps[p->nsteps - 1] = tmp;
		break;
	}
	if (!en_try(k, saved, p->steps, p->nsteps, (size_t)-1, s, want)) {
		en_refuse(p, "the changes found do not give %s the value %s "
		    "when applied in order", en_name(s),
		    explain_tri_name(want));
		return;
	}
	p->ok = true;
	for (i = p->nsteps; i-- > 0;) {
		if (p->steps[i].sym == s || !en_try(k, saved, p->steps,
		    p->nsteps, i, s, want))
			continue;
		free(p->steps[i].reason);
		for (j = i; j + 1 < p->nsteps; j++)
			p->steps[j] = p->steps[j + 1];
		p->nsteps--;
	}
}

/* The smallest set of changes that gives s the value want, each with its
 * reason, checked by the engine; k's values are left as they were. */
struct enable_plan *
enable_plan(struct kconfig *k, struct kc_symbol *s, enum kc_tri want)
{
	struct enable_plan	*p = xcalloc(1, sizeof *p);
	struct kc_values	*saved;
	char			*brief;
	size_t			 i;

	p->target = s;
	p->want = want;
	if (!en_settable(p, s, want))
		return p;
	if (kc_sym_tristate(k, s) == want) {
		p->ok = p->already = true;
		return p;
	}
	saved = kconfig_values_save(k);
	if (en_search(p, k, s, want))
		en_settle(p, k, saved, s, want);
	else if (p->why_not == NULL) {
		brief = explain_brief(k, s);
		en_refuse(p, "no plan found: after %zu change%s %s is still "
		    "%s (%s)", p->nsteps, p->nsteps == 1 ? "" : "s",
		    en_name(s), explain_tri_name(kc_sym_tristate(k, s)),
		    brief);
		free(brief);
	}
	kconfig_values_restore(k, saved);
	kconfig_values_free(saved);
	kconfig_recalc(k);
	if (!p->ok) {
		for (i = 0; i < p->nsteps; i++)
			free(p->steps[i].reason);
		free(p->steps);
		p->steps = NULL;
		p->nsteps = 0;
	}
	return p;
}

/* Apply an ok plan's steps in order as a user would, then recompute
 * and check that the target has the value; 0, or -1 with *cause (also
 * for a plan that is not ok). Steps already applied stay applied. */
int
enable_apply(struct kconfig *k, const struct enable_plan *p, char **cause)
{
	size_t i;

	if (!p->ok) {
		*cause = xstrdup(p->why_not ? p->why_not : "no plan");
		return -1;
	}
	for (i = 0; i < p->nsteps; i++) {
		if (!en_apply_step(k, p->steps[i].sym, p->steps[i].value)) {
			*cause = xasprintf("can't set %s to %s",
			    en_name(p->steps[i].sym),
			    explain_tri_name(p->steps[i].value));
			return -1;
		}
	}
	kconfig_recalc(k);
	if (kc_sym_tristate(k, p->target) != p->want) {
		*cause = xasprintf("%s ended as %s, not %s",
		    en_name(p->target),
		    explain_tri_name(kc_sym_tristate(k, p->target)),
		    explain_tri_name(p->want));
		return -1;
	}
	return 0;
}

/* Free a plan from enable_plan(); NULL is ignored. */
void
enable_plan_free(struct enable_plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nsteps; i++)
		free(p->steps[i].reason);
	free(p->steps);
	free(p->why_not);
	free(p);
}
