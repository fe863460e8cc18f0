/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.c - read evidence bundles (evidence.h): what a running kernel
 * printed about itself, merged over several bundles.
 *
 * Every file is read as a stream of lines: plain, xz (liblzma) or gzip
 * (zlib) data is decoded incrementally (zstream.c) into a fixed buffer and
 * cut into lines here, so a trace of gigabytes costs the memory of its
 * distinct functions only. Each file has a line parser (evidence-parse.c);
 * lines it cannot make sense of are counted and the first one is quoted in
 * a single warning. This file holds the bundle: its items, the line
 * machinery, loading a directory and the query API.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/beneath.h"
#include "../lib/text.h"
#include "evidence-int.h"

/* ------------------------------------------------------------ items */

/* The bundle of index b, creating empty ones up to it (for the readers
 * called directly); NULL if b is out of range. */
struct ev_bundle *
ev_bundle_at(struct evidence *ev, int b)
{
	if (b < 0 || b >= EV_MAXBUNDLE)
		return NULL;
	while (ev->nbundles <= b) {
		if (ev->nbundles == ev->capbundles) {
			ev->capbundles = ev->capbundles ? ev->capbundles * 2 : 8;
			ev->bundles = xrealloc(ev->bundles, (size_t)ev->capbundles *
			    sizeof *ev->bundles);
		}
		ev->bundles[ev->nbundles] = arena_alloc(&ev->arena,
		    sizeof **ev->bundles);
		ev->bundles[ev->nbundles]->path = "";
		ev->nbundles++;
	}
	return ev->bundles[b];
}

/*
 * Add one sighting of (kind, name) in the context's bundle: a new item in
 * first-seen order, or the existing one with its bit set and hits added.
 * detail and module (may be NULL) fill in fields still unset.
 */
struct ev_item *
ev_add(struct ev_ctx *c, enum ev_kind k, const char *name, size_t n,
    const char *detail, size_t dn, const char *mod, size_t mn, uint64_t hits)
{
	struct evidence		*ev = c->ev;
	struct ev_kindtab	*t = &ev->kinds[k];
	struct ev_item		*it;
	char			*vis[3] = { NULL, NULL, NULL };

	/* A bundle's strings are shown (evidence --unmapped, the twin's
	 * comments, the browser): escape bytes in them become visible text
	 * here, once, for every reader (lib/text.h). */
	if (!text_is_visible(name, n, 0)) {
		name = vis[0] = text_visible(name, n, 0);
		n = strlen(name);
	}
	if (detail != NULL && !text_is_visible(detail, dn, 0)) {
		detail = vis[1] = text_visible(detail, dn, 0);
		dn = strlen(detail);
	}
	if (mod != NULL && !text_is_visible(mod, mn, 0)) {
		mod = vis[2] = text_visible(mod, mn, 0);
		mn = strlen(mod);
	}
	it = strmap_get(&t->map, name, n);
	if (it == NULL) {
		/* the name right after the item: one cache miss for both */
		it = arena_alloc(&ev->arena, sizeof *it + n + 1);
		memcpy(it + 1, name, n);
		it->kind = k;
		it->name = (const char *)(it + 1);
		strmap_set(&t->map, it->name, n, it);
		XGROW(t->v, t->cap, t->n + 1, 64);
		t->v[t->n++] = it;
	}
	it->bundles |= c->bit;
	it->hits += hits;
	if (it->detail == NULL && detail != NULL)
		it->detail = ev_intern(ev, detail, dn);
	if (it->module == NULL && mod != NULL)
		it->module = ev_intern(ev, mod, mn);
	free(vis[0]);
	free(vis[1]);
	free(vis[2]);
	return it;
}

/* Add a traced function, suffix stripped. */
/* Intern s as visible text (see evidence-int.h). */
const char *
ev_intern_visible(struct evidence *ev, const char *s, size_t n)
{
	const char	*r;
	char		*vis;

	if (text_is_visible(s, n, 0))
		return ev_intern(ev, s, n);
	vis = text_visible(s, n, 0);
	r = ev_intern(ev, vis, strlen(vis));
	free(vis);
	return r;
}

/* ------------------------------------------------------------ lines */

/* Count a malformed line, quoting the first. */
void
ev_bad(struct ev_ctx *c, const char *s, size_t n)
{
	size_t	i;

	if (c->malformed++ == 0) {
		c->first_bad = c->lineno;
		if (n > EV_QUOTE)
			n = EV_QUOTE;
		for (i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)s[i];
			c->quote[i] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
		}
		c->quote[n] = '\0';
	}
}

