/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachefile.c - the shared cache file format (see cachefile.h).
 */
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
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

/* ------------------------------------------------------------------ */
/* SipHash-2-4 (Aumasson and Bernstein), streamed: the keyed hash of the
 * caches' seals and content keys. */

struct siphash {
	uint64_t	v[4];
	uint64_t	tail;		/* bytes not yet a word */
	size_t		ntail;
	uint64_t	len;
};

#define SIP_ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

/* One SipRound on v. */
static void
sip_round(uint64_t *v)
{
	v[0] += v[1]; v[1] = SIP_ROTL(v[1], 13); v[1] ^= v[0];
	v[0] = SIP_ROTL(v[0], 32);
	v[2] += v[3]; v[3] = SIP_ROTL(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = SIP_ROTL(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = SIP_ROTL(v[1], 17); v[1] ^= v[2];
	v[2] = SIP_ROTL(v[2], 32);
}

/* Absorb one little-endian word m. */
static void
sip_word(struct siphash *h, uint64_t m)
{
	h->v[3] ^= m;
	sip_round(h->v);
	sip_round(h->v);
	h->v[0] ^= m;
}

/* Start with the 128-bit key k. */
static void
sip_init(struct siphash *h, const uint64_t k[2])
{
	h->v[0] = k[0] ^ 0x736f6d6570736575ULL;
	h->v[1] = k[1] ^ 0x646f72616e646f6dULL;
	h->v[2] = k[0] ^ 0x6c7967656e657261ULL;
	h->v[3] = k[1] ^ 0x7465646279746573ULL;
	h->tail = 0;
	h->ntail = 0;
	h->len = 0;
}

/* Absorb n bytes (byte by byte into the tail, whole words at once). */
static void
sip_update(struct siphash *h, const void *data, size_t n)
{
	const unsigned char	*p = data;
	uint64_t		 m;
	size_t			 i;

	h->len += n;
	while (n > 0 && h->ntail > 0) {
		h->tail |= (uint64_t)*p++ << (8 * h->ntail);
		n--;
		if (++h->ntail == 8) {
			sip_word(h, h->tail);
			h->tail = 0;
			h->ntail = 0;
		}
	}
	for (; n >= 8; n -= 8, p += 8) {
		for (m = 0, i = 0; i < 8; i++)
			m |= (uint64_t)p[i] << (8 * i);
		sip_word(h, m);
	}
	for (; n > 0; n--)
		h->tail |= (uint64_t)*p++ << (8 * h->ntail++);
}

/* The 64-bit result. */
static uint64_t
sip_final(struct siphash *h)
{
	sip_word(h, h->tail | (h->len & 0xff) << 56);
	h->v[2] ^= 0xff;
	sip_round(h->v);
	sip_round(h->v);
	sip_round(h->v);
	sip_round(h->v);
	return h->v[0] ^ h->v[1] ^ h->v[2] ^ h->v[3];
}

/* ------------------------------------------------------------------ */
/* The cache directory's key. */

#define CACHEFILE_KEYNAME	"cache.key"

/* The keys of the directories used so far (a process uses one or two);
 * the loading threads share them. */
static pthread_mutex_t	 cachefile_keys_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cachefile_dirkey {
	char		*dir;
	uint64_t	 key[2];
} *cachefile_keys;
static size_t		 cachefile_nkeys;

/* Where refused caches are said (cachefile_set_note). */
static void		(*cachefile_note_fn)(void *, const char *);
static void		*cachefile_note_arg;

/* Say why a cache is not used and rebuilt (with -v). */
void
cachefile_set_note(void (*fn)(void *, const char *), void *arg)
{
	cachefile_note_fn = fn;
	cachefile_note_arg = arg;
}

/* The directory part of path ("." for none). */
static char *
cachefile_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
}

/* Read dir's key file, or (create) make one: 16 random bytes, 0600,
 * written aside and linked into place so that two kctui starting at once
 * agree on one. -1 with *cause when there is none to trust. */
static int
cachefile_key_load(const char *dir, bool create, uint64_t key[2],
    char **cause)
{
	struct stat	 st;
	unsigned char	 b[16];
	char		*path = xasprintf("%s/%s", dir, CACHEFILE_KEYNAME);
	char		*tmp = NULL;
	ssize_t		 n;
	int		 fd, rc = -1, tries;

	for (tries = 0; tries < 2 && rc != 0; tries++) {
		if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
			    st.st_uid != geteuid() || (st.st_mode & 077) != 0)
				*cause = xasprintf("%s: not the user's own "
				    "private key file", path);
			else if ((n = read(fd, b, sizeof b)) != (ssize_t)sizeof b)
				*cause = xasprintf("%s: damaged", path);
			else {
				memcpy(&key[0], b, 8);
				memcpy(&key[1], b + 8, 8);
				rc = 0;
			}
			close(fd);
			break;
		}
		if (errno != ENOENT || !create) {
			if (errno != ENOENT)
				*cause = xasprintf("%s: %s", path,
				    strerror(errno));
			break;
		}
		if (path_mkdir_p(dir, 0700, cause) != 0)
			break;
		if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
			*cause = xasprintf("getrandom: %s", strerror(errno));
			break;
		}
		tmp = xasprintf("%s/.%s.%d", dir, CACHEFILE_KEYNAME,
		    (int)getpid());
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || fd_write_all(fd, b, sizeof b) != 0 ||
		    close(fd) != 0 || (link(tmp, path) != 0 &&
		    errno != EEXIST)) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			unlink(tmp);
			break;
		}
		unlink(tmp);
		free(tmp);
		tmp = NULL;
		/* read back what is in place (ours, or the winner's) */
	}
	free(tmp);
	free(path);
	return rc;
}

