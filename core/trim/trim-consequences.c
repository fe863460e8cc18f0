/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-consequences.c - what accepting candidates changes, asked of the
 * engine: the candidates are set to n on a checkpointed configuration,
 * only the symbols that read a changed one are evaluated (against a
 * baseline of the whole configuration taken once), each change gets its
 * cause, and the configuration is rolled back. Also the export's
 * trim_apply().
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "trim-int.h"

/*
 * What the accepted candidates dragged along by select: an option that
 * would be a candidate but for a select that forces it on (trim_collect()
 * marks it TRIM_FORCED) goes to n once nothing selects it any more (the
 * selector trimmed, or off because of a trimmed one), so trimming
 * PCI_HYPERV takes PCI_HYPERV_INTERFACE along, which was never suggested
 * on its own (it could not be set to n). In passes, as the candidates.
 */
static void
trim_set_forced(struct trim *t, struct kconfig *k)
{
	struct kc_symbol	*x;
	bool			 progress = true;
	int			 i;

	while (progress) {
		progress = false;
		for (i = 0; i < t->nsyms; i++) {
			if (t->cand_of[i] != TRIM_FORCED)
				continue;
			x = kconfig_symbol(k, i);
			if (kc_sym_tristate(k, x) != KC_NO &&
			    kc_sym_set_tristate(k, x, KC_NO))
				progress = true;
		}
	}
}

/* "\n  CONFIG_X: selected by Y [=m] || Z [=y]": why a candidate (a symbol
 * of the trim's configuration) stays on in k. */
static void
trim_apply_why(struct kconfig *k, struct kc_symbol *cand, struct strbuf *sb)
{
	struct kc_symbol	*s = kconfig_symbol(k, kc_sym_index(cand));
	const struct kc_expr	*e = kc_sym_selected_by(s);
	char			*str;

	strbuf_addf(sb, "\n  CONFIG_%s (%c)", kc_sym_name(s),
	    "nmy"[kc_sym_tristate(k, s)]);
	if (e != NULL && kc_expr_eval(k, e) != KC_NO) {
		str = kc_expr_str(e);
		strbuf_addf(sb, ": selected by %s [=%c]", str,
		    "nmy"[kc_expr_eval(k, e)]);
		free(str);
	} else
		strbuf_adds(sb, ": its dependencies hold it on");
}

/* Set candidates to n, in passes: a candidate selected by another one
 * becomes settable only once that one is n; then what they forced on
 * alone (trim_set_forced()). Returns how many could not be set; with
 * fail, their indexes there. */
size_t
trim_set_all(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, size_t *fail)
{
	struct kc_symbol	*s;
	size_t			*pending, np = 0, i, j;
	bool			 progress = true;

	pending = xcalloc(n + 1, sizeof *pending);
	for (i = 0; i < n; i++) {
		if (cands[i] < t->ncands)
			pending[np++] = cands[i];
	}
	while (np != 0 && progress) {
		progress = false;
		for (i = j = 0; i < np; i++) {
			/* k may be another parse of the same tree (the
			 * TUI's worker): same indexes, its own symbols. */
			s = kconfig_symbol(k, kc_sym_index(
			    t->cands[pending[i]].sym));
			if (kc_sym_tristate(k, s) == KC_NO ||
			    kc_sym_set_tristate(k, s, KC_NO))
				progress = true;
			else
				pending[j++] = pending[i];
		}
		np = j;
	}
	if (fail != NULL)
		memcpy(fail, pending, np * sizeof *pending);
	free(pending);
	if (n > 0)
		trim_set_forced(t, k);
	return np;
}

/* The first symbol of an expression whose value changed. */
static struct kc_symbol *
trim_changed_in(struct trim *t, const struct kc_expr *e)
{
	struct kc_symbol	*s;
	int			 idx;

	switch (kc_expr_op(e)) {
	case KC_EXPR_NONE:
		return NULL;
	case KC_EXPR_OR:
	case KC_EXPR_AND:
		if ((s = trim_changed_in(t, kc_expr_left(e))) != NULL)
			return s;
		return trim_changed_in(t, kc_expr_right(e));
	case KC_EXPR_NOT:
		return trim_changed_in(t, kc_expr_left(e));
	default:
		s = kc_expr_sym(e);
		if (s != NULL && (idx = kc_sym_index(s)) >= 0 &&
		    t->before[idx] != t->after[idx])
			return s;
		s = kc_expr_sym2(e);
		if (s != NULL && (idx = kc_sym_index(s)) >= 0 &&
		    t->before[idx] != t->after[idx])
			return s;
		return NULL;
	}
}

