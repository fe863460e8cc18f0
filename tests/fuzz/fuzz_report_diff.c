/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_report_diff.c - libFuzzer target for report-diff's reader of
 * configuration files (core/trim/report-diff.c; issue 37, item 14): the
 * input is cut at its first two NUL bytes into the input config, the base
 * and the output. Whatever they hold: no crash, hang or leak; every
 * difference names an option and its two values differ; the y/m counter
 * never counts more options than the text has lines.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/trim/report.h"

/* Whether two values (NULL: no line) are the same. */
static bool
fuzz_same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* The number of lines of s (a last line without newline counts). */
static size_t
fuzz_lines(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n + 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_diff	*d;
	char			*buf, *part[3];
	size_t			 i, n, k;

	buf = malloc(size + 3);
	memcpy(buf, data, size);
	memset(buf + size, 0, 3);
	part[0] = buf;
	for (k = 1; k < 3; k++)
		part[k] = part[k - 1] + strlen(part[k - 1]) +
		    (part[k - 1] + strlen(part[k - 1]) < buf + size ? 1 : 0);
	d = report_diff_compute(part[0], k % 2 ? part[1] : NULL, part[2],
	    NULL, &n);
	for (i = 0; i < n; i++) {
		if (d[i].name == NULL || d[i].name[0] == '\0' ||
		    fuzz_same(d[i].was, d[i].now))
			abort();
	}
	report_diff_free(d, n);
	d = report_diff_compute(part[2], part[1], part[0], NULL, &n);
	report_diff_free(d, n);
	for (k = 0; k < 3; k++)
		if (report_diff_count_ym(part[k]) > fuzz_lines(part[k]))
			abort();
	free(buf);
	return 0;
}
