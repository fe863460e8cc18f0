/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - what every unit test program (tests/unit/test_*.c) needs:
 * result lines in the form of tests/lib.sh, a scratch directory, reading
 * a whole file, parsing a Kconfig text, finding the real kernel tree.
 * Header only (one program a file, built by the Makefile's
 * tests/unit/%.c rule); include it once, after defining UNIT_PREFIX, the
 * start of every result name (e.g. "unit/kconfig/").
 */
#ifndef KC_UNIT_H
#define KC_UNIT_H

#include <sys/stat.h>

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"

#ifndef UNIT_PREFIX
#define UNIT_PREFIX ""
#endif

/* How many checks failed: main() returns non-zero if any did. */
static int unit_failures;

/* Report one result: "PASS name", or "FAIL name: detail" (a printf
 * format) and count it. */
static inline void __attribute__((format(printf, 3, 4)))
checkf(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS " UNIT_PREFIX "%s\n", name);
		return;
	}
	unit_failures++;
	printf("FAIL " UNIT_PREFIX "%s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Report one result with a detail string (NULL: none). */
static inline void
check(const char *name, int ok, const char *detail)
{
	checkf(name, ok, "%s", detail != NULL ? detail : "");
}

/* A test that can't run here, and why. */
static inline void
skip(const char *name, const char *why)
{
	printf("SKIP " UNIT_PREFIX "%s: %s\n", name, why);
}

/* Messages nobody reads (kconfig_options' warn and info). */
static inline void
unit_quiet(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* Make the scratch directory from a mkdtemp() template (in place);
 * false, said on stderr, when it can't. */
static inline bool
unit_tmpdir(char *template)
{
	if (mkdtemp(template) != NULL)
		return true;
	perror("mkdtemp");
	return false;
}

/* Remove a directory and everything below it. */
static inline void
unit_rmtree(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
}

/* Read a whole file into sb (NUL-terminated; empty and false if it is
 * missing or can't be read). */
static inline bool
unit_read_file(const char *path, struct strbuf *sb)
{
	size_t	 len;
	char	*buf = file_read_all(path, &len);

	strbuf_reset(sb);
	strbuf_add(sb, "", 0);
	if (buf == NULL)
		return false;
	strbuf_add(sb, buf, len);
	free(buf);
	return true;
}

/* Write text to a file; false if it can't. */
static inline bool
unit_write_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");
	bool	 ok;

	if (f == NULL)
		return false;
	ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

/* A configuration parsed from a Kconfig text, with config (may be NULL)
 * read as its .config and values computed; no environment, messages to
 * msg (NULL: none). Errors are said on "# " lines. */
static inline struct kconfig *
unit_kconfig(const char *kconfig, const char *config,
    void (*msg)(void *, const char *))
{
	static char		*noenv[] = { NULL };
	struct kconfig_options	 opt;
	struct kconfig		*k;
	char			*cause = NULL;

	memset(&opt, 0, sizeof opt);
	opt.envp = noenv;
	opt.warn = msg != NULL ? msg : unit_quiet;
	opt.info = msg != NULL ? msg : unit_quiet;
	k = kconfig_new(&opt);
	if (kconfig_parse_buffer(k, "Kconfig", kconfig, strlen(kconfig),
	    &cause) != 0) {
		printf("# parse error: %s\n", cause);
		free(cause);
		cause = NULL;
	}
	if (config != NULL && kconfig_read_buffer(k, ".config", config,
	    strlen(config), &cause) < 0) {
		printf("# read error: %s\n", cause);
		free(cause);
	}
	if (config != NULL)
		kconfig_recalc(k);
	return k;
}

/* The real Linux tree to test on, in which probe (a file below it)
 * exists: $KCTUI_TREE (as tests/run.sh sets it), else the first of
 * ~/.cache/kctui/linux-6.1 and /var/cache/kctui/linux-source-6.1 that has
 * it; NULL if none. The result is in buf. */
static inline const char *
unit_find_tree(const char *probe, char *buf, size_t size)
{
	const char	*env = getenv("KCTUI_TREE"), *home = getenv("HOME");
	const char	*dirs[3];
	char		*home_tree = NULL, *path;
	struct stat	 st;
	int		 i, n = 0, found = 0;

	if (env != NULL && *env != '\0')
		dirs[n++] = env;
	else {
		if (home != NULL)
			dirs[n++] = home_tree = xasprintf("%s/.cache/kctui/"
			    "linux-6.1", home);
		dirs[n++] = "/var/cache/kctui/linux-source-6.1";
	}
	for (i = 0; i < n && !found; i++) {
		path = xasprintf("%s/%s", dirs[i], probe);
		if ((found = stat(path, &st) == 0))
			snprintf(buf, size, "%s", dirs[i]);
		free(path);
	}
	free(home_tree);
	return found ? buf : NULL;
}
#endif
