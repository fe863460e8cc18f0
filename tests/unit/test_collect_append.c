/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_collect_append.c - evidence over weeks (core/collect-append.c):
 * a bundle made from the cloud-vm fixture, appended to 3 times on the
 * machine running the test, holds the union of what each saw with the
 * counts (the fixture's items once, this machine's three times); the
 * desktop-vm fixture merged in adds its items; a bundle merged into an
 * empty one keeps its counts; modprobed-db's list is imported (a bad
 * line: file:line); the evidence reader reads the merged files without a
 * malformed line and gives the items their counts; a bad seen line is an
 * error naming it.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/collect/collect-append.h"
#include "../../core/collect/collect.h"
#include "../../core/evidence/evidence.h"
#include "../../lib/strmap.h"

#define UNIT_PREFIX "unit/collect-append/"
#include "unit.h"

static char	tmpdir[] = "/tmp/kctui-append-XXXXXX";

#define FIXTURE	"tests/fixtures/evidence/"

/* Copy the merged files of a fixture bundle into dir (a bundle made from
 * it; its mtimes are now). */
static bool
copy_fixture(const char *name, const char *dir)
{
	static const char *const files[] = { "uname", "modules", "drivers",
	    "mounts", "filesystems", "crypto", "modalias", "config.xz" };
	struct strbuf	 sb;
	char		*src, *dst;
	size_t		 i;
	bool		 ok = true;

	mkdir(dir, 0755);
	for (i = 0; ok && i < sizeof files / sizeof files[0]; i++) {
		strbuf_init(&sb);
		src = xasprintf(FIXTURE "%s/%s", name, files[i]);
		dst = xasprintf("%s/%s", dir, files[i]);
		ok = unit_read_file(src, &sb) && file_write_atomic(dst, sb.s,
		    sb.len, 0644, 0, NULL) == 0;
		free(src);
		free(dst);
		strbuf_free(&sb);
	}
	return ok;
}

/* The first words of a file's lines (module names, "-" as "_"), into a
 * map whose keys it owns (free_keys); false when it can't be read. */
static bool
first_words(const char *path, struct strmap *m)
{
	struct strbuf	 sb;
	const char	*p, *e;
	char		*key;
	size_t		 n, i;

	strbuf_init(&sb);
	if (!unit_read_file(path, &sb)) {
		strbuf_free(&sb);
		return false;
	}
	for (p = sb.s; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		n = strcspn(p, " \t\n");
		if (n == 0 || strmap_get(m, p, n) != NULL)
			continue;
		key = xstrndup(p, n);
		for (i = 0; i < n; i++)
			if (key[i] == '-')
				key[i] = '_';
		strmap_set(m, key, n, key);
	}
	strbuf_free(&sb);
	return true;
}

/* Free a first_words() map. */
static void
free_keys(struct strmap *m)
{
	struct strmap_entry	*e;
	size_t			 i = 0;

	while ((e = strmap_next(m, &i)) != NULL)
		free(e->value);
	strmap_free(m);
}

/* The seen count of "KIND NAME" in dir's seen file, 0 if none. */
static unsigned long long
seen_count(const char *dir, const char *kind, const char *name)
{
	struct strbuf		 sb;
	char			*path = xasprintf("%s/seen", dir), *want;
	const char		*p;
	unsigned long long	 count = 0, c;
	int			 off;
	char			 k[16];

	strbuf_init(&sb);
	if (unit_read_file(path, &sb)) {
		for (p = sb.s; *p != '\0'; p = strchr(p, '\n') + 1) {
			off = 0;
			if (sscanf(p, "%15s %llu %*d %*d %n", k, &c,
			    &off) >= 2 && strcmp(k, kind) == 0 && off > 0) {
				want = xasprintf("%s\n", name);
				if ((kind[0] == 'r' && p[off - 1] == '\n') ||
				    strncmp(p + off, want, strlen(want)) == 0)
					count = c;
				free(want);
			}
			if (strchr(p, '\n') == NULL)
				break;
		}
	}
	strbuf_free(&sb);
	free(path);
	return count;
}

