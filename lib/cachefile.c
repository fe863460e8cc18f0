/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachefile.c - the shared cache file format (see cachefile.h).
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "cachefile.h"
#include "fileio.h"
#include "util.h"

/* The header as written; fields native, no padding (all 8-aligned). */
struct cachefile_header {
	char		magic[8];
	uint32_t	version;
	uint32_t	header;
	uint64_t	identity;
	uint64_t	length;
	uint64_t	checksum;
	uint64_t	reserved;
};
_Static_assert(sizeof(struct cachefile_header) == CACHEFILE_HEADER,
    "cache header layout");

/* Write header and payload through one atomic replacement. Mode 0600:
 * a cache is private to its user, and some (the decoded kallsyms) give
 * away what no other user may read (KASLR offsets). */
int
cachefile_write(const char *path, const char *magic, uint32_t version,
    uint64_t identity, const void *payload, size_t len, char **cause)
{
	struct cachefile_header	h;
	struct atomic_file	af;

	memset(&h, 0, sizeof h);
	memcpy(h.magic, magic, sizeof h.magic);
	h.version = version;
	h.header = CACHEFILE_HEADER;
	h.identity = identity;
	h.length = len;
	h.checksum = hash_buf64(payload, len);
	if (atomic_open(&af, path, 0600, ATOMIC_MKDIRS, cause) != 0)
		return -1;
	atomic_write(&af, &h, sizeof h);
	atomic_write(&af, payload, len);
	return atomic_commit(&af, cause);
}

/* Whether a cache file (its stat st) or its directory is another user's
 * or writable by others: then *cause says so. The directory may be
 * others' if it is sticky (/tmp): nobody else can replace our file. */
static bool
cachefile_foreign(const char *path, const struct stat *st, char **cause)
{
	struct stat	 dst;
	const char	*slash = strrchr(path, '/');
	char		*dir;
	bool		 bad = false;

	if (st->st_uid != geteuid() || (st->st_mode & 022) != 0) {
		*cause = xasprintf("%s: %s: not used", path, st->st_uid !=
		    geteuid() ? "owned by another user" :
		    "writable by others");
		return true;
	}
	dir = slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
	if (stat(dir, &dst) == 0 && (dst.st_mode & S_ISVTX) == 0 &&
	    ((dst.st_uid != geteuid() && dst.st_uid != 0) ||
	    (dst.st_mode & 002) != 0)) {
		*cause = xasprintf("%s: %s: not used", dir, dst.st_uid !=
		    geteuid() && dst.st_uid != 0 ? "owned by another user" :
		    "writable by others");
		bad = true;
	}
	free(dir);
	return bad;
}

/* Map and validate; any mismatch refuses the whole file. */
int
cachefile_open(struct cachefile *cf, const char *path, const char *magic,
    uint32_t version, int flags, char **cause)
{
	struct cachefile_header	h;
	struct stat		st;
	void			*map;
	int			 fd;

	memset(cf, 0, sizeof *cf);
	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno != ENOENT)
			*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || st.st_size < CACHEFILE_HEADER) {
		close(fd);
		*cause = xasprintf("%s: too short", path);
		return -1;
	}
	/* a cache decides what evidence says: one another user could have
	 * written is not ours to trust (rebuilt, as a bad checksum is) */
	if (cachefile_foreign(path, &st, cause)) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE |
	    ((flags & CACHEFILE_POPULATE) ? MAP_POPULATE : 0), fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	memcpy(&h, map, sizeof h);
	if (memcmp(h.magic, magic, sizeof h.magic) != 0 ||
	    h.version != version || h.header != CACHEFILE_HEADER ||
	    h.reserved != 0)
		*cause = xasprintf("%s: not a version %u %.7s cache", path,
		    version, magic);
	else if (h.length != (uint64_t)st.st_size - CACHEFILE_HEADER)
		*cause = xasprintf("%s: truncated", path);
	else if (hash_buf64((char *)map + CACHEFILE_HEADER, h.length) !=
	    h.checksum)
		*cause = xasprintf("%s: checksum mismatch", path);
	if (*cause != NULL) {
		munmap(map, (size_t)st.st_size);
		return -1;
	}
	cf->map = map;
	cf->mapsize = (size_t)st.st_size;
	cf->data = (char *)map + CACHEFILE_HEADER;
	cf->len = h.length;
	cf->identity = h.identity;
	return 0;
}

/* Unmap. */
void
cachefile_close(struct cachefile *cf)
{
	if (cf->map != NULL)
		munmap(cf->map, cf->mapsize);
	memset(cf, 0, sizeof *cf);
}
