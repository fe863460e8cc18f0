/* SPDX-License-Identifier: GPL-2.0 */
/*
 * review.c - the trim review (t): the subsystems with trim candidates,
 * their savings and how many are reviewed; a subsystem's candidates with
 * their reasons and what accepting each turns off besides (computed by
 * the background worker, on its own configuration: the trim maps symbols
 * by index); accept (a), reject (r), undo (u), and the export (e) of the
 * trimmed configuration with its report, as `kctui export` writes them.
 *
 * Accepting sets the candidates to n in the interface's configuration
 * (trim_apply), rejecting keeps them; both are recorded in the decisions
 * file at once so that the next run honours them. Undo restores a saved
 * copy of the values.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../core/trim/decisions.h"
#include "../core/trim/export.h"
#include "../core/session.h"
#include "../core/trim/trim.h"
#include "../core/verify-session.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

#include "review-int.h"

struct tui_trim *
review_new(struct tui *t, struct kconfig *k, struct trim *tr,
    struct decisions *d, char *dpath, int policy, double ms)
{
	struct tui_trim *tt = xcalloc(1, sizeof *tt);
	size_t		 i;

	(void)ms;
	tt->tui = t;
	tt->k = k;
	tt->t = tr;
	tt->d = d;
	tt->dpath = dpath;
	tt->policy = (enum trim_policy)policy;
	tt->dexisted = access(dpath, F_OK) == 0;
	for (i = 0; i < trim_ncands(tr); i++)
		tt->sizes |= trim_cand(tr, i)->ko_bytes != 0;
	tt->dragged = xcalloc(trim_ncands(tr) + 1, sizeof *tt->dragged);
	tt->ndragged = xcalloc(trim_ncands(tr) + 1, sizeof *tt->ndragged);
	pthread_mutex_init(&tt->calc, NULL);
	/* Subsystems, candidates, their changes (a symbol each), the
	 * groups' options (a symbol each), the groups. */
	tt->keys = xcalloc(trim_ncands(tr) + trim_nsubsys(tr) +
	    2 * (size_t)kconfig_nsymbols(k) + TE_NGROUPS + 2, 1);
	return tt;
}

/* Free a result of the worker's. */
void
review_result_free(struct review_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		free(r->ch[i]);
	free(r->ch);
	free(r->nch);
	free(r->cands);
	trim_effects_free(&r->fx);
	free(r->sub_removes);
	free(r);
}

void
review_consequences_free(void *p)
{
	review_result_free(p);
}

static void
review_undo_clear(struct review_undo *u)
{
	size_t i;

	kconfig_values_free(u->values);
	for (i = 0; i < u->n; i++)
		free(u->reason[i]);
	free(u->reason);
	free(u->dec);
	free(u->set);
	free(u->state);
	free(u->cands);
}

void
review_free(struct tui *t)
{
	struct tui_trim	*tt = t->trim;
	size_t		 i;

	review_request_clear(t);
	if (tt == NULL)
		return;
	for (i = 0; i < tt->nundo; i++)
		review_undo_clear(&tt->undo[i]);
	free(tt->undo);
	review_result_free(tt->res);
	free(tt->removes);
	for (i = 0; i < trim_ncands(tt->t); i++)
		free(tt->dragged[i]);
	free(tt->dragged);
	free(tt->ndragged);
	trim_free(tt->t);
	decisions_free(tt->d);
	free(tt->dpath);
	free(tt->keys);
	pthread_mutex_destroy(&tt->calc);
	free(tt);
	t->trim = NULL;
}

bool
review_is_candidate(struct tui *t, const struct kc_symbol *s)
{
	long c;

	if (t->trim == NULL || (c = trim_cand_of(t->trim->t, s)) < 0)
		return false;
	return trim_cand(t->trim->t, (size_t)c)->state == TRIM_PENDING;
}

/* The suggestion mark of a pending candidate: ✂, or ⊘ when kctui verify
 * could not test it (its device has no QEMU twin: trim_cand's nontwin). */
const char *
review_mark(struct tui *t, const struct kc_symbol *s)
{
	long c;

	if (t->trim != NULL && (c = trim_cand_of(t->trim->t, s)) >= 0 &&
	    trim_cand(t->trim->t, (size_t)c)->nontwin != NULL)
		return t->ascii ? "Q" : "\u2298";
	return menu_trim_mark(t);
}

