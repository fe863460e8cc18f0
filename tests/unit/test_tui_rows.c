/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_tui_rows.c - the attributed rows and the generic tree widget, with
 * no curses: flattening (depth, last), the tree drawing, cursor kept
 * across rebuilds, hotkeys, scrolling, and row formatting read back as
 * text and per-cell elements; the key table against the key list made
 * from it and the man page's KEYS section (docs/kctui.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fileio.h"
#include "../../tui/keys.c"
#include "../../tui/rows.c"
#include "../../tui/tree.c"

#define UNIT_PREFIX "unit/tui_rows/"
#include "unit.h"

/* A result with what the rows or the tree gave. */
static void
check_got(const char *name, int ok, const char *got)
{
	checkf(name, ok, "got \"%s\"", got);
}

static const char *names[] = { "Alpha", "Beta", "Gamma", "Delta",
    "Epsilon" };
static int nitems = 5;

/* Alpha (Beta (Gamma), Delta), Epsilon */
static void
build(void *arg, struct tree *t)
{
	struct tree_item *a, *b;

	(void)arg;
	a = tree_add(t, NULL, (void *)names[0], names[0], true);
	b = tree_add(t, a, (void *)names[1], names[1], true);
	tree_add(t, b, (void *)names[2], names[2], true);
	if (nitems > 3)
		tree_add(t, a, (void *)names[3], names[3], true);
	tree_add(t, NULL, (void *)names[4], names[4], true);
}

static void
draw(void *arg, struct tree *t, const struct tree_line *l, bool sel,
    struct row *r, int width)
{
	(void)arg;
	(void)t;
	(void)width;
	tree_prefix(l, r, 1, false);
	row_add(r, sel ? 2 : 0, l->data);
}

static const char *
text(void *arg, void *data)
{
	(void)arg;
	return data;
}

static const struct tree_ops ops = { build, draw, text, NULL };

/* Whether name is one of the keys a man page tag line names ("Up/Down,
 * j/k", "s, l, q"): words split at blanks, commas and slashes (a lone
 * "/" is the key itself). */
static int
tag_has(const char *tag, const char *name)
{
	char	*copy = xstrdup(tag), *w, *p, *save = NULL, *save2 = NULL;
	int	 found = 0;

	for (w = strtok_r(copy, " ,", &save); w != NULL && !found;
	    w = strtok_r(NULL, " ,", &save)) {
		if (strcmp(w, name) == 0) {
			found = 1;
			break;
		}
		if (strcmp(w, "/") == 0)
			continue;
		for (p = strtok_r(w, "/", &save2); p != NULL;
		    p = strtok_r(NULL, "/", &save2))
			if (strcmp(p, name) == 0)
				found = 1;
	}
	free(copy);
	return found;
}

/* Whether name is the name of a key of the table. */
static int
table_has(const struct key_binding *kb, int n, const char *name)
{
	char	buf[8];
	int	i;

	for (i = 0; i < n; i++)
		if (strcmp(keys_name(kb[i].key, buf), name) == 0)
			return 1;
	return 0;
}

/* Every key the man page's KEYS tags name (tags: their tag lines, each
 * followed by a comma) is a key of the table: the page documents no key
 * the browser lacks (words split as tag_has splits them). */
static void
check_man_keys(const char *tags, const struct key_binding *kb, int n)
{
	char		*copy = xstrdup(tags), *w, *p, *save = NULL, *save2;
	struct strbuf	 extra;

	strbuf_init(&extra);
	for (w = strtok_r(copy, " ,", &save); w != NULL;
	    w = strtok_r(NULL, " ,", &save)) {
		if (table_has(kb, n, w))
			continue;
		if (strcmp(w, "/") == 0) {
			/* A lone "/" is the key itself, not a separator. */
			strbuf_addf(&extra, " %s", w);
			continue;
		}
		save2 = NULL;
		for (p = strtok_r(w, "/", &save2); p != NULL;
		    p = strtok_r(NULL, "/", &save2))
			if (!table_has(kb, n, p))
				strbuf_addf(&extra, " %s", p);
	}
	checkf("keys-man-table", extra.len == 0, "named in KEYS of "
	    "docs/kctui.1 but not in the key table:%s", extra.s != NULL ?
	    extra.s : "");
	strbuf_free(&extra);
	free(copy);
}

/* Every key of the table is in the key list and on a tag line of the
 * man page's KEYS section; every tag names keys of the table. */
