/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.c - an index of the kernel's Makefiles and Kbuild files (see
 * kbuild.h): which CONFIG_ symbols control each object and each module.
 *
 * Each file is read by a small evaluator of the part of GNU make that
 * Kbuild files use. Every word of a variable's value carries the symbols
 * that must be set for the word to be there ("conds"): obj-$(CONFIG_FOO)
 * += foo.o gives the word foo.o with conds [FOO] in the variable "obj-",
 * and words assigned inside "ifdef CONFIG_BAR" get BAR too. Both branches
 * of every conditional are read:
 *
 *  - positive tests give conds: ifdef CONFIG_X, ifeq ($(CONFIG_X),y) (or
 *    m, or a value), ifneq ($(CONFIG_X),), ifeq ($(CONFIG_A)$(CONFIG_B),yy),
 *    ifneq ($(var),) where var has one conditional word;
 *  - negative ones (ifndef, ifeq ($(CONFIG_X),), ifneq ($(CONFIG_X),y),
 *    every "else") and ones we can't evaluate ($(shell), $(call), ORs of
 *    several symbols) add no conds but mark the words "unknown", which only
 *    clears kbuild_obj.always;
 *  - tests on what make knows without a .config (ifeq ($(SRCARCH),x86),
 *    undefined variables, KBUILD_EXTMOD) are evaluated, and dead branches
 *    skipped; $(ARCH) (x86, x86_64 or i386) is unknown.
 *
 * A conditional "=" or ":=" (mmu-$(CONFIG_MMU) := memory.o after mmu-y :=
 * nommu.o) can't remove the words it would replace: they become unknown.
 * foo-$(CONFIG_A)$(CONFIG_B) (an OR) is read as foo-y, unknown, no conds.
 *
 * Variables are expanded when assigned (= and := alike). A reference to a
 * variable with several conditional values ("BITS := 32" under ifeq
 * ($(CONFIG_X86_32),y), "BITS := 64" in the else) expands to each of them,
 * so foo_$(BITS).o gives foo_32.o [X86_32] and foo_64.o. $(CONFIG_X)
 * expands to "y" with conds [X] marked "could be m". Functions handled:
 * addprefix addsuffix basename dir filter filter-out findstring firstword
 * foreach if lastword notdir patsubst sort strip subst wildcard, and
 * $(v:a=b); anything else ($(call), $(shell), $(eval), ...) expands to
 * nothing and counts the line as skipped (when it assigns obj-, lib-,
 * subdir- or a composite).
 *
 * The walk: the top Makefile (which includes arch/$(SRCARCH)/Makefile) is
 * read for the variables it exports (ARCH_CORE, ARCH_LIB, ARCH_DRIVERS
 * from core-y, libs-y and drivers-y, BITS, ...; its unknown conditions
 * are ignored, as it is full of them and only these variables matter),
 * then the top Kbuild file is read as the root directory and every
 * obj-*, subdir-* directory is descended, breadth first, with the conds
 * accumulated outermost first. A directory named twice before it is read
 * (obj-$(CONFIG_USB) += usb/, obj-$(CONFIG_PCI) += usb/) keeps the conds
 * common to both, the rest unknown; named after it is read, it keeps its
 * first conds. Then, for coverage, the same is done for every other
 * architecture: directories already read are not read again; objects
 * found only there have always == false, and a module name found under
 * $(SRCARCH) keeps only its $(SRCARCH) objects. Directories no
 * architecture reaches (tools/, scripts/, Documentation/) are not read.
 *
 * Objects: each word foo.o of obj-* or lib-* is a composite when foo-y,
 * foo-objs, foo-m or foo-$(CONFIG_X) has parts (nested composites are
 * followed), its leaves get the composite's conds plus their own. A word
 * of obj-m or obj-$(CONFIG_X) (X could be m) names a potential module,
 * "foo" with '-' made '_'; obj-y, obj-$(subst m,y,...), obj-$(X:m=y) and
 * lib-* words are built in only. A leaf's source is foo.c or foo.S if it
 * exists (.c assumed when there is no tree, as with kbuild_parse_text on
 * kbuild_new_empty). Conds repeated are kept once, at their last place.
 * An object listed under different conds (obj-$(CONFIG_A) += x.o and
 * obj-$(CONFIG_B) += x.o) has one record for each; kbuild_source gives
 * the first. Words from $(CONFIG_NAME) values (a string: obj-y +=
 * $(CONFIG_BUILTIN_DTB).dtb.o) are dropped, counted as skipped.
 *
 * kbuild_parse_text reads a text as directory dir's Makefile; a directory
 * it names is recorded with its conds, so a later kbuild_parse_text of
 * that directory starts from them. It returns 0, or -1 for bad arguments.
 *
 * kbuild_scan_cached records, during the scan, everything it looks at in
 * the tree (struct kbdeps: files read, files looked for, the arch
 * directory listed, $(wildcard)s) and saves the objects in scan order with
 * those dependencies; a later call checks them (a few thousand stats) and
 * replays the objects through obj_insert, the scan's own insertion, so
 * every lookup answers as after a scan (see "cache" below).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "kbuild.h"
#include "../lib/util.h"
#include "../lib/cachefile.h"
#include "../lib/strmap.h"

#define KB_MAX_WORDS	4096	/* words one expansion may give */
#define KB_MAX_DEPTH	48	/* nested references and functions */
#define KB_MAX_IFS	64	/* nested conditionals */
#define KB_MAX_CONDS	32	/* conds kept per word (the innermost) */
#define KB_MAX_INCLUDE	8	/* nested includes */
#define KB_MAX_NEST	8	/* nested composite objects */
#define KB_MAX_FILE	(8 << 20)
#define KB_BUDGET	2000000L /* expansion steps per file */

/* ------------------------------------------------------------ dependencies */

/*
 * What a scan for kbuild_scan_cached looked at in the tree, so that a
 * cache of its result can be checked: a file read ('R': its mtime, size
 * and inode), a test of whether a path is a regular file ('F': the
 * answer), a directory listed ('D': its mtime and inode) and a
 * $(wildcard) ('G': the pattern from the tree top and the matches).
 */
struct kbdep {
	const char	*path;		/* from the tree top */
	char		 kind;		/* 'R', 'F', 'D' or 'G' */
	bool		 ok;		/* F: a regular file */
	int64_t		 mtime;		/* R, D: nanoseconds */
	int64_t		 size;		/* R */
	uint64_t	 ino;		/* R, D */
	const char	*list;		/* G: the matches, each NUL-ended */
	size_t		 listlen;
};

struct kbdeps {
	struct arena	 a;
	struct strmap	 seen;		/* kind + path -> struct kbdep */
	struct kbdep	**v;
	size_t		 n, cap;
	bool		 bad;		/* something not recordable: no cache */
};

/* A new, empty record of dependencies. */
static struct kbdeps *
deps_new(void)
{
	struct kbdeps	*r = xcalloc(1, sizeof *r);

	arena_init(&r->a);
	return r;
}

/* Free a record of dependencies. */
static void
deps_free(struct kbdeps *r)
{
	if (r == NULL)
		return;
	strmap_free(&r->seen);
	free(r->v);
	arena_free(&r->a);
	free(r);
}

/* A stat's mtime in nanoseconds. */
static int64_t
deps_mtime(const struct stat *sb)
{
	return (int64_t)sb->st_mtim.tv_sec * 1000000000 +
	    (int64_t)sb->st_mtim.tv_nsec;
}

/*
 * The dependency of kind on path, new (zeroed but for path and kind) or
 * NULL if already recorded.
 */
static struct kbdep *
deps_add(struct kbdeps *r, char kind, const char *path)
{
	struct kbdep	*d;
	size_t		 l = strlen(path);
	char		*key;

	key = arena_alloc(&r->a, l + 2);
	key[0] = kind;
	memcpy(key + 1, path, l + 1);
	if (strmap_get(&r->seen, key, l + 1) != NULL)
		return NULL;
	d = arena_alloc(&r->a, sizeof *d);
	d->path = key + 1;
	d->kind = kind;
	strmap_set(&r->seen, key, l + 1, d);
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 4096;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = d;
	return d;
}

/* Record whether path is a regular file. */
static void
deps_file(struct kbdeps *r, const char *path, bool ok)
{
	struct kbdep	*d;

	if (r != NULL && (d = deps_add(r, 'F', path)) != NULL)
		d->ok = ok;
}

/* Record a file read, or a directory listed (kind 'R' or 'D'). */
static void
deps_stat(struct kbdeps *r, char kind, const char *path,
    const struct stat *sb)
{
	struct kbdep	*d;

	if (r == NULL || (d = deps_add(r, kind, path)) == NULL)
		return;
	d->mtime = deps_mtime(sb);
	d->size = kind == 'R' ? (int64_t)sb->st_size : 0;
	d->ino = (uint64_t)sb->st_ino;
}

/* Record a $(wildcard) pattern and its matches (n of them). */
static void
deps_glob(struct kbdeps *r, const char *pattern, char **matches, size_t n)
{
	struct kbdep	*d;
	size_t		 i, len = 0, l;
	char		*s;

	if (r == NULL || (d = deps_add(r, 'G', pattern)) == NULL)
		return;
	for (i = 0; i < n; i++)
		len += strlen(matches[i]) + 1;
	s = arena_alloc(&r->a, len + 1);
	d->list = s;
	d->listlen = len;
	for (i = 0; i < n; i++) {
		l = strlen(matches[i]) + 1;
		memcpy(s, matches[i], l);
		s += l;
	}
}

/* ------------------------------------------------------------ the index */

/* An object with its place in the per-path chain. */
struct kobj {
	struct kbuild_obj	 pub;
	struct kobj		*next;	/* same path, another module */
	int			 group;
	char			 src;	/* first of its path: its source is
					   .c ('c'), .S ('S') or none (0) */
};

/* A list of objects (of a module, or of a symbol). */
struct olist {
	const struct kbuild_obj	**v;
	size_t			  n, cap;
	int			  group;
};

/* A directory to read, with the conds of the Makefile line naming it. */
struct kdir {
	const char	 *path;		/* "" for the top */
	const char	**conds;
	int		  nconds;
	bool		  unk;		/* reached under an unknown condition */
	bool		  modonly;	/* reached by obj-m += dir/ only */
	bool		  parsed;
	int		  group;
};

struct kbuild {
	struct arena		 arena;
	struct intern		 in;
	char			*srctree;
	int			 treefd;	/* -1 without a tree */

	struct strmap		 objpaths;	/* path -> struct kobj chain */
	struct strmap		 sources;	/* "fs/ext4/inode.c" -> kobj */
	struct strmap		 modules;	/* name -> struct olist */
	struct strmap		 syms;		/* last cond -> struct olist */
	struct strmap		 dirs;		/* path -> struct kdir */

	struct kobj		**objv;		/* every object, scan order */
	size_t			  nobjv, capobjv;
	struct olist		**lists;	/* every olist, to free */
	size_t			  nlists, caplists;
	struct kdir		**queue;
	size_t			  nqueue, capqueue, qhead;

	struct strmap		**gvars;	/* per group: exported vars */
	const char		**garch;	/* per group: SRCARCH */
	int			  ngroups;

	struct kbdeps		 *rec;		/* kbuild_scan_cached: what the
						   scan looks at, or NULL */
	struct kbuild_stats	  st;
};

/* ------------------------------------------------------------ words */

enum kind { K_PLAIN, K_Y, K_M, K_MAYBE, K_OBJS };

/* A word of a value with the conditions for it to be there. */
struct cw {
	const char	 *s;
	const char	**conds;	/* interned, outermost first */
	int		  nconds;
	unsigned char	  unk;		/* also a condition we can't write */
	unsigned char	  cfg;		/* a $(CONFIG_X) value: y or m */
	unsigned char	  kind;		/* enum kind, of assigned words */
};

struct cwv {
	struct cw	*v;
	size_t		 n, cap;
};

/* A variable of the Makefile being read. */
struct var {
	const char	*name;
	struct cwv	 val;
	bool		 exported;
	bool		 fixed;		/* assignments ignored (srctree, ...) */
	bool		 opaque;	/* value unknown (ARCH) */
	bool		 broken;	/* assigned from something we skipped */
};

/* A conditional being read: the conds of the current branch. */
struct frame {
	const char	**conds;
	int		  nconds;
	bool		  unk, dead;
	bool		  seen_true;	/* an earlier branch was surely taken */
	bool		  all_false;	/* every earlier branch surely not */
};

/* The state of reading one Makefile (and what it includes). */
struct parse {
	struct kbuild		*kb;
	struct arena		 a;		/* scratch, freed after the file */
	struct strmap		 vars;		/* name -> struct var */
	const struct strmap	*inherit;	/* exported by the top Makefile */
	const char		*dir;
	bool			 top;		/* the top Makefile */
	struct frame		 fr[KB_MAX_IFS];
	int			 nfr, base, over;
	int			 depth, incdepth;
	const char		*file;		/* for KBUILD_DEBUG */
	int			 lineno;
	long			 budget;
	bool			 broken;	/* this line used something skipped */
	bool			 opaque;	/* ... or a value we can't know */
};

/* The result of evaluating a conditional. */
struct cres {
	const char	**conds;
	int		  nconds;
	bool		  unk, dead, deftrue;
};

static void	expand(struct parse *, const char *, size_t, struct cwv *);
static void	parse_text(struct parse *, const char *, size_t);

/*
 * Count a line we don't understand (-DKBUILD_DEBUG: print where). In the
 * top Makefile, read only for a few variables, only assignments of those
 * count (always: their caller passes always).
 */
static void
skip_count(struct parse *p, bool always)
{
	if (p->top && !always)
		return;
	p->kb->st.skipped_lines++;
#ifdef KBUILD_DEBUG
	fprintf(stderr, "kbuild: skipped %s:%d\n", p->file ? p->file : "?",
	    p->lineno);
#endif
}

/* Count a line we don't understand. */
static void
skip_line(struct parse *p)
{
	skip_count(p, false);
}

/* Append a zeroed word to v. */
static struct cw *
cwv_add(struct arena *a, struct cwv *v)
{
	struct cw	*nv;
	size_t		 ncap;

	if (v->n == v->cap) {
		ncap = v->cap ? v->cap * 2 : 8;
		nv = arena_alloc(a, ncap * sizeof *nv);
		if (v->n)
			memcpy(nv, v->v, v->n * sizeof *nv);
		v->v = nv;
		v->cap = ncap;
	}
	nv = &v->v[v->n++];
	memset(nv, 0, sizeof *nv);
	return nv;
}

/*
 * Conds x followed by y; a symbol of y already in x moves to the end. At
 * most KB_MAX_CONDS are kept, the innermost; dropping some sets *unk.
 */
