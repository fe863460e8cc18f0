/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile-apply.c - a profile's options applied to a configuration
 * through enable's engine (each change with enable's reason), and
 * recorded as keep decisions naming the profile.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../trim/decisions.h"
#include "../explain/enable.h"
#include "../explain/explain.h"
#include "profile.h"

const char *
profile_status_name(enum profile_status st)
{
	switch (st) {
	case PROFILE_ALREADY:
		return "already";
	case PROFILE_PLANNED:
		return "enabled";
	case PROFILE_CANNOT:
		return "cannot";
	case PROFILE_ABSENT:
		return "absent";
	case PROFILE_LOST:
		return "lost";
	}
	return "?";
}

/* Whether sym's value gives what the option asks: m asks for m or y. */
static bool
profile_given(struct kconfig *k, struct kc_symbol *sym, enum kc_tri want)
{
	return kc_sym_tristate(k, sym) >= want;
}

/*
 * Plan one option: a module where m is asked and the tree allows one,
 * else built in (a bool, or MODULES off). The plan is NULL when the
 * option is given already.
 */
static void
profile_plan_one(struct kconfig *k, struct profile_result *r)
{
	struct enable_plan	*p;

	r->want = r->opt->value;
	r->was = kc_sym_tristate(k, r->sym);
	if (kc_sym_type(r->sym) == KC_BOOL)
		r->want = KC_YES;
	if (profile_given(k, r->sym, r->want)) {
		r->status = PROFILE_ALREADY;
		return;
	}
	p = enable_plan(k, r->sym, r->want);
	if (!p->ok && r->want == KC_MOD) {
		/* m can't be had (MODULES off, a y-only dependency):
		 * built in gives the feature too. */
		enable_plan_free(p);
		p = enable_plan(k, r->sym, KC_YES);
		if (p->ok)
			r->want = KC_YES;
	}
	if (!p->ok) {
		r->status = PROFILE_CANNOT;
		r->why_not = xstrdup(p->why_not != NULL ? p->why_not :
		    "no plan found");
		enable_plan_free(p);
		return;
	}
	r->status = PROFILE_PLANNED;
	r->plan = p;
}

/* Plan one option and apply the plan; a plan that fails to apply makes
 * the result CANNOT with the reason. */
static void
profile_give(struct kconfig *k, struct profile_apply *pa,
    struct profile_result *r)
{
	char *cause = NULL;

	profile_plan_one(k, r);
	if (r->status != PROFILE_PLANNED)
		return;
	if (enable_apply(k, r->plan, &cause) != 0) {
		r->status = PROFILE_CANNOT;
		r->why_not = cause;
		return;
	}
	pa->nchanges += r->plan->nsteps;
}

/* Rounds of giving back what later plans took away. */
#define PROFILE_ROUNDS	4

