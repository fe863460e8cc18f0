/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.c - a symbol's value and its reasons, in sentences.
 *
 * Everything is derived from the engine's own state through kconfig.h:
 * the value is decomposed as sym_calc_value() computes it (a visible
 * symbol takes the user's value ANDed with its visibility, otherwise its
 * first active default ORed with implies; selects raise both), so every
 * sentence names the term that decided. False conditions are walked as
 * expression trees to name the one or two symbols a user would change:
 * the false conjuncts of an AND, the cheapest alternative of an OR, "X is
 * y" for a false NOT X.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../evidence/attrib.h"
#include "explain-int.h"
#include "explain.h"
#include "../../lib/util.h"

/* "n", "m" or "y", as Kconfig and the user write values. */
const char *
explain_tri_name(enum kc_tri v)
{
	return v == KC_YES ? "y" : v == KC_MOD ? "m" : "n";
}

/* A symbol's name for sentences ("<choice>" for an anonymous choice). */
const char *
ex_name(const struct kc_symbol *s)
{
	const char *n = kc_sym_name(s);

	return n != NULL ? n : "<choice>";
}

/* A type as Kconfig writes it ("bool", "tristate" ...) for the head
 * line; "undefined" for a symbol only referred to. */
static const char *
ex_type_name(enum kc_type t)
{
	switch (t) {
	case KC_BOOL:
		return "bool";
	case KC_TRISTATE:
		return "tristate";
	case KC_INT:
		return "int";
	case KC_HEX:
		return "hex";
	case KC_STRING:
		return "string";
	default:
		return "undefined";
	}
}

/* Whether s is bool or tristate, the only kinds with blockers,
 * dependents and value reasons in terms of y/m/n. */
static bool
ex_is_tri(const struct kc_symbol *s)
{
	return kc_sym_type(s) == KC_BOOL || kc_sym_type(s) == KC_TRISTATE;
}

/* Whether any definition of s has a prompt (a menuconfig's counts):
 * without one the user can't set it, only defaults and selects can. */
bool
explain_has_prompt(const struct kc_symbol *s)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (EX_IS_PROMPT(pi.kind))
			return true;
	}
	return false;
}

/* Whether a symbol is defined at all in this tree (referenced-only
 * symbols such as PPC on x86 have no definition). */
bool
ex_is_defined(const struct kc_symbol *s)
{
	struct kc_prop_info	pi;
	int			i;

	if (kc_sym_is_const(s))
		return true;
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind == KC_PROP_SYMBOL)
			return true;
	}
	return kc_sym_is_choice(s);
}

/* The value as text: y/m/n for bool and tristate, the string otherwise. */
const char *
ex_value(struct kconfig *k, struct kc_symbol *s)
{
	if (kc_sym_is_const(s))
		return kc_sym_name(s);
	if (ex_is_tri(s))
		return explain_tri_name(kc_sym_tristate(k, s));
	return kc_sym_string(k, s);
}

/* Append line. */
static struct explain_line *
ex_add(struct explain *ex, enum explain_kind kind, int indent,
    struct kc_symbol *sym, const char *fmt, ...)
{
	struct explain_line	*l;
	va_list			 ap;

	ex->lines = xrealloc(ex->lines, (ex->nlines + 1) * sizeof *ex->lines);
	l = &ex->lines[ex->nlines++];
	memset(l, 0, sizeof *l);
	l->kind = kind;
	l->indent = indent;
	l->sym = sym;
	va_start(ap, fmt);
	l->text = xvasprintf(fmt, ap);
	va_end(ap);
	return l;
}

/* ------------------------------------------------------------------ */
/* Kconfig source lines: quoting "default y if PCI" exactly as written. */

/* Line number line of file (relative to the tree, the current
 * directory), trimmed; NULL when unreadable or not a single line. */
