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

/* One accept or reject, to undo. */
struct review_undo {
	struct kc_values	*values;
	size_t			*cands, n;
	enum trim_state		*state;
	enum decision		*dec;
	char		       **reason;
};

/* What the worker computes for the open subsystem. */
struct review_change {
	int			 sym;
	enum kc_tri		 before, after;
	const char		*why;		/* the trim's */
};

struct review_result {
	uint64_t		 id;
	size_t			 sub, n;
	size_t			*cands;
	struct review_change   **ch;		/* per candidate, others */
	size_t			*nch;
	size_t			 removes;	/* all n together */
	double			 ms;
};

struct review_req {
	uint64_t		 id;
	struct tui_trim		*tt;
	size_t			 sub, n;
	size_t			*cands;
};

struct tui_trim {
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
};

enum ritem_kind { RI_SUB, RI_ALL, RI_CAND, RI_CHANGE };

struct ritem {
	enum ritem_kind	 kind;
	size_t		 sub, cand, change;
};

struct tui_trim *
review_new(struct tui *t, struct kconfig *k, struct trim *tr,
    struct decisions *d, char *dpath, int policy, double ms)
{
	struct tui_trim *tt = xcalloc(1, sizeof *tt);
	size_t		 i;

	(void)t;
	(void)ms;
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
	tt->keys = xcalloc(trim_ncands(tr) + trim_nsubsys(tr) +
	    (size_t)kconfig_nsymbols(k) + 2, 1);
	return tt;
}

static void
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
	free(u->state);
	free(u->cands);
}

void
review_free(struct tui *t)
{
	struct tui_trim	*tt = t->trim;
	size_t		 i;

	pthread_mutex_lock(&t->req_lock);
	if (t->req != NULL) {
		free(t->req->cands);
		free(t->req);
		t->req = NULL;
	}
	pthread_mutex_unlock(&t->req_lock);
	if (tt == NULL)
		return;
	for (i = 0; i < tt->nundo; i++)
		review_undo_clear(&tt->undo[i]);
	free(tt->undo);
	review_result_free(tt->res);
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
static void	review_remember(struct tui_trim *,
		    const struct review_result *);

/* ------------------------------------------------------ consequences */

/* What accepting each candidate (and all of them) changes, on k. */
static struct review_result *
review_compute(struct tui_trim *tt, struct kconfig *k, uint64_t id,
    size_t sub, const size_t *cands, size_t n)
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
	if (n > 0 && trim_consequences(tt->t, k, cands, n, &ch, &nch,
	    &cause) == 0) {
		for (j = 0; j < nch; j++)
			r->removes += ch[j].before != KC_NO &&
			    ch[j].after == KC_NO;
		free(ch);
	} else
		free(cause);
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
	pthread_mutex_lock(&t->req_lock);
	if (t->req == NULL) {
		pthread_mutex_unlock(&t->req_lock);
		return NULL;
	}
	r = *t->req;
	r.cands = xcalloc(r.n + 1, sizeof *r.cands);
	memcpy(r.cands, t->req->cands, r.n * sizeof *r.cands);
	pthread_mutex_unlock(&t->req_lock);
	res = review_compute(r.tt, k, r.id, r.sub, r.cands, r.n);
	free(r.cands);
	return res;
}

/* Ask for the consequences in the open subsystem (of the candidates
 * not yet accepted), on the values as they are now. */
static void
review_request(struct tui *t)
{
	struct tui_trim		*tt = t->trim;
	struct trim_subsys	*sub = trim_subsys(tt->t, tt->open_sub);
	struct review_req	*q = xcalloc(1, sizeof *q);
	size_t			 i;

	q->id = ++tt->reqid;
	q->tt = tt;
	q->sub = tt->open_sub;
	q->cands = xcalloc(sub->ncands + 1, sizeof *q->cands);
	for (i = 0; i < sub->ncands; i++) {
		if (trim_cand(tt->t, sub->cands[i])->state != TRIM_ACCEPTED)
			q->cands[q->n++] = sub->cands[i];
	}
	if (t->w == NULL) {
		/* No worker: here (the values are restored). */
		review_result_free(tt->res);
		tt->res = review_compute(tt, t->k, q->id, q->sub, q->cands,
		    q->n);
		review_remember(tt, tt->res);
		free(q->cands);
		free(q);
		return;
	}
	pthread_mutex_lock(&t->req_lock);
	if (t->req != NULL) {
		free(t->req->cands);
		free(t->req);
	}
	t->req = q;
	pthread_mutex_unlock(&t->req_lock);
	t->gen = worker_submit(t->w, kconfig_values_save(t->k));
}

