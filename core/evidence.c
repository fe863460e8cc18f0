/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.c - read evidence bundles (evidence.h): what a running kernel
 * printed about itself, merged over several bundles.
 *
 * Every file is read as a stream of lines: plain, xz (liblzma) or gzip
 * (zlib) data is decoded incrementally (zstream.c) into a fixed buffer and
 * cut into lines, so a trace of gigabytes costs the memory of its distinct
 * functions only. Each file has a line parser; lines it cannot make sense
 * of are counted and the first one is quoted in a single warning.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "evidence.h"
#include "zstream.h"
#include "../lib/strmap.h"
#include "../lib/util.h"
#include "../lib/fileio.h"

#define EV_BUFSIZE	(1024 * 1024)	/* decoded bytes per read; also the
					   longest line kept */
#define EV_QUOTE	80		/* bytes of a bad line quoted */
#define EV_MAXBUNDLE	4096		/* readers' bundle index limit */

/* The items of one kind. */
struct ev_kindtab {
	struct ev_item	**v;		/* first-seen order */
	size_t		  n;
	size_t		  cap;
	struct strmap	  map;		/* name -> item */
};

/* modules.alias patterns, grouped by their literal prefix (up to the
 * first wildcard) so a lookup probes one group per prefix length. */
struct alias_pat {
	const char		*pattern;
	const char		*module;
	size_t			 seq;	/* load order */
	struct alias_pat	*next;
};
struct alias_group {
	struct alias_pat	*head;
	struct alias_pat	*tail;
};
struct alias_index {
	struct strmap		 groups;	/* literal prefix -> group */
	uint8_t			*lens;		/* lens[L]: a group of prefix
						   length L exists */
	size_t			 nlens;
	size_t			 npats;
};

/* A memo of alias lookups: modalias -> result. Filled by
 * evidence_alias_modules(), which takes a const evidence, so it lives
 * behind a pointer. */
struct alias_result {
	const char	**mods;
	size_t		  n;
};
struct alias_cache {
	struct strmap	  map;		/* modalias -> struct alias_result */
	struct arena	  arena;	/* results and keys */
};

struct evidence {
	struct arena		 arena;
	struct intern		 strs;
	struct ev_bundle	**bundles;
	int			 nbundles;
	int			 capbundles;
	struct ev_kindtab	 kinds[EV_NKINDS];
	struct strmap		 syms;		/* kallsyms: name -> module */
	struct strmap		 config;	/* running configs: X -> "y"/"m"/.. */
	struct alias_index	 alias;
	struct alias_cache	*cache;
	char			*cache_dir;	/* parsed traces, or NULL */
};

/* The state of reading one file. */
struct ev_ctx {
	struct evidence		*ev;
	/* kallsyms_line(): the module of the previous line, interned. */
	const char		*ksym_mod;
	size_t			 ksym_modn;
	struct ev_bundle	*bundle;	/* NULL: no bundle to account */
	uint64_t		 bit;		/* this bundle's bit, or 0 */
	int			 (*line)(struct ev_ctx *, const char *, size_t);
	void			 (*finish)(struct ev_ctx *);
	int			 flags;
	uint64_t		 lineno;
	uint64_t		 good;
	int			 malformed;
	uint64_t		 first_bad;
	char			 quote[EV_QUOTE + 1];
	int			 skipping;	/* in an over-long line */
	int			 unterminated;	/* the last line had no \n */

	uint64_t		 events;	/* trace events read */
	uint64_t		 lost;		/* [LOST N EVENTS], missed */
	uint64_t		 overrun;	/* trace-stats overrun: sum */
	int			 modfmt;	/* modules: 0 unknown, 1 proc,
						   2 lsmod */
	struct strbuf		 tmp;		/* scratch for unescaping */
	struct strbuf		 cname;		/* crypto block being read */
	struct strbuf		 cdriver;
	struct strbuf		 cmodule;
	uint64_t		 cline;		/* its first line, or 0 */
	int			 cdriver_set;
	int			 cmodule_set;
	uint64_t		 crefcnt;	/* its refcnt, 0 if none */

	int			 tee;		/* decoded text also goes
						   here (text cache), or -1 */
	int			 tee_failed;
};

/* Parser flags. */
#define EVF_TRACE	0x1	/* an unterminated last line is truncated */
#define EVF_NONUL	0x2	/* lines with NUL bytes are malformed */

/* ------------------------------------------------------------ helpers */

/* Whether c may appear in a symbol name. */
static inline int
ev_symchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

/* Whether c is a space or a tab. */
static inline int
ev_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Whether [s, s+n) is all decimal digits (and not empty). */
static int
ev_digits(const char *s, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return 1;
}

/* Whether [s, s+n) is all hex digits (and not empty). */
static int
ev_hexdigits(const char *s, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') ||
		    (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	}
	return 1;
}

/* Whether [s, s+n) equals the string w. */
static int
ev_eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* Decimal value of [s, s+n), saturating. */
static uint64_t
ev_number(const char *s, size_t n)
{
	uint64_t	v = 0;
	size_t		i;

	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return UINT64_MAX;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	return v;
}

/* A whitespace-separated field of a line. */
struct ev_tok {
	const char	*s;
	size_t		 n;
};

/* Split [s, s+n) into fields; the first max are stored, all are counted. */
static int
ev_split(const char *s, size_t n, struct ev_tok *t, int max)
{
	const char	*p = s, *e = s + n, *q;
	int		 nt = 0;

	for (;;) {
		while (p < e && ev_blank(*p))
			p++;
		if (p == e)
			break;
		q = p;
		while (q < e && !ev_blank(*q))
			q++;
		if (nt < max) {
			t[nt].s = p;
			t[nt].n = (size_t)(q - p);
		}
		nt++;
		p = q;
	}
	return nt;
}

/* Intern [s, s+n). */
static const char *
ev_intern(struct evidence *ev, const char *s, size_t n)
{
	return intern_str(&ev->strs, s, n);
}

/*
 * The length of a symbol name without its compiler suffixes: the longest
 * tail made only of ".constprop.N", ".isra.N", ".part.N", ".cold[.N]",
 * ".llvm.N", ".lto_priv.N" or ".localalias" goes.
 */
static size_t
ev_suffix_len(const char *s, size_t n)
{
	static const char *const words[] = {
		"constprop", "isra", "part", "cold", "llvm", "lto_priv",
		"localalias", "specialized", "__uniq"
	};
	const char	*dot, *p, *e = s + n, *w;
	size_t		 i, wl;
	int		 ok;

	dot = n > 1 ? memchr(s + 1, '.', n - 1) : NULL;
	for (; dot != NULL; dot = memchr(dot + 1, '.', (size_t)(e - dot - 1))) {
		p = dot;
		ok = 1;
		while (ok && p < e) {
			/* one ".word" then any ".digits" */
			ok = 0;
			for (i = 0; i < sizeof words / sizeof words[0]; i++) {
				w = words[i];
				wl = strlen(w);
				if ((size_t)(e - p) > wl &&
				    memcmp(p + 1, w, wl) == 0 &&
				    (p + 1 + wl == e || p[1 + wl] == '.')) {
					p += 1 + wl;
					ok = 1;
					break;
				}
			}
			while (ok && p + 1 < e && p[0] == '.' &&
			    p[1] >= '0' && p[1] <= '9') {
				p++;
				while (p < e && *p >= '0' && *p <= '9')
					p++;
			}
			if (ok && p < e && *p != '.')
				ok = 0;
		}
		if (ok)
			return (size_t)(dot - s);
		if (dot + 1 >= e)
			break;
	}
	return n;
}

