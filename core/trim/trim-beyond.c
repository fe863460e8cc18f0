/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-beyond.c - what the evidence keeps beyond a module list: the trim
 * made once as the policy makes it and once from the loaded modules
 * alone (make localmodconfig's seeds), the difference listed with its
 * chains of reasons; and the verified policy's marks, the seeds whose
 * evidence a boot can confirm and a module list does not show. The
 * keeping itself is trim-keep.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../evidence/attrib.h"
#include "decisions.h"
#include "../evidence/evidence.h"
#include "../kbuild/kbuild.h"
#include "trim-int.h"

/* ------------------------------------------------- beyond a module list */

/* Whether a symbol counts among a .config's y/m options. */
static bool
trim_is_ym(struct kconfig *k, struct kc_symbol *s)
{
	return trim_is_tristate(s) && kc_sym_name(s) != NULL &&
	    kc_sym_tristate(k, s) != KC_NO && kc_sym_is_written(k, s);
}

/* The first symbol of an expression (not under a negation) marked in
 * set, or NULL. */
static struct kc_symbol *
trim_expr_marked(const struct kc_expr *e, const unsigned char *set)
{
	struct kc_symbol	*x;
	int			 xi;

	if (e == NULL)
		return NULL;
	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		if ((x = trim_expr_marked(kc_expr_left(e), set)) != NULL)
			return x;
		return trim_expr_marked(kc_expr_right(e), set);
	case KC_EXPR_SYMBOL:
		x = kc_expr_sym(e);
		xi = kc_sym_index(x);
		return xi >= 0 && set[xi] ? x : NULL;
	default:
		return NULL;
	}
}

/* The first symbol marked in set of the first active default of s. */
static struct kc_symbol *
trim_default_marked(struct trim *t, struct kc_symbol *s,
    const unsigned char *set)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT || (pi.cond != NULL &&
		    kc_expr_eval(t->k, pi.cond) == KC_NO))
			continue;
		return trim_expr_marked(pi.expr, set);
	}
	return NULL;
}

/*
 * Why a symbol stays: its keep reason and those of what needed it, down
 * to the seed and its evidence ("needed by CONFIG_CFG80211_WEXT, needed
 * by CONFIG_WEXT_CORE: evidence (used): trace:wext_netdev_notifier_call").
 * One outside the keep-set stays with an option it depends on or is
 * selected by that stays (its sub-options, under the modules policy):
 * one of the difference (beyond) first.
 */
static char *
trim_stay_why(struct trim *t, struct kc_symbol *s, const unsigned char *beyond,
    const unsigned char *stay)
{
	const struct attrib_sym	*as;
	struct kc_symbol	*x;
	struct strbuf		 sb;
	char			 buf[256];
	size_t			 i, shown;
	int			 idx = kc_sym_index(s), steps;

	strbuf_init(&sb);
	if (t->keep[idx] == K_NONE) {
		/* Another option of the difference first: the default
		 * the value comes from (NET_POLL_CONTROLLER's "def_bool
		 * NETPOLL"), what it depends on, what selects it. */
		x = trim_default_marked(t, s, beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_depends(s), beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_selected_by(s), beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_depends(s), stay);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_selected_by(s), stay);
		if (x == NULL || x == s) {
			strbuf_adds(&sb, "not a trim candidate, and what it "
			    "depends on stays");
			return strbuf_detach(&sb);
		}
		strbuf_addf(&sb, "stays with CONFIG_%s, ", kc_sym_name(x));
		idx = kc_sym_index(x);
		if (t->keep[idx] == K_NONE) {
			strbuf_adds(&sb, "which stays too");
			return strbuf_detach(&sb);
		}
	}
	for (steps = 0; steps < 32; steps++) {
		s = kconfig_symbol(t->k, idx);
		strbuf_adds(&sb, trim_keep_reason(t, s));
		if (t->keep[idx] != K_DEPEND && t->keep[idx] != K_SELECT)
			break;
		idx = t->keep_by[idx];
		if (idx < 0 || t->keep[idx] == K_NONE)
			break;
		/* "needed by CONFIG_B, needed by CONFIG_C: evidence" */
		strbuf_adds(&sb, t->keep[idx] == K_DEPEND ||
		    t->keep[idx] == K_SELECT ? ", " : ": ");
	}
	if (t->keep[idx] == K_EVIDENCE && t->in->a != NULL &&
	    (as = attrib_find(t->in->a, kc_sym_name(s))) != NULL) {
		for (i = shown = 0; i < as->nrefs && shown < 3; i++) {
			attrib_ref_format(&as->refs[i], buf, sizeof buf);
			strbuf_addf(&sb, "%s%s", shown++ ? ", " : ": ", buf);
		}
		if (as->nrefs > shown)
			strbuf_addf(&sb, " and %zu more", as->nrefs - shown);
	}
	return strbuf_detach(&sb);
}

/* What the evidence keeps beyond a module list: trim once as here and
 * once from the loaded modules alone (localmodconfig's seeds), on k,
 * restored; list what only the first keeps, each with its chain of
 * reasons. */
int
trim_beyond_modules(struct trim *t, struct kconfig *k,
    struct kc_symbol ***symsp, char ***whysp, size_t *np, char **cause)
{
	struct trim_input	 in2 = *t->in;
	struct trim		*lm;
	struct kc_values	*saved;
	struct kc_symbol	*s, **syms = NULL;
	unsigned char		*ours, *stay;
	char			**whys = NULL;
	size_t			*all, i, n = 0;
	bool			 inc = kconfig_incremental(k);
	int			 x;