static const char **
conds_cat(struct arena *a, const char **x, int nx, const char **y, int ny,
    int *n, unsigned char *unk)
{
	const char	**v;
	int		  i, j, k, m;

	if (ny == 0) {
		*n = nx;
		return x;
	}
	if (nx == 0) {
		*n = ny;
		return y;
	}
	v = arena_alloc(a, (size_t)(nx + ny) * sizeof *v);
	memcpy(v, x, (size_t)nx * sizeof *v);
	m = nx;
	for (j = 0; j < ny; j++) {
		for (i = 0; i < m; i++) {
			if (v[i] == y[j])
				break;
		}
		if (i < m) {
			for (k = i; k + 1 < m; k++)
				v[k] = v[k + 1];
			m--;
		}
		v[m++] = y[j];
	}
	if (m > KB_MAX_CONDS) {
		v += m - KB_MAX_CONDS;
		m = KB_MAX_CONDS;
		*unk = 1;
	}
	*n = m;
	return v;
}

/* Whether s[0..len) is a symbol name (CONFIG_ stripped). */
static bool
sym_name(const char *s, size_t len)
{
	size_t	i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	}
	return true;
}

/* Whether s[0..len) ends with suffix. */
static bool
ends_with(const char *s, size_t len, const char *suffix)
{
	size_t	n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Index just past the reference at s[i] ("$(" or "${"), or SIZE_MAX. */
static size_t
ref_end(const char *s, size_t i, size_t len)
{
	char	open = s[i + 1], close = open == '(' ? ')' : '}';
	size_t	j;
	int	depth = 0;

	for (j = i + 1; j < len; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && --depth == 0)
			return j + 1;
	}
	return SIZE_MAX;
}

/* Whether s[i] starts a "$(" or "${" reference. */
static bool
is_ref(const char *s, size_t i, size_t len)
{
	return s[i] == '$' && i + 1 < len && (s[i + 1] == '(' ||
	    s[i + 1] == '{');
}

/* Trim whitespace from both ends of *s, *len. */
static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* ------------------------------------------------------------ paths */

/*
 * Normalise a path from the tree top ("./a/../b/" -> "b", "" for the top)
 * into the arena; NULL if it leaves the tree or is absolute elsewhere.
 */
static char *
path_norm(struct arena *a, const struct kbuild *kb, const char *s,
    size_t len)
{
	size_t	*starts, *lens, n = 0, i, j, tl, out = 0;
	char	*r;

	if (len > 0 && s[0] == '/') {
		if (kb->srctree == NULL)
			return NULL;
		tl = strlen(kb->srctree);
		if (len < tl || memcmp(s, kb->srctree, tl) != 0 ||
		    (len > tl && s[tl] != '/'))
			return NULL;
		s += tl;
		len -= tl;
	}
	starts = arena_alloc(a, (len / 2 + 1) * sizeof *starts);
	lens = arena_alloc(a, (len / 2 + 1) * sizeof *lens);
	for (i = 0; i < len; i = j + 1) {
		for (j = i; j < len && s[j] != '/'; j++)
			;
		if (j == i || (j - i == 1 && s[i] == '.'))
			continue;
		if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') {
			if (n == 0)
				return NULL;
			n--;
			continue;
		}
		starts[n] = i;
		lens[n++] = j - i;
	}
	r = arena_alloc(a, len + 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			r[out++] = '/';
		memcpy(r + out, s + starts[i], lens[i]);
		out += lens[i];
	}
	r[out] = '\0';
	return r;
}

/* dir + "/" + rel, normalised (NULL if it leaves the tree). */
static char *
path_join(struct arena *a, const struct kbuild *kb, const char *dir,
    const char *rel, size_t rlen)
{
	size_t	dl = strlen(dir);
	char	*t;

	if ((rlen > 0 && rel[0] == '/') || dl == 0)
		return path_norm(a, kb, rel, rlen);
	t = arena_alloc(a, dl + rlen + 2);
	memcpy(t, dir, dl);
	t[dl] = '/';
	memcpy(t + dl + 1, rel, rlen);
	return path_norm(a, kb, t, dl + 1 + rlen);
}

/* Whether path (from the tree top) is a regular file. */
static bool
tree_file(const struct kbuild *kb, const char *path)
{
	struct stat	sb;
	bool		ok;

	if (kb->treefd < 0 || path[0] == '\0')
		return false;
	ok = fstatat(kb->treefd, path, &sb, 0) == 0 && S_ISREG(sb.st_mode);
	deps_file(kb->rec, path, ok);
	return ok;
}

/* Read a file of the tree into a NUL-terminated buffer, or NULL. */
static char *
tree_read(const struct kbuild *kb, const char *path, size_t *lenp)
{
	struct stat	 sb;
	char		*buf;
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd;

	if (kb->treefd < 0 || path[0] == '\0')
		return NULL;
	fd = openat(kb->treefd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (kb->rec != NULL) {
			if (fstatat(kb->treefd, path, &sb, 0) == 0 &&
			    S_ISREG(sb.st_mode))
				kb->rec->bad = true;	/* unreadable */
			else
				deps_file(kb->rec, path, false);
		}
		return NULL;
	}
	if (fstat(fd, &sb) != 0) {
		if (kb->rec != NULL)
			kb->rec->bad = true;
		close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode))
		deps_file(kb->rec, path, false);
	else
		deps_stat(kb->rec, 'R', path, &sb);
	if (!S_ISREG(sb.st_mode) || sb.st_size > KB_MAX_FILE) {
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	while (got < (size_t)sb.st_size) {
		r = read(fd, buf + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*lenp = got;
	return buf;
}

/* ------------------------------------------------------------ variables */

/* A variable of this Makefile (created, from the inherited one, if new). */
static struct var *
var_local(struct parse *p, const char *name, size_t len)
{
	struct var		*v, *iv;

	if ((v = strmap_get(&p->vars, name, len)) != NULL)
		return v;
	v = arena_alloc(&p->a, sizeof *v);
	v->name = arena_strndup(&p->a, name, len);
	if (p->inherit != NULL &&
	    (iv = strmap_get(p->inherit, name, len)) != NULL) {
		v->val.n = v->val.cap = iv->val.n;
		v->val.v = arena_alloc(&p->a, (iv->val.n + 1) *
		    sizeof *v->val.v);
		if (iv->val.n > 0)
			memcpy(v->val.v, iv->val.v, iv->val.n *
			    sizeof *v->val.v);
		v->exported = iv->exported;
		v->fixed = iv->fixed;
		v->opaque = iv->opaque;
		v->broken = iv->broken;
	}
	strmap_set(&p->vars, v->name, len, v);
	return v;
}

/* A variable of this Makefile or inherited, or NULL. */
static const struct var *
var_find(const struct parse *p, const char *name, size_t len)
{
	const struct var	*v;

	if ((v = strmap_get(&p->vars, name, len)) != NULL)
		return v;
	return p->inherit != NULL ? strmap_get(p->inherit, name, len) : NULL;
}

/* Set a fixed variable to one word (or to nothing, or to unknown). */
static void
var_fix(struct parse *p, const char *name, const char *value, bool opaque)
{
	struct var	*v = var_local(p, name, strlen(name));
	struct cw	*w;

	v->val.n = 0;
	v->val.cap = 0;
	v->val.v = NULL;
	if (value != NULL && value[0] != '\0') {
		w = cwv_add(&p->a, &v->val);
		w->s = value;
	}
	v->fixed = true;
	v->opaque = opaque;
}

/*
 * Append the words of variable name to out: $(CONFIG_X) is "y" with conds
 * [X]; name-y, name-m and name-objs read the words of that kind of the
 * variable "name-". Undefined is empty; unknown marks the line broken.
 */
static void
var_words(struct parse *p, const char *name, size_t len, struct cwv *out)
{
	const struct var	*v;
	const char		*sym;
	struct cw		*w;
	size_t			 i, klen = 0;
	int			 want = 0;	/* 1 -y, 2 -m, 3 -objs */

	if (len > 7 && memcmp(name, "CONFIG_", 7) == 0 &&
	    sym_name(name + 7, len - 7)) {
		sym = intern_str(&p->kb->in, name + 7, len - 7);
		w = cwv_add(&p->a, out);
		w->s = "y";
		w->cfg = 1;
		w->conds = arena_alloc(&p->a, sizeof *w->conds);
		w->conds[0] = sym;
		w->nconds = 1;
		return;
	}
	if (ends_with(name, len, "-y")) {
		want = 1;
		klen = len - 1;
	} else if (ends_with(name, len, "-m")) {
		want = 2;
		klen = len - 1;
	} else if (ends_with(name, len, "-objs")) {
		want = 3;
		klen = len - 4;
	}
	v = want ? var_find(p, name, klen) : NULL;
	if (v == NULL) {
		v = var_find(p, name, len);
		want = 0;
	}
	if (v == NULL)
		return;
	if (v->opaque)
		p->opaque = true;
	if (v->broken)
		p->broken = true;
	for (i = 0; i < v->val.n; i++) {
		const struct cw	*x = &v->val.v[i];

		if (want == 1 && x->kind != K_Y && x->kind != K_MAYBE)
			continue;
		if (want == 2 && x->kind != K_M && x->kind != K_MAYBE)
			continue;
		if (want == 3 && x->kind != K_OBJS)
			continue;
		if (out->n >= KB_MAX_WORDS) {
			p->broken = true;
			return;
		}
		w = cwv_add(&p->a, out);
		*w = *x;
		w->kind = 0;
	}
}

/* ------------------------------------------------------------ expansion */

/* Append a copy of s[0..len) to out with the attributes of like. */
static void
emit(struct parse *p, struct cwv *out, const char *s, size_t len,
    const struct cw *like)
{
	struct cw	*w;

	if (len == 0)
		return;
	if (out->n >= KB_MAX_WORDS || --p->budget < 0) {
		p->broken = true;
		return;
	}
	w = cwv_add(&p->a, out);
	if (like != NULL)
		*w = *like;
	w->kind = 0;
	w->s = arena_strndup(&p->a, s, len);
}

/* Append the whitespace-separated words of s as emit() does. */
static void
emit_split(struct parse *p, struct cwv *out, const char *s,
    const struct cw *like)
{
	size_t	i = 0, j;

	while (s[i] != '\0') {
		while (isspace((unsigned char)s[i]))
			i++;
		for (j = i; s[j] != '\0' && !isspace((unsigned char)s[j]); j++)
			;
		emit(p, out, s + i, j - i, like);
		i = j;
	}
}

/* A scalar function argument: the words joined, their conds merged. */
struct scal {
	const char	 *s;
	const char	**conds;
	int		  nconds;
	unsigned char	  unk, cfg;
};

/* Expand s into one scalar. */
static void
scalar(struct parse *p, const char *s, size_t len, struct scal *sc)
{
	struct cwv	 v = { 0 };
	struct strbuf	 b;
	size_t		 i;

	memset(sc, 0, sizeof *sc);
	expand(p, s, len, &v);
	strbuf_init(&b);
	for (i = 0; i < v.n; i++) {
		if (i > 0)
			strbuf_addc(&b, ' ');
		strbuf_adds(&b, v.v[i].s);
		sc->conds = conds_cat(&p->a, sc->conds, sc->nconds,
		    v.v[i].conds, v.v[i].nconds, &sc->nconds, &sc->unk);
		sc->unk |= v.v[i].unk;
		sc->cfg |= v.v[i].cfg;
	}
	sc->s = arena_strndup(&p->a, b.s ? b.s : "", b.len);
	strbuf_free(&b);
}

/* Split s at commas outside parentheses into at most max arguments. */
static int
split_args(const char *s, size_t len, int max, const char **a, size_t *al)
{
	size_t	i, e, start = 0;
	int	n = 0, depth = 0;

	for (i = 0; i < len; i++) {
		if (is_ref(s, i, len)) {
			if ((e = ref_end(s, i, len)) == SIZE_MAX)
				break;
			i = e - 1;
		} else if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth > 0)
			depth--;
		else if (s[i] == ',' && depth == 0 && n < max - 1) {
			a[n] = s + start;
			al[n++] = i - start;
			start = i + 1;
		}
	}
	a[n] = s + start;
	al[n] = len - start;
	return n + 1;
}

/* Whether word w matches make pattern pat; the stem in *stem, *slen. */
static bool
pat_match(const char *pat, const char *w, const char **stem, size_t *slen)
{
	const char	*pc = strchr(pat, '%');
	size_t		 pre, suf, wl = strlen(w);

	if (pc == NULL) {
		*stem = w;
		*slen = 0;
		return strcmp(pat, w) == 0;
	}
	pre = (size_t)(pc - pat);
	suf = strlen(pc + 1);
	if (wl < pre + suf || strncmp(w, pat, pre) != 0 ||
	    strcmp(w + wl - suf, pc + 1) != 0)
		return false;
	*stem = w + pre;
	*slen = wl - pre - suf;
	return true;
}

/* The replacement rep with its first '%' made the stem. */
static char *
pat_apply(struct arena *a, const char *rep, const char *stem, size_t slen)
{
	const char	*pc = strchr(rep, '%');
	size_t		 rl = strlen(rep), pre;
	char		*r;

	if (pc == NULL)
		return arena_strdup(a, rep);
	pre = (size_t)(pc - rep);
	r = arena_alloc(a, rl + slen);
	memcpy(r, rep, pre);
	memcpy(r + pre, stem, slen);
	memcpy(r + pre + slen, pc + 1, rl - pre - 1);
	return r;
}

/* patsubst of every word of in into out; from "m" to y ends "could be m". */
static void
do_patsubst(struct parse *p, const char *pat, const char *rep,
    const struct cwv *in, struct cwv *out)
{
	const char	*stem;
	size_t		 i, slen;
	struct cw	 like;

	for (i = 0; i < in->n; i++) {
		like = in->v[i];
		if (like.cfg && strcmp(pat, "m") == 0)
			like.cfg = 0;
		if (pat_match(pat, in->v[i].s, &stem, &slen))
			emit_split(p, out, pat_apply(&p->a, rep, stem, slen),
			    &like);
		else
			emit(p, out, like.s, strlen(like.s), &like);
	}
}

/* $(subst from,to,text) */
static void
fn_subst(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3], *hit, *q;
	size_t		 al[3], i, fl;
	struct scal	 from, to;
	struct cwv	 t = { 0 };
	struct strbuf	 b;
	struct cw	 like;

	if (split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	scalar(p, a[0], al[0], &from);
	scalar(p, a[1], al[1], &to);
	expand(p, a[2], al[2], &t);
	fl = strlen(from.s);
	strbuf_init(&b);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (like.cfg && strcmp(from.s, "m") == 0)
			like.cfg = 0;
		if (fl == 0 || strstr(like.s, from.s) == NULL) {
			emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		strbuf_reset(&b);
		for (q = like.s; (hit = strstr(q, from.s)) != NULL;
		    q = hit + fl) {
			strbuf_add(&b, q, (size_t)(hit - q));
			strbuf_adds(&b, to.s);
		}
		strbuf_adds(&b, q);
		like.conds = conds_cat(&p->a, like.conds, like.nconds,
		    to.conds, to.nconds, &like.nconds, &like.unk);
		like.unk |= to.unk;
		like.cfg = like.cfg ? strcmp(from.s, "m") != 0 : to.cfg;
		emit_split(p, out, b.s, &like);
	}
	strbuf_free(&b);
}

/* $(patsubst pattern,replacement,text) */
static void
fn_patsubst(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3];
	size_t		 al[3];
	struct scal	 pat, rep;
	struct cwv	 t = { 0 };

	if (split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	scalar(p, a[0], al[0], &pat);
	scalar(p, a[1], al[1], &rep);
	expand(p, a[2], al[2], &t);
	do_patsubst(p, pat.s, rep.s, &t, out);
}

/* $(addprefix p,names) and $(addsuffix s,names) */
static void
fn_addfix(struct parse *p, const char *s, size_t len, struct cwv *out,
    bool prefix)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct scal	 fix;
	struct cwv	 t = { 0 };
	struct cw	 like;
	char		*w;

	if (split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	scalar(p, a[0], al[0], &fix);
	expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		like.conds = conds_cat(&p->a, fix.conds, fix.nconds,
		    like.conds, like.nconds, &like.nconds, &like.unk);
		like.unk |= fix.unk;
		like.cfg = 0;
		w = arena_alloc(&p->a, strlen(fix.s) + strlen(like.s) + 1);
		strcpy(w, prefix ? fix.s : like.s);
		strcat(w, prefix ? like.s : fix.s);
		emit_split(p, out, w, &like);
	}
}