static char *
ex_source_line(const char *file, int line)
{
	FILE	*f;
	char	*buf = NULL, *p, *end, *out = NULL;
	size_t	 cap = 0;
	int	 n = 0;

	if (file == NULL || line <= 0 || (f = fopen(file, "r")) == NULL)
		return NULL;
	while (getline(&buf, &cap, f) != -1) {
		if (++n < line)
			continue;
		for (p = buf; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strlen(p);
		while (end > p && (end[-1] == '\n' || end[-1] == ' ' ||
		    end[-1] == '\t' || end[-1] == '\r'))
			end--;
		/* A continued line would be quoted half. */
		if (end > p && end[-1] != '\\')
			out = xstrndup(p, (size_t)(end - p));
		break;
	}
	free(buf);
	fclose(f);
	return out;
}

/* A property's own "if": its condition without the entry's
 * dependencies, which the engine ANDed in front (NULL: none). */
static const struct kc_expr *
ex_own_cond(const struct kc_symbol *s, const struct kc_expr *cond,
    bool *whole)
{
	const struct kc_expr	*dep = kc_sym_depends(s);
	char			*a, *b;
	bool			 same;

	*whole = false;
	if (cond == NULL)
		return NULL;
	a = kc_expr_str(cond);
	b = kc_expr_str(dep);
	same = strcmp(a, b) == 0;
	free(a);
	if (same) {
		free(b);
		return NULL;
	}
	if (kc_expr_op(cond) == KC_EXPR_AND) {
		a = kc_expr_str(kc_expr_left(cond));
		same = strcmp(a, b) == 0;
		free(a);
		if (same) {
			free(b);
			return kc_expr_right(cond);
		}
	}
	free(b);
	*whole = true;
	return cond;
}

/* How a default/select/imply line reads: from the source when it can
 * be read, else rebuilt ("default y if PCI"). */
static char *
ex_prop_text(const struct kc_symbol *s, const struct kc_prop_info *pi)
{
	const struct kc_expr	*own;
	const char		*kw;
	char			*src, *v, *c, *out;
	bool			 whole;

	if ((src = ex_source_line(pi->file, pi->line)) != NULL)
		return src;
	kw = pi->kind == KC_PROP_DEFAULT ? "default" :
	    pi->kind == KC_PROP_SELECT ? "select" :
	    pi->kind == KC_PROP_IMPLY ? "imply" : "prompt";
	v = kc_expr_str(pi->expr);
	own = ex_own_cond(s, pi->cond, &whole);
	if (own == NULL) {
		out = xasprintf("%s %s", kw, v);
	} else {
		c = kc_expr_str(own);
		out = xasprintf("%s %s if %s", kw, v, c);
		free(c);
	}
	free(v);
	return out;
}

/* ------------------------------------------------------------------ */
/* Where a false condition comes from: the symbol's own "depends on", or
 * an enclosing menu, "if" block, menuconfig entry or "visible if". */

/* Whether str is one of e's top-level conjuncts. */
static bool
ex_has_conjunct(const struct kc_expr *e, const char *str)
{
	const struct kc_expr	**v = NULL;
	size_t			  n = 0, i;
	char			 *s;
	bool			  found = false;

	if (e == NULL)
		return false;
	ex_flatten(e, KC_EXPR_AND, &v, &n);
	for (i = 0; i < n && !found; i++) {
		s = kc_expr_str(v[i]);
		found = strcmp(s, str) == 0;
		free(s);
	}
	free(v);
	return found;
}

/* Describe the outermost enclosing entry that brings conjunct c in;
 * sets *file and *line. NULL when it is the symbol's own condition. */
static char *
ex_origin(const struct kc_symbol *s, const struct kc_expr *c,
    const char **file, int *line)
{
	struct kc_menu	*m, **up = NULL;
	size_t		 n = 0, i;
	char		*str, *out = NULL;
	const char	*p;

	if ((m = kc_sym_menu(s)) == NULL)
		return NULL;
	for (m = kc_menu_parent(m); m != NULL; m = kc_menu_parent(m)) {
		up = xrealloc(up, (n + 1) * sizeof *up);
		up[n++] = m;
	}
	str = kc_expr_str(c);
	for (i = n; i-- > 0 && out == NULL;) {
		m = up[i];
		p = kc_menu_prompt(m);
		/* kc_menu_kind() calls a menuconfig entry a menu: look at
		 * the symbol first. */
		if (kc_menu_sym(m) != NULL && kc_sym_name(kc_menu_sym(m)) &&
		    strcmp(kc_sym_name(kc_menu_sym(m)), str) == 0) {
			out = xasprintf("it is listed under %s and only shown "
			    "when that is on", str);
		} else if (ex_has_conjunct(kc_menu_visible_if(m), str)) {
			out = xasprintf("the menu \"%s\" is only shown "
			    "(visible if) when %s", p ? p : "?", str);
		} else if (ex_has_conjunct(kc_menu_depends(m), str) &&
		    kc_menu_sym(m) != NULL && !kc_sym_is_choice(kc_menu_sym(m))) {
			/* Its own "depends on", or an "if" block around it
			 * (flattened away): either way it holds it too. */
			out = xasprintf("also required by %s, which it is "
			    "listed under", ex_name(kc_menu_sym(m)));
		} else if (ex_has_conjunct(kc_menu_depends(m), str)) {
			switch (kc_menu_kind(m)) {
			case KC_MENU_MENU:
				out = xasprintf("inherited from the menu "
				    "\"%s\"", p ? p : "?");
				break;
			case KC_MENU_CHOICE:
				out = xasprintf("inherited from its choice "
				    "\"%s\"", p ? p : "?");
				break;
			case KC_MENU_SYMBOL:
				out = xasprintf("inherited from %s, which "
				    "it is listed under",
				    ex_name(kc_menu_sym(m)));
				break;
			default:
				if (kc_menu_parent(m) == NULL)
					continue;
				out = xasprintf("inherited from an \"if "
				    "%s\" block", str);
				break;
			}
		}
		if (out != NULL) {
			*file = kc_menu_file(m);
			*line = kc_menu_line(m);
		}
	}
	free(str);
	free(up);
	return out;
}

/* ------------------------------------------------------------------ */
/* The value and its reasons. */

/* The first default whose condition holds (sym_get_default_prop()). */
static bool
ex_active_default(struct kconfig *k, struct kc_symbol *s,
    struct kc_prop_info *out)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		if (kc_expr_eval(k, pi.cond) == KC_NO)
			continue;
		*out = pi;
		return true;
	}
	return false;
}

/* The symbols of an OR of "A && cond" terms (selects, implies) whose term
 * is not n: "A (y) and B (m)"; *first gets the first one. */
static char *
ex_active_terms(struct kconfig *k, const struct kc_expr *e,
    struct kc_symbol **first, size_t *count)
{
	const struct kc_expr	**v = NULL, *t;
	struct kc_symbol	 *s, **names = NULL;
	struct strbuf		  sb;
	size_t			  n = 0, nn = 0, i, j;