static void
review_request_clear(struct tui *t)
{
	pthread_mutex_lock(&t->req_lock);
	if (t->req != NULL) {
		free(t->req->cands);
		free(t->req);
		t->req = NULL;
	}
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

	if (r == NULL || t->trim == NULL || r->id != t->trim->reqid ||
	    !t->trim->sub_open)
		return;
	review_result_free(t->trim->res);
	t->trim->res = r;
	review_remember(t->trim, r);
	s->consequences = NULL;
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
static struct review_change *
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

/* Reviewed candidates of a subsystem. */
static size_t
review_done(struct tui_trim *tt, size_t s)
{
	struct trim_subsys	*sub = trim_subsys(tt->t, s);
	size_t			 i, n = 0;

	for (i = 0; i < sub->ncands; i++)
		n += trim_cand(tt->t, sub->cands[i])->state != TRIM_PENDING;
	return n;
}

static size_t
review_subsys_done(struct tui_trim *tt)
{
	size_t s, n = 0;

	for (s = 0; s < trim_nsubsys(tt->t); s++)
		n += review_done(tt, s) == trim_subsys(tt->t, s)->ncands;
	return n;
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

	if (tt == NULL || decisions_unsaved(tt->d) == 0)
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

/* Values changed: recompute (with the consequences when a subsystem is
 * open). */
static void
review_changed(struct tui *t)
{
	if (t->trim->sub_open) {
		t->dirty = true;
		review_request(t);
	} else
		tui_changed(t);
}

/* Accept (or reject) candidates: one undo step. */
static void
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
	size_t			 i;

	if (tt == NULL || tt->nundo == 0) {
		tui_message(t, EL_STATUS, "Nothing to undo");
		return R_ALL;
	}
	u = &tt->undo[--tt->nundo];
	if (kconfig_values_restore(t->k, u->values) != 0)
		tui_message(t, EL_ERROR, "undo: values of another tree");
	for (i = 0; i < u->n; i++) {
		struct trim_cand *c = trim_cand(tt->t, u->cands[i]);

		c->state = u->state[i];
		decisions_set(tt->d, c->name, u->dec[i], u->reason[i]);
	}
	review_save_decisions(t);
	review_changed(t);
	if (t->msg == NULL)
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

/* -------------------------------------------------------------- views */

static struct ritem *
ritem_new(enum ritem_kind kind, size_t sub, size_t cand, size_t change)
{
	struct ritem *ri = xcalloc(1, sizeof *ri);

	ri->kind = kind;
	ri->sub = sub;
	ri->cand = cand;
	ri->change = change;
	return ri;
}

/* An item's tree key (stable across rebuilds and views). */
static const void *
ritem_key(struct tui_trim *tt, const struct ritem *ri)
{
	struct review_change	*ch;
	size_t			 n;

	switch (ri->kind) {
	case RI_CHANGE:
		ch = review_changes_of(tt, ri->cand, &n);
		if (ch != NULL && ri->change < n)
			return &tt->keys[trim_nsubsys(tt->t) +
			    trim_ncands(tt->t) + (size_t)ch[ri->change].sym];
		/* FALLTHROUGH */
	case RI_CAND:
		return &tt->keys[trim_nsubsys(tt->t) + ri->cand];
	default:
		return &tt->keys[ri->sub];
	}
}

/* What some candidates build. */
static void
review_counts(struct tui_trim *tt, const size_t *cands, size_t n,
    size_t *objs, size_t *mods, unsigned long long *bytes)
{
	size_t i;

	*objs = *mods = 0;
	*bytes = 0;
	for (i = 0; i < n; i++) {
		struct trim_cand *c = trim_cand(tt->t, cands[i]);

		*objs += c->nobjs;
		*mods += c->nmodules;
		*bytes += c->ko_bytes;
	}
}

/* "9 objs, 6 modules, 120 KiB" of some candidates, as kctui suggest
 * says it. */
static void
review_saving(struct tui_trim *tt, const size_t *cands, size_t n,
    struct row *r, int el)
{
	size_t			objs, mods;
	unsigned long long	bytes;

	review_counts(tt, cands, n, &objs, &mods, &bytes);
	row_addf(r, el, "%zu obj%s", objs, objs == 1 ? "" : "s");
	if (mods)
		row_addf(r, el, ", %zu module%s", mods, mods == 1 ? "" : "s");
	if (bytes)
		row_addf(r, el, ", %llu KiB", (bytes + 1023) / 1024);
}

/*
 * A menu path in at most avail cells: cut from the middle so that its
 * last part (the subsystem itself) stays readable ("Networking support
 * > Network… > Core Netfilter Configuration").
 */
static void
review_path(struct tui *t, struct row *r, const char *path, int avail)
{
	const char	*leaf = strrchr(path, '>');
	const char	*dots = t->ascii ? "..." : "\u2026";
	int		 len, nd = t->ascii ? 3 : 1, head, i;
	struct row	 tmp;

	row_init(&tmp);
	row_add(&tmp, EL_NORMAL, path);
	len = tmp.n;
	row_free(&tmp);
	if (len <= avail || leaf == NULL || avail < 8) {
		row_add(r, EL_NORMAL, path);
		return;
	}
	leaf--;		/* " > LEAF" */
	row_init(&tmp);
	row_add(&tmp, EL_NORMAL, leaf);
	head = avail - tmp.n - nd;
	row_free(&tmp);
	if (head < 4) {
		/* Not even the leaf and a head: the leaf alone, cut. */
		row_add(r, EL_INVISIBLE, dots);
		row_add(r, EL_NORMAL, leaf);
		return;
	}
	row_init(&tmp);
	row_add(&tmp, EL_NORMAL, path);
	tmp.n = head;
	for (i = 0; i < tmp.n; i++)
		row_addch(r, EL_NORMAL, tmp.ch[i]);
	row_free(&tmp);
	row_add(r, EL_INVISIBLE, dots);
	row_add(r, EL_NORMAL, leaf);
}

/* Cut a row to width cells, with an ellipsis when something goes. */
static void
review_cut(struct tui *t, struct row *r, int width)
{
	if (r->n <= width)
		return;
	r->n = width - (t->ascii ? 3 : 1);
	row_add(r, EL_INVISIBLE, t->ascii ? "..." : "\u2026");
}

/* The list's orders (o), as ncdu's and htop's sort keys: savings are
 * the modules' KiB, then the objects (when no size is known). */
enum { RS_MENU, RS_SAVINGS, RS_OFF, RS_COUNT, RS_NAME };
static const char *const rlist_sorts[] = {
	"menu order", "most savings", "most turned off", "most candidates",
	"name"
};
#define RLIST_NSORTS (int)(sizeof rlist_sorts / sizeof rlist_sorts[0])

/* The trim being sorted (qsort has no argument). */
static struct tui_trim *rlist_sort_tt;

/* Two subsystems in the current order; menu order breaks ties. */
static int
rlist_cmp(const void *a, const void *b)
{
	size_t			 x = *(const size_t *)a, y = *(const size_t *)b;
	struct trim_subsys	*sx = trim_subsys(rlist_sort_tt->t, x);
	struct trim_subsys	*sy = trim_subsys(rlist_sort_tt->t, y);
	const char		*lx, *ly;
	size_t			 ox, oy, mx, my;
	unsigned long long	 bx, by;
	int			 c = 0;

	switch (rlist_sort_tt->sort) {
	case RS_SAVINGS:
		review_counts(rlist_sort_tt, sx->cands, sx->ncands, &ox, &mx,
		    &bx);
		review_counts(rlist_sort_tt, sy->cands, sy->ncands, &oy, &my,
		    &by);
		c = (by > bx) - (by < bx);
		if (c == 0)
			c = (oy > ox) - (oy < ox);
		break;
	case RS_OFF:
		c = (sy->removes > sx->removes) - (sy->removes < sx->removes);
		break;
	case RS_COUNT:
		c = (sy->ncands > sx->ncands) - (sy->ncands < sx->ncands);
		break;
	case RS_NAME:
		lx = strrchr(sx->path, '>') != NULL ? strrchr(sx->path, '>') +
		    2 : sx->path;
		ly = strrchr(sy->path, '>') != NULL ? strrchr(sy->path, '>') +
		    2 : sy->path;
		c = strcasecmp(lx, ly);
		break;
	}
	return c != 0 ? c : (x > y) - (x < y);
}

static void
rlist_build(void *arg, struct tree *tr)
{
	struct tui_view	*v = arg;
	struct tui_trim	*tt = v->tui->trim;
	size_t		 s, n = trim_nsubsys(tt->t), *order;

	order = xcalloc(n + 1, sizeof *order);
	for (s = 0; s < n; s++)
		order[s] = s;
	rlist_sort_tt = tt;
	qsort(order, n, sizeof *order, rlist_cmp);
	for (s = 0; s < n; s++)
		tree_add(tr, NULL, ritem_new(RI_SUB, order[s], 0, 0),
		    &tt->keys[order[s]], false);
	free(order);
}

static void
rlist_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	struct tui_view		*v = arg;
	struct tui		*t = v->tui;
	struct tui_trim		*tt = t->trim;
	struct ritem		*ri = l->data;
	struct trim_subsys	*sub = trim_subsys(tt->t, ri->sub);
	size_t			 done = review_done(tt, ri->sub), objs, mods;
	unsigned long long	 bytes;

	(void)tr;
	if (done == sub->ncands)
		row_add(r, EL_EV_USED, t->ascii ? " * " : " \u2713 ");
	else
		row_add(r, EL_NORMAL, "   ");
	review_counts(tt, sub->cands, sub->ncands, &objs, &mods, &bytes);
	row_addf(r, EL_NORMAL, "%3zu/%-3zu %4zu objs %3zu mods ", done,
	    sub->ncands, objs, mods);
	/* A column of its own when some size is known, so that the rows
	 * stay aligned under the headings; "-" where none is. */
	if (bytes)
		row_addf(r, EL_NORMAL, "%7llu ", (bytes + 1023) / 1024);
	else if (tt->sizes)
		row_addf(r, EL_NORMAL, "%7s ", "-");
	row_addf(r, EL_TRIM, "%4zu off", sub->removes);
	row_add(r, EL_NORMAL, "  ");
	review_path(t, r, sub->path, width - r->n);
	review_cut(t, r, width);
	if (selected)
		row_paint(r, EL_SELECTED, 0, width);
}

/* The list's column headings, on the rule above it. */
static void
rlist_heading(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	(void)v;
	(void)width;
	row_addf(r, EL_HELP_TITLE, "  reviewed   objects  modules %s     off  "
	    "subsystem (o: %s)", t->trim->sizes ? "    KiB " : "",
	    rlist_sorts[t->trim->sort]);
}

static const char *
rlist_text(void *arg, void *data)
{
	struct tui_view	*v = arg;
	struct ritem	*ri = data;
	const char	*p = trim_subsys(v->tui->trim->t, ri->sub)->path, *q;

	/* Hotkeys match the last part of the path. */
	return (q = strrchr(p, '>')) != NULL ? q + 2 : p;
}

static const struct tree_ops rlist_tree_ops = {
	rlist_build, rlist_draw, rlist_text, free
};

static char *
rlist_title(struct tui *t, struct tui_view *v)
{
	struct tui_trim		*tt = t->trim;
	struct trim_stats	 st;
	size_t			*acc, nacc = 0, i, objs, mods;
	unsigned long long	 bytes;
	char			*totals, *title;

	(void)v;
	trim_get_stats(tt->t, &st);
	/* The running total of what the accepted trims remove (ncdu's
	 * total), last: the title reads the same until one is accepted. */
	acc = xcalloc(trim_ncands(tt->t) + 1, sizeof *acc);
	for (i = 0; i < trim_ncands(tt->t); i++)
		if (trim_cand(tt->t, i)->state == TRIM_ACCEPTED)
			acc[nacc++] = i;
	review_counts(tt, acc, nacc, &objs, &mods, &bytes);
	/* The KiB first: the title is cut at the screen's end. */
	if (nacc == 0)
		totals = xstrdup("");
	else if (bytes != 0)
		totals = xasprintf(" removing %llu KiB, %zu obj%s",
		    (bytes + 1023) / 1024, objs, objs == 1 ? "" : "s");
	else
		totals = xasprintf(" removing %zu obj%s, %zu module%s", objs,
		    objs == 1 ? "" : "s", mods, mods == 1 ? "" : "s");
	title = xasprintf("Trim review: %zu of %zu reviewed, %zu candidates, "
	    "%zu accepted (%s%s)%s", review_subsys_done(tt),
	    trim_nsubsys(tt->t), trim_ncands(tt->t), nacc,
	    trim_policy_name(tt->policy), tt->policy ==
	    TRIM_POLICY_AGGRESSIVE && !st.aggressive ? ", no trace: as "
	    "modules" : "", totals);
	free(totals);
	free(acc);
	return title;
}

static int rsub_open(struct tui *, size_t);

/* The candidates of a subsystem, all of them. */
static void
review_decide_sub(struct tui *t, size_t s, enum trim_state to)
{
	struct trim_subsys *sub = trim_subsys(t->trim->t, s);

	review_decide(t, sub->cands, sub->ncands, to, NULL);
}

static int
rlist_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	struct ritem *ri = tree_current_data(v->tree);

	if (ri == NULL)
		return -1;
	switch (act) {
	case A_ENTER:
	case A_OPEN:
		return rsub_open(t, ri->sub);
	case A_ACCEPT:
		review_decide_sub(t, ri->sub, TRIM_ACCEPTED);
		return R_ALL | R_REBUILD;
	case A_REJECT:
		review_decide_sub(t, ri->sub, TRIM_REJECTED);
		return R_ALL | R_REBUILD;
	case A_VERIFY:
		return verify_key(t);
	case A_SORT:
		t->trim->sort = (t->trim->sort + 1) % RLIST_NSORTS;
		tui_message(t, EL_STATUS, "Subsystems by %s (o: next order)",
		    rlist_sorts[t->trim->sort]);
		return R_ALL | R_REBUILD;
	case A_ENABLE:
	case A_SET_Y:
	case A_SET_M:
	case A_SET_N:
	case A_CYCLE:
	case A_TRIM:
		return R_NONE;
	default:
		return -1;
	}
}