/* "depends on X" and friends, one string per (kind, symbol). */
static const char *
trim_why(struct trim *t, enum why_kind kind, struct kc_symbol *x)
{
	static const char *const fmt[] = {
		"depends on %s", "was selected by %s", "was implied by %s",
		"default follows %s"
	};
	char **slot = &t->whys[(size_t)kc_sym_index(x) * W_NKINDS + kind];

	if (*slot == NULL)
		*slot = xasprintf(fmt[kind], kc_sym_name(x));
	return *slot;
}

/* The changed symbol that made a choice (nameless: no option of its own)
 * change: the first of its dependencies or its prompt's condition, or
 * NULL. A choice value "depends on" its choice; the report names what
 * the choice went with instead ("depends on ZRAM", not a nameless
 * choice), and files the value under it. */
static struct kc_symbol *
trim_choice_cause(struct trim *t, struct kc_symbol *choice)
{
	struct kc_symbol	*x;
	struct kc_menu		*m;
	int			 depth;

	for (depth = 0; depth < 8 && choice != NULL &&
	    kc_sym_name(choice) == NULL; depth++) {
		if ((x = trim_changed_in(t, kc_sym_depends(choice))) == NULL &&
		    (m = kc_sym_menu(choice)) != NULL)
			x = trim_changed_in(t, kc_menu_prompt_cond(m));
		choice = x;
	}
	return choice != NULL && kc_sym_name(choice) != NULL ? choice : NULL;
}

/* Why a symbol changed: the first changed symbol of its dependencies,
 * prompt condition, selects, implies, then defaults. */
static void
trim_explain(struct trim *t, struct trim_change *c)
{
	struct kc_symbol	*x;
	struct kc_menu		*m;
	struct kc_prop_info	 pi;
	int			 i;

	c->why = NULL;
	c->cause = NULL;
	if (t->acc[kc_sym_index(c->sym)] == t->accgen &&
	    t->after[kc_sym_index(c->sym)] == KC_NO)
		return;		/* an accepted candidate itself */
	if ((x = trim_changed_in(t, kc_sym_depends(c->sym))) != NULL ||
	    ((m = kc_sym_menu(c->sym)) != NULL &&
	    (x = trim_changed_in(t, kc_menu_prompt_cond(m))) != NULL)) {
		if (kc_sym_name(x) == NULL &&
		    (x = trim_choice_cause(t, x)) == NULL) {
			c->why = "choice moved";
			return;
		}
		c->why = trim_why(t, W_DEPEND, x);
		c->cause = x;
		return;
	}
	if ((x = trim_changed_in(t, kc_sym_selected_by(c->sym))) != NULL) {
		c->why = trim_why(t, W_SELECT, x);
		c->cause = x;
		return;
	}
	if (kc_sym_is_choice_value(c->sym)) {
		c->why = "choice moved";
		return;
	}
	if ((x = trim_changed_in(t, kc_sym_implied_by(c->sym))) != NULL) {
		c->why = trim_why(t, W_IMPLY, x);
		c->cause = x;
		return;
	}
	for (i = 0; kc_sym_prop(c->sym, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		if ((x = trim_changed_in(t, pi.cond)) != NULL ||
		    (x = trim_changed_in(t, pi.expr)) != NULL) {
			c->why = trim_why(t, W_DEFAULT, x);
			c->cause = x;
			return;
		}
	}
}

/*
 * Which symbols the candidates change, found from the candidates outwards
 * through the engine's readers graph: a symbol is evaluated when
 * something it reads changed, and passes it on to its own readers only
 * when it changed itself (value, string or visibility; a choice always
 * does, as its selection is not in those). A symbol never reached kept
 * its value: nothing it reads changed. The evaluated symbols are left in
 * t->affected (marked in t->mark) with their new values in t->after.
 * Returns their number, or -1 when MODULES is reached (then anything may
 * change: the caller recomputes everything).
 */
static int
trim_propagate(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n)
{
	struct kc_symbol	*mod = kconfig_find(k, "MODULES"), *s;
	const int		*rd;
	const char		*str;
	int			 na = 0, qi, idx, nr, e;
	size_t			 i;
	bool			 changed;

	if (t->mark == NULL) {
		t->mark = xcalloc((size_t)t->nsyms + 1, sizeof *t->mark);
		t->affected = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->affected);
	}
	if (++t->markgen == 0) {
		memset(t->mark, 0, (size_t)t->nsyms * sizeof *t->mark);
		t->markgen = 1;
	}
	for (i = 0; i < n; i++) {
		if (cands[i] >= t->ncands)
			continue;
		idx = kc_sym_index(t->cands[cands[i]].sym);
		if (t->mark[idx] != t->markgen) {
			t->mark[idx] = t->markgen;
			t->affected[na++] = idx;
		}
	}
	for (qi = 0; qi < na; qi++) {
		idx = t->affected[qi];
		s = kconfig_symbol(k, idx);
		if (s == mod)
			return -1;
		t->before[idx] = t->base[idx];
		t->after[idx] = trim_is_tristate(s) ? kc_sym_tristate(k, s) :
		    KC_NO;
		str = kc_sym_string(k, s);
		changed = kc_sym_is_choice(s) ||
		    kc_sym_tristate(k, s) != t->base_val[idx] ||
		    kc_sym_visible(k, s) != t->base_vis[idx] ||
		    (str != t->base_cur[idx] && (str == NULL ||
		    t->base_cur[idx] == NULL || strcmp(str,
		    t->base_cur[idx]) != 0));
		if (!changed)
			continue;
		rd = kconfig_readers(k, idx, &nr);
		for (e = 0; e < nr; e++) {
			if (rd[e] < 0 || rd[e] >= t->nsyms ||
			    t->mark[rd[e]] == t->markgen)
				continue;
			t->mark[rd[e]] = t->markgen;
			t->affected[na++] = rd[e];
		}
	}
	return na;
}

