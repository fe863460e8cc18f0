/* SPDX-License-Identifier: GPL-2.0 */
/*
 * review-views.c - the trim review's two views: the list of subsystems
 * with their candidates, savings and how many are reviewed (rlist_*), and
 * one subsystem's candidates with their reasons and what accepting each
 * turns off besides (rsub_*); drawn as rows of the tree widget, their keys
 * turned into review.c's actions (accept, reject, undo, export).
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

/*
 * The layouts by width (issue 35, item 9): from 100 columns, every column;
 * below, the candidates' saving goes to the bottom line of the selected
 * row so that the prompt and reason stay readable; below 72 (60x20), one
 * column: the list its counts and the path, the candidates their name,
 * the rest on the bottom line.
 */
#define REVIEW_WIDE	100
#define REVIEW_NARROW	72

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

	size_t			 nsyms = (size_t)kconfig_nsymbols(tt->k);
	size_t			 base = trim_nsubsys(tt->t) + trim_ncands(tt->t);
	const struct trim_effects *fx;

	switch (ri->kind) {
	case RI_GROUP:
		return &tt->keys[base + 2 * nsyms + ri->change];
	case RI_EFFECT:
		fx = review_effects(tt, ri->sub);
		if (fx != NULL && ri->change < fx->n)
			return &tt->keys[base + nsyms +
			    (size_t)fx->e[ri->change].sym];
		return &tt->keys[base + 2 * nsyms + TE_NGROUPS];
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
		ox = review_removes(rlist_sort_tt, x);
		oy = review_removes(rlist_sort_tt, y);
		c = (oy > ox) - (oy < ox);
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
	if (width < REVIEW_NARROW)
		/* One column: the path, readable; the counts are on the
		 * bottom line of the selected row. */
		row_addf(r, EL_NORMAL, "%3zu/%-3zu ", done, sub->ncands);
	else
		row_addf(r, EL_NORMAL, "%3zu/%-3zu %4zu objs %3zu mods ",
		    done, sub->ncands, objs, mods);
	/* A column of its own when some size is known, so that the rows
	 * stay aligned under the headings; "-" where none is. */
	if (width < REVIEW_NARROW)
		;
	else if (bytes)
		row_addf(r, EL_NORMAL, "%7llu ", (bytes + 1023) / 1024);
	else if (tt->sizes)
		row_addf(r, EL_NORMAL, "%7s ", "-");
	row_addf(r, EL_TRIM, "%4zu off", review_removes(tt, ri->sub));
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
	if (width < REVIEW_NARROW)
		row_addf(r, EL_HELP_TITLE, "  reviewed    off  subsystem (o: %s)",
		    rlist_sorts[t->trim->sort]);
	else
		row_addf(r, EL_HELP_TITLE, "  reviewed   objects  modules %s    "
		    " off  subsystem (o: %s)", t->trim->sizes ? "    KiB " : "",
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
	if (width < REVIEW_NARROW) {
		/* The columns the one-column list leaves out. */
		struct trim_subsys	*sub = trim_subsys(t->trim->t, ri->sub);
		size_t			 objs, mods;
		unsigned long long	 bytes;

		review_counts(t->trim, sub->cands, sub->ncands, &objs, &mods,
		    &bytes);
		counts = xasprintf("  (%zu/%zu, %zu objs, %zu mods)",
		    review_done(t->trim, ri->sub), sub->ncands, objs, mods);
	} else
		counts = xasprintf("  (%zu of %zu reviewed)", review_done(
		    t->trim, ri->sub), trim_subsys(t->trim->t,
		    ri->sub)->ncands);
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
	size_t			 nsyms = (size_t)kconfig_nsymbols(tt->k);
	const struct trim_effects *fx;
	int			 g;

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
	/* What the candidates drag along together, every option once, in
	 * this subsystem then elsewhere (issue 35, item 3): with the
	 * candidates above, all that "turns off N" counts. */
	if ((fx = review_effects(tt, s)) == NULL)
		return;
	for (g = TE_HERE; g < TE_NGROUPS; g++) {
		if (fx->ngroup[g] == 0)
			continue;
		it = tree_add(tr, NULL, ritem_new(RI_GROUP, s, 0, g),
		    &tt->keys[base + 2 * nsyms + g], true);
		for (j = 0; j < fx->n; j++)
			if (fx->e[j].group == (enum trim_effect_group)g)
				tree_add(tr, it, ritem_new(RI_EFFECT, s, 0, j),
				    &tt->keys[base + nsyms +
				    (size_t)fx->e[j].sym], false);
	}
}

static const char *
rsub_state(struct tui *t, const struct trim_cand *c, size_t cand, int *el)
{
	if (review_gone(t->trim, cand)) {
		/* Off already: no ✂ on what is n (issue 35, item 6). */
		*el = EL_INVISIBLE;
		return " off  ";
	}
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
	const struct trim_effects *fx;
	const struct trim_effect *e;
	const char		*st;
	size_t			 n, done = review_done(tt, ri->sub);
	int			 el, col, w;

	(void)tr;
	switch (ri->kind) {
	case RI_ALL:
		/* Narrower: the count before the saving (which the list's
		 * bottom line has). */
		if (width < REVIEW_NARROW)
			row_addf(r, EL_HELP_TITLE, " All %zu, %zu reviewed",
			    sub->ncands, done);
		else if (width < REVIEW_WIDE)
			row_addf(r, EL_HELP_TITLE, " All %zu candidates, %zu "
			    "reviewed", sub->ncands, done);
		else {
			row_addf(r, EL_HELP_TITLE, " All %zu candidates, %zu "
			    "reviewed: ", sub->ncands, done);
			review_saving(tt, sub->cands, sub->ncands, r,
			    EL_NORMAL);
		}
		if ((fx = review_effects(tt, ri->sub)) == NULL)
			row_addf(r, EL_INVISIBLE, "; computing%s", t->ascii ?
			    "..." : "\u2026");
		else if (tt->res->n > 0)
			/* The count, then where each line of it is. */
			row_addf(r, EL_TRIM, "; %sturns off %zu: %zu + %zu "
			    "here + %zu elsewhere", tt->res->n ==
			    sub->ncands ? "" : "the rest ", fx->n,
			    fx->ngroup[TE_CANDIDATE], fx->ngroup[TE_HERE],
			    fx->ngroup[TE_ELSEWHERE]);
		break;
	case RI_GROUP:
		if ((fx = review_effects(tt, ri->sub)) == NULL)
			break;
		row_addf(r, EL_HELP_TITLE, " Dragged along %s: %zu",
		    ri->change == TE_HERE ? "in this subsystem" :
		    "in other menus", fx->ngroup[ri->change]);
		break;
	case RI_EFFECT:
		if ((fx = review_effects(tt, ri->sub)) == NULL ||
		    ri->change >= fx->n)
			break;
		e = &fx->e[ri->change];
		row_add(r, EL_NORMAL, "   ");
		tree_prefix(l, r, EL_TREE, t->ascii);
		row_addf(r, EL_NAME, "CONFIG_%s", kc_sym_name(kconfig_symbol(
		    t->k, e->sym)));
		row_addf(r, EL_NORMAL, " %c%s%c", "nmy"[e->before],
		    t->ascii ? "->" : "\u2192", "nmy"[e->after]);
		row_addf(r, EL_INVISIBLE, "  %s", e->why);
		if (e->group == TE_ELSEWHERE) {
			/* Its menu, cut from the middle: the leaf says
			 * where (the bottom line has it whole). */
			row_add(r, EL_NORMAL, "  in ");
			review_path(t, r, e->path, width - r->n);
		}
		break;
	case RI_CAND:
		c = trim_cand(tt->t, ri->cand);
		st = rsub_state(t, c, ri->cand, &el);
		row_add(r, EL_NORMAL, " ");
		row_add(r, el, st);
		row_addf(r, EL_NORMAL, " %c  ", c->value == KC_YES ? 'y' :
		    'm');
		if (width < REVIEW_NARROW) {
			/* One column: the name; the rest below. */
			row_addf(r, EL_NAME, "CONFIG_%s", c->name);
			break;
		}
		row_addf(r, EL_NAME, "CONFIG_%-28s", c->name);
		row_add(r, EL_NORMAL, " ");
		/* A longer name pushes the rest right (past the heading's
		 * column): cut nothing of it. */
		col = r->n;
		if (width >= REVIEW_WIDE) {
			review_saving(tt, &ri->cand, 1, r, EL_NORMAL);
			/* Two blanks at least before the prompt: the
			 * counts never run into it. */
			w = rsub_saving_width(tt);
			row_fit(r, EL_NORMAL, r->n < col + w ? col + w + 2 :
			    r->n + 2);
		} else
			row_add(r, EL_NORMAL, " ");
		if (review_gone(tt, ri->cand))
			row_add(r, EL_INVISIBLE, "(off: another accept took "
			    "it along) ");
		else if (c->decided)
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
	row_add(r, EL_HELP_TITLE, " state  was option");
	if (width < REVIEW_NARROW)
		return;
	row_fit(r, EL_HELP_TITLE, RSUB_COL_SAVING);
	if (width < REVIEW_WIDE) {
		row_add(r, EL_HELP_TITLE, " prompt, reason");
		return;
	}
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
		if (ri->kind == RI_ALL || ri->kind == RI_GROUP ||
		    ri->kind == RI_EFFECT)
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
		if (ri->kind == RI_ALL || ri->kind == RI_GROUP)
			return act == A_HELP ? -1 : R_NONE;
		if (ri->kind == RI_EFFECT) {
			const struct trim_effects *fx = review_effects(t->trim,
			    ri->sub);

			if (fx == NULL || ri->change >= fx->n)
				return R_NONE;
			s = kconfig_symbol(t->k, fx->e[ri->change].sym);
		} else if (ri->kind == RI_CHANGE) {
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

	if (ri == NULL)
		return;
	if (ri->kind == RI_ALL || ri->kind == RI_GROUP) {
		row_add(r, EL_STATUS, "the whole subsystem:  a trims all  r "
		    "keeps all  u undo  e export  v verify  Esc back");
		return;
	}
	if (ri->kind == RI_EFFECT) {
		/* The line in full: its reason, its menu, what takes it. */
		const struct trim_effects	*fx = review_effects(t->trim,
						    ri->sub);
		const struct trim_effect	*e;

		if (fx == NULL || ri->change >= fx->n)
			return;
		e = &fx->e[ri->change];
		row_addf(r, EL_NAME, "CONFIG_%s", kc_sym_name(kconfig_symbol(
		    t->k, e->sym)));
		row_addf(r, EL_STATUS, ": %s; in %s", e->why, e->path);
		if (e->cand >= 0)
			row_addf(r, EL_STATUS, "; goes with CONFIG_%s",
			    trim_cand(t->trim->t, (size_t)e->cand)->name);
		return;
	}
	c = trim_cand(t->trim->t, ri->cand);
	if (width < REVIEW_WIDE) {
		/* What the row could not hold, the reason first: the
		 * name is on the row. */
		if (width < REVIEW_NARROW && kc_sym_menu(c->sym) != NULL &&
		    kc_menu_prompt(kc_sym_menu(c->sym)) != NULL)
			row_addf(r, EL_STATUS, "%s: ",
			    kc_menu_prompt(kc_sym_menu(c->sym)));
		row_addf(r, EL_STATUS, "%s; ", c->reason);
		review_saving(t->trim, &ri->cand, 1, r, EL_STATUS);
		return;
	}
	row_addf(r, EL_NAME, "CONFIG_%s", c->name);
	if (review_gone(t->trim, ri->cand))
		row_add(r, EL_STATUS, ": off already (another accept took it "
		    "along);");
	else if (c->state == TRIM_ACCEPTED)
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
