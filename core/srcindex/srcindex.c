/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcindex.c - where the kernel's functions, filesystem types, crypto
 * algorithms and drivers are defined (see srcindex.h).
 *
 * The tree is walked once (every .c and .S file, with its size and mtime:
 * the tree's identity), then either a cache file with the same identity is
 * loaded, or the files are scanned by worker threads that share compiled
 * pcre2 patterns (JIT) and each have their own match data:
 *
 *   func     line-start definitions "[type ...] name(params) [__attr] {",
 *            the return type possibly on the line before; prototypes (a ';'
 *            before any '{') don't match.  The kernel's definition macros
 *            (SYSCALL_DEFINEn, COMPAT_SYSCALL_DEFINEn, BPF_CALL_n,
 *            DEFINE_IDTENTRY*, DEFINE_INTERRUPT_HANDLER*) are matched as
 *            "names" and expanded;
 *   misc     __setup("...", fn), early_param("...", fn) and the
 *            DEFINE_*_ATTRIBUTE(x) macros that define x_open();
 *   head     "struct file_system_type X = {", "struct crypto_template
 *            X[] = {" (crypto) and "struct *_driver X = {", whose
 *            initialiser is then read by hand for .name = "...";
 *   crypto   .cra_name = "..." and .cra_driver_name = "...";
 *   asm      SYM_FUNC_START(name) and friends in .S files.
 *
 * The patterns other than func only run on files that contain a literal
 * (found with memmem) that they need.  Records from the workers are merged
 * in file order, so the result does not depend on the thread count.
 *
 * tools/, scripts/ and Documentation/ are not scanned: they hold user-space
 * and host programs (tools/lib/rbtree.c would otherwise "define"
 * rb_insert_color next to lib/rbtree.c).
 *
 * The index lives in one blob, the cache file's payload, whether mapped
 * from the cache or packed after a scan: see srcindex-cache.c.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "srcindex.h"
#include "srcindex-cache.h"
#include "../../lib/util.h"

/* The walk's state: the files so far and the current directory. */
struct srcwalk {
	struct arena	*arena;
	struct srcfile	*files;
	size_t		 nfiles;
	size_t		 cap;
	struct strbuf	 dir;		/* "fs/ext4/" */
};

/* A link in a name's list of files while building. */
struct srclink {
	uint32_t	file;
	uint32_t	next;
};

/* Top-level directories that hold no kernel code. */
static const char *const srcindex_skip_dirs[] = {
	"tools", "scripts", "Documentation", NULL
};

/* ------------------------------------------------------------------ walk */

/* Add one file of the walk. */
static void
srcwalk_add(struct srcwalk *w, const char *name, const struct stat *st)
{
	struct srcfile	*f;
	size_t		 n = strlen(name);
	char		*path;

	XGROW(w->files, w->cap, w->nfiles + 1, 4096);
	path = arena_alloc(w->arena, w->dir.len + n + 1);
	memcpy(path, w->dir.s, w->dir.len);
	memcpy(path + w->dir.len, name, n + 1);
	f = &w->files[w->nfiles++];
	f->path = path;
	f->size = (uint64_t)st->st_size;
	f->mtime_sec = (int64_t)st->st_mtim.tv_sec;
	f->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
}

/* Is name a source file we scan (.c or .S)? */
static int
srcwalk_wanted(const char *name)
{
	size_t	n = strlen(name);

	return n > 2 && name[n - 2] == '.' &&
	    (name[n - 1] == 'c' || name[n - 1] == 'S');
}

/* Walk the directory open as fd (which this closes), depth first. */
static void
srcwalk_dir(struct srcwalk *w, int fd)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	const char	*const *skip;
	size_t		 len = w->dir.len;
	int		 type, sub;

	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		type = de->d_type;
		if (type == DT_UNKNOWN) {
			if (fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			if (S_ISDIR(st.st_mode))
				type = DT_DIR;
			else if (S_ISREG(st.st_mode))
				type = DT_REG;
		}
		if (type == DT_DIR) {
			if (len == 0) {
				for (skip = srcindex_skip_dirs; *skip; skip++)
					if (strcmp(*skip, de->d_name) == 0)
						break;
				if (*skip != NULL)
					continue;
			}
			sub = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub == -1)
				continue;
			strbuf_adds(&w->dir, de->d_name);
			strbuf_addc(&w->dir, '/');
			srcwalk_dir(w, sub);
			w->dir.len = len;
			w->dir.s[len] = '\0';
		} else if (type == DT_REG && srcwalk_wanted(de->d_name)) {
			if (fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
				srcwalk_add(w, de->d_name, &st);
		}
	}
	closedir(d);
}

/* Order files by path. */
static int
srcwalk_cmp(const void *a, const void *b)
{
	return strcmp(((const struct srcfile *)a)->path,
	    ((const struct srcfile *)b)->path);
}

/* The tree's identity: the sorted paths with their sizes and mtimes. */
static uint64_t
srcwalk_identity(const struct srcwalk *w)
{
	uint64_t	h = 0xcbf29ce484222325ull, v[3];
	uint32_t	version = SRCINDEX_VERSION;
	size_t		i;

	h = hash_fnv64(h, &version, sizeof version);
	h = hash_fnv64(h, &w->nfiles, sizeof w->nfiles);
	for (i = 0; i < w->nfiles; i++) {
		h = hash_fnv64(h, w->files[i].path,
		    strlen(w->files[i].path) + 1);
		v[0] = w->files[i].size;
		v[1] = (uint64_t)w->files[i].mtime_sec;
		v[2] = (uint64_t)w->files[i].mtime_nsec;
		h = hash_fnv64(h, v, sizeof v);
	}
	return h;
}

/* List every .c and .S file under srctree, sorted; fd: the tree, kept. */
static int
srcwalk_run(struct srcwalk *w, const char *srctree, int *rootfd,
    char **cause)
{
	int	fd;

	*rootfd = open(srctree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*rootfd == -1) {
		*cause = xasprintf("%s: %s", srctree, strerror(errno));
		return -1;
	}
	if ((fd = dup(*rootfd)) == -1) {
		*cause = xasprintf("%s: %s", srctree, strerror(errno));
		close(*rootfd);
		return -1;
	}
	/* fdopendir() shares the offset: rewinding is its business. */
	srcwalk_dir(w, fd);
	qsort(w->files, w->nfiles, sizeof *w->files, srcwalk_cmp);
	return 0;
}

/* ---------------------------------------------------------------- tables */

/* The entry of name (n bytes, not NUL-terminated) in t, added (its string
 * copied to arena, as the map borrows its keys) if new. */
static struct srcname *
srctable_get(struct strmap *t, const char *name, size_t n,
    struct arena *arena)
{
	struct strmap_entry	*e;
	struct srcname		*s;
	bool			 added;

	e = strmap_insert(t, name, n, &added);
	if (!added)
		return e->value;
	s = arena_alloc(arena, sizeof *s);
	s->name = arena_strndup(arena, name, n);
	s->count = 0;
	s->head = UINT32_MAX;
	e->key = s->name;	/* the same bytes, now lasting */
	e->value = s;
	return s;
}

/* ------------------------------------------------------------------ scan */

enum {
	RE_FUNC,	/* 1: name, 2: parameter list */
	RE_MISC,	/* 1: __setup/early_param fn, 2: DEFINE_*_ATTRIBUTE */
	RE_HEAD,	/* 1: struct type, 2: variable */
	RE_CRYPTO,	/* 2: the name */
	RE_ASM,		/* 1: the symbol */
	RE_N
};

static const char *const srcindex_patterns[RE_N] = {
	/* RE_FUNC: qualifiers and type on the name's line, each a word
	 * (maybe with an argument list: __attribute__((x)), __section(x))
	 * followed by blanks or stars, as few as will do (else the name
	 * of "f(x) __releases(y)" would be __releases); the name; the
	 * balanced parameter list
	 * (no ; { or } inside); blanks, comments and __annotations(...);
	 * then the body's brace. */
	"^(?:[A-Za-z_]\\w*+(?:[ \\t]*+\\((?:[^()\\n]++|\\([^()\\n]*+\\))*+\\))?"
	"[ \\t*]++)*?"
	"([A-Za-z_]\\w*+)[ \\t]*+"
	"(?<p>\\((?:[^(){};]++|(?&p))*+\\))"
	"(?:\\s++|/\\*(?:[^*]++|\\*(?!/))*+\\*/|//[^\\n]*+"
	"|__\\w*+(?:[ \\t]*+(?&p))?)*+"
	"\\{",
	/* RE_MISC */
	"^[ \\t]*+(?:(?:__setup|early_param)[ \\t]*+\\([ \\t]*+"
	"\"(?:[^\"\\\\\\n]++|\\\\.)*+\"[ \\t]*+,\\s*+(\\w++)"
	"|(?:static[ \\t]++)?DEFINE_(?:SHOW|SEQ|SIMPLE|DEBUGFS|PROC_SHOW)"
	"_ATTRIBUTE[ \\t]*+\\([ \\t]*+(\\w++))",
	/* RE_HEAD */
	"^(?:static[ \\t]++)?(?:const[ \\t]++)?struct[ \\t]++"
	"(file_system_type|crypto_template|\\w+_driver)[ \\t]++(\\w++)"
	"(?:[ \\t]*+\\[[^\\]\\n]*+\\])?"
	"(?:[ \\t]++__\\w++(?:\\([^()\\n]*+\\))?)*+[ \\t]*+=\\s*+\\{",
	/* RE_CRYPTO */
	"\\.cra_(driver_)?name[ \\t]*+=[ \\t]*+\"([^\"\\n]++)\"",
	/* RE_ASM */
	"^[ \\t]*+(?:SYM_(?:TYPED_)?FUNC_START\\w*+|SYM_CODE_START\\w*+"
	"|SYM_INNER_LABEL\\w*+|SYM_FUNC_ALIAS\\w*+|ENTRY|GLOBAL|WEAK"
	"|_GLOBAL\\w*+)[ \\t]*+\\([ \\t]*+(\\w++)",
};

/* One name found in one file. */
struct srcrec {
	uint32_t	name;		/* offset in the worker's names */
	uint16_t	len;
	uint8_t		kind;
};

/* Where a file's records are: worker and range. */
struct srcfrecs {
	uint32_t	worker;
	uint32_t	begin;
	uint32_t	end;
};

struct srcscan;

/* A scanning thread's private state. */
struct srcworker {
	struct srcscan		*scan;
	uint32_t		 id;
	pthread_t		 thread;
	pcre2_match_data	*md;
	pcre2_match_context	*mc;
	pcre2_jit_stack		*stack;
	char			*buf;
	size_t			 cap;
	struct srcrec		*recs;
	size_t			 nrecs;
	size_t			 caprecs;
	struct strbuf		 names;
	size_t			 errors;	/* pcre2 errors (match cut) */
};

/* What the workers share. */
struct srcscan {
	pcre2_code		*re[RE_N];
	int			 jit;
	const struct srcfile	*files;
	size_t			 nfiles;
	int			 rootfd;
	atomic_size_t		 next;
	struct srcfrecs		*frecs;
};

/* Compile the patterns (and JIT them if possible). */
static int
srcscan_compile(struct srcscan *sc, char **cause)
{
	PCRE2_UCHAR	msg[256];
	PCRE2_SIZE	erroff;
	int		i, err;

	sc->jit = 1;
	for (i = 0; i < RE_N; i++) {
		sc->re[i] = pcre2_compile((PCRE2_SPTR)srcindex_patterns[i],
		    PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE, &err, &erroff, NULL);
		if (sc->re[i] == NULL) {
			pcre2_get_error_message(err, msg, sizeof msg);
			*cause = xasprintf("srcindex pattern %d at %zu: %s", i,
			    (size_t)erroff, (char *)msg);
			while (--i >= 0)
				pcre2_code_free(sc->re[i]);
			return -1;
		}
		if (pcre2_jit_compile(sc->re[i], PCRE2_JIT_COMPLETE) != 0)
			sc->jit = 0;
	}
	return 0;
}

/* Record name (n bytes, with a prefix and suffix) as kind in this file. */
static void
srcworker_add(struct srcworker *w, enum src_kind kind, const char *prefix,
    const char *name, size_t n, const char *suffix)
{
	struct srcrec	*r;
	size_t		 start = w->names.len;

	if (n == 0 || n > 1000)
		return;
	XGROW(w->recs, w->caprecs, w->nrecs + 1, 4096);
	strbuf_adds(&w->names, prefix);
	strbuf_add(&w->names, name, n);
	strbuf_adds(&w->names, suffix);
	r = &w->recs[w->nrecs++];
	r->name = (uint32_t)start;
	r->len = (uint16_t)(w->names.len - start);
	r->kind = (uint8_t)kind;
}

/* Match re against buf from off; the ovector, or NULL at the end. */
static PCRE2_SIZE *
srcworker_match(struct srcworker *w, int which, const char *buf, size_t len,
    size_t off)
{
	const pcre2_code	*re = w->scan->re[which];
	int			 rc;

	if (w->scan->jit)
		rc = pcre2_jit_match(re, (PCRE2_SPTR)buf, len, off, 0, w->md,
		    w->mc);
	else
		rc = pcre2_match(re, (PCRE2_SPTR)buf, len, off, 0, w->md,
		    w->mc);
	if (rc < 0) {
		if (rc != PCRE2_ERROR_NOMATCH)
			w->errors++;
		return NULL;
	}
	return pcre2_get_ovector_pointer(w->md);
}

/* Is p (n bytes) the identifier id? */
static int
srcindex_is(const char *p, size_t n, const char *id)
{
	return strlen(id) == n && memcmp(p, id, n) == 0;
}

/* Does p (n bytes) start with prefix, followed by one digit and no more? */
static int
srcindex_is_n(const char *p, size_t n, const char *prefix)
{
	size_t	pn = strlen(prefix);

	return n == pn + 1 && memcmp(p, prefix, pn) == 0 &&
	    p[pn] >= '0' && p[pn] <= '9';
}

/* The first identifier in a parameter list "( name, ...)"; its length. */
static size_t
srcindex_first_arg(const char *args, size_t n, const char **name)
{
	size_t	i = 1, start;

	while (i < n && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n'))
		i++;
	start = i;
	while (i < n && (args[i] == '_' || (args[i] >= 'a' && args[i] <= 'z') ||
	    (args[i] >= 'A' && args[i] <= 'Z') ||
	    (args[i] >= '0' && args[i] <= '9')))
		i++;
	*name = args + start;
	return i - start;
}

/* A function definition matched by RE_FUNC: expand macros, record. */
static void
srcworker_func(struct srcworker *w, const char *buf, const PCRE2_SIZE *ov)
{
	static const char *const keywords[] = {
		"if", "for", "while", "switch", "return", "sizeof", "do",
		"else", "case", "typeof", "__typeof__", "asm", "__asm__",
		"_Static_assert", "static_assert", NULL
	};
	static const char *const sys[] = {
		"sys_", "__do_sys_", "__se_sys_", "__x64_sys_", "__ia32_sys_",
		"__arm64_sys_", NULL
	};
	static const char *const compat[] = {
		"compat_sys_", "__do_compat_sys_", "__se_compat_sys_",
		"__x64_compat_sys_", "__ia32_compat_sys_",
		"__arm64_compat_sys_", NULL
	};
	const char	*name = buf + ov[2], *args = buf + ov[4], *arg;
	size_t		 n = ov[3] - ov[2], an = ov[5] - ov[4], argn, i;

	if (n >= 8 && name[0] >= 'A' && name[0] <= 'Z') {
		argn = srcindex_first_arg(args, an, &arg);
		if (srcindex_is_n(name, n, "SYSCALL_DEFINE")) {
			for (i = 0; sys[i] != NULL; i++)
				srcworker_add(w, SRC_FUNC, sys[i], arg, argn,
				    "");
			return;
		}
		if (srcindex_is_n(name, n, "COMPAT_SYSCALL_DEFINE")) {
			for (i = 0; compat[i] != NULL; i++)
				srcworker_add(w, SRC_FUNC, compat[i], arg,
				    argn, "");
			return;
		}
		if (srcindex_is_n(name, n, "BPF_CALL_") ||
		    srcindex_is_n(name, n, "NOTRACE_BPF_CALL_")) {
			srcworker_add(w, SRC_FUNC, "", arg, argn, "");
			return;
		}
		if (n >= 15 && memcmp(name, "DEFINE_IDTENTRY", 15) == 0) {
			/* x86: func and its body __func */
			srcworker_add(w, SRC_FUNC, "", arg, argn, "");
			srcworker_add(w, SRC_FUNC, "__", arg, argn, "");
			return;
		}
		if (n >= 24 &&
		    memcmp(name, "DEFINE_INTERRUPT_HANDLER", 24) == 0) {
			/* powerpc (the body ____func is always inline) */
			srcworker_add(w, SRC_FUNC, "", arg, argn, "");
			return;
		}
	}
	for (i = 0; keywords[i] != NULL; i++)
		if (srcindex_is(name, n, keywords[i]))
			return;
	srcworker_add(w, SRC_FUNC, "", name, n, "");
}

/*
 * The string ident stands for in buf: "#define ident "value"" or
 * "char ident[] = "value";". Its length (0: none), the text in *value.
 */
static size_t
srcindex_define(const char *buf, size_t len, const char *ident, size_t n,
    const char **value)
{
	const char	*p = buf, *end = buf + len, *q, *hit;
	int		 array;

	while ((hit = memmem(p, (size_t)(end - p), ident, n)) != NULL) {
		p = hit + n;
		if (p >= end || hit == buf)
			continue;
		q = hit;
		if (q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z') ||
		    (q[-1] >= 'A' && q[-1] <= 'Z') ||
		    (q[-1] >= '0' && q[-1] <= '9'))
			continue;
		array = *p == '[';
		if (array) {
			/* ident[] = "value" */
			q = p + 1;
			while (q < end && *q != ']' && *q != '\n')
				q++;
			if (q >= end || *q != ']')
				continue;
			q++;
			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if (q >= end || *q != '=')
				continue;
			p = q + 1;
		} else {
			/* #define ident "value" */
			if (*p != ' ' && *p != '\t')
				continue;
			while (q > buf && (q[-1] == ' ' || q[-1] == '\t'))
				q--;
			if (q == hit || q - buf < 7 ||
			    memcmp(q - 6, "define", 6) != 0)
				continue;
			q -= 6;
			while (q > buf && (q[-1] == ' ' || q[-1] == '\t'))
				q--;
			if (q == buf || q[-1] != '#')
				continue;
		}
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p != '"')
			continue;
		for (q = ++p; q < end && *q != '"' && *q != '\n'; q++)
			if (*q == '\\' && q + 1 < end)
				q++;
		if (q >= end || *q != '"')
			return 0;
		*value = p;
		return (size_t)(q - p);
	}
	return 0;
}

/* Skip a string or character literal at p (its quote); the end. */
static size_t
srcindex_skip_quoted(const char *buf, size_t len, size_t p)
{
	char	q = buf[p++];

	while (p < len && buf[p] != q && buf[p] != '\n') {
		if (buf[p] == '\\')
			p++;
		p++;
	}
	return p < len ? p + 1 : len;
}

/*
 * The value of ".name =" at p (after the '='): a string literal (adjacent
 * literals joined), or a macro or char array defined as one in this
 * file. Records it.
 */
static void
srcworker_name_value(struct srcworker *w, enum src_kind kind,
    const char *buf, size_t len, size_t p)
{
	char		 name[256];
	const char	*value;
	size_t		 n = 0, start, vn;

	while (p < len && (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\n'))
		p++;
	if (p < len && buf[p] == '"') {
		while (p < len && buf[p] == '"') {
			start = ++p;
			while (p < len && buf[p] != '"' && buf[p] != '\n') {
				if (buf[p] == '\\')
					p++;
				p++;
			}
			if (p >= len || buf[p] != '"')
				return;
			if (n + (p - start) >= sizeof name)
				return;
			memcpy(name + n, buf + start, p - start);
			n += p - start;
			p++;
			while (p < len && (buf[p] == ' ' || buf[p] == '\t' ||
			    buf[p] == '\n'))
				p++;
		}
		srcworker_add(w, kind, "", name, n, "");
		return;
	}
	start = p;
	while (p < len && (buf[p] == '_' || (buf[p] >= 'a' && buf[p] <= 'z') ||
	    (buf[p] >= 'A' && buf[p] <= 'Z') || (buf[p] >= '0' && buf[p] <= '9')))
		p++;
	if (p == start || srcindex_is(buf + start, p - start, "KBUILD_MODNAME"))
		return;
	if ((vn = srcindex_define(buf, len, buf + start, p - start, &value)))
		srcworker_add(w, kind, "", value, vn, "");
}

/*
 * Read the initialiser whose '{' is just before p, recording the value of
 * each ".name =" member at most maxdepth braces deep. The end.
 */
static size_t
srcworker_initialiser(struct srcworker *w, enum src_kind kind, int maxdepth,
    const char *buf, size_t len, size_t p)
{
	int	depth = 1;
	size_t	q;

	while (p < len && depth > 0) {
		switch (buf[p]) {
		case '"':
		case '\'':
			p = srcindex_skip_quoted(buf, len, p);
			continue;
		case '/':
			if (p + 1 < len && buf[p + 1] == '*') {
				q = p + 2;
				while (q + 1 < len &&
				    (buf[q] != '*' || buf[q + 1] != '/'))
					q++;
				p = q + 2;
				continue;
			}
			if (p + 1 < len && buf[p + 1] == '/') {
				while (p < len && buf[p] != '\n')
					p++;
				continue;
			}
			break;
		case '{':
			depth++;
			break;
		case '}':
			depth--;
			break;
		case ';':
			return p;	/* not an initialiser after all */
		case '.':
			if (depth > maxdepth || p + 5 >= len ||
			    memcmp(buf + p, ".name", 5) != 0)
				break;
			q = p + 5;
			while (q < len && (buf[q] == ' ' || buf[q] == '\t'))
				q++;
			if (q < len && buf[q] == '=') {
				srcworker_name_value(w, kind, buf, len, q + 1);
				p = q + 1;
				continue;
			}
			break;
		}
		p++;
	}
	return p;
}

/* Run pattern which over the whole file, handling each match. */
static void
srcworker_run(struct srcworker *w, int which, const char *buf, size_t len)
{
	const PCRE2_SIZE	*ov;
	size_t			 off = 0, n;
	const char		*s;

	while (off < len &&
	    (ov = srcworker_match(w, which, buf, len, off)) != NULL) {
		off = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
		switch (which) {
		case RE_FUNC:
			srcworker_func(w, buf, ov);
			break;
		case RE_MISC:
			if (ov[2] != PCRE2_UNSET)
				srcworker_add(w, SRC_FUNC, "", buf + ov[2],
				    ov[3] - ov[2], "");
			else
				srcworker_add(w, SRC_FUNC, "", buf + ov[4],
				    ov[5] - ov[4], "_open");
			break;
		case RE_HEAD:
			s = buf + ov[2];
			n = ov[3] - ov[2];
			if (srcindex_is(s, n, "file_system_type"))
				off = srcworker_initialiser(w, SRC_FSTYPE, 1,
				    buf, len, off);
			else if (srcindex_is(s, n, "crypto_template"))
				/* one, or an array of them */
				off = srcworker_initialiser(w, SRC_CRYPTO, 2,
				    buf, len, off);
			else
				off = srcworker_initialiser(w, SRC_DRIVER, 3,
				    buf, len, off);
			break;
		case RE_CRYPTO:
			srcworker_add(w, SRC_CRYPTO, "", buf + ov[4],
			    ov[5] - ov[4], "");
			break;
		case RE_ASM:
			srcworker_add(w, SRC_FUNC, "", buf + ov[2],
			    ov[3] - ov[2], "");
			break;
		}
	}
}

/*
 * Does buf (NUL-terminated) contain the literal s? strstr(), as glibc's
 * is vectorised and its memmem() is not; a NUL inside a source file only
 * makes a prefilter miss what follows it.
 */
static int
srcindex_has(const char *buf, const char *s)
{
	return strstr(buf, s) != NULL;
}

/* Read file i into the worker's buffer; its length, or -1. */
static ssize_t
srcworker_read(struct srcworker *w, const struct srcfile *f)
{
	size_t	got = 0;
	ssize_t	r;
	int	fd;

	fd = openat(w->scan->rootfd, f->path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return -1;
	for (;;) {
		if (got + 1 >= w->cap) {
			w->cap = w->cap ? w->cap * 2 : 1 << 20;
			while (w->cap < f->size + 2)
				w->cap *= 2;
			w->buf = xrealloc(w->buf, w->cap);
		}
		r = read(fd, w->buf + got, w->cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	w->buf[got] = '\0';
	return (ssize_t)got;
}

/* Scan one file. */
static void
srcworker_file(struct srcworker *w, size_t i)
{
	const struct srcfile	*f = &w->scan->files[i];
	struct srcfrecs		*fr = &w->scan->frecs[i];
	const char		*buf;
	ssize_t			 r;
	size_t			 len, n = strlen(f->path);

	fr->worker = w->id;
	fr->begin = (uint32_t)w->nrecs;
	if ((r = srcworker_read(w, f)) <= 0) {
		fr->end = fr->begin;
		return;
	}
	buf = w->buf;
	len = (size_t)r;
	if (f->path[n - 1] == 'S')
		srcworker_run(w, RE_ASM, buf, len);
	else {
		srcworker_run(w, RE_FUNC, buf, len);
		if (srcindex_has(buf, "__setup") ||
		    srcindex_has(buf, "early_param") ||
		    srcindex_has(buf, "_ATTRIBUTE("))
			srcworker_run(w, RE_MISC, buf, len);
		if (srcindex_has(buf, "_driver") ||
		    srcindex_has(buf, "file_system_type") ||
		    srcindex_has(buf, "crypto_template"))
			srcworker_run(w, RE_HEAD, buf, len);
		if (srcindex_has(buf, ".cra_"))
			srcworker_run(w, RE_CRYPTO, buf, len);
	}
	fr->end = (uint32_t)w->nrecs;
}

/* A worker thread: take files in small batches until none are left. */
static void *
srcworker_main(void *arg)
{
	struct srcworker	*w = arg;
	struct srcscan		*sc = w->scan;
	size_t			 i, start, batch = 16;

	for (;;) {
		start = atomic_fetch_add(&sc->next, batch);
		if (start >= sc->nfiles)
			break;
		for (i = start; i < start + batch && i < sc->nfiles; i++)
			srcworker_file(w, i);
	}
	return NULL;
}

/* Set up a worker's match data and JIT stack. */
static void
srcworker_init(struct srcworker *w, struct srcscan *sc, uint32_t id)
{
	memset(w, 0, sizeof *w);
	w->scan = sc;
	w->id = id;
	w->md = pcre2_match_data_create(8, NULL);
	w->mc = pcre2_match_context_create(NULL);
	w->stack = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, NULL);
	if (w->md == NULL || w->mc == NULL || w->stack == NULL) {
		fprintf(stderr, "srcindex: out of memory\n");
		abort();
	}
	pcre2_jit_stack_assign(w->mc, NULL, w->stack);
	strbuf_init(&w->names);
}

/* Free a worker's state. */
static void
srcworker_free(struct srcworker *w)
{
	pcre2_match_data_free(w->md);
	pcre2_match_context_free(w->mc);
	pcre2_jit_stack_free(w->stack);
	free(w->buf);
	free(w->recs);
	strbuf_free(&w->names);
}

/*
 * Merge the workers' records, in file order, into si's tables; the file
 * id of each ref goes to *idsp (for the cache).
 */
static void
srcscan_merge(struct srcbuild *b, struct srcscan *sc, struct srcworker *ws)
{
	struct srclink		*links = NULL;
	size_t			 nlinks = 0, caplinks = 0, i, j, k, off;
	const struct srcworker	*w;
	const struct srcrec	*r;
	struct strmap_entry	*e;
	struct srcname		*s;
	uint32_t		*ids, l, c;

	for (i = 0; i < sc->nfiles; i++) {
		w = &ws[sc->frecs[i].worker];
		for (j = sc->frecs[i].begin; j < sc->frecs[i].end; j++) {
			r = &w->recs[j];
			s = srctable_get(&b->tables[r->kind],
			    w->names.s + r->name, r->len, b->arena);
			if (s->head != UINT32_MAX &&
			    links[s->head].file == (uint32_t)i)
				continue;	/* again in the same file */
			XGROW(links, caplinks, nlinks + 1, 65536);
			links[nlinks].file = (uint32_t)i;
			links[nlinks].next = s->head;
			s->head = (uint32_t)nlinks++;
			s->count++;
		}
	}
	b->nrefs = nlinks;
	ids = xmalloc((nlinks ? nlinks : 1) * sizeof *ids);
	off = 0;
	for (k = 0; k < SRC_NKINDS; k++) {
		for (i = 0; (e = strmap_next(&b->tables[k], &i)) != NULL;) {
			s = e->value;
			s->off = (uint32_t)off;
			/* The chain runs backwards through the files. */
			for (l = s->head, c = s->count; l != UINT32_MAX;
			    l = links[l].next) {
				c--;
				ids[off + c] = links[l].file;
			}
			off += s->count;
		}
	}
	free(links);
	b->ids = ids;
}

/* Scan every file with jobs threads into si; 0, or -1 with *cause. */
static int
srcindex_scan(struct srcbuild *b, const struct srcwalk *wk, int rootfd,
    int jobs, char **cause)
{
	struct srcscan		 sc;
	struct srcworker	*ws;
	int			 i, k, started;

	memset(&sc, 0, sizeof sc);
	if (srcscan_compile(&sc, cause) != 0)
		return -1;
	sc.files = wk->files;
	sc.nfiles = wk->nfiles;
	sc.rootfd = rootfd;
	atomic_init(&sc.next, 0);
	sc.frecs = xcalloc(wk->nfiles ? wk->nfiles : 1, sizeof *sc.frecs);
	if (jobs <= 0) {
		jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
		if (jobs <= 0)
			jobs = 1;
	}
	if (jobs > 64)
		jobs = 64;
	ws = xcalloc((size_t)jobs, sizeof *ws);
	for (i = 0; i < jobs; i++)
		srcworker_init(&ws[i], &sc, (uint32_t)i);
	started = 1;
	for (i = 1; i < jobs; i++) {
		if (pthread_create(&ws[i].thread, NULL, srcworker_main,
		    &ws[i]) != 0)
			break;
		started++;
	}
	srcworker_main(&ws[0]);
	for (i = 1; i < started; i++)
		pthread_join(ws[i].thread, NULL);

	srcscan_merge(b, &sc, ws);

	for (i = 0; i < jobs; i++)
		srcworker_free(&ws[i]);
	free(ws);
	free(sc.frecs);
	for (k = 0; k < RE_N; k++)
		pcre2_code_free(sc.re[k]);
	return 0;
}

/* ---------------------------------------------------------------- public */

/* Index srctree, or load the index from a valid cache_path. */
struct srcindex *
srcindex_build(const char *srctree, const char *cache_path, int jobs,
    char **cause)
{
	struct srcindex	*si;
	struct srcbuild	 b;
	struct srcwalk	 wk;
	struct arena	 arena;
	uint64_t	 identity;
	size_t		 k;
	int		 rootfd, rc;

	si = xcalloc(1, sizeof *si);
	arena_init(&arena);
	memset(&wk, 0, sizeof wk);
	wk.arena = &arena;
	strbuf_init(&wk.dir);
	rc = srcwalk_run(&wk, srctree, &rootfd, cause);
	strbuf_free(&wk.dir);
	if (rc != 0) {
		arena_free(&arena);
		free(si);
		return NULL;
	}
	identity = srcwalk_identity(&wk);

	if (cache_path != NULL &&
	    srccache_load(si, cache_path, identity, wk.nfiles) == 0) {
		free(wk.files);
		arena_free(&arena);
		close(rootfd);
		return si;
	}

	memset(&b, 0, sizeof b);
	b.arena = &arena;
	for (k = 0; k < SRC_NKINDS; k++)
		strmap_init(&b.tables[k]);
	rc = srcindex_scan(&b, &wk, rootfd, jobs, cause);
	close(rootfd);
	if (rc == 0 && srcblob_pack(si, &b, wk.files, wk.nfiles) != 0) {
		*cause = xstrdup("srcindex: the packed index does not check "
		    "(a bug)");
		rc = -1;
	}
	for (k = 0; k < SRC_NKINDS; k++)
		strmap_free(&b.tables[k]);
	free(b.ids);
	free(wk.files);
	arena_free(&arena);
	if (rc != 0) {
		free(si);
		return NULL;
	}
	if (cache_path != NULL)
		srccache_save(si, cache_path, identity);
	return si;
}