/* $(addprefix prefix,names) */
static void
fn_addprefix(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_addfix(p, s, len, out, true);
}

/* $(addsuffix suffix,names) */
static void
fn_addsuffix(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_addfix(p, s, len, out, false);
}

/* $(strip text) */
static void
fn_strip(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	expand(p, s, len, out);
}

/* Order words by text. */
static int
cw_cmp(const void *x, const void *y)
{
	return strcmp(((const struct cw *)x)->s, ((const struct cw *)y)->s);
}

/* $(sort list): sorted, duplicates removed. */
static void
fn_sort(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };
	size_t		i;

	expand(p, s, len, &t);
	if (t.n > 1)
		qsort(t.v, t.n, sizeof *t.v, cw_cmp);
	for (i = 0; i < t.n; i++) {
		if (i == 0 || strcmp(t.v[i].s, t.v[i - 1].s) != 0)
			emit(p, out, t.v[i].s, strlen(t.v[i].s), &t.v[i]);
	}
}

/* $(notdir), $(dir), $(basename) of each word (how: 'n', 'd', 'b'). */
static void
fn_pathpart(struct parse *p, const char *s, size_t len, struct cwv *out,
    int how)
{
	struct cwv	 t = { 0 };
	const char	*w, *sl, *dot;
	size_t		 i;

	expand(p, s, len, &t);
	for (i = 0; i < t.n; i++) {
		w = t.v[i].s;
		sl = strrchr(w, '/');
		if (how == 'n')
			emit(p, out, sl ? sl + 1 : w, strlen(sl ? sl + 1 : w),
			    &t.v[i]);
		else if (how == 'd') {
			if (sl != NULL)
				emit(p, out, w, (size_t)(sl - w) + 1, &t.v[i]);
			else
				emit(p, out, "./", 2, &t.v[i]);
		} else {
			dot = strrchr(w, '.');
			if (dot != NULL && (sl == NULL || dot > sl))
				emit(p, out, w, (size_t)(dot - w), &t.v[i]);
			else
				emit(p, out, w, strlen(w), &t.v[i]);
		}
	}
}

/* $(notdir names) */
static void
fn_notdir(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'n');
}

/* $(dir names) */
static void
fn_dir(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'd');
}

/* $(basename names) */
static void
fn_basename(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'b');
}

/* $(firstword names) */
static void
fn_firstword(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };

	expand(p, s, len, &t);
	if (t.n > 0)
		emit(p, out, t.v[0].s, strlen(t.v[0].s), &t.v[0]);
}

/* $(lastword names) */
static void
fn_lastword(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };

	expand(p, s, len, &t);
	if (t.n > 0)
		emit(p, out, t.v[t.n - 1].s, strlen(t.v[t.n - 1].s),
		    &t.v[t.n - 1]);
}

/*
 * $(if cond,then,else): definite conditions choose; one conditional word
 * gives its conds to the then-words, and the else-words become unknown.
 */
static void
fn_if(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3], **cc = NULL;
	size_t		 al[3], i;
	struct cwv	 c = { 0 }, t = { 0 }, e = { 0 };
	bool		 saved = p->broken, savedo = p->opaque, cbroken;
	bool		 definite = true;
	int		 n, nc = 0;
	unsigned char	 tunk = 0, eunk = 1;
	struct cw	 like;

	if ((n = split_args(s, len, 3, a, al)) < 2) {
		p->broken = true;
		return;
	}
	p->broken = p->opaque = false;
	expand(p, a[0], al[0], &c);
	cbroken = p->broken || p->opaque;
	p->broken |= saved;
	p->opaque |= savedo;
	for (i = 0; i < c.n; i++) {
		if (c.v[i].nconds || c.v[i].unk || c.v[i].cfg)
			definite = false;
	}
	if (!cbroken && c.n == 0) {
		if (n == 3)
			expand(p, a[2], al[2], out);
		return;
	}
	if (!cbroken && definite) {
		expand(p, a[1], al[1], out);
		return;
	}
	if (!cbroken && c.n == 1) {
		cc = c.v[0].conds;
		nc = c.v[0].nconds;
		tunk = c.v[0].unk;
	} else
		tunk = 1;
	expand(p, a[1], al[1], &t);
	if (n == 3)
		expand(p, a[2], al[2], &e);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		like.conds = conds_cat(&p->a, cc, nc, like.conds, like.nconds,
		    &like.nconds, &like.unk);
		like.unk |= tunk;
		emit(p, out, like.s, strlen(like.s), &like);
	}
	for (i = 0; i < e.n; i++) {
		like = e.v[i];
		like.unk |= eunk;
		emit(p, out, like.s, strlen(like.s), &like);
	}
}

/* Whether w matches one of the words of pats. */
static bool
pats_match(const struct cwv *pats, const char *w)
{
	const char	*stem;
	size_t		 i, slen;

	for (i = 0; i < pats->n; i++) {
		if (pat_match(pats->v[i].s, w, &stem, &slen))
			return true;
	}
	return false;
}

/*
 * $(filter pats,text) and $(filter-out ...): a $(CONFIG_X) word is
 * matched as both of its values, y and m.
 */
static void
fn_filters(struct parse *p, const char *s, size_t len, struct cwv *out,
    bool keep)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct cwv	 pats = { 0 }, t = { 0 };
	struct cw	 like;
	bool		 y, m;

	if (split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	expand(p, a[0], al[0], &pats);
	expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (!like.cfg) {
			if (pats_match(&pats, like.s) == keep)
				emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		y = pats_match(&pats, "y");
		m = pats_match(&pats, "m");
		if (!keep) {
			if (!(y && m))
				emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		like.cfg = y && m;
		if (y)
			emit(p, out, "y", 1, &like);
		else if (m)
			emit(p, out, "m", 1, &like);
	}
}

/* $(filter pattern...,text) */
static void
fn_filter(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_filters(p, s, len, out, true);
}

/* $(filter-out pattern...,text) */
static void
fn_filter_out(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_filters(p, s, len, out, false);
}

/* $(findstring find,in): find, with the conds of the first word having it. */
static void
fn_findstring(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct scal	 f;
	struct cwv	 t = { 0 };
	struct cw	 like;

	if (split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	scalar(p, a[0], al[0], &f);
	expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (like.cfg ? strcmp(f.s, "y") == 0 || strcmp(f.s, "m") == 0 :
		    strstr(like.s, f.s) != NULL) {
			like.cfg = 0;
			emit(p, out, f.s, strlen(f.s), &like);
			return;
		}
	}
}

/* $(foreach var,list,text) */
static void
fn_foreach(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3];
	size_t		 al[3], i;
	struct scal	 name;
	struct cwv	 list = { 0 };
	struct var	*v, saved;

	if (split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	scalar(p, a[0], al[0], &name);
	expand(p, a[1], al[1], &list);
	if (name.s[0] == '\0')
		return;
	v = var_local(p, name.s, strlen(name.s));
	saved = *v;
	v->fixed = v->opaque = v->broken = false;
	for (i = 0; i < list.n && p->budget > 0; i++) {
		v->val.v = &list.v[i];
		v->val.n = v->val.cap = 1;
		expand(p, a[2], al[2], out);
	}
	*v = saved;
}

/* $(wildcard pattern...), relative to the tree top. */
static void
fn_wildcard(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 t = { 0 };
	glob_t		 g;
	size_t		 i, j, tl;
	char		*pat, *rel;

	if (p->kb->srctree == NULL) {
		p->broken = true;
		return;
	}
	tl = strlen(p->kb->srctree);
	expand(p, s, len, &t);
	for (i = 0; i < t.n; i++) {
		rel = path_norm(&p->a, p->kb, t.v[i].s, strlen(t.v[i].s));
		if (rel == NULL || rel[0] == '\0')
			continue;
		pat = xasprintf("%s/%s", p->kb->srctree, rel);
		if (glob(pat, GLOB_NOSORT, NULL, &g) == 0) {
			deps_glob(p->kb->rec, rel, g.gl_pathv, g.gl_pathc);
			for (j = 0; j < g.gl_pathc; j++) {
				if (strlen(g.gl_pathv[j]) > tl + 1)
					emit(p, out, g.gl_pathv[j] + tl + 1,
					    strlen(g.gl_pathv[j] + tl + 1),
					    &t.v[i]);
			}
			globfree(&g);
		} else
			deps_glob(p->kb->rec, rel, NULL, 0);
		free(pat);
	}
}

static const struct func {
	const char	*name;
	void		(*fn)(struct parse *, const char *, size_t,
			    struct cwv *);
} funcs[] = {
	{ "addprefix", fn_addprefix },
	{ "addsuffix", fn_addsuffix },
	{ "basename", fn_basename },
	{ "dir", fn_dir },
	{ "filter", fn_filter },
	{ "filter-out", fn_filter_out },
	{ "findstring", fn_findstring },
	{ "firstword", fn_firstword },
	{ "foreach", fn_foreach },
	{ "if", fn_if },
	{ "lastword", fn_lastword },
	{ "notdir", fn_notdir },
	{ "patsubst", fn_patsubst },
	{ "sort", fn_sort },
	{ "strip", fn_strip },
	{ "subst", fn_subst },
	{ "wildcard", fn_wildcard },
};

/* A variable reference $(name) or $(name:from=to), inner text s. */
static void
eval_var(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 names = { 0 }, val;
	struct scal	 from, to;
	size_t		 i, j, e, colon = SIZE_MAX, eq = SIZE_MAX;
	char		*pat, *rep;
	struct cw	*w;

	for (i = 0; i < len; i++) {
		if (is_ref(s, i, len)) {
			if ((e = ref_end(s, i, len)) == SIZE_MAX)
				break;
			i = e - 1;
		} else if (s[i] == ':' && colon == SIZE_MAX)
			colon = i;
		else if (s[i] == '=' && colon != SIZE_MAX) {
			eq = i;
			break;
		}
	}
	if (eq == SIZE_MAX)
		colon = SIZE_MAX;
	expand(p, s, colon == SIZE_MAX ? len : colon, &names);
	for (i = 0; i < names.n; i++) {
		memset(&val, 0, sizeof val);
		var_words(p, names.v[i].s, strlen(names.v[i].s), &val);
		for (j = 0; j < val.n; j++) {
			w = &val.v[j];
			w->conds = conds_cat(&p->a, names.v[i].conds,
			    names.v[i].nconds, w->conds, w->nconds,
			    &w->nconds, &w->unk);
			w->unk |= names.v[i].unk;
		}
		if (colon == SIZE_MAX) {
			for (j = 0; j < val.n; j++)
				emit(p, out, val.v[j].s, strlen(val.v[j].s),
				    &val.v[j]);
			continue;
		}
		scalar(p, s + colon + 1, eq - colon - 1, &from);
		scalar(p, s + eq + 1, len - eq - 1, &to);
		if (strchr(from.s, '%') != NULL) {
			pat = (char *)from.s;
			rep = (char *)to.s;
		} else {
			pat = arena_alloc(&p->a, strlen(from.s) + 2);
			rep = arena_alloc(&p->a, strlen(to.s) + 2);
			pat[0] = rep[0] = '%';
			strcpy(pat + 1, from.s);
			strcpy(rep + 1, to.s);
		}
		if (strcmp(from.s, "m") == 0) {
			for (j = 0; j < val.n; j++)
				val.v[j].cfg = 0;
		}
		do_patsubst(p, pat, rep, &val, out);
	}
}

/* The value of one reference (the text inside "$(" ")"). */
static void
eval_ref(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	size_t	k, i;

	if (--p->budget < 0 || p->depth >= KB_MAX_DEPTH) {
		p->broken = true;
		return;
	}
	p->depth++;
	for (k = 0; k < len && (islower((unsigned char)s[k]) || s[k] == '-');
	    k++)
		;
	if (k > 0 && k < len && (s[k] == ' ' || s[k] == '\t')) {
		for (i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
			if (strlen(funcs[i].name) == k &&
			    memcmp(funcs[i].name, s, k) == 0)
				break;
		}
		if (i < sizeof funcs / sizeof funcs[0])
			funcs[i].fn(p, s + k + 1, len - k - 1, out);
		else
			p->broken = true;	/* call, shell, eval, ... */
	} else
		eval_var(p, s, len, out);
	p->depth--;
}

/* Append text to every word of cur. */
static void
cat_literal(struct parse *p, struct cwv *cur, const char *s, size_t len)
{
	size_t	i, l;
	char	*t;

	for (i = 0; i < cur->n; i++) {
		l = strlen(cur->v[i].s);
		t = arena_alloc(&p->a, l + len + 1);
		memcpy(t, cur->v[i].s, l);
		memcpy(t + l, s, len);
		cur->v[i].s = t;
	}
}

/*
 * Expand one word (no whitespace outside references): a reference with
 * several words gives one word per value, the rest of the word around
 * each ("foo_$(BITS).o" -> foo_32.o foo_64.o).
 */
static void
expand_word(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 cur = { 0 }, next, r;
	struct cw	*w;
	size_t		 i = 0, j, x, y, la;

	w = cwv_add(&p->a, &cur);
	w->s = "";
	while (i < len) {
		if (s[i] != '$') {
			for (j = i; j < len && s[j] != '$'; j++)
				;
			cat_literal(p, &cur, s + i, j - i);
			i = j;
			continue;
		}
		if (i + 1 == len) {
			cat_literal(p, &cur, "$", 1);
			break;
		}
		if (s[i + 1] == '$') {
			cat_literal(p, &cur, "$", 1);
			i += 2;
			continue;
		}
		memset(&r, 0, sizeof r);
		if (s[i + 1] == '(' || s[i + 1] == '{') {
			if ((j = ref_end(s, i, len)) == SIZE_MAX) {
				p->broken = true;
				break;
			}
			eval_ref(p, s + i + 2, j - i - 3, &r);
		} else {
			j = i + 2;
			eval_ref(p, s + i + 1, 1, &r);
		}
		i = j;
		if (r.n == 0)
			continue;
		memset(&next, 0, sizeof next);
		for (x = 0; x < cur.n; x++) {
			for (y = 0; y < r.n; y++) {
				if (next.n >= KB_MAX_WORDS || --p->budget < 0) {
					p->broken = true;
					break;
				}
				w = cwv_add(&p->a, &next);
				*w = cur.v[x];
				w->conds = conds_cat(&p->a, cur.v[x].conds,
				    cur.v[x].nconds, r.v[y].conds,
				    r.v[y].nconds, &w->nconds, &w->unk);
				w->unk |= r.v[y].unk;
				w->cfg |= r.v[y].cfg;
				la = strlen(cur.v[x].s);
				w->s = arena_alloc(&p->a, la +
				    strlen(r.v[y].s) + 1);
				memcpy((char *)w->s, cur.v[x].s, la);
				strcpy((char *)w->s + la, r.v[y].s);
			}
		}
		cur = next;
	}
	for (x = 0; x < cur.n; x++)
		emit(p, out, cur.v[x].s, strlen(cur.v[x].s), &cur.v[x]);
}

/* Expand s into its words, appended to out. */
static void
expand(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	size_t	i = 0, j, e;

	if (--p->budget < 0) {
		p->broken = true;
		return;
	}
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i == len)
			break;
		for (j = i; j < len && !isspace((unsigned char)s[j]); ) {
			if (is_ref(s, j, len)) {
				e = ref_end(s, j, len);
				j = e == SIZE_MAX ? len : e;
			} else if (s[j] == '$' && j + 1 < len)
				j += 2;
			else
				j++;
		}
		expand_word(p, s + i, j - i, out);
		i = j;
	}
}

