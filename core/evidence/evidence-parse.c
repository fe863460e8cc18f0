/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-parse.c - the line parser of each bundle file (docs/evidence.md):
 * ftrace text, trace-stats, /proc/modules or lsmod, mounts, filesystems,
 * crypto, modalias, drivers, kallsyms, config, modules.alias, uname and
 * collect's "functions"; and the symbol tables the last ones fill.
 *
 * A parser gets one line at a time (evidence.c cuts the stream) and says
 * what it was: 1 understood, 0 ignorable (comments, blank lines), -1
 * malformed (counted, the first one quoted in a warning).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "evidence-int.h"

/* ------------------------------------------------------------ helpers */

/* Whether c may appear in a symbol name. */
static inline int
ev_symchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
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


/*
 * The length of a symbol name without its compiler suffixes: the longest
 * tail made only of ".constprop.N", ".isra.N", ".part.N", ".cold[.N]",
 * ".llvm.N", ".lto_priv.N" or ".localalias" goes.
 */
size_t
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

static void
ev_add_func(struct ev_ctx *c, const char *name, size_t n, const char *mod,
    size_t mn)
{
	n = ev_suffix_len(name, n);
	if (n == 0)
		return;
	ev_add(c, EV_TRACE, name, n, mod, mn, NULL, 0, 1);
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

/* Add a function unless it is a bare address (an unresolved symbol says
 * nothing about which option's code ran). */
void
ev_trace_add(struct ev_ctx *c, const char *name, size_t n, const char *mod,
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
	ev_trace_add(c, name, n, mod, mn);
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
	ev_trace_add(c, name, n, mod, mn);
	while (q < e && ev_blank(*q))
		q++;
	if (e - q >= 2 && q[0] == '<' && q[1] == '-') {
		q += 2;
		if (dashes && q < e && *q == '-')
			q++;
		while (q < e && ev_blank(*q))
			q++;
		if (trace_sym(q, e, &name, &n, &mod, &mn) != NULL)
			ev_trace_add(c, name, n, mod, mn);
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
int
ev_trace_line(struct ev_ctx *c, const char *s, size_t n)
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
		ev_trace_add(c, name, nn, mod, mn);
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
	return ev_read_mem(ev, b, text, len, ev_trace_line, NULL, EVF_TRACE);
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
		buf[i] = modname_char(ch);
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
 * modalias is the rest of the line). The path is the device's under
 * /sys/devices, as the drivers file names it ("pci0000:00/0000:00:02.0"),
 * and one space follows it: a line in another shape (the full
 * "/sys/devices/.../modalias" path, a tab) would give the device no ID
 * for the twin and verify, so it is refused, said with its line. */
static int
modalias_line(struct ev_ctx *c, const char *s, size_t n)
{
	const char	*e = s + n, *pe, *m;
	static const char tail[] = "/modalias";

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
	if (*s == '/' || m != pe + 1 || *pe != ' ' ||
	    ((size_t)(pe - s) >= sizeof tail - 1 &&
	    memcmp(pe - (sizeof tail - 1), tail, sizeof tail - 1) == 0))
		return -1;
	ev_add(c, EV_DEVICE, m, (size_t)(e - m), s, (size_t)(pe - s), NULL, 0,
	    1);
	if (strmap_get(&c->ev->devalias, s, (size_t)(pe - s)) == NULL) {
		const char *dev = ev_intern_visible(c->ev, s, (size_t)(pe - s));

		/* keyed by the path as the bindings' (visible) */
		if (strmap_get(&c->ev->devalias, dev, strlen(dev)) == NULL)
			strmap_set(&c->ev->devalias, dev, strlen(dev),
			    (void *)ev_intern_visible(c->ev, m,
			    (size_t)(e - m)));
	}
	return 1;
}

/* Read a modalias file from memory. */
int
evidence_read_modalias(struct evidence *ev, int b, const char *text,
    size_t len)
{
	return ev_read_mem(ev, b, text, len, modalias_line, NULL, EVF_NONUL);
}

/* One binding of a drivers file, its strings interned. */
static void
ev_binding_add(struct ev_ctx *c, const char *bus, size_t bn, const char *drv,
    size_t dn, const char *dev, size_t devn, const char *mod, size_t mn)
{
	struct evidence		*ev = c->ev;
	struct ev_binding	*b;

	XGROW(ev->bindings, ev->capbindings, ev->nbindings + 1, 64);
	b = &ev->bindings[ev->nbindings++];
	b->bus = ev_intern_visible(ev, bus, bn);
	b->driver = ev_intern_visible(ev, drv, dn);
	b->device = ev_intern_visible(ev, dev, devn);
	b->module = mod != NULL ? ev_intern_visible(ev, mod, mn) : NULL;
	b->bundle = c->b;
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
	ev_binding_add(c, t[0].s, t[0].n, dr, (size_t)(dre - dr), dev,
	    (size_t)(de - dev), ev_eq(mod, modn, "-") ? NULL : mod, modn);
	return 1;
}

/* Read a drivers file from memory. */
int
evidence_read_drivers(struct evidence *ev, int b, const char *text,
    size_t len)
{
	return ev_read_mem(ev, b, text, len, drivers_line, NULL, EVF_NONUL);
}

/* ------------------------------------------------------------ symbols */

/*
 * kallsyms: "address type name [module]"; suffixes stripped. The file has
 * a line per kernel symbol (111,209 in the cloud-vm bundle), so it is read
 * in one pass by hand rather than split into words, with the same rules:
 * a hex address, a one-letter type, a name without control characters, an
 * optional "[module]", nothing else. A name already seen keeps its first
 * module; consecutive lines of one module share its interned name. When
 * the bundle has modules.builtin.ranges, the image's symbols also go to
 * evidence-ranges.c: anchors by name, functions (t, T, w, W) to be placed.
 */
static int
kallsyms_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct evidence	*ev = c->ev;
	struct strmap_entry	*ent;
	const char	*p = s, *e = s + n, *name, *mod = NULL, *key, *a;
	size_t		 namen, mn = 0, kn;
	uint64_t	 addr;
	char		 type;
	bool		 added, image;

	while (p < e && ev_blank(*p))
		p++;
	if (p == e)
		return 0;
	/* (more than 16 digits: no address of this machine; addr is 0) */
	a = p;
	p = ev_hex64(p, e, &addr);
	if (p == a || p == e || !ev_blank(*p))
		return -1;		/* no address, or only one */
	while (p < e && ev_blank(*p))
		p++;
	if (p == e || p + 1 == e || !ev_blank(p[1]))
		return -1;		/* the type: one letter */
	type = *p;
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
	image = mod == NULL;
	if (image && ev->rng.n != 0)
		ev_ranges_anchor(ev, name, namen, addr);
	kn = ev_suffix_len(name, namen);
	ent = strmap_insert(&ev->syms, name, kn, &added);
	if (added) {
		/* A new name: the entry keeps a copy, no need to intern it. */
		ent->key = key = arena_strndup(&ev->arena, name, kn);
		if (mod == NULL)
			mod = "";
		if (c->ksym_mod == NULL || c->ksym_modn != mn ||
		    memcmp(c->ksym_mod, mod, mn) != 0) {
			c->ksym_mod = ev_intern(ev, mod, mn);
			c->ksym_modn = mn;
		}
		ent->value = (void *)c->ksym_mod;
	} else
		key = ent->key;
	if (image && ev->rng.n != 0 && kn != 0 && (type == 't' ||
	    type == 'T' || type == 'w' || type == 'W'))
		ev_ranges_note(ev, key, addr);
	return 1;
}

/* kallsyms ended: place the image's functions in the ranges, if any. */
static void
kallsyms_finish(struct ev_ctx *c)
{
	if (c->ev->rng.n != 0)
		ev_ranges_resolve(c->ev);
}

/*
 * Read modules.builtin.ranges, then kallsyms, from memory, as one bundle
 * would; returns the malformed lines of both.
 */
int
evidence_read_ranges(struct evidence *ev, int b, const char *ranges,
    size_t rlen, const char *kallsyms, size_t klen)
{
	int	bad;

	bad = ev_read_mem(ev, b, ranges, rlen, ev_ranges_line, NULL,
	    EVF_NONUL);
	bad += ev_read_mem(ev, b, kallsyms, klen, kallsyms_line,
	    kallsyms_finish, EVF_NONUL);
	ev_ranges_clear(&ev->rng);
	return bad;
}

/* config: the running kernel's .config; "CONFIG_X=value" lines are kept
 * (a symbol set in any bundle's config counts as set), the rest skipped. */
static int
config_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct evidence		*ev = c->ev;
	struct strmap_entry	*e;
	const char		*eq;
	size_t			 kn;
	bool			 added;

	if (n == 0 || s[0] == '#')
		return 0;
	if (n < 8 || memcmp(s, "CONFIG_", 7) != 0 ||
	    (eq = memchr(s, '=', n)) == NULL || eq == s + 7)
		return -1;
	kn = (size_t)(eq - s) - 7;
	e = strmap_insert(&ev->config, s + 7, kn, &added);
	if (added) {
		e->key = ev_intern(ev, s + 7, kn);
		e->value = (void *)ev_intern(ev, eq + 1,
		    (size_t)(s + n - eq - 1));
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
	struct strmap_entry	*e;
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
	e = strmap_insert(&a->groups, p->pattern, plen, NULL);
	if ((g = e->value) == NULL) {
		g = e->value = arena_alloc(&ev->arena, sizeof *g);
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

/* Read a modules.alias file from memory (for evidence_alias_modules). */
int
evidence_read_aliases(struct evidence *ev, int b, const char *text,
    size_t len)
{
	return ev_read_mem(ev, b, text, len, alias_line, NULL, EVF_NONUL);
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
			XGROW(hit, caphit, nhit + 1, 8);
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

/*
 * The release (uname -r) in a uname file's text, read as uname_line
 * reads it (the third word of the first line that has words), or NULL
 * when there is none, or it could not be a directory's name (a '/',
 * "." or ".."): the baseline's package and lib/modules path are made
 * of it. malloc'd.
 */
char *
evidence_uname_release(const char *text)
{
	struct ev_tok	 t[3];
	const char	*line, *end;
	int		 nt = 0;

	for (line = text; *line != '\0' && nt == 0; line = end) {
		end = line + strcspn(line, "\n");
		if ((nt = ev_split(line, (size_t)(end - line), t, 3)) == 0 &&
		    *end == '\n')
			end++;
	}
	if (nt < 3 || memchr(t[2].s, '/', t[2].n) != NULL ||
	    ev_eq(t[2].s, t[2].n, ".") || ev_eq(t[2].s, t[2].n, ".."))
		return NULL;
	return xstrndup(t[2].s, t[2].n);
}

/*
 * "functions": kctui collect's deduplicated trace, "name [module] count"
 * a line (module in brackets only for module code); also the trace
 * cache's format.
 */
int
ev_functions_line(struct ev_ctx *c, const char *s, size_t n)
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
const struct ev_file ev_files[] = {
	{ "uname",	   uname_line,	      NULL,	    EVF_NONUL, EVR_TEXT },
	{ "modules",	   modules_line,      NULL,	    EVF_NONUL, EVR_TEXT },
	{ "trace",	   ev_trace_line,     NULL,	    EVF_TRACE, EVR_TRACE },
	{ "functions",	   ev_functions_line, NULL,	    EVF_NONUL, EVR_TEXT },
	{ "trace-stats",   stats_line,	      NULL,	    EVF_NONUL, EVR_STATS },
	{ "modalias",	   modalias_line,     NULL,	    EVF_NONUL, EVR_TEXT },
	{ "drivers",	   drivers_line,      NULL,	    EVF_NONUL, EVR_TEXT },
	{ "mounts",	   mounts_line,	      NULL,	    EVF_NONUL, EVR_TEXT },
	{ "filesystems",   filesystems_line,  NULL,	    EVF_NONUL, EVR_TEXT },
	{ "crypto",	   crypto_line,	      crypto_flush, EVF_NONUL, EVR_TEXT },
	{ "modules.builtin.ranges", ev_ranges_line, NULL,  EVF_NONUL, EVR_TEXT },
	{ "kallsyms",	   kallsyms_line,     kallsyms_finish, EVF_NONUL, EVR_TEXT },
	{ "modules.alias", alias_line,	      NULL,	    EVF_NONUL, EVR_TEXT },
	{ "config",	   config_line,	      NULL,	    EVF_NONUL, EVR_TEXT },
	/* last: it counts the items the files above made */
	{ "seen",	   ev_seen_line,      NULL,	    EVF_NONUL, EVR_TEXT },
};
const size_t ev_nfiles = sizeof ev_files / sizeof ev_files[0];