/* Hand one line (without its newline) to the parser. */
static void
ev_line(struct ev_ctx *c, const char *s, size_t n)
{
	int	r;

	c->lineno++;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if ((c->flags & EVF_NONUL) && memchr(s, '\0', n) != NULL)
		r = -1;
	else if (c->unterminated && (c->flags & EVF_TRACE) && n > 0)
		r = -1;		/* the file was cut in the middle of a line */
	else
		r = c->line(c, s, n);
	if (r < 0)
		ev_bad(c, s, n);
	else if (r > 0)
		c->good++;
}

/* Parse the complete lines of buf; at eof the rest is a last line.
 * Returns the bytes consumed. */
size_t
ev_feed(struct ev_ctx *c, const char *buf, size_t len, int eof)
{
	const char	*p = buf, *e = buf + len, *nl;

	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL) {
			if (!eof)
				break;
			c->unterminated = 1;
			nl = e;
		}
		if (c->skipping)
			c->skipping = 0;
		else
			ev_line(c, p, (size_t)(nl - p));
		p = nl < e ? nl + 1 : e;
	}
	return (size_t)(p - buf);
}

/* Set up a context for bundle b of ev with a parser. */
void
ev_ctx_init(struct ev_ctx *c, struct evidence *ev, int b,
    int (*line)(struct ev_ctx *, const char *, size_t),
    void (*finish)(struct ev_ctx *), int flags)
{
	memset(c, 0, sizeof *c);
	c->ev = ev;
	c->bundle = ev_bundle_at(ev, b);
	c->bit = (b >= 0 && b < 64) ? (uint64_t)1 << b : 0;
	c->b = b;
	c->line = line;
	c->finish = finish;
	c->flags = flags;
	strbuf_init(&c->tmp);
	strbuf_init(&c->cname);
	strbuf_init(&c->cdriver);
	strbuf_init(&c->cmodule);
}

/* End a context: flush the parser, account to the bundle. */
void
ev_ctx_done(struct ev_ctx *c)
{
	if (c->finish != NULL)
		c->finish(c);
	if (c->bundle != NULL) {
		c->bundle->trace_events += c->events;
		c->bundle->warnings += c->malformed;
	}
	strbuf_free(&c->tmp);
	strbuf_free(&c->cname);
	strbuf_free(&c->cdriver);
	strbuf_free(&c->cmodule);
}

/* Run a parser over text in memory; returns the malformed lines. */
int
ev_read_mem(struct evidence *ev, int b, const char *text, size_t len,
    int (*line)(struct ev_ctx *, const char *, size_t),
    void (*finish)(struct ev_ctx *), int flags)
{
	struct ev_ctx	c;
	int		malformed;

	ev_ctx_init(&c, ev, b, line, finish, flags);
	ev_feed(&c, text, len, 1);
	ev_ctx_done(&c);
	malformed = c.malformed;
	if (c.bundle != NULL && c.lost != 0 && c.bundle->trace_overrun == 0)
		c.bundle->trace_overrun = c.lost;
	return malformed;
}

/* ------------------------------------------------------------ loading */

/* Report through the caller's warn function. */
void
ev_warnf(const struct ev_warn *w, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	if (w->fn == NULL)
		return;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	w->fn(w->arg, s);
	free(s);
}

/*
 * Open name.xz, name.gz or name in dfd, in that order: the fd and how it
 * is encoded (by its magic, whatever its name); -1 if none exists, -2 if
 * one could not be opened (warned). When several exist the compressed one
 * is read and a warning names the others: recorders write compressed
 * files, and a plain one beside it is most likely a fragment someone
 * unpacked (docs/evidence.md). O_NONBLOCK: a FIFO must be refused, not
 * waited on.
 */
static int
ev_open(int dfd, const char *dir, const char *name, enum zstream_type *type,
    char **path, const struct ev_warn *w)
{
	static const char *const exts[] = { ".xz", ".gz", "" };
	struct stat	 st;
	size_t		 i, j;
	char		*file;
	int		 fd;

	for (i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		file = xasprintf("%s%s", name, exts[i]);
		/* nothing followed out of the bundle (lib/beneath.h) */
		fd = beneath_openat(dfd, file, O_RDONLY | O_NONBLOCK);
		*path = xasprintf("%s/%s", dir, file);
		free(file);
		if (fd < 0 && errno == ENOENT) {
			free(*path);
			continue;
		}
		if (fd < 0 && errno == ELOOP) {
			ev_warnf(w, "%s: a symbolic link (a bundle's files "
			    "are never followed out of it), skipped", *path);
			free(*path);
			return -2;
		}
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			ev_warnf(w, "%s: %s, skipped", *path,
			    fd < 0 ? strerror(errno) : "not a regular file");
			if (fd >= 0)
				close(fd);
			free(*path);
			return -2;
		}
		*type = zstream_detect(fd);
		if (*exts[i] != '\0' && *type != (i == 0 ? ZSTREAM_XZ :
		    ZSTREAM_GZ)) {
			ev_warnf(w, "%s: %s, skipped", *path, st.st_size == 0 ?
			    "empty file" : i == 0 ? "not xz data" :
			    "not gzip data");
			close(fd);
			free(*path);
			return -2;
		}
		for (j = i + 1; j < sizeof exts / sizeof exts[0]; j++) {
			file = xasprintf("%s%s", name, exts[j]);
			if (fstatat(dfd, file, &st, 0) == 0)
				ev_warnf(w, "%s/%s: ignored: %s is read (of "
				    "one file's copies the compressed one "
				    "wins)", dir, file, *path);
			free(file);
		}
		return fd;
	}
	return -1;
}

