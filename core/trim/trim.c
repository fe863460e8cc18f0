/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim.c - trim suggestions: the rounds of trim_suggest() and the life of
 * a struct trim.
 *
 * The keep-set is computed first (evidence, boot essentials, keep
 * decisions, then what those depend on and select, transitively:
 * trim-keep.c); the candidates are the visible y/m options outside it that
 * the policy allows, grouped by the menus they sit in (trim-candidates.c).
 * Consequences are computed by the engine itself on the caller's
 * configuration (trim-consequences.c): save the user values, set the
 * candidates to n, recompute, compare, restore. That is the only way to
 * see exactly what conf would do (choices, selects, defaults that follow
 * other symbols).
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "trim-int.h"

/* The policies by name: --policy and the reports read the same table. */
static const char *const trim_policy_names[] = {
	[TRIM_POLICY_MODULES] = "modules",
	[TRIM_POLICY_AGGRESSIVE] = "aggressive",
	[TRIM_POLICY_VERIFIED] = "verified",
	[TRIM_POLICY_MINIMAL] = "minimal",
};

/* A policy's name. */
const char *
trim_policy_name(enum trim_policy p)
{
	return trim_policy_names[p];
}

/* A --policy name into *p; -1 with *cause if it names none. */
int
trim_policy_parse(const char *name, enum trim_policy *p, char **cause)
{
	size_t i;

	for (i = 0; i < sizeof trim_policy_names / sizeof *trim_policy_names;
	    i++) {
		if (strcmp(name, trim_policy_names[i]) == 0) {
			*p = (enum trim_policy)i;
			return 0;
		}
	}
	*cause = xasprintf("--policy modules|aggressive|verified|minimal, not \"%s\"",
	    name);
	return -1;
}

/* Rounds of the keep-set at most (trim_suggest()). */
#define TRIM_MAX_ROUNDS 6

/* The candidates of a configuration: keep-sets tried cheapest first
 * until one holds every seed (at most TRIM_MAX_ROUNDS), then reasons,
 * savings, subsystems and what each subsystem removes. */
struct trim *
trim_suggest(struct kconfig *k, const struct trim_input *in, char **cause)
{
	struct trim	*t = xcalloc(1, sizeof *t);
	size_t		 lost;
	int		 i, round;

	t->k = k;
	t->in = in;
	t->nsyms = kconfig_nsymbols(k);
	t->keep = xcalloc((size_t)t->nsyms + 1, 1);
	t->keep_by = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_by);
	t->keep_ess = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_ess);
	t->keep_why = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_why);
	t->cand_of = xcalloc((size_t)t->nsyms + 1, sizeof *t->cand_of);
	t->whys = xcalloc((size_t)t->nsyms * W_NKINDS + 1, sizeof *t->whys);
	t->before = xcalloc((size_t)t->nsyms + 1, sizeof *t->before);
	t->after = xcalloc((size_t)t->nsyms + 1, sizeof *t->after);
	t->strict = xcalloc((size_t)t->nsyms + 1, 1);
	t->strict_seed = xcalloc((size_t)t->nsyms + 1, 1);
	t->seed_val = xcalloc((size_t)t->nsyms + 1, sizeof *t->seed_val);
	/* Each symbol enters the queue once, and once more when it turns
	 * strict. */
	t->queue = xcalloc(2 * (size_t)t->nsyms + 1, sizeof *t->queue);
	for (i = 0; i < t->nsyms; i++)
		t->cand_of[i] = -1;

	/* minimal is aggressive's rules (y options, parts of modules need
	 * their own functions traced) in every menu. */
	t->st.aggressive = in->policy == TRIM_POLICY_AGGRESSIVE ||
	    in->policy == TRIM_POLICY_MINIMAL;
	if (t->st.aggressive && (in->ev == NULL ||
	    evidence_count(in->ev, EV_TRACE) == 0)) {
		t->st.aggressive = false;
		t->st.note = in->policy == TRIM_POLICY_MINIMAL ?
		    "minimal needs a bundle with a trace: built-in options "
		    "were not considered (modules policy)" :
		    "aggressive needs a bundle with a trace: "
		    "built-in options were not considered (modules policy)";
	}
	t->st.minimal = t->st.aggressive && in->policy == TRIM_POLICY_MINIMAL;
	if (t->st.minimal)
		t->st.cpu_vendor = trim_cpu_vendor(in->ev);
	kconfig_recalc(k);
	/* verified: what the modules policy keeps beyond a module list,
	 * and which of its seeds a boot must confirm. */
	if (in->policy == TRIM_POLICY_VERIFIED && !in->module_list &&
	    trim_verify_prepare(t, cause) != 0) {
		trim_free(t);
		return NULL;
	}
	trim_ko_load(t);
	/*
	 * The keep-set, tried cheap first: one side of each ||, no selector
	 * for a hidden option with a prompt. The seeds it fails to hold are
	 * kept strictly the next round; each round only adds strict seeds,
	 * and the last makes them all strict (the safe, larger keep-set).
	 */
	for (round = 1;; round++) {
		trim_keep(t);
		trim_collect(t);
		if ((lost = trim_settle(t)) == 0 || round == TRIM_MAX_ROUNDS)
			break;
		t->st.strict_seeds += lost;
		trim_uncollect(t);
		if (round == TRIM_MAX_ROUNDS - 1)
			memset(t->strict_seed, 1, (size_t)t->nsyms);
	}
	t->st.keep_rounds = round;
	trim_describe(t);
	if (!in->no_removes && trim_removes(t, cause) != 0) {
		trim_free(t);
		return NULL;
	}
	return t;
}