static void	review_save_decisions(struct tui *);
static void	review_reread(struct tui *);
static void	review_remember(struct tui_trim *,
		    const struct review_result *);

/* ------------------------------------------------------ consequences */

/* Per subsystem, what accepting its candidates not accepted yet turns
 * off on k's values (the list's "off" column, as they are now). */
static size_t *
review_sub_removes(struct tui_trim *tt, struct kconfig *k,
    const bool *accepted)
{
	struct trim_subsys	*sub;
	struct trim_change	*ch;
	size_t			*rm, *cands, nc, nch, s, i;
	char			*cause = NULL;

	rm = xcalloc(trim_nsubsys(tt->t) + 1, sizeof *rm);
	cands = xcalloc(trim_ncands(tt->t) + 1, sizeof *cands);
	for (s = 0; s < trim_nsubsys(tt->t); s++) {
		sub = trim_subsys(tt->t, s);
		for (i = nc = 0; i < sub->ncands; i++)
			if (!accepted[sub->cands[i]])
				cands[nc++] = sub->cands[i];
		if (nc == 0)
			continue;
		if (trim_consequences(tt->t, k, cands, nc, &ch, &nch,
		    &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		rm[s] = trim_changes_removed(ch, nch);
		free(ch);
	}
	free(cands);
	return rm;
}

/* What accepting each candidate (and all of them, grouped) changes, on
 * k, and what every subsystem turns off now. */
static struct review_result *
review_compute(struct tui_trim *tt, struct kconfig *k, uint64_t id,
    size_t sub, const size_t *cands, size_t n, const bool *accepted)
{
	struct review_result	*r = xcalloc(1, sizeof *r);
	struct trim_change	*ch;
	size_t			 nch, i, j, m;
	char			*cause = NULL;
	uint64_t		 t0 = clock_ns();

	r->id = id;
	r->sub = sub;
	r->n = n;
	r->cands = xcalloc(n + 1, sizeof *r->cands);
	memcpy(r->cands, cands, n * sizeof *cands);
	r->ch = xcalloc(n + 1, sizeof *r->ch);
	r->nch = xcalloc(n + 1, sizeof *r->nch);
	pthread_mutex_lock(&tt->calc);
	for (i = 0; i < n; i++) {
		if (trim_consequences(tt->t, k, &cands[i], 1, &ch, &nch,
		    &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		r->ch[i] = xcalloc(nch + 1, sizeof *r->ch[i]);
		for (j = m = 0; j < nch; j++) {
			if (kc_sym_index(ch[j].sym) == kc_sym_index(
			    trim_cand(tt->t, cands[i])->sym))
				continue;
			r->ch[i][m].sym = kc_sym_index(ch[j].sym);
			r->ch[i][m].before = ch[j].before;
			r->ch[i][m].after = ch[j].after;
			r->ch[i][m].why = ch[j].why;
			m++;
		}
		r->nch[i] = m;
		free(ch);
	}
	if (n > 0 && sub != REVIEW_NO_SUB && trim_effects(tt->t, k, sub,
	    cands, n, &r->fx, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	r->sub_removes = review_sub_removes(tt, k, accepted);
	pthread_mutex_unlock(&tt->calc);
	r->ms = (double)(clock_ns() - t0) / 1e6;
	return r;
}

void *
review_consequences(void *arg, struct kconfig *k, const struct kc_values *b)
{
	struct tui		*t = arg;
	struct review_req	 r;
	struct review_result	*res;

	(void)b;
	pthread_mutex_lock(&t->trim_lock);
	pthread_mutex_lock(&t->req_lock);
	if (t->req == NULL) {
		pthread_mutex_unlock(&t->req_lock);
		pthread_mutex_unlock(&t->trim_lock);
		return NULL;
	}
	r = *t->req;
	r.cands = xcalloc(r.n + 1, sizeof *r.cands);
	memcpy(r.cands, t->req->cands, r.n * sizeof *r.cands);
	r.accepted = xcalloc(trim_ncands(r.tt->t) + 1, sizeof *r.accepted);
	memcpy(r.accepted, t->req->accepted, trim_ncands(r.tt->t) *
	    sizeof *r.accepted);
	pthread_mutex_unlock(&t->req_lock);
	res = review_compute(r.tt, k, r.id, r.sub, r.cands, r.n, r.accepted);
	pthread_mutex_unlock(&t->trim_lock);
	free(r.cands);
	free(r.accepted);
	return res;
}

static void	review_request_free(struct review_req *);

/* Ask for what every subsystem turns off now and, with a subsystem open,
 * its consequences (of the candidates not yet accepted), on the values
 * as they are now: after every change of the values, so that no row of
 * the review is left from before an accept (issue 35, item 6). */
void
review_request(struct tui *t)
{
	struct tui_trim		*tt = t->trim;
	struct trim_subsys	*sub;
	struct review_req	*q = xcalloc(1, sizeof *q);
	size_t			 i;

	q->id = ++tt->reqid;
	q->tt = tt;
	q->sub = tt->sub_open ? tt->open_sub : REVIEW_NO_SUB;
	q->accepted = xcalloc(trim_ncands(tt->t) + 1, sizeof *q->accepted);
	for (i = 0; i < trim_ncands(tt->t); i++)
		q->accepted[i] = trim_cand(tt->t, i)->state == TRIM_ACCEPTED;
	sub = tt->sub_open ? trim_subsys(tt->t, tt->open_sub) : NULL;
	q->cands = xcalloc((sub != NULL ? sub->ncands : 0) + 1,
	    sizeof *q->cands);
	for (i = 0; sub != NULL && i < sub->ncands; i++) {
		if (!q->accepted[sub->cands[i]])
			q->cands[q->n++] = sub->cands[i];
	}
	if (t->w == NULL) {
		/* No worker: here (the values are restored). */
		review_result_free(tt->res);
		tt->res = review_compute(tt, t->k, q->id, q->sub, q->cands,
		    q->n, q->accepted);
		review_remember(tt, tt->res);
		free(tt->removes);
		tt->removes = tt->res->sub_removes;
		tt->res->sub_removes = NULL;
		review_request_free(q);
		return;
	}
	pthread_mutex_lock(&t->req_lock);
	review_request_free(t->req);
	t->req = q;
	pthread_mutex_unlock(&t->req_lock);
	t->gen = worker_submit(t->w, kconfig_values_save(t->k));
}

/* Free a request (NULL: none). */
static void
review_request_free(struct review_req *q)
{
	if (q == NULL)
		return;
	free(q->cands);
	free(q->accepted);
	free(q);
}

/* Drop the request not yet taken by the worker. */
void
review_request_clear(struct tui *t)
{
	pthread_mutex_lock(&t->req_lock);
	review_request_free(t->req);
	t->req = NULL;
	pthread_mutex_unlock(&t->req_lock);
}

/* Keep what each candidate of a result turns off, for after it is
 * accepted (then the worker no longer computes it). */
static void
review_remember(struct tui_trim *tt, const struct review_result *r)
{
	size_t i, c;

	for (i = 0; i < r->n; i++) {
		if ((c = r->cands[i]) >= trim_ncands(tt->t) || r->ch[i] == NULL)
			continue;
		free(tt->dragged[c]);
		tt->dragged[c] = xcalloc(r->nch[i] + 1, sizeof *r->ch[i]);
		memcpy(tt->dragged[c], r->ch[i], r->nch[i] * sizeof *r->ch[i]);
		tt->ndragged[c] = r->nch[i];
	}
}

void
review_collect(struct tui *t, struct worker_snapshot *s)
{
	struct review_result *r = s->consequences;

	if (r == NULL || t->trim == NULL || r->id != t->trim->reqid)
		return;
	free(t->trim->removes);
	t->trim->removes = r->sub_removes;
	r->sub_removes = NULL;
	review_result_free(t->trim->res);
	t->trim->res = r;
	review_remember(t->trim, r);
	s->consequences = NULL;
	/* Rows come and go with the result (the groups, the
	 * candidates already off). */
	if (t->view != NULL)
		tree_build(t->view->tree);
	tui_bench(t, "consequences %.3f", r->ms);
}

/*
 * The values changed (a new snapshot of the newest values): an accepted
 * candidate that is on again (set in the menu, a plan, a load) is no
 * longer accepted, its trim decision forgotten, and the message says so.
 * One state: what the review shows accepted is what is n.
 */
void
review_sync(struct tui *t)
{
	struct tui_trim		*tt = t->trim;
	struct trim_cand	*c;
	struct strbuf		 names;
	size_t			 i, n = 0;
	int			 v = 0;

	if (tt == NULL || t->snap->gen < t->gen)
		return;
	strbuf_init(&names);
	for (i = 0; i < trim_ncands(tt->t); i++) {
		c = trim_cand(tt->t, i);
		if (c->state != TRIM_ACCEPTED ||
		    (v = t->snap->tri[kc_sym_index(c->sym)]) == 0)
			continue;
		c->state = TRIM_PENDING;
		decisions_set(tt->d, c->name, DECISION_NONE, NULL);
		strbuf_addf(&names, "%sCONFIG_%s=%c", n > 0 ? ", " : "",
		    c->name, "nmy"[v]);
		n++;
	}
	if (n > 0) {
		review_save_decisions(t);
		tui_message(t, EL_ERROR, "%s %s on again: no longer accepted "
		    "in the trim review", names.s, n == 1 ? "is" : "are");
		if (t->view != NULL)
			tree_build(t->view->tree);
	}
	strbuf_free(&names);
}

/* The consequences of a candidate in the current result (of an
 * accepted one, those remembered), or NULL. */
struct review_change *
review_changes_of(struct tui_trim *tt, size_t cand, size_t *n)
{
	size_t i;

	*n = 0;
	/* Accepted: what it turned off, as computed before. */
	if (cand < trim_ncands(tt->t) && trim_cand(tt->t, cand)->state ==
	    TRIM_ACCEPTED) {
		*n = tt->ndragged[cand];
		return tt->dragged[cand];
	}
	if (tt->res == NULL || tt->res->id != tt->reqid)
		return NULL;
	for (i = 0; i < tt->res->n; i++) {
		if (tt->res->cands[i] == cand) {
			*n = tt->res->nch[i];
			return tt->res->ch[i];
		}
	}
	return NULL;
}

/* ---------------------------------------------------------- decisions */

/* Whether a candidate not decided is off already: another accept took
 * it along (its value in the newest snapshot is n). */
bool
review_gone(struct tui_trim *tt, size_t cand)
{
	struct trim_cand *c = trim_cand(tt->t, cand);

	return c->state == TRIM_PENDING && tt->tui->snap != NULL &&
	    tt->tui->snap->tri[kc_sym_index(c->sym)] == KC_NO;
}

/* Reviewed candidates of a subsystem: decided, or off already (nothing
 * left to decide). */
size_t
review_done(struct tui_trim *tt, size_t s)
{
	struct trim_subsys	*sub = trim_subsys(tt->t, s);
	size_t			 i, n = 0;

	for (i = 0; i < sub->ncands; i++)
		n += trim_cand(tt->t, sub->cands[i])->state != TRIM_PENDING ||
		    review_gone(tt, sub->cands[i]);
	return n;
}

/* What accepting a subsystem's candidates not accepted yet turns off,
 * on the values as they are now (the suggestion's count until the
 * worker's first answer). */
size_t
review_removes(struct tui_trim *tt, size_t s)
{
	return tt->removes != NULL ? tt->removes[s] :
	    trim_subsys(tt->t, s)->removes;
}

/* The open subsystem's grouped effects, current, or NULL. */
const struct trim_effects *
review_effects(struct tui_trim *tt, size_t s)
{
	if (tt->res == NULL || tt->res->id != tt->reqid || tt->res->sub != s)
		return NULL;
	return &tt->res->fx;
}

/* Subsystems whose every candidate is reviewed. */
size_t
review_subsys_done(struct tui_trim *tt)
{
	size_t s, n = 0;

	for (s = 0; s < trim_nsubsys(tt->t); s++)
		n += review_done(tt, s) == trim_subsys(tt->t, s)->ncands;
	return n;
}

/*
 * Take in the decisions made beside the browser since it last read or
 * wrote the file (another `kctui decide` on this config; issue 37, item
 * 12) and show them: a candidate kept outside is kept here (set back on
 * if it was accepted), one trimmed or forgotten outside is open again;
 * the message names them, the marks follow.
 */
static void
review_reread(struct tui *t)
{
	struct tui_trim		*tt = t->trim;
	struct trim_cand	*c;
	struct kc_symbol	*s;
	struct strbuf		 names;
	enum decision		 d;
	char			**syms = NULL, *cause = NULL;
	size_t			 n = 0, i;
	long			 ci;
	bool			 values = false;

	if (decisions_reread(tt->d, tt->dpath, &syms, &n, &cause) != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
		return;
	}
	strbuf_init(&names);
	for (i = 0; i < n; i++) {
		d = decisions_get(tt->d, syms[i]);
		strbuf_addf(&names, "%sCONFIG_%s %s", i ? ", " : "", syms[i],
		    decision_name(d));
		s = kconfig_find(t->k, syms[i]);
		if (s == NULL || (ci = trim_cand_of(tt->t, s)) < 0)
			continue;
		c = trim_cand(tt->t, (size_t)ci);
		if (d == DECISION_KEEP) {
			if (c->state == TRIM_ACCEPTED) {
				kc_sym_set_tristate(t->k, s, c->value);
				t->snap->tri[kc_sym_index(s)] =
				    (uint8_t)c->value;
				values = true;
			}
			c->state = TRIM_REJECTED;
		} else if (c->state == TRIM_REJECTED)
			c->state = TRIM_PENDING;
	}
	for (i = 0; i < n; i++)
		free(syms[i]);
	free(syms);
	if (n > 0) {
		tui_message(t, EL_STATUS, "Decided outside the browser (%s), "
		    "taken in: %s", tt->dpath, names.s);
		if (values)
			tui_changed(t);
		if (t->view != NULL)
			tree_build(t->view->tree);
	}
	strbuf_free(&names);
}

/*
 * Write the decisions file, with the configuration (s, or y when
 * leaving): an accept or a reject is a change to what is being edited,
 * not a write of its own, so a quit without saving leaves the file as it
 * was at the last save. Nothing the user did not decide: with no
 * decision left in a file this review created, the file goes. 0, or -1
 * with *cause.
 */
int
review_save(struct tui *t, char **cause)
{
	struct tui_trim *tt = t->trim;

	if (tt == NULL)
		return 0;
	/* Shown first: what was decided beside the browser. */
	review_reread(t);
	if (decisions_unsaved(tt->d) == 0)
		return 0;
	/* Saved (merged with what other writers saved meanwhile) first;
	 * then a file this review created and left empty goes, unless
	 * another writer's decision is in it now. */
	if (decisions_save(tt->d, tt->dpath, cause) != 0)
		return -1;
	if (decisions_count(tt->d) == 0 && !tt->dexisted &&
	    decisions_drop_if_empty(tt->dpath, cause) != 0)
		return -1;
	return 0;
}

/* How many decisions s would write (0 without a review). */
size_t
review_unsaved(struct tui *t)
{
	return t->trim != NULL ? decisions_unsaved(t->trim->d) : 0;
}

/*
 * The configuration being edited is now config (absolute: saved under
 * another name, or loaded): without --decisions, the decisions go to its
 * own file from now on, all of them (they are what the review shows),
 * with the next save. Decisions belong to a configuration.
 */
void
review_follow_config(struct tui *t, const char *config)
{
	struct tui_trim	*tt = t->trim;
	char		*np;

	if (tt == NULL || t->session->decisions_given)
		return;
	np = decisions_path_for(config);
	if (strcmp(np, tt->dpath) == 0) {
		free(np);
		return;
	}
	free(tt->dpath);
	tt->dpath = np;
	tt->dexisted = access(np, F_OK) == 0;
	decisions_touch_all(tt->d);
}

/* The decisions file's path (NULL without a review). */
const char *
review_decisions_path(struct tui *t)
{
	return t->trim != NULL ? t->trim->dpath : NULL;
}

/* Decisions may have been made: unsaved until s, and the quit asks
 * (nothing when none was, as an accept that could not be applied). */
static void
review_save_decisions(struct tui *t)
{
	if (review_unsaved(t) > 0)
		t->dirty = true;
}

/* Values changed: recompute, with what every subsystem turns off (and
 * the consequences when a subsystem is open). */
static void
review_changed(struct tui *t)
{
	tui_changed(t);
}

/* Accept (or reject) candidates: one undo step. */
void
review_decide(struct tui *t, const size_t *cands, size_t n,
    enum trim_state to, char *const *reasons)
{
	struct tui_trim		*tt = t->trim;
	struct review_undo	*u;
	struct trim_cand	*c;
	struct kc_symbol	*s;
	size_t			*acc, nacc = 0, i, nok = 0;
	char			*cause = NULL;
	const char		*r;
	bool			 values = false;

	if (n == 0)
		return;
	tt->undo = xrealloc(tt->undo, (tt->nundo + 1) * sizeof *tt->undo);
	u = &tt->undo[tt->nundo++];
	memset(u, 0, sizeof *u);
	u->values = kconfig_values_save(t->k);
	u->n = n;
	u->cands = xcalloc(n, sizeof *u->cands);
	u->state = xcalloc(n, sizeof *u->state);
	u->dec = xcalloc(n, sizeof *u->dec);
	u->set = xcalloc(n, sizeof *u->set);
	u->reason = xcalloc(n, sizeof *u->reason);
	acc = xcalloc(n, sizeof *acc);
	for (i = 0; i < n; i++) {
		c = trim_cand(tt->t, cands[i]);
		u->cands[i] = cands[i];
		u->state[i] = c->state;
		u->dec[i] = decisions_get(tt->d, c->name);
		r = decisions_reason(tt->d, c->name);
		u->reason[i] = r != NULL ? xstrdup(r) : NULL;
		if (to == TRIM_ACCEPTED && c->state != TRIM_ACCEPTED)
			acc[nacc++] = cands[i];
		if (to == TRIM_REJECTED && c->state == TRIM_ACCEPTED) {
			/* Back to its value before the review. */
			s = kconfig_symbol(t->k, kc_sym_index(c->sym));
			kc_sym_set_tristate(t->k, s, c->value);
			t->snap->tri[kc_sym_index(c->sym)] = (uint8_t)c->value;
			values = true;
		}
		if (to == TRIM_REJECTED)
			c->state = TRIM_REJECTED;
	}
	if (nacc > 0) {
		/* cause: those that could not be set to n, and why; the
		 * values changed only if one could. */
		trim_apply(tt->t, t->k, acc, nacc, &cause);
		for (i = 0; i < nacc; i++)
			values |= trim_cand(tt->t, acc[i])->state ==
			    TRIM_ACCEPTED;
	}
	for (i = 0; i < n; i++) {
		c = trim_cand(tt->t, cands[i]);
		if (c->state != to)
			continue;
		nok++;
		if (to == TRIM_ACCEPTED) {
			/* The main view shows it at once; the worker brings
			 * what follows. */
			t->snap->tri[kc_sym_index(c->sym)] = 0;
			decisions_set(tt->d, c->name, DECISION_TRIM,
			    "accepted in the kctui trim review");
		} else
			decisions_set(tt->d, c->name, DECISION_KEEP,
			    reasons != NULL ? reasons[i] :
			    "kept in the kctui trim review");
	}
	for (i = 0; i < n; i++)
		u->set[i] = decisions_get(tt->d, trim_cand(tt->t,
		    cands[i])->name);
	free(acc);
	review_save_decisions(t);
	if (values)
		review_changed(t);
	if (cause != NULL) {
		/* Which ones and why, in full, in a pager. */
		tui_message(t, EL_ERROR, "%zu of %zu options trimmed; %zu could "
		    "not be set to n (the list is open; q closes it)", nok, n,
		    n - nok);
		help_text_open(t, xstrdup("Not trimmed"), cause);
		return;
	}
	if (t->msg == NULL) {
		/* Say plainly where an accept goes: the configuration
		 * being edited; the decisions file is written with it. */
		const char *where = to == TRIM_ACCEPTED ? ": set to n in the "
		    "config being edited (u undoes, s saves, e exports)" :
		    " (s saves the decision)";

		if (n == 1)
			tui_message(t, EL_STATUS, "CONFIG_%s: %s%s",
			    trim_cand(tt->t, cands[0])->name, to ==
			    TRIM_ACCEPTED ? "trimmed" : "kept", where);
		else
			tui_message(t, EL_STATUS, "%zu options %s%s", nok,
			    to == TRIM_ACCEPTED ? "trimmed" : "kept", where);
	}
}

int
review_undo(struct tui *t)
{
	struct tui_trim		*tt = t->trim;
	struct review_undo	*u;
	size_t			 i, outside = 0;

	if (tt == NULL || tt->nundo == 0) {
		tui_message(t, EL_STATUS, "Nothing to undo");
		return R_ALL;
	}
	/* What was decided beside the browser first: it is not this
	 * step's to undo. */
	review_reread(t);
	u = &tt->undo[--tt->nundo];
	if (kconfig_values_restore(t->k, u->values) != 0)
		tui_message(t, EL_ERROR, "undo: values of another tree");
	for (i = 0; i < u->n; i++) {
		struct trim_cand *c = trim_cand(tt->t, u->cands[i]);

		if (decisions_get(tt->d, c->name) != u->set[i]) {
			/* Decided outside since: that word stays. */
			outside++;
			continue;
		}
		c->state = u->state[i];
		decisions_set(tt->d, c->name, u->dec[i], u->reason[i]);
	}
	review_save_decisions(t);
	review_changed(t);
	if (outside > 0)
		tui_message(t, EL_STATUS, "Undone: %zu option%s as before; "
		    "%zu decided outside the browser since kept %s decision",
		    u->n - outside, u->n - outside == 1 ? "" : "s", outside,
		    outside == 1 ? "its" : "their");
	else if (t->msg == NULL)
		tui_message(t, EL_STATUS, "Undone: %zu option%s as before",
		    u->n, u->n == 1 ? "" : "s");
	review_undo_clear(u);
	return R_ALL | R_REBUILD;
}

/* ------------------------------------------------------------- export */

/* Write the accepted candidates to out (absolute) and the report to
 * report (NULL: none), as `kctui export` does (core/trim/export.c); -1 with
 * *cause. */
int
review_export_to(struct tui *t, const char *out, const char *report,
    size_t *naccepted, char **cause)
{
	struct tui_trim		*tt = t->trim;
	struct trim_export	 e;
	size_t			*acc, nacc = 0, i;
	int			 rc;

	acc = xcalloc(trim_ncands(tt->t) + 1, sizeof *acc);
	for (i = 0; i < trim_ncands(tt->t); i++)
		if (trim_cand(tt->t, i)->state == TRIM_ACCEPTED)
			acc[nacc++] = i;
	/* What accepting them changes, against the values the review
	 * started from: the trim's own configuration, untouched; what is
	 * written is the interface's, where they were set to n. */
	memset(&e, 0, sizeof e);
	e.t = tt->t;
	e.k = tt->k;
	e.result = t->k;
	e.accepted = acc;
	e.naccepted = nacc;
	e.out = out;
	e.report = report;
	e.config_in = t->session->config_path;
	/* The input is the file as kctui read it: a save since (s) wrote
	 * the browser's values over it. */
	e.config_text = t->session->config_text;
	e.config_text_set = true;
	/* The values the trim started from may hold changes made before
	 * the evidence loaded: the engine's reading of the file is the
	 * interface's first one. */
	e.config_base = t->config_base;
	e.other_why = "set in the browser, not by a trim";
	e.policy = tt->policy;
	e.bundles = (const char *const *)t->session->bundles;
	e.nbundles = t->session->nbundles;
	e.decisions_file = tt->dpath;
	pthread_mutex_lock(&tt->calc);
	rc = trim_export(&e, cause);
	pthread_mutex_unlock(&tt->calc);
	free(e.warning);
	free(acc);
	*naccepted = nacc;
	return rc;
}

/* How many candidates are accepted. */
size_t
review_naccepted(struct tui *t)
{
	size_t i, n = 0;

	if (t->trim == NULL)
		return 0;
	for (i = 0; i < trim_ncands(t->trim->t); i++)
		n += trim_cand(t->trim->t, i)->state == TRIM_ACCEPTED;
	return n;
}

/* y to the export's question, or Enter on its default: write out (an
 * absolute path) and out.md. */
static void
review_export_write(struct tui *t, const char *out)
{
	size_t	 nacc;
	char	*rep, *cause = NULL;

	rep = xasprintf("%s.md", out);
	if (review_export_to(t, out, rep, &nacc, &cause) != 0)
		tui_message(t, EL_ERROR, "%s", cause);
	else
		tui_message(t, EL_STATUS, "Exported %zu trimmed options to "
		    "%s, report %s", nacc, out, rep);
	free(cause);
	free(rep);
}

/* The default path of the export: beside the config being edited. */
static char *
review_export_default(struct tui *t)
{
	char *abs = tui_config_abs(t), *def;

	def = xasprintf("%s.trimmed", abs);
	free(abs);
	return def;
}

/*
 * y to the export's question: refused when the file, or its report, is
 * the configuration read or the one being edited, with the command
 * line's message (one rule, core/export.c); else written.
 */
static void
review_export_checked(struct tui *t, const char *out)
{
	/* The config read, then the one being edited (the same file until
	 * a save under another name or a load): each against the outputs,
	 * not against each other. */
	static const char *const labels[2][3] = {
		{ "--config", "-o", "its report" },
		{ "the file being edited", "-o", "its report" },
	};
	const char	*names[3];
	char		*rep, *cfg, *in, *cause = NULL;
	int		 rc;

	rep = xasprintf("%s.md", out);
	cfg = tui_config_abs(t);
	in = tui_path_abs(t->session->config_path);
	names[0] = in;
	names[1] = out;
	names[2] = rep;
	rc = export_distinct_files("export", labels[0], names, 3, &cause);
	names[0] = cfg;
	if (rc == 0)
		rc = export_distinct_files("export", labels[1], names, 3,
		    &cause);
	if (rc != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
	} else
		review_export_write(t, out);
	free(in);
	free(cfg);
	free(rep);
}

/* The question before an export to out (absolute): both files named. */
static void review_export_other(struct tui *, const char *);
static void
review_export_ask(struct tui *t, const char *out, bool other)
{
	char *q;

	q = xasprintf("Export the trimmed configuration to %s and its report "
	    "to %s.md?", out, out);
	tui_confirm(t, q, out, review_export_checked, other ?
	    review_export_other : NULL);
	free(q);
}

/* The path typed after e a (a relative one is the user's, from the
 * directory kctui was started in, as --config's): asked again, by name,
 * so that text typed by mistake never makes a file. */
static void
review_export_done(struct tui *t, const char *path, void *arg)
{
	char *out;

	(void)arg;
	if (t->trim == NULL || path == NULL || *path == '\0') {
		tui_message(t, EL_STATUS, "Nothing exported");
		return;
	}
	out = session_path(t->session, path);
	review_export_ask(t, out, false);
	free(out);
}

/* a to the export's question: another name, the offered one edited. */
static void
review_export_other(struct tui *t, const char *out)
{
	tui_ask(t, "Export trimmed config to: ", out, review_export_done,
	    NULL);
}

/*
 * A verified run put options back: the accepted candidates among them
 * are rejected (set back, one undo step), every one gets a keep decision
 * "needed at boot: STEP" as `kctui verify` records it, and the others
 * (not candidates) are set back to their untrimmed value. How many.
 */
size_t
review_keep_verified(struct tui *t, const struct verify *v)
{
	struct tui_trim		*tt = t->trim;
	struct kc_symbol	*s;
	size_t			*cands, n = 0, i, kept = 0;
	char		       **reasons;
	long			 c;

	if (tt == NULL)
		return 0;
	cands = xcalloc(v->ntrims + 1, sizeof *cands);
	reasons = xcalloc(v->ntrims + 1, sizeof *reasons);
	for (i = 0; i < v->ntrims; i++) {
		if (!v->trims[i].kept)
			continue;
		kept++;
		s = kconfig_find(t->k, v->trims[i].name);
		c = s != NULL ? trim_cand_of(tt->t, s) : -1;
		if (c >= 0) {
			cands[n] = (size_t)c;
			reasons[n++] = verify_keep_reason(&v->trims[i]);
			continue;
		}
		if (s != NULL) {
			kc_sym_set_tristate(t->k, s, (enum kc_tri)
			    v->trims[i].from);
			t->snap->tri[kc_sym_index(s)] =
			    (uint8_t)v->trims[i].from;
		}
	}
	if (n > 0)
		review_decide(t, cands, n, TRIM_REJECTED, reasons);
	if (kept > n) {
		/* The others' decisions (and values): saved here. */
		verify_keep_decisions(tt->d, v);
		review_save_decisions(t);
		review_changed(t);
	}
	for (i = 0; i < n; i++)
		free(reasons[i]);
	free(reasons);
	free(cands);
	return kept;
}

int
review_export(struct tui *t)
{
	char *def;

	if (t->trim == NULL) {
		tui_message(t, EL_ERROR, load_busy(t) ? "Evidence is still "
		    "loading" : "Export needs trim suggestions: start kctui "
		    "with -e BUNDLE");
		return R_ALL;
	}
	/* Beside the config being edited, not in the tree; absolute, as
	 * a relative path typed is the user's. */
	def = review_export_default(t);
	review_export_ask(t, def, true);
	free(def);
	return R_ALL;
}
