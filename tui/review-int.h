/* SPDX-License-Identifier: GPL-2.0 */
/*
 * review-int.h - the trim review's state, shared by its actions
 * (review.c: the worker's consequences, accept, reject, undo, decisions,
 * export) and its views (review-views.c).
 */
#ifndef KC_TUI_REVIEW_INT_H
#define KC_TUI_REVIEW_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/trim/decisions.h"
#include "../core/trim/effects.h"
#include "../core/trim/trim.h"
#include "../kconfig-parser/kconfig.h"
#include "tui.h"

/* One accept or reject, to undo. */
struct review_undo {
	struct kc_values	*values;
	size_t			*cands, n;
	enum trim_state		*state;
	enum decision		*dec;
	char		       **reason;
	/* What the step decided for each (its own word): undo puts back
	 * only those still so, not one decided outside since. */
	enum decision		*set;
};

/* What the worker computes for the open subsystem. */
struct review_change {
	int			 sym;
	enum kc_tri		 before, after;
	const char		*why;		/* the trim's */
};

/* No subsystem open: a request or result for the list alone. */
#define REVIEW_NO_SUB	((size_t)-1)

struct review_result {
	uint64_t		 id;
	size_t			 sub, n;	/* sub: REVIEW_NO_SUB or the
						   open one */
	size_t			*cands;
	struct review_change   **ch;		/* per candidate, others */
	size_t			*nch;
	/* Everything accepting all n turns off, grouped (effects.h):
	 * what the subsystem view lists, fx.n its "turns off N". */
	struct trim_effects	 fx;
	/* Per subsystem, what accepting the candidates not yet accepted
	 * turns off now (the list's "off"), taken over by the review. */
	size_t			*sub_removes;
	double			 ms;
};

struct review_req {
	uint64_t		 id;
	struct tui_trim		*tt;
	size_t			 sub, n;
	size_t			*cands;
	/* Per candidate, accepted when asked (the worker does not read
	 * the states the interface changes). */
	bool			*accepted;
};

struct tui_trim {
	struct tui		*tui;
	struct kconfig		*k;	/* the trim's (start values) */
	struct trim		*t;
	struct decisions	*d;
	char			*dpath;
	enum trim_policy	 policy;
	/* trim_consequences() uses the trim's scratch arrays: the worker
	 * and the export take turns. */
	pthread_mutex_t		 calc;
	struct review_undo	*undo;
	size_t			 nundo;
	struct review_result	*res;
	uint64_t		 reqid;
	bool			 sub_open;
	size_t			 open_sub;
	char			*keys;	/* stable tree keys */
	/* Where the cursors were when the views closed: the list's line
	 * and, in the subsystem last open, its line (tree keys). */
	const void		*list_key;
	size_t			 last_sub;
	const void		*sub_key;
	int			 sort;		/* rlist_sorts[] */
	/* Per candidate, what accepting it turned off, as last computed
	 * before it was accepted: still shown under it after. */
	struct review_change   **dragged;
	size_t			*ndragged;
	/* Whether the decisions file was there when the review began: if
	 * not, and no decision is left (a then u), none is written. */
	bool			 dexisted;
	/* Whether some candidate's modules have a known size (KiB): the
	 * list has a KiB column only then. */
	bool			 sizes;
	/* Per subsystem, what it turns off on the values as they are now
	 * (the worker's last sub_removes), or NULL before the first. */
	size_t			*removes;
};

/* RI_GROUP: a group of what accepting the subsystem drags along
 * (change: enum trim_effect_group); RI_EFFECT: one option of it
 * (change: its index in the result's fx). */
enum ritem_kind { RI_SUB, RI_ALL, RI_CAND, RI_CHANGE, RI_GROUP, RI_EFFECT };

struct ritem {
	enum ritem_kind	 kind;
	size_t		 sub, cand, change;
};
/* review.c: the worker's result freed; ask it for the open subsystem's
 * consequences, or drop the request; a candidate's consequences (NULL:
 * none known); reviewed candidates of a subsystem, and subsystems done;
 * accept or reject candidates (each with its reason, or NULL) as one
 * undo step. */
void	 review_result_free(struct review_result *);
void	 review_request_clear(struct tui *);
struct review_change *review_changes_of(struct tui_trim *, size_t cand,
	     size_t *n);
size_t	 review_done(struct tui_trim *, size_t sub);
bool	 review_gone(struct tui_trim *, size_t cand);
size_t	 review_removes(struct tui_trim *, size_t sub);
const struct trim_effects *review_effects(struct tui_trim *, size_t sub);
size_t	 review_subsys_done(struct tui_trim *);
void	 review_decide(struct tui *, const size_t *cands, size_t n,
	     enum trim_state to, char *const *reasons);
#endif