/* A bundle without modules.builtin.ranges, recorded from the kernel
 * built in the tree kctui runs in: that build's file, as ev_open. */
static int
ev_open_build_ranges(struct evidence *ev, const struct ev_bundle *bundle,
    enum zstream_type *type, char **path, const struct ev_warn *w)
{
	int	fd;

	if (ev->build_ranges == NULL || bundle->release == NULL ||
	    strcmp(bundle->release, ev->build_release) != 0)
		return -1;
	if ((fd = open(ev->build_ranges, O_RDONLY | O_CLOEXEC)) < 0) {
		ev_warnf(w, "%s: %s, skipped", ev->build_ranges,
		    strerror(errno));
		return -2;
	}
	*type = zstream_detect(fd);
	*path = xstrdup(ev->build_ranges);
	return fd;
}

/* Where the build kctui runs in keeps its ranges (see evidence.h). */
void
evidence_set_build_ranges(struct evidence *ev, const char *release,
    const char *path)
{
	free(ev->build_release);
	free(ev->build_ranges);
	ev->build_release = release != NULL ? xstrdup(release) : NULL;
	ev->build_ranges = path != NULL && release != NULL ?
	    xstrdup(path) : NULL;
}

/* Read one open file through its parser; warns once about it. */
void
ev_read_fd(struct ev_ctx *c, int fd, enum zstream_type type, const char *path,
    const struct ev_warn *w)
{
	struct zstream	 src;
	char		*cause = NULL;

	if (zstream_open(&src, fd, type, &cause) != 0) {
		ev_warnf(w, "%s: %s, skipped", path, cause);
		free(cause);
		return;
	}
	ev_read_stream(c, &src, path, w);
	zstream_close(&src);
}

/* Keep the decoded text for the text cache, unless it grows past what is
 * worth holding in memory (then the file is simply not cached). */
static void
ev_tee(struct ev_ctx *c, const char *buf, size_t n)
{
	if (c->tee == NULL || c->tee_failed)
		return;
	if (n > c->tee_max - c->tee->len) {
		c->tee_failed = 1;
		strbuf_free(c->tee);
		strbuf_init(c->tee);
		return;
	}
	strbuf_add(c->tee, buf, n);
}

/*
 * Read a stream through the context's parser, a buffer at a time, and warn
 * once about the file: a read error, binary data, or its malformed lines.
 */
void
ev_read_stream(struct ev_ctx *c, struct zstream *src, const char *path,
    const struct ev_warn *w)
{
	char		*buf, *cause = NULL;
	size_t		 have = 0, used;
	ssize_t		 n;
	int		 first = 1, skipped = 0;

	buf = xmalloc(EV_BUFSIZE);
	for (;;) {
		n = zstream_read(src, buf + have, EV_BUFSIZE - have, &cause);
		if (n < 0) {
			ev_warnf(w, "%s: %s (read up to line %llu)", path,
			    cause, (unsigned long long)c->lineno);
			if (c->bundle != NULL)
				c->bundle->warnings++;
			free(cause);
			cause = NULL;
			break;
		}
		if (n == 0)
			break;
		if (first) {
			first = 0;
			if (n >= 10 && memcmp(buf, "\x17\x08\x44tracing", 10) == 0) {
				ev_warnf(w, "%s: trace-cmd data (name it "
				    "trace.dat), skipped", path);
				skipped = 1;
			} else if (memchr(buf, '\0', (size_t)n) != NULL) {
				ev_warnf(w, "%s: unknown format (binary data), "
				    "skipped", path);
				skipped = 1;
			}
			if (skipped) {
				if (c->bundle != NULL)
					c->bundle->warnings++;
				break;
			}
		}
		ev_tee(c, buf + have, (size_t)n);
		have += (size_t)n;
		used = ev_feed(c, buf, have, 0);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have == EV_BUFSIZE) {
			/* a line longer than the buffer: one bad line, however
			 * many buffers it fills */
			if (!c->skipping) {
				c->lineno++;
				ev_bad(c, buf, have);
				c->skipping = 1;
			}
			have = 0;
		}
	}
	if (!skipped && have > 0)
		ev_feed(c, buf, have, 1);
	free(buf);
	if (skipped)
		return;
	if (c->finish != NULL) {
		c->finish(c);
		c->finish = NULL;
	}
	if (c->good == 0 && c->malformed > 0 && c->events == 0) {
		ev_warnf(w, "%s: unknown format, skipped (%d line%s not "
		    "understood, first: %s)", path, c->malformed,
		    c->malformed == 1 ? "" : "s", c->quote);
	} else if (c->malformed > 0) {
		ev_warnf(w, "%s: %d malformed line%s, first at line %llu: %s",
		    path, c->malformed, c->malformed == 1 ? "" : "s",
		    (unsigned long long)c->first_bad, c->quote);
	}
}

