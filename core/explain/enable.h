/* SPDX-License-Identifier: GPL-2.0 */
/*
 * enable.h - "how do I turn this on?": the smallest set of other changes
 * that lets a symbol take a value, through depends-on chains, visible-if,
 * choices and conflicts, each step with its reason; verified on a copy of
 * the values before it is handed out.
 */
#ifndef KC_ENABLE_H
#define KC_ENABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kconfig-parser/kconfig.h"

struct enable_step {
	struct kc_symbol	*sym;
	enum kc_tri		 value;
	char			*reason;	/* why, in plain language */
};

struct enable_plan {
	bool			 ok;
	struct enable_step	*steps;		/* in order of application;
						   the last sets the target */
	size_t			 nsteps;
	char			*why_not;	/* plain language, when !ok */
	struct kc_symbol	*target;
	enum kc_tri		 want;
	bool			 already;	/* ok: it has the value now */
};

/* Plan the changes; the configuration's values are left as they were.
 * Never NULL: a refusal is a plan with ok false and why_not set. */
struct enable_plan *enable_plan(struct kconfig *, struct kc_symbol *,
		     enum kc_tri want);
/* Apply a plan (ok) to the configuration; -1 with *cause when a step
 * can't be applied or the target does not end with the value. */
int		 enable_apply(struct kconfig *, const struct enable_plan *,
		     char **cause);
void		 enable_plan_free(struct enable_plan *);
#endif