/* ------------------------------------------------------------ lines */

/* The conds, unknown and dead state of the current line. */
static void
line_ctx(struct parse *p, const char ***conds, int *n, bool *unk,
    bool *dead)
{
	unsigned char	u = 0;
	int		i;

	*conds = NULL;
	*n = 0;
	*dead = p->over > 0;
	for (i = 0; i < p->nfr; i++) {
		*conds = conds_cat(&p->a, *conds, *n, p->fr[i].conds,
		    p->fr[i].nconds, n, &u);
		u |= p->fr[i].unk;
		*dead |= p->fr[i].dead;
	}
	*unk = u;
}

/* Whether the key (raw left-hand side) is a flags or build-rule variable. */
static bool
ignored_key(const char *s, size_t len)
{
	static const char *const pfx[] = {
		"ccflags-", "asflags-", "ldflags-", "cflags-", "aflags-",
		"subdir-ccflags-", "subdir-asflags-", "rustflags-",
		"CFLAGS_", "AFLAGS_", "LDFLAGS_", "CPPFLAGS_", "RUSTFLAGS_",
		"KASAN_", "KCSAN_", "KMSAN_", "UBSAN_", "KCOV_", "GCOV_",
		"OBJECT_FILES_", "OBJTOOL_", "cmd_", "quiet_cmd_",
		"always-", "extra-", "targets", "hostprogs", "userprogs",
		"userccflags", "userldflags", "clean-files", "clean-dirs",
		"HOSTCFLAGS", "HOSTLDLIBS", "HOSTLDFLAGS", "HOSTCXXFLAGS",
		"PHONY",
	};
	size_t	i, l;

	for (i = 0; i < sizeof pfx / sizeof pfx[0]; i++) {
		l = strlen(pfx[i]);
		if (len >= l && memcmp(s, pfx[i], l) == 0)
			return true;
	}
	for (i = 0; i + 5 <= len && s[i] != '$'; i++) {	/* CFLAGS-y */
		if (strncasecmp(s + i, "flags", 5) == 0)
			return true;
	}
	return false;
}

/* Remove the words of kind from v (all of them for K_PLAIN). */
static void
var_clear(struct var *v, int kind)
{
	size_t	i, n = 0;

	if (kind == K_PLAIN) {
		v->val.n = 0;
		v->broken = false;
		return;
	}
	for (i = 0; i < v->val.n; i++) {
		if (v->val.v[i].kind != kind)
			v->val.v[n++] = v->val.v[i];
	}
	v->val.n = n;
}

/*
 * A conditional "=" or ":=" of kind: the earlier words it replaces (those
 * of its kind; of obj-y and obj-m for obj-$(CONFIG_X)) are there only
 * when its condition is false, which we can't write: unknown.
 */
static void
var_mark(struct var *v, int kind)
{
	size_t	i;
	int	k;

	for (i = 0; i < v->val.n; i++) {
		k = v->val.v[i].kind;
		if (k == kind || kind == K_PLAIN || (kind == K_MAYBE &&
		    (k == K_Y || k == K_M)))
			v->val.v[i].unk = 1;
	}
}

enum { ASSIGN_NONE, ASSIGN_DONE, ASSIGN_RULE };

/*
 * Find the assignment operator of a line: *op is '=', ':' (:=, ::=,
 * :::=), '+', '?' or '!', the left-hand side is s[0..*llen), the value
 * starts at *rhs. ASSIGN_RULE for a rule line, ASSIGN_NONE for neither.
 */
static int
find_op(const char *s, size_t len, char *op, size_t *llen, const char **rhs)
{
	size_t	i, e, k;

	for (i = 0; i < len; i++) {
		if (is_ref(s, i, len)) {
			if ((e = ref_end(s, i, len)) == SIZE_MAX)
				return ASSIGN_NONE;
			i = e - 1;
			continue;
		}
		if (s[i] == '=') {
			*op = '=';
			*llen = i;
			if (i > 0 && strchr("+?!", s[i - 1]) != NULL) {
				*op = s[i - 1];
				*llen = i - 1;
			}
			*rhs = s + i + 1;
			return ASSIGN_DONE;
		}
		if (s[i] == ':') {
			for (k = i; k < len && k < i + 3 && s[k] == ':'; k++)
				;
			if (k < len && s[k] == '=') {
				*op = ':';
				*llen = i;
				*rhs = s + k + 1;
				return ASSIGN_DONE;
			}
			return ASSIGN_RULE;
		}
	}
	return ASSIGN_NONE;
}

/*
 * An assignment line "lhs op rhs". obj-$(CONFIG_X) expands to obj-y with
 * the word's conds and "could be m": the key is "obj-", the kind K_MAYBE.
 * Returns ASSIGN_RULE for a rule line, ASSIGN_NONE for neither.
 */
static int
do_assign(struct parse *p, const char *s, size_t len, bool exported)
{
	const char	*lhs, *rhs = NULL, *name, **lc, *dash;
	size_t		 i, llen = 0, rlen, nlen, klen, j;
	struct cwv	 alts = { 0 }, val = { 0 };
	struct var	*v;
	struct cw	*w, *x;
	bool		 lunk, dead, relevant, rbroken;
	int		 nlc, kind;
	char		 op = 0;

	switch (find_op(s, len, &op, &llen, &rhs)) {
	case ASSIGN_NONE:
		return ASSIGN_NONE;
	case ASSIGN_RULE:
		return ASSIGN_RULE;
	}
	lhs = s;
	rlen = len - (size_t)(rhs - s);
	trim(&lhs, &llen);
	if (llen == 0 || ignored_key(lhs, llen))
		return ASSIGN_DONE;
	p->broken = p->opaque = false;
	expand(p, lhs, llen, &alts);
	if (p->broken || p->opaque) {
		skip_line(p);
		return ASSIGN_DONE;
	}
	line_ctx(p, &lc, &nlc, &lunk, &dead);
	relevant = false;
	rbroken = false;
	if (op != '!') {
		p->broken = p->opaque = false;
		expand(p, rhs, rlen, &val);
		rbroken = p->broken || p->opaque;
	}
	for (i = 0; i < alts.n; i++) {
		name = alts.v[i].s;
		nlen = strlen(name);
		klen = nlen;
		kind = K_PLAIN;
		if (ends_with(name, nlen, "-y")) {
			kind = alts.v[i].cfg ? K_MAYBE : K_Y;
			klen = nlen - 1;
		} else if (ends_with(name, nlen, "-m")) {
			kind = K_M;
			klen = nlen - 1;
		} else if (ends_with(name, nlen, "-objs")) {
			kind = K_OBJS;
			klen = nlen - 4;
		} else if (ends_with(name, nlen, "-") ||
		    ends_with(name, nlen, "-n"))
			continue;
		else if (alts.v[i].cfg && (dash = strrchr(name, '-')) != NULL &&
		    dash[1] == 'y' && strspn(dash + 1, "y") == strlen(dash + 1)) {
			/* foo-$(CONFIG_A)$(CONFIG_B): an OR, not written */
			kind = K_MAYBE;
			klen = (size_t)(dash - name) + 1;
			alts.v[i].nconds = 0;
			alts.v[i].unk = 1;
		}
		if (kind != K_PLAIN)
			relevant = true;
		v = var_local(p, name, klen);
		if (v->fixed)
			continue;
		if (op == '!') {
			v->broken = true;
			continue;
		}
		if (exported)
			v->exported = true;
		if ((op == '=' || op == ':') && nlc == 0 && !lunk &&
		    alts.v[i].nconds == 0 && !alts.v[i].unk)
			var_clear(v, kind);
		else if ((op == '=' || op == ':') && !p->top)
			var_mark(v, kind);
		if (op == '?' && v->val.n > 0)
			continue;
		if (rbroken)
			v->broken = true;
		for (j = 0; j < val.n; j++) {
			x = &val.v[j];
			if (x->cfg && kind != K_PLAIN) {
				/* obj-y += $(CONFIG_NAME).o: a string value */
				rbroken = true;
				continue;
			}
			w = cwv_add(&p->a, &v->val);
			*w = *x;
			w->conds = conds_cat(&p->a, lc, nlc, x->conds,
			    x->nconds, &w->nconds, &w->unk);
			w->conds = conds_cat(&p->a, w->conds, w->nconds,
			    alts.v[i].conds, alts.v[i].nconds, &w->nconds,
			    &w->unk);
			w->unk |= alts.v[i].unk | (p->top ? 0 : lunk);
			w->kind = (unsigned char)kind;
		}
	}
	if (relevant && (rbroken || op == '!'))
		skip_count(p, true);
	return ASSIGN_DONE;
}

/* include / -include / sinclude of files from the tree top. */
static void
do_include(struct parse *p, const char *s, size_t len, bool must)
{
	struct cwv	 files = { 0 };
	const char	*path;
	char		*text;
	const char	*file;
	size_t		 i, n;
	int		 nfr, base, lineno;

	if (p->kb->treefd < 0 || p->incdepth >= KB_MAX_INCLUDE) {
		if (must)
			skip_line(p);
		return;
	}
	p->broken = p->opaque = false;
	expand(p, s, len, &files);
	if ((p->broken || p->opaque) && must)
		skip_line(p);
	for (i = 0; i < files.n; i++) {
		path = path_norm(&p->a, p->kb, files.v[i].s,
		    strlen(files.v[i].s));
		if (path != NULL && (strncmp(path, "scripts/", 8) == 0 ||
		    strncmp(path, "include/config/", 15) == 0))
			continue;	/* kbuild's own, or the .config */
		if (path == NULL ||
		    (text = tree_read(p->kb, path, &n)) == NULL) {
			if (must)
				skip_line(p);
			continue;
		}
		p->kb->st.makefiles++;
		nfr = p->nfr;
		base = p->base;
		file = p->file;
		lineno = p->lineno;
		p->base = nfr;
		p->file = path;
		p->incdepth++;
		parse_text(p, text, n);
		p->incdepth--;
		p->nfr = nfr;
		p->base = base;
		p->file = file;
		p->lineno = lineno;
		free(text);
	}
}

/* The definite words of v joined, or NULL if some word is conditional. */
static const char *
definite_text(struct parse *p, const struct cwv *v)
{
	struct strbuf	 b;
	size_t		 i;
	char		*r;

	for (i = 0; i < v->n; i++) {
		if (v->v[i].nconds || v->v[i].unk || v->v[i].cfg)
			return NULL;
	}
	strbuf_init(&b);
	for (i = 0; i < v->n; i++) {
		if (i > 0)
			strbuf_addc(&b, ' ');
		strbuf_adds(&b, v->v[i].s);
	}
	r = arena_strndup(&p->a, b.s ? b.s : "", b.len);
	strbuf_free(&b);
	return r;
}

/* Whether a $(CONFIG_..) word w ("y", "yy", ...) can equal lit. */
static bool
cfg_can_equal(const struct cw *w, const char *lit)
{
	size_t	i;

	if (!w->cfg)
		return strcmp(w->s, lit) == 0;
	if (strlen(w->s) == 1)		/* one symbol: any value */
		return lit[0] != '\0';
	if (strlen(lit) != strlen(w->s))
		return false;
	for (i = 0; lit[i] != '\0'; i++) {
		if (lit[i] != 'y' && lit[i] != 'm')
			return false;
	}
	return true;
}