	*first = NULL;
	strbuf_init(&sb);
	if (e != NULL)
		ex_flatten(e, KC_EXPR_OR, &v, &n);
	for (i = 0; i < n; i++) {
		if (kc_expr_eval(k, v[i]) == KC_NO)
			continue;
		/* The selecting symbol is the term's leftmost one. */
		for (t = v[i]; kc_expr_op(t) == KC_EXPR_AND;)
			t = kc_expr_left(t);
		if ((s = kc_expr_sym(t)) == NULL)
			continue;
		for (j = 0; j < nn && names[j] != s; j++)
			;
		if (j < nn)
			continue;
		names = xrealloc(names, (nn + 1) * sizeof *names);
		names[nn++] = s;
	}
	for (i = 0; i < nn && i < EX_LIST_MAX; i++) {
		if (i > 0)
			strbuf_adds(&sb, i + 1 == nn ? " and " : ", ");
		strbuf_addf(&sb, "%s (%s)", ex_name(names[i]),
		    ex_value(k, names[i]));
	}
	if (nn > EX_LIST_MAX)
		strbuf_addf(&sb, " and %zu more", nn - EX_LIST_MAX);
	if (nn > 0)
		*first = names[0];
	*count = nn;
	free(names);
	free(v);
	return strbuf_detach(&sb);
}

/* The condition that makes its prompt visible: the OR of its prompts'
 * conditions (NULL: no prompt, *none set). */
static const struct kc_expr *
ex_prompt_cond(const struct kc_symbol *s, const char **file, int *line,
    bool *none)
{
	struct kc_prop_info	pi;
	int			i;

	*none = true;
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (!EX_IS_PROMPT(pi.kind))
			continue;
		*none = false;
		*file = pi.file;
		*line = pi.line;
		return pi.cond;
	}
	return NULL;
}

/* Why a choice picked its value. */
static void
ex_choice(struct explain *ex, struct kconfig *k, struct kc_symbol *s,
    struct kc_symbol *cs)
{
	struct kc_symbol	*sel = kc_choice_selected(k, cs), *v;
	struct kc_prop_info	 pi;
	struct explain_line	*l;
	const char		*p = NULL;
	int			 i;

	for (i = 0; kc_sym_prop(cs, i, &pi); i++) {
		if (EX_IS_PROMPT(pi.kind)) {
			p = pi.text;
			break;
		}
	}
	if (sel == s)
		l = ex_add(ex, EXPLAIN_VALUE, 0, cs, "Value: y, chosen in the "
		    "choice \"%s\".", p ? p : "?");
	else
		l = ex_add(ex, EXPLAIN_VALUE, 0, sel, "Value: %s, because "
		    "the choice \"%s\" picked %s.", ex_value(k, s),
		    p ? p : "?", sel ? ex_name(sel) : "nothing");
	if (sel == NULL)
		return;
	if (kc_sym_has_user_value(sel) && kc_sym_user_tristate(sel) == KC_YES) {
		ex_add(ex, EXPLAIN_REASON, 1, sel, "The choice is %s because "
		    "you picked it in %s.", ex_name(sel), ex->config_name);
		return;
	}
	for (i = 0; kc_sym_prop(cs, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT || pi.target != sel ||
		    kc_expr_eval(k, pi.cond) == KC_NO)
			continue;
		l = ex_add(ex, EXPLAIN_REASON, 1, sel, "The choice is %s "
		    "by its default (%s:%d).", ex_name(sel), pi.file, pi.line);
		l->file = pi.file;
		l->line = pi.line;
		return;
	}
	for (i = 0; (v = kc_choice_value(cs, i)) != NULL; i++) {
		if (kc_sym_visible(k, v) != KC_NO)
			break;
	}
	ex_add(ex, EXPLAIN_REASON, 1, sel, v == sel ? "The choice is %s, its "
	    "first visible value (no default applies)." : "The choice is %s.",
	    ex_name(sel));
}

/* Why each default that would give a value is off ("def_bool y" only
 * when "!64BIT" holds). */
static void
ex_inactive_defaults(struct explain *ex, struct kconfig *k,
    struct kc_symbol *s)
{
	struct explain_line	*l;
	struct kc_prop_info	 pi;
	struct kc_symbol	*c;
	char			*txt, *why;
	int			 i, n = 0;

	for (i = 0; kc_sym_prop(s, i, &pi) && n < EX_LIST_MAX; i++) {
		if (pi.kind != KC_PROP_DEFAULT ||
		    kc_expr_eval(k, pi.expr) == KC_NO)
			continue;
		txt = ex_prop_text(s, &pi);
		why = explain_why_low(k, pi.cond, KC_MOD);
		c = ex_first_culprit(k, pi.cond, KC_MOD, true);
		l = ex_add(ex, EXPLAIN_REASON, 1, c, "Its default \"%s\" "
		    "(%s:%d) does not apply: %s.", txt, pi.file, pi.line, why);
		l->file = pi.file;
		l->line = pi.line;
		free(txt);
		free(why);
		n++;
	}
}

/* The value line of a string, int or hex symbol: the user's, its
 * default's, or none. */
static void
ex_value_string(struct explain *ex, struct kconfig *k, struct kc_symbol *s,
    enum kc_tri vis)
{
	struct explain_line	*l;
	struct kc_prop_info	 pi;
	char			*txt;

