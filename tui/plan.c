/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.c - "how do I turn this on?" (E): the plan of core/enable.c for
 * the option, each step with its reason, or why it can't be done; y
 * applies it to the interface's configuration (then the worker
 * recomputes as for any change), anything else closes it.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/enable.h"
#include "../core/explain.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

struct plan {
	struct enable_plan	*p;
	struct kc_symbol	*s;
	char			*text;
	char		       **lines;
	int			 nlines;
};

static void
plan_build(void *arg, struct tree *tr)
{
	struct tui_view	*v = arg;
	struct plan	*pl = v->data;
	int		 i;

	for (i = 0; i < pl->nlines; i++)
		tree_add(tr, NULL, pl->lines[i], pl->lines[i], false);
}

static void
plan_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	const char *s = l->data;

	(void)arg;
	(void)tr;
	(void)selected;
	(void)width;
	row_add(r, (strncmp(s, "To make", 7) == 0 || strncmp(s, "Press", 5) ==
	    0 || strstr(s, " can't be made ") != NULL) ? EL_HELP_TITLE :
	    EL_HELP, s);
}

static const struct tree_ops plan_tree_ops = {
	plan_build, plan_draw, NULL, NULL
};

static char *
plan_title(struct tui *t, struct tui_view *v)
{
	struct plan *pl = v->data;

	(void)t;
	return xasprintf("Enable: CONFIG_%s", kc_sym_name(pl->s));
}

/* y: apply, then back to where E was pressed from. */
static int
plan_apply(struct tui *t, struct tui_view *v)
{
	struct plan		*pl = v->data;
	struct kc_symbol	*s = pl->s;
	char			*cause = NULL;
	size_t			 n = pl->p->nsteps;
	enum kc_tri		 want = pl->p->want;

	if (!pl->p->ok || pl->p->already) {
		tui_pop(t);
		return R_ALL;
	}
	if (enable_apply(t->k, pl->p, &cause) != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
		return R_ALL;
	}
	tui_changed(t);
	tui_pop(t);
	/* The help of the option shows values of before: close it too. */
	while (t->view->prev != NULL && t->view->menu != NULL &&
	    t->view->ops != &tui_menu_ops)
		tui_pop(t);
	tui_message(t, EL_STATUS, "CONFIG_%s=%s: %zu change%s applied",
	    kc_sym_name(s), explain_tri_name(want), n, n == 1 ? "" : "s");
	return R_ALL;
}

static int
plan_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	int h = tree_height(v->tree), top = tree_offset(v->tree);

	switch (act) {
	case A_SET_Y:
		return plan_apply(t, v);
	case A_UP:
		tree_home(v->tree);
		tree_move(v->tree, top - 1);
		return R_LINES;
	case A_DOWN:
		tree_end(v->tree);
		tree_home(v->tree);
		tree_move(v->tree, top + h);
		return R_LINES;
	case A_SET_N:
	case A_ENTER:
	case A_QUIT:
	case A_ENABLE:
		tui_pop(t);
		tui_message(t, EL_STATUS, "Nothing changed");
		return R_ALL;
	case A_PGUP:
	case A_PGDN:
	case A_HOME:
	case A_END:
	case A_BACK:
		return -1;
	default:
		return R_NONE;
	}
}

static void
plan_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct plan *pl = v->data;

	(void)t;
	(void)width;
	if (pl->p->ok && !pl->p->already)
		row_add(r, EL_STATUS, "y applies these changes; n, Enter or "
		    "Esc closes");
	else
		row_add(r, EL_STATUS, "Enter or Esc closes");
}

static void
plan_free(struct tui_view *v)
{
	struct plan *pl = v->data;

	enable_plan_free(pl->p);
	free(pl->text);
	free(pl->lines);
	free(pl);
}

static const struct tui_view_ops plan_ops = {
	"plan", &plan_tree_ops, plan_title, plan_action, plan_info, plan_free
};

void
plan_open(struct tui *t, struct kc_symbol *s)
{
	struct plan		*pl;
	struct enable_plan	*p;
	struct strbuf		 sb;
	enum kc_tri		 want = KC_YES;
	char			*w, *nl, *q;
	size_t			 i;
	int			 width = t->width - 2 > 20 ? t->width - 2 : 20;

	if (s == NULL || kc_sym_name(s) == NULL || (kc_sym_type(s) !=
	    KC_BOOL && kc_sym_type(s) != KC_TRISTATE)) {
		tui_message(t, EL_ERROR, "E plans bool and tristate options");
		return;
	}
	/* y first; a tristate that can't be y may still be m. */
	p = enable_plan(t->k, s, want);
	if (!p->ok && kc_sym_type(s) == KC_TRISTATE) {
		struct enable_plan *pm = enable_plan(t->k, s, KC_MOD);

		if (pm->ok) {
			enable_plan_free(p);
			p = pm;
			want = KC_MOD;
		} else
			enable_plan_free(pm);
	}
	strbuf_init(&sb);
	if (!p->ok) {
		w = xasprintf("CONFIG_%s can't be made %s: %s.", kc_sym_name(s),
		    explain_tri_name(want), p->why_not);
		q = help_wrap(w, width, 2);
		strbuf_adds(&sb, q);
		free(q);
		free(w);
	} else if (p->already)
		strbuf_addf(&sb, "CONFIG_%s is already %s.\n", kc_sym_name(s),
		    explain_tri_name(want));
	else {
		strbuf_addf(&sb, "To make CONFIG_%s %s, %zu change%s:\n",
		    kc_sym_name(s), explain_tri_name(want), p->nsteps,
		    p->nsteps == 1 ? "" : "s");
		for (i = 0; i < p->nsteps; i++) {
			w = xasprintf("  %zu. CONFIG_%s=%s: %s", i + 1,
			    kc_sym_name(p->steps[i].sym),
			    explain_tri_name(p->steps[i].value),
			    p->steps[i].reason);
			q = help_wrap(w, width, 7);
			strbuf_adds(&sb, q);
			free(q);
			free(w);
		}
		strbuf_adds(&sb, "\nPress y to apply them, n or Esc to leave "
		    "everything as it is.\n");
	}
	pl = xcalloc(1, sizeof *pl);
	pl->p = p;
	pl->s = s;
	pl->text = strbuf_detach(&sb);
	for (q = pl->text; *q != '\0'; q = nl + 1) {
		if ((nl = strchr(q, '\n')) == NULL)
			break;
		*nl = '\0';
		pl->lines = xrealloc(pl->lines, ((size_t)pl->nlines + 1) *
		    sizeof *pl->lines);
		pl->lines[pl->nlines++] = q;
	}
	tui_push(t, &plan_ops, kc_sym_menu(s), pl);
}
