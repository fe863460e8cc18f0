/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-cache.c - the cache of kbuild_scan_cached: the index a scan
 * made, with what it looked at in the tree, written as a lib/cachefile.h
 * file; loaded again while all of that still holds.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/cachefile.h"
#include "../../lib/fileio.h"

#include "kbuild-int.h"

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
 *       'F' u8 regular file   'R' i64 mtime ns, i64 size, u64 inode,
 *                             u64 content key (cachefile_digest)
 *       'D' i64 mtime ns, u64 inode   'G' nmatches, str each
 *     nobjs, each (in scan order): path, module + 1 (0: none), group,
 *       u8 always, u8 source ('c', 'S', 0), nconds, conds (string ids)
 *
 * The cache is valid if the header, identity, srcarch and both srctree
 * strings match and every dependency still holds: it is loaded by
 * replaying the objects through kb_obj_insert, as the scan recorded them.
 * Every Makefile read ('R') holds by its content, not its mtime alone: a
 * Makefile changed with its mtime put back (cp -p, tar, an edit within
 * the clock's step) is seen. Reading them costs a few tens of ms of the
 * seconds a scan takes.
 */
#define KBCACHE_MAGIC	"KCKBUILD"
#define KBCACHE_VERSION	3	/* 3: Makefiles keyed by content */
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
 * The content key of the tree's file path (cachefile_digest, keyed with
 * the key of the cache at cache_path), if it is still the regular file of
 * mtime (ns) and size; -1 otherwise.
 */