	if (vis != KC_NO && kc_sym_has_user_value(s)) {
		ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: %s, set by "
		    "you in %s.", kc_sym_string(k, s), ex->config_name);
		return;
	}
	if (ex_active_default(k, s, &pi)) {
		txt = ex_prop_text(s, &pi);
		l = ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: %s, its "
		    "default (\"%s\", %s:%d).", kc_sym_string(k, s),
		    txt, pi.file, pi.line);
		l->file = pi.file;
		l->line = pi.line;
		free(txt);
		return;
	}
	ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: \"%s\" (no default "
	    "applies).", kc_sym_string(k, s));
}

/* The value line of a shown tristate the user set: as set, raised by a
 * select (sel, who, nsel: its active selectors), or limited by what its
 * prompt depends on. */
static void
ex_value_user(struct explain *ex, struct kconfig *k, struct kc_symbol *s,
    enum kc_tri v, enum kc_tri vis, const char *sel, struct kc_symbol *who,
    size_t nsel)
{
	enum kc_tri	 ut, base;
	const char	*pf = NULL;
	char		*why;
	int		 pl = 0;
	bool		 nop;

	ut = kc_sym_user_tristate(s);
	base = ut < vis ? ut : vis;
	if (kc_sym_type(s) == KC_BOOL && base == KC_MOD)
		base = KC_YES;
	if (v > base && nsel > 0) {
		ex_add(ex, EXPLAIN_VALUE, 0, who, "Value: %s, selected "
		    "by %s.", explain_tri_name(v), sel);
		ex_add(ex, EXPLAIN_REASON, 1, NULL, "Your %s says "
		    "%s, but a select raises it.", ex->config_name,
		    explain_tri_name(ut));
	} else if (ut > vis) {
		why = explain_why_low(k, ex_prompt_cond(s, &pf, &pl,
		    &nop), KC_YES);
		ex_add(ex, EXPLAIN_VALUE, 0, ex_first_culprit(k,
		    ex_prompt_cond(s, &pf, &pl, &nop), KC_YES, true),
		    "Value: %s, limited to %s: you set %s in %s, "
		    "but it depends on something that is %s (%s).",
		    explain_tri_name(v), explain_tri_name(vis),
		    explain_tri_name(ut), ex->config_name,
		    explain_tri_name(vis), why);
		free(why);
	} else {
		ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: %s, set by "
		    "you in %s.", explain_tri_name(v), ex->config_name);
	}
}

/* Value line and reasons, mirroring sym_calc_value(): user value, choice,
 * select, imply, default, in the order the engine lets them win. */
static void
ex_value_reasons(struct explain *ex, struct kconfig *k, struct kc_symbol *s)
{
	struct explain_line	*l;
	struct kc_prop_info	 pi;
	struct kc_symbol	*cs, *who;
	enum kc_tri		 v, vis, rev, imp, dep, defv = KC_NO;
	char			*sel, *txt, *why;
	size_t			 nsel;
	bool			 hasdef;

	vis = kc_sym_visible(k, s);
	if (!ex_is_tri(s)) {
		ex_value_string(ex, k, s, vis);
		return;
	}

	v = kc_sym_tristate(k, s);
	cs = kc_sym_choice(s);
	if (cs != NULL && vis == KC_YES && kc_choice_mode(k, cs) == KC_YES) {
		ex_choice(ex, k, s, cs);
		return;
	}
	rev = kc_sym_selected_value(k, s);
	imp = kc_sym_implied_value(k, s);
	dep = kc_sym_depends_value(k, s);
	sel = ex_active_terms(k, kc_sym_selected_by(s), &who, &nsel);

	if (vis != KC_NO && kc_sym_has_user_value(s)) {
		ex_value_user(ex, k, s, v, vis, sel, who, nsel);
		free(sel);
		return;
	}

	hasdef = ex_active_default(k, s, &pi);
	if (hasdef) {
		defv = kc_expr_eval(k, pi.expr);
		if (kc_expr_eval(k, pi.cond) < defv)
			defv = kc_expr_eval(k, pi.cond);
	}
	if (nsel > 0 && rev >= v && rev > defv && rev > imp) {
		ex_add(ex, EXPLAIN_VALUE, 0, who, "Value: %s, selected by %s.",
		    explain_tri_name(v), sel);
		if (dep < rev) {
			why = explain_why_low(k, kc_sym_depends(s), rev);
			ex_add(ex, EXPLAIN_REASON, 1, NULL, "Its own "
			    "dependencies are not met (%s): a select ignores "
			    "them.", why);
			free(why);
		}
	} else if (imp != KC_NO && imp > defv && v != KC_NO) {
		free(sel);
		sel = ex_active_terms(k, kc_sym_implied_by(s), &who, &nsel);
		ex_add(ex, EXPLAIN_VALUE, 0, who, "Value: %s, implied by %s.",
		    explain_tri_name(v), sel);
	} else if (hasdef) {
		txt = ex_prop_text(s, &pi);
		l = ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: %s, by default "
		    "(\"%s\" at %s:%d).", explain_tri_name(v), txt, pi.file,
		    pi.line);
		l->file = pi.file;
		l->line = pi.line;
		free(txt);
		if (v == KC_MOD && kc_expr_eval(k, pi.expr) == KC_YES &&
		    dep == KC_MOD) {
			why = explain_why_low(k, kc_sym_depends(s), KC_YES);
			ex_add(ex, EXPLAIN_REASON, 1, ex_first_culprit(k,
			    kc_sym_depends(s), KC_YES, true), "The default is "
			    "y, but it is limited to m because it depends on "
			    "something that is m (%s).", why);
			free(why);
		}
	} else {
		ex_add(ex, EXPLAIN_VALUE, 0, NULL, "Value: %s: %s.",
		    explain_tri_name(v), vis == KC_NO && explain_has_prompt(s) ?
		    "it is not shown, and no default applies" :
		    "no default applies and nothing selects it");
		ex_inactive_defaults(ex, k, s);
	}
	if (kc_sym_has_user_value(s) && vis == KC_NO &&
	    kc_sym_user_tristate(s) != v)
		ex_add(ex, EXPLAIN_REASON, 1, NULL, "Your %s says %s, but "
		    "that is ignored while it is not shown.", ex->config_name,
		    explain_tri_name(kc_sym_user_tristate(s)));
	free(sel);
}