/* Strip a compiler suffix in place. */
char *
evidence_strip_suffix(char *name)
{
	name[ev_suffix_len(name, strlen(name))] = '\0';
	return name;
}

/* ------------------------------------------------------------ items */

/* The bundle of index b, creating empty ones up to it (for the readers
 * called directly); NULL if b is out of range. */
static struct ev_bundle *
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
static struct ev_item *
ev_add(struct ev_ctx *c, enum ev_kind k, const char *name, size_t n,
    const char *detail, size_t dn, const char *mod, size_t mn, uint64_t hits)
{
	struct evidence		*ev = c->ev;
	struct ev_kindtab	*t = &ev->kinds[k];
	struct ev_item		*it;

	it = strmap_get(&t->map, name, n);
	if (it == NULL) {
		/* the name right after the item: one cache miss for both */
		it = arena_alloc(&ev->arena, sizeof *it + n + 1);
		memcpy(it + 1, name, n);
		it->kind = k;
		it->name = (const char *)(it + 1);
		strmap_set(&t->map, it->name, n, it);
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->v = xrealloc(t->v, t->cap * sizeof *t->v);
		}
		t->v[t->n++] = it;
	}
	it->bundles |= c->bit;
	it->hits += hits;
	if (it->detail == NULL && detail != NULL)
		it->detail = ev_intern(ev, detail, dn);
	if (it->module == NULL && mod != NULL)
		it->module = ev_intern(ev, mod, mn);
	return it;
}

/* Add a traced function, suffix stripped. */
static void
ev_add_func(struct ev_ctx *c, const char *name, size_t n, const char *mod,
    size_t mn)
{
	n = ev_suffix_len(name, n);
	if (n == 0)
		return;
	ev_add(c, EV_TRACE, name, n, mod, mn, NULL, 0, 1);
}

/* ------------------------------------------------------------ lines */

/* Count a malformed line, quoting the first. */
static void
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
static size_t
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
static void
ev_ctx_init(struct ev_ctx *c, struct evidence *ev, int b,
    int (*line)(struct ev_ctx *, const char *, size_t),
    void (*finish)(struct ev_ctx *), int flags)
{
	memset(c, 0, sizeof *c);
	c->ev = ev;
	c->bundle = ev_bundle_at(ev, b);
	c->bit = (b >= 0 && b < 64) ? (uint64_t)1 << b : 0;
	c->line = line;
	c->finish = finish;
	c->flags = flags;
	c->tee = -1;
	strbuf_init(&c->tmp);
	strbuf_init(&c->cname);
	strbuf_init(&c->cdriver);
	strbuf_init(&c->cmodule);
}

/* End a context: flush the parser, account to the bundle. */
static void
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
static int
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

/* ------------------------------------------------------------ trace */

/* "name[+off/size][ [module]]" at p: the name and module tag found, and
 * the end of the whole thing; NULL if no name. */
static const char *
trace_sym(const char *p, const char *e, const char **name, size_t *n,
    const char **mod, size_t *mn)
{
	const char	*q = p, *m;

	while (q < e && ev_symchar((unsigned char)*q))
		q++;
	if (q == p)
		return NULL;
	*name = p;
	*n = (size_t)(q - p);
	*mod = NULL;
	*mn = 0;
	if (q < e && *q == '+') {		/* sym-offset */
		while (q < e && !ev_blank(*q) && *q != '(')
			q++;
	}
	if (q + 1 < e && q[0] == ' ' && q[1] == '[') {
		m = q + 2;
		while (m < e && *m != ']' && *m != ' ')
			m++;
		if (m < e && *m == ']' && m > q + 2) {
			*mod = q + 2;
			*mn = (size_t)(m - q - 2);
			q = m + 1;
		}
	}
	return q;
}

/* Whether a symbol as printed is an unresolved address ("0xffff..."). */
static int
trace_is_addr(const char *s, size_t n)
{
	return n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    ev_hexdigits(s + 2, n - 2);
}

/* Add a function unless it is a bare address. */
static void
trace_add(struct ev_ctx *c, const char *name, size_t n, const char *mod,
    size_t mn)
{
	if (!trace_is_addr(name, n))
		ev_add_func(c, name, n, mod, mn);
}

/* The body of a function_graph line (after its last column bar). */
static int
trace_graph_body(struct ev_ctx *c, const char *p, const char *e)
{
	const char	*name, *mod, *q;
	size_t		 n, mn;

	while (p < e && ev_blank(*p))
		p++;
	if (p == e || *p == '}')		/* irq markers, returns */
		return 0;
	if (e - p >= 2 && p[0] == '/' && p[1] == '*')
		return 0;			/* events, trace_printk */
	q = trace_sym(p, e, &name, &n, &mod, &mn);
	if (q == NULL || q >= e || *q != '(')
		return -1;
	c->events++;
	trace_add(c, name, n, mod, mn);
	return 1;
}

/* A function tracer body: "callee[ [mod]] <-parent[ [mod]]". */
static int
trace_func_body(struct ev_ctx *c, const char *p, const char *e, int dashes)
{
	const char	*name, *mod, *q;
	size_t		 n, mn;

	q = trace_sym(p, e, &name, &n, &mod, &mn);
	if (q == NULL)
		return -1;
	if (q < e && !ev_blank(*q))
		return -1;
	c->events++;
	trace_add(c, name, n, mod, mn);
	while (q < e && ev_blank(*q))
		q++;
	if (e - q >= 2 && q[0] == '<' && q[1] == '-') {
		q += 2;
		if (dashes && q < e && *q == '-')
			q++;
		while (q < e && ev_blank(*q))
			q++;
		if (trace_sym(q, e, &name, &n, &mod, &mn) != NULL)
			trace_add(c, name, n, mod, mn);
	}
	return 1;
}

/*
 * A line after the "[CPU]" column: flags, "timestamp: " then a function
 * tracer body or "event: ..." (other events, and trace-cmd report's
 * "function:" and "funcgraph_entry:" lines).
 */
