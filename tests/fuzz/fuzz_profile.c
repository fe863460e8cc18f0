/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_profile.c - libFuzzer target for the profile reader
 * (core/profile.c): any text must either give a profile whose every
 * option has a name, a value y or m, a one-line reason and a source, or
 * fail with "fuzz.yaml:line[:col]: message", without a crash, a hang or
 * a leak; a profile's workload text, when it has one, ends with its
 * step line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/profile/profile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile	*pr;
	char		*cause = NULL, *text;
	size_t		 i;

	pr = profile_parse_buffer("fuzz.yaml", (const char *)data, size,
	    &cause);
	if (pr == NULL) {
		if (cause == NULL || strncmp(cause, "fuzz.yaml:", 10) != 0)
			abort();
		free(cause);
		return 0;
	}
	for (i = 0; i < pr->noptions; i++) {
		if (pr->options[i].name == NULL ||
		    (pr->options[i].value != KC_YES &&
		    pr->options[i].value != KC_MOD) ||
		    pr->options[i].reason == NULL ||
		    strchr(pr->options[i].reason, '\n') != NULL ||
		    pr->options[i].source == NULL)
			abort();
	}
	if ((text = profile_workload_text(pr)) != NULL) {
		if (!profile_workload_has_step(text, pr->step_name))
			abort();
		free(text);
	}
	profile_free(pr);
	return 0;
}
