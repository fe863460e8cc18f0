/* SPDX-License-Identifier: GPL-2.0 */
/*
 * effects.h - everything accepting some candidates of one subsystem turns
 * off, each option once, grouped as the trim review shows them: the
 * candidates themselves, what they drag along in the same subsystem (the
 * same nearest menu), and what they drag along elsewhere (with that
 * option's menu path), each with its reason worded as the export's report
 * words it ("depends on AC97_BUS", "was selected by SND_AD1889"). The
 * count is the one the report gives for the same accept ("removed: N
 * options"): tests/unit/test_effects.c walks every subsystem of two
 * bundles to hold them equal.
 */
#ifndef KC_TRIM_EFFECTS_H
#define KC_TRIM_EFFECTS_H

#include <stddef.h>

#include "trim.h"

enum trim_effect_group {
	TE_CANDIDATE,	/* an accepted candidate itself */
	TE_HERE,	/* dragged along, in the subsystem accepted */
	TE_ELSEWHERE,	/* dragged along, in another menu */
	TE_NGROUPS
};

struct trim_effect {
	int			 sym;		/* symbol index */
	enum kc_tri		 before, after;	/* after is n */
	enum trim_effect_group	 group;
	/* The candidate's reason, or what took it along ("depends on X",
	 * "was selected by X", "follows": the report's words); the
	 * trim's, alive as long as it. */
	const char		*why;
	/* The candidate (index) it goes with: itself, or the one the
	 * chain of causes leads to (the report files it there); -1 when
	 * no single one does. */
	long			 cand;
	char			*path;		/* its menu path (malloc'd) */
};

struct trim_effects {
	struct trim_effect	*e;		/* groups in order, each in
						   symbol order */
	size_t			 n;
	size_t			 ngroup[TE_NGROUPS];
	/* Other changes the accept makes (not a y/m option turned off:
	 * a choice that moves to another value, m made y): counted,
	 * not listed, as the report lists them apart. */
	size_t			 nother;
};

/*
 * What accepting cands (of subsystem sub; candidates already n are
 * simply not in the result) turns off on k's values (restored before
 * returning): 0 with *out filled (trim_effects_free() frees it), or -1
 * with *cause.
 */
int	trim_effects(struct trim *, struct kconfig *, size_t sub,
	    const size_t *cands, size_t n, struct trim_effects *out,
	    char **cause);
void	trim_effects_free(struct trim_effects *);
#endif
