/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_collect.c - libFuzzer target for what collect parses (issue 37,
 * item 14): the text of /proc/mounts, a kernel config and /proc/kallsyms
 * (core/collect/collect-private.c), and, through collect --append, another
 * bundle's merged files (modules, modalias, drivers, mounts, filesystems,
 * crypto, seen, uname). The input is cut at NUL bytes into those texts in
 * that order. No crash, hang or leak; the redacted config never holds a
 * value it was asked to drop; the mounts text is lines.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/collect/collect.h"
#include "../../core/collect/collect-append.h"
#include "fuzz-file.h"

/* The bundle's files the input gives after the three texts. */
static const char *const names[] = { "modules", "modalias", "drivers",
	"mounts", "filesystems", "crypto", "seen", "uname" };
#define NNAMES (sizeof names / sizeof names[0])

/* Empty (and keep) a flat directory. */
static void
fuzz_empty(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[256];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (*de->d_name == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

/* Whether a redacted config still has a CONFIG_CMDLINE line with a
 * value (the one option redacted whatever it holds). */
static int
fuzz_cmdline_kept(const char *out)
{
	const char	*l;
	size_t		 n;

	for (l = out; *l != '\0'; l += n + (l[n] == '\n')) {
		n = strcspn(l, "\n");
		if (n >= 15 && strncmp(l, "CONFIG_CMDLINE=", 15) == 0 &&
		    n > 15 && !(n >= 17 && strncmp(l + 15, "\"\"", 2) == 0 &&
		    (n == 17 || (n == 18 && l[17] == '\r'))))
			return 1;
	}
	return 0;
}

/* Next piece of [*p, end) up to a NUL; NULL past the end. */
static const char *
fuzz_next(const char **p, const char *end, size_t *n)
{
	const char *s = *p, *nul;

	if (s > end)
		return NULL;
	if ((nul = memchr(s, '\0', (size_t)(end - s))) == NULL)
		nul = end;
	*n = (size_t)(nul - s);
	*p = nul + 1;
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collect_append_options	 o;
	struct collect_append_result	 r;
	const char			*p = (const char *)data;
	const char			*end = p + size, *s;
	char				*text, *out, *cause = NULL;
	char				 from[128], bundle[128], path[256];
	size_t				 n, i;

	/* mounts (a string), then config and kallsyms (lengths) */
	if ((s = fuzz_next(&p, end, &n)) == NULL)
		return 0;
	text = strndup(s, n);
	free(collect_mounts_text(text));
	free(text);
	if ((s = fuzz_next(&p, end, &n)) != NULL) {
		out = collect_config_redact(s, n);
		if (out == NULL || fuzz_cmdline_kept(out))
			abort();
		free(out);
	}
	if ((s = fuzz_next(&p, end, &n)) != NULL)
		free(collect_kallsyms_relative(s, n));

	/* another bundle appended to an empty one */
	snprintf(from, sizeof from, "%s/from", fuzz_file_dir());
	snprintf(bundle, sizeof bundle, "%s/bundle", fuzz_file_dir());
	mkdir(from, 0700);
	mkdir(bundle, 0700);
	fuzz_empty(from);
	fuzz_empty(bundle);
	for (i = 0; i < NNAMES; i++) {
		if ((s = fuzz_next(&p, end, &n)) == NULL)
			break;
		snprintf(path, sizeof path, "from/%s", names[i]);
		(void)fuzz_file(path, s, n, path, sizeof path);
	}
	memset(&o, 0, sizeof o);
	o.bundle = bundle;
	o.from = from;
	if (collect_append(&o, &r, &cause) != 0)
		free(cause);
	return 0;
}