static void
rlist_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct ritem	*ri = tree_current_data(v->tree);
	struct row	 p;
	char		*counts;
	int		 avail, i;

	if (ri == NULL)
		return;

	/* The selected row's path: what the list cut from its middle, in
	 * full, or at least its end (the list shows its start). */
	counts = xasprintf("  (%zu of %zu reviewed)", review_done(t->trim,
	    ri->sub), trim_subsys(t->trim->t, ri->sub)->ncands);
	row_init(&p);
	row_add(&p, EL_STATUS, trim_subsys(t->trim->t, ri->sub)->path);
	avail = width - r->n - (int)strlen(counts) - 1;
	i = 0;
	if (p.n > avail && avail > 10) {
		row_add(r, EL_INVISIBLE, t->ascii ? "..." : "\u2026");
		i = p.n - (avail - (t->ascii ? 3 : 1));
	}
	for (; i < p.n; i++)
		row_addch(r, EL_STATUS, p.ch[i]);
	row_free(&p);
	row_add(r, EL_STATUS, counts);
	free(counts);
	row_add(r, EL_STATUS, "  Enter opens  a trims all  r keeps all  u "
	    "undo  e export  v verify");
}

/* The list closes: remember its line for the next t. */
static void
rlist_free(struct tui_view *v)
{
	struct ritem *ri = tree_current_data(v->tree);

	if (v->tui->trim != NULL && ri != NULL)
		v->tui->trim->list_key = ritem_key(v->tui->trim, ri);
}