/* Free a trim and everything it formatted (reasons, paths, whys). */
void
trim_free(struct trim *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ncands; i++)
		free(t->cands[i].reason);
	free(t->cands);
	for (i = 0; i < t->nsubs; i++) {
		free(t->subs[i].path);
		free(t->subs[i].cands);
	}
	free(t->subs);
	free(t->sub_menu);
	for (i = 0; i < t->npaths; i++)
		free(t->paths[i].path);
	free(t->paths);
	for (i = 0; i < (size_t)t->nsyms; i++)
		free(t->keep_why[i]);
	for (i = 0; i < (size_t)t->nsyms * W_NKINDS; i++)
		free(t->whys[i]);
	free(t->whys);
	free(t->keep_why);
	free(t->keep_ess);
	free(t->keep_by);
	free(t->keep);
	free(t->cand_of);
	free(t->arch_kept);
	free(t->before);
	free(t->after);
	free(t->queue);
	free(t->strict);
	free(t->strict_seed);
	free(t->seed_val);
	for (i = 0; t->beyond_why != NULL && i < (size_t)t->nsyms; i++)
		free(t->beyond_why[i]);
	free(t->beyond_why);
	free(t->keep1);
	free(t->beyond);
	free(t->unseed);
	free(t->unseed_trace);
	free(t->base_val);
	free(t->base_vis);
	free(t->base_cur);
	free(t->mark);
	free(t->acc);
	free(t->affected);
	free(t->base);
	free(t->base_has);
	free(t->base_tri);
	free(t->base_str);
	free(t->st.modules_dir);
	trim_ko_free(&t->ko);
	free(t);
}

/* Accessors: the trim is opaque outside the trim files. */
size_t
trim_ncands(const struct trim *t)
{
	return t->ncands;
}

/* The i-th candidate, NULL past the end. */
struct trim_cand *
trim_cand(struct trim *t, size_t i)
{
	return i < t->ncands ? &t->cands[i] : NULL;
}

/* How many subsystems have candidates. */
size_t
trim_nsubsys(const struct trim *t)
{
	return t->nsubs;
}

/* The i-th subsystem, NULL past the end. */
struct trim_subsys *
trim_subsys(struct trim *t, size_t i)
{
	return i < t->nsubs ? &t->subs[i] : NULL;
}

/* A symbol's candidate index, -1 for none (also for a symbol of
 * another tree). */
long
trim_cand_of(const struct trim *t, const struct kc_symbol *s)
{
	int idx = kc_sym_index(s);

	return idx < 0 || idx >= t->nsyms || t->cand_of[idx] < 0 ? -1 :
	    t->cand_of[idx];
}

/* The arch core's y options the minimal policy kept for want of
 * evidence that could speak for them. */
struct kc_symbol *const *
trim_arch_kept(const struct trim *t, size_t *n)
{
	*n = t->st.arch_kept;
	return t->st.minimal ? t->arch_kept : NULL;
}

/* The counts of the last trim_suggest(), for -v and reports. */
void
trim_get_stats(const struct trim *t, struct trim_stats *st)
{
	*st = t->st;
}
