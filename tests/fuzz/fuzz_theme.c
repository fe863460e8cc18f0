/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_theme.c - libFuzzer target for the YAML theme reader: any text
 * must either fill the table or fail with a "name:line:col: message",
 * without a crash, a hang or a leak. theme.c has no curses, so it is
 * built in here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tui/theme.c"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme	 t;
	char		*cause = NULL;

	memset(&t, 0, sizeof t);
	theme_builtin(&t, "classic");
	if (theme_parse_buffer(&t, "fuzz.yaml", (const char *)data, size,
	    &cause) != 0) {
		if (cause == NULL || strncmp(cause, "fuzz.yaml:", 10) != 0)
			abort();
		free(cause);
	}
	theme_free(&t);
	return 0;
}