static int
trace_after_cpu(struct ev_ctx *c, const char *p, const char *e)
{
	const char	*colon, *q, *bar;

	for (colon = p;; colon++) {
		colon = memchr(colon, ':', (size_t)(e - colon));
		if (colon == NULL)
			return -1;
		if (colon + 1 == e || colon[1] == ' ')
			break;
	}
	if (colon == p || colon[-1] < '0' || colon[-1] > '9')
		return -1;			/* not a timestamp */
	p = colon + 1;
	while (p < e && ev_blank(*p))
		p++;
	if (p == e)
		return -1;
	if (*p == '<')				/* <stack trace> */
		return 0;
	q = p;
	while (q < e && ev_symchar((unsigned char)*q))
		q++;
	if (q < e && *q == ':') {		/* "event: ..." */
		if (ev_eq(p, (size_t)(q - p), "function")) {
			for (q++; q < e && ev_blank(*q); q++)
				;
			return trace_func_body(c, q, e, 1);
		}
		if (ev_eq(p, (size_t)(q - p), "funcgraph_entry")) {
			bar = memrchr(q, '|', (size_t)(e - q));
			if (bar == NULL)
				return -1;
			return trace_graph_body(c, bar + 1, e);
		}
		return 0;
	}
	return trace_func_body(c, p, e, 0);
}

/* A function_graph line: columns ending with '|', the call last. */
static int
trace_graph(struct ev_ctx *c, const char *p, const char *e)
{
	const char	*lim, *bar, *q;

	lim = memmem(p, (size_t)(e - p), "/*", 2);
	if (lim == NULL)
		lim = e;
	bar = memrchr(p, '|', (size_t)(lim - p));
	if (bar == NULL) {
		/* "-----" task switch rulers, " 0) bash-1 => sh-2" */
		if (*p == '-' || memmem(p, (size_t)(e - p), "=>", 2) != NULL)
			return 0;
		return -1;
	}
	/* the "CPU)" column */
	for (q = p; q < bar; q++) {
		if (*q == ')' && q > p && q[-1] >= '0' && q[-1] <= '9')
			break;
	}
	if (q == bar)
		return -1;
	return trace_graph_body(c, bar + 1, e);
}

/* The end of a "[NNN]" CPU column in [p, e), or NULL. */
static const char *
trace_cpu_column(const char *p, const char *e)
{
	const char	*q;

	while ((p = memchr(p, '[', (size_t)(e - p))) != NULL) {
		for (q = p + 1; q < e && *q >= '0' && *q <= '9'; q++)
			;
		if (q > p + 1 && q < e && *q == ']')
			return q + 1;
		p++;
	}
	return NULL;
}

/* One line of ftrace text output (function or function_graph). */
static int
trace_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*p = s, *e = s + n, *q, *name, *mod;
	size_t		 nn, mn;

	while (p < e && ev_blank(*p))
		p++;
	if (p == e || *p == '#')
		return 0;
	if (e - p >= 4 && memcmp(p, "CPU:", 4) == 0) {
		/* "CPU:1 [LOST 123 EVENTS]" */
		q = memmem(p, (size_t)(e - p), "[LOST ", 6);
		if (q != NULL) {
			q += 6;
			c->lost += ev_number(q, (size_t)(e - q));
			return 0;
		}
	}
	if (e - p >= 2 && p[0] == '=' && p[1] == '>') {	/* stack trace */
		for (p += 2; p < e && ev_blank(*p); p++)
			;
		if (trace_sym(p, e, &name, &nn, &mod, &mn) == NULL)
			return -1;
		trace_add(c, name, nn, mod, mn);
		return 1;
	}
	q = trace_cpu_column(p, e);
	if (q != NULL)
		return trace_after_cpu(c, q, e);
	if (e - p >= 5 && (memcmp(p, "cpus=", 5) == 0 ||
	    memcmp(p, "CPU ", 4) == 0))
		return 0;			/* trace-cmd report headers */
	return trace_graph(c, p, e);
}

/* Read ftrace text from memory. Like every evidence_read_*(), bundle b
 * is created (empty, path "") if it does not exist yet. */
int
evidence_read_trace(struct evidence *ev, int b, const char *text, size_t len)
{
	return ev_read_mem(ev, b, text, len, trace_line, NULL, EVF_TRACE);
}

/* trace-stats: "cpuN" headers then "key: value" lines; sums overrun. */
static int
stats_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*colon;
	struct ev_tok	 t[1];

	if (ev_split(s, n, t, 1) == 0)
		return 0;
	colon = memchr(s, ':', n);
	if (colon == NULL) {
		if (t[0].n > 3 && memcmp(t[0].s, "cpu", 3) == 0 &&
		    ev_digits(t[0].s + 3, t[0].n - 3))
			return 1;
		return -1;
	}
	if (ev_eq(t[0].s, t[0].n, "overrun:")) {
		for (colon++; colon < s + n && ev_blank(*colon); colon++)
			;
		if (!ev_digits(colon, (size_t)(s + n - colon)))
			return -1;
		c->overrun += ev_number(colon, (size_t)(s + n - colon));
	}
	return 1;
}

/* ------------------------------------------------------------ modules */

/* Add a module (dashes become underscores); 0 if the name is bad. */
static int
modules_add(struct ev_ctx *c, const struct ev_tok *name,
    const struct ev_tok *size)
{
	char	buf[128];
	size_t	i;

	if (name->n == 0 || name->n >= sizeof buf)
		return 0;
	for (i = 0; i < name->n; i++) {
		char ch = name->s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
			return 0;
		buf[i] = ch == '-' ? '_' : ch;
	}
	if (!ev_digits(size->s, size->n))
		return 0;
	ev_add(c, EV_MODULE, buf, name->n, size->s, size->n, NULL, 0, 1);
	return 1;
}

/*
 * /proc/modules ("name size refcount deps state addr [taint]") or lsmod
 * ("Module Size Used by" then "name size count [deps]"): the header, or
 * the first line's state column, tells which.
 */
static int
modules_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	t[8];
	int		nt = ev_split(s, n, t, 8);

	if (nt == 0)
		return 0;
	if (c->modfmt == 0) {
		if (ev_eq(t[0].s, t[0].n, "Module")) {
			c->modfmt = 2;
			return 1;
		}
		if (nt >= 6 && (ev_eq(t[4].s, t[4].n, "Live") ||
		    ev_eq(t[4].s, t[4].n, "Loading") ||
		    ev_eq(t[4].s, t[4].n, "Unloading")))
			c->modfmt = 1;
		else
			c->modfmt = 2;
	}
	if (c->modfmt == 1) {
		if (nt < 6 || nt > 7 || t[5].n < 3 ||
		    memcmp(t[5].s, "0x", 2) != 0 ||
		    !ev_hexdigits(t[5].s + 2, t[5].n - 2))
			return -1;
		if (!ev_digits(t[2].s, t[2].n) && !ev_eq(t[2].s, t[2].n, "-"))
			return -1;
		if (!(ev_eq(t[4].s, t[4].n, "Live") ||
		    ev_eq(t[4].s, t[4].n, "Loading") ||
		    ev_eq(t[4].s, t[4].n, "Unloading")))
			return -1;
	} else {
		if (nt < 3 || nt > 5)
			return -1;
		if (!ev_digits(t[2].s, t[2].n) && !ev_eq(t[2].s, t[2].n, "-"))
			return -1;
	}
	return modules_add(c, &t[0], &t[1]) ? 1 : -1;
}

/* Read /proc/modules or lsmod output from memory. */
int
evidence_read_modules(struct evidence *ev, int b, const char *text,
    size_t len)
{
	return ev_read_mem(ev, b, text, len, modules_line, NULL, EVF_NONUL);
}

