/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decisions.c - the decisions file: what the user kept against a trim
 * suggestion, or trimmed against the evidence. Comment and blank lines are
 * remembered in place so that saving a loaded file changes only the
 * entries that changed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"
#include "decisions.h"
#include "report.h"

/* One line of the file: a comment/blank line (raw) or an entry. */
struct dline {
	char		*raw;
	char		*sym;
	enum decision	 d;
	char		*reason;
};

struct decisions {
	struct dline	*lines;
	size_t		 n, cap;
};

/* An empty set of decisions, for a file that does not exist yet;
 * free with decisions_free(). */
struct decisions *
decisions_new(void)
{
	return xcalloc(1, sizeof(struct decisions));
}

/* Append a line. */
static struct dline *
decisions_add(struct decisions *ds)
{
	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? ds->cap * 2 : 16;
		ds->lines = xrealloc(ds->lines, ds->cap * sizeof *ds->lines);
	}
	memset(&ds->lines[ds->n], 0, sizeof ds->lines[ds->n]);
	return &ds->lines[ds->n++];
}

/* The entry of a symbol, or NULL. */
static struct dline *
decisions_find(const struct decisions *ds, const char *sym)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		if (ds->lines[i].sym != NULL &&
		    strcmp(ds->lines[i].sym, sym) == 0)
			return &ds->lines[i];
	}
	return NULL;
}

/* Parse one entry line ("CONFIG_X keep|trim [# reason]"); NULL on
 * success, else what is wrong. */
static const char *
decisions_parse(char *s, char **sym, enum decision *d, char **reason)
{
	char	*p, *name, *word;
	size_t	 len;

	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "CONFIG_", 7) != 0)
		return "expected CONFIG_NAME keep|trim";
	name = s += 7;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	if (s == name)
		return "no symbol name after CONFIG_";
	if (!isspace((unsigned char)*s))
		return "bad character in symbol name";
	*s++ = '\0';
	while (isspace((unsigned char)*s))
		s++;
	word = s;
	while (*s != '\0' && !isspace((unsigned char)*s) && *s != '#')
		s++;
	len = (size_t)(s - word);
	if (len == 4 && strncmp(word, "keep", 4) == 0)
		*d = DECISION_KEEP;
	else if (len == 4 && strncmp(word, "trim", 4) == 0)
		*d = DECISION_TRIM;
	else
		return "expected keep or trim after the symbol";
	while (isspace((unsigned char)*s))
		s++;
	*reason = NULL;
	if (*s == '#') {
		s++;
		while (isspace((unsigned char)*s))
			s++;
		p = s + strlen(s);
		while (p > s && isspace((unsigned char)p[-1]))
			*--p = '\0';
		if (*s != '\0')
			*reason = s;
	} else if (*s != '\0')
		return "extra text (a reason goes after '#')";
	*sym = name;
	return NULL;
}

/* Read a decisions file. A missing file is an empty set; an unreadable
 * one is NULL with *cause. Bad lines only warn (in *cause, the set still
 * returned) and are kept verbatim so that a save loses nothing the user
 * wrote; a symbol decided twice keeps its last line. */
struct decisions *
decisions_load(const char *path, char **cause)
{
	struct decisions	*ds;
	struct dline		*l, *old;
	struct strbuf		 warn;
	FILE			*f;
	char			*line = NULL, *sym, *reason, *copy, *p;
	const char		*err;
	size_t			 cap = 0;
	ssize_t			 len;
	enum decision		 d;
	int			 lineno = 0;

	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return decisions_new();
		if (cause != NULL)
			*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	ds = decisions_new();
	strbuf_init(&warn);
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (*p == '\0' || *p == '#') {
			decisions_add(ds)->raw = xstrdup(line);
			continue;
		}
		copy = xstrdup(line);
		if ((err = decisions_parse(copy, &sym, &d, &reason)) != NULL) {
			strbuf_addf(&warn, "%s%s:%d: %s: %s", warn.len ? "\n" :
			    "", path, lineno, err, line);
			/* Kept as a comment-like line so that save loses
			 * nothing the user wrote. */
			decisions_add(ds)->raw = xstrdup(line);
			free(copy);
			continue;
		}
		if ((old = decisions_find(ds, sym)) != NULL) {
			strbuf_addf(&warn, "%s%s:%d: CONFIG_%s decided again "
			    "(this line wins)", warn.len ? "\n" : "", path,
			    lineno, sym);
			old->d = DECISION_NONE;
			free(old->sym);
			free(old->reason);
			old->sym = old->reason = NULL;
			old->raw = NULL;	/* dropped on save */
		}
		l = decisions_add(ds);
		l->sym = xstrdup(sym);
		l->d = d;
		l->reason = reason != NULL ? xstrdup(reason) : NULL;
		free(copy);
	}
	free(line);
	if (ferror(f)) {
		if (cause != NULL) {
			free(*cause);
			*cause = xasprintf("%s: %s", path, strerror(errno));
		}
		fclose(f);
		strbuf_free(&warn);
		decisions_free(ds);
		return NULL;
	}
	fclose(f);
	if (warn.len != 0 && cause != NULL)
		*cause = strbuf_detach(&warn);
	else
		strbuf_free(&warn);
	return ds;
}

