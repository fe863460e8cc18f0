/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_trace.c - libFuzzer target for the ftrace text reader: arbitrary
 * bytes as a function or function_graph trace, read twice into two
 * bundles (merging), then every item looked at and the suffix stripper
 * run on each name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/evidence/evidence.h"

/* One input: read it, then check what was stored. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	size_t			 i, n;
	char			*copy;

	evidence_read_trace(ev, 0, (const char *)data, size);
	evidence_read_trace(ev, 1, (const char *)data, size / 2);
	n = evidence_count(ev, EV_TRACE);
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		if (it == NULL || it->name[0] == '\0' ||
		    evidence_find(ev, EV_TRACE, it->name) != it ||
		    (it->bundles & ~(uint64_t)3) != 0 || it->hits == 0)
			abort();
		copy = strdup(it->name);
		if (strcmp(evidence_strip_suffix(copy), it->name) != 0)
			abort();	/* stored names are already stripped */
		free(copy);
	}
	/* the stripper on the raw input as a name */
	copy = malloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	evidence_strip_suffix(copy);
	free(copy);
	evidence_free(ev);
	return 0;
}