/* Whether k's user values are still those the baseline was computed
 * from. */
static bool
trim_base_valid(struct trim *t, struct kconfig *k)
{
	struct kc_symbol	*s;
	const char		*a, *b;
	int			 i;

	if (!t->base_ok)
		return false;
	if (k == t->base_k && kconfig_user_generation(k) == t->base_gen)
		return true;
	for (i = 0; i < t->nsyms; i++) {
		s = kconfig_symbol(k, i);
		if (kc_sym_has_user_value(s) != t->base_has[i])
			return false;
		if (!t->base_has[i])
			continue;
		if ((unsigned char)kc_sym_user_tristate(s) != t->base_tri[i])
			return false;
		a = kc_sym_user_string(s);
		b = t->base_str[i];
		if (a != b && (a == NULL || b == NULL || strcmp(a, b) != 0))
			return false;
	}
	t->base_k = k;
	t->base_gen = kconfig_user_generation(k);
	return true;
}

/* Recompute everything and remember it as the baseline. */
static void
trim_base_take(struct trim *t, struct kconfig *k)
{
	struct kc_symbol	*s;
	int			 i;

	if (t->base == NULL) {
		t->base = xcalloc((size_t)t->nsyms + 1, sizeof *t->base);
		t->base_has = xcalloc((size_t)t->nsyms + 1, 1);
		t->base_tri = xcalloc((size_t)t->nsyms + 1, 1);
		t->base_str = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_str);
		t->base_val = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_val);
		t->base_vis = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_vis);
		t->base_cur = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_cur);
	}
	kconfig_recalc(k);
	for (i = 0; i < t->nsyms; i++) {
		s = kconfig_symbol(k, i);
		t->base[i] = trim_is_tristate(s) ? kc_sym_tristate(k, s) :
		    KC_NO;
		t->base_has[i] = kc_sym_has_user_value(s);
		t->base_tri[i] = (unsigned char)kc_sym_user_tristate(s);
		/* User strings are interned by the engine: they live as
		 * long as the configuration. */
		t->base_str[i] = kc_sym_user_string(s);
		/* What readers read (trim_propagate); strings are interned
		 * or constant, alive as long as the configuration. */
		t->base_val[i] = kc_sym_tristate(k, s);
		t->base_vis[i] = kc_sym_visible(k, s);
		t->base_cur[i] = kc_sym_string(k, s);
	}
	t->base_ok = true;
	t->base_k = k;
	t->base_gen = kconfig_user_generation(k);
}

/* qsort: ints, ascending. */
static int
trim_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* What accepting cands changes, on k itself (the engine is the only
 * exact oracle), rolled back before returning: see trim.h. The long body
 * is one save/set/propagate/compare/restore sequence whose steps share
 * the restore state; split, each part would need it all passed along. */
