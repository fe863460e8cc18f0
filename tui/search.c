/* SPDX-License-Identifier: GPL-2.0 */
/*
 * search.c - "/": a regular expression (PCRE2, JIT-compiled, caseless)
 * over every entry's symbol name, prompt and help, a leading CONFIG_
 * stripped (as menuconfig does); the results are a mode of the tree
 * widget in four groups, each headed: the symbol named exactly, then
 * names, prompts and help text that match, each group under its menu
 * locations, each entry with its evidence marks. Enter jumps to the
 * entry in its menu.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

struct sresult {
	struct kc_menu	*m;		/* NULL: a heading */
	char		*location;	/* a location's, or a group's */
	bool		 group;		/* a group's heading */
};

/* The groups, in the order shown. */
enum { SG_EXACT, SG_NAME, SG_PROMPT, SG_HELP, SG_COUNT };

struct search {
	char		*regex;
	struct sresult	*r;
	int		 n, a;
	int		 nmatches;
};

static void
search_build(void *arg, struct tree *tr)
{
	struct tui_view		*v = arg;
	struct search		*s = v->data;
	struct tree_item	*parent = NULL;
	int			 i;

	for (i = 0; i < s->n; i++) {
		if (s->r[i].group) {
			tree_add(tr, NULL, &s->r[i], &s->r[i], false);
			parent = NULL;
		} else if (s->r[i].m == NULL)
			parent = tree_add(tr, NULL, &s->r[i], &s->r[i], true);
		else
			tree_add(tr, parent, &s->r[i], s->r[i].m, true);
	}
}

static void
search_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	struct tui_view		*v = arg;
	struct tui		*t = v->tui;
	struct sresult		*sr = l->data;
	struct kc_symbol	*s;
	const char		*prompt;
	int			 el, start;

	(void)tr;
	(void)width;
	if (sr->group) {
		row_add(r, EL_HELP_TITLE, sr->location);
		if (selected)
			row_paint(r, EL_SELECTED, 0, width);
		return;
	}
	if (sr->m == NULL) {
		row_add(r, EL_TREE, sr->location);
		if (selected)
			row_paint(r, EL_SELECTED, 0, width);
		return;
	}
	tree_prefix(l, r, EL_TREE, t->ascii);
	start = r->n;
	el = tui_menu_visible(t, sr->m) ? EL_NORMAL : EL_INVISIBLE;
	s = kc_menu_sym(sr->m);
	/* The evidence mark and the suggestion, as in the menus. */
	menu_marks(t, s, el, r);
	prompt = kc_menu_prompt(sr->m);
	if (s != NULL && kc_sym_index(s) >= 0 && !kc_sym_is_choice(s)) {
		int i = kc_sym_index(s), tri = t->snap->tri[i];

		switch (kc_sym_type(s)) {
		case KC_BOOL:
			row_addf(r, el, "[%c] ", tri ? '*' : ' ');
			break;
		case KC_TRISTATE:
			row_addf(r, el, "<%c> ", "  M*"[tri + 1]);
			break;
		case KC_INT:
		case KC_HEX:
		case KC_STRING:
			row_addf(r, el, "(%s) ", tui_sym_str(t, s));
			break;
		default:
			break;
		}
	}
	if (prompt != NULL)
		row_add(r, el, prompt);
	else
		row_add(r, EL_INVISIBLE, "(no prompt)");
	if (s != NULL && kc_sym_name(s) != NULL)
		row_addf(r, EL_NAME, " (%s)", kc_sym_name(s));
	if (selected)
		row_paint(r, EL_SELECTED, start, width);
}

static const char *
search_text(void *arg, void *data)
{
	struct sresult *sr = data;

	(void)arg;
	return sr->m != NULL ? kc_menu_prompt(sr->m) : NULL;
}

static const struct tree_ops search_tree_ops = {
	search_build, search_draw, search_text, NULL
};

static char *
search_title(struct tui *t, struct tui_view *v)
{
	struct search *s = v->data;

	(void)t;
	return xasprintf("Search /%s/: %d match%s", s->regex, s->nmatches,
	    s->nmatches == 1 ? "" : "es");
}