/* ------------------------------------------------------------ mounts */

/* Undo /proc/mounts octal escapes ("\040") into c->tmp. */
static void
mounts_unescape(struct ev_ctx *c, const char *s, size_t n)
{
	size_t	i;

	strbuf_reset(&c->tmp);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			char ch = (char)((s[i + 1] - '0') * 64 +
			    (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));

			if (ch == '\0')
				ch = '?';
			strbuf_addc(&c->tmp, ch);
			i += 3;
		} else
			strbuf_addc(&c->tmp, s[i]);
	}
}

/* /proc/mounts: "device mountpoint fstype options freq passno". */
static int
mounts_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	t[7];
	int		nt = ev_split(s, n, t, 7);

	if (nt == 0)
		return 0;
	if (nt != 6 || !ev_digits(t[4].s, t[4].n) ||
	    !ev_digits(t[5].s, t[5].n))
		return -1;
	mounts_unescape(c, t[1].s, t[1].n);
	ev_add(c, EV_MOUNT, t[2].s, t[2].n, c->tmp.s, c->tmp.len, NULL, 0, 1);
	return 1;
}

/* Read /proc/mounts from memory. */
int
evidence_read_mounts(struct evidence *ev, int b, const char *text, size_t len)
{
	return ev_read_mem(ev, b, text, len, mounts_line, NULL, EVF_NONUL);
}

/* /proc/filesystems: "nodev\tproc" or "\text4". */
static int
filesystems_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	t[3];
	int		nt = ev_split(s, n, t, 3);

	if (nt == 0)
		return 0;
	if (nt == 2 && ev_eq(t[0].s, t[0].n, "nodev"))
		t[0] = t[1];
	else if (nt != 1 || ev_eq(t[0].s, t[0].n, "nodev"))
		return -1;
	ev_add(c, EV_FS, t[0].s, t[0].n, NULL, 0, NULL, 0, 1);
	return 1;
}

/* ------------------------------------------------------------ crypto */

/* Emit the crypto block being read, if any. */
static void
crypto_flush(struct ev_ctx *c)
{
	const char	*mod = NULL;
	size_t		 mn = 0;
	uint64_t	 at = c->lineno;

	if (c->cline == 0)
		return;
	if (!c->cdriver_set || c->cdriver.len == 0) {
		/* quote the block's first line */
		c->lineno = c->cline;
		ev_bad(c, c->cname.len ? c->cname.s : "(no driver)",
		    c->cname.len ? c->cname.len : 11);
		c->lineno = at;
	} else {
		if (c->cmodule_set && !ev_eq(c->cmodule.s, c->cmodule.len,
		    "kernel")) {
			mod = c->cmodule.s;
			mn = c->cmodule.len;
		}
		/* The registration holds one reference; more mean a
		 * transform is allocated: someone uses the algorithm. */
		ev_add(c, EV_CRYPTO, c->cdriver.s, c->cdriver.len,
		    c->cname.len ? c->cname.s : NULL, c->cname.len, mod, mn,
		    c->crefcnt > 1 ? c->crefcnt - 1 : 0);
	}
	c->cline = 0;
	c->cdriver_set = c->cmodule_set = 0;
	c->crefcnt = 0;
	strbuf_reset(&c->cname);
	strbuf_reset(&c->cdriver);
	strbuf_reset(&c->cmodule);
}

/* Copy a trimmed value into a buffer. */
static void
crypto_set(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_reset(sb);
	strbuf_add(sb, s, n);
}

/* /proc/crypto: blocks of "key : value" lines, blank lines between. */
static int
crypto_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*colon, *k, *ke, *v, *ve;

	k = s;
	ve = s + n;
	while (k < ve && ev_blank(*k))
		k++;
	if (k == ve) {
		crypto_flush(c);
		return 0;
	}
	colon = memchr(k, ':', (size_t)(ve - k));
	if (colon == NULL)
		return -1;
	for (ke = colon; ke > k && ev_blank(ke[-1]); ke--)
		;
	for (v = colon + 1; v < ve && ev_blank(*v); v++)
		;
	while (ve > v && ev_blank(ve[-1]))
		ve--;
	if (ke == k)
		return -1;
	if (ev_eq(k, (size_t)(ke - k), "name")) {
		crypto_flush(c);
		c->cline = c->lineno;
		crypto_set(&c->cname, v, (size_t)(ve - v));
		return 1;
	}
	if (c->cline == 0)
		c->cline = c->lineno;
	if (ev_eq(k, (size_t)(ke - k), "driver")) {
		crypto_set(&c->cdriver, v, (size_t)(ve - v));
		c->cdriver_set = 1;
	} else if (ev_eq(k, (size_t)(ke - k), "module")) {
		crypto_set(&c->cmodule, v, (size_t)(ve - v));
		c->cmodule_set = 1;
	} else if (ev_eq(k, (size_t)(ke - k), "refcnt") &&
	    ev_digits(v, (size_t)(ve - v)) && ve - v < 10)
		c->crefcnt = strtoull(v, NULL, 10);
	return 1;
}

/* Read /proc/crypto from memory. */
int
evidence_read_crypto(struct evidence *ev, int b, const char *text, size_t len)
{
	return ev_read_mem(ev, b, text, len, crypto_line, crypto_flush,
	    EVF_NONUL);
}

/* ------------------------------------------------------------ devices */

/* modalias: "<device path> <modalias>", split at the first space (the
 * modalias is the rest of the line). */
static int
modalias_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*e = s + n, *pe, *m;

	while (e > s && ev_blank(e[-1]))
		e--;
	while (s < e && ev_blank(*s))
		s++;
	if (s == e)
		return 0;
	for (pe = s; pe < e && !ev_blank(*pe); pe++)
		;
	for (m = pe; m < e && ev_blank(*m); m++)
		;
	if (m == e || memchr(m, ':', (size_t)(e - m)) == NULL)
		return -1;
	ev_add(c, EV_DEVICE, m, (size_t)(e - m), s, (size_t)(pe - s), NULL, 0,
	    1);
	return 1;
}

/* drivers: "<bus> <driver> <device> <module or ->"; a driver's name may
 * have spaces ("i8042 kbd"), so it is what lies between. */
static int
drivers_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	 t[1];
	const char	*e = s + n, *mod, *dev, *de, *dr, *dre;
	size_t		 modn;
	int		 nt;

	while (e > s && ev_blank(e[-1]))
		e--;
	nt = ev_split(s, (size_t)(e - s), t, 1);
	if (nt == 0)
		return 0;
	if (nt < 4)
		return -1;
	for (mod = e; !ev_blank(mod[-1]); mod--)
		;
	modn = (size_t)(e - mod);
	for (de = mod; ev_blank(de[-1]); de--)
		;
	for (dev = de; !ev_blank(dev[-1]); dev--)
		;
	for (dre = dev; ev_blank(dre[-1]); dre--)
		;
	for (dr = t[0].s + t[0].n; ev_blank(*dr); dr++)
		;
	strbuf_reset(&c->tmp);
	strbuf_add(&c->tmp, t[0].s, t[0].n);
	strbuf_addc(&c->tmp, ' ');
	strbuf_add(&c->tmp, dev, (size_t)(de - dev));
	ev_add(c, EV_DRIVER, dr, (size_t)(dre - dr), c->tmp.s, c->tmp.len,
	    ev_eq(mod, modn, "-") ? NULL : mod, modn, 1);
	return 1;
}

