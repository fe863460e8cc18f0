/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.c - "how do I turn this on?" (E): the plan of core/explain/enable.c for
 * the option, each step with its reason, or why it can't be done; y
 * applies it to the interface's configuration (then the worker
 * recomputes as for any change), anything else closes it. Shown in a
 * pager (pager.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/explain/enable.h"
#include "../core/explain/explain.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/util.h"
#include "tui.h"

struct plan {
	struct enable_plan	*p;
	struct kc_symbol	*s;
};

/* The first line and the last (what y does). */
static bool
plan_heading(const char *s)
{
	return strncmp(s, "To make", 7) == 0 || strncmp(s, "Press", 5) == 0 ||
	    strstr(s, " can't be made ") != NULL;
}

/* y: apply, then back to where E was pressed from. */
static int
plan_apply(struct tui *t, struct tui_view *v)
{
	struct plan		*pl = pager_data(v);
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

/* y applies; the other keys but scrolling close it. */
static int
plan_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	switch (act) {
	case A_SET_Y:
		return plan_apply(t, v);
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
	case A_HELP:
		return -1;
	default:
		return R_NONE;
	}
}

/* What the keys do. */
static void
plan_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct plan *pl = pager_data(v);

	(void)t;
	(void)width;
	if (pl->p->ok && !pl->p->already)
		row_add(r, EL_STATUS, "y applies these changes; n, Enter or "
		    "Esc closes");
	else
		row_add(r, EL_STATUS, "Enter or Esc closes");
}

/* The plan and its symbol. */
static void
plan_free(void *data)
{
	struct plan *pl = data;

	enable_plan_free(pl->p);
	free(pl);
}

static const struct pager_ops plan_pager_ops = {
	plan_heading, plan_action, plan_info, plan_free
};

void
plan_open(struct tui *t, struct kc_symbol *s)
{
	struct plan		*pl;
	struct enable_plan	*p;
	struct strbuf		 sb;
	enum kc_tri		 want = KC_YES;
	char			*w, *q;
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
	pager_open(t, &plan_pager_ops, kc_sym_menu(s), xasprintf("Enable: "
	    "CONFIG_%s", kc_sym_name(s)), strbuf_detach(&sb), pl);
}