/* ifeq/ifneq of the expansions of a and b. */
static void
eval_eq(struct parse *p, const char *a, size_t al, const char *b, size_t bl,
    bool neg, struct cres *r)
{
	struct cwv	 va = { 0 }, vb = { 0 }, *one;
	const char	*ta, *tb, *lit;
	bool		 saved = p->broken, savedo = p->opaque, broken, opaque;

	trim(&a, &al);
	trim(&b, &bl);
	p->broken = p->opaque = false;
	expand(p, a, al, &va);
	expand(p, b, bl, &vb);
	broken = p->broken;
	opaque = p->opaque;
	p->broken = saved;
	p->opaque = savedo;
	if (broken || opaque) {
		if (broken)		/* ifeq ($(ARCH),arm) is not odd */
			skip_line(p);
		r->unk = true;
		return;
	}
	ta = definite_text(p, &va);
	tb = definite_text(p, &vb);
	if (ta != NULL && tb != NULL) {
		if ((strcmp(ta, tb) == 0) != neg)
			r->deftrue = true;
		else
			r->dead = true;
		return;
	}
	if (ta == NULL && tb == NULL) {
		r->unk = true;
		return;
	}
	one = ta == NULL ? &va : &vb;
	lit = ta == NULL ? tb : ta;
	if (one->n != 1) {
		r->unk = true;	/* an OR of several words */
		return;
	}
	/* one word, there iff its conds hold, against a definite text */
	if (lit[0] == '\0' || !cfg_can_equal(&one->v[0], lit)) {
		if (lit[0] == '\0' && neg) {		/* ifneq (X,) */
			r->conds = one->v[0].conds;
			r->nconds = one->v[0].nconds;
			r->unk = one->v[0].unk;
		} else if (lit[0] == '\0')		/* ifeq (X,) */
			r->unk = true;
		else if (neg)				/* never equal */
			r->deftrue = true;
		else
			r->dead = true;
		return;
	}
	if (neg) {
		r->unk = true;
		return;
	}
	r->conds = one->v[0].conds;
	r->nconds = one->v[0].nconds;
	r->unk = one->v[0].unk;
}

/* Evaluate "ifdef x", "ifndef x", "ifeq (a,b)", "ifneq "a" "b"". */
static void
eval_cond(struct parse *p, const char *word, const char *s, size_t len,
    struct cres *r)
{
	const char	*a[2], *q1, *q2;
	size_t		 al[2], e, i;
	struct cwv	 names = { 0 }, val = { 0 };
	bool		 neg, saved, savedo, unsure;

	memset(r, 0, sizeof *r);
	trim(&s, &len);
	if (strcmp(word, "ifdef") == 0 || strcmp(word, "ifndef") == 0) {
		neg = word[2] == 'n';
		saved = p->broken;
		savedo = p->opaque;
		p->broken = p->opaque = false;
		expand(p, s, len, &names);
		if (p->broken || p->opaque || names.n != 1) {
			p->broken = saved;
			p->opaque = savedo;
			skip_line(p);
			r->unk = true;
			return;
		}
		var_words(p, names.v[0].s, strlen(names.v[0].s), &val);
		unsure = p->broken || p->opaque;
		p->broken = saved;
		p->opaque = savedo;
		if (unsure) {
			r->unk = true;
			return;
		}
		if (val.n == 0) {
			r->deftrue = neg;
			r->dead = !neg;
		} else if (definite_text(p, &val) != NULL) {
			r->deftrue = !neg;
			r->dead = neg;
		} else if (val.n == 1 && !neg) {
			r->conds = val.v[0].conds;
			r->nconds = val.v[0].nconds;
			r->unk = val.v[0].unk;
		} else
			r->unk = true;
		return;
	}
	neg = strcmp(word, "ifneq") == 0;
	if (len > 0 && s[0] == '(') {
		if ((e = ref_end(s - 1, 0, len + 1)) == SIZE_MAX ||
		    split_args(s + 1, e - 3, 2, a, al) != 2) {
			skip_line(p);
			r->unk = true;
			return;
		}
		eval_eq(p, a[0], al[0], a[1], al[1], neg, r);
		return;
	}
	if (len > 0 && (s[0] == '"' || s[0] == '\'')) {
		q1 = memchr(s + 1, s[0], len - 1);
		if (q1 != NULL) {
			i = (size_t)(q1 - s) + 1;
			while (i < len && isspace((unsigned char)s[i]))
				i++;
			if (i < len && (s[i] == '"' || s[i] == '\'') &&
			    (q2 = memchr(s + i + 1, s[i], len - i - 1)) !=
			    NULL) {
				eval_eq(p, s + 1, (size_t)(q1 - s) - 1,
				    s + i + 1, (size_t)(q2 - s) - i - 1, neg, r);
				return;
			}
		}
	}
	skip_line(p);
	r->unk = true;
}

/* The directive word at the start of s, if it is a conditional. */
static const char *
cond_word(const char *s, size_t len, size_t *wl)
{
	static const char *const words[] = { "ifdef", "ifndef", "ifeq",
	    "ifneq" };
	size_t	i, l;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		l = strlen(words[i]);
		if (len >= l && memcmp(s, words[i], l) == 0 && (len == l ||
		    isspace((unsigned char)s[l]) || (s[l] == '(' && i >= 2))) {
			*wl = l;
			return words[i];
		}
	}
	return NULL;
}

/* Whether the rest of the context (all frames but the top) is dead. */
static bool
outer_dead(const struct parse *p, int upto)
{
	int	i;

	if (p->over > 0)
		return true;
	for (i = 0; i < upto; i++) {
		if (p->fr[i].dead)
			return true;
	}
	return false;
}

/* A conditional directive line: word, then s (the rest). */
static void
do_cond(struct parse *p, const char *word, const char *s, size_t len)
{
	struct frame	*f;
	struct cres	 r;
	const char	*w2;
	size_t		 wl;
	bool		 base_unk;

	if (word[0] == 'i') {
		if (p->nfr == KB_MAX_IFS || p->over > 0) {
			p->over++;
			return;
		}
		f = &p->fr[p->nfr];
		memset(f, 0, sizeof *f);
		if (outer_dead(p, p->nfr))
			f->dead = true;
		else {
			eval_cond(p, word, s, len, &r);
			f->conds = r.conds;
			f->nconds = r.nconds;
			f->unk = r.unk;
			f->dead = r.dead;
			f->seen_true = r.deftrue;
			f->all_false = r.dead;
		}
		p->nfr++;
		return;
	}
	if (strcmp(word, "endif") == 0) {
		if (p->over > 0)
			p->over--;
		else if (p->nfr > p->base)
			p->nfr--;
		else
			skip_line(p);
		return;
	}
	/* else [ifxxx ...] */
	if (p->over > 0)
		return;
	if (p->nfr <= p->base) {
		skip_line(p);
		return;
	}
	f = &p->fr[p->nfr - 1];
	base_unk = !f->all_false;
	f->conds = NULL;
	f->nconds = 0;
	if (f->seen_true) {
		f->dead = true;
		f->unk = false;
		return;
	}
	f->dead = false;
	f->unk = base_unk;
	trim(&s, &len);
	if (len == 0 || (w2 = cond_word(s, len, &wl)) == NULL) {
		if (len > 0)
			skip_line(p);
		f->all_false = false;
		return;
	}
	if (outer_dead(p, p->nfr - 1))
		return;
	eval_cond(p, w2, s + wl, len - wl, &r);
	f->conds = r.conds;
	f->nconds = r.nconds;
	f->unk = base_unk || r.unk;
	f->dead = r.dead;
	if (!base_unk && r.deftrue)
		f->seen_true = true;
	f->all_false = f->all_false && r.dead;
}

/* Whether s (len) starts with the word w. */
static bool
word_is(const char *s, size_t len, const char *w)
{
	size_t	l = strlen(w);

	return len >= l && memcmp(s, w, l) == 0 && (len == l ||
	    isspace((unsigned char)s[l]));
}

/* One logical line (continuations joined); tab: it started with a tab. */
static void
parse_line(struct parse *p, char *s, size_t len, bool tab, bool *in_rule,
    int *in_define)
{
	const char	*w, **lc;
	size_t		 i, wl;
	bool		 unk, dead;
	int		 nlc, r;

	if (tab && *in_rule && *in_define == 0)
		return;				/* a recipe */
	for (i = 0; i < len; i++) {
		if (s[i] == '#' && (i == 0 || s[i - 1] != '\\')) {
			len = i;
			break;
		}
	}
	trim((const char **)&s, &len);
	if (len == 0)
		return;
	if (*in_define > 0) {
		if (word_is(s, len, "endef"))
			(*in_define)--;
		else if (word_is(s, len, "define"))
			(*in_define)++;
		return;
	}
	if ((w = cond_word(s, len, &wl)) != NULL) {
		do_cond(p, w, s + wl, len - wl);
		return;
	}
	if (word_is(s, len, "else")) {
		do_cond(p, "else", s + 4, len - 4);
		return;
	}
	if (word_is(s, len, "endif")) {
		do_cond(p, "endif", s + 5, len - 5);
		return;
	}
	if (word_is(s, len, "define") || word_is(s, len, "override define") ||
	    word_is(s, len, "export define")) {
		(*in_define)++;
		return;
	}
	line_ctx(p, &lc, &nlc, &unk, &dead);
	if (dead) {
		char		 op;
		const char	*rhs;

		*in_rule = find_op(s, len, &op, &wl, &rhs) == ASSIGN_RULE;
		return;
	}
	*in_rule = false;
	if (word_is(s, len, "include") || word_is(s, len, "-include") ||
	    word_is(s, len, "sinclude")) {
		wl = s[0] == 'i' ? 7 : 8;
		do_include(p, s + wl, len - wl, s[0] == 'i');
		return;
	}
	if (word_is(s, len, "override") || word_is(s, len, "private")) {
		wl = s[0] == 'o' ? 8 : 7;
		s += wl;
		len -= wl;
	} else if (word_is(s, len, "export")) {
		if (do_assign(p, s + 6, len - 6, true) == ASSIGN_NONE) {
			struct cwv	names = { 0 };

			p->broken = false;
			expand(p, s + 6, len - 6, &names);
			for (i = 0; i < names.n; i++)
				var_local(p, names.v[i].s,
				    strlen(names.v[i].s))->exported = true;
		}
		return;
	} else if (word_is(s, len, "unexport") || word_is(s, len, "undefine")
	    || word_is(s, len, "vpath") || word_is(s, len, "endef"))
		return;
	r = do_assign(p, s, len, false);
	if (r == ASSIGN_RULE)
		*in_rule = true;
	else if (r == ASSIGN_NONE)
		skip_line(p);	/* $(eval ...), junk */
}

/* Read a Makefile's text line by line. */
static void
parse_text(struct parse *p, const char *text, size_t len)
{
	struct strbuf	 line;
	size_t		 i = 0, j, e, nb, k;
	bool		 tab, in_rule = false;
	int		 in_define = 0, lines;

	strbuf_init(&line);
	p->lineno = 0;
	while (i < len) {
		strbuf_reset(&line);
		tab = text[i] == '\t';
		p->lineno++;
		lines = 0;
		for (;;) {
			for (j = i; j < len && text[j] != '\n'; j++)
				;
			lines++;
			e = j;
			if (e > i && text[e - 1] == '\r')
				e--;
			for (nb = 0; e - nb > i && text[e - 1 - nb] == '\\';
			    nb++)
				;
			if (nb % 2 == 1 && j < len) {
				strbuf_add(&line, text + i, e - 1 - i);
				strbuf_addc(&line, ' ');
				for (i = j + 1; i < len && (text[i] == ' ' ||
				    text[i] == '\t'); i++)
					;
				continue;
			}
			strbuf_add(&line, text + i, e - i);
			i = j < len ? j + 1 : j;
			break;
		}
		for (k = 0; k < line.len; k++) {
			if (line.s[k] == '\0')
				line.s[k] = ' ';
		}
		if (line.len > 0)
			parse_line(p, line.s, line.len, tab, &in_rule,
			    &in_define);
		p->lineno += lines - 1;
	}
	strbuf_free(&line);
}

/* Start reading a Makefile of directory dir. */
static void
parse_init(struct parse *p, struct kbuild *kb, const char *dir, bool top,
    int group)
{
	memset(p, 0, sizeof *p);
	p->kb = kb;
	arena_init(&p->a);
	p->dir = dir;
	p->top = top;
	p->budget = KB_BUDGET;
	if (group < kb->ngroups)
		p->inherit = kb->gvars[group];
	var_fix(p, "srctree", ".", false);
	var_fix(p, "objtree", ".", false);
	var_fix(p, "src", dir[0] ? dir : ".", false);
	var_fix(p, "obj", dir[0] ? dir : ".", false);
	var_fix(p, "KBUILD_EXTMOD", NULL, false);
	var_fix(p, "ARCH", NULL, true);
	if (group < kb->ngroups && kb->garch[group] != NULL)
		var_fix(p, "SRCARCH", kb->garch[group], false);
	else
		var_fix(p, "SRCARCH", NULL, true);
}

/* Free what reading a Makefile needed. */
static void
parse_done(struct parse *p)
{
	strmap_free(&p->vars);
	arena_free(&p->a);
}

/* ------------------------------------------------------------ objects */

/* Append o to the list l. */
static void
olist_add(struct olist *l, const struct kbuild_obj *o)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = o;
}

/* The list of key in map m, created (for group) if new. */
static struct olist *
olist_get(struct kbuild *kb, struct strmap *m, const char *key, int group)
{
	struct olist	*l;

	if ((l = strmap_get(m, key, strlen(key))) != NULL)
		return l;
	l = arena_alloc(&kb->arena, sizeof *l);
	l->group = group;
	strmap_set(m, key, strlen(key), l);
	if (kb->nlists == kb->caplists) {
		kb->caplists = kb->caplists ? kb->caplists * 2 : 256;
		kb->lists = xrealloc(kb->lists, kb->caplists *
		    sizeof *kb->lists);
	}
	kb->lists[kb->nlists++] = l;
	return l;
}

/*
 * Record the object path (from the tree top, ".o", len l) of group built
 * into module under conds (interned, like module). An object listed under
 * other conds (obj-$(CONFIG_A) += x.o, obj-$(CONFIG_B) += x.o) gets one
 * record each; kbuild_source gives the first. The first record of a path
 * looks for its source, unless src is known (a cache: 'c', 'S' or 0; -1
 * to look). This is how both a scan and a cache load fill the index.
 */