	*symsp = NULL;
	*whysp = NULL;
	*np = 0;
	if (k != t->k) {
		*cause = xstrdup("trim: configuration of another trim");
		return -1;
	}
	in2.module_list = true;
	in2.no_removes = true;
	if ((lm = trim_suggest(k, &in2, cause)) == NULL)
		return -1;
	ours = xcalloc((size_t)t->nsyms + 1, 1);
	stay = xcalloc((size_t)t->nsyms + 1, 1);
	all = xcalloc((t->ncands > lm->ncands ? t->ncands : lm->ncands) + 1,
	    sizeof *all);
	kconfig_set_incremental(k, !t->in->full_recalc);
	saved = kconfig_values_save(k);
	/* Everything accepted here ... */
	for (i = 0; i < t->ncands; i++)
		all[i] = i;
	trim_set_all(t, k, all, t->ncands, NULL);
	for (x = 0; x < t->nsyms; x++)
		ours[x] = trim_is_ym(k, kconfig_symbol(k, x));
	kconfig_values_restore(k, saved);
	/* ... and on the module list alone. */
	for (i = 0; i < lm->ncands; i++)
		all[i] = i;
	trim_set_all(lm, k, all, lm->ncands, NULL);
	for (x = 0; x < t->nsyms; x++) {
		stay[x] = ours[x];
		if (ours[x] && !trim_is_ym(k, kconfig_symbol(k, x)))
			n++;
		else
			ours[x] = 0;
	}
	kconfig_values_restore(k, saved);
	kconfig_values_free(saved);
	kconfig_set_incremental(k, inc);
	kconfig_recalc(k);
	trim_free(lm);
	free(all);
	if (n != 0) {
		syms = xcalloc(n, sizeof *syms);
		whys = xcalloc(n, sizeof *whys);
	}
	for (x = 0, i = 0; x < t->nsyms && i < n; x++) {
		if (!ours[x])
			continue;
		s = kconfig_symbol(k, x);
		syms[i] = s;
		whys[i++] = trim_stay_why(t, s, ours, stay);
	}
	free(ours);
	free(stay);
	*symsp = syms;
	*whysp = whys;
	*np = n;
	return 0;
}

/* ------------------------------------------------------ verified policy */

/*
 * Whether a seed's evidence is all of the kinds a boot can confirm and a
 * module list does not show: traced functions, devices present (not
 * bound), loaded modules the symbol only adds an optional part to (for a
 * symbol beyond a module list: a module of its own would be on the list).
 * Not a bound driver, a mount, a registered filesystem, crypto in use.
 * *trace: traced functions alone (hook or notifier code).
 */
static bool
trim_verify_soft(const struct attrib_sym *as, bool *trace)
{
	enum ev_kind	kind;
	size_t		i;

	*trace = as->nrefs != 0;
	for (i = 0; i < as->nrefs; i++) {
		kind = as->refs[i].item->kind;
		if (kind != EV_TRACE && kind != EV_DEVICE && kind != EV_MODULE)
			return false;
		*trace = *trace && kind == EV_TRACE;
	}
	return as->nrefs != 0;
}

/*
 * The verified policy's marks, before the rounds: trim as the modules
 * policy would, list what that keeps beyond a module list
 * (trim_beyond_modules(), with why), and unseed its evidence seeds there
 * whose evidence is soft (trim_verify_soft()). beyond is 1 for those
 * options, 2 when the chain that keeps them starts at a seed with traced
 * functions alone. The rounds then run without the unseeded
 * (trim_keep()); trim_collect() makes candidates to_verify of what only
 * they held.
 */
int
trim_verify_prepare(struct trim *t, char **cause)
{
	struct trim_input	 in1 = *t->in;
	const struct attrib_sym	*as;
	struct trim		*t1;
	struct kc_symbol	**syms;
	char			**whys;
	size_t			 n, i, ns = (size_t)t->nsyms;
	int			 idx, root, steps;
	bool			 trace;

	in1.policy = TRIM_POLICY_MODULES;
	in1.no_removes = true;
	if ((t1 = trim_suggest(t->k, &in1, cause)) == NULL)
		return -1;
	if (trim_beyond_modules(t1, t->k, &syms, &whys, &n, cause) != 0) {
		trim_free(t1);
		return -1;
	}
	t->keep1 = xcalloc(ns + 1, 1);
	memcpy(t->keep1, t1->keep, ns);
	t->beyond = xcalloc(ns + 1, 1);
	t->unseed = xcalloc(ns + 1, 1);
	t->unseed_trace = xcalloc(ns + 1, 1);
	t->beyond_why = xcalloc(ns + 1, sizeof *t->beyond_why);
	for (i = 0; i < n; i++) {
		idx = kc_sym_index(syms[i]);
		t->beyond[idx] = 1;
		t->beyond_why[idx] = whys[i];
		if (t1->keep[idx] != K_EVIDENCE || t->in->a == NULL ||
		    (as = attrib_find(t->in->a, kc_sym_name(syms[i]))) ==
		    NULL || !trim_verify_soft(as, &trace))
			continue;
		t->unseed[idx] = 1;
		t->unseed_trace[idx] = trace;
	}
	/* The seed each option's chain of keep reasons starts at. */
	for (i = 0; i < n; i++) {
		root = kc_sym_index(syms[i]);
		for (steps = 0; steps < 64 && (t1->keep[root] == K_DEPEND ||
		    t1->keep[root] == K_SELECT) && t1->keep_by[root] >= 0;
		    steps++)
			root = t1->keep_by[root];
		if (t->unseed_trace[root])
			t->beyond[kc_sym_index(syms[i])] = 2;
	}
	free(syms);
	free(whys);
	trim_free(t1);
	return 0;
}
