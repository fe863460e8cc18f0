/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcindex-cache.c - the source index's blob: packed after a scan, saved
 * as a lib/cachefile.h cache file ("KCSRCIX\n", identity: the tree's
 * paths, sizes and mtimes) and mapped back as it is, so a warm start does
 * no work but a check. A name is found by hashing it into the kind's slot
 * table that the blob carries (native byte order). The payload:
 *
 *   header   nfiles strsize nrefs nnames[KINDS] nslots[KINDS]   (u32)
 *   u32      path_off[nfiles]
 *   u32      per kind, per name: name_off, count, first ref
 *   u32      per kind, nslots (a power of two): name index + 1, 0 empty;
 *            a name's slot is hash_str(name), probed linearly
 *   u32      refs[nrefs]: file ids, the names' lists one after the other
 *   char     strings[strsize], NUL-terminated
 */
#include <stdlib.h>
#include <string.h>

#include "srcindex-cache.h"
#include "../../lib/util.h"

struct srcblob_header {
	uint32_t	nfiles;
	uint32_t	strsize;
	uint32_t	nrefs;
	uint32_t	nnames[SRC_NKINDS];
	uint32_t	nslots[SRC_NKINDS];
};

/* The slot table size for n names: a power of two, at most half full. */
static uint32_t
srcblob_nslots(size_t n)
{
	uint64_t size = 16;

	if (n == 0)
		return 0;
	if (n > (UINT32_MAX >> 2))
		return UINT32_MAX;	/* more than a cache can hold: refused */
	while (size < 2 * (uint64_t)n + 1)
		size *= 2;
	return (uint32_t)size;
}

/*
 * The one probe of a kind's slot table, for packing and lookup alike:
 * the slot holding name (NUL-terminated), or the empty slot where it
 * would go. Every table has an empty slot (checked on load), so it ends.
 */
static uint32_t
srcblob_probe(const uint32_t *slots, uint32_t nslots, const uint32_t *names,
    const char *strs, const char *name)
{
	uint32_t	mask = nslots - 1, i, v;

	i = hash_str(name, strlen(name)) & mask;
	while ((v = slots[i]) != 0 &&
	    strcmp(strs + names[3 * (size_t)(v - 1)], name) != 0)
		i = (i + 1) & mask;
	return i;
}

/*
 * Point si at a payload if it is intact and holds nfiles files: sizes,
 * every offset, count and id in range, each slot table with exactly one
 * slot per name and one empty at least (so a probe ends). The cache
 * file's header (magic, version, identity, checksum) is checked by the
 * caller. 0 on success, -1 (si untouched).
 */
static int
srcblob_attach(struct srcindex *si, const char *buf, size_t size,
    size_t nfiles)
{
	struct srcblob_header	 hdr;
	const uint32_t		*words, *names, *slots, *refids, *nm;
	const char		*strs;
	size_t			 nwords, k, i, used, off, hsize = sizeof hdr;
	struct srckind		 kinds[SRC_NKINDS];

	if (size < hsize)
		return -1;
	memcpy(&hdr, buf, hsize);
	if (hdr.nfiles != nfiles || hdr.strsize == 0)
		return -1;
	nwords = (size_t)hdr.nfiles + hdr.nrefs;
	for (k = 0; k < SRC_NKINDS; k++) {
		if (hdr.nnames[k] > size / 12 ||
		    hdr.nslots[k] != srcblob_nslots(hdr.nnames[k]))
			return -1;
		nwords += 3 * (size_t)hdr.nnames[k] + hdr.nslots[k];
	}
	if (size != hsize + nwords * 4 + hdr.strsize)
		return -1;
	words = (const uint32_t *)(const void *)(buf + hsize);
	strs = buf + hsize + nwords * 4;
	if (strs[hdr.strsize - 1] != '\0')
		return -1;
	for (i = 0; i < hdr.nfiles; i++)
		if (words[i] >= hdr.strsize)
			return -1;
	off = hdr.nfiles;
	for (k = 0; k < SRC_NKINDS; k++) {
		kinds[k].names = names = words + off;
		kinds[k].nnames = hdr.nnames[k];
		for (i = 0; i < hdr.nnames[k]; i++) {
			nm = names + 3 * i;
			if (nm[0] >= hdr.strsize || nm[2] > hdr.nrefs ||
			    nm[1] > hdr.nrefs - nm[2])
				return -1;
		}
		off += 3 * (size_t)hdr.nnames[k];
	}
	for (k = 0; k < SRC_NKINDS; k++) {
		kinds[k].slots = slots = words + off;
		kinds[k].nslots = hdr.nslots[k];
		for (i = used = 0; i < hdr.nslots[k]; i++) {
			if (slots[i] > hdr.nnames[k])
				return -1;
			used += slots[i] != 0;
		}
		if (used != hdr.nnames[k])
			return -1;
		off += hdr.nslots[k];
	}
	refids = words + off;
	for (i = 0; i < hdr.nrefs; i++)
		if (refids[i] >= hdr.nfiles)
			return -1;

	si->strs = strs;
	si->pathoff = words;
	si->npaths = hdr.nfiles;
	memcpy(si->kinds, kinds, sizeof kinds);
	si->refids = refids;
	si->nrefs = hdr.nrefs;
	return 0;
}