static void
obj_insert(struct kbuild *kb, int group, const char *path, size_t l,
    const char *module, const char **conds, int nconds, bool always,
    int src)
{
	struct kobj	*o, *head;
	const char	*ip, *sp;
	char		*t;
	int		 i;

	ip = intern_str(&kb->in, path, l);
	head = strmap_get(&kb->objpaths, ip, l);
	for (o = head; o != NULL; o = o->next) {
		if (o->pub.module == module && o->pub.nconds == nconds &&
		    (nconds == 0 || memcmp(o->pub.conds, conds,
		    (size_t)nconds * sizeof *conds) == 0))
			return;
	}
	o = arena_alloc(&kb->arena, sizeof *o);
	o->pub.path = ip;
	o->pub.module = module;
	o->pub.nconds = nconds;
	o->pub.always = always && nconds == 0;
	o->pub.conds = arena_alloc(&kb->arena, (size_t)(nconds + 1) *
	    sizeof *o->pub.conds);
	for (i = 0; i < nconds; i++)
		o->pub.conds[i] = conds[i];
	o->group = group;
	o->next = head;
	strmap_set(&kb->objpaths, ip, l, o);
	if (kb->nobjv == kb->capobjv) {
		kb->capobjv = kb->capobjv ? kb->capobjv * 2 : 4096;
		kb->objv = xrealloc(kb->objv, kb->capobjv * sizeof *kb->objv);
	}
	kb->objv[kb->nobjv++] = o;
	kb->st.objects++;

	if (head == NULL && l > 2) {
		t = xmalloc(l + 1);
		memcpy(t, path, l - 2);
		if (src < 0 && kb->treefd < 0)
			src = 'c';
		else if (src < 0) {
			strcpy(t + l - 2, ".c");
			if (tree_file(kb, t))
				src = 'c';
			else {
				strcpy(t + l - 2, ".S");
				src = tree_file(kb, t) ? 'S' : 0;
			}
		}
		o->src = (char)src;
		if (src == 'c' || src == 'S') {
			t[l - 2] = '.';
			t[l - 1] = (char)src;
			t[l] = '\0';
			sp = intern_str(&kb->in, t, l);
			if (strmap_get(&kb->sources, sp, l) == NULL)
				strmap_set(&kb->sources, sp, l, o);
		}
		free(t);
	}
	if (module != NULL) {
		struct olist	*ml = olist_get(kb, &kb->modules, module,
		    group);

		if (ml->group == group)
			olist_add(ml, &o->pub);
	}
	if (nconds > 0)
		olist_add(olist_get(kb, &kb->syms, conds[nconds - 1], 0),
		    &o->pub);
}

/* Record the object path of directory d (see obj_insert). */
static void
add_object(struct parse *p, const struct kdir *d, const char *path,
    const char *module, const char **conds, int nconds, bool always)
{
	obj_insert(p->kb, d->group, path, strlen(path), module, conds,
	    nconds, always, -1);
}

/*
 * Object base.o of directory d: a composite (base-y, base-objs, base-m,
 * base-$(CONFIG_X) in this Makefile) gives its parts, recursively, each
 * with the composite's conds then its own; otherwise it is a leaf.
 */
static void
add_composite(struct parse *p, const struct kdir *d, const char *base,
    const char **conds, int nconds, bool unk, const char *module,
    bool builtin, int depth)
{
	const struct var	*v;
	const struct cw		*w;
	const char		**c2;
	char			*key, *pb, *path;
	size_t			 bl = strlen(base), i, wl;
	unsigned char		 u;
	int			 n2, nparts = 0;

	if (--p->budget < 0)
		return;
	key = arena_alloc(&p->a, bl + 2);
	memcpy(key, base, bl);
	key[bl] = '-';
	v = depth < KB_MAX_NEST ? strmap_get(&p->vars, key, bl + 1) : NULL;
	for (i = 0; v != NULL && i < v->val.n; i++) {
		w = &v->val.v[i];
		wl = strlen(w->s);
		if (w->kind == K_PLAIN || !ends_with(w->s, wl, ".o"))
			continue;
		pb = arena_strndup(&p->a, w->s, wl - 2);
		if (strcmp(pb, base) == 0)
			continue;
		nparts++;
		u = 0;
		c2 = conds_cat(&p->a, conds, nconds, w->conds, w->nconds,
		    &n2, &u);
		add_composite(p, d, pb, c2, n2, unk || u || w->unk, module,
		    builtin && (w->kind == K_Y || w->kind == K_OBJS),
		    depth + 1);
	}
	if (nparts > 0)
		return;
	key = arena_alloc(&p->a, bl + 3);
	memcpy(key, base, bl);
	memcpy(key + bl, ".o", 3);
	if ((path = path_join(&p->a, p->kb, d->path, key, bl + 2)) == NULL ||
	    path[0] == '\0')
		return;
	add_object(p, d, path, module, conds, nconds, builtin && !unk &&
	    !d->unk && !d->modonly && d->group == 0);
}

/*
 * A directory named again before it is read (obj-$(CONFIG_USB) += usb/,
 * obj-$(CONFIG_PCI) += usb/): an OR. Keep the conds common to both; the
 * rest is unknown, unless one of the two needs only the common ones.
 */
static void
kdir_merge(struct kdir *d, const char **conds, int nconds, bool unk,
    bool modonly)
{
	int	i, j, n = 0;
	bool	all_d, all_new;

	for (i = 0; i < d->nconds; i++) {
		for (j = 0; j < nconds; j++) {
			if (conds[j] == d->conds[i])
				break;
		}
		if (j < nconds)
			d->conds[n++] = d->conds[i];
	}
	all_d = n == d->nconds && !d->unk;
	all_new = n == nconds && !unk;
	d->nconds = n;
	d->unk = !(all_d || all_new);
	d->modonly = d->modonly && modonly;
}

/* Queue directory path (normalised) to be read, unless already known. */
static void
kb_enqueue(struct kbuild *kb, const char *path, const char **conds,
    int nconds, bool unk, bool modonly, int group)
{
	struct kdir	*d;
	const char	*ip;
	size_t		 l = strlen(path);

	if (l == 0)
		return;
	ip = intern_str(&kb->in, path, l);
	if ((d = strmap_get(&kb->dirs, ip, l)) != NULL) {
		if (!d->parsed && d->group == group)
			kdir_merge(d, conds, nconds, unk, modonly);
		return;
	}
	d = arena_alloc(&kb->arena, sizeof *d);
	d->path = ip;
	d->nconds = nconds;
	d->conds = arena_alloc(&kb->arena, (size_t)(nconds + 1) *
	    sizeof *d->conds);
	if (nconds > 0)
		memcpy(d->conds, conds, (size_t)nconds * sizeof *d->conds);
	d->unk = unk;
	d->modonly = modonly;
	d->group = group;
	strmap_set(&kb->dirs, ip, l, d);
	if (kb->nqueue == kb->capqueue) {
		kb->capqueue = kb->capqueue ? kb->capqueue * 2 : 1024;
		kb->queue = xrealloc(kb->queue, kb->capqueue *
		    sizeof *kb->queue);
	}
	kb->queue[kb->nqueue++] = d;
}

/* A directory word of obj-* or subdir-*: queue it. */
static void
add_subdir(struct parse *p, const struct kdir *d, const struct cw *w,
    bool modonly)
{
	const char	**c;
	char		 *path;
	unsigned char	  u = 0;
	int		  n;

	path = path_join(&p->a, p->kb, d->path, w->s, strlen(w->s));
	if (path == NULL)
		return;
	c = conds_cat(&p->a, d->conds, d->nconds, w->conds, w->nconds, &n,
	    &u);
	kb_enqueue(p->kb, path, c, n, d->unk || w->unk || u, modonly,
	    d->group);
}

/* After reading d's Makefile: its objects, modules and subdirectories. */
static void
resolve(struct parse *p, const struct kdir *d)
{
	static const char *const keys[] = { "obj-", "lib-", "subdir-" };
	const struct var	*v;
	const struct cw		*w;
	const char		**c, *module;
	char			*base, *m;
	size_t			 k, i, l, j;
	unsigned char		 u;
	int			 n;

	for (k = 0; k < 3; k++) {
		v = strmap_get(&p->vars, keys[k], strlen(keys[k]));
		for (i = 0; v != NULL && i < v->val.n; i++) {
			w = &v->val.v[i];
			l = strlen(w->s);
			if (w->kind == K_PLAIN)
				continue;
			if (k == 2) {
				add_subdir(p, d, w, d->modonly);
				continue;
			}
			if (w->s[l - 1] == '/') {
				if (k == 0)
					add_subdir(p, d, w, d->modonly ||
					    w->kind == K_M);
				continue;
			}
			if (!ends_with(w->s, l, ".o"))
				continue;
			base = arena_strndup(&p->a, w->s, l - 2);
			module = NULL;
			if (k == 0 && (w->kind == K_M || w->kind == K_MAYBE)) {
				m = strrchr(base, '/');
				m = arena_strdup(&p->a, m ? m + 1 : base);
				for (j = 0; m[j] != '\0'; j++) {
					if (m[j] == '-')
						m[j] = '_';
				}
				module = intern_str(&p->kb->in, m, strlen(m));
			}
			u = 0;
			c = conds_cat(&p->a, d->conds, d->nconds, w->conds,
			    w->nconds, &n, &u);
			add_composite(p, d, base, c, n, u || w->unk, module,
			    w->kind == K_Y || w->kind == K_OBJS, 0);
		}
	}
}

/* Read directory d's Kbuild (or Makefile) and record what it builds. */
static void
parse_dir(struct kbuild *kb, struct kdir *d)
{
	struct parse	 p;
	char		*file, *text;
	size_t		 n;

	d->parsed = true;
	file = d->path[0] ? xasprintf("%s/Kbuild", d->path) :
	    xstrdup("Kbuild");
	text = tree_read(kb, file, &n);
	if (text == NULL && d->path[0] != '\0') {
		free(file);
		file = xasprintf("%s/Makefile", d->path);
		text = tree_read(kb, file, &n);
	}
	if (text == NULL) {
		free(file);
		return;
	}
	kb->st.makefiles++;
	parse_init(&p, kb, d->path, false, d->group);
	p.file = file;
	parse_text(&p, text, n);
	resolve(&p, d);
	parse_done(&p);
	free(text);
	free(file);
}

/* A deep copy of variable v into the index's arena. */
static struct var *
var_keep(struct kbuild *kb, const struct var *v)
{
	struct var	*k = arena_alloc(&kb->arena, sizeof *k);
	size_t		 i;

	*k = *v;
	k->name = arena_strdup(&kb->arena, v->name);
	k->val.v = arena_alloc(&kb->arena, (v->val.n + 1) * sizeof *k->val.v);
	k->val.cap = k->val.n = v->val.n;
	for (i = 0; i < v->val.n; i++) {
		k->val.v[i] = v->val.v[i];
		k->val.v[i].s = arena_strdup(&kb->arena, v->val.v[i].s);
		k->val.v[i].conds = arena_alloc(&kb->arena,
		    (size_t)(v->val.v[i].nconds + 1) * sizeof(char *));
		if (v->val.v[i].nconds > 0)
			memcpy(k->val.v[i].conds, v->val.v[i].conds,
			    (size_t)v->val.v[i].nconds * sizeof(char *));
	}
	return k;
}

/*
 * One architecture: the top Makefile for its exported variables, the top
 * Kbuild as the root, then every directory queued.
 */
static void
scan_group(struct kbuild *kb, const char *arch)
{
	static const char *const fallback[] = { "init-", "core-", "drivers-",
	    "net-", "libs-", "virt-" };
	struct strmap	*gv;
	struct strmap_entry *e;
	struct parse	 p;
	struct kdir	 root;
	struct var	*v;
	char		*text;
	size_t		 n, i, j;
	int		 g = kb->ngroups;
	bool		 have_kbuild = tree_file(kb, "Kbuild");

	kb->gvars = xrealloc(kb->gvars, (size_t)(g + 1) * sizeof *kb->gvars);
	kb->garch = xrealloc(kb->garch, (size_t)(g + 1) * sizeof *kb->garch);
	gv = xcalloc(1, sizeof *gv);
	kb->gvars[g] = gv;
	kb->garch[g] = intern_str(&kb->in, arch, strlen(arch));
	kb->ngroups++;

	memset(&root, 0, sizeof root);
	root.path = "";
	root.group = g;
	parse_init(&p, kb, "", true, g);
	p.file = "Makefile";
	if ((text = tree_read(kb, "Makefile", &n)) != NULL) {
		kb->st.makefiles++;
		parse_text(&p, text, n);
		free(text);
	}
	for (i = 0; (e = strmap_next(&p.vars, &i)) != NULL;) {
		if ((v = e->value) == NULL || !v->exported || v->fixed)
			continue;
		v = var_keep(kb, v);
		strmap_set(gv, v->name, strlen(v->name), v);
	}
	for (i = 0; !have_kbuild && i < sizeof fallback / sizeof *fallback;
	    i++) {
		v = strmap_get(&p.vars, fallback[i], strlen(fallback[i]));
		for (j = 0; v != NULL && j < v->val.n; j++) {
			if (v->val.v[j].kind != K_PLAIN &&
			    ends_with(v->val.v[j].s, strlen(v->val.v[j].s),
			    "/"))
				add_subdir(&p, &root, &v->val.v[j], false);
		}
	}
	parse_done(&p);
	if (have_kbuild)
		parse_dir(kb, &root);
	while (kb->qhead < kb->nqueue)
		parse_dir(kb, kb->queue[kb->qhead++]);
}

/* Order strings. */
static int
str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

struct kbuild *
kbuild_new_empty(void)
{
	struct kbuild	*kb = xcalloc(1, sizeof *kb);

	arena_init(&kb->arena);
	intern_init(&kb->in, &kb->arena);
	kb->treefd = -1;
	return kb;
}

/* Whether srcarch is usable; if not, why in *cause. */
static bool
scan_check_arch(const char *srcarch, char **cause)
{
	if (srcarch == NULL || srcarch[0] == '\0' ||
	    strchr(srcarch, '/') != NULL) {
		*cause = xasprintf("bad SRCARCH \"%s\"", srcarch ? srcarch :
		    "");
		return false;
	}
	return true;
}

