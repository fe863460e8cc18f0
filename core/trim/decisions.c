/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decisions.c - the decisions file: what the user kept against a trim
 * suggestion, or trimmed against the evidence. Comment and blank lines are
 * remembered in place so that saving a loaded file changes only the
 * entries that changed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "decisions.h"

/* One line of the file: a comment/blank line (raw) or an entry. */
struct dline {
	char		*raw;
	char		*sym;
	enum decision	 d;
	char		*reason;
	bool		 dirty;		/* set since load: saved over the file */
};

struct decisions {
	struct dline	*lines;
	size_t		 n, cap;
	/* Told when a save waits a second for another writer's lock. */
	void		(*waiting)(void *, const char *);
	void		*waiting_arg;
	/* The file's decisions as last read or written here (entries only),
	 * and its path: what decisions_reread() compares with to find those
	 * another writer made since. NULL: none seen yet. */
	struct decisions *seen;
	char		*seen_path;
};

static struct decisions *decisions_copy(const struct decisions *);

/* Who is told when a save waits for another writer (see decisions.h). */
void
decisions_on_wait(struct decisions *ds, void (*waiting)(void *,
    const char *), void *arg)
{
	ds->waiting = waiting;
	ds->waiting_arg = arg;
}

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
	char			*text, *line, *next, *sym, *reason, *copy, *p;
	const char		*err;
	size_t			 len, llen;
	enum decision		 d;
	int			 lineno = 0;

	/* A regular file only: a FIFO or a device would block or never
	 * end. */
	if ((text = file_read_regular(path, &len)) == NULL) {
		if (errno == ENOENT) {
			/* Seen: nothing there yet. */
			ds = decisions_new();
			ds->seen = decisions_new();
			ds->seen_path = xstrdup(path);
			return ds;
		}
		if (cause != NULL)
			*cause = xasprintf("%s: %s", path, errno == EINVAL ?
			    "not a regular file" : strerror(errno));
		return NULL;
	}
	ds = decisions_new();
	strbuf_init(&warn);
	for (line = text; line < text + len; line = next) {
		lineno++;
		if ((next = memchr(line, '\n', (size_t)(text + len - line))) ==
		    NULL)
			next = text + len;
		llen = (size_t)(next - line);
		if (next < text + len)
			*next++ = '\0';
		while (llen > 0 && line[llen - 1] == '\r')
			line[--llen] = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (strlen(line) != llen) {
			strbuf_addf(&warn, "%s%s:%d: a NUL byte in the line",
			    warn.len ? "\n" : "", path, lineno);
			continue;
		}
		if (*p == '\0' || *p == '#') {
			decisions_add(ds)->raw = xstrdup(line);
			continue;
		}
		copy = xstrdup(line);
		if ((err = decisions_parse(copy, &sym, &d, &reason)) != NULL) {
			strbuf_addf(&warn, "%s%s:%d: %s: %.80s%s", warn.len ?
			    "\n" : "", path, lineno, err, line,
			    llen > 80 ? "..." : "");
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
	free(text);
	if (warn.len != 0 && cause != NULL)
		*cause = strbuf_detach(&warn);
	else
		strbuf_free(&warn);
	ds->seen = decisions_copy(ds);
	ds->seen_path = xstrdup(path);
	return ds;
}

/* The entries of a set (no comment lines, none set since), for
 * decisions_reread()'s memory of the file. */
static struct decisions *
decisions_copy(const struct decisions *ds)
{
	struct decisions	*c = decisions_new();
	struct dline		*l;
	size_t			 i;

	for (i = 0; i < ds->n; i++) {
		if (ds->lines[i].sym == NULL ||
		    ds->lines[i].d == DECISION_NONE)
			continue;
		l = decisions_add(c);
		l->sym = xstrdup(ds->lines[i].sym);
		l->d = ds->lines[i].d;
		l->reason = ds->lines[i].reason != NULL ?
		    xstrdup(ds->lines[i].reason) : NULL;
	}
	return c;
}

/* Whether two sets say the same of sym (decision and reason). */
static bool
decisions_same(const struct decisions *a, const struct decisions *b,
    const char *sym)
{
	const char *x = decisions_reason(a, sym), *y = decisions_reason(b, sym);

	return decisions_get(a, sym) == decisions_get(b, sym) &&
	    (x == y || (x != NULL && y != NULL && strcmp(x, y) == 0));
}

/* Take sym's decision in cur over ds's, as read (not to be saved). */
static void
decisions_adopt(struct decisions *ds, const struct decisions *cur,
    const char *sym, char ***syms, size_t *n)
{
	struct dline *l;

	decisions_set(ds, sym, decisions_get(cur, sym),
	    decisions_reason(cur, sym));
	if ((l = decisions_find(ds, sym)) != NULL)
		l->dirty = false;
	*syms = xrealloc(*syms, (*n + 1) * sizeof **syms);
	(*syms)[(*n)++] = xstrdup(sym);
}

/*
 * Take in what another writer (a `kctui decide` beside the browser)
 * saved in path since ds last read or wrote it: each decision that
 * differs there from what ds saw of the file is taken over ds's, even
 * one set here and not saved yet (the later word wins). The symbols
 * taken in are in *syms (malloc'd, each name too; *n of them). A path
 * ds never saw is only read (nothing is taken in: another config's
 * file). 0, or -1 with *cause when path can't be read.
 */
int
decisions_reread(struct decisions *ds, const char *path, char ***syms,
    size_t *n, char **cause)
{
	struct decisions	*cur, *seen;
	char			*warn = NULL;
	size_t			 i;

	*syms = NULL;
	*n = 0;
	if ((cur = decisions_load(path, &warn)) == NULL) {
		*cause = warn;
		return -1;
	}
	free(warn);
	seen = ds->seen_path != NULL && strcmp(ds->seen_path, path) == 0 ?
	    ds->seen : NULL;
	for (i = 0; seen != NULL && i < cur->n; i++)
		if (cur->lines[i].sym != NULL &&
		    !decisions_same(cur, seen, cur->lines[i].sym))
			decisions_adopt(ds, cur, cur->lines[i].sym, syms, n);
	for (i = 0; seen != NULL && i < seen->n; i++)
		if (seen->lines[i].sym != NULL &&
		    decisions_get(cur, seen->lines[i].sym) == DECISION_NONE)
			decisions_adopt(ds, cur, seen->lines[i].sym, syms, n);
	decisions_free(ds->seen);
	ds->seen = decisions_copy(cur);
	free(ds->seen_path);
	ds->seen_path = xstrdup(path);
	decisions_free(cur);
	return 0;
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
	struct dline	*l;
	char		*p;

	if (strncmp(sym, "CONFIG_", 7) == 0)
		sym += 7;
	if ((l = decisions_find(ds, sym)) == NULL) {
		if (d == DECISION_NONE)
			return;
		l = decisions_add(ds);
		l->sym = xstrdup(sym);
	}
	l->d = d;
	l->dirty = true;
	free(l->reason);
	l->reason = reason != NULL && *reason != '\0' ? xstrdup(reason) : NULL;
	/* A reason is the rest of one line: a control character (a newline
	 * above all) would plant a second, unchecked entry. Callers refuse
	 * them; this is the last guard. */
	for (p = l->reason; p != NULL && *p != '\0'; p++)
		if (iscntrl((unsigned char)*p))
			*p = ' ';
}

/* Whether a reason can be recorded as it is (no control characters). */
bool
decisions_reason_ok(const char *reason)
{
	for (; reason != NULL && *reason != '\0'; reason++)
		if (iscntrl((unsigned char)*reason))
			return false;
	return true;
}

/* The file's text for a set: comment lines in place; an empty set gets a
 * header saying the format. */
static char *
decisions_format(const struct decisions *ds, size_t *len)
{
	struct strbuf		 sb;
	const struct dline	*l;
	size_t			 i;

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
	*len = sb.len;
	return sb.s != NULL ? strbuf_detach(&sb) : xstrdup("");
}

/*
 * Save the decisions made in ds since it was loaded. Another writer (a
 * second `kctui decide`, the browser and the command line at once) may
 * have changed the file meanwhile: under a lock on the file's directory,
 * the file is read again, only ds's own changes are applied to it, and
 * the result replaces it atomically. So no decision is lost, whoever
 * writes. Nothing changed, or nothing to record in a file that does not
 * exist, writes nothing. 0, or -1 with *cause.
 */
int
decisions_save(struct decisions *ds, const char *path, char **cause)
{
	struct decisions	*cur;
	struct dline		*l;
	struct stat		 st;
	char			*text, *warn = NULL;
	size_t			 i, len, ndirty = 0;
	int			 lock, rc = -1;

	for (i = 0; i < ds->n; i++)
		ndirty += ds->lines[i].sym != NULL && ds->lines[i].dirty;
	if (ndirty == 0)
		return 0;
	lock = path_lock_wait(path, ds->waiting, ds->waiting_arg);
	if ((cur = decisions_load(path, &warn)) == NULL) {
		*cause = warn;
		goto out;
	}
	free(warn);
	for (i = 0; i < ds->n; i++) {
		l = &ds->lines[i];
		if (l->sym != NULL && l->dirty)
			decisions_set(cur, l->sym, l->d, l->reason);
	}
	if (decisions_count(cur) == 0 && stat(path, &st) != 0 &&
	    errno == ENOENT) {
		rc = 0;		/* decided, then forgotten: no file */
		goto clean;
	}
	text = decisions_format(cur, &len);
	/* 0666 less the umask, like any file the user creates. */
	rc = file_write_atomic(path, text, len, 0666, 0, cause);
	free(text);
clean:
	if (rc == 0) {
		for (i = 0; i < ds->n; i++)
			ds->lines[i].dirty = false;
		/* What the file holds now, as this set last saw it. */
		decisions_free(ds->seen);
		ds->seen = decisions_copy(cur);
		free(ds->seen_path);
		ds->seen_path = xstrdup(path);
	}
	decisions_free(cur);
out:
	path_unlock(lock);
	return rc;
}

/*
 * Remove path if it holds nothing at all (no decision, no comment): for
 * a file the browser created and the user then emptied by undoing every
 * decision. Under the same lock as decisions_save, and re-read first, so
 * a decision another writer saved meanwhile keeps the file. 0, or -1
 * with *cause.
 */
int
decisions_drop_if_empty(const char *path, char **cause)
{
	struct decisions	*cur;
	char			*warn = NULL;
	int			 lock, rc = 0;

	lock = path_lock(path);
	if ((cur = decisions_load(path, &warn)) == NULL) {
		*cause = warn;
		rc = -1;
	} else {
		free(warn);
		if (cur->n == 0 && unlink(path) != 0 && errno != ENOENT) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			rc = -1;
		}
		decisions_free(cur);
	}
	path_unlock(lock);
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
	decisions_free(ds->seen);
	free(ds->seen_path);
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

/* See decisions.h: CONFIG.kctui-decisions beside CONFIG. */
char *
decisions_path_for(const char *config_path)
{
	return xasprintf("%s%s", config_path, DECISIONS_SUFFIX);
}

/* See decisions.h. */
int
decisions_migrate(const char *path, char **msg)
{
	const char	*slash = strrchr(path, '/'), *base;
	char		*old;
	size_t		 lb, ls = strlen(DECISIONS_SUFFIX);
	int		 lock, rc = 0;

	*msg = NULL;
	base = slash != NULL ? slash + 1 : path;
	lb = strlen(base);
	/* Only a config's own file takes over the old one. */
	if (lb <= ls || strcmp(base + lb - ls, DECISIONS_SUFFIX) != 0 ||
	    strcmp(base, DECISIONS_DEFAULT) == 0)
		return 0;
	old = slash != NULL ? xasprintf("%.*s/%s", (int)(slash - path), path,
	    DECISIONS_DEFAULT) : xstrdup(DECISIONS_DEFAULT);
	/* Nothing to move: no lock taken (a writer holding it would make
	 * every reader wait). */
	if (access(old, F_OK) != 0) {
		free(old);
		return 0;
	}
	/* Under the writers' lock: a decide meanwhile is not lost. */
	lock = path_lock(path);
	if (access(path, F_OK) != 0 && errno == ENOENT &&
	    access(old, F_OK) == 0) {
		if (rename(old, path) != 0) {
			*msg = xasprintf("%s: %s (moving the decisions to %s, "
			    "named after its configuration)", old,
			    strerror(errno), path);
			rc = -1;
		} else
			*msg = xasprintf("kctui: decisions moved from %s to %s: "
			    "each configuration has its own file now, and "
			    "the old one is read no more", old, path);
	}
	path_unlock(lock);
	free(old);
	return rc;
}

/* See decisions.h. */
void
decisions_touch_all(struct decisions *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (ds->lines[i].sym != NULL)
			ds->lines[i].dirty = true;
}

/* How many decisions were set (or forgotten) since the load or the
 * last save: what decisions_save() would write; 0 for NULL. */
size_t
decisions_unsaved(const struct decisions *ds)
{
	size_t i, n = 0;

	for (i = 0; ds != NULL && i < ds->n; i++)
		n += ds->lines[i].sym != NULL && ds->lines[i].dirty;
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
