/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report-diff.c - the options whose lines differ between two
 * configuration files: the export's report is this difference between
 * the input and the file written, explained (report.c), so that it names
 * every change the file holds (a trim, a value set in the browser, the
 * tree's update of the input) and nothing the file does not hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "report.h"

/* A configuration file's option lines: name (no CONFIG_) -> value as
 * written ("n" for "# CONFIG_X is not set"), in file order. */
struct report_lines {
	char		*buf;		/* the text, cut into names and values */
	struct strmap	 map;
	const char     **names;
	size_t		 n;
};

/* The value of a "is not set" line: one string the map can point at. */
static char report_lines_no[] = "n";

/* Cut text into its option lines, as conf reads them: the last line of
 * an option wins; comments and other lines are not options. */
static void
report_lines_parse(struct report_lines *l, const char *text)
{
	struct strmap_entry	*e;
	char			*p, *nl, *eq, *end, *name, *value;
	size_t			 len;
	bool			 added;

	memset(l, 0, sizeof *l);
	strmap_init(&l->map);
	l->buf = xstrdup(text != NULL ? text : "");
	l->names = xcalloc(1, sizeof *l->names);
	for (p = l->buf; *p != '\0'; p = nl) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		len = strlen(p);
		if (len > 0 && p[len - 1] == '\r')
			p[--len] = '\0';
		if (strncmp(p, "CONFIG_", 7) == 0 &&
		    (eq = strchr(p, '=')) != NULL) {
			*eq = '\0';
			name = p + 7;
			value = eq + 1;
		} else if (strncmp(p, "# CONFIG_", 9) == 0 && len > 20 &&
		    strcmp(end = p + len - 11, " is not set") == 0) {
			*end = '\0';
			name = p + 9;
			value = report_lines_no;
		} else
			continue;
		if (*name == '\0')
			continue;
		e = strmap_insert(&l->map, name, strlen(name), &added);
		e->value = value;
		if (added) {
			l->names = xrealloc(l->names, (l->n + 1) *
			    sizeof *l->names);
			l->names[l->n++] = name;
		}
	}
}

/* The value of name's line, or NULL when the file has none. */
static const char *
report_lines_get(const struct report_lines *l, const char *name)
{
	return strmap_get(&l->map, name, strlen(name));
}

/* Free what report_lines_parse made (not l itself). */
static void
report_lines_free(struct report_lines *l)
{
	strmap_free(&l->map);
	free(l->names);
	free(l->buf);
}

/* A value for comparing: no line is n for a bool or tristate (conf
 * reads both alike; the kernel writes no line for an option whose
 * dependencies are off), and stays "no line" for the other types. */
static const char *
report_diff_value(const char *v, bool tristate)
{
	return v == NULL && tristate ? report_lines_no : v;
}

/* Whether two values (NULL: no line) differ. */
static bool
report_diff_differs(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a != b;
	return strcmp(a, b) != 0;
}

/* Whether name is a bool or tristate option: by the tree (k) when it
 * knows it, else by the values the files give it. */
static bool
report_diff_tristate(struct kconfig *k, const char *name, const char *a,
    const char *b)
{
	struct kc_symbol	*s = k != NULL ? kconfig_find(k, name) : NULL;
	const char		*v = a != NULL ? a : b;

	if (s != NULL)
		return kc_sym_type(s) == KC_BOOL ||
		    kc_sym_type(s) == KC_TRISTATE;
	return v != NULL && (strcmp(v, "y") == 0 || strcmp(v, "m") == 0 ||
	    strcmp(v, "n") == 0);
}

/* Add one difference to the list. */
static void
report_diff_add(struct report_diff **d, size_t *n, const char *name,
    const char *was, const char *base, const char *now)
{
	struct report_diff *r;

	*d = xrealloc(*d, (*n + 1) * sizeof **d);
	r = &(*d)[(*n)++];
	r->name = xstrdup(name);
	r->was = was != NULL ? xstrdup(was) : NULL;
	r->base = base != NULL ? xstrdup(base) : NULL;
	r->now = now != NULL ? xstrdup(now) : NULL;
}

/*
 * The options whose value differs between the configuration files in
 * (the input) and out (the file written), in out's order then in's for
 * those out no longer has; base (the input as the engine read it, before
 * any change; NULL: in) gives each its third value, so that the report
 * can tell the tree's update of the input from a change. k, the tree,
 * says which options are bool or tristate (see report_diff_value). The
 * list is malloc'd (report_diff_free), its length in *n.
 */
struct report_diff *
report_diff_compute(const char *in, const char *base, const char *out,
    struct kconfig *k, size_t *n)
{
	struct report_lines	 li, lb, lo;
	struct report_diff	*d = NULL;
	const char		*name, *was, *now, *bv;
	size_t			 i;
	bool			 tri;
	int			 pass;

	*n = 0;
	report_lines_parse(&li, in);
	report_lines_parse(&lb, base != NULL ? base : in);
	report_lines_parse(&lo, out);
	for (pass = 0; pass < 2; pass++) {
		struct report_lines *l = pass == 0 ? &lo : &li;

		for (i = 0; i < l->n; i++) {
			name = l->names[i];
			/* The second pass: only what out lost. */
			if (pass == 1 && report_lines_get(&lo, name) != NULL)
				continue;
			was = report_lines_get(&li, name);
			now = report_lines_get(&lo, name);
			bv = report_lines_get(&lb, name);
			tri = report_diff_tristate(k, name, was, now);
			was = report_diff_value(was, tri);
			now = report_diff_value(now, tri);
			if (!report_diff_differs(was, now))
				continue;
			report_diff_add(&d, n, name, was, report_diff_value(bv,
			    tri), now);
		}
	}
	report_lines_free(&li);
	report_lines_free(&lb);
	report_lines_free(&lo);
	return d;
}

/* Free a list of report_diff_compute(). */
void
report_diff_free(struct report_diff *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].name);
		free(d[i].was);
		free(d[i].base);
		free(d[i].now);
	}
	free(d);
}

/* The y/m options of a configuration file's text (its =y and =m lines:
 * no other type is written so). */
size_t
report_diff_count_ym(const char *text)
{
	struct report_lines	 l;
	const char		*v;
	size_t			 i, n = 0;

	report_lines_parse(&l, text);
	for (i = 0; i < l.n; i++) {
		v = report_lines_get(&l, l.names[i]);
		n += strcmp(v, "y") == 0 || strcmp(v, "m") == 0;
	}
	report_lines_free(&l);
	return n;
}
