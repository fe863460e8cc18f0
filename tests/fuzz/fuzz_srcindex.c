/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_srcindex.c - libFuzzer target for the source index's cache file:
 * any bytes are either refused or give an index whose every lookup and
 * path stays in bounds (no crash, no hang: a probe must end), and no leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/srcindex/srcindex.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"probe", "foo_open", "ext4", "init_once", "", "x"
	};
	struct srcindex_stats	 st;
	struct srcindex		*si = srcindex_from_blob(data, size);
	const uint32_t		*ids;
	size_t			 i, j, n;
	int			 k;

	if (si == NULL)
		return 0;
	srcindex_get_stats(si, &st);
	for (k = 0; k < SRC_NKINDS; k++) {
		for (i = 0; i < sizeof names / sizeof names[0]; i++) {
			n = srcindex_lookup(si, (enum src_kind)k, names[i],
			    &ids);
			for (j = 0; j < n; j++)
				(void)strlen(srcindex_path(si, ids[j]));
		}
	}
	for (i = 0; i < (size_t)st.files; i++)
		(void)strlen(srcindex_path(si, (uint32_t)i));
	srcindex_free(si);
	return 0;
}