/*
 * Pack a scan's tables, its files' paths and the refs' file ids into a
 * blob: names in table order, each kind's slot table computed here once,
 * so that loading needs none. Then check it as a loaded one would be.
 */
int
srcblob_pack(struct srcindex *si, const struct srcbuild *b,
    const struct srcfile *files, size_t nfiles)
{
	struct srcblob_header	 hdr;
	struct strbuf		 strs;
	const struct strmap	*t;
	struct strmap_entry	*e;
	const struct srcname	*s;
	uint32_t		*words, *w, *names, j;
	size_t			 nwords, k, i, hsize = sizeof hdr, total;
	size_t			 refoff = 0, ii;
	char			*buf;

	memset(&hdr, 0, sizeof hdr);
	hdr.nfiles = (uint32_t)nfiles;
	hdr.nrefs = (uint32_t)b->nrefs;
	nwords = nfiles + b->nrefs;
	for (k = 0; k < SRC_NKINDS; k++) {
		hdr.nnames[k] = (uint32_t)b->tables[k].count;
		hdr.nslots[k] = srcblob_nslots(b->tables[k].count);
		nwords += 3 * (size_t)hdr.nnames[k] + hdr.nslots[k];
	}
	words = xcalloc(nwords ? nwords : 1, sizeof *words);
	w = words;
	strbuf_init(&strs);
	for (i = 0; i < nfiles; i++) {
		*w++ = (uint32_t)strs.len;
		strbuf_add(&strs, files[i].path, strlen(files[i].path) + 1);
	}
	for (k = 0; k < SRC_NKINDS; k++) {
		t = &b->tables[k];
		for (i = 0; (e = strmap_next(t, &i)) != NULL;) {
			s = e->value;
			*w++ = (uint32_t)strs.len;
			*w++ = s->count;
			*w++ = (uint32_t)refoff;
			refoff += s->count;
			strbuf_add(&strs, s->name, strlen(s->name) + 1);
		}
	}
	names = words + nfiles;
	for (k = 0; k < SRC_NKINDS; k++) {
		for (j = 0; j < hdr.nnames[k]; j++)
			w[srcblob_probe(w, hdr.nslots[k], names, strs.s,
			    strs.s + names[3 * j])] = j + 1;
		names += 3 * (size_t)hdr.nnames[k];
		w += hdr.nslots[k];
	}
	/* The refs in the same order as the names. */
	for (k = 0; k < SRC_NKINDS; k++) {
		t = &b->tables[k];
		for (ii = 0; (e = strmap_next(t, &ii)) != NULL;) {
			s = e->value;
			memcpy(w, b->ids + s->off, s->count * sizeof *w);
			w += s->count;
		}
	}
	hdr.strsize = (uint32_t)strs.len;
	total = hsize + nwords * sizeof *words + strs.len;
	buf = xmalloc(total);
	memcpy(buf, &hdr, hsize);
	memcpy(buf + hsize, words, nwords * sizeof *words);
	memcpy(buf + hsize + nwords * sizeof *words, strs.s, strs.len);
	free(words);
	strbuf_free(&strs);
	if (srcblob_attach(si, buf, total, nfiles) != 0) {
		free(buf);
		return -1;
	}
	si->blob = buf;
	si->size = total;
	return 0;
}