/* The key of the directory of cache file path (see cachefile.h). */
static int
cachefile_key(const char *path, bool create, uint64_t key[2], char **cause)
{
	char	*dir = cachefile_dir(path);
	size_t	 i;
	int	 rc = 0;

	pthread_mutex_lock(&cachefile_keys_lock);
	for (i = 0; i < cachefile_nkeys; i++)
		if (strcmp(cachefile_keys[i].dir, dir) == 0)
			break;
	if (i == cachefile_nkeys) {
		if (cachefile_key_load(dir, create, key, cause) != 0)
			rc = -1;
		else {
			cachefile_keys = xrealloc(cachefile_keys,
			    (cachefile_nkeys + 1) * sizeof *cachefile_keys);
			cachefile_keys[cachefile_nkeys].dir = dir;
			memcpy(cachefile_keys[cachefile_nkeys].key, key,
			    2 * sizeof *key);
			cachefile_nkeys++;
			dir = NULL;
		}
	} else
		memcpy(key, cachefile_keys[i].key, 2 * sizeof *key);
	pthread_mutex_unlock(&cachefile_keys_lock);
	free(dir);
	return rc;
}

/* The keyed hash of data for the cache file path (cachefile.h). */
int
cachefile_digest(const char *path, const void *data, size_t len,
    uint64_t *digest, char **cause)
{
	struct siphash	h;
	uint64_t	key[2];

	if (cachefile_key(path, true, key, cause) != 0)
		return -1;
	/* another key than the seals': a content key is no seal */
	key[0] ^= 0x636f6e74656e7421ULL;
	sip_init(&h, key);
	sip_update(&h, data, len);
	*digest = sip_final(&h);
	return 0;
}

/* The seal of a header (its checksum field zero) and payload. */
static uint64_t
cachefile_seal(const uint64_t key[2], const void *header, const void *payload,
    size_t len)
{
	struct siphash	h;

	sip_init(&h, key);
	sip_update(&h, header, CACHEFILE_HEADER);
	sip_update(&h, payload, len);
	return sip_final(&h);
}

/* Write header and payload through one atomic replacement. Mode 0600:
 * a cache is private to its user, and some (the decoded kallsyms) give
 * away what no other user may read (KASLR offsets). */
int
cachefile_write(const char *path, const char *magic, uint32_t version,
    uint64_t identity, const void *payload, size_t len, char **cause)
{
	struct cachefile_header	h;
	struct atomic_file	af;
	uint64_t		key[2];

	if (cachefile_key(path, true, key, cause) != 0)
		return -1;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, magic, sizeof h.magic);
	h.version = version;
	h.header = CACHEFILE_HEADER;
	h.identity = identity;
	h.length = len;
	h.checksum = 0;
	h.checksum = cachefile_seal(key, &h, payload, len);
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

/* A cache refused: said to the note function, if any; rebuilt: its
 * caller rebuilds it (not when the directory's key is unusable). */
static void
cachefile_said(const char *cause, bool rebuilt)
{
	char	*msg;
	size_t	 n;

	if (cachefile_note_fn == NULL)
		return;
	n = strlen(cause);
	msg = xasprintf("cache %s%s%s", cause, n >= 10 && strcmp(cause + n -
	    10, ": not used") == 0 ? "" : ": not used", rebuilt ?
	    ", rebuilt" : " (no cache is written there)");
	cachefile_note_fn(cachefile_note_arg, msg);
	free(msg);
}

/* Map and validate; any mismatch refuses the whole file. */
int
cachefile_open(struct cachefile *cf, const char *path, const char *magic,
    uint32_t version, int flags, char **cause)
{
	struct cachefile_header	h;
	struct stat		st;
	void			*map;
	uint64_t		 key[2], seal;
	bool			 keybad = false;
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
		cachefile_said(*cause, true);
		return -1;
	}
	/* a cache decides what evidence says: one another user could have
	 * written is not ours to trust (rebuilt, as a bad checksum is) */
	if (cachefile_foreign(path, &st, cause)) {
		close(fd);
		cachefile_said(*cause, true);
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
	seal = h.checksum;
	h.checksum = 0;
	if (memcmp(h.magic, magic, sizeof h.magic) != 0 ||
	    h.version != version || h.header != CACHEFILE_HEADER ||
	    h.reserved != 0)
		*cause = xasprintf("%s: not a version %u %.7s cache", path,
		    version, magic);
	else if (h.length != (uint64_t)st.st_size - CACHEFILE_HEADER)
		*cause = xasprintf("%s: truncated", path);
	else if (cachefile_key(path, false, key, cause) != 0) {
		if (*cause == NULL)
			*cause = xasprintf("%s: no %s beside it (not written "
			    "by this user's kctui)", path, CACHEFILE_KEYNAME);
		else
			keybad = true;
	} else if (cachefile_seal(key, &h, (char *)map + CACHEFILE_HEADER,
	    h.length) != seal)
		*cause = xasprintf("%s: seal mismatch (changed since kctui "
		    "wrote it, or damaged)", path);
	if (*cause != NULL) {
		munmap(map, (size_t)st.st_size);
		cachefile_said(*cause, !keybad);
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
