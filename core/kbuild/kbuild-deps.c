/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-deps.c - what a scan for kbuild_scan_cached looks at in the
 * tree (struct kbdeps in kbuild-int.h): the files read or looked for, the
 * directories listed, the $(wildcard)s, so that kbuild-cache.c can tell
 * whether a cache of the scan still holds.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "kbuild-int.h"

/* A new, empty record of dependencies. */
struct kbdeps *
kbdeps_new(void)
{
	struct kbdeps	*r = xcalloc(1, sizeof *r);

	arena_init(&r->a);
	return r;
}

/* Free a record of dependencies. */
void
kbdeps_free(struct kbdeps *r)
{
	if (r == NULL)
		return;
	strmap_free(&r->seen);
	free(r->v);
	arena_free(&r->a);
	free(r);
}

/* A stat's mtime in nanoseconds. */
int64_t
kbdeps_mtime(const struct stat *sb)
{
	return (int64_t)sb->st_mtim.tv_sec * 1000000000 +
	    (int64_t)sb->st_mtim.tv_nsec;
}

/*
 * The dependency of kind on path, new (zeroed but for path and kind) or
 * NULL if already recorded.
 */
static struct kbdep *
kbdeps_add(struct kbdeps *r, char kind, const char *path)
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
	XGROW(r->v, r->cap, r->n + 1, 4096);
	r->v[r->n++] = d;
	return d;
}

/* Record whether path is a regular file. */
void
kbdeps_file(struct kbdeps *r, const char *path, bool ok)
{
	struct kbdep	*d;

	if (r != NULL && (d = kbdeps_add(r, 'F', path)) != NULL)
		d->ok = ok;
}

/* Record a file read, or a directory listed (kind 'R' or 'D'). */
void
kbdeps_stat(struct kbdeps *r, char kind, const char *path,
    const struct stat *sb)
{
	struct kbdep	*d;

	if (r == NULL || (d = kbdeps_add(r, kind, path)) == NULL)
		return;
	d->mtime = kbdeps_mtime(sb);
	d->size = kind == 'R' ? (int64_t)sb->st_size : 0;
	d->ino = (uint64_t)sb->st_ino;
}

/* Record a $(wildcard) pattern and its matches (n of them). */
void
kbdeps_glob(struct kbdeps *r, const char *pattern, char **matches, size_t n)
{
	struct kbdep	*d;
	size_t		 i, len = 0, l;
	char		*s;

	if (r == NULL || (d = kbdeps_add(r, 'G', pattern)) == NULL)
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
