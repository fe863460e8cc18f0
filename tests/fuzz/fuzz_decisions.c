/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_decisions.c - libFuzzer target for the decisions file
 * (core/trim/decisions.c): any bytes load (bad lines are warnings, kept
 * verbatim), a decision set on them saves, and the saved file loads back
 * with that decision and with every decision the input had; no crash,
 * hang or leak. The file is the user's: a save must lose nothing.
 */
#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/trim/decisions.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"

static char	 dir[] = "/tmp/kctui-fuzz-decisions.XXXXXX";
static char	*path;

/* The run's directory goes when the fuzzer exits. */
static void
fuzz_cleanup(void)
{
	if (path != NULL) {
		unlink(path);
		rmdir(dir);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct decisions	*d, *back;
	enum decision		 dec, dec2;
	const char		*sym, *reason, *reason2;
	char			*cause = NULL;
	size_t			 i, n;

	/* One directory per run (save renames a temporary beside the file). */
	if (path == NULL) {
		if (mkdtemp(dir) == NULL)
			return 0;
		path = xasprintf("%s/decisions", dir);
		atexit(fuzz_cleanup);
	}
	if (file_write_atomic(path, data, size, 0600, 0, &cause) != 0) {
		free(cause);
		return 0;
	}
	if ((d = decisions_load(path, &cause)) == NULL)
		abort();	/* a regular file always loads */
	free(cause);
	cause = NULL;
	decisions_set(d, "CONFIG_FUZZ_ME", DECISION_KEEP, "kept\nby fuzz");
	if (decisions_save(d, path, &cause) != 0)
		abort();
	if ((back = decisions_load(path, NULL)) == NULL)
		abort();
	if (decisions_get(back, "FUZZ_ME") != DECISION_KEEP ||
	    (reason = decisions_reason(back, "FUZZ_ME")) == NULL ||
	    strchr(reason, '\n') != NULL)
		abort();
	/* Every decision of the input survives the save. */
	n = decisions_count(d);
	for (i = 0; i < n; i++) {
		sym = decisions_at(d, i, &dec, &reason);
		if (sym == NULL || strcmp(sym, "FUZZ_ME") == 0)
			continue;
		dec2 = decisions_get(back, sym);
		reason2 = decisions_reason(back, sym);
		if (dec2 != dec || (reason == NULL) != (reason2 == NULL) ||
		    (reason != NULL && strcmp(reason, reason2) != 0))
			abort();
	}
	decisions_free(back);
	decisions_free(d);
	return 0;
}
