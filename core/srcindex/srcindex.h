/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcindex.h - an index of the kernel's C sources: where each function is
 * defined (ordinary definitions and the kernel's definition macros), and
 * which file registers each filesystem type, crypto driver and device
 * driver by name. Built with pcre2 (JIT), cached on disk per tree.
 */
#ifndef KC_SRCINDEX_H
#define KC_SRCINDEX_H

#include <stddef.h>
#include <stdint.h>

enum src_kind {
	SRC_FUNC,	/* function definitions */
	SRC_FSTYPE,	/* struct file_system_type .name = "..." */
	SRC_CRYPTO,	/* .cra_driver_name = "..." (and .cra_name), and a
			   struct crypto_template's .name */
	SRC_DRIVER,	/* .name = "..." in a *_driver struct */
	SRC_NKINDS
};

struct srcindex;

/*
 * Index every .c (and .S for SYM_FUNC_START) file under srctree. With a
 * cache_path, a valid cache (same tree: paths, sizes, mtimes) is loaded
 * instead; a stale or corrupt one is rebuilt. jobs: scanning threads.
 */
struct srcindex	*srcindex_build(const char *srctree, const char *cache_path,
		     int jobs, char **cause);
void		 srcindex_free(struct srcindex *);

/* The files defining name, as ids for srcindex_path(); the count. */
size_t		 srcindex_lookup(const struct srcindex *, enum src_kind,
		     const char *name, const uint32_t **ids);
/* A file id's tree-relative path ("fs/ext4/inode.c"), NULL if none. */
const char	*srcindex_path(const struct srcindex *, uint32_t id);

struct srcindex_stats {
	int	files;
	int	names[SRC_NKINDS];
	int	from_cache;	/* 1 if loaded from the cache */
};
void		 srcindex_get_stats(const struct srcindex *,
		     struct srcindex_stats *);

/* For fuzzing: an index from a cache file's bytes (any tree; the shared
 * header, lib/cachefile.h's to check, is skipped), or NULL when the
 * payload does not check. */
struct srcindex	*srcindex_from_blob(const void *, size_t);
#endif
