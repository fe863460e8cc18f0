/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_modules.c - libFuzzer target for the /proc readers: arbitrary
 * bytes as /proc/modules (or lsmod output), /proc/mounts and /proc/crypto,
 * each into its own bundle, then every item checked for consistency; and
 * as modules.builtin.ranges followed by /proc/kallsyms (the input's two
 * halves, then the whole as both).
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
	static const enum ev_kind kinds[] = { EV_MODULE, EV_MOUNT, EV_CRYPTO };
	static const char *const probes[] = { "_text", "ext4_read", "a", "" };
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	const char		*text = (const char *)data;
	size_t			 i, k, n;

	evidence_read_modules(ev, 0, text, size);
	evidence_read_mounts(ev, 1, text, size);
	evidence_read_crypto(ev, 2, text, size);
	evidence_read_modules(ev, 3, text, size);
	evidence_read_ranges(ev, 4, text, size / 2, text + size / 2,
	    size - size / 2);
	evidence_read_ranges(ev, 5, text, size, text, size);
	for (i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		const char	*m;
		enum ev_home	 h = evidence_symbol_home(ev, probes[i], &m);

		if ((h == EVH_UNKNOWN) != (m == NULL))
			abort();
		if (m != NULL)
			(void)strlen(m);
	}
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		n = evidence_count(ev, kinds[k]);
		for (i = 0; i < n; i++) {
			it = evidence_item(ev, kinds[k], i);
			if (it == NULL || it->kind != kinds[k] ||
			    evidence_find(ev, kinds[k], it->name) != it ||
			    it->bundles == 0 ||
			    /* crypto hits count users: 0 is registered */
			    (it->hits == 0 && kinds[k] != EV_CRYPTO) ||
			    strlen(it->name) == 0)
				abort();
			if (it->detail != NULL)
				(void)strlen(it->detail);
			if (it->module != NULL)
				(void)strlen(it->module);
		}
	}
	evidence_free(ev);
	return 0;
}