static const struct tui_view_ops rlist_ops = {
	"trim", &rlist_tree_ops, rlist_title, rlist_action, rlist_info,
	rlist_free, rlist_heading
};

/*
 * Open the review (t): back to the list if it is open, else the list
 * with the cursor where it was. At a symbol that is a candidate (t on
 * its line in the menu), its subsystem opens with the cursor on it.
 * While evidence loads, it opens when the loading is done.
 */
int
review_open_at(struct tui *t, const struct kc_symbol *sym)
{
	struct tui_trim	*tt = t->trim;
	struct tui_view *v;
	long		 c = -1;

	if (tt == NULL) {
		if (load_busy(t)) {
			t->trim_wanted = true;
			t->trim_wanted_sym = sym;
		}
		tui_message(t, EL_ERROR, load_busy(t) ? "Evidence is still "
		    "loading: the trim review opens when it is done" :
		    t->load != NULL ? "No trim suggestions (see the message "
		    "when evidence loaded)" : "The trim review needs "
		    "evidence: start kctui with -e BUNDLE");
		return R_ALL;
	}
	t->trim_wanted = false;
	if (sym != NULL)
		c = trim_cand_of(tt->t, sym);
	for (v = t->view; v != NULL; v = v->prev)
		if (v->ops == &rlist_ops)
			break;
	if (v != NULL) {
		/* Back to it. */
		while (t->view != v)
			tui_pop(t);
	} else {
		v = tui_push(t, &rlist_ops, NULL, NULL);
		if (tt->list_key != NULL)
			tree_select_key(v->tree, tt->list_key);
	}
	if (c < 0)
		return R_ALL;
	tree_select_key(v->tree, &tt->keys[trim_cand(tt->t, (size_t)c)->subsys]);
	rsub_open(t, trim_cand(tt->t, (size_t)c)->subsys);
	tree_select_key(t->view->tree, &tt->keys[trim_nsubsys(tt->t) +
	    (size_t)c]);
	return R_ALL;
}