/* An empty index on the tree srctree (opened), or NULL with *cause. */
static struct kbuild *
scan_open(const char *srctree, char **cause)
{
	struct kbuild	*kb;
	size_t		 l;

	kb = kbuild_new_empty();
	kb->srctree = xstrdup(srctree);
	l = strlen(kb->srctree);
	while (l > 1 && kb->srctree[l - 1] == '/')
		kb->srctree[--l] = '\0';
	kb->treefd = open(srctree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (kb->treefd < 0) {
		*cause = xasprintf("%s: %s", srctree, strerror(errno));
		kbuild_free(kb);
		return NULL;
	}
	return kb;
}

/*
 * kbuild_scan, recording what it looks at in rec if not NULL (rec is
 * then kept in the index, for the caller to take back).
 */
static struct kbuild *
scan_tree(const char *srctree, const char *srcarch, struct kbdeps *rec,
    char **cause)
{
	struct kbuild	*kb;
	struct dirent	*de;
	struct stat	 sb;
	DIR		*dir;
	char		**arches = NULL, *t;
	size_t		  narches = 0, i;
	int		  fd;

	if (!scan_check_arch(srcarch, cause) ||
	    (kb = scan_open(srctree, cause)) == NULL) {
		deps_free(rec);
		return NULL;
	}
	kb->rec = rec;
	t = xasprintf("arch/%s/Makefile", srcarch);
	if (!tree_file(kb, "Makefile") || !tree_file(kb, t)) {
		*cause = xasprintf("%s: not a kernel tree for %s (no Makefile"
		    " or %s)", srctree, srcarch, t);
		free(t);
		kbuild_free(kb);
		return NULL;
	}
	free(t);

	scan_group(kb, srcarch);

	if ((fd = openat(kb->treefd, "arch", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) >= 0 && (dir = fdopendir(fd)) != NULL) {
		if (fstat(fd, &sb) == 0)
			deps_stat(kb->rec, 'D', "arch", &sb);
		else if (kb->rec != NULL)
			kb->rec->bad = true;
		while ((de = readdir(dir)) != NULL) {
			if (de->d_name[0] == '.' ||
			    strcmp(de->d_name, srcarch) == 0)
				continue;
			t = xasprintf("arch/%s/Makefile", de->d_name);
			if (tree_file(kb, t)) {
				arches = xrealloc(arches, (narches + 1) *
				    sizeof *arches);
				arches[narches++] = xstrdup(de->d_name);
			}
			free(t);
		}
		closedir(dir);
	} else {
		if (fd >= 0)
			close(fd);
		if (kb->rec != NULL)
			kb->rec->bad = true;
	}
	if (narches > 1)
		qsort(arches, narches, sizeof *arches, str_cmp);
	for (i = 0; i < narches; i++) {
		scan_group(kb, arches[i]);
		free(arches[i]);
	}
	free(arches);
	kb->st.modules = (int)kb->modules.count;
	return kb;
}

struct kbuild *
kbuild_scan(const char *srctree, const char *srcarch, char **cause)
{
	return scan_tree(srctree, srcarch, NULL, cause);
}

/* ------------------------------------------------------------ cache */

/*
 * The cache file of kbuild_scan_cached: a lib/cachefile.h file of magic
 * "KCKBUILD", whose identity is kbcache_identity (SRCARCH and the tree)
 * and whose payload is the body below (native byte order; numbers are u32
 * but for the i64/u64 of 'R'/'D' records; a string is a u32 length
 * counting its NUL, then its bytes and the NUL):
 *
 *   body:
 *     str srcarch, str realpath(srctree), str srctree (as given)
 *     makefiles objects modules skipped_lines
 *     ngroups, str SRCARCH of each group
 *     nstrings, str each (object paths, modules, conds)
 *     ndeps, each: u8 kind, str path, then
 *       'F' u8 regular file   'R' i64 mtime ns, i64 size, u64 inode
 *       'D' i64 mtime ns, u64 inode   'G' nmatches, str each
 *     nobjs, each (in scan order): path, module + 1 (0: none), group,
 *       u8 always, u8 source ('c', 'S', 0), nconds, conds (string ids)
 *
 * The cache is valid if the header, identity, srcarch and both srctree
 * strings match and every dependency still holds: it is loaded by replaying the
 * objects through obj_insert, as the scan recorded them.
 */
#define KBCACHE_MAGIC	"KCKBUILD"
#define KBCACHE_VERSION	1
#define KBCACHE_MAX	(1u << 30)

/*
 * The identity of a cache: what it was made from (SRCARCH, the tree's
 * real path and the path as given, trailing '/' stripped), so that a
 * cache of another tree is refused before its body is read.
 */
static uint64_t
kbcache_identity(const char *srcarch, const char *real, const char *srctree)
{
	uint64_t	h = hash_buf64(srcarch, strlen(srcarch) + 1);

	h = hash_fnv64(h, real, strlen(real) + 1);
	return hash_fnv64(h, srctree, strlen(srctree) + 1);
}

/* Append a u32. */
static void
kbcache_put32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, (const char *)&v, sizeof v);
}

/* Append a u64. */
static void
kbcache_put64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, (const char *)&v, sizeof v);
}

/* Append a string (length with its NUL, then the bytes and the NUL). */
static void
kbcache_putstr(struct strbuf *sb, const char *s)
{
	size_t	l = strlen(s) + 1;

	kbcache_put32(sb, (uint32_t)l);
	strbuf_add(sb, s, l);
}

/* The id of string s in the table (added to strs if new). */
static uint32_t
kbcache_strid(struct strmap *ids, struct strbuf *strs, uint32_t *n,
    const char *s)
{
	size_t	l = strlen(s);
	void	*v;

	if ((v = strmap_get(ids, s, l)) != NULL)
		return (uint32_t)((uintptr_t)v - 1);
	strmap_set(ids, s, l, (void *)(uintptr_t)(*n + 1));
	kbcache_putstr(strs, s);
	return (*n)++;
}

/* The length of path's directory part ("a/b/c.o" -> 3, "c.o" -> 0). */
static size_t
kbcache_dirlen(const char *path)
{
	const char	*slash = strrchr(path, '/');

	return slash != NULL ? (size_t)(slash - path) : 0;
}

/*
 * Order dependencies by directory, then name, then kind: those of one
 * directory together, so that checking them opens it once.
 */
static int
kbcache_dep_cmp(const void *x, const void *y)
{
	const struct kbdep	*a = *(struct kbdep *const *)x;
	const struct kbdep	*b = *(struct kbdep *const *)y;
	size_t			 la = kbcache_dirlen(a->path);
	size_t			 lb = kbcache_dirlen(b->path);
	int			 c;

	c = memcmp(a->path, b->path, la < lb ? la : lb);
	if (c == 0 && la != lb)
		c = la < lb ? -1 : 1;
	if (c == 0)
		c = strcmp(a->path + la, b->path + lb);
	return c != 0 ? c : a->kind - b->kind;
}

#define KBCACHE_FEW	4	/* tests of fewer files of a directory are
				   kept one by one */
#define KBCACHE_RACY	2	/* seconds: a directory changed so recently
				   could change again with the same mtime */

/*
 * Whether the 'F' dependencies v[0..n) (of one directory, dir) can stand
 * as the directory's mtime and inode: the directory lists them as they
 * were found (the tree has not changed since), none is a symbolic link
 * (its target could change elsewhere) or of unknown type, and the
 * directory was not changed too recently for its mtime to show the next
 * change. Those that can't are kept (keep[i]). Returns -1 if the tree
 * changed (no cache then), 0 if nothing can be folded, 1 if the 'D'
 * dependency in *dd (filled) covers the rest.
 */
static int
kbcache_fold_dir(const struct kbuild *kb, const char *dir,
    struct kbdep *const *v, size_t n, bool *keep, struct kbdep *dd)
{
	struct strmap	 names;
	struct arena	 a;
	time_t		 now;
	struct dirent	*de;
	struct stat	 sb;
	const char	*name;
	void		*t;
	DIR		*dp;
	size_t		 i, folded = 0;
	int		 fd, type, rc = 0;

