/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachefile.h - the one on-disk cache format, shared by every cache kctui
 * keeps ($(shell) results, the Kbuild and source indexes, decoded bundle
 * text and traces):
 *
 *   offset  0  magic[8]      which cache ("KCSHELL\n", "KCSRCIX\n", ...)
 *           8  u32 version   of that cache's payload layout
 *          12  u32 header    size of this header (48)
 *          16  u64 identity  what the payload was made from (the caller's
 *                            hash of its inputs); checked by the caller
 *          24  u64 length    of the payload
 *          32  u64 checksum  the seal: SipHash-2-4 of this header (the
 *                            field zero) and the payload, keyed with the
 *                            cache directory's cache.key

 *          40  u64 reserved  0
 *          48  payload
 *
 * Native byte order: a cache never leaves the machine that wrote it. The
 * file is mapped read-only, so a large index costs no copy; the payload
 * starts 16-aligned. A file that is short, of another magic or version, or
 * whose seal fails is refused as a whole and rebuilt by its owner.
 *
 * The seal is keyed: cache.key, 16 random bytes the user's first kctui
 * writes beside the caches (0600, refused if another's or readable by
 * others), so a cache changed by anything but kctui, even with a
 * checksum recomputed, is refused and rebuilt, not believed. (Whoever
 * can read the user's files can also forge a seal: the key stops edits
 * and other tools, not the user's own account.)
 */
#ifndef KC_CACHEFILE_H
#define KC_CACHEFILE_H

#include <stddef.h>
#include <stdint.h>

#define CACHEFILE_HEADER	48

/* Flags of cachefile_open. */
#define CACHEFILE_POPULATE	0x1	/* prefault the mapping (read whole) */

struct cachefile {
	void		*map;		/* the whole file, mapped */
	size_t		 mapsize;
	const void	*data;		/* the payload */
	size_t		 len;
	uint64_t	 identity;
};

/* Write a cache file atomically, mode 0600 (creating its directory): the
 * header for magic/version/identity, then the len bytes of payload. -1
 * with *cause on failure. */
int	 cachefile_write(const char *path, const char *magic, uint32_t version,
	     uint64_t identity, const void *payload, size_t len, char **cause);
/* Map path and check its header and checksum. 0 on success; -1 when it
 * is absent or unusable, with *cause (which may be left NULL for a file
 * that simply does not exist) saying why. */
int	 cachefile_open(struct cachefile *, const char *path, const char *magic,
	     uint32_t version, int flags, char **cause);
/* The keyed hash (the cache directory's key, created if needed) of data,
 * for a cache keyed by its inputs' content: a bundle cannot be made to
 * collide with another's entry without the key. 0, or -1 with *cause. */
int	 cachefile_digest(const char *path, const void *data, size_t len,
	     uint64_t *digest, char **cause);
/* fn(arg, "cache PATH: WHY: not used, rebuilt") for every existing cache
 * file cachefile_open refuses (kctui -v); NULL: nothing said. */
void	 cachefile_set_note(void (*fn)(void *, const char *), void *arg);
/* Unmap (cf may be zeroed or already closed). */
void	 cachefile_close(struct cachefile *);

#endif
