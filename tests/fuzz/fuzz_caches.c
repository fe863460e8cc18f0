/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_caches.c - libFuzzer target for the readers of kctui's caches
 * (issue 37, item 14) the source index's own target (fuzz_srcindex) does
 * not cover. The first byte picks one:
 *
 *   0  a trace cache's payload (core/evidence/evidence-cache.c), read
 *      into a bundle: every function kept is named and counted
 *   1  a kbuild cache's payload (core/kbuild/kbuild-cache.c), read
 *      against an empty tree (/tmp/kctui-fuzz-kbtree): refused, or an index whose every object
 *      can be looked at
 *   2  a whole cache file (lib/cachefile.c): the header, length and
 *      checksum checks refuse it or bound a payload inside the file
 *
 * The rest is the bytes. No crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/evidence/evidence.h"
#include "../../core/kbuild/kbuild.h"
#include "../../lib/cachefile.h"
#include "fuzz-file.h"

#define FUZZ_KBTREE	"/tmp/kctui-fuzz-kbtree"

/* The trace cache's payload. */
static void
fuzz_trace_cache(const uint8_t *data, size_t size)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	size_t			 i, n;

	(void)evidence_trace_cache_blob(ev, data, size);
	n = evidence_count(ev, EV_TRACE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		if (it == NULL || it->name[0] == '\0' ||
		    evidence_find(ev, EV_TRACE, it->name) != it)
			abort();
	}
	evidence_free(ev);
}

/* The kbuild cache's payload, against the target's empty directory. */
static void
fuzz_kbuild_cache(const uint8_t *data, size_t size)
{
	const struct kbuild_obj *const	*objs;
	const struct kbuild_obj		*o;
	struct kbuild			*kb;
	size_t				 i;

	/* a fixed empty tree: the payload names its tree, so that the
	 * seeds can name this one */
	mkdir(FUZZ_KBTREE, 0700);
	kb = kbuild_from_cache_blob(data, size, FUZZ_KBTREE, "x86");
	if (kb == NULL)
		return;
	for (i = 0; i < kbuild_nobjs(kb); i++) {
		o = kbuild_obj_at(kb, i);
		if (o->module != NULL)
			kbuild_module(kb, o->module, &objs);
		if (o->nconds > 0)
			kbuild_symbol_objs(kb, o->conds[o->nconds - 1], &objs);
	}
	kbuild_source(kb, "drivers/x/foo.c");
	kbuild_free(kb);
}

/* A whole cache file: refused, or a payload inside it. */
static void
fuzz_cache_file(const uint8_t *data, size_t size)
{
	struct cachefile	 cf;
	char			 path[96], *cause = NULL;

	if (fuzz_file("x.cache", data, size, path, sizeof path) != 0)
		return;
	if (cachefile_open(&cf, path, "KCTRACE\n", 1, 0, &cause) != 0) {
		free(cause);
		return;
	}
	if (cf.len > size || (const char *)cf.data + cf.len !=
	    (const char *)cf.map + cf.mapsize)
		abort();
	cachefile_close(&cf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_trace_cache(data + 1, size - 1);
		break;
	case 1:
		fuzz_kbuild_cache(data + 1, size - 1);
		break;
	default:
		fuzz_cache_file(data + 1, size - 1);
		break;
	}
	return 0;
}
