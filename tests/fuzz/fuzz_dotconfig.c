/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_dotconfig.c - libFuzzer target for the .config reader: arbitrary
 * config text over a fixed Kconfig with every symbol type, a choice and
 * ranges, then evaluation and writing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const char kconfig_text[] =
    "config MODULES\n\tbool \"modules\"\n\tdefault y\n\tmodules\n"
    "config B\n\tbool \"b\"\n\tselect T\n"
    "config T\n\ttristate \"t\"\n\tdepends on !N2\n"
    "config N2\n\tbool \"n2\"\n"
    "config S\n\tstring \"s\"\n\tdefault \"x\"\n"
    "config I\n\tint \"i\"\n\trange 1 100\n\tdefault 5\n"
    "config H\n\thex \"h\"\n\trange 0x10 0xff\n\tdefault 0x20\n"
    "choice\n\tprompt \"c\"\n\tdefault C2\n"
    "config C1\n\tbool \"c1\"\nconfig C2\n\tbool \"c2\"\n"
    "config C3\n\ttristate \"c3\"\nendchoice\n"
    "menu \"m\"\n\tdepends on B\nconfig M1\n\ttristate \"m1\"\nendmenu\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char		*noenv[] = { NULL };
	struct kconfig		*k;
	char			*cause = NULL, *out;

	k = fuzz_kconfig_new(noenv);
	if (kconfig_parse_buffer(k, "Kconfig", kconfig_text,
	    sizeof kconfig_text - 1, &cause) != 0)
		abort();	/* the fixed Kconfig must parse */
	kconfig_read_buffer(k, "fuzz.config", (const char *)data, size,
	    &cause);
	out = kconfig_write_string(k);
	free(out);
	free(cause);
	kconfig_free(k);
	return 0;
}
