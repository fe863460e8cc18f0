/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_lib.c - the plumbing in lib/: the string map, mkdir -p, atomic
 * file replacement and the cache file format.
 */
#include <errno.h>
#include <poll.h>

#define UNIT_PREFIX "lib/"
#include "unit.h"

#include "../../lib/bgjob.h"
#include "../../lib/cachefile.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/strmap.h"
#include "../../lib/u64map.h"

/* A map of 20000 keys: every key found with its value, absent ones not,
 * iteration sees each once, replacing keeps the count. */
static void
test_strmap(void)
{
	struct strmap		 m;
	struct strmap_entry	*e;
	char			**keys;
	size_t			 i, seen = 0, n = 20000;
	int			 ok = 1;
	bool			 added;

	strmap_init(&m);
	keys = xcalloc(n, sizeof *keys);
	for (i = 0; i < n; i++) {
		keys[i] = xasprintf("CONFIG_%zu", i);
		strmap_set(&m, keys[i], strlen(keys[i]), (void *)(i + 1));
	}
	for (i = 0; i < n; i++)
		ok &= strmap_get(&m, keys[i], strlen(keys[i])) == (void *)(i + 1);
	ok &= strmap_get(&m, "CONFIG_", 7) == NULL;
	ok &= strmap_get(&m, "CONFIG_1x", 8) == (void *)2; /* length counts */
	e = strmap_insert(&m, keys[5], strlen(keys[5]), &added);
	ok &= !added && e->value == (void *)6 && m.count == n;
	for (i = 0; strmap_next(&m, &i) != NULL;)
		seen++;
	ok &= seen == n;
	check("strmap", ok, NULL);
	strmap_free(&m);
	ok = strmap_get(&m, "x", 1) == NULL && m.count == 0;
	check("strmap-empty", ok, NULL);
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* mkdir -p makes nested directories, accepts existing ones, and reports
 * a component that is a file. */
/* The integer map: 100k page-aligned keys (low bits all zero, the shape
 * of traced addresses), counts kept across growth, iteration sees each
 * key once, key 0 refused; xgrow's doubling. */
static void
test_u64map(void)
{
	struct u64map		 m;
	struct u64map_entry	*e;
	uint64_t		 k, sum = 0;
	size_t			 i, n = 0, cap = 0;
	bool			 added, ok = true;
	int			*v = NULL;

	u64map_init(&m);
	for (k = 1; k <= 100000; k++) {
		e = u64map_insert(&m, k << 12, &added);
		ok &= e != NULL && added;
		e->value = k;
	}
	for (k = 1; k <= 100000; k += 7) {
		e = u64map_insert(&m, k << 12, &added);
		ok &= !added && e->value == k;
		e->value++;
	}
	ok &= m.count == 100000 && u64map_find(&m, 5) == NULL;
	ok &= u64map_find(&m, 8ULL << 12)->value == 9;	/* 8 = 1 + 7 */
	ok &= u64map_insert(&m, 0, &added) == NULL && !added;
	ok &= u64map_find(&m, 0) == NULL;
	for (i = 0; (e = u64map_next(&m, &i)) != NULL; n++)
		sum += e->value;
	ok &= n == 100000 && sum == 100000ULL * 100001 / 2 + 14286;
	check("u64map", ok, NULL);
	u64map_free(&m);
	check("u64map-empty", u64map_find(&m, 1ULL << 12) == NULL &&
	    m.count == 0, NULL);

	ok = true;
	for (i = 0; i < 1000; i++) {
		XGROW(v, cap, i + 1, 16);
		v[i] = (int)i;
		ok &= cap >= i + 1 && (cap & (cap - 1)) == 0 && cap >= 16;
	}
	ok &= v[999] == 999 && cap == 1024;
	XGROW(v, cap, 10, 16);		/* no shrink, no move needed */
	ok &= cap == 1024;
	free(v);
	check("xgrow", ok, NULL);
}

static void
test_mkdir(const char *top)
{
	char	*d = xasprintf("%s/a/b/c", top), *f = xasprintf("%s/file", top);
	char	*bad = xasprintf("%s/file/x", top), *cause = NULL;
	struct stat st;
	FILE	*fp;

	check("mkdir-p", path_mkdir_p(d, 0777, &cause) == 0 &&
	    stat(d, &st) == 0 && S_ISDIR(st.st_mode), cause);
	check("mkdir-p-exists", path_mkdir_p(d, 0777, &cause) == 0, cause);
	fp = fopen(f, "w");
	if (fp != NULL)
		fclose(fp);
	check("mkdir-p-file", path_mkdir_p(bad, 0777, &cause) == -1 &&
	    cause != NULL && strstr(cause, "Not a directory") != NULL, cause);
	free(cause);
	free(d);
	free(f);
	free(bad);
}

/* Count the files in dir whose name starts with prefix. */
static int
count_prefix(const char *top, const char *prefix)
{
	char	*cmd = xasprintf("ls -a '%s' | grep -c '^%s'", top, prefix);
	FILE	*p = popen(cmd, "r");
	int	 n = -1;

	if (p != NULL) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	free(cmd);
	return n;
}

/* Atomic replacement: content, .old kept, abort leaves the file alone,
 * no temporaries left behind, a failure names the file. */
static void
test_atomic(const char *top)
{
	char			*p = xasprintf("%s/config", top), *old;
	char			*cause = NULL, *s;
	struct atomic_file	 af;
	size_t			 len;

	old = xasprintf("%s.old", p);
	check("atomic-new", file_write_atomic(p, "one\n", 4, 0666,
	    ATOMIC_KEEP_OLD, &cause) == 0, cause);
	check("atomic-replace", file_write_atomic(p, "two\n", 4, 0666,
	    ATOMIC_KEEP_OLD, &cause) == 0, cause);
	s = file_read_all(p, &len);
	check("atomic-content", s != NULL && strcmp(s, "two\n") == 0, s);
	free(s);
	s = file_read_all(old, &len);
	check("atomic-old", s != NULL && strcmp(s, "one\n") == 0, s);
	free(s);
	if (atomic_open(&af, p, 0666, 0, &cause) == 0) {
		atomic_write(&af, "three\n", 6);
		atomic_abort(&af);
	}
	s = file_read_all(p, &len);
	check("atomic-abort", s != NULL && strcmp(s, "two\n") == 0, s);
	free(s);
	check("atomic-no-temporaries", count_prefix(top, "config.tmp") == 0,
	    NULL);
	free(cause);
	cause = NULL;
	check("atomic-directory", file_write_atomic(top, "x", 1, 0666, 0,
	    &cause) == -1 && cause != NULL, cause);
	free(cause);
	free(p);
	free(old);
}

/* Cache files: a round trip, then each kind of damage refused. */
static void
test_cachefile(const char *top)
{
	char			*p = xasprintf("%s/c/cache", top), *cause = NULL;
	struct cachefile	 cf;
	char			 payload[1000], *raw;
	size_t			 len, i;
	FILE			*fp;
	int			 ok;

	for (i = 0; i < sizeof payload; i++)
		payload[i] = (char)(i * 7);
	check("cache-write", cachefile_write(p, "KCTEST\n\n", 3, 42, payload,
	    sizeof payload, &cause) == 0, cause);
	ok = cachefile_open(&cf, p, "KCTEST\n\n", 3, CACHEFILE_POPULATE,
	    &cause) == 0 && cf.len == sizeof payload && cf.identity == 42 &&
	    memcmp(cf.data, payload, sizeof payload) == 0 &&
	    ((uintptr_t)cf.data & 15) == 0;
	check("cache-read", ok, cause);
	cachefile_close(&cf);
	free(cause);
	check("cache-version", cachefile_open(&cf, p, "KCTEST\n\n", 4, 0,
	    &cause) == -1 && cause != NULL, NULL);
	free(cause);
	check("cache-magic", cachefile_open(&cf, p, "KCOTHER\n", 3, 0,
	    &cause) == -1 && cause != NULL, NULL);
	free(cause);
	check("cache-absent", cachefile_open(&cf, "/nonexistent/x", "KCTEST\n\n",
	    3, 0, &cause) == -1 && cause == NULL, NULL);
	raw = file_read_all(p, &len);
	/* every byte of the header and payload, flipped in turn */
	ok = raw != NULL;
	for (i = 0; ok && i < len; i += (i < CACHEFILE_HEADER ? 1 : 37)) {
		raw[i] ^= 0x5a;
		if ((fp = fopen(p, "w")) == NULL)
			break;
		fwrite(raw, 1, len, fp);
		fclose(fp);
		raw[i] ^= 0x5a;
		/* the identity is the caller's to check */
		if (i >= 16 && i < 24)
			continue;
		ok &= cachefile_open(&cf, p, "KCTEST\n\n", 3, 0, &cause) == -1;
		free(cause);
	}
	check("cache-corrupt", ok, NULL);
	if (raw != NULL && (fp = fopen(p, "w")) != NULL) {
		fwrite(raw, 1, len - 1, fp);
		fclose(fp);
	}
	check("cache-truncated", cachefile_open(&cf, p, "KCTEST\n\n", 3, 0,
	    &cause) == -1 && cause != NULL, NULL);
	free(cause);
	free(raw);
	free(p);
}

/* The clock moves forward. */
static void
test_clock(void)
{
	uint64_t	a = clock_ns(), b;
	double		x = clock_now();

	usleep(2000);
	b = clock_ns();
	check("clock", b - a >= 1000000 && clock_now() > x, NULL);
}

/* The background job's thread wakes a poll() and ends. */
static void *
bg_main(void *arg)
{
	struct bgjob	*j = arg;
	int		 i;

	/* More wakes than the pipe holds bytes would block a blocking
	 * write: the pipe is non-blocking, so the thread never waits. */
	for (i = 0; i < 70000; i++)
		bgjob_wake(j);
	return NULL;
}

static void
test_bgjob(void)
{
	struct bgjob	 j;
	struct pollfd	 p;
	char		*cause = NULL;
	int		 r;

	if (bgjob_start(&j, bg_main, &j, &cause) != 0) {
		check("bgjob-start", 0, cause);
		free(cause);
		return;
	}
	p.fd = bgjob_fd(&j);
	p.events = POLLIN;
	r = poll(&p, 1, 10000);
	check("bgjob-wakes", r == 1 && (p.revents & POLLIN), NULL);
	bgjob_join(&j);
	bgjob_drain(&j);
	r = poll(&p, 1, 0);
	check("bgjob-drained", r == 0, NULL);
	bgjob_close(&j);
	check("bgjob-closed", j.pipe[0] == -1 && j.pipe[1] == -1, NULL);
}

/* Module names: one rule for '-' and '_'. */
static void
test_modname(void)
{
	char	buf[] = "snd-hda-intel", *d = modname_dup("usb-storage.ko", 11);

	check("modname-canon", strcmp(modname_canon(buf), "snd_hda_intel") ==
	    0, buf);
	check("modname-dup", strcmp(d, "usb_storage") == 0, d);
	free(d);
	check("modname-eq", modname_eq("snd-hda_intel", "snd_hda-intel") &&
	    !modname_eq("snd_hda", "snd_hda_intel") &&
	    !modname_eq("snd_hda_intel", "snd_hda") &&
	    !modname_eq("ab", "a-"), NULL);
	check("modname-eqn", modname_eqn("libahci.o", "libahci", 7) &&
	    modname_eqn("lib-ahci", "lib_ahcix", 8) &&
	    !modname_eqn("lib", "libahci", 7) &&
	    !modname_eqn("libahci", "libahcx", 7), NULL);
}

int
main(void)
{
	char	top[] = "/tmp/kctui-lib.XXXXXX";

	if (!unit_tmpdir(top)) {
		check("tempdir", 0, strerror(errno));
		return 1;
	}
	test_strmap();
	test_u64map();
	test_mkdir(top);
	test_atomic(top);
	test_cachefile(top);
	test_clock();
	test_modname();
	test_bgjob();
	unit_rmtree(top);
	return unit_failures != 0;
}