/* ------------------------------------------------------------------ */
/* Why it can't be changed. */

/* The false conjuncts of the prompt's condition, each with where it comes
 * from and, for a symbol without a prompt, that nobody can set it. */
static void
ex_hidden(struct explain *ex, struct kconfig *k, struct kc_symbol *s,
    const struct kc_expr *cond, enum kc_tri want, const char *pf, int pl)
{
	const struct kc_expr	**v = NULL;
	struct explain_line	 *l;
	struct kc_symbol	 *c;
	const char		 *f = NULL;
	char			 *why, *str, *org;
	size_t			  n = 0, i;
	int			  line = 0;

	str = kc_expr_str(cond);
	why = explain_why_low(k, cond, want);
	c = ex_first_culprit(k, cond, want, true);
	if (strlen(str) <= EX_QUOTE_MAX)
		ex_add(ex, EXPLAIN_BLOCKER, 0, c, "You can't change it: it is "
		    "not shown because \"%s\" is %s: %s.", str,
		    explain_tri_name(kc_expr_eval(k, cond)), why);
	else
		ex_add(ex, EXPLAIN_BLOCKER, 0, c, "You can't change it: it is "
		    "not shown because its dependencies are not met: %s.",
		    why);
	free(why);
	free(str);
	ex_flatten(cond, KC_EXPR_AND, &v, &n);
	for (i = 0; i < n; i++) {
		if (kc_expr_eval(k, v[i]) >= want)
			continue;
		why = explain_why_low(k, v[i], want);
		c = ex_first_culprit(k, v[i], want, true);
		org = ex_origin(s, v[i], &f, &line);
		if (org != NULL) {
			l = ex_add(ex, EXPLAIN_REASON, 1, c, "%s — %s (%s:%d).",
			    why, org, f, line);
			l->file = f;
			l->line = line;
		} else {
			l = ex_add(ex, EXPLAIN_REASON, 1, c, "%s — from its "
			    "own dependencies (entry at %s:%d).", why, pf, pl);
			l->file = pf;
			l->line = pl;
		}
		free(org);
		free(why);
		if (c != NULL && !explain_has_prompt(c) && ex_is_defined(c) &&
		    !kc_sym_is_const(c))
			ex_add(ex, EXPLAIN_REASON, 2, c, "%s has no prompt: "
			    "only its defaults and selects set it.",
			    ex_name(c));
	}
	free(v);
}

/* The lines saying why s can't be changed now: no prompt, hidden, a
 * choice value (pick another), held up by selects, limited to m by a
 * dependency, or MODULES off. Only bool/tristate symbols, and not
 * choices themselves, have them. */
static void
ex_blockers(struct explain *ex, struct kconfig *k, struct kc_symbol *s)
{
	struct kc_symbol	*modules = kconfig_find(k, "MODULES"), *who;
	const struct kc_expr	*cond;
	enum kc_tri		 v, vis, rev, x;
	const char		*f = NULL;
	char			*sel, *why;
	size_t			 nsel;
	int			 line = 0;
	bool			 none, can[3];

	if (!ex_is_tri(s) || kc_sym_is_choice(s))
		return;
	v = kc_sym_tristate(k, s);
	vis = kc_sym_visible(k, s);
	rev = kc_sym_selected_value(k, s);
	cond = ex_prompt_cond(s, &f, &line, &none);
	if (none) {
		ex_add(ex, EXPLAIN_BLOCKER, 0, NULL, "You can't set it: it has "
		    "no prompt; only its defaults and selects decide its "
		    "value.");
		return;
	}
	if (vis == KC_NO) {
		ex_hidden(ex, k, s, cond, KC_MOD, f, line);
		return;
	}
	for (x = KC_NO; x <= KC_YES; x++)
		can[x] = kc_sym_tristate_settable(k, s, x);
	if (kc_sym_choice(s) != NULL && vis == KC_YES) {
		if (v == KC_YES)
			ex_add(ex, EXPLAIN_BLOCKER, 0, kc_sym_choice(s), "To "
			    "turn it off, pick another value of its choice.");
		return;
	}
	sel = ex_active_terms(k, kc_sym_selected_by(s), &who, &nsel);
	if (!can[KC_NO] && v != KC_NO && nsel > 0)
		ex_add(ex, EXPLAIN_BLOCKER, 0, who, "It can't be turned off%s "
		    "because %s select%s it.", rev == KC_YES &&
		    kc_sym_type(s) == KC_TRISTATE && v == KC_YES ?
		    " or made a module" : "", sel, nsel > 1 ? "" : "s");
	else if (!can[KC_MOD] && rev == KC_YES && v == KC_YES &&
	    kc_sym_type(s) == KC_TRISTATE && nsel > 0)
		ex_add(ex, EXPLAIN_BLOCKER, 0, who, "It can't be a module "
		    "because %s select%s it as y.", sel, nsel > 1 ? "" : "s");
	free(sel);
	if (!can[KC_YES] && vis == KC_MOD && kc_sym_type(s) == KC_TRISTATE) {
		why = explain_why_low(k, cond, KC_YES);
		ex_add(ex, EXPLAIN_BLOCKER, 0, ex_first_culprit(k, cond, KC_YES,
		    true), "It can't be y, only m or n, because it depends "
		    "on something that is m: %s.", why);
		free(why);
	}
	if (!can[KC_MOD] && kc_sym_type(s) == KC_TRISTATE && modules != NULL &&
	    kc_sym_tristate(k, modules) == KC_NO)
		ex_add(ex, EXPLAIN_BLOCKER, 0, modules, "It can't be a module: "
		    "MODULES is n.");
}

