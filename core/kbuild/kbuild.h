/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - an index of the kernel's Makefiles and Kbuild files: which
 * CONFIG_ symbols control each object file and each module.
 */
#ifndef KC_KBUILD_H
#define KC_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

struct kbuild_obj {
	const char	 *path;		/* object, from the tree top:
					   "drivers/net/virtio_net.o" */
	const char	 *module;	/* the module it is linked into
					   ("virtio_net"), or NULL */
	const char	**conds;	/* symbols (no CONFIG_ prefix), outermost
					   directory first, the object's own
					   obj-$(CONFIG_X) last */
	int		  nconds;
	bool		  always;	/* obj-y (or lib-y) below directories
					   that are always built */
};

struct kbuild;

/*
 * Read every Makefile/Kbuild reachable from the top Makefile's core dirs
 * and arch/$SRCARCH (and, for coverage, every other Makefile in the tree
 * whose directory is not reached, with its conditions from the parent
 * that names it). Never fails on odd make syntax: what it can't evaluate
 * it skips, counted in kbuild_stats.
 */
struct kbuild	*kbuild_scan(const char *srctree, const char *srcarch,
		     char **cause);
/*
 * kbuild_scan with a cache file at cache_path (NULL: no cache): if it is
 * intact, for the same tree and SRCARCH, and nothing the scan read or
 * looked for in the tree has changed since, the index is loaded from it
 * (the same objects in the same order, the same stats but from_cache);
 * otherwise the tree is scanned and the cache rewritten. Problems with
 * the cache are never errors: it is only rebuilt (or not written).
 */
struct kbuild	*kbuild_scan_cached(const char *srctree, const char *srcarch,
		     const char *cache_path, char **cause);
void		 kbuild_free(struct kbuild *);

/* The object built from a source file ("fs/ext4/inode.c" -> its .o). */
const struct kbuild_obj *kbuild_source(const struct kbuild *,
		     const char *srcpath);
/* The objects of a module (name with '-' or '_'). */
size_t		 kbuild_module(const struct kbuild *, const char *module,
		     const struct kbuild_obj *const **objs);
/* Every object controlled directly (last cond) by a symbol. */
size_t		 kbuild_symbol_objs(const struct kbuild *, const char *sym,
		     const struct kbuild_obj *const **objs);

/* Every object, for walks (in scan order). */
size_t		 kbuild_nobjs(const struct kbuild *);
const struct kbuild_obj *kbuild_obj_at(const struct kbuild *, size_t);

struct kbuild_stats {
	int	makefiles;
	int	objects;
	int	modules;
	int	skipped_lines;	/* make constructs not understood */
	bool	from_cache;	/* loaded by kbuild_scan_cached */
};
void		 kbuild_get_stats(const struct kbuild *, struct kbuild_stats *);

/* For fuzzing: parse one Makefile's text as directory dir. */
int		 kbuild_parse_text(struct kbuild *, const char *dir,
		     const char *text, size_t len);
struct kbuild	*kbuild_new_empty(void);
/* For fuzzing: a kbuild cache's payload read against the tree srctree. */
struct kbuild	*kbuild_from_cache_blob(const void *, size_t,
		     const char *srctree, const char *srcarch);
#endif