/* The cursor to the next match after it (a line with an entry), from
 * the top again after the last; dir -1: the previous one, from the
 * bottom again before the first (less's and vim's n and N). */
static void
search_next(struct tui_view *v, int dir)
{
	int		 n = tree_count(v->tree), cur = tree_current(v->tree), i;
	int		 l;
	struct sresult	*sr;

	for (i = 1; i <= n; i++) {
		l = ((cur + dir * i) % n + n) % n;
		sr = tree_line(v->tree, l)->data;
		if (sr->m != NULL) {
			tree_move(v->tree, l - cur);
			return;
		}
	}
}

static int
search_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	struct sresult *sr = tree_current_data(v->tree);

	if (sr == NULL)
		return -1;
	switch (act) {
	case A_ENTER:
	case A_OPEN:
		if (sr->m == NULL)
			return R_NONE;
		if (!menu_jump(t, sr->m))
			tui_message(t, EL_ERROR, "not shown in any menu");
		return R_ALL;
	case A_HELP:
		if (sr->m != NULL) {
			help_open(t, sr->m);
			return R_ALL;
		}
		return -1;	/* a heading: the key list */
	case A_SET_N:
		/* n: the next match, over the headings (wrapping). */
		search_next(v, 1);
		return R_LINES;
	case A_ONLY_NEW:
		/* N: the previous one, as less and vim. */
		search_next(v, -1);
		return R_LINES;
	case A_SET_Y:
	case A_SET_M:
	case A_CYCLE:
		/* n is the next match here: no value is set from the
		 * results, and the key says so. */
		tui_message(t, EL_STATUS, "%s: values are set in the menu: "
		    "Enter jumps to the option (n, N: next, previous match)",
		    act == A_SET_Y ? "y" : act == A_SET_M ? "m" : "Space");
		return R_ALL;
	default:
		return -1;
	}
}

static void
search_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct sresult	*sr = tree_current_data(v->tree);
	char		*why;

	(void)width;
	if (sr == NULL || sr->m == NULL) {
		row_add(r, EL_STATUS, "Enter jumps to the option, ? help, "
		    "Esc back");
		return;
	}
	if (kc_menu_file(sr->m) != NULL)
		row_addf(r, EL_STATUS, "%s:%d", kc_menu_file(sr->m),
		    kc_menu_line(sr->m));
	if ((why = menu_invisible_reason(t, sr->m)) != NULL) {
		row_addf(r, EL_INVISIBLE, "  invisible: %s", why);
		free(why);
	}
	row_add(r, EL_STATUS, "  Enter jumps, n/N next/previous match, ? help, "
	    "Esc back");
}

static void
search_free(struct tui_view *v)
{
	struct search	*s = v->data;
	int		 i;

	for (i = 0; i < s->n; i++)
		free(s->r[i].location);
	free(s->r);
	free(s->regex);
	free(s);
}

static const struct tui_view_ops search_ops = {
	"search", &search_tree_ops, search_title, search_action, search_info,
	search_free, NULL
};

static void
search_add(struct search *s, struct kc_menu *m, char *location, bool group)
{
	if (s->n == s->a) {
		s->a = s->a ? s->a * 2 : 64;
		s->r = xrealloc(s->r, (size_t)s->a * sizeof *s->r);
	}
	s->r[s->n].m = m;
	s->r[s->n].location = location;
	s->r[s->n].group = group;
	s->n++;
}

/*
 * The regex as the user means it: menuconfig's search takes CONFIG_X for
 * X, so a leading "CONFIG_" (after a "^") goes (malloc'd). *plain gets
 * the text a symbol is named exactly by: the regex without its anchors
 * (malloc'd; NULL when it has other metacharacters).
 */
