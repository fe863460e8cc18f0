/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-effects.c - what accepting a subsystem's candidates turns off,
 * every option once, grouped and worded for the trim review as the
 * export's report words it (effects.h). The engine's answer is
 * trim_consequences(); this files each change.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "effects.h"
#include "trim-int.h"

/* The menu path of an entry, as the trim names subsystems: its enclosing
 * menus' prompts, "(top level)" when none (trim-candidates.c's rule). */
static char *
effects_path(struct kc_menu *m)
{
	struct kc_menu	*p, **chain = NULL;
	struct strbuf	 sb;
	const char	*prompt;
	size_t		 n = 0, a = 0;

	for (p = m != NULL ? kc_menu_parent(m) : NULL; p != NULL;
	    p = kc_menu_parent(p)) {
		/* The root's prompt is the main menu title, not a menu. */
		if (kc_menu_kind(p) != KC_MENU_MENU || kc_menu_parent(p) ==
		    NULL || (prompt = kc_menu_prompt(p)) == NULL)
			continue;
		if (n == a) {
			a = a ? a * 2 : 8;
			chain = xrealloc(chain, a * sizeof *chain);
		}
		chain[n++] = p;
	}
	if (n == 0) {
		free(chain);
		return xstrdup("(top level)");
	}
	strbuf_init(&sb);
	while (n-- > 0)
		strbuf_addf(&sb, "%s%s", sb.len ? " > " : "",
		    kc_menu_prompt(chain[n]));
	free(chain);
	return strbuf_detach(&sb);
}

/* Whether path is the subsystem's or one of its submenus'. */
static bool
effects_inside(const char *path, const char *sub)
{
	size_t n = strlen(sub);

	return strncmp(path, sub, n) == 0 && (path[n] == '\0' ||
	    strncmp(path + n, " > ", 3) == 0);
}

/* The accepted candidate change i goes with, following its causes (the
 * report's rule: report.c's report_root), or -1. */
static long
effects_root(struct trim *t, const struct trim_change *ch,
    const int *change_of, const bool *acc, size_t i)
{
	const struct trim_change	*c;
	long				 cand;
	int				 steps, idx;

	for (steps = 0; steps < 256; steps++) {
		c = &ch[i];
		cand = trim_cand_of(t, c->sym);
		if (cand >= 0 && acc[cand] && c->after == KC_NO)
			return cand;
		if (c->cause == NULL || (idx = kc_sym_index(c->cause)) < 0 ||
		    change_of[idx] < 0)
			return -1;
		i = (size_t)change_of[idx];
	}
	return -1;
}

/* qsort: effects by group, then symbol. */
static int
effects_cmp(const void *a, const void *b)
{
	const struct trim_effect *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->sym > y->sym) - (x->sym < y->sym);
}

int
trim_effects(struct trim *t, struct kconfig *k, size_t sub,
    const size_t *cands, size_t n, struct trim_effects *out, char **cause)
{
	struct trim_change	*ch;
	struct trim_effect	*e;
	const char		*subpath;
	size_t			 nch, i;
	int			*change_of;
	bool			*acc;
	long			 cand;

	memset(out, 0, sizeof *out);
	if (sub >= t->nsubs) {
		*cause = xstrdup("trim: no such subsystem");
		return -1;
	}
	if (trim_consequences(t, k, cands, n, &ch, &nch, cause) != 0)
		return -1;
	subpath = t->subs[sub].path;
	change_of = xcalloc((size_t)t->nsyms + 1, sizeof *change_of);
	for (i = 0; i < (size_t)t->nsyms; i++)
		change_of[i] = -1;
	for (i = 0; i < nch; i++)
		change_of[kc_sym_index(ch[i].sym)] = (int)i;
	acc = xcalloc(t->ncands + 1, sizeof *acc);
	for (i = 0; i < n; i++)
		if (cands[i] < t->ncands)
			acc[cands[i]] = true;
	out->e = xcalloc(nch + 1, sizeof *out->e);
	for (i = 0; i < nch; i++) {
		if (ch[i].before == KC_NO || ch[i].after != KC_NO) {
			out->nother++;
			continue;
		}
		e = &out->e[out->n++];
		e->sym = kc_sym_index(ch[i].sym);
		e->before = ch[i].before;
		e->after = ch[i].after;
		e->path = effects_path(kc_sym_menu(ch[i].sym));
		cand = trim_cand_of(t, ch[i].sym);
		if (cand >= 0 && acc[cand]) {
			e->group = TE_CANDIDATE;
			e->cand = cand;
			e->why = t->cands[cand].reason;
			continue;
		}
		e->cand = effects_root(t, ch, change_of, acc, i);
		e->why = ch[i].why != NULL ? ch[i].why : "follows";
		e->group = effects_inside(e->path, subpath) ? TE_HERE :
		    TE_ELSEWHERE;
	}
	qsort(out->e, out->n, sizeof *out->e, effects_cmp);
	for (i = 0; i < out->n; i++)
		out->ngroup[out->e[i].group]++;
	free(acc);
	free(change_of);
	free(ch);
	return 0;
}

void
trim_effects_free(struct trim_effects *fx)
{
	size_t i;

	for (i = 0; i < fx->n; i++)
		free(fx->e[i].path);
	free(fx->e);
	memset(fx, 0, sizeof *fx);
}
