/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_kconfig.c - libFuzzer target for the Kconfig lexer, preprocessor
 * and parser: any input must give a parse result or an error, never a
 * crash or a leak. $(shell,...) is disabled (no_shell), so fuzzed input
 * runs no commands; "source" can only open regular files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char		*noenv[] = { (char *)"srctree=/nonexistent", NULL };
	struct kconfig		*k;
	char			*cause = NULL, *out;

	k = fuzz_kconfig_new(noenv);
	if (kconfig_parse_buffer(k, "Kconfig", (const char *)data, size,
	    &cause) == 0) {
		/* Evaluate everything the way olddefconfig would. */
		kconfig_read_buffer(k, "empty", "", 0, &cause);
		kconfig_set_all_new(k, KC_NEW_YES);
		out = kconfig_write_string(k);
		free(out);
	}
	free(cause);
	kconfig_free(k);
	return 0;
}