/* ------------------------------------------------------------ symbols */

/* Whether c is a hex digit. */
static inline int
ev_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * kallsyms: "address type name [module]"; suffixes stripped. The file has
 * a line per kernel symbol (111,209 in the cloud-vm bundle), so it is read
 * in one pass by hand rather than split into words, with the same rules:
 * a hex address, a one-letter type, a name without control characters, an
 * optional "[module]", nothing else. A name already seen keeps its first
 * module; consecutive lines of one module share its interned name.
 */
static int
kallsyms_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct evidence	*ev = c->ev;
	const char	*p = s, *e = s + n, *name, *mod = NULL, *key;
	size_t		 namen, mn = 0, kn;

	while (p < e && ev_blank(*p))
		p++;
	if (p == e)
		return 0;
	for (name = p; p < e && ev_hex(*p); p++)
		;
	if (p == name || p == e || !ev_blank(*p))
		return -1;		/* no address, or only one */
	while (p < e && ev_blank(*p))
		p++;
	if (p == e || p + 1 == e || !ev_blank(p[1]))
		return -1;		/* the type: one letter */
	p += 2;
	while (p < e && ev_blank(*p))
		p++;
	if (p == e)
		return -1;
	for (name = p; p < e && !ev_blank(*p); p++) {
		if ((unsigned char)*p < 0x21)
			return -1;
	}
	namen = (size_t)(p - name);
	while (p < e && ev_blank(*p))
		p++;
	if (p < e) {
		for (mod = p; p < e && !ev_blank(*p); p++)
			;
		mn = (size_t)(p - mod);
		while (p < e && ev_blank(*p))
			p++;
		if (p != e || mn < 3 || mod[0] != '[' || mod[mn - 1] != ']')
			return -1;
		mod++;
		mn -= 2;
	}
	kn = ev_suffix_len(name, namen);
	if (strmap_find(&ev->syms, name, kn) != NULL)
		return 1;
	/* A new name: strmap_find just said so, no need to intern it. */
	key = arena_strndup(&ev->arena, name, kn);
	if (mod == NULL)
		mod = "";
	if (c->ksym_mod == NULL || c->ksym_modn != mn ||
	    memcmp(c->ksym_mod, mod, mn) != 0) {
		c->ksym_mod = ev_intern(ev, mod, mn);
		c->ksym_modn = mn;
	}
	strmap_set(&ev->syms, key, kn, (void *)c->ksym_mod);
	return 1;
}

/* config: the running kernel's .config; "CONFIG_X=value" lines are kept
 * (a symbol set in any bundle's config counts as set), the rest skipped. */
static int
config_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct evidence	*ev = c->ev;
	const char	*eq, *key;
	size_t		 kn;

	if (n == 0 || s[0] == '#')
		return 0;
	if (n < 8 || memcmp(s, "CONFIG_", 7) != 0 ||
	    (eq = memchr(s, '=', n)) == NULL || eq == s + 7)
		return -1;
	kn = (size_t)(eq - s) - 7;
	if (strmap_find(&ev->config, s + 7, kn) == NULL) {
		key = ev_intern(ev, s + 7, kn);
		strmap_set(&ev->config, key, kn, (void *)ev_intern(ev,
		    eq + 1, (size_t)(s + n - eq - 1)));
	}
	return 1;
}

/* Whether some bundle had the running kernel's config. */
bool
evidence_has_config(const struct evidence *ev)
{
	return ev->config.count != 0;
}

/* A symbol's value in the running kernels' configs, or NULL if unset. */
const char *
evidence_config_value(const struct evidence *ev, const char *sym)
{
	return strmap_get(&ev->config, sym, strlen(sym));
}

/* The module of a symbol, from kallsyms. */
const char *
evidence_symbol_module(const struct evidence *ev, const char *func)
{
	return strmap_get(&ev->syms, func, ev_suffix_len(func, strlen(func)));
}

/* ------------------------------------------------------------ aliases */

/*
 * Add a pattern to the index, under its literal prefix. The groups are a
 * strmap keyed by that prefix (the interned pattern's first plen bytes):
 * a lookup hashes each prefix length that some group has (lens[]), which
 * for modaliases of a hundred bytes is cheap next to fnmatch().
 */
static void
alias_add(struct evidence *ev, const char *pat, size_t pn, const char *mod,
    size_t mn)
{
	struct alias_index	*a = &ev->alias;
	struct alias_group	*g;
	struct alias_pat	*p;
	size_t			 plen;

	for (plen = 0; plen < pn; plen++) {
		char ch = pat[plen];

		if (ch == '*' || ch == '?' || ch == '[' || ch == '\\')
			break;
	}
	p = arena_alloc(&ev->arena, sizeof *p);
	p->pattern = ev_intern(ev, pat, pn);
	p->module = ev_intern(ev, mod, mn);
	p->seq = a->npats++;
	g = strmap_get(&a->groups, pat, plen);
	if (g == NULL) {
		g = arena_alloc(&ev->arena, sizeof *g);
		strmap_set(&a->groups, p->pattern, plen, g);
		if (plen >= a->nlens) {
			a->lens = xrealloc(a->lens, plen + 1);
			memset(a->lens + a->nlens, 0, plen + 1 - a->nlens);
			a->nlens = plen + 1;
		}
		a->lens[plen] = 1;
	}
	if (g->tail != NULL)
		g->tail->next = p;
	else
		g->head = p;
	g->tail = p;
}

/* modules.alias: "alias PATTERN module". */
static int
alias_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	t[4];
	int		nt = ev_split(s, n, t, 4);

	if (nt == 0 || t[0].s[0] == '#')
		return 0;
	if (nt != 3 || !ev_eq(t[0].s, t[0].n, "alias"))
		return -1;
	alias_add(c->ev, t[1].s, t[1].n, t[2].s, t[2].n);
	return 1;
}