/* A symbol's decision (name without CONFIG_); DECISION_NONE when it has
 * none or when ds or sym is NULL, so callers need not check. */
enum decision
decisions_get(const struct decisions *ds, const char *sym)
{
	const struct dline *l;

	if (ds == NULL || sym == NULL || (l = decisions_find(ds, sym)) == NULL)
		return DECISION_NONE;
	return l->d;
}

/* The reason given with a symbol's decision, or NULL; owned by ds. */
const char *
decisions_reason(const struct decisions *ds, const char *sym)
{
	const struct dline *l;

	if (ds == NULL || sym == NULL || (l = decisions_find(ds, sym)) == NULL)
		return NULL;
	return l->reason;
}

/* Record a decision (a leading CONFIG_ is accepted); DECISION_NONE
 * forgets it. A forgotten entry keeps its slot, so that deciding again
 * puts it back in place, and is skipped on save. An empty reason is none. */
void
decisions_set(struct decisions *ds, const char *sym, enum decision d,
    const char *reason)
{
	struct dline *l;

	if (strncmp(sym, "CONFIG_", 7) == 0)
		sym += 7;
	if ((l = decisions_find(ds, sym)) == NULL) {
		if (d == DECISION_NONE)
			return;
		l = decisions_add(ds);
		l->sym = xstrdup(sym);
	}
	l->d = d;
	free(l->reason);
	l->reason = reason != NULL && *reason != '\0' ? xstrdup(reason) : NULL;
}

/* Write the set to path through report_write_file() (atomically),
 * comment lines in place; an empty set gets a header saying the format.
 * 0, or -1 with *cause. */
int
decisions_save(const struct decisions *ds, const char *path, char **cause)
{
	struct strbuf		 sb;
	const struct dline	*l;
	size_t			 i;
	int			 rc;

	strbuf_init(&sb);
	if (ds->n == 0)
		strbuf_adds(&sb, "# kctui decisions: CONFIG_X keep|trim  "
		    "# reason (see docs/trim.md)\n");
	for (i = 0; i < ds->n; i++) {
		l = &ds->lines[i];
		if (l->sym == NULL) {
			if (l->raw != NULL)
				strbuf_addf(&sb, "%s\n", l->raw);
			continue;
		}
		if (l->d == DECISION_NONE)
			continue;
		strbuf_addf(&sb, "CONFIG_%s %s", l->sym, decision_name(l->d));
		if (l->reason != NULL)
			strbuf_addf(&sb, "  # %s", l->reason);
		strbuf_addc(&sb, '\n');
	}
	rc = report_write_file(path, sb.s != NULL ? sb.s : "", sb.len,
	    cause);
	strbuf_free(&sb);
	return rc;
}

/* Free a set and its lines; NULL is ignored. */
void
decisions_free(struct decisions *ds)
{
	size_t i;

	if (ds == NULL)
		return;
	for (i = 0; i < ds->n; i++) {
		free(ds->lines[i].raw);
		free(ds->lines[i].sym);
		free(ds->lines[i].reason);
	}
	free(ds->lines);
	free(ds);
}

/* How many symbols have a decision (forgotten entries and comment
 * lines not counted); 0 for NULL. */
size_t
decisions_count(const struct decisions *ds)
{
	size_t i, n = 0;

	for (i = 0; ds != NULL && i < ds->n; i++)
		n += ds->lines[i].sym != NULL && ds->lines[i].d != DECISION_NONE;
	return n;
}

/* The idx-th decision in file order, counted as decisions_count()
 * does: its symbol name, with *d and *reason set (owned by ds); NULL
 * past the end. */
const char *
decisions_at(const struct decisions *ds, size_t idx, enum decision *d,
    const char **reason)
{
	size_t i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		if (ds->lines[i].sym == NULL || ds->lines[i].d == DECISION_NONE)
			continue;
		if (idx-- == 0) {
			*d = ds->lines[i].d;
			*reason = ds->lines[i].reason;
			return ds->lines[i].sym;
		}
	}
	return NULL;
}

/* The word a decision is written as in the file: "keep", "trim" or
 * "none". */
const char *
decision_name(enum decision d)
{
	return d == DECISION_KEEP ? "keep" : d == DECISION_TRIM ? "trim" :
	    "none";
}