/*
 * Map the cache file, every page at once (CACHEFILE_POPULATE: one call
 * instead of a fault per page), and use it if it is the tree's. Writers
 * replace the file by a rename, never in place, so the mapping stays
 * whole while it is used.
 */
int
srccache_load(struct srcindex *si, const char *path, uint64_t identity,
    size_t nfiles)
{
	struct cachefile	 cf;
	char			*why = NULL;

	if (cachefile_open(&cf, path, SRCINDEX_MAGIC, SRCINDEX_VERSION,
	    CACHEFILE_POPULATE, &why) != 0) {
		free(why);	/* refused: rebuilt and rewritten */
		return -1;
	}
	if (cf.identity != identity ||
	    srcblob_attach(si, cf.data, cf.len, nfiles) != 0) {
		cachefile_close(&cf);
		return -1;
	}
	si->cf = cf;
	si->size = cf.len;
	si->from_cache = 1;
	return 0;
}

/* Save a packed blob to path. Failure is not fatal: the next run
 * rebuilds. */
void
srccache_save(const struct srcindex *si, const char *path,
    uint64_t identity)
{
	char	*why = NULL;

	if (cachefile_write(path, SRCINDEX_MAGIC, SRCINDEX_VERSION, identity,
	    si->blob, si->size, &why) != 0)
		free(why);
}

/* Free the index. */
void
srcindex_free(struct srcindex *si)
{
	if (si == NULL)
		return;
	cachefile_close(&si->cf);	/* zeroed unless mapped */
	free(si->blob);
	free(si);
}

/* The files defining name as kind, as ids (srcindex_path()); the count
 * (0: *ids is NULL). */
size_t
srcindex_lookup(const struct srcindex *si, enum src_kind kind,
    const char *name, const uint32_t **ids)
{
	const struct srckind	*kd;
	const uint32_t		*nm;
	uint32_t		 v;

	*ids = NULL;
	if (si == NULL || (int)kind < 0 || kind >= SRC_NKINDS)
		return 0;
	kd = &si->kinds[kind];
	if (kd->nslots == 0)
		return 0;
	v = kd->slots[srcblob_probe(kd->slots, kd->nslots, kd->names,
	    si->strs, name)];
	if (v == 0)
		return 0;
	nm = kd->names + 3 * (size_t)(v - 1);
	if (nm[1] == 0)
		return 0;
	*ids = si->refids + nm[2];
	return nm[1];
}

/* For fuzzing: an index from a cache file's bytes, whatever tree they
 * name and whatever their header says (magic, version and checksum are
 * lib/cachefile.c's to check), or NULL when the payload does not. */
struct srcindex *
srcindex_from_blob(const void *data, size_t size)
{
	struct srcblob_header	 hdr;
	struct srcindex		*si;
	char			*buf;

	if (size < CACHEFILE_HEADER + sizeof hdr)
		return NULL;
	size -= CACHEFILE_HEADER;
	buf = xmalloc(size);	/* aligned, as a mapping's payload is */
	memcpy(buf, (const char *)data + CACHEFILE_HEADER, size);
	memcpy(&hdr, buf, sizeof hdr);
	si = xcalloc(1, sizeof *si);
	if (srcblob_attach(si, buf, size, hdr.nfiles) != 0) {
		free(buf);
		free(si);
		return NULL;
	}
	si->blob = buf;
	si->size = size;
	si->from_cache = 1;
	return si;
}

/* The tree-relative path of a file id from srcindex_lookup(). */
const char *
srcindex_path(const struct srcindex *si, uint32_t id)
{
	if (si == NULL || id >= si->npaths)
		return NULL;
	return si->strs + si->pathoff[id];
}

/* Counts, and whether the index came from the cache. */
void
srcindex_get_stats(const struct srcindex *si, struct srcindex_stats *st)
{
	int	k;

	memset(st, 0, sizeof *st);
	st->files = (int)si->npaths;
	for (k = 0; k < SRC_NKINDS; k++)
		st->names[k] = (int)si->kinds[k].nnames;
	st->from_cache = si->from_cache;
}