int
trim_consequences(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, struct trim_change **changes, size_t *nchanges, char **cause)
{
	struct kc_values	*saved = NULL;
	struct kc_symbol	*s;
	struct trim_change	*ch = NULL;
	size_t			 nch = 0, ach = 0;
	int			 i, j, na, idx, restored = 0;
	bool			 full, inc, cp;

	*changes = NULL;
	*nchanges = 0;
	if (kconfig_nsymbols(k) != t->nsyms) {
		*cause = xstrdup("trim: configuration of another tree");
		return -1;
	}
	if (t->acc == NULL)
		t->acc = xcalloc((size_t)t->nsyms + 1, sizeof *t->acc);
	if (++t->accgen == 0) {
		memset(t->acc, 0, (size_t)t->nsyms * sizeof *t->acc);
		t->accgen = 1;
	}
	for (j = 0; j < (int)n; j++) {
		if (cands[j] < t->ncands)
			t->acc[kc_sym_index(t->cands[cands[j]].sym)] =
			    t->accgen;
	}
	full = t->in->full_recalc;
	if (full || !trim_base_valid(t, k))
		trim_base_take(t, k);
	/*
	 * Only what reads a changed symbol can change: the sets and the
	 * restore invalidate just those (the engine's incremental mode), and
	 * trim_propagate() evaluates outwards from the candidates, which
	 * gives the values of a full kconfig_recalc() at a fraction of the
	 * cost. in->full_recalc keeps conf's way and compares every symbol,
	 * the oracle the tests compare with.
	 */
	inc = kconfig_incremental(k);
	kconfig_set_incremental(k, !full);
	/* Going back costs what changed, unless a checkpoint is open
	 * already (then the O(symbols) save and restore). */
	if (!(cp = kconfig_checkpoint(k)))
		saved = kconfig_values_save(k);
	trim_set_all(t, k, cands, n, NULL);
	na = full ? -1 : trim_propagate(t, k, cands, n);
	if (na < 0) {
		/* MODULES reached, or the oracle: everything. */
		full = true;
		na = t->nsyms;
		kconfig_recalc(k);
		for (j = 0; j < na; j++) {
			s = kconfig_symbol(k, j);
			t->before[j] = t->base[j];
			t->after[j] = trim_is_tristate(s) ?
			    kc_sym_tristate(k, s) : KC_NO;
		}
	}
	/* In symbol order, whichever way they were found. */
	if (!full)
		qsort(t->affected, (size_t)na, sizeof *t->affected, trim_cmp_int);
	for (j = 0; j < na; j++) {
		i = full ? j : t->affected[j];
		/* Options only: a choice has no name, no line, and is no
		 * option a count or a report could name. */
		if (t->after[i] == t->before[i] ||
		    kc_sym_name(kconfig_symbol(k, i)) == NULL)
			continue;
		if (nch == ach) {
			ach = ach ? ach * 2 : 64;
			ch = xrealloc(ch, ach * sizeof *ch);
		}
		ch[nch].sym = kconfig_symbol(k, i);
		ch[nch].before = t->before[i];
		ch[nch].after = t->after[i];
		nch++;
	}
	for (i = 0; i < (int)nch; i++)
		trim_explain(t, &ch[i]);
	/* Leave before == after everywhere: trim_explain of a later call
	 * reads both arrays outside its own affected set. */
	for (j = 0; j < na; j++) {
		idx = full ? j : t->affected[j];
		t->after[idx] = t->before[idx];
	}
	if (cp)
		kconfig_rollback(k);
	else
		restored = kconfig_values_restore(k, saved);
	kconfig_set_incremental(k, inc);
	if (restored != 0) {
		kconfig_values_free(saved);
		free(ch);
		*cause = xstrdup("trim: could not restore the values");
		return -1;
	}
	kconfig_values_free(saved);
	*changes = ch;
	*nchanges = nch;
	return 0;
}

/* The export: set the accepted candidates to n for good (in passes, as
 * trim_consequences() does) and say which could not be. */
int
trim_apply(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, char **cause)
{
	struct strbuf	 sb;
	size_t		*fail, nf, i;

	fail = xcalloc(n + 1, sizeof *fail);
	nf = trim_set_all(t, k, cands, n, fail);
	kconfig_recalc(k);
	for (i = 0; i < n; i++) {
		if (cands[i] < t->ncands)
			t->cands[cands[i]].state = TRIM_ACCEPTED;
	}
	for (i = 0; i < nf; i++)
		t->cands[fail[i]].state = TRIM_PENDING;
	if (nf != 0) {
		/* Each one, and why: all of them, whatever their number. */
		strbuf_init(&sb);
		strbuf_addf(&sb, "%zu option%s could not be set to n (still "
		    "selected or needed by options not accepted):", nf,
		    nf == 1 ? "" : "s");
		for (i = 0; i < nf; i++)
			trim_apply_why(k, t->cands[fail[i]].sym, &sb);
		*cause = strbuf_detach(&sb);
	}
	free(fail);
	return nf != 0 ? -1 : 0;
}