	fd = openat(kb->treefd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	now = time(NULL);	/* wall clock, as mtimes: not lib/clock.h */
	if (fstat(fd, &sb) != 0 || sb.st_mtim.tv_sec + KBCACHE_RACY >=
	    now || (dp = fdopendir(fd)) == NULL) {
		close(fd);
		return 0;
	}
	strmap_init(&names);
	arena_init(&a);
	while ((de = readdir(dp)) != NULL) {
		name = arena_strdup(&a, de->d_name);
		strmap_set(&names, name, strlen(name),
		    (void *)(uintptr_t)(de->d_type + 1));
	}
	closedir(dp);
	for (i = 0; i < n; i++) {
		name = v[i]->path + kbcache_dirlen(v[i]->path);
		if (*name == '/')
			name++;
		t = strmap_get(&names, name, strlen(name));
		type = t != NULL ? (int)((uintptr_t)t - 1) : -1;
		if (type == DT_LNK || type == DT_UNKNOWN) {
			keep[i] = true;
			continue;
		}
		if ((type == DT_REG) != v[i]->ok) {
			rc = -1;	/* changed since the scan looked */
			break;
		}
		keep[i] = false;
		folded++;
	}
	strmap_free(&names);
	arena_free(&a);
	if (rc < 0 || folded == 0)
		return rc;
	memset(dd, 0, sizeof *dd);
	dd->kind = 'D';
	dd->mtime = deps_mtime(&sb);
	dd->ino = (uint64_t)sb.st_ino;
	return 1;
}

/*
 * The dependencies of r to write, sorted (see kbcache_dep_cmp), with the
 * tests of whether files are there folded into their directory's mtime
 * where kbcache_fold_dir allows: a few thousand stats to check instead of
 * one for each object's source. NULL if the tree changed during the scan.
 */
static struct kbdep **
kbcache_fold(const struct kbuild *kb, struct kbdeps *r, size_t *np)
{
	struct kbdep	**out, *dd;
	bool		 *keep;
	size_t		  i, j, k, nf, l, n = 0;
	char		 *dir;
	int		  rc;

	if (r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, kbcache_dep_cmp);
	out = xcalloc(r->n + 1, 2 * sizeof *out);
	keep = xcalloc(r->n + 1, sizeof *keep);
	for (i = 0; i < r->n; i = j) {
		l = kbcache_dirlen(r->v[i]->path);
		for (j = i + 1; j < r->n; j++) {
			if (kbcache_dirlen(r->v[j]->path) != l ||
			    memcmp(r->v[j]->path, r->v[i]->path, l) != 0)
				break;
		}
		/* The F dependencies of the group, moved first. */
		for (k = i, nf = 0; k < j; k++) {
			keep[k] = true;
			if (r->v[k]->kind == 'F')
				nf++;
		}
		if (nf >= KBCACHE_FEW) {
			struct kbdep	**fv = xcalloc(nf, sizeof *fv);
			bool		 *fk = xcalloc(nf, sizeof *fk);
			size_t		  m = 0;

			for (k = i; k < j; k++) {
				if (r->v[k]->kind == 'F')
					fv[m++] = r->v[k];
			}
			dir = l > 0 ? xstrndup(r->v[i]->path, l) :
			    xstrdup(".");
			dd = arena_alloc(&r->a, sizeof *dd);
			rc = kbcache_fold_dir(kb, dir, fv, nf, fk, dd);
			if (rc < 0) {
				free(dir);
				free(fv);
				free(fk);
				free(out);
				free(keep);
				return NULL;
			}
			if (rc > 0) {
				dd->path = arena_strdup(&r->a, dir);
				out[n++] = dd;
				for (k = i, m = 0; k < j; k++) {
					if (r->v[k]->kind == 'F')
						keep[k] = fk[m++];
				}
			}
			free(dir);
			free(fv);
			free(fk);
		}
		for (k = i; k < j; k++) {
			if (keep[k])
				out[n++] = r->v[k];
		}
	}
	free(keep);
	*np = n;
	return out;
}

/*
 * Save the index kb just scanned (with its dependencies in kb->rec) to
 * path, atomically. Failures are ignored: the next run scans again.
 */
static void
kbcache_save(struct kbuild *kb, const char *path, const char *srcarch,
    const char *real)
{
	struct kbdep		**dv;
	const struct kbdep	*d;
	const struct kobj	*o;
	struct strbuf		 body, strs, objs;
	struct strmap		 ids;
	uint32_t		 nstr = 0;
	size_t			 i, off, l, ndv;
	char			*why = NULL;
	int			 c, g;

	strmap_init(&ids);
	strbuf_init(&body);
	strbuf_init(&strs);
	strbuf_init(&objs);
	kbcache_putstr(&body, srcarch);
	kbcache_putstr(&body, real);
	kbcache_putstr(&body, kb->srctree);
	kbcache_put32(&body, (uint32_t)kb->st.makefiles);
	kbcache_put32(&body, (uint32_t)kb->st.objects);
	kbcache_put32(&body, (uint32_t)kb->st.modules);
	kbcache_put32(&body, (uint32_t)kb->st.skipped_lines);
	kbcache_put32(&body, (uint32_t)kb->ngroups);
	for (g = 0; g < kb->ngroups; g++)
		kbcache_putstr(&body, kb->garch[g] ? kb->garch[g] : "");

	kbcache_put32(&objs, (uint32_t)kb->nobjv);
	for (i = 0; i < kb->nobjv; i++) {
		o = kb->objv[i];
		kbcache_put32(&objs, kbcache_strid(&ids, &strs, &nstr,
		    o->pub.path));
		kbcache_put32(&objs, o->pub.module == NULL ? 0 :
		    kbcache_strid(&ids, &strs, &nstr, o->pub.module) + 1);
		kbcache_put32(&objs, (uint32_t)o->group);
		strbuf_addc(&objs, o->pub.always ? 1 : 0);
		strbuf_addc(&objs, o->src);
		kbcache_put32(&objs, (uint32_t)o->pub.nconds);
		for (c = 0; c < o->pub.nconds; c++)
			kbcache_put32(&objs, kbcache_strid(&ids, &strs, &nstr,
			    o->pub.conds[c]));
	}
	kbcache_put32(&body, nstr);
	strbuf_add(&body, strs.s, strs.len);

	if ((dv = kbcache_fold(kb, kb->rec, &ndv)) == NULL) {
		strbuf_free(&body);
		strbuf_free(&strs);
		strbuf_free(&objs);
		strmap_free(&ids);
		return;
	}
	kbcache_put32(&body, (uint32_t)ndv);
	for (i = 0; i < ndv; i++) {
		d = dv[i];
		strbuf_addc(&body, d->kind);
		kbcache_putstr(&body, d->path);
		switch (d->kind) {
		case 'F':
			strbuf_addc(&body, d->ok ? 1 : 0);
			break;
		case 'R':
			kbcache_put64(&body, (uint64_t)d->mtime);
			kbcache_put64(&body, (uint64_t)d->size);
			kbcache_put64(&body, d->ino);
			break;
		case 'D':
			kbcache_put64(&body, (uint64_t)d->mtime);
			kbcache_put64(&body, d->ino);
			break;
		case 'G':
			for (off = 0, c = 0; off < d->listlen; c++)
				off += strlen(d->list + off) + 1;
			kbcache_put32(&body, (uint32_t)c);
			for (off = 0; off < d->listlen; off += l) {
				l = strlen(d->list + off) + 1;
				kbcache_putstr(&body, d->list + off);
			}
			break;
		}
	}
	free(dv);
	strbuf_add(&body, objs.s, objs.len);
	strbuf_free(&strs);
	strbuf_free(&objs);
	strmap_free(&ids);

	if (body.len <= KBCACHE_MAX) {
		cachefile_write(path, KBCACHE_MAGIC, KBCACHE_VERSION,
		    kbcache_identity(srcarch, real, kb->srctree), body.s,
		    body.len, &why);
		free(why);
	}
	strbuf_free(&body);
}

/* Reading a cache file: a cursor that fails (bad) past the end. */
struct kbcache_rd {
	const char	*p, *end;
	bool		 bad;
};

/* Take n bytes; NULL (and bad) if there are not so many. */
static const char *
kbcache_take(struct kbcache_rd *rd, size_t n)
{
	const char	*s = rd->p;

	if (rd->bad || (size_t)(rd->end - rd->p) < n) {
		rd->bad = true;
		return NULL;
	}
	rd->p += n;
	return s;
}

/* A byte, or 0 (bad) at the end. */
static unsigned char
kbcache_get8(struct kbcache_rd *rd)
{
	const char	*s = kbcache_take(rd, 1);

	return s != NULL ? (unsigned char)*s : 0;
}

/* A u32, or 0 (bad) at the end. */
static uint32_t
kbcache_get32(struct kbcache_rd *rd)
{
	const char	*s = kbcache_take(rd, 4);
	uint32_t	 v = 0;

	if (s != NULL)
		memcpy(&v, s, 4);
	return v;
}

/* A u64, or 0 (bad) at the end. */
static uint64_t
kbcache_get64(struct kbcache_rd *rd)
{
	const char	*s = kbcache_take(rd, 8);
	uint64_t	 v = 0;

	if (s != NULL)
		memcpy(&v, s, 8);
	return v;
}

/* A count of items of at least size bytes each that can still follow. */
static uint32_t
kbcache_count(struct kbcache_rd *rd, size_t size)
{
	uint32_t	n = kbcache_get32(rd);

	if (!rd->bad && n > (size_t)(rd->end - rd->p) / size)
		rd->bad = true;
	return rd->bad ? 0 : n;
}

/* A string (in the buffer, NUL-ended, no NUL inside), or "" (bad). */
static const char *
kbcache_getstr(struct kbcache_rd *rd, size_t *lenp)
{
	uint32_t	 l = kbcache_get32(rd);
	const char	*s;

	if (l == 0 || (s = kbcache_take(rd, l)) == NULL || s[l - 1] != '\0' ||
	    memchr(s, '\0', l - 1) != NULL) {
		rd->bad = true;
		if (lenp != NULL)
			*lenp = 0;
		return "";
	}
	if (lenp != NULL)
		*lenp = l - 1;
	return s;
}

/* Whether the matches of $(wildcard) pattern are still the n recorded. */
static bool
kbcache_glob_same(struct kbcache_rd *rd, const struct kbuild *kb,
    const char *pattern)
{
	glob_t		 g;
	const char	*m;
	char		*pat;
	uint32_t	 n, i;
	size_t		 have = 0;
	bool		 same;

	n = kbcache_count(rd, 5);
	pat = xasprintf("%s/%s", kb->srctree, pattern);
	if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
		have = g.gl_pathc;
	else
		memset(&g, 0, sizeof g);
	free(pat);
	same = have == n;
	for (i = 0; i < n && !rd->bad; i++) {
		m = kbcache_getstr(rd, NULL);
		if (same && strcmp(m, g.gl_pathv[i]) != 0)
			same = false;
	}
	if (have > 0)
		globfree(&g);
	return same && !rd->bad;
}

/* Whether every recorded dependency still holds. */
static bool
kbcache_deps_hold(struct kbcache_rd *rd, const struct kbuild *kb)
{
	struct stat	 sb;
	const char	*path;
	uint32_t	 n, i;
	uint64_t	 mtime, size, ino;
	bool		 there, ok;
	int		 kind;

	n = kbcache_count(rd, 6);
	for (i = 0; i < n && !rd->bad; i++) {
		kind = kbcache_get8(rd);
		path = kbcache_getstr(rd, NULL);
		if (rd->bad || path[0] == '\0' || path[strlen(path) - 1] == '/')
			return false;
		there = kind != 'G' && fstatat(kb->treefd, path, &sb, 0) == 0;
		switch (kind) {
		case 'F':
			ok = kbcache_get8(rd) != 0;
			if (ok != (there && S_ISREG(sb.st_mode)))
				return false;
			break;
		case 'R':
			mtime = kbcache_get64(rd);
			size = kbcache_get64(rd);
			ino = kbcache_get64(rd);
			if (!there || !S_ISREG(sb.st_mode) ||
			    (uint64_t)deps_mtime(&sb) != mtime ||
			    (uint64_t)sb.st_size != size ||
			    (uint64_t)sb.st_ino != ino)
				return false;
			break;
		case 'D':
			mtime = kbcache_get64(rd);
			ino = kbcache_get64(rd);
			if (!there || !S_ISDIR(sb.st_mode) ||
			    (uint64_t)deps_mtime(&sb) != mtime ||
			    (uint64_t)sb.st_ino != ino)
				return false;
			break;
		case 'G':
			if (!kbcache_glob_same(rd, kb, path))
				return false;
			break;
		default:
			return false;
		}
	}
	return !rd->bad;
}


/*
 * The index from the cache at path if it is intact, for this srctree,
 * srcarch and real path, and every dependency holds; otherwise NULL.
 */
static struct kbuild *
kbcache_load(const char *path, const char *srctree, const char *srcarch,
    const char *real)
{
	struct cachefile	 cf;
	struct kbcache_rd	 rd;
	struct kbuild		*kb = NULL;
	struct kbuild_stats	 st;
	const char		**strv = NULL, **conds = NULL, *s, *module;
	char			*cause = NULL;
	size_t			 l;
	uint32_t		 nstr, nobj, ngroups, i, j, id, group, nc;
	uint32_t		 capc = 0;
	uint64_t		 reserved;
	int			 always, src;

	if (cachefile_open(&cf, path, KBCACHE_MAGIC, KBCACHE_VERSION,
	    CACHEFILE_POPULATE, &cause) != 0)
		goto bad;
	/* cachefile_open leaves the header's reserved word alone: one not
	 * 0 is not a header we wrote. */
	memcpy(&reserved, (const char *)cf.map + CACHEFILE_HEADER -
	    sizeof reserved, sizeof reserved);
	if (reserved != 0 || cf.len > KBCACHE_MAX)
		goto bad;
	rd.p = cf.data;
	rd.end = rd.p + cf.len;
	rd.bad = false;
	if ((kb = scan_open(srctree, &cause)) == NULL ||
	    cf.identity != kbcache_identity(srcarch, real, kb->srctree))
		goto bad;
	if (strcmp(kbcache_getstr(&rd, NULL), srcarch) != 0 ||
	    strcmp(kbcache_getstr(&rd, NULL), real) != 0 || rd.bad ||
	    strcmp(kbcache_getstr(&rd, NULL), kb->srctree) != 0)
		goto bad;
	memset(&st, 0, sizeof st);
	st.makefiles = (int)kbcache_get32(&rd);
	st.objects = (int)kbcache_get32(&rd);
	st.modules = (int)kbcache_get32(&rd);
	st.skipped_lines = (int)kbcache_get32(&rd);
	st.from_cache = true;

	ngroups = kbcache_count(&rd, 5);
	if (rd.bad || ngroups == 0 || ngroups > INT32_MAX)
		goto bad;
	kb->gvars = xcalloc(ngroups, sizeof *kb->gvars);
	kb->garch = xcalloc(ngroups, sizeof *kb->garch);
	for (i = 0; i < ngroups; i++) {
		s = kbcache_getstr(&rd, &l);
		kb->gvars[i] = xcalloc(1, sizeof **kb->gvars);
		kb->garch[i] = intern_str(&kb->in, s, l);
		kb->ngroups++;
	}
	nstr = kbcache_count(&rd, 5);
	if (rd.bad)
		goto bad;
	strv = xcalloc(nstr + 1, sizeof *strv);
	for (i = 0; i < nstr && !rd.bad; i++) {
		s = kbcache_getstr(&rd, &l);
		strv[i] = intern_str(&kb->in, s, l);
	}
	if (rd.bad || !kbcache_deps_hold(&rd, kb))
		goto bad;

	nobj = kbcache_count(&rd, 18);
	if (rd.bad || nobj != (uint32_t)st.objects || st.modules < 0 ||
	    (uint32_t)st.modules > nobj)
		goto bad;	/* (a module has objects: no huge reserve) */
	strmap_reserve(&kb->objpaths, nobj);
	strmap_reserve(&kb->sources, nobj);
	strmap_reserve(&kb->modules, (size_t)st.modules);
	kb->capobjv = nobj > 0 ? nobj : 1;
	kb->objv = xrealloc(kb->objv, kb->capobjv * sizeof *kb->objv);
	for (i = 0; i < nobj; i++) {
		if ((id = kbcache_get32(&rd)) >= nstr)
			goto bad;
		s = strv[id];
		if ((id = kbcache_get32(&rd)) > nstr)
			goto bad;
		module = id > 0 ? strv[id - 1] : NULL;
		group = kbcache_get32(&rd);
		always = kbcache_get8(&rd);
		src = kbcache_get8(&rd);
		nc = kbcache_count(&rd, 4);
		if (rd.bad || group >= ngroups || always > 1 ||
		    (src != 0 && src != 'c' && src != 'S'))
			goto bad;
		if (nc > capc) {
			capc = nc;
			conds = xrealloc(conds, capc * sizeof *conds);
		}
		for (j = 0; j < nc; j++) {
			if ((id = kbcache_get32(&rd)) >= nstr)
				goto bad;
			conds[j] = strv[id];
		}
		obj_insert(kb, (int)group, s, strlen(s), module, conds,
		    (int)nc, always != 0, src);
		if (kb->nobjv != (size_t)i + 1)
			goto bad;	/* a duplicate: not what a scan wrote */
	}
	if (rd.bad || rd.p != rd.end || kb->modules.count !=
	    (size_t)st.modules)
		goto bad;
	kb->st = st;
	free(conds);
	free(strv);
	cachefile_close(&cf);
	return kb;

bad:
	free(cause);
	free(conds);
	free(strv);
	kbuild_free(kb);
	cachefile_close(&cf);
	return NULL;
}

struct kbuild *
kbuild_scan_cached(const char *srctree, const char *srcarch,
    const char *cache_path, char **cause)
{
	struct kbuild	*kb;
	char		*real;

	if (cache_path == NULL)
		return kbuild_scan(srctree, srcarch, cause);
	if (!scan_check_arch(srcarch, cause))
		return NULL;
	if ((real = realpath(srctree, NULL)) == NULL)
		return kbuild_scan(srctree, srcarch, cause);
	if ((kb = kbcache_load(cache_path, srctree, srcarch, real)) != NULL) {
		free(real);
		return kb;
	}
	kb = scan_tree(srctree, srcarch, deps_new(), cause);
	if (kb != NULL) {
		if (!kb->rec->bad)
			kbcache_save(kb, cache_path, srcarch, real);
		deps_free(kb->rec);
		kb->rec = NULL;
	}
	free(real);
	return kb;
}

int
kbuild_parse_text(struct kbuild *kb, const char *dir, const char *text,
    size_t len)
{
	struct parse	 p;
	struct kdir	*d;
	struct arena	 tmp;
	const char	*path;
	size_t		 l;

	if (kb == NULL || dir == NULL || (text == NULL && len > 0))
		return -1;
	if (kb->ngroups == 0) {
		kb->gvars = xcalloc(1, sizeof *kb->gvars);
		kb->garch = xcalloc(1, sizeof *kb->garch);
		kb->gvars[0] = xcalloc(1, sizeof **kb->gvars);
		kb->garch[0] = NULL;
		kb->ngroups = 1;
	}
	arena_init(&tmp);
	path = path_norm(&tmp, kb, dir, strlen(dir));
	l = path ? strlen(path) : 0;
	path = intern_str(&kb->in, path ? path : "", l);
	arena_free(&tmp);
	if ((d = strmap_get(&kb->dirs, path, l)) == NULL) {
		d = arena_alloc(&kb->arena, sizeof *d);
		d->path = path;
		d->conds = arena_alloc(&kb->arena, sizeof *d->conds);
		strmap_set(&kb->dirs, path, l, d);
	}
	d->parsed = true;
	kb->st.makefiles++;
	parse_init(&p, kb, d->path, false, d->group);
	parse_text(&p, text ? text : "", len);
	resolve(&p, d);
	parse_done(&p);
	kb->st.modules = (int)kb->modules.count;
	return 0;
}

void
kbuild_free(struct kbuild *kb)
{
	size_t	i;
	int	g;

	if (kb == NULL)
		return;
	for (i = 0; i < kb->nlists; i++)
		free(kb->lists[i]->v);
	free(kb->lists);
	free(kb->objv);
	free(kb->queue);
	for (g = 0; g < kb->ngroups; g++) {
		strmap_free(kb->gvars[g]);
		free(kb->gvars[g]);
	}
	free(kb->gvars);
	free(kb->garch);
	strmap_free(&kb->objpaths);
	strmap_free(&kb->sources);
	strmap_free(&kb->modules);
	strmap_free(&kb->syms);
	strmap_free(&kb->dirs);
	intern_free(&kb->in);
	arena_free(&kb->arena);
	if (kb->treefd >= 0)
		close(kb->treefd);
	deps_free(kb->rec);
	free(kb->srctree);
	free(kb);
}

const struct kbuild_obj *
kbuild_source(const struct kbuild *kb, const char *srcpath)
{
	const struct kobj	*o;

	while (srcpath[0] == '.' && srcpath[1] == '/')
		srcpath += 2;
	o = strmap_get(&kb->sources, srcpath, strlen(srcpath));
	return o ? &o->pub : NULL;
}

size_t
kbuild_module(const struct kbuild *kb, const char *module,
    const struct kbuild_obj *const **objs)
{
	const struct olist	*l;
	char			*m = xstrdup(module), *q;

	for (q = m; *q != '\0'; q++) {
		if (*q == '-')
			*q = '_';
	}
	l = strmap_get(&kb->modules, m, strlen(m));
	free(m);
	*objs = l ? l->v : NULL;
	return l ? l->n : 0;
}

size_t
kbuild_symbol_objs(const struct kbuild *kb, const char *sym,
    const struct kbuild_obj *const **objs)
{
	const struct olist	*l;

	if (strncmp(sym, "CONFIG_", 7) == 0)
		sym += 7;
	l = strmap_get(&kb->syms, sym, strlen(sym));
	*objs = l ? l->v : NULL;
	return l ? l->n : 0;
}

size_t
kbuild_nobjs(const struct kbuild *kb)
{
	return kb->nobjv;
}

const struct kbuild_obj *
kbuild_obj_at(const struct kbuild *kb, size_t i)
{
	return i < kb->nobjv ? &kb->objv[i]->pub : NULL;
}

void
kbuild_get_stats(const struct kbuild *kb, struct kbuild_stats *st)
{
	*st = kb->st;
}