static void
check_keys(void)
{
	const struct key_binding	*kb;
	const char			*repo = getenv("KCTUI_REPO");
	char				*path, *man, *text, *sec, *end, *line;
	char				 buf[8], *missing;
	size_t				 len;
	int				 n, i, nok = 0;
	struct strbuf			 tags, miss;

	kb = keys_table(&n);
	text = keys_text();
	strbuf_init(&miss);
	for (i = 0; i < n; i++) {
		if (strstr(text, keys_name(kb[i].key, buf)) == NULL)
			strbuf_addf(&miss, " %s", buf);
	}
	check("keys-list", miss.len == 0, miss.s);
	strbuf_free(&miss);
	free(text);

	path = xasprintf("%s/docs/kctui.1", repo != NULL ? repo : ".");
	man = file_read_all(path, &len);
	check("keys-man-read", man != NULL, path);
	free(path);
	if (man == NULL)
		return;
	strbuf_init(&tags);
	sec = strstr(man, "\n.SH KEYS\n");
	end = sec != NULL ? strstr(sec + 1, "\n.SH ") : NULL;
	for (line = sec; line != NULL && line < end;
	    line = strchr(line + 1, '\n')) {
		if (strncmp(line, "\n.TP\n", 5) == 0) {
			char *tag = line + 5, *nl = strchr(tag, '\n');

			strbuf_add(&tags, tag, (size_t)(nl - tag));
			strbuf_addc(&tags, ',');
		}
	}
	strbuf_init(&miss);
	for (i = 0; i < n; i++) {
		if (tags.s != NULL && tag_has(tags.s, keys_name(kb[i].key,
		    buf)))
			nok++;
		else
			strbuf_addf(&miss, " %s", buf);
	}
	missing = miss.s != NULL ? miss.s : "";
	checkf("keys-man", sec != NULL && nok == n, "not on a tag line of "
	    "KEYS in docs/kctui.1:%s", missing);
	strbuf_free(&miss);
	check_man_keys(tags.s != NULL ? tags.s : "", kb, n);
	strbuf_free(&tags);
	free(man);
}

int
main(void)
{
	struct tree	*t = tree_create(&ops, NULL);
	struct row	 r;
	char		*s, *a, all[512] = "";
	int		 i;

	row_init(&r);
	row_add(&r, 1, "a\u2500b\t");
	row_addf(&r, 2, "%d", 42);
	s = row_text(&r);
	a = row_attrs(&r, "NTS");
	check_got("utf8", strcmp(s, "a\u2500b 42") == 0 && r.n == 6, s);
	check_got("attrs", strcmp(a, "TTTTSS") == 0, a);
	free(s);
	free(a);
	row_clear(&r);
	row_add(&r, 0, "\xff\xc3");
	s = row_text(&r);
	check_got("invalid-utf8", strcmp(s, "??") == 0, s);
	free(s);
	row_fit(&r, 0, 5);
	check_got("fit", r.n == 5, "");

	tree_set_height(t, 3);
	tree_build(t);
	for (i = 0; i < tree_count(t); i++) {
		tree_format(t, 0, &r, 0);
		row_clear(&r);
		draw(NULL, t, tree_line(t, i), false, &r, 40);
		s = row_text(&r);
		strcat(all, s);
		strcat(all, "|");
		free(s);
	}
	check_got("flatten", strcmp(all, "Alpha|\u251c\u2500 Beta|\u2502  "
	    "\u2514\u2500 Gamma|\u2514\u2500 Delta|Epsilon|") == 0, all);
	check_got("depth-last", tree_line(t, 2)->depth == 2 &&
	    tree_line(t, 2)->last && !tree_line(t, 1)->last, "");
	tree_end(t);
	check_got("scroll", tree_current(t) == 4 && tree_offset(t) == 2, "");
	tree_format(t, 2, &r, 10);
	s = row_text(&r);
	a = row_attrs(&r, "NTS");
	check_got("format-selected", strcmp(s, "Epsilon   ") == 0 &&
	    strncmp(a, "SSSSSSS", 7) == 0, s);
	free(s);
	free(a);
	/* The cursor stays on Delta when Gamma... goes and comes. */
	tree_select_key(t, names[3]);
	nitems = 3;
	tree_build(t);
	check_got("rebuild-gone", tree_current(t) == 3, "");
	nitems = 5;
	tree_select_key(t, names[2]);
	tree_build(t);
	check_got("rebuild-kept", tree_current_data(t) == names[2], "");
	tree_home(t);
	check_got("hotkey", tree_hotkey(t, 'd') && tree_current_data(t) ==
	    names[3], "");
	check_got("hotkey-wrap", tree_hotkey(t, 'a') && tree_current(t) == 0,
	    "");
	check_got("hotkey-none", !tree_hotkey(t, 'z'), "");
	check_got("move", !tree_move(t, -1) && tree_move(t, 100) &&
	    tree_current(t) == 4, "");
	tree_set_height(t, 3);
	tree_scroll_to(t, 1);
	check_got("scroll-to", tree_offset(t) == 1 && tree_current(t) == 1,
	    "");
	tree_scroll_to(t, 100);
	check_got("scroll-to-end", tree_offset(t) == 2 &&
	    tree_current(t) == 2, "");
	tree_scroll_to(t, -5);
	check_got("scroll-to-top", tree_offset(t) == 0 &&
	    tree_current(t) == 0, "");
	tree_free(t);
	row_free(&r);
	check_keys();
	return unit_failures != 0;
}
