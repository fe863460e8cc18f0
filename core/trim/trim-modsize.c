/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-modsize.c - what a module weighs, for the trim's estimated saving:
 * the .ko files of the installed module tree (/lib/modules/<release of a
 * bundle>, or trim_input.modules_dir), each weighed by what it takes
 * once loaded, else the loaded modules' sizes of the bundles. The tree is
 * walked once for names; a file is read only when a candidate asks for
 * its module.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <fts.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "trim-int.h"
#include "../evidence/zstream.h"

/* Module names use '_' in the map ("snd-hda-intel" is snd_hda_intel). */
static char *
ko_name(const char *s, size_t len)
{
	return modname_dup(s, len);
}

/* Add a module (name and path are taken over); the first one found for a
 * name wins, as depmod's search order puts the preferred copy first. */
static void
ko_put(struct ko_map *m, char *name, char *path, unsigned long long size,
    bool known)
{
	struct strmap_entry	*e;
	struct ko_ent		*ent;
	bool			 added;

	e = strmap_insert(&m->byname, name, strlen(name), &added);
	if (!added) {
		free(name);
		free(path);
		return;
	}
	XGROW(m->ents, m->alloc, m->count + 1, 1024);
	ent = &m->ents[m->count];
	ent->name = name;		/* the map's key: lives as long */
	ent->path = path;
	ent->size = size;
	ent->known = known;
	e->value = (void *)(uintptr_t)++m->count;
}

/*
 * The size a module takes once loaded: the sum of its SHF_ALLOC sections,
 * what the kernel's loader copies into memory (code, data, bss, and the
 * init sections it frees after init), not the file's size (symbols,
 * relocations, debug information, signature, compression). Read with
 * libelf from the decoded file (zstream.c: .ko, .ko.xz, .ko.gz). 0,
 * unknown, for a file that is not ELF or can't be decoded: a .ko.zst,
 * since this build has no libzstd.
 */
static unsigned long long
ko_loaded_size(const char *path)
{
	unsigned long long	 sum = 0;
	Elf			*e;
	Elf_Scn			*scn = NULL;
	GElf_Shdr		 sh;
	char			*cause = NULL;
	void			*buf;
	size_t			 len;

	if (zstream_decode_file(path, &buf, &len, &cause) != 0) {
		free(cause);
		return 0;
	}
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (e = elf_memory(buf, len)) == NULL) {
		free(buf);
		return 0;
	}
	if (elf_kind(e) == ELF_K_ELF) {
		while ((scn = elf_nextscn(e, scn)) != NULL) {
			if (gelf_getshdr(scn, &sh) == NULL) {
				sum = 0;	/* damaged: unknown */
				break;
			}
			if (sh.sh_flags & SHF_ALLOC)
				sum += sh.sh_size;
		}
	}
	elf_end(e);
	free(buf);
	return sum;
}

/* Every NAME.ko[.xz|.zst|.gz] under dir, in the walk's order (fts, like
 * nftw before it: each directory's entries as readdir gives them, depth
 * first, symlinks not followed). */
static void
ko_walk(struct ko_map *m, const char *dir)
{
	char		*argv[2] = { (char *)dir, NULL };
	const char	*base, *dot;
	FTS		*fts;
	FTSENT		*f;

	if ((fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR, NULL)) == NULL)
		return;
	while ((f = fts_read(fts)) != NULL) {
		if (f->fts_info != FTS_F)
			continue;
		base = f->fts_name;
		if ((dot = strstr(base, ".ko")) == NULL || (dot[3] != '\0' &&
		    dot[3] != '.'))
			continue;
		ko_put(m, ko_name(base, (size_t)(dot - base)),
		    xstrdup(f->fts_path), 0, false);
	}
	fts_close(fts);
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
	char			*dir = NULL;
	size_t			 i, n;
	int			 j;

	strmap_init(&t->ko.byname);
	if (t->in->modules_dir != NULL)
		dir = xstrdup(t->in->modules_dir);
	for (j = 0; dir == NULL && ev != NULL && j < evidence_nbundles(ev);
	    j++) {
		b = evidence_bundle(ev, j);
		if (b->release != NULL)
			dir = xasprintf("/lib/modules/%s", b->release);
	}
	if (dir != NULL && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		ko_walk(&t->ko, dir);
		if (t->ko.count != 0)
			t->st.modules_dir = xstrdup(dir);
	}
	free(dir);
	n = ev != NULL ? evidence_count(ev, EV_MODULE) : 0;
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_MODULE, i);
		if (it->detail == NULL)
			continue;
		ko_put(&t->ko, ko_name(it->name, strlen(it->name)), NULL,
		    strtoull(it->detail, NULL, 10), true);
	}
}

/* The size of a module (by its Kbuild name), 0 when unknown; a file is
 * read on first use only (most of a module tree is never asked for). */
unsigned long long
trim_ko_bytes(struct trim *t, const char *module)
{
	struct ko_ent	*ent;
	char		*name = ko_name(module, strlen(module));
	void		*v = strmap_get(&t->ko.byname, name, strlen(name));

	free(name);
	if (v == NULL)
		return 0;
	ent = &t->ko.ents[(uintptr_t)v - 1];
	if (!ent->known) {
		ent->size = ko_loaded_size(ent->path);
		ent->known = true;
	}
	return ent->size;
}

/* Free the map and the names and paths it owns. */
void
trim_ko_free(struct ko_map *m)
{
	size_t i;

	for (i = 0; i < m->count; i++) {
		free(m->ents[i].name);
		free(m->ents[i].path);
	}
	free(m->ents);
	strmap_free(&m->byname);
}