int
review_open(struct tui *t)
{
	return review_open_at(t, NULL);
}

/* The subsystem view. */
static void
rsub_build(void *arg, struct tree *tr)
{
	struct tui_view		*v = arg;
	struct tui_trim		*tt = v->tui->trim;
	size_t			 s = (size_t)(uintptr_t)v->data - 1, i, j, n;
	struct trim_subsys	*sub = trim_subsys(tt->t, s);
	struct tree_item	*it;
	struct review_change	*ch;
	size_t			 base = trim_nsubsys(tt->t) + trim_ncands(tt->t);

	tree_add(tr, NULL, ritem_new(RI_ALL, s, 0, 0), &tt->keys[s], false);
	for (i = 0; i < sub->ncands; i++) {
		it = tree_add(tr, NULL, ritem_new(RI_CAND, s, sub->cands[i], 0),
		    &tt->keys[trim_nsubsys(tt->t) + sub->cands[i]], true);
		if ((ch = review_changes_of(tt, sub->cands[i], &n)) == NULL)
			continue;
		for (j = 0; j < n; j++)
			tree_add(tr, it, ritem_new(RI_CHANGE, s, sub->cands[i],
			    j), &tt->keys[base + (size_t)ch[j].sym], false);
	}
}

static const char *
rsub_state(struct tui *t, const struct trim_cand *c, int *el)
{
	switch (c->state) {
	case TRIM_ACCEPTED:
		*el = EL_TRIM;
		return "[trim]";
	case TRIM_REJECTED:
		*el = EL_EV_USED;
		return "[keep]";
	default:
		*el = EL_TRIM;
		if (c->nontwin != NULL)
			return t->ascii ? "  Q   " : "  \u2298   ";
		return t->ascii ? "  T   " : "  \u2702   ";
	}
}