struct profile_apply *
profile_apply(struct kconfig *k, struct profile *const *prs, size_t n)
{
	struct profile_apply	*pa = xcalloc(1, sizeof *pa);
	struct profile_result	*r;
	struct kc_symbol	*sym;
	size_t			 i, j, total = 0, again;
	enum kc_type		 type;
	int			 round;

	for (i = 0; i < n; i++)
		total += prs[i]->noptions;
	pa->results = xcalloc(total + 1, sizeof *pa->results);
	for (i = 0; i < n; i++) {
		for (j = 0; j < prs[i]->noptions; j++) {
			r = &pa->results[pa->nresults++];
			r->profile = prs[i];
			r->opt = &prs[i]->options[j];
			sym = kconfig_find(k, r->opt->name);
			if (sym == NULL || kc_sym_name(sym) == NULL) {
				r->status = PROFILE_ABSENT;
				r->why_not = xstrdup("no Kconfig file of this "
				    "tree defines it");
				continue;
			}
			r->sym = sym;
			type = kc_sym_type(sym);
			if (type != KC_BOOL && type != KC_TRISTATE) {
				r->status = PROFILE_CANNOT;
				r->why_not = xstrdup("it is not a bool or "
				    "tristate option");
				continue;
			}
			profile_give(k, pa, r);
		}
	}
	/*
	 * A later plan may take an earlier option away: a default that gave
	 * it changes (EXPERT=y for KCMP makes NAMESPACES visible, and its
	 * "default !EXPERT" n), or a "depends on !X" of another profile.
	 * Such an option is planned again, now as a value of its own, for a
	 * few rounds; what is still away after them is said.
	 */
	for (round = 0; round < PROFILE_ROUNDS; round++) {
		again = 0;
		for (i = 0; i < pa->nresults; i++) {
			r = &pa->results[i];
			if ((r->status != PROFILE_ALREADY &&
			    r->status != PROFILE_PLANNED) ||
			    profile_given(k, r->sym, r->want))
				continue;
			enable_plan_free(r->plan);
			r->plan = NULL;
			r->again = true;
			profile_give(k, pa, r);
			again++;
		}
		if (again == 0)
			break;
	}
	for (i = 0; i < pa->nresults; i++) {
		r = &pa->results[i];
		if ((r->status == PROFILE_ALREADY ||
		    r->status == PROFILE_PLANNED) &&
		    !profile_given(k, r->sym, r->want)) {
			enable_plan_free(r->plan);
			r->plan = NULL;
			r->status = PROFILE_LOST;
			r->why_not = xasprintf("a later change of these "
			    "profiles made it %s again",
			    explain_tri_name(kc_sym_tristate(k, r->sym)));
		}
		if ((r->status == PROFILE_CANNOT ||
		    r->status == PROFILE_ABSENT ||
		    r->status == PROFILE_LOST) && !r->opt->optional)
			pa->nmissing++;
	}
	return pa;
}

void
profile_apply_free(struct profile_apply *pa)
{
	size_t i;

	if (pa == NULL)
		return;
	for (i = 0; i < pa->nresults; i++) {
		enable_plan_free(pa->results[i].plan);
		free(pa->results[i].why_not);
	}
	free(pa->results);
	free(pa);
}

/*
 * The reason to record for r, given the decision there is: "need NAME:
 * reason"; a keep another profile recorded ("need A: ...") becomes
 * "need A, NAME: ..." so that it names both. NULL when the decision
 * says it already, or is the user's own keep (their words stay).
 */
static char *
profile_reason(const struct profile_result *r, enum decision have,
    const char *old)
{
	const char	*name = r->profile->name, *colon, *p;
	size_t		 nlen = strlen(name);

	if (have != DECISION_KEEP || old == NULL)
		return xasprintf("need %s: %s", name, r->opt->reason);
	if (strncmp(old, "need ", 5) != 0 ||
	    (colon = strchr(old, ':')) == NULL)
		return NULL;
	/* The names between "need " and ':', separated by ", ". */
	for (p = old + 5; p < colon; p++) {
		if ((p == old + 5 || (p[-1] == ' ' && p[-2] == ',')) &&
		    (size_t)(colon - p) >= nlen &&
		    strncmp(p, name, nlen) == 0 &&
		    (p + nlen == colon || p[nlen] == ','))
			return NULL;
	}
	return xasprintf("%.*s, %s%s", (int)(colon - old), old, name, colon);
}

size_t
profile_record(const struct profile_apply *pa, struct decisions *d)
{
	const struct profile_result	*r;
	const char			*name;
	char				*reason;
	size_t				 i, n = 0;

	for (i = 0; i < pa->nresults; i++) {
		r = &pa->results[i];
		if (r->status != PROFILE_ALREADY &&
		    r->status != PROFILE_PLANNED)
			continue;
		name = kc_sym_name(r->sym);
		reason = profile_reason(r, decisions_get(d, name),
		    decisions_reason(d, name));
		if (reason == NULL)
			continue;
		decisions_set(d, name, DECISION_KEEP, reason);
		free(reason);
		n++;
	}
	return n;
}
