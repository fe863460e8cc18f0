/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-cache.c - what a bundle costs to read, kept between runs in the
 * cache directory (lib/cachefile.h: a checked header, then the payload):
 *
 *	trace-HASH.cache  a text trace's result, in the "functions" format
 *	text-HASH.cache	  a compressed file's decoded text
 *
 * HASH (and the cache file's identity) is the source file's content key:
 * the keyed hash (lib/cachefile.h's cachefile_digest, the cache
 * directory's key) of its bytes as they are in the bundle, with its size.
 * A changed file is read again whatever its modification time says (a
 * copy with cp -p, an edit within the clock's step); a bundle copied or
 * moved finds its cache; and no bundle can be made to land on another's
 * entry without the key. The key is also the payload's first line, "key
 * KEY", compared as a string.
 * Only files read without warnings are cached, so warnings are given on
 * every run.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evidence-int.h"
#include "../../lib/cachefile.h"
#include "../../lib/fileio.h"

#define TCACHE_MAGIC	"KCTRACE\n"
#define TCACHE_VERSION	2	/* 2: keyed by content */
#define XCACHE_MAGIC	"KCXTEXT\n"
#define XCACHE_VERSION	2
/*
 * The decoded text is gathered in memory and written once read without
 * warnings. The files that go through this cache are small (kallsyms is
 * 4.5 MB of text, modules.alias 1.5 MB; traces have their own cache);
 * a file decoding to more than this is just not cached.
 */
#define XCACHE_MAX	((size_t)64 * 1024 * 1024)

/* The key of one cached file. */
struct evcache_key {
	char		*path;		/* the cache file */
	char		*key;		/* what it was made from */
	uint64_t	 identity;	/* hash of key */
};

/* Where the parsed traces (and decoded texts) go; NULL: nowhere. */
void
evidence_set_cache_dir(struct evidence *ev, const char *dir)
{
	free(ev->cache_dir);
	ev->cache_dir = dir != NULL ? xstrdup(dir) : NULL;
}

/* The cache file (kind "trace" or "text") of an open file and its key,
 * from the file's content (mapped, not read: the caller reads it after);
 * -1 when nothing is cached. */
static int
evcache_key_make(const struct evidence *ev, int fd, const char *path,
    const char *kind, struct evcache_key *k)
{
	struct stat	 st;
	void		*map = NULL;
	char		*probe, *cause = NULL;
	uint64_t	 digest;
	int		 rc;

	(void)path;
	if (ev->cache_dir == NULL || fstat(fd, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return -1;
	if (st.st_size > 0 && (map = mmap(NULL, (size_t)st.st_size, PROT_READ,
	    MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return -1;
	probe = xasprintf("%s/%s.cache", ev->cache_dir, kind);
	rc = cachefile_digest(probe, map != NULL ? map : "", (size_t)st.st_size,
	    &digest, &cause);
	free(probe);
	free(cause);
	if (map != NULL)
		munmap(map, (size_t)st.st_size);
	if (rc != 0)
		return -1;
	k->key = xasprintf("%s content %016llx size %lld", kind,
	    (unsigned long long)digest, (long long)st.st_size);
	k->identity = digest;
	k->path = xasprintf("%s/%s-%016llx.cache", ev->cache_dir, kind,
	    (unsigned long long)k->identity);
	return 0;
}

/* Free a key. */
static void
evcache_key_free(struct evcache_key *k)
{
	free(k->path);
	free(k->key);
}

/*
 * Map the cache file of k with its magic and version; on success, *p and
 * *e bound the payload past its "key KEY" line (which must be k's). -1
 * for a missing, damaged or stale cache: the caller reads the file.
 */
static int
evcache_open(struct cachefile *cf, const struct evcache_key *k,
    const char *magic, uint32_t version, const char **p, const char **e)
{
	char		*cause = NULL;
	size_t		 kn = strlen(k->key);

	if (cachefile_open(cf, k->path, magic, version, 0, &cause) != 0) {
		free(cause);
		return -1;
	}
	*p = cf->data;
	*e = *p + cf->len;
	if (cf->identity != k->identity || (size_t)(*e - *p) < 4 + kn + 1 ||
	    memcmp(*p, "key ", 4) != 0 || memcmp(*p + 4, k->key, kn) != 0 ||
	    (*p)[4 + kn] != '\n') {
		cachefile_close(cf);
		return -1;
	}
	*p += 4 + kn + 1;
	return 0;
}

/* Write a cache file. Failing is not an error: the file is read again
 * next time. (Cache files are 0600: the text of kallsyms gives KASLR
 * away.) */
static void
evcache_write(const struct evcache_key *k,
    const char *magic, uint32_t version, const struct strbuf *payload)
{
	char	*cause = NULL;

	if (cachefile_write(k->path, magic, version, k->identity, payload->s,
	    payload->len, &cause) != 0)
		free(cause);
}

/* A trace cache's payload past its key line, [p, e), into bundle b:
 * "events N lost N" then the functions; false (nothing added) when its
 * first line is not that. */
static bool
tcache_parse(struct evidence *ev, int b, const char *p, const char *e,
    uint64_t *lostp)
{
	struct ev_ctx	 c;
	const char	*nl;
	char		*line;
	uint64_t	 events, lost;
	int		 n;

	if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
		return false;
	line = xstrndup(p, (size_t)(nl - p));
	n = sscanf(line, "events %" SCNu64 " lost %" SCNu64, &events, &lost);
	free(line);
	if (n != 2)
		return false;
	p = nl + 1;
	ev_ctx_init(&c, ev, b, ev_functions_line, NULL, EVF_NONUL);
	ev_feed(&c, p, (size_t)(e - p), 1);
	c.events = events;
	c.malformed = 0;	/* written by us, read by the same parser */
	ev_ctx_done(&c);
	*lostp = lost;
	return true;
}

/* For fuzzing: a trace cache's payload (past the key line) into bundle
 * 0; whether it was taken. */
bool
evidence_trace_cache_blob(struct evidence *ev, const void *data, size_t n)
{
	uint64_t lost = 0;

	return tcache_parse(ev, 0, data, (const char *)data + n, &lost);
}

/* Read a trace's cached result into bundle b; false when there is none. */
static bool
tcache_read(struct evidence *ev, int b, const struct evcache_key *k,
    uint64_t *lostp)
{
	struct cachefile cf;
	const char	*p, *e;
	bool		 ok;

	if (evcache_open(&cf, k, TCACHE_MAGIC, TCACHE_VERSION, &p, &e) != 0)
		return false;
	ok = tcache_parse(ev, b, p, e, lostp);
	cachefile_close(&cf);
	return ok;
}

/* After reading a clean trace into bundle b: write what it added (hits
 * beyond old[], the counts before) to the cache. */
static void
tcache_write(struct evidence *ev, const struct evcache_key *k,
    const uint64_t *old, size_t nold, uint64_t events, uint64_t lost)
{
	const struct ev_item	*it;
	struct strbuf		 sb;
	size_t			 i, n = evidence_count(ev, EV_TRACE);
	uint64_t		 d;

	strbuf_init(&sb);
	strbuf_addf(&sb, "key %s\nevents %" PRIu64 " lost %" PRIu64 "\n",
	    k->key, events, lost);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		d = it->hits - (i < nold ? old[i] : 0);
		if (d == 0)
			continue;
		if (it->detail != NULL)
			strbuf_addf(&sb, "%s [%s] %" PRIu64 "\n", it->name,
			    it->detail, d);
		else
			strbuf_addf(&sb, "%s %" PRIu64 "\n", it->name, d);
	}
	evcache_write(k, TCACHE_MAGIC, TCACHE_VERSION, &sb);
	strbuf_free(&sb);
}

/*
 * A text trace is hundreds of megabytes once decompressed, and reading it
 * is most of a bundle's load time; what kctui keeps of it is small (the
 * distinct functions with their counts). So a clean trace's result is
 * cached, in the "functions" format.
 */
int
evcache_read_trace(struct evidence *ev, int b, int fd, enum zstream_type type,
    const char *path, const struct ev_warn *w, uint64_t *lost)
{
	struct evcache_key	 k;
	struct ev_bundle	*bundle = ev_bundle_at(ev, b);
	struct ev_ctx		 c;
	uint64_t		*old, clost = 0;
	size_t			 nold, j;
	int			 warned = bundle->warnings;

	if (evcache_key_make(ev, fd, path, "trace", &k) != 0)
		return -1;
	if (tcache_read(ev, b, &k, &clost)) {
		*lost += clost;
		evcache_key_free(&k);
		return 0;
	}
	nold = evidence_count(ev, EV_TRACE);
	old = xcalloc(nold + 1, sizeof *old);
	for (j = 0; j < nold; j++)
		old[j] = evidence_item(ev, EV_TRACE, j)->hits;
	ev_ctx_init(&c, ev, b, ev_trace_line, NULL, EVF_TRACE);
	ev_read_fd(&c, fd, type, path, w);
	ev_ctx_done(&c);
	if (c.malformed == 0 && bundle->warnings == warned)
		tcache_write(ev, &k, old, nold, c.events, c.lost);
	free(old);
	*lost += c.lost;
	evcache_key_free(&k);
	return 0;
}

/*
 * The other compressed files of a bundle are small on disk but not to
 * decode: kallsyms.xz is 0.7 MB of xz and 4.5 MB of text, and its xz
 * decoding was a quarter of a suggest's evidence time. Their decoded text
 * is kept, and read next time through the same reader and parser (so the
 * result and any warning are the same).
 */
void
evcache_read_text(struct evidence *ev, struct ev_ctx *c, int fd,
    enum zstream_type type, const char *path, const struct ev_warn *w)
{
	struct evcache_key	 k;
	struct cachefile	 cf;
	struct zstream		 zs;
	struct strbuf		 text;
	const char		*p, *e;
	int			 warned;

	if (evcache_key_make(ev, fd, path, "text", &k) != 0) {
		ev_read_fd(c, fd, type, path, w);
		return;
	}
	if (evcache_open(&cf, &k, XCACHE_MAGIC, XCACHE_VERSION, &p, &e) == 0) {
		zstream_open_mem(&zs, p, (size_t)(e - p));
		ev_read_stream(c, &zs, path, w);
		zstream_close(&zs);
		cachefile_close(&cf);
		evcache_key_free(&k);
		return;
	}
	warned = c->bundle != NULL ? c->bundle->warnings : 0;
	strbuf_init(&text);
	strbuf_addf(&text, "key %s\n", k.key);
	c->tee = &text;
	c->tee_max = text.len + XCACHE_MAX;
	c->tee_failed = 0;
	ev_read_fd(c, fd, type, path, w);
	c->tee = NULL;
	if (!c->tee_failed && c->malformed == 0 &&
	    (c->bundle == NULL || c->bundle->warnings == warned))
		evcache_write(&k, XCACHE_MAGIC, XCACHE_VERSION, &text);
	strbuf_free(&text);
	evcache_key_free(&k);
}