/* Order matches by load order. */
static int
alias_cmp(const void *a, const void *b)
{
	const struct alias_pat *x = *(const struct alias_pat *const *)a;
	const struct alias_pat *y = *(const struct alias_pat *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The modules whose alias patterns match a modalias, in modules.alias
 * order without duplicates. Only groups whose literal prefix starts the
 * modalias are tried with fnmatch(); results are memoized (so, like the
 * rest of a struct evidence, not for concurrent use) and stay valid until
 * evidence_free().
 */
size_t
evidence_alias_modules(const struct evidence *ev, const char *modalias,
    const char *const **mods)
{
	const struct alias_index *a = &ev->alias;
	struct alias_cache	 *cache = ev->cache;
	struct alias_result	 *r;
	struct alias_group	 *g;
	struct alias_pat	 *p, **hit = NULL;
	struct arena		 *arena = &cache->arena;
	size_t			  n = strlen(modalias), L, i, j, nhit = 0;
	size_t			  caphit = 0;
	char			 *key;

	*mods = NULL;
	if (a->npats == 0)
		return 0;
	if ((r = strmap_get(&cache->map, modalias, n)) != NULL) {
		*mods = r->mods;
		return r->n;
	}
	for (L = 0; L <= n && L < a->nlens; L++) {
		if (!a->lens[L] ||
		    (g = strmap_get(&a->groups, modalias, L)) == NULL)
			continue;
		for (p = g->head; p != NULL; p = p->next) {
			if (fnmatch(p->pattern, modalias, 0) != 0)
				continue;
			if (nhit == caphit) {
				caphit = caphit ? caphit * 2 : 8;
				hit = xrealloc(hit, caphit * sizeof *hit);
			}
			hit[nhit++] = p;
		}
	}
	if (nhit > 1)
		qsort(hit, nhit, sizeof *hit, alias_cmp);
	r = arena_alloc(arena, sizeof *r);
	r->mods = arena_alloc(arena, (nhit ? nhit : 1) * sizeof *r->mods);
	for (i = 0; i < nhit; i++) {
		for (j = 0; j < r->n && r->mods[j] != hit[i]->module; j++)
			;
		if (j == r->n)
			r->mods[r->n++] = hit[i]->module;
	}
	free(hit);
	key = arena_strndup(arena, modalias, n);
	strmap_set(&cache->map, key, n, r);
	*mods = r->mods;
	return r->n;
}

/* ------------------------------------------------------------ uname */

/* uname: "Linux host release version ...": the first line. */
static int
uname_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_tok	t[3];
	int		nt = ev_split(s, n, t, 3);

	if (nt == 0)
		return 0;
	if (c->bundle == NULL || c->bundle->uname != NULL)
		return 1;
	if (nt < 3)
		return -1;
	while (n > 0 && ev_blank(s[n - 1]))
		n--;
	c->bundle->uname = ev_intern(c->ev, s, n);
	c->bundle->release = ev_intern(c->ev, t[2].s, t[2].n);
	return 1;
}

/* ------------------------------------------------------------ loading */

/* What evidence_load reads. */
struct ev_file {
	const char	*name;
	int		 (*line)(struct ev_ctx *, const char *, size_t);
	void		 (*finish)(struct ev_ctx *);
	int		 flags;
};

/* The warning sink of one load. */
struct ev_warn {
	void		 (*fn)(void *, const char *);
	void		*arg;
};

/* Report through the caller's warn function. */
static void __attribute__((format(printf, 2, 3)))
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

/* Open name, name.xz or name.gz in dfd: the fd and how it is encoded
 * (by its magic, whatever its name); -1 if none exists, -2 if one could
 * not be opened (warned). */
static int
ev_open(int dfd, const char *dir, const char *name, enum zstream_type *type,
    char **path, const struct ev_warn *w)
{
	static const char *const exts[] = { "", ".xz", ".gz" };
	struct stat	 st;
	size_t		 i;
	char		*file;
	int		 fd;

	for (i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		file = xasprintf("%s%s", name, exts[i]);
		fd = openat(dfd, file, O_RDONLY | O_CLOEXEC);
		*path = xasprintf("%s/%s", dir, file);
		free(file);
		if (fd < 0 && errno == ENOENT) {
			free(*path);
			continue;
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
		if (i > 0 && *type != (i == 1 ? ZSTREAM_XZ : ZSTREAM_GZ)) {
			ev_warnf(w, "%s: %s, skipped", *path, st.st_size == 0 ?
			    "empty file" : i == 1 ? "not xz data" :
			    "not gzip data");
			close(fd);
			free(*path);
			return -2;
		}
		return fd;
	}
	return -1;
}

/* What the trace.dat callback needs. */
struct dat_state {
	struct ev_ctx			*c;
	struct tep_handle		*tep;
	int				 fn_id;
	int				 fg_id;
	struct tep_format_field		*ip;
	struct tep_format_field		*parent_ip;
	struct tep_format_field		*func;
};

/* Add the function at an address. */
static void
dat_func(struct dat_state *d, unsigned long long addr)
{
	const char	*name;

	if (addr == 0 || (name = tep_find_function(d->tep, addr)) == NULL)
		return;
	trace_add(d->c, name, strlen(name), NULL, 0);
}

/* One trace.dat record: function and funcgraph_entry events count. */
static int
dat_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct dat_state	*d = arg;
	unsigned long long	 v;
	int			 type;

	(void)h;
	(void)cpu;
	if (r->missed_events > 0)
		d->c->lost += (uint64_t)r->missed_events;
	type = tep_data_type(d->tep, r);
	if (type < 0)
		return 0;
	if (d->ip != NULL && type == d->fn_id) {
		d->c->events++;
		if (tep_read_number_field(d->ip, r->data, &v) == 0)
			dat_func(d, v);
		if (d->parent_ip != NULL &&
		    tep_read_number_field(d->parent_ip, r->data, &v) == 0)
			dat_func(d, v);
	} else if (d->func != NULL && type == d->fg_id) {
		d->c->events++;
		if (tep_read_number_field(d->func, r->data, &v) == 0)
			dat_func(d, v);
	}
	return 0;
}

/* Read a trace-cmd trace.dat file. */
static void
dat_read(struct ev_ctx *c, const char *path, const struct ev_warn *w)
{
	struct tracecmd_input	*h;
	struct tep_event	*e;
	struct dat_state	 d;

	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (h == NULL) {
		ev_warnf(w, "%s: not a readable trace-cmd file, skipped", path);
		return;
	}
	memset(&d, 0, sizeof d);
	d.c = c;
	d.tep = tracecmd_get_tep(h);
	d.fn_id = d.fg_id = -1;
	if ((e = tep_find_event_by_name(d.tep, "ftrace", "function")) != NULL) {
		d.fn_id = e->id;
		d.ip = tep_find_field(e, "ip");
		d.parent_ip = tep_find_field(e, "parent_ip");
	}
	e = tep_find_event_by_name(d.tep, "ftrace", "funcgraph_entry");
	if (e != NULL) {
		d.fg_id = e->id;
		d.func = tep_find_field(e, "func");
	}
	if (d.ip != NULL || d.func != NULL)
		tracecmd_iterate_events(h, NULL, 0, dat_record, &d);
	tracecmd_close(h);
}

/* Read one open file through its parser; warns once about it. */
static void
ev_read_fd(struct ev_ctx *c, int fd, enum zstream_type type, const char *path,
    const struct ev_warn *w)
{
	struct zstream	 src;
	char		*buf, *cause = NULL;
	size_t		 have = 0, used;
	ssize_t		 n;
	int		 first = 1, skipped = 0;

	if (zstream_open(&src, fd, type, &cause) != 0) {
		ev_warnf(w, "%s: %s, skipped", path, cause);
		free(cause);
		return;
	}
	buf = xmalloc(EV_BUFSIZE);
	for (;;) {
		n = zstream_read(&src, buf + have, EV_BUFSIZE - have, &cause);
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
		if (c->tee >= 0 && !c->tee_failed &&
		    fd_write_all(c->tee, buf + have, (size_t)n) != 0)
			c->tee_failed = 1;
		have += (size_t)n;
		used = ev_feed(c, buf, have, 0);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have == EV_BUFSIZE) {
			/* a line longer than the buffer: one bad line */
			c->lineno++;
			ev_bad(c, buf, have);
			c->skipping = 1;
			have = 0;
		}
	}
	if (!skipped && have > 0)
		ev_feed(c, buf, have, 1);
	free(buf);
	zstream_close(&src);
	if (skipped)
		return;
	if (c->finish != NULL) {
		c->finish(c);
		c->finish = NULL;
	}
	if (c->good == 0 && c->malformed > 0 && c->events == 0) {
		ev_warnf(w, "%s: unknown format, skipped (%d lines not "
		    "understood, first: %s)", path, c->malformed, c->quote);
	} else if (c->malformed > 0) {
		ev_warnf(w, "%s: %d malformed line%s, first at line %llu: %s",
		    path, c->malformed, c->malformed == 1 ? "" : "s",
		    (unsigned long long)c->first_bad, c->quote);
	}
}