static void
quiet_note(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* One append; false with the reason printed. */
static bool
append(const char *bundle, const char *from, const char *mdb,
    struct collect_append_result *r, char **cause)
{
	struct collect_append_options o;

	memset(&o, 0, sizeof o);
	o.bundle = bundle;
	o.from = from;
	o.modprobed = mdb;
	o.note = quiet_note;
	*cause = NULL;
	return collect_append(&o, r, cause) == 0;
}

static void
warn_count(void *arg, const char *text)
{
	(void)text;
	(*(int *)arg)++;
}

int
main(void)
{
	struct collect_append_result	 r;
	struct strmap			 cloud, desk, live, merged;
	struct strmap_entry		*e;
	struct evidence			*ev;
	const struct ev_item		*it;
	char				*b, *c, *snap, *path, *cause = NULL;
	unsigned long long		 want, got, nmods = 0;
	size_t				 i, bad;
	int				 warnings = 0, run;
	bool				 ok;

	if (!unit_tmpdir(tmpdir))
		return 1;
	b = xasprintf("%s/bundle", tmpdir);
	c = xasprintf("%s/copy", tmpdir);
	snap = xasprintf("%s/snap", tmpdir);
	strmap_init(&cloud);
	strmap_init(&desk);
	strmap_init(&live);
	strmap_init(&merged);

	/* A bundle made from a fixture, appended to 3 times here. */
	if (!copy_fixture("cloud-vm", b)) {
		check("fixture", 0, "can't copy " FIXTURE "cloud-vm");
		return 1;
	}
	for (run = 0, ok = true; ok && run < 3; run++)
		ok = append(b, NULL, NULL, &r, &cause);
	checkf("append-3", ok && r.runs == 4, "%s (runs %llu)",
	    cause != NULL ? cause : "", (unsigned long long)r.runs);
	free(cause);

	/* What this machine shows: a snapshot of our own after. */
	{
		struct collect_options co;

		memset(&co, 0, sizeof co);
		co.outdir = snap;
		co.no_trace = true;
		co.snapshot = true;
		co.note = quiet_note;
		cause = NULL;
		if (collect_run(&co, &cause) != 0) {
			check("snapshot", 0, cause);
			free(cause);
		}
	}
	path = xasprintf("%s/modules", snap);
	(void)first_words(path, &live);	/* none in a container */
	free(path);
	(void)first_words(FIXTURE "cloud-vm/modules", &cloud);
	path = xasprintf("%s/modules", b);
	ok = first_words(path, &merged);
	free(path);
	/* The union, and the counts: the fixture's once, ours 3 times. */
	bad = 0;
	i = 0;
	while ((e = strmap_next(&cloud, &i)) != NULL)
		if (strmap_get(&merged, e->key, e->len) == NULL)
			bad++;
	i = 0;
	while ((e = strmap_next(&live, &i)) != NULL)
		if (strmap_get(&merged, e->key, e->len) == NULL)
			bad++;
	checkf("union", ok && bad == 0, "%zu modules missing", bad);
	bad = 0;
	i = 0;
	while ((e = strmap_next(&merged, &i)) != NULL) {
		char *name = xstrndup(e->key, e->len);

		want = (strmap_get(&cloud, e->key, e->len) != NULL ? 1 : 0) +
		    (strmap_get(&live, e->key, e->len) != NULL ? 3 : 0);
		got = seen_count(b, "module", name);
		/* A module loaded between our runs may have fewer. */
		if (got != want && !(strmap_get(&live, e->key, e->len) ==
		    NULL && got > want)) {
			if (bad++ == 0)
				printf("# %s seen %llu, want %llu\n", name,
				    got, want);
		}
		free(name);
	}
	checkf("counts", bad == 0 && strmap_get(&merged, "virtio_net", 10) &&
	    seen_count(b, "module", "virtio_net") >= 1, "%zu wrong", bad);
	checkf("runs", seen_count(b, "runs", "") == 4, "runs %llu",
	    seen_count(b, "runs", ""));
	/* Drivers bound here now were seen by the 3 appends. */
	path = xasprintf("%s/drivers", snap);
	{
		struct strbuf	 sb;
		const char	*p, *nl;
		char		*name;
		const char	*w[16];
		int		 nw;

		strbuf_init(&sb);
		bad = 0;
		if (unit_read_file(path, &sb)) {
			for (p = sb.s; *p != '\0'; p = nl + 1) {
				char *line;

				nl = strchr(p, '\n');
				line = xstrndup(p, (size_t)(nl - p));
				/* bus driver... device module */
				for (nw = 0, name = strtok(line, " ");
				    name != NULL && nw < 16;
				    name = strtok(NULL, " "))
					w[nw++] = name;
				if (nw == 4 && seen_count(b, "driver",
				    w[1]) < 3) {
					if (bad++ == 0)
						printf("# driver %s seen %llu\n",
						    w[1], seen_count(b,
						    "driver", w[1]));
				}
				free(line);
			}
		}
		strbuf_free(&sb);
		checkf("drivers", bad == 0, "%zu drivers seen under 3 times",
		    bad);
	}
	free(path);

	/* The other fixture merged in: its modules added, counts summed. */
	(void)first_words(FIXTURE "desktop-vm/modules", &desk);
	got = seen_count(b, "module", "virtio_blk");
	ok = append(b, FIXTURE "desktop-vm", NULL, &r, &cause);
	want = got + (strmap_get(&desk, "virtio_blk", 10) != NULL);
	checkf("from", ok && r.runs == 5 && r.new_modules > 0 &&
	    seen_count(b, "module", "virtio_blk") == want &&
	    seen_count(b, "module", "snd_hda_intel") == 1,
	    "%s runs %llu new %llu virtio_blk %llu", cause ? cause : "",
	    (unsigned long long)r.runs, (unsigned long long)r.new_modules,
	    seen_count(b, "module", "virtio_blk"));
	free(cause);

	/* A bundle with a seen file merged into an empty one: the same
	 * counts (an appended bundle is one more source like any other). */
	ok = append(c, b, NULL, &r, &cause);
	checkf("merge-bundle", ok && r.runs == 5 &&
	    seen_count(c, "module", "virtio_blk") ==
	    seen_count(b, "module", "virtio_blk"), "%s", cause ? cause : "");
	free(cause);

	/* modprobed-db's list: a module more, one counted once more; the
	 * runs unchanged (no snapshot of ours). */
	path = xasprintf("%s/modprobed.db", tmpdir);
	unit_write_file(path, "# modprobed-db\nvirtio_blk\nfoo-bar\n\n");
	got = seen_count(c, "module", "virtio_blk");
	ok = append(c, NULL, path, &r, &cause);
	checkf("modprobed", ok && r.runs == 5 && r.new_modules == 1 &&
	    seen_count(c, "module", "foo_bar") == 1 &&
	    seen_count(c, "module", "virtio_blk") == got + 1,
	    "%s", cause ? cause : "");
	free(cause);
	nmods = r.modules;
	unit_write_file(path, "virtio_blk\nnot a module\n");
	ok = append(c, NULL, path, &r, &cause);
	checkf("modprobed-bad", !ok && cause != NULL &&
	    strstr(cause, "modprobed.db:2: not a module name: not a module") !=
	    NULL, "%s", cause ? cause : "accepted");
	free(cause);
	free(path);

	/* The reader: no malformed line in the merged files, the counts on
	 * the items. */
	ev = evidence_new();
	cause = NULL;
	if (evidence_load(ev, c, warn_count, &warnings, &cause) != 0) {
		check("reader", 0, cause);
		free(cause);
	} else {
		it = evidence_find(ev, EV_MODULE, "foo_bar");
		ok = it != NULL && it->seen == 1 && warnings == 0;
		it = evidence_find(ev, EV_MODULE, "virtio_blk");
		ok = ok && it != NULL &&
		    it->seen == seen_count(c, "module", "virtio_blk") &&
		    it->seen_first <= it->seen_last && it->seen_last > 0;
		it = evidence_find(ev, EV_MODULE, "snd_hda_intel");
		ok = ok && it != NULL && it->seen == 1;
		checkf("reader", ok && evidence_count(ev, EV_MODULE) ==
		    nmods, "%d warnings, %zu modules, %llu in the file",
		    warnings, evidence_count(ev, EV_MODULE),
		    (unsigned long long)nmods);
	}
	evidence_free(ev);

	/* A seen file someone broke: an error with its line. */
	path = xasprintf("%s/seen", c);
	unit_write_file(path, "# x\nruns 2 10 20\nmodule two 10 20 x\n");
	ok = append(c, FIXTURE "cloud-vm", NULL, &r, &cause);
	checkf("bad-seen", !ok && cause != NULL && strstr(cause,
	    "/seen:3: not \"KIND COUNT FIRST LAST NAME\"") != NULL, "%s",
	    cause ? cause : "accepted");
	free(cause);
	free(path);

	free_keys(&cloud);
	free_keys(&desk);
	free_keys(&live);
	free_keys(&merged);
	free(b);
	free(c);
	free(snap);
	unit_rmtree(tmpdir);
	return unit_failures != 0;
}