/* Read one file of a bundle through its parser, or the caches when they
 * apply; adds to *lost and, for trace-stats, to *overrun. */
static void
ev_load_file(struct evidence *ev, int b, const struct ev_file *f, int fd,
    enum zstream_type type, const char *path, const struct ev_warn *w,
    uint64_t *lost, uint64_t *overrun)
{
	struct ev_ctx	c;

	if (f->role == EVR_TRACE &&
	    evcache_read_trace(ev, b, fd, type, path, w, lost) == 0)
		return;
	ev_ctx_init(&c, ev, b, f->line, f->finish, f->flags);
	if (type != ZSTREAM_PLAIN)
		evcache_read_text(ev, &c, fd, type, path, w);
	else
		ev_read_fd(&c, fd, type, path, w);
	ev_ctx_done(&c);
	if (f->role == EVR_STATS)
		*overrun += c.overrun;
	*lost += c.lost;
}

/* Load a bundle directory. */
int
evidence_load(struct evidence *ev, const char *dir,
    void (*warn)(void *, const char *), void *arg, char **cause)
{
	struct ev_warn		 w = { warn, arg };
	struct ev_bundle	*bundle;
	struct ev_ctx		 c;
	enum zstream_type	 type;
	uint64_t		 overrun = 0, lost = 0;
	size_t			 i, nalias;
	char			*path;
	int			 dfd, fd, b, have_stats = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return -1;
	}
	b = ev->nbundles;
	bundle = ev_bundle_at(ev, b);
	if (bundle == NULL) {
		close(dfd);
		*cause = xasprintf("%s: too many bundles", dir);
		return -1;
	}
	bundle->path = ev_intern(ev, dir, strlen(dir));
	nalias = ev->alias.npats;
	for (i = 0; i < ev_nfiles; i++) {
		fd = ev_open(dfd, dir, ev_files[i].name, &type, &path, &w);
		if (fd == -1 && ev_files[i].line == ev_ranges_line)
			fd = ev_open_build_ranges(ev, bundle, &type, &path, &w);
		if (fd == -2)
			bundle->warnings++;
		if (fd < 0)
			continue;
		ev_load_file(ev, b, &ev_files[i], fd, type, path, &w, &lost,
		    &overrun);
		if (strcmp(ev_files[i].name, "drivers") == 0)
			bundle->has_drivers = true;
		if (ev_files[i].role == EVR_STATS)
			have_stats = 1;
		close(fd);
		free(path);
	}

	fd = beneath_openat(dfd, "trace.dat", O_RDONLY | O_NONBLOCK);
	if (fd < 0 && errno == ELOOP) {
		ev_warnf(&w, "%s/trace.dat: a symbolic link (a bundle's files "
		    "are never followed out of it), skipped", dir);
		bundle->warnings++;
	}
	if (fd >= 0) {
		path = xasprintf("%s/trace.dat", dir);
		ev_ctx_init(&c, ev, b, ev_trace_line, NULL, EVF_TRACE);
		ev_dat_read(&c, fd, path, &w);
		close(fd);
		ev_ctx_done(&c);
		lost += c.lost;
		free(path);
	}
	close(dfd);
	if (ev->rng.missing != NULL) {
		ev_warnf(&w, "%s: modules.builtin.ranges anchors a section at "
		    "%s, which kallsyms does not list: the two files are not "
		    "of one kernel, no function placed by the ranges", dir,
		    ev->rng.missing);
		bundle->warnings++;
	}
	/* The ranges were this bundle's kernel's: kallsyms has used them. */
	ev_ranges_clear(&ev->rng);

	bundle->trace_overrun = have_stats ? overrun : lost;
	if (nalias != ev->alias.npats) {
		/* new patterns: forget memoized lookups */
		strmap_free(&ev->cache->map);
	}
	return 0;
}