/*
 * "functions": kctui collect's deduplicated trace, "name [module] count"
 * a line (module in brackets only for module code).
 */
static int
functions_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*e = s + n, *name, *mod, *q;
	size_t		 nn, mn;
	uint64_t	 count = 0;

	if (n == 0 || s[0] == '#')
		return 0;
	q = trace_sym(s, e, &name, &nn, &mod, &mn);
	if (q == NULL || q >= e || *q != ' ')
		return -1;
	while (q < e && ev_blank(*q))
		q++;
	if (q == e)
		return -1;
	for (; q < e && *q >= '0' && *q <= '9'; q++)
		count = count * 10 + (uint64_t)(*q - '0');
	if (q != e || count == 0 || (nn = ev_suffix_len(name, nn)) == 0)
		return -1;
	c->events += count;
	ev_add(c, EV_TRACE, name, nn, mod, mn, NULL, 0, count);
	return 1;
}

/* The files of a bundle, in reading order. */
static const struct ev_file ev_files[] = {
	{ "uname",		uname_line,	  NULL,		EVF_NONUL },
	{ "modules",		modules_line,	  NULL,		EVF_NONUL },
	{ "trace",		trace_line,	  NULL,		EVF_TRACE },
	{ "functions",		functions_line,	  NULL,		EVF_NONUL },
	{ "trace-stats",	stats_line,	  NULL,		EVF_NONUL },
	{ "modalias",		modalias_line,	  NULL,		EVF_NONUL },
	{ "drivers",		drivers_line,	  NULL,		EVF_NONUL },
	{ "mounts",		mounts_line,	  NULL,		EVF_NONUL },
	{ "filesystems",	filesystems_line, NULL,		EVF_NONUL },
	{ "crypto",		crypto_line,	  crypto_flush,	EVF_NONUL },
	{ "kallsyms",		kallsyms_line,	  NULL,		EVF_NONUL },
	{ "modules.alias",	alias_line,	  NULL,		EVF_NONUL },
	{ "config",		config_line,	  NULL,		EVF_NONUL },
};

/* ------------------------------------------------------------ trace cache */

/*
 * A text trace is hundreds of megabytes once decompressed, and reading it
 * is most of a bundle's load time; what kctui keeps of it is small (the
 * distinct functions with their counts). So a clean trace's result is
 * cached, in the "functions" format, keyed by the file's identity (path,
 * device, inode, size, modification time): a changed file is read again.
 * Traces with bad lines are never cached, so their warnings are given on
 * every run.
 */
#define TCACHE_MAGIC	"KCTRACE 1"

void
evidence_set_cache_dir(struct evidence *ev, const char *dir)
{
	free(ev->cache_dir);
	ev->cache_dir = dir != NULL ? xstrdup(dir) : NULL;
}

/* The cache file (kind "trace" or "text") of an open file and its key;
 * NULL if none. */
static char *
tcache_path(const struct evidence *ev, int fd, const char *path,
    const char *kind, char **keyp)
{
	struct stat	 st;
	char		*key, *real;
	uint64_t	 h = 0xcbf29ce484222325ULL;
	const char	*p;

	if (ev->cache_dir == NULL || fstat(fd, &st) != 0)
		return NULL;
	real = realpath(path, NULL);
	key = xasprintf("%s %llu %llu %lld %lld.%09ld", real ? real : path,
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    st.st_mtim.tv_nsec);
	free(real);
	for (p = key; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	*keyp = key;
	return xasprintf("%s/%s-%016llx.cache", ev->cache_dir, kind,
	    (unsigned long long)h);
}

/* Read a trace's cached result into bundle b; false when there is none. */
static bool
tcache_read(struct evidence *ev, int b, const char *cpath, const char *key,
    uint64_t *lostp)
{
	struct ev_ctx	 c;
	char		*buf, *p, *e;
	uint64_t	 events, lost;
	size_t		 len = 0, cap = 65536;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(cpath, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	buf = xmalloc(cap);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2)
			buf = xrealloc(buf, cap *= 2);
	}
	close(fd);
	buf[len] = '\0';
	/* TCACHE_MAGIC \n key KEY \n events N lost N \n functions... */
	p = buf;
	if (n < 0 || strncmp(p, TCACHE_MAGIC "\nkey ", 14) != 0)
		goto bad;
	p += 14;
	if ((e = strchr(p, '\n')) == NULL || (size_t)(e - p) != strlen(key) ||
	    strncmp(p, key, strlen(key)) != 0)
		goto bad;
	p = e + 1;
	if (sscanf(p, "events %" SCNu64 " lost %" SCNu64, &events, &lost) != 2 ||
	    (e = strchr(p, '\n')) == NULL)
		goto bad;
	p = e + 1;
	ev_ctx_init(&c, ev, b, functions_line, NULL, EVF_NONUL);
	ev_feed(&c, p, len - (size_t)(p - buf), 1);
	c.events = events;
	c.malformed = 0;	/* written by us, read by the same parser */
	ev_ctx_done(&c);
	*lostp = lost;
	free(buf);
	return true;
bad:
	free(buf);
	return false;
}

/* After reading a clean trace into bundle b: write what it added (hits
 * beyond old[], the counts before) to the cache, atomically. */
static void
tcache_write(struct evidence *ev, const char *cpath, const char *key,
    const uint64_t *old, size_t nold, uint64_t events, uint64_t lost)
{
	const struct ev_item	*it;
	struct strbuf		 sb;
	char			*tmp;
	size_t			 i, n = evidence_count(ev, EV_TRACE);
	uint64_t		 d;
	int			 fd;
	bool			 ok;

	if (mkdir(ev->cache_dir, 0700) != 0 && errno != EEXIST)
		return;
	strbuf_init(&sb);
	strbuf_addf(&sb, TCACHE_MAGIC "\nkey %s\nevents %" PRIu64 " lost %"
	    PRIu64 "\n", key, events, lost);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		d = it->hits - (i < nold ? old[i] : 0);
		if (d == 0)
			continue;
		if (it->detail != NULL)
			strbuf_addf(&sb, "%s [%s] %" PRIu64 "\n", it->name,
			    it->detail, d);
		else
			strbuf_addf(&sb, "%s %" PRIu64 "\n", it->name, d);
	}
	tmp = xasprintf("%s.%ld.tmp", cpath, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ok = fd >= 0 && write(fd, sb.s, sb.len) == (ssize_t)sb.len;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (!ok || rename(tmp, cpath) != 0)
		unlink(tmp);
	free(tmp);
	strbuf_free(&sb);
}