/* Where rsub_draw's saving column starts on a candidate's row: a blank,
 * the state (6), the value (4), CONFIG_ and 28 cells of name, a blank. */
#define RSUB_COL_SAVING	(1 + 6 + 4 + 7 + 28 + 1)

/* The saving column's width: "15 objs, 10 modules" (17), wider when
 * sizes are known (", 1234 KiB"), so the prompts stay in a column. */
static int
rsub_saving_width(const struct tui_trim *tt)
{
	return tt->sizes ? 28 : 17;
}

static void
rsub_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	struct tui_view		*v = arg;
	struct tui		*t = v->tui;
	struct tui_trim		*tt = t->trim;
	struct ritem		*ri = l->data;
	struct trim_subsys	*sub = trim_subsys(tt->t, ri->sub);
	struct trim_cand	*c;
	struct review_change	*ch;
	const char		*st;
	size_t			 n, done = review_done(tt, ri->sub);
	int			 el, col, w;

	(void)tr;
	switch (ri->kind) {
	case RI_ALL:
		row_addf(r, EL_HELP_TITLE, " All %zu candidates, %zu "
		    "reviewed: ", sub->ncands, done);
		review_saving(tt, sub->cands, sub->ncands, r, EL_NORMAL);
		if (tt->res == NULL || tt->res->id != tt->reqid)
			row_addf(r, EL_INVISIBLE, "; computing%s", t->ascii ?
			    "..." : "\u2026");
		else if (tt->res->n > 0)
			row_addf(r, EL_TRIM, "; trimming %s turns off %zu",
			    tt->res->n == sub->ncands ? "all" : "the rest",
			    tt->res->removes);
		break;
	case RI_CAND:
		c = trim_cand(tt->t, ri->cand);
		st = rsub_state(t, c, &el);
		row_add(r, EL_NORMAL, " ");
		row_add(r, el, st);
		row_addf(r, EL_NORMAL, " %c  ", c->value == KC_YES ? 'y' :
		    'm');
		row_addf(r, EL_NAME, "CONFIG_%-28s", c->name);
		row_add(r, EL_NORMAL, " ");
		/* A longer name pushes the rest right (past the heading's
		 * column): cut nothing of it. */
		col = r->n;
		review_saving(tt, &ri->cand, 1, r, EL_NORMAL);
		/* Two blanks at least before the prompt: the counts never
		 * run into it. */
		w = rsub_saving_width(tt);
		row_fit(r, EL_NORMAL, r->n < col + w ? col + w + 2 : r->n + 2);
		if (c->decided)
			row_add(r, EL_TRIM, "(decision: trim) ");
		else if (c->to_verify)
			row_add(r, EL_TRIM, "(to be verified by booting) ");
		/* The prompt beside the symbol; the reason after it (in
		 * full on the bottom line). */
		if (kc_sym_menu(c->sym) != NULL &&
		    kc_menu_prompt(kc_sym_menu(c->sym)) != NULL)
			row_addf(r, EL_NORMAL, "%s  ",
			    kc_menu_prompt(kc_sym_menu(c->sym)));
		row_addf(r, EL_INVISIBLE, "%s", c->reason);
		review_cut(t, r, width);
		break;
	case RI_CHANGE:
		ch = review_changes_of(tt, ri->cand, &n);
		if (ch == NULL || ri->change >= n)
			break;
		ch += ri->change;
		row_add(r, EL_NORMAL, "      ");
		tree_prefix(l, r, EL_TREE, t->ascii);
		row_addf(r, EL_NORMAL, "also CONFIG_%s %c%s%c",
		    kc_sym_name(kconfig_symbol(t->k, ch->sym)),
		    "nmy"[ch->before], t->ascii ? "->" : "\u2192",
		    "nmy"[ch->after]);
		if (ch->why != NULL)
			row_addf(r, EL_INVISIBLE, "  %s", ch->why);
		break;
	default:
		break;
	}
	review_cut(t, r, width);
	if (selected)
		row_paint(r, EL_SELECTED, 0, width);
}