/* ------------------------------------------------------------ API */

/* What the bundles' traces lost (see evidence.h). */
char *
evidence_trace_warnings(const struct evidence *ev)
{
	struct strbuf		 sb;
	const struct ev_bundle	*b;
	int			 i;

	strbuf_init(&sb);
	for (i = 0; i < ev->nbundles; i++) {
		b = ev->bundles[i];
		if (b->trace_overrun == 0)
			continue;
		strbuf_addf(&sb, "%s: the trace lost %llu events (ring buffer "
		    "overrun): a function it does not show may have run, so "
		    "no option is proven unused by it\n", b->path,
		    (unsigned long long)b->trace_overrun);
	}
	if (sb.len == 0) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* A new, empty evidence. */
struct evidence *
evidence_new(void)
{
	struct evidence	*ev = xcalloc(1, sizeof *ev);
	int		 k;

	arena_init(&ev->arena);
	intern_init(&ev->strs, &ev->arena);
	for (k = 0; k < EV_NKINDS; k++)
		strmap_init(&ev->kinds[k].map);
	strmap_init(&ev->syms);
	strmap_init(&ev->homes);
	strmap_init(&ev->builtin);
	strmap_init(&ev->config);
	strmap_init(&ev->devalias);
	strmap_init(&ev->alias.groups);
	ev->cache = xcalloc(1, sizeof *ev->cache);
	strmap_init(&ev->cache->map);
	arena_init(&ev->cache->arena);
	return ev;
}

/* Free everything. */
void
evidence_free(struct evidence *ev)
{
	int	k;

	if (ev == NULL)
		return;
	for (k = 0; k < EV_NKINDS; k++) {
		free(ev->kinds[k].v);
		strmap_free(&ev->kinds[k].map);
	}
	strmap_free(&ev->syms);
	strmap_free(&ev->homes);
	strmap_free(&ev->builtin);
	ev_ranges_clear(&ev->rng);
	strmap_free(&ev->config);
	strmap_free(&ev->devalias);
	free(ev->bindings);
	free(ev->cache_dir);
	free(ev->build_release);
	free(ev->build_ranges);
	strmap_free(&ev->alias.groups);
	free(ev->alias.lens);
	strmap_free(&ev->cache->map);
	arena_free(&ev->cache->arena);
	free(ev->cache);
	free(ev->bundles);
	intern_free(&ev->strs);
	arena_free(&ev->arena);
	free(ev);
}

/* The bindings of the drivers files (see evidence.h). */
size_t
evidence_nbindings(const struct evidence *ev)
{
	return ev->nbindings;
}

const struct ev_binding *
evidence_binding(const struct evidence *ev, size_t i)
{
	return i < ev->nbindings ? &ev->bindings[i] : NULL;
}

/* The modalias of a device path, from the modalias files, or NULL. */
const char *
evidence_device_modalias(const struct evidence *ev, const char *device)
{
	return strmap_get(&ev->devalias, device, strlen(device));
}

/* The device path -> modalias map. */
const struct strmap *
evidence_device_aliases(const struct evidence *ev)
{
	return &ev->devalias;
}

/* The number of bundles loaded. */
int
evidence_nbundles(const struct evidence *ev)
{
	return ev->nbundles;
}

/* Bundle i, or NULL. */
const struct ev_bundle *
evidence_bundle(const struct evidence *ev, int i)
{
	if (i < 0 || i >= ev->nbundles)
		return NULL;
	return ev->bundles[i];
}

/* The number of items of a kind. */
size_t
evidence_count(const struct evidence *ev, enum ev_kind k)
{
	if ((int)k < 0 || k >= EV_NKINDS)
		return 0;
	return ev->kinds[k].n;
}

/* Item i of a kind, or NULL. */
const struct ev_item *
evidence_item(const struct evidence *ev, enum ev_kind k, size_t i)
{
	if ((int)k < 0 || k >= EV_NKINDS || i >= ev->kinds[k].n)
		return NULL;
	return ev->kinds[k].v[i];
}

/* Find an item by kind and name. */
const struct ev_item *
evidence_find(const struct evidence *ev, enum ev_kind k, const char *name)
{
	if ((int)k < 0 || k >= EV_NKINDS)
		return NULL;
	return strmap_get(&ev->kinds[k].map, name, strlen(name));
}