/* ------------------------------------------------------------ text cache */

/*
 * The other compressed files of a bundle are small on disk but not to
 * decode: kallsyms.xz is 0.7 MB of xz and 4.5 MB of text, and its xz
 * decoding was a quarter of a suggest's evidence time. Their decoded text
 * is kept in the cache directory, keyed like the trace cache, and read as
 * plain text next time (through the same parser, so the result and any
 * warning are the same). Only files read without warnings are kept.
 */
#define XCACHE_MAGIC	"KCTEXT 1"

/* The cached text at cpath, open just past its header, if its key is
 * key; -1 if there is none. */
static int
xcache_open(const char *cpath, const char *key)
{
	struct strbuf	 hdr;
	size_t		 want;
	ssize_t		 n;
	char		*buf;
	int		 fd;

	if ((fd = open(cpath, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	strbuf_init(&hdr);
	strbuf_addf(&hdr, XCACHE_MAGIC "\nkey %s\n", key);
	want = hdr.len;
	buf = xmalloc(want);
	n = pread(fd, buf, want, 0);
	if (n != (ssize_t)want || memcmp(buf, hdr.s, want) != 0 ||
	    lseek(fd, (off_t)want, SEEK_SET) != (off_t)want) {
		close(fd);
		fd = -1;
	}
	free(buf);
	strbuf_free(&hdr);
	return fd;
}

/* A temporary file for the text of cpath, its header written; -1 if the
 * cache can't be written. */
static int
xcache_create(struct evidence *ev, const char *cpath, const char *key,
    char **tmpp)
{
	struct strbuf	 hdr;
	char		*tmp;
	int		 fd;

	*tmpp = NULL;
	if (mkdir(ev->cache_dir, 0700) != 0 && errno != EEXIST)
		return -1;
	tmp = xasprintf("%s.%ld.tmp", cpath, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	strbuf_init(&hdr);
	strbuf_addf(&hdr, XCACHE_MAGIC "\nkey %s\n", key);
	if (fd_write_all(fd, hdr.s, hdr.len) != 0) {
		close(fd);
		unlink(tmp);
		free(tmp);
		fd = -1;
	} else
		*tmpp = tmp;
	strbuf_free(&hdr);
	return fd;
}

/*
 * Read the compressed file open as fd into c: from its cached text if
 * there is one, else decoding it and keeping the text when it was read
 * without warnings.
 */
static void
xcache_read(struct evidence *ev, struct ev_ctx *c, int fd,
    enum zstream_type type, const char *path, const struct ev_warn *w)
{
	char	*cpath, *key = NULL, *tmp = NULL;
	int	 cfd, warned = c->bundle != NULL ? c->bundle->warnings : 0;

	if ((cpath = tcache_path(ev, fd, path, "text", &key)) == NULL) {
		ev_read_fd(c, fd, type, path, w);
		return;
	}
	if ((cfd = xcache_open(cpath, key)) >= 0) {
		ev_read_fd(c, cfd, ZSTREAM_PLAIN, path, w);
		close(cfd);
	} else {
		c->tee = xcache_create(ev, cpath, key, &tmp);
		ev_read_fd(c, fd, type, path, w);
		if (c->tee >= 0) {
			if (close(c->tee) != 0)
				c->tee_failed = 1;
			if (c->tee_failed || c->malformed != 0 ||
			    (c->bundle != NULL &&
			    c->bundle->warnings != warned) ||
			    rename(tmp, cpath) != 0)
				unlink(tmp);
			c->tee = -1;
		}
		free(tmp);
	}
	free(cpath);
	free(key);
}

/* Load a bundle directory. */
int
evidence_load(struct evidence *ev, const char *dir,
    void (*warn)(void *, const char *), void *arg, char **cause)
{
	struct ev_warn		 w = { warn, arg };
	struct ev_bundle	*bundle;
	struct ev_ctx		 c;
	enum zstream_type		 type;
	uint64_t		 overrun = 0, lost = 0;
	size_t			 i;
	char			*path, *cpath = NULL, *key = NULL;
	size_t			 nalias;
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
	for (i = 0; i < sizeof ev_files / sizeof ev_files[0]; i++) {
		fd = ev_open(dfd, dir, ev_files[i].name, &type, &path, &w);
		if (fd == -2)
			bundle->warnings++;
		if (fd < 0)
			continue;
		if (ev_files[i].line == trace_line &&
		    (cpath = tcache_path(ev, fd, path, "trace", &key)) != NULL) {
			uint64_t	*old, clost = 0;
			size_t		 nold = evidence_count(ev, EV_TRACE), j;
			int		 warned = bundle->warnings;

			if (tcache_read(ev, b, cpath, key, &clost)) {
				lost += clost;
				goto next;
			}
			old = xcalloc(nold + 1, sizeof *old);
			for (j = 0; j < nold; j++)
				old[j] = evidence_item(ev, EV_TRACE, j)->hits;
			ev_ctx_init(&c, ev, b, trace_line, NULL, EVF_TRACE);
			ev_read_fd(&c, fd, type, path, &w);
			ev_ctx_done(&c);
			if (c.malformed == 0 && bundle->warnings == warned)
				tcache_write(ev, cpath, key, old, nold,
				    c.events, c.lost);
			free(old);
			lost += c.lost;
			goto next;
		}
		ev_ctx_init(&c, ev, b, ev_files[i].line, ev_files[i].finish,
		    ev_files[i].flags);
		if (type != ZSTREAM_PLAIN)
			xcache_read(ev, &c, fd, type, path, &w);
		else
			ev_read_fd(&c, fd, type, path, &w);
		ev_ctx_done(&c);
		if (ev_files[i].line == stats_line) {
			have_stats = 1;
			overrun += c.overrun;
		}
		lost += c.lost;
	next:
		close(fd);
		free(path);
		free(cpath);
		free(key);
		cpath = key = NULL;
		continue;
	}

	fd = openat(dfd, "trace.dat", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		path = xasprintf("%s/trace.dat", dir);
		ev_ctx_init(&c, ev, b, trace_line, NULL, EVF_TRACE);
		dat_read(&c, path, &w);
		ev_ctx_done(&c);
		lost += c.lost;
		free(path);
	}
	close(dfd);

	bundle->trace_overrun = have_stats ? overrun : lost;
	if (nalias != ev->alias.npats) {
		/* new patterns: forget memoized lookups */
		strmap_free(&ev->cache->map);
	}
	return 0;
}

/* ------------------------------------------------------------ API */

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
	strmap_init(&ev->config);
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
	strmap_free(&ev->config);
	free(ev->cache_dir);
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
