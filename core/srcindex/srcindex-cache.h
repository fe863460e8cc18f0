/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcindex-cache.h - private to core/srcindex*.c: what the scanner
 * (srcindex.c) hands to the blob and its cache file (srcindex-cache.c),
 * and the index itself, a view of that blob.
 */
#ifndef KC_SRCINDEX_CACHE_H
#define KC_SRCINDEX_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "srcindex.h"
#include "../../lib/cachefile.h"
#include "../../lib/strmap.h"

#define SRCINDEX_MAGIC		"KCSRCIX\n"
#define SRCINDEX_VERSION	8	/* bump when the scanner or the blob
					   changes */

struct arena;

/* A source file found by the walk. */
struct srcfile {
	const char	*path;		/* tree-relative */
	uint64_t	 size;
	int64_t		 mtime_sec;
	int64_t		 mtime_nsec;
};

/* One name of a kind while building (a value of srcbuild.tables). */
struct srcname {
	const char	*name;
	uint32_t	 count;		/* files */
	uint32_t	 off;		/* first file in srcbuild.ids */
	uint32_t	 head;		/* while merging: last link, or -1 */
};

/* What a scan builds, before it is packed into a blob. */
struct srcbuild {
	struct arena	*arena;		/* the names and their srcnames */
	struct strmap	 tables[SRC_NKINDS];	/* name -> struct srcname */
	uint32_t	*ids;		/* per name (its off): file ids */
	size_t		 nrefs;
};

/* One kind's names, in the blob. */
struct srckind {
	const uint32_t	*names;		/* name_off, count, first ref */
	uint32_t	 nnames;
	const uint32_t	*slots;		/* name index + 1, 0 empty */
	uint32_t	 nslots;	/* a power of two, or 0 */
};

/* The index: a checked view of a blob, mapped from the cache file (cf)
 * or packed after a scan (blob, malloc'd). */
struct srcindex {
	struct cachefile cf;
	char		*blob;
	size_t		 size;		/* of the blob (the cache's payload) */
	const char	*strs;
	const uint32_t	*pathoff;
	uint32_t	 npaths;
	struct srckind	 kinds[SRC_NKINDS];
	const uint32_t	*refids;
	uint32_t	 nrefs;
	int		 from_cache;
};

/* Point si at the cache file at path if it holds the tree of this
 * identity and nfiles; 0 on success, -1 (si untouched) otherwise. */
int	 srccache_load(struct srcindex *, const char *path, uint64_t identity,
	     size_t nfiles);
/* Save si's blob as the cache file at path; failure is not fatal. */
void	 srccache_save(const struct srcindex *, const char *path,
	     uint64_t identity);
/* Pack a scan's tables and the files' paths into a blob that si then
 * owns; -1 if it does not check (a bug). */
int	 srcblob_pack(struct srcindex *, const struct srcbuild *,
	     const struct srcfile *, size_t nfiles);

#endif
