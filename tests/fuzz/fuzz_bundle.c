/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_bundle.c - libFuzzer target for the bundle readers no other target
 * reaches (issue 37, item 14): the input is cut at NUL bytes into a
 * bundle's uname, filesystems, trace-stats, functions, modalias,
 * drivers, config, modules.alias.xz and trace.gz (the last two through
 * zstream when they have the magic, skipped with a warning when not),
 * then evidence_load reads the directory. Whatever they hold: no crash,
 * hang or leak, and every name, detail and module the evidence keeps is
 * visible text (lib/text.h: a bundle's escape bytes never reach a
 * terminal).
 */
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/evidence/evidence.h"
#include "../../lib/fileio.h"
#include "../../lib/text.h"
#include "../../lib/util.h"
#include "fuzz-file.h"

/* The bundle's files, in the order the input gives them. */
static const char *const names[] = { "uname", "filesystems", "trace-stats",
	"functions", "modalias", "drivers", "config", "modules.alias.xz",
	"trace.gz" };
#define NNAMES (sizeof names / sizeof names[0])

/* Abort when s is not visible text. */
static void
fuzz_visible(const char *s)
{
	if (s != NULL && !text_is_visible(s, strlen(s), 0))
		abort();
}

/* Warnings nobody reads. */
static void
fuzz_warn(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*p = (const char *)data, *end = p + size, *nul;
	const struct ev_item *it;
	struct evidence	*ev;
	char		 path[96], *cause = NULL;
	size_t		 i, k, n;

	for (i = 0; i < NNAMES; i++) {
		snprintf(path, sizeof path, "%s/%s", fuzz_file_dir(), names[i]);
		unlink(path);
		if (p > end)
			continue;
		nul = memchr(p, '\0', (size_t)(end - p));
		if (nul == NULL)
			nul = end;
		(void)fuzz_file(names[i], p, (size_t)(nul - p), path,
		    sizeof path);
		p = nul + 1;
	}
	ev = evidence_new();
	if (evidence_load(ev, fuzz_file_dir(), fuzz_warn, NULL, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		evidence_free(ev);
		return 0;
	}
	for (k = 0; k < EV_NKINDS; k++) {
		n = evidence_count(ev, (enum ev_kind)k);
		for (i = 0; i < n; i++) {
			it = evidence_item(ev, (enum ev_kind)k, i);
			if (it->name == NULL)
				abort();
			fuzz_visible(it->name);
			fuzz_visible(it->detail);
			fuzz_visible(it->module);
		}
	}
	evidence_free(ev);
	return 0;
}
