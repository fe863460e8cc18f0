/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_workload.c - libFuzzer target for a bundle's workload file
 * (core/verify/vm-spec.c): any bytes either give step names of letters, digits,
 * '_', '.' and '-' (they become file names and markers in the guest), or
 * fail with a "PATH..." message; no crash, hang or leak.
 */
#include <sys/mman.h>

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/verify/verify.h"
#include "../../lib/fileio.h"
#include "fuzz-file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct workload	 w;
	char		*cause = NULL, path[96];
	const char	*p;
	size_t		 i;

	if (fuzz_file("workload", data, size, path, sizeof path) != 0)
		return 0;
	if (workload_load(&w, path, &cause) != 0) {
		if (cause == NULL || strncmp(cause, path, strlen(path)) != 0)
			abort();
		free(cause);
	} else {
		if (w.nsteps == 0)
			abort();
		for (i = 0; i < w.nsteps; i++) {
			if (*w.steps[i] == '\0')
				abort();
			for (p = w.steps[i]; *p != '\0'; p++)
				if (!isalnum((unsigned char)*p) &&
				    strchr("_.-", *p) == NULL)
					abort();
		}
		workload_free(&w);
	}
	return 0;
}
