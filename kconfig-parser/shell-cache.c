/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell-cache.c - the on-disk cache of $(shell,...) results.
 *
 * The disk cache maps (command, digest) to output; the digest
 * (shell-digest.c) stands for everything else the output depends on.  The
 * file is a lib/cachefile.h cache ("KCSHELL\n"; its identity is unused,
 * each entry carrying its own digest) whose payload is the entries one
 * after the other:
 *
 *	<32 hex digest> <cmd length> <output length>\n<cmd>\n<output>\n ...
 *
 * Anything that does not parse, or a bad header or checksum, discards the
 * whole file and it is rewritten at the next save (atomically, by
 * cachefile_write).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shell-int.h"
#include "../lib/cachefile.h"

#define CACHE_MAGIC	"KCSHELL\n"
#define CACHE_VERSION	1	/* of the payload's entry format */

/* Find a cache entry for (cmd, digest): the entries of a command are
 * chained from its map entry (one per digest seen, e.g. per compiler). */
struct centry *
shell_cache_find(struct shell *sh, const char *cmd, size_t len,
    const struct digest *d)
{
	struct centry	*e;
	size_t		 i;

	i = (size_t)(uintptr_t)strmap_get(&sh->entmap, cmd, len);
	for (; i != 0; i = e->next) {
		e = &sh->ent[i - 1];
		if (e->dig.a == d->a && e->dig.b == d->b)
			return e;
	}
	return NULL;
}

/* Add a cache entry; fresh entries supersede others for the same cmd. The
 * map borrows cmd from the entry (the loaded file or its own copy). */
void
shell_cache_add(struct shell *sh, const char *cmd, size_t cmdlen,
    const char *out, size_t outlen, const struct digest *d, bool fresh)
{
	struct strmap_entry	*me;
	struct centry		*e;
	size_t			 i, k;

	XGROW(sh->ent, sh->entcap, sh->nent + 1, 256);
	i = sh->nent++;
	e = &sh->ent[i];
	e->dig = *d;
	e->fresh = fresh;
	e->superseded = false;
	e->owned = fresh;
	e->cmdlen = cmdlen;
	e->outlen = outlen;
	if (fresh) {
		e->cmd = xstrndup(cmd, cmdlen);
		e->out = xstrndup(out, outlen);
		sh->dirty = true;
	} else {
		e->cmd = cmd;
		e->out = out;
	}
	me = strmap_insert(&sh->entmap, e->cmd, cmdlen, NULL);
	e->next = (size_t)(uintptr_t)me->value;
	me->value = (void *)(uintptr_t)(i + 1);
	if (fresh) {
		for (k = e->next; k != 0; k = sh->ent[k - 1].next)
			sh->ent[k - 1].superseded = true;
	}
}

/* Forget every loaded entry (a corrupt file). */
static void
shell_cache_reset(struct shell *sh)
{
	size_t i;

	for (i = 0; i < sh->nent; i++) {
		if (sh->ent[i].owned) {
			free((char *)sh->ent[i].cmd);
			free((char *)sh->ent[i].out);
		}
	}
	sh->nent = 0;
	strmap_free(&sh->entmap);
}

/* Parse a hex number of exactly n digits. */
static bool
shell_parse_hex(const char *p, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		*v <<= 4;
		if (p[i] >= '0' && p[i] <= '9')
			*v |= (uint64_t)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			*v |= (uint64_t)(p[i] - 'a' + 10);
		else
			return false;
	}
	return true;
}

/* Parse a decimal size ending at a given character. */
static bool
shell_parse_size(const char **pp, const char *end, char stop, size_t *v)
{
	const char *p = *pp;

	if (p >= end || *p < '0' || *p > '9')
		return false;
	*v = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (*v > SIZE_MAX / 10 - 10)
			return false;
		*v = *v * 10 + (size_t)(*p++ - '0');
	}
	if (p >= end || *p != stop)
		return false;
	*pp = p + 1;
	return true;
}

/* Parse the loaded cache payload (NUL-terminated, writable: each cmd and
 * output is terminated in place); false if it is corrupt. */
static bool
shell_cache_parse(struct shell *sh, char *buf, size_t size)
{
	struct digest	 d;
	const char	*p, *end, *cmd, *out;
	size_t		 cmdlen, outlen;

	p = buf;
	end = buf + size;
	while (p < end) {
		if (end - p < 33 || !shell_parse_hex(p, 16, &d.a) ||
		    !shell_parse_hex(p + 16, 16, &d.b) || p[32] != ' ')
			return false;
		p += 33;
		if (!shell_parse_size(&p, end, ' ', &cmdlen) ||
		    !shell_parse_size(&p, end, '\n', &outlen))
			return false;
		if ((size_t)(end - p) < cmdlen + outlen + 2 ||
		    p[cmdlen] != '\n' || p[cmdlen + 1 + outlen] != '\n')
			return false;
		cmd = p;
		out = p + cmdlen + 1;
		buf[cmd - buf + cmdlen] = '\0';
		buf[out - buf + outlen] = '\0';
		if (memchr(cmd, '\0', cmdlen) != NULL ||
		    memchr(out, '\0', outlen) != NULL)
			return false;
		shell_cache_add(sh, cmd, cmdlen, out, outlen, &d, false);
		p = out + outlen + 1;
	}
	return true;
}

/* Load the cache file, if any. Its payload is copied out of the mapping:
 * parsing terminates strings in place, and it is small. */
void
shell_cache_load(struct shell *sh)
{
	struct cachefile	 cf;
	char			*buf, *why = NULL;

	if (cachefile_open(&cf, sh->cache_path, CACHE_MAGIC, CACHE_VERSION,
	    0, &why) != 0) {
		if (why != NULL)	/* there, but unusable: rewrite it */
			sh->dirty = true;
		free(why);
		return;
	}
	buf = xmalloc(cf.len + 1);
	memcpy(buf, cf.data, cf.len);
	buf[cf.len] = '\0';
	if (!shell_cache_parse(sh, buf, cf.len)) {
		shell_cache_reset(sh);
		free(buf);
		sh->dirty = true;
	} else
		sh->filebuf = buf;
	cachefile_close(&cf);
}

/* Save the cache if it changed (locked). */
int
shell_cache_save(struct shell *sh, char **cause)
{
	struct strbuf	 sb;
	struct centry	*e;
	size_t		 i;
	int		 rc;

	if (sh->cache_path == NULL || !sh->dirty)
		return 0;
	strbuf_init(&sb);
	for (i = 0; i < sh->nent; i++) {
		e = &sh->ent[i];
		if (e->superseded)
			continue;
		strbuf_addf(&sb, "%016llx%016llx %zu %zu\n",
		    (unsigned long long)e->dig.a, (unsigned long long)e->dig.b,
		    e->cmdlen, e->outlen);
		strbuf_add(&sb, e->cmd, e->cmdlen);
		strbuf_addc(&sb, '\n');
		strbuf_add(&sb, e->out, e->outlen);
		strbuf_addc(&sb, '\n');
	}
	rc = cachefile_write(sh->cache_path, CACHE_MAGIC, CACHE_VERSION, 0,
	    sb.s != NULL ? sb.s : "", sb.len, cause);
	strbuf_free(&sb);
	if (rc == 0)
		sh->dirty = false;
	return rc;
}

/* Free every entry and the loaded file. */
void
shell_cache_free(struct shell *sh)
{
	shell_cache_reset(sh);
	free(sh->ent);
	free(sh->filebuf);
}