/* The candidates' column headings, on the rule above them, at the
 * columns rsub_draw puts them in. */
static void
rsub_heading(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	(void)v;
	(void)width;
	row_add(r, EL_HELP_TITLE, " state  was option");
	row_fit(r, EL_HELP_TITLE, RSUB_COL_SAVING);
	row_add(r, EL_HELP_TITLE, "saving");
	row_fit(r, EL_HELP_TITLE, RSUB_COL_SAVING + rsub_saving_width(t->trim) +
	    2);
	row_add(r, EL_HELP_TITLE, "prompt, reason");
}

static const char *
rsub_text(void *arg, void *data)
{
	struct tui_view	*v = arg;
	struct ritem	*ri = data;

	if (ri->kind != RI_CAND)
		return NULL;
	return trim_cand(v->tui->trim->t, ri->cand)->name;
}

static const struct tree_ops rsub_tree_ops = {
	rsub_build, rsub_draw, rsub_text, free
};

static char *
rsub_title(struct tui *t, struct tui_view *v)
{
	size_t s = (size_t)(uintptr_t)v->data - 1;

	struct row	 r;
	char		*path, *title;

	/* Cut from the middle as the list does: the leaf stays. */
	row_init(&r);
	review_path(t, &r, trim_subsys(t->trim->t, s)->path, t->width - 16);
	path = row_text(&r);
	row_free(&r);
	title = xasprintf("Trim review %s %s", t->ascii ? ">" : "\u203a",
	    path);
	free(path);
	return title;
}

