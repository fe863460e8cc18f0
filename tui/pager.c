/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.c - scrollable lines of text with a title, a mode of the tree
 * widget with one item per line: the help screen (help.c) and the plan to
 * turn an option on (plan.c). The cursor is the top line, so up and down
 * scroll the view, PgUp/PgDn/Space page, / finds text and n (N) the
 * next (previous) line with it (less); what a key does otherwise, which lines are
 * headings, and the info line are the kind's (struct pager_ops).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

struct pager {
	const struct pager_ops	*ops;
	char			*title;
	char			*text;
	char		       **lines;
	int			 nlines;
	void			*data;
	char			*find;		/* the last / text, or NULL */
	/* The line the last find went to, and the view's top then: n and
	 * N go on from it while the view stays there (on a page too short
	 * to scroll, the top never moves), from the top once scrolled. */
	int			 found, found_top;
};

/* Whether line contains needle, ignoring ASCII case. */
static bool
pager_contains(const char *line, const char *needle)
{
	size_t n = strlen(needle);

	for (; *line != '\0'; line++) {
		if (strncasecmp(line, needle, n) == 0)
			return true;
	}
	return false;
}

/* Scroll to the next line (after the top one, wrapping) that holds the
 * text searched last, as less's / and n; dir -1: the previous line
 * (before the top one), as less's N. */
static void
pager_find_next(struct tui *t, struct tui_view *v, int dir)
{
	struct pager	*pg = v->data;
	int		 top = tree_offset(v->tree), i, l, from;

	if (pg->find == NULL || *pg->find == '\0') {
		tui_message(t, EL_STATUS, "/ finds text on this page");
		return;
	}
	from = pg->found >= 0 && pg->found_top == top ? pg->found : top;
	for (i = 1; i <= pg->nlines; i++) {
		l = ((from + dir * i) % pg->nlines + pg->nlines) % pg->nlines;
		if (pager_contains(pg->lines[l], pg->find)) {
			tree_scroll_to(v->tree, l);
			pg->found = l;
			pg->found_top = tree_offset(v->tree);
			if (tree_offset(v->tree) != l)
				/* On the last page: the line is shown. */
				tui_message(t, EL_STATUS, "/%s: line %d",
				    pg->find, l + 1);
			return;
		}
	}
	tui_message(t, EL_ERROR, "/%s: not on this page", pg->find);
}

/* The text typed for / (arg: the pager's view, still on top). */
static void
pager_find_done(struct tui *t, const char *text, void *arg)
{
	struct tui_view	*v = arg;
	struct pager	*pg;

	if (t->view != v || text == NULL || *text == '\0')
		return;
	pg = v->data;
	free(pg->find);
	pg->find = xstrdup(text);
	pg->found = -1;		/* a new text: from the top */
	pager_find_next(t, v, 1);
}

/* One item per line. */
static void
pager_build(void *arg, struct tree *tr)
{
	struct tui_view	*v = arg;
	struct pager	*pg = v->data;
	int		 i;

	for (i = 0; i < pg->nlines; i++)
		tree_add(tr, NULL, pg->lines[i], pg->lines[i], false);
}

/* A line as it is, in the heading colour if the kind says so. */
static void
pager_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	struct tui_view	*v = arg;
	struct pager	*pg = v->data;
	const char	*s = l->data;

	(void)tr;
	(void)selected;
	(void)width;
	row_add(r, pg->ops->heading(s) ? EL_HELP_TITLE : EL_HELP, s);
}

static const struct tree_ops pager_tree_ops = {
	pager_build, pager_draw, NULL, NULL
};

/* The title given when it was opened. */
static char *
pager_title(struct tui *t, struct tui_view *v)
{
	struct pager *pg = v->data;

	(void)t;
	return xstrdup(pg->title);
}

/* Up and down scroll a line, PgUp and PgDn (and Space, as less) a page,
 * Home and End to the ends; the rest is the kind's. */
static int
pager_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	struct pager	*pg = v->data;
	int		 h = tree_height(v->tree), top = tree_offset(v->tree);

	switch (act) {
	case A_UP:
		tree_scroll_to(v->tree, top - 1);
		return R_LINES;
	case A_DOWN:
		tree_scroll_to(v->tree, top + 1);
		return R_LINES;
	case A_PGUP:
		tree_scroll_to(v->tree, top - h);
		return R_LINES;
	case A_PGDN:
	case A_CYCLE:
		tree_scroll_to(v->tree, top + h);
		return R_LINES;
	case A_HOME:
		tree_scroll_to(v->tree, 0);
		return R_LINES;
	case A_END:
		tree_scroll_to(v->tree, tree_count(v->tree));
		return R_LINES;
	case A_SEARCH:
		tui_ask_hint(t, "Find on this page: ", pg->find, pager_find_done,
		    v);
		return R_ALL;
	case A_SET_N:
		/* less's n: the next line with it, when / was used. */
		if (pg->find == NULL)
			return pg->ops->action(t, v, act);
		pager_find_next(t, v, 1);
		return R_ALL;
	case A_ONLY_NEW:
		/* less's N: the previous line with it. */
		if (pg->find == NULL)
			return pg->ops->action(t, v, act);
		pager_find_next(t, v, -1);
		return R_ALL;
	default:
		return pg->ops->action(t, v, act);
	}
}

/* The kind's info line. */
static void
pager_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct pager *pg = v->data;

	pg->ops->info(t, v, r, width);
}

/* Free the text, then the kind's data. */
static void
pager_free(struct tui_view *v)
{
	struct pager *pg = v->data;

	if (pg->ops->free != NULL)
		pg->ops->free(pg->data);
	free(pg->title);
	free(pg->find);
	free(pg->text);
	free(pg->lines);
	free(pg);
}

static const struct tui_view_ops pager_ops = {
	"pager", &pager_tree_ops, pager_title, pager_action, pager_info,
	pager_free, NULL
};

struct tui_view *
pager_open(struct tui *t, const struct pager_ops *ops, struct kc_menu *m,
    char *title, char *text, void *data)
{
	struct pager	*pg = xcalloc(1, sizeof *pg);
	char		*p, *nl;

	pg->ops = ops;
	pg->title = title;
	pg->text = text;
	pg->data = data;
	pg->found = -1;
	/* Lines end in \n; a last one without it is a line too. */
	for (p = pg->text; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p) - 1;
		else
			*nl = '\0';
		pg->lines = xrealloc(pg->lines, ((size_t)pg->nlines + 1) *
		    sizeof *pg->lines);
		pg->lines[pg->nlines++] = p;
		if (nl[1] == '\0')
			break;
	}
	return tui_push(t, &pager_ops, m, pg);
}

const struct pager_ops *
pager_kind(struct tui_view *v)
{
	return v->ops == &pager_ops ? ((struct pager *)v->data)->ops : NULL;
}

void *
pager_data(struct tui_view *v)
{
	return ((struct pager *)v->data)->data;
}