/* ------------------------------------------------------------------ */
/* What turning it off also turns off: computed on a saved copy. */

/* The lines listing what turning s off would also change. It is
 * computed by doing it on a saved copy of the values and putting them
 * back, so k's values are the same afterwards. */
static void
ex_dependents(struct explain *ex, struct kconfig *k, struct kc_symbol *s)
{
	struct kc_values	*saved;
	struct kc_symbol	*t, **changed = NULL;
	enum kc_tri		*before, *after;
	int			 n = kconfig_nsymbols(k), i;
	size_t			 nch = 0, j;

	if (!ex_is_tri(s) || kc_sym_tristate(k, s) == KC_NO ||
	    !kc_sym_tristate_settable(k, s, KC_NO))
		return;
	before = xcalloc((size_t)n + 1, sizeof *before);
	after = xcalloc((size_t)n + 1, sizeof *after);
	for (i = 0; i < n; i++) {
		t = kconfig_symbol(k, i);
		before[i] = ex_is_tri(t) ? kc_sym_tristate(k, t) : KC_NO;
	}
	saved = kconfig_values_save(k);
	kc_sym_set_tristate(k, s, KC_NO);
	kconfig_recalc(k);
	for (i = 0; i < n; i++) {
		t = kconfig_symbol(k, i);
		after[i] = ex_is_tri(t) ? kc_sym_tristate(k, t) : KC_NO;
		if (t == s || after[i] == before[i] || kc_sym_name(t) == NULL)
			continue;
		changed = xrealloc(changed, (nch + 1) * sizeof *changed);
		changed[nch++] = t;
	}
	kconfig_values_restore(k, saved);
	kconfig_values_free(saved);
	kconfig_recalc(k);
	if (nch == 0) {
		ex_add(ex, EXPLAIN_DEPENDENT, 0, NULL, "Turning it off changes "
		    "no other option.");
	} else {
		ex_add(ex, EXPLAIN_DEPENDENT, 0, NULL, "Turning it off would "
		    "also change %zu other option%s:", nch, nch == 1 ? "" :
		    "s");
		for (j = 0; j < nch && j < EX_DEPENDENTS_MAX; j++) {
			i = kc_sym_index(changed[j]);
			ex_add(ex, EXPLAIN_DEPENDENT, 1, changed[j], "%s: %s -> "
			    "%s", ex_name(changed[j]),
			    explain_tri_name(before[i]),
			    explain_tri_name(after[i]));
		}
		if (nch > EX_DEPENDENTS_MAX)
			ex_add(ex, EXPLAIN_DEPENDENT, 1, NULL, "and %zu more.",
			    nch - EX_DEPENDENTS_MAX);
	}
	free(changed);
	free(before);
	free(after);
}

/* ------------------------------------------------------------------ */

/* One line for each select or imply of s, saying whether it is in
 * effect now and the target's current value. */
static void
ex_selects(struct explain *ex, struct kconfig *k, struct kc_symbol *s)
{
	struct explain_line	*l;
	struct kc_prop_info	 pi;
	const char		*kw;
	int			 i, nlines = 0;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if ((pi.kind != KC_PROP_SELECT && pi.kind != KC_PROP_IMPLY) ||
		    pi.target == NULL)
			continue;
		kw = pi.kind == KC_PROP_SELECT ? "select" : "impl";
		if (kc_sym_tristate(k, s) == KC_NO)
			l = ex_add(ex, EXPLAIN_SELECTS, 0, pi.target, "When on, "
			    "it %ss %s (now %s).", pi.kind == KC_PROP_SELECT ?
			    "select" : "implie", ex_name(pi.target),
			    ex_value(k, pi.target));
		else if (kc_expr_eval(k, pi.cond) == KC_NO)
			l = ex_add(ex, EXPLAIN_SELECTS, 0, pi.target, "It "
			    "would %s%s %s, but the condition is false now.",
			    kw, pi.kind == KC_PROP_SELECT ? "" : "y",
			    ex_name(pi.target));
		else
			l = ex_add(ex, EXPLAIN_SELECTS, 0, pi.target, "It %ss "
			    "%s (now %s).", pi.kind == KC_PROP_SELECT ?
			    "select" : "implie", ex_name(pi.target),
			    ex_value(k, pi.target));
		l->file = pi.file;
		l->line = pi.line;
		nlines++;
	}
	(void)nlines;
}

