/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_trace_dat.c - libFuzzer target for a bundle's trace.dat
 * (core/evidence/evidence-dat.c through libtracecmd; issue 37, item 14):
 * any bytes as the bundle's only file are read or skipped with a warning,
 * never a crash, hang or leak in kctui's part; every function kept is
 * visible text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/evidence/evidence.h"
#include "../../lib/text.h"
#include "fuzz-file.h"

/*
 * The libraries' own leaks (tests/lsan.supp says the same for make
 * check, which sets LSAN_OPTIONS; this holds for a run by hand too):
 * libtraceevent 1.7 keeps a 2-byte strdup of tep_parse_event(), and
 * libtracecmd 3.1.6 loses the tep_handle tracecmd_alloc_fd() made when
 * a file's header fails to read (found by this target).
 */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:libtracecmd.so\n";
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
	const struct ev_item	*it;
	struct evidence		*ev;
	char			 path[96], *cause = NULL;
	size_t			 i, n;

	if (fuzz_file("trace.dat", data, size, path, sizeof path) != 0)
		return 0;
	ev = evidence_new();
	if (evidence_load(ev, fuzz_file_dir(), fuzz_warn, NULL, &cause) != 0) {
		free(cause);
		evidence_free(ev);
		return 0;
	}
	n = evidence_count(ev, EV_TRACE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		if (it->name == NULL ||
		    !text_is_visible(it->name, strlen(it->name), 0))
			abort();
	}
	evidence_free(ev);
	return 0;
}
