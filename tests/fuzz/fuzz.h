/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the Kconfig fuzz targets share: a configuration context
 * that runs no commands and says nothing.
 */
#ifndef KC_FUZZ_H
#define KC_FUZZ_H

#include <stdbool.h>
#include <string.h>

#include "kconfig.h"

/* Messages nobody reads: the fuzzer looks for crashes, not warnings. */
static inline void
fuzz_quiet(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* A context over envp with $(shell,...) disabled, so fuzzed input runs
 * no commands. */
static inline struct kconfig *
fuzz_kconfig_new(char **envp)
{
	struct kconfig_options opt;

	memset(&opt, 0, sizeof opt);
	opt.envp = envp;
	opt.no_shell = true;
	opt.warn = fuzz_quiet;
	opt.info = fuzz_quiet;
	return kconfig_new(&opt);
}

#endif