/* "3 days ago", "5 hours ago", "less than an hour ago" (then is in
 * seconds since 1970). */
static void
ex_ago(struct strbuf *sb, int64_t then, int64_t now)
{
	int64_t d = now - then;

	if (d < 3600)
		strbuf_adds(sb, "less than an hour ago");
	else if (d < 86400)
		strbuf_addf(sb, "%lld hour%s ago", (long long)(d / 3600),
		    d / 3600 == 1 ? "" : "s");
	else
		strbuf_addf(sb, "%lld day%s ago", (long long)(d / 86400),
		    d / 86400 == 1 ? "" : "s");
}

/*
 * What collect --append counted (the bundle's seen file): of the
 * symbol's own items, the one seen most often, "  Module virtio_net
 * seen 14 times, last 3 days ago (first 40 days ago)."
 */
static void
ex_evidence_seen(struct explain *ex, const struct attrib_sym *as,
    struct kc_symbol *s)
{
	static const char *const kinds[EV_NKINDS] = {
		[EV_MODULE] = "Module", [EV_DRIVER] = "Driver",
		[EV_MOUNT] = "A mount of", [EV_FS] = "File system",
		[EV_CRYPTO] = "Crypto driver",
	};
	const struct ev_item	*it, *best = NULL;
	struct strbuf		 sb;
	int64_t			 now = (int64_t)time(NULL);
	size_t			 i;

	for (i = 0; i < as->nrefs; i++) {
		it = as->refs[i].item;
		if (!as->refs[i].direct || it->seen == 0 ||
		    kinds[it->kind] == NULL)
			continue;
		if (best == NULL || it->seen > best->seen)
			best = it;
	}
	if (best == NULL)
		return;
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s %s seen %llu time%s, last ", kinds[best->kind],
	    best->name, (unsigned long long)best->seen,
	    best->seen == 1 ? "" : "s");
	ex_ago(&sb, best->seen_last, now);
	if (best->seen > 1) {
		strbuf_adds(&sb, " (first ");
		ex_ago(&sb, best->seen_first, now);
		strbuf_addc(&sb, ')');
	}
	ex_add(ex, EXPLAIN_EVIDENCE, 1, s, "%s.", sb.s);
	strbuf_free(&sb);
}

/* "Evidence: used — module e1000 loaded; 41 functions traced". */
static void
ex_evidence(struct explain *ex, const struct attrib *a, struct kc_symbol *s)
{
	const struct attrib_sym	*as;
	struct strbuf		 sb;
	enum verdict		 vd;
	char			 buf[256];
	size_t			 i, shown = 0;

	if (a == NULL || kc_sym_name(s) == NULL)
		return;
	vd = attrib_verdict(a, kc_sym_name(s));
	as = attrib_find(a, kc_sym_name(s));
	strbuf_init(&sb);
	strbuf_addf(&sb, "Evidence: %s", verdict_name(vd));
	if (as == NULL) {
		strbuf_adds(&sb, vd == V_NO_CODE ? " (it builds no code of its "
		    "own)" : " (nothing recorded uses its code)");
	} else {
		for (i = 0; i < as->nrefs && shown < 2; i++) {
			if (!as->refs[i].direct ||
			    as->refs[i].item->kind != EV_MODULE)
				continue;
			strbuf_addf(&sb, "%s module %s loaded", shown ? "," :
			    " —", as->refs[i].item->name);
			shown++;
		}
		if (as->nmodules > shown)
			strbuf_addf(&sb, "%s %zu module%s", shown ? ";" : " —",
			    as->nmodules, as->nmodules == 1 ? "" : "s");
		if (as->ntraces)
			strbuf_addf(&sb, "%s %zu function%s traced", shown ||
			    as->nmodules ? ";" : " —", as->ntraces,
			    as->ntraces == 1 ? "" : "s");
		if (as->ndevices)
			strbuf_addf(&sb, "; %zu device%s", as->ndevices,
			    as->ndevices == 1 ? "" : "s");
		if (as->nfs)
			strbuf_addf(&sb, "; %zu filesystem%s", as->nfs,
			    as->nfs == 1 ? "" : "s");
		if (as->ncrypto)
			strbuf_addf(&sb, "; %zu crypto algorithm%s",
			    as->ncrypto, as->ncrypto == 1 ? "" : "s");
		if (as->nmodules + as->ntraces + as->ndevices + as->nfs +
		    as->ncrypto == 0 && as->nrefs > 0) {
			attrib_ref_format(&as->refs[0], buf, sizeof buf);
			strbuf_addf(&sb, " — %s", buf);
		}
	}
	ex_add(ex, EXPLAIN_EVIDENCE, 0, s, "%s.", sb.len ? sb.s : "");
	strbuf_free(&sb);
	if (as != NULL)
		ex_evidence_seen(ex, as, s);
}

/* Explain s with the current values: head, value and its reasons,
 * blockers, dependents, selects, evidence (when a is not NULL) and
 * where it is defined (only the head and a line for a symbol this
 * tree never defines). k's values are left as they were. Free with
 * explain_free(). */
struct explain *
explain_symbol(struct kconfig *k, struct kc_symbol *s, const struct attrib *a)
{
	return explain_symbol_file(k, s, a, NULL);
}

/* explain_symbol, the configuration file named config_path's last
 * component ("set by you in c1"); NULL: ".config". */