/* The cursor to the next candidate (after a or r on one), if any. */
static void
rsub_next(struct tui_view *v)
{
	int		 cur = tree_current(v->tree), i;
	struct ritem	*ri;

	for (i = cur + 1; i < tree_count(v->tree); i++) {
		ri = tree_line(v->tree, i)->data;
		if (ri->kind == RI_CAND) {
			tree_move(v->tree, i - cur);
			return;
		}
	}
}

static int
rsub_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	struct ritem		*ri = tree_current_data(v->tree);
	struct kc_symbol	*s;
	struct kc_menu		*m;

	if (ri == NULL)
		return -1;
	switch (act) {
	case A_ACCEPT:
	case A_REJECT:
		if (ri->kind == RI_ALL)
			review_decide_sub(t, ri->sub, act == A_ACCEPT ?
			    TRIM_ACCEPTED : TRIM_REJECTED);
		else {
			review_decide(t, &ri->cand, 1, act == A_ACCEPT ?
			    TRIM_ACCEPTED : TRIM_REJECTED, NULL);
			rsub_next(v);
		}
		return R_ALL | R_REBUILD;
	case A_ENTER:
	case A_HELP:
	case A_ENABLE:
		/* Help on the option (or the one that changes); on the
		 * subsystem's line, ? lists the keys. */
		if (ri->kind == RI_ALL)
			return act == A_HELP ? -1 : R_NONE;
		if (ri->kind == RI_CHANGE) {
			size_t n;
			struct review_change *ch = review_changes_of(t->trim,
			    ri->cand, &n);

			if (ch == NULL || ri->change >= n)
				return R_NONE;
			s = kconfig_symbol(t->k, ch[ri->change].sym);
		} else
			s = kconfig_symbol(t->k, kc_sym_index(trim_cand(
			    t->trim->t, ri->cand)->sym));
		if (act == A_ENABLE) {
			plan_open(t, s);
			return R_ALL;
		}
		if ((m = kc_sym_menu(s)) != NULL)
			help_open(t, m);
		return R_ALL;
	case A_VERIFY:
		return verify_key(t);
	case A_OPEN:
	case A_SET_Y:
	case A_SET_M:
	case A_SET_N:
	case A_CYCLE:
		return R_NONE;
	default:
		return -1;
	}
}

static void
rsub_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct ritem		*ri = tree_current_data(v->tree);
	struct trim_cand	*c;
	size_t			 n;

	(void)width;
	if (ri == NULL)
		return;
	if (ri->kind == RI_ALL) {
		row_add(r, EL_STATUS, "the whole subsystem:  a trims all  r "
		    "keeps all  u undo  e export  v verify  Esc back");
		return;
	}
	c = trim_cand(t->trim->t, ri->cand);
	row_addf(r, EL_NAME, "CONFIG_%s", c->name);
	if (c->state == TRIM_ACCEPTED)
		row_add(r, EL_STATUS, ": trimmed;");
	else if (c->state == TRIM_REJECTED)
		row_add(r, EL_STATUS, ": kept;");
	else if (review_changes_of(t->trim, ri->cand, &n) != NULL)
		row_addf(r, EL_STATUS, ": trimming it turns off %zu other%s;",
		    n, n == 1 ? "" : "s");
	row_addf(r, EL_STATUS, " %s", c->reason);
}

static void
rsub_free(struct tui_view *v)
{
	struct tui *t = v->tui;

	if (t->trim != NULL) {
		struct ritem *ri = tree_current_data(v->tree);

		if (ri != NULL) {
			t->trim->last_sub = ri->sub;
			t->trim->sub_key = ritem_key(t->trim, ri);
		}
		t->trim->sub_open = false;
		review_result_free(t->trim->res);
		t->trim->res = NULL;
	}
	review_request_clear(t);
}

static const struct tui_view_ops rsub_ops = {
	"trim-subsystem", &rsub_tree_ops, rsub_title, rsub_action, rsub_info,
	rsub_free, rsub_heading
};

static int
rsub_open(struct tui *t, size_t s)
{
	struct tui_view *v;

	t->trim->sub_open = true;
	t->trim->open_sub = s;
	review_result_free(t->trim->res);
	t->trim->res = NULL;
	review_request(t);
	v = tui_push(t, &rsub_ops, NULL, (void *)(uintptr_t)(s + 1));
	if (t->trim->sub_key != NULL && t->trim->last_sub == s)
		tree_select_key(v->tree, t->trim->sub_key);
	return R_ALL;
}