static char *
search_strip(const char *regex, char **plain)
{
	const char	*p = regex;
	bool		 anchor = *p == '^';
	char		*out;
	size_t		 n;

	if (anchor)
		p++;
	if (strncasecmp(p, "CONFIG_", 7) == 0)
		p += 7;
	out = xasprintf("%s%s", anchor ? "^" : "", p);
	n = strlen(p);
	if (n > 0 && p[n - 1] == '$')
		n--;
	*plain = n > 0 && strcspn(p, ".[]()*+?{}|\\^$") >= n ?
	    xstrndup(p, n) : NULL;
	return out;
}

/* Whether the subject matches. */
static bool
search_match(pcre2_code *re, pcre2_match_data *md, const char *subject)
{
	if (subject == NULL)
		return false;
	return pcre2_match(re, (PCRE2_SPTR)subject, PCRE2_ZERO_TERMINATED, 0,
	    0, md, NULL) >= 0;
}

int
search_open(struct tui *t, const char *regex, char **cause)
{
	static const char *const heads[SG_COUNT] = {
		"Symbol", "Names", "Prompts", "Help text"
	};
	pcre2_code		*re;
	pcre2_match_data	*md;
	PCRE2_UCHAR		 msg[256];
	PCRE2_SIZE		 off;
	struct search		*s;
	struct tui_view		*v;
	struct kc_menu		*m, **found[SG_COUNT];
	struct kc_symbol	*sym;
	const char		*name;
	char			*loc, *last, *pattern, *plain;
	int			 err, g, nfound[SG_COUNT], i;

	pattern = search_strip(regex, &plain);
	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    PCRE2_CASELESS | PCRE2_UTF, &err, &off, NULL);
	free(pattern);
	if (re == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		*cause = xasprintf("/%s/: at %zu: %s", regex, (size_t)off,
		    (char *)msg);
		free(plain);
		return -1;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);	/* falls back */
	md = pcre2_match_data_create_from_pattern(re, NULL);
	s = xcalloc(1, sizeof *s);
	s->regex = xstrdup(regex);
	for (g = 0; g < SG_COUNT; g++) {
		found[g] = xcalloc((size_t)t->nmenus + 1, sizeof *found[g]);
		nfound[g] = 0;
	}
	/* Each entry in the first group it belongs to. */
	for (m = kc_menu_walk(kconfig_root(t->k)); m != NULL;
	    m = kc_menu_walk(m)) {
		sym = kc_menu_sym(m);
		name = sym != NULL ? kc_sym_name(sym) : NULL;
		if (kc_menu_prompt(m) == NULL && name == NULL)
			continue;
		/* A symbol defined in several places: its entries with a
		 * prompt only, once the first one is listed. */
		if (kc_menu_prompt(m) == NULL && sym != NULL &&
		    kc_sym_menu(sym) != m)
			continue;
		if (name != NULL && plain != NULL &&
		    strcasecmp(name, plain) == 0)
			g = SG_EXACT;
		else if (search_match(re, md, name))
			g = SG_NAME;
		else if (search_match(re, md, kc_menu_prompt(m)))
			g = SG_PROMPT;
		else if (search_match(re, md, kc_menu_help(m)))
			g = SG_HELP;
		else
			continue;
		found[g][nfound[g]++] = m;
		s->nmatches++;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	free(plain);
	for (g = 0; g < SG_COUNT; g++) {
		if (nfound[g] > 0)
			search_add(s, NULL, xasprintf("%s (%d)", heads[g],
			    nfound[g]), true);
		last = NULL;
		for (i = 0; i < nfound[g]; i++) {
			loc = menu_location(t, found[g][i]);
			if (last == NULL || strcmp(last, loc) != 0) {
				search_add(s, NULL, loc, false);
				last = loc;
			} else
				free(loc);
			search_add(s, found[g][i], NULL, false);
		}
		free(found[g]);
	}
	if (s->nmatches == 0) {
		*cause = xasprintf("/%s/: no match", regex);
		free(s->regex);
		free(s->r);
		free(s);
		return -1;
	}
	/* The cursor on the first match, not its headings: Enter jumps. */
	v = tui_push(t, &search_ops, NULL, s);
	for (i = 0; i < s->n && s->r[i].m == NULL; i++)
		tree_move(v->tree, 1);
	return 0;
}