struct explain *
explain_symbol_file(struct kconfig *k, struct kc_symbol *s,
    const struct attrib *a, const char *config_path)
{
	struct explain		*ex = xcalloc(1, sizeof *ex);
	struct explain_line	*l;
	struct kc_prop_info	 pi;
	const char		*prompt = NULL, *slash;
	int			 i;

	if (config_path == NULL || *config_path == '\0')
		config_path = ".config";
	if ((slash = strrchr(config_path, '/')) != NULL && slash[1] != '\0')
		config_path = slash + 1;
	ex->config_name = xstrdup(config_path);

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (EX_IS_PROMPT(pi.kind)) {
			prompt = pi.text;
			break;
		}
	}
	if (prompt != NULL)
		ex_add(ex, EXPLAIN_HEAD, 0, s, "CONFIG_%s — %s (%s)",
		    ex_name(s), prompt, ex_type_name(kc_sym_type(s)));
	else
		ex_add(ex, EXPLAIN_HEAD, 0, s, "CONFIG_%s (%s, no prompt)",
		    ex_name(s), ex_type_name(kc_sym_type(s)));
	if (!ex_is_defined(s)) {
		ex_add(ex, EXPLAIN_VALUE, 0, NULL, "It is not defined for "
		    "this architecture: other Kconfig files only refer to "
		    "it, so it is n.");
		return ex;
	}
	ex_value_reasons(ex, k, s);
	ex_blockers(ex, k, s);
	ex_dependents(ex, k, s);
	ex_selects(ex, k, s);
	ex_evidence(ex, a, s);
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_SYMBOL)
			continue;
		l = ex_add(ex, EXPLAIN_LOCATION, 0, NULL, "Defined at %s:%d",
		    pi.file, pi.line);
		l->file = pi.file;
		l->line = pi.line;
	}
	return ex;
}

/* Free an explanation and its lines' text; NULL is ignored. */
void
explain_free(struct explain *ex)
{
	size_t i;

	if (ex == NULL)
		return;
	for (i = 0; i < ex->nlines; i++)
		free(ex->lines[i].text);
	free(ex->lines);
	free(ex->config_name);
	free(ex);
}

/* The short phrase list views show for why s has its value ("set by
 * you", "selected by X", "not visible: needs PCI" ...), checked in the
 * order the value is decided: choice, selects, the user's value,
 * visibility, implies, then defaults. malloc'd. */
char *
explain_brief(struct kconfig *k, struct kc_symbol *s)
{
	const struct kc_expr	*cond;
	struct kc_symbol	*c, *who, *cs;
	struct kc_prop_info	 pi;
	enum kc_tri		 v, vis, rev, imp, defv = KC_NO;
	const char		*f;
	char			*sel;
	size_t			 nsel;
	int			 line;
	bool			 none, neg = false;

	if (!ex_is_defined(s))
		return xstrdup("not defined for this architecture");
	vis = kc_sym_visible(k, s);
	cond = ex_prompt_cond(s, &f, &line, &none);
	if (!ex_is_tri(s))
		return xstrdup(vis != KC_NO && kc_sym_has_user_value(s) ?
		    "set by you" : "default");
	v = kc_sym_tristate(k, s);
	cs = kc_sym_choice(s);
	if (cs != NULL && vis == KC_YES && kc_choice_mode(k, cs) == KC_YES)
		return xstrdup("choice");
	rev = kc_sym_selected_value(k, s);
	imp = kc_sym_implied_value(k, s);
	sel = ex_active_terms(k, kc_sym_selected_by(s), &who, &nsel);
	free(sel);
	if (nsel > 0 && rev >= v && v != KC_NO && (vis == KC_NO ||
	    !kc_sym_has_user_value(s) || kc_sym_user_tristate(s) < rev))
		return xasprintf("selected by %s%s", ex_name(who),
		    nsel > 1 ? " and others" : "");
	if (vis != KC_NO && kc_sym_has_user_value(s)) {
		if (kc_sym_user_tristate(s) > vis) {
			c = ex_first_culprit(k, cond, KC_YES, true);
			return c ? xasprintf("limited by %s=%s", ex_name(c),
			    ex_value(k, c)) : xstrdup("limited to m");
		}
		return xstrdup("set by you");
	}
	if (vis == KC_NO && !none && v == KC_NO) {
		c = ex_culprit(k, cond, KC_MOD, true, &neg);
		if (c == NULL)
			return xstrdup("not visible");
		return xasprintf("not visible: %s %s", neg ? "conflicts "
		    "with" : "needs", ex_name(c));
	}
	if (ex_active_default(k, s, &pi)) {
		defv = kc_expr_eval(k, pi.expr);
		if (kc_expr_eval(k, pi.cond) < defv)
			defv = kc_expr_eval(k, pi.cond);
	}
	if (imp != KC_NO && imp > defv && v != KC_NO) {
		sel = ex_active_terms(k, kc_sym_implied_by(s), &who, &nsel);
		free(sel);
		if (who != NULL)
			return xasprintf("implied by %s", ex_name(who));
	}
	if (v == KC_MOD && ex_active_default(k, s, &pi) &&
	    kc_expr_eval(k, pi.expr) == KC_YES) {
		c = ex_first_culprit(k, kc_sym_depends(s), KC_YES, true);
		if (c != NULL)
			return xasprintf("limited by %s=%s", ex_name(c),
			    ex_value(k, c));
	}
	return xstrdup("default");
}