static int
kbcache_content(const struct kbuild *kb, const char *cache_path,
    const char *path, int64_t mtime, int64_t size, uint64_t *digest)
{
	struct stat	 sb;
	char		*text, *cause = NULL;
	size_t		 len;
	int		 fd, rc = -1;

	if (cache_path == NULL || (fd = openat(kb->treefd, path, O_RDONLY |
	    O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    kbdeps_mtime(&sb) != mtime || sb.st_size != size) {
		close(fd);
		return -1;
	}
	/* fd_read_all closes fd, whatever it returns */
	if ((text = fd_read_all(fd, &len, true)) == NULL)
		return -1;
	if (len == (size_t)size && cachefile_digest(cache_path, text, len,
	    digest, &cause) == 0)
		rc = 0;
	free(cause);
	free(text);
	return rc;
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
	dd->mtime = kbdeps_mtime(&sb);
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
	uint64_t		 digest = 0;
	char			*why = NULL;
	bool			 bad = false;
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
			if (kbcache_content(kb, path, d->path, d->mtime,
			    d->size, &digest) != 0)
				bad = true;	/* changed since it was read */
			kbcache_put64(&body, (uint64_t)d->mtime);
			kbcache_put64(&body, (uint64_t)d->size);
			kbcache_put64(&body, d->ino);
			kbcache_put64(&body, digest);
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

	if (!bad && body.len <= KBCACHE_MAX) {
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
	const char	*cache_path;	/* whose key the content keys have */
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

/* Copy n bytes to v (unaligned in the file), or leave v (bad) at the
 * end. */
static void
kbcache_copy(struct kbcache_rd *rd, void *v, size_t n)
{
	const char	*s = kbcache_take(rd, n);

	if (s != NULL)
		memcpy(v, s, n);
}

/* A u32, or 0 (bad) at the end. */
static uint32_t
kbcache_get32(struct kbcache_rd *rd)
{
	uint32_t	v = 0;

	kbcache_copy(rd, &v, sizeof v);
	return v;
}

/* A u64, or 0 (bad) at the end. */
static uint64_t
kbcache_get64(struct kbcache_rd *rd)
{
	uint64_t	v = 0;

	kbcache_copy(rd, &v, sizeof v);
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
	uint64_t	 mtime, size, ino, digest, now;
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
			digest = kbcache_get64(rd);
			if (!there || !S_ISREG(sb.st_mode) ||
			    (uint64_t)kbdeps_mtime(&sb) != mtime ||
			    (uint64_t)sb.st_size != size ||
			    (uint64_t)sb.st_ino != ino || rd->bad ||
			    kbcache_content(kb, rd->cache_path, path,
			    (int64_t)mtime, (int64_t)size, &now) != 0 ||
			    now != digest)
				return false;
			break;
		case 'D':
			mtime = kbcache_get64(rd);
			ino = kbcache_get64(rd);
			if (!there || !S_ISDIR(sb.st_mode) ||
			    (uint64_t)kbdeps_mtime(&sb) != mtime ||
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
 * Replay the nobj objects of a cache into kb, in the scan's order, their
 * strings ids into strv (nstr of them), their groups below ngroups.
 * False if one is out of range or repeated: not what a scan wrote.
 */
static bool
kbcache_objects(struct kbcache_rd *rd, struct kbuild *kb, uint32_t nobj,
    const char **strv, uint32_t nstr, uint32_t ngroups)
{
	const char	**conds = NULL, *s, *module;
	uint32_t	  i, j, id, group, nc, capc = 0;
	int		  always, src;
	bool		  ok = false;

	for (i = 0; i < nobj; i++) {
		if ((id = kbcache_get32(rd)) >= nstr)
			goto out;
		s = strv[id];
		if ((id = kbcache_get32(rd)) > nstr)
			goto out;
		module = id > 0 ? strv[id - 1] : NULL;
		group = kbcache_get32(rd);
		always = kbcache_get8(rd);
		src = kbcache_get8(rd);
		nc = kbcache_count(rd, 4);
		if (rd->bad || group >= ngroups || always > 1 ||
		    (src != 0 && src != 'c' && src != 'S'))
			goto out;
		if (nc > capc) {
			capc = nc;
			conds = xrealloc(conds, capc * sizeof *conds);
		}
		for (j = 0; j < nc; j++) {
			if ((id = kbcache_get32(rd)) >= nstr)
				goto out;
			conds[j] = strv[id];
		}
		kb_obj_insert(kb, (int)group, s, strlen(s), module, conds,
		    (int)nc, always != 0, src);
		if (kb->nobjv != (size_t)i + 1)
			goto out;	/* a duplicate: not what a scan wrote */
	}
	ok = !rd->bad;
out:
	free(conds);
	return ok;
}

/*
 * The index from a cache's payload (data, len) for this srctree, srcarch
 * and real path, if every dependency holds; otherwise NULL. identity is
 * the header's (checked unless check_identity is false: the fuzzer's).
 */
static struct kbuild *
kbcache_parse(const void *data, size_t len, uint64_t identity,
    bool check_identity, const char *srctree, const char *srcarch,
    const char *real, const char *cache_path)
{
	struct kbcache_rd	 rd;
	struct kbuild		*kb = NULL;
	struct kbuild_stats	 st;
	const char		**strv = NULL, *s;
	char			*cause = NULL;
	size_t			 l;
	uint32_t		 nstr, nobj, ngroups, i;

	if (len > KBCACHE_MAX)
		goto bad;
	rd.p = data;
	rd.end = rd.p + len;
	rd.bad = false;
	rd.cache_path = cache_path;
	if ((kb = kb_scan_open(srctree, &cause)) == NULL || (check_identity &&
	    identity != kbcache_identity(srcarch, real, kb->srctree)))
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
	if (!kbcache_objects(&rd, kb, nobj, strv, nstr, ngroups) ||
	    rd.p != rd.end || kb->modules.count != (size_t)st.modules)
		goto bad;
	kb->st = st;
	free(strv);
	return kb;

bad:
	free(cause);
	free(strv);
	kbuild_free(kb);
	return NULL;
}

/* The index from the cache at path if it is intact (lib/cachefile.c's
 * checks) and kbcache_parse takes it; otherwise NULL. */
static struct kbuild *
kbcache_load(const char *path, const char *srctree, const char *srcarch,
    const char *real)
{
	struct cachefile	 cf;
	struct kbuild		*kb;
	char			*cause = NULL;

	if (cachefile_open(&cf, path, KBCACHE_MAGIC, KBCACHE_VERSION,
	    CACHEFILE_POPULATE, &cause) != 0) {
		free(cause);
		return NULL;
	}
	kb = kbcache_parse(cf.data, cf.len, cf.identity, true, srctree,
	    srcarch, real, path);
	cachefile_close(&cf);
	return kb;
}

/* For fuzzing: a cache's payload read against the tree at srctree (its
 * identity not checked: any bytes reach the reader). */
struct kbuild *
kbuild_from_cache_blob(const void *data, size_t len, const char *srctree,
    const char *srcarch)
{
	return kbcache_parse(data, len, 0, false, srctree, srcarch, srctree,
	    NULL);
}

/* A cache that fails any check is only rebuilt: the scan is the truth. */
struct kbuild *
kbuild_scan_cached(const char *srctree, const char *srcarch,
    const char *cache_path, char **cause)
{
	struct kbuild	*kb;
	char		*real;

	if (cache_path == NULL)
		return kbuild_scan(srctree, srcarch, cause);
	if (!kb_scan_check_arch(srcarch, cause))
		return NULL;
	if ((real = realpath(srctree, NULL)) == NULL)
		return kbuild_scan(srctree, srcarch, cause);
	if ((kb = kbcache_load(cache_path, srctree, srcarch, real)) != NULL) {
		free(real);
		return kb;
	}
	kb = kb_scan_tree(srctree, srcarch, kbdeps_new(), cause);
	if (kb != NULL) {
		if (!kb->rec->bad)
			kbcache_save(kb, cache_path, srcarch, real);
		kbdeps_free(kb->rec);
		kb->rec = NULL;
	}
	free(real);
	return kb;
}
