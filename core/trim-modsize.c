/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-modsize.c - what a module weighs, for the trim's estimated saving:
 * the .ko files of the installed module tree, else the loaded modules'
 * sizes of the bundles.
 */
#include <sys/stat.h>

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"
#include "evidence.h"
#include "trim-int.h"

/* Hash a module name. */
static size_t
ko_hash(const char *s)
{
	return hash_str(s, strlen(s));
}

/* Add a module's size; the first one found for a name wins. */
static void
ko_put(struct ko_map *m, const char *name, unsigned long long size)
{
	size_t i, j;

	if (m->count * 2 >= m->size) {
		struct ko_map	n;

		n.size = m->size ? m->size * 2 : 1024;
		n.count = 0;
		n.names = xcalloc(n.size, sizeof *n.names);
		n.sizes = xcalloc(n.size, sizeof *n.sizes);
		for (i = 0; i < m->size; i++) {
			if (m->names[i] == NULL)
				continue;
			for (j = ko_hash(m->names[i]) & (n.size - 1);
			    n.names[j] != NULL; j = (j + 1) & (n.size - 1))
				;
			n.names[j] = m->names[i];
			n.sizes[j] = m->sizes[i];
			n.count++;
		}
		free(m->names);
		free(m->sizes);
		*m = n;
	}
	for (j = ko_hash(name) & (m->size - 1); m->names[j] != NULL;
	    j = (j + 1) & (m->size - 1)) {
		if (strcmp(m->names[j], name) == 0)
			return;		/* first one found wins */
	}
	m->names[j] = xstrdup(name);
	m->sizes[j] = size;
	m->count++;
}

/* A module's size, 0 when unknown. */
static unsigned long long
ko_get(const struct ko_map *m, const char *name)
{
	size_t j;

	if (m->size == 0)
		return 0;
	for (j = ko_hash(name) & (m->size - 1); m->names[j] != NULL;
	    j = (j + 1) & (m->size - 1)) {
		if (strcmp(m->names[j], name) == 0)
			return m->sizes[j];
	}
	return 0;
}

/* Module names use '_' in the map ("snd-hda-intel" is snd_hda_intel). */
static char *
ko_name(const char *s, size_t len)
{
	char	*n = xstrndup(s, len), *p;

	for (p = n; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

static struct ko_map *ko_walking;	/* nftw has no argument pointer */

/* One file under /lib/modules/VERSION: NAME.ko[.xz|.zst|.gz]. */
static int
ko_visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char	*base = path + f->base, *dot;
	char		*name;

	if (flag != FTW_F)
		return 0;
	if ((dot = strstr(base, ".ko")) == NULL || (dot[3] != '\0' &&
	    dot[3] != '.'))
		return 0;
	name = ko_name(base, (size_t)(dot - base));
	ko_put(ko_walking, name, (unsigned long long)st->st_size);
	free(name);
	return 0;
}

/* Sizes of the modules: the .ko files of the installed tree when there
 * is one, then the loaded modules' sizes of the bundles. */
void
trim_ko_load(struct trim *t)
{
	const struct evidence	*ev = t->in->ev;
	const struct ev_bundle	*b;
	const struct ev_item	*it;
	struct stat		 st;
	char			*dir = NULL, *name;
	size_t			 i, n;
	int			 j;

	if (t->in->modules_dir != NULL)
		dir = xstrdup(t->in->modules_dir);
	for (j = 0; dir == NULL && ev != NULL && j < evidence_nbundles(ev);
	    j++) {
		b = evidence_bundle(ev, j);
		if (b->release != NULL)
			dir = xasprintf("/lib/modules/%s", b->release);
	}
	if (dir != NULL && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* Static pointer: trim_suggest runs nftw from one thread
		 * at a time only in practice; guard by resetting. */
		ko_walking = &t->ko;
		nftw(dir, ko_visit, 16, FTW_PHYS);
		ko_walking = NULL;
		if (t->ko.count != 0)
			t->st.modules_dir = xstrdup(dir);
	}
	free(dir);
	n = ev != NULL ? evidence_count(ev, EV_MODULE) : 0;
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_MODULE, i);
		if (it->detail == NULL)
			continue;
		name = ko_name(it->name, strlen(it->name));
		ko_put(&t->ko, name, strtoull(it->detail, NULL, 10));
		free(name);
	}
}

/* Free the map and the names it owns. */
void
trim_ko_free(struct ko_map *m)
{
	size_t i;

	for (i = 0; i < m->size; i++)
		free(m->names[i]);
	free(m->names);
	free(m->sizes);
}

/* The size of a module (by its Kbuild name), 0 when unknown. */
unsigned long long
trim_ko_bytes(struct trim *t, const char *module)
{
	unsigned long long	 bytes;
	char			*name = ko_name(module, strlen(module));

	bytes = ko_get(&t->ko, name);
	free(name);
	return bytes;
}
