/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-search.h - the fill-back search of verify, apart from what a
 * probe is: given the trims in subsystem order and a probe that says
 * whether a set of them passes, put back what the failing step needs in
 * a bounded number of probes (verify-search.c says how). verify-fillback.c
 * drives it with real builds and boots; tests/unit/test_verify_search.c
 * with an oracle over the trims of a real minimal trim.
 */
#ifndef KC_VERIFY_SEARCH_H
#define KC_VERIFY_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* One trim as the search sees it. */
struct vsearch_item {
	const char	*name;		/* for messages */
	const char	*subsys;	/* a subsystem's items are adjacent */
	bool		 kept;		/* put back (before or by the search) */
};

struct vsearch {
	/* Set by the caller. */
	struct vsearch_item *items;	/* owned by the caller */
	size_t		 n;
	/* Probes in all, counting those made before the search (probes);
	 * < 1: no bound (then every culprit is found option by option). */
	int		 budget;
	int		 probes;	/* made so far; the search adds its own */
	/*
	 * Build, boot and judge the trims want[] selects (want[i]: item i
	 * trimmed): 1 passed, 0 failed (*step: the first failing step,
	 * malloc'd), -1 with *cause (the search stops). left: the fewest
	 * probes still to come after this one (-1: not known).
	 */
	int		(*probe)(void *arg, const bool *want, int left,
			    char **step, char **cause);
	/*
	 * After a failed probe (the last one made): the items want[]
	 * selected that its console names, each given the message that
	 * named it ("STEP: MESSAGE") in named[i] (malloc'd, the search
	 * frees it); how many. NULL: nothing is ever named.
	 */
	int		(*informed)(void *arg, const char *step,
			    const bool *want, char **named);
	/* Item i put back, and why ("STEP: ..."; the text is the
	 * search's, copy it): told once the search is over. */
	void		(*keep)(void *arg, size_t i, const char *why);
	/* A remark for the report (copy it). */
	void		(*note)(void *arg, const char *text);
	void		*arg;

	/* Results. */
	bool		 passed;	/* the trims left passed a probe, or
					   are a prefix that did */
	bool		 budget_hit;	/* options were put back in batches,
					   unsearched, to stay in budget */
	int		 informed_rounds;	/* probes after a put-back the
						   console named */
	int		 culprits;	/* searched down to one option */
	int		 batches;	/* put back whole, in budget */
};

/* Put back what first_step (the failing step of the probe of every item
 * not kept) needs; 0 (s->passed says whether the trims left pass), -1
 * with *cause when a probe could not be run. */
int	 vsearch_run(struct vsearch *, const char *first_step, char **cause);

#endif
