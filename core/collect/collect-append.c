/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-append.c - "kctui collect --append BUNDLE": a bundle that
 * grows over weeks, as modprobed-db's list does, but of everything the
 * evidence commands read while the system runs.
 *
 * An addition is a snapshot (collect_run() without a trace, into a
 * directory inside the bundle, removed afterwards), another bundle
 * (--from), or modprobed-db's list (--import-modprobed). It is merged:
 *
 *	modules		one line per module ever seen, the latest line of each
 *	modalias	every line ever seen
 *	drivers		every line ever seen
 *	mounts		one line per (mount point, type), the latest
 *	filesystems	every line ever seen
 *	crypto		one block per driver, the latest
 *	seen		"KIND COUNT FIRST LAST NAME" per item: how many
 *			snapshots saw it, first and last (seconds since
 *			1970), and "runs COUNT FIRST LAST", the snapshots
 *
 * so every reader of bundles reads an appended bundle as it is (the union
 * is evidence as a bundle of one boot is), and the counts are there for
 * those that want them (explain: "seen 14 times, last 3 days ago"). A
 * bundle without a seen file (one collect or recording) counts as one
 * snapshot taken when its modules file was written. The files of the
 * kernel (config.xz, kallsyms.xz, modules.alias.xz, ...) and of the
 * machine (uname, cpuinfo, ...) are taken when the bundle lacks them, and
 * replaced when the kernel release changed. Everything is written
 * together (file_write_atomic_set) under a lock on the bundle, so an
 * hourly timer and a hand-run append never lose each other's snapshot.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/fileio.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "collect.h"
#include "collect-append.h"

/* The merged files, in this order. */
enum ca_kind { CA_MODULES, CA_MODALIAS, CA_DRIVERS, CA_MOUNTS, CA_FS,
	CA_CRYPTO, CA_NFILES };
static const char *const ca_names[CA_NFILES] = { "modules", "modalias",
	"drivers", "mounts", "filesystems", "crypto" };

/* Files of the kernel and of the machine: taken, not merged. */
static const char *const ca_kept[] = { "uname", "cpuinfo", "meminfo",
	"disks", "sockstat", "sockstat6", "config.xz", "kallsyms.xz",
	"modules.alias.xz", "modules.builtin.ranges.xz", NULL };

/* One line (or crypto block) of a merged file, by its key. */
struct ca_line {
	char	*key;
	char	*text;		/* with its newline(s) */
};

struct ca_file {
	struct ca_line	*v;
	size_t		 n, cap;
	struct strmap	 idx;		/* key -> index + 1 */
	bool		 present;
};

/* One item of the seen file: "kind name" -> counts. */
struct ca_seen {
	char		*key;
	uint64_t	 count;
	int64_t		 first, last;
};

struct ca_seentab {
	struct ca_seen	*v;
	size_t		 n, cap;
	struct strmap	 idx;
};

/* A bundle (or a snapshot) in memory. */
struct ca_bundle {
	struct ca_file		files[CA_NFILES];
	struct ca_seentab	seen;
	bool			has_seen;
	char			*release;	/* uname -r, or NULL */
};

/* Add or replace (replace: the later snapshot's line wins) a line. */
static void
ca_put(struct ca_file *f, const char *key, size_t kn, const char *text,
    size_t tn, bool replace)
{
	struct ca_line	*l;
	uintptr_t	 i;

	if ((i = (uintptr_t)strmap_get(&f->idx, key, kn)) != 0) {
		if (!replace)
			return;
		l = &f->v[i - 1];
		free(l->text);
		l->text = xstrndup(text, tn);
		return;
	}
	XGROW(f->v, f->cap, f->n + 1, 64);
	l = &f->v[f->n++];
	l->key = xstrndup(key, kn);
	l->text = xstrndup(text, tn);
	strmap_set(&f->idx, l->key, kn, (void *)(uintptr_t)f->n);
}

/* Count one sighting (or a merged record) of key. */
static void
ca_see(struct ca_seentab *t, const char *key, uint64_t count, int64_t first,
    int64_t last)
{
	struct ca_seen	*s;
	uintptr_t	 i;

	if ((i = (uintptr_t)strmap_get(&t->idx, key, strlen(key))) != 0) {
		s = &t->v[i - 1];
		s->count += count;
		if (first < s->first)
			s->first = first;
		if (last > s->last)
			s->last = last;
		return;
	}
	XGROW(t->v, t->cap, t->n + 1, 64);
	s = &t->v[t->n++];
	s->key = xstrdup(key);
	s->count = count;
	s->first = first;
	s->last = last;
	strmap_set(&t->idx, s->key, strlen(s->key), (void *)(uintptr_t)t->n);
}

static void
ca_bundle_free(struct ca_bundle *b)
{
	size_t	i, j;

	for (i = 0; i < CA_NFILES; i++) {
		for (j = 0; j < b->files[i].n; j++) {
			free(b->files[i].v[j].key);
			free(b->files[i].v[j].text);
		}
		free(b->files[i].v);
		strmap_free(&b->files[i].idx);
	}
	for (i = 0; i < b->seen.n; i++)
		free(b->seen.v[i].key);
	free(b->seen.v);
	strmap_free(&b->seen.idx);
	free(b->release);
}

static void
ca_bundle_init(struct ca_bundle *b)
{
	size_t i;

	memset(b, 0, sizeof *b);
	for (i = 0; i < CA_NFILES; i++)
		strmap_init(&b->files[i].idx);
	strmap_init(&b->seen.idx);
}

/* The words of a line (blanks between), at most max; their count. */
static size_t
ca_words(const char *s, size_t n, const char **w, size_t *wn, size_t max)
{
	size_t i = 0, k = 0;

	while (k < max) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			break;
		w[k] = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		wn[k] = (size_t)(s + i - w[k]);
		k++;
	}
	return k;
}

/*
 * One line of a merged file into f, and its item into the snapshot's
 * seen set (NULL: none). modules: keyed by the name, dashes made
 * underscores as /proc/modules writes them; an lsmod line becomes a
 * /proc/modules one (a file keeps one format: readers tell it by the
 * first line). mounts: keyed by mount point and type.
 */
static void
ca_line(enum ca_kind k, struct ca_file *f, const char *s, size_t n,
    struct strmap *items)
{
	const char	*w[64];
	size_t		 wn[64], nw, i;
	struct strbuf	 key, text;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		n--;
	if (n == 0)
		return;
	nw = ca_words(s, n, w, wn, 64);
	strbuf_init(&key);
	strbuf_init(&text);
	switch (k) {
	case CA_MODULES:
		if (nw < 2 || (wn[0] == 6 && memcmp(w[0], "Module", 6) == 0))
			goto out;
		for (i = 0; i < wn[0]; i++)
			strbuf_addc(&key, w[0][i] == '-' ? '_' : w[0][i]);
		if (nw >= 6)
			strbuf_add(&text, s, n);
		else
			strbuf_addf(&text, "%s %.*s 0 - Live 0x0000000000000000",
			    key.s, (int)wn[1], w[1]);
		break;
	case CA_MOUNTS:
		if (nw < 3)
			goto out;
		strbuf_addf(&key, "%.*s %.*s", (int)wn[1], w[1], (int)wn[2],
		    w[2]);
		strbuf_add(&text, s, n);
		break;
	default:
		strbuf_add(&key, s, n);
		strbuf_add(&text, s, n);
		break;
	}
	strbuf_addc(&text, '\n');
	ca_put(f, key.s, key.len, text.s, text.len, true);
	if (items == NULL)
		goto out;
	/* The item the evidence reader makes of the line (its name). */
	strbuf_reset(&text);
	switch (k) {
	case CA_MODULES:
		strbuf_addf(&text, "module %s", key.s);
		break;
	case CA_DRIVERS:
		/* bus, driver (may have blanks), device, module */
		if (nw < 4)
			goto out;
		strbuf_adds(&text, "driver ");
		strbuf_add(&text, w[1], (size_t)(w[nw - 3] + wn[nw - 3] -
		    w[1]));
		break;
	case CA_MOUNTS:
		strbuf_addf(&text, "mount %.*s", (int)wn[2], w[2]);
		break;
	case CA_FS:
		strbuf_addf(&text, "fs %.*s", (int)wn[nw - 1], w[nw - 1]);
		break;
	default:
		goto out;
	}
	if (strmap_get(items, text.s, text.len) == NULL) {
		char *copy = xstrdup(text.s);

		strmap_set(items, copy, text.len, copy);
	}
out:
	strbuf_free(&key);
	strbuf_free(&text);
}

/* /proc/crypto blocks, keyed by their driver; the driver into items. */
static void
ca_crypto(struct ca_file *f, const char *s, size_t n, struct strmap *items)
{
	const char	*p = s, *e = s + n, *nl, *start = NULL, *drv = NULL;
	size_t		 dn = 0;
	char		*key;

	for (;; p = nl + 1) {
		nl = p < e ? memchr(p, '\n', (size_t)(e - p)) : NULL;
		if (nl == NULL)
			nl = e;
		if (nl == p || p >= e) {
			/* a blank line, or the end: a block ends */
			if (start != NULL && drv != NULL) {
				ca_put(f, drv, dn, start, (size_t)(p - start),
				    true);
				if (items != NULL) {
					key = xasprintf("crypto %.*s", (int)dn,
					    drv);
					if (strmap_get(items, key,
					    strlen(key)) == NULL)
						strmap_set(items, key,
						    strlen(key), key);
					else
						free(key);
				}
			}
			start = drv = NULL;
			if (p >= e)
				break;
			continue;
		}
		if (start == NULL)
			start = p;
		if ((size_t)(nl - p) > 6 && strncmp(p, "driver", 6) == 0) {
			const char *c = memchr(p, ':', (size_t)(nl - p));

			if (c != NULL) {
				for (c++; c < nl && *c == ' '; c++)
					;
				drv = c;
				dn = (size_t)(nl - c);
				while (dn > 0 && isspace((unsigned char)
				    drv[dn - 1]))
					dn--;
			}
		}
	}
}

/* Read dir/name if it is there; NULL and *missing, or NULL with *cause
 * when it is there but can't be read (or only compressed). */
static char *
ca_read(const char *dir, const char *name, size_t *len, bool *missing,
    char **cause)
{
	char		*path, *text;
	const char	*ext[] = { ".xz", ".gz" };
	size_t		 i;

	*missing = false;
	path = xasprintf("%s/%s", dir, name);
	text = file_read_regular(path, len);
	if (text == NULL && errno == ENOENT) {
		for (i = 0; i < 2; i++) {
			free(path);
			path = xasprintf("%s/%s%s", dir, name, ext[i]);
			if (access(path, F_OK) == 0) {
				*cause = xasprintf("%s: --append merges plain "
				    "files: unpack it first", path);
				free(path);
				return NULL;
			}
		}
		*missing = true;
		free(path);
		return NULL;
	}
	if (text == NULL)
		*cause = xasprintf("%s: %s", path, errno == EINVAL ?
		    "not a regular file" : strerror(errno));
	free(path);
	return text;
}

/* The seen file: "KIND COUNT FIRST LAST [NAME]" lines, # comments; a bad
 * line is an error (kctui wrote it: something else did). */
static int
ca_read_seen(const char *dir, struct ca_bundle *b, char **cause)
{
	char		*text, *line, *next, *end, kind[16];
	size_t		 len, lineno = 0;
	bool		 missing;
	uint64_t	 count;
	long long	 first, last;
	int		 off;

	text = ca_read(dir, "seen", &len, &missing, cause);
	if (text == NULL)
		return missing ? 0 : -1;
	b->has_seen = true;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (*line == '#' || *line == '\0')
			continue;
		off = 0;
		if (sscanf(line, "%15s %" SCNu64 " %lld %lld%n", kind, &count,
		    &first, &last, &off) != 4 || count == 0 || first > last ||
		    (line[off] != '\0' && line[off] != ' ') ||
		    (strcmp(kind, "runs") != 0 && (line[off] != ' ' ||
		    line[off + 1] == '\0'))) {
			*cause = xasprintf("%s/seen:%zu: not \"KIND COUNT "
			    "FIRST LAST NAME\"", dir, lineno);
			free(text);
			return -1;
		}
		end = line + off;
		end += *end == ' ' ? 1 : 0;
		if (strcmp(kind, "runs") == 0)
			ca_see(&b->seen, "runs", count, first, last);
		else {
			char *key = xasprintf("%s %s", kind, end);

			ca_see(&b->seen, key, count, first, last);
			free(key);
		}
	}
	free(text);
	return 0;
}

/* When a bundle without a seen file was taken: its modules file's mtime
 * (then uname's, drivers'), else now. */
static int64_t
ca_bundle_time(const char *dir)
{
	static const char *const files[] = { "modules", "uname", "drivers",
	    "mounts" };
	struct stat	 st;
	char		*path;
	size_t		 i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		path = xasprintf("%s/%s", dir, files[i]);
		if (stat(path, &st) == 0) {
			free(path);
			return (int64_t)st.st_mtime;
		}
		free(path);
	}
	return (int64_t)time(NULL);
}

/* Read a bundle's merged files and its seen file; a bundle without one
 * is one snapshot at when (or at its files' time when when is 0). */
static int
ca_load(const char *dir, struct ca_bundle *b, int64_t when, char **cause)
{
	struct strmap		 items;
	struct strmap_entry	*e;
	const char		*s, *nl, *end;
	char			*text;
	size_t			 len, i, it;
	bool			 missing, any = false;

	strmap_init(&items);
	if (ca_read_seen(dir, b, cause) != 0)
		return -1;
	for (i = 0; i < CA_NFILES; i++) {
		text = ca_read(dir, ca_names[i], &len, &missing, cause);
		if (text == NULL) {
			if (missing)
				continue;
			goto fail;
		}
		b->files[i].present = any = true;
		if (i == CA_CRYPTO)
			ca_crypto(&b->files[i], text, len, &items);
		else {
			for (s = text, end = text + len; s < end; s = nl + 1) {
				if ((nl = memchr(s, '\n', (size_t)(end - s))) ==
				    NULL)
					nl = end;
				ca_line((enum ca_kind)i, &b->files[i], s,
				    (size_t)(nl - s), &items);
			}
		}
		free(text);
	}
	if ((text = ca_read(dir, "uname", &len, &missing, cause)) != NULL) {
		const char	*w[3];
		size_t		 wn[3];

		if (ca_words(text, strcspn(text, "\n"), w, wn, 3) == 3)
			b->release = xstrndup(w[2], wn[2]);
		free(text);
	} else if (!missing)
		goto fail;
	/* A bundle that never was appended to: one snapshot. */
	if (!b->has_seen && any) {
		if (when == 0)
			when = ca_bundle_time(dir);
		ca_see(&b->seen, "runs", 1, when, when);
		it = 0;
		while ((e = strmap_next(&items, &it)) != NULL)
			ca_see(&b->seen, e->key, 1, when, when);
	}
	it = 0;
	while ((e = strmap_next(&items, &it)) != NULL)
		free(e->value);
	strmap_free(&items);
	return 0;
fail:
	it = 0;
	while ((e = strmap_next(&items, &it)) != NULL)
		free(e->value);
	strmap_free(&items);
	return -1;
}

/* modprobed-db's list (one module name a line, as its "store" writes
 * ~/.config/modprobed.db) as a bundle of modules seen once, at the
 * file's time. */
static int
ca_load_modprobed(const char *path, struct ca_bundle *b, char **cause)
{
	struct stat	 st;
	char		*text, *line, *next, *key;
	size_t		 len, lineno = 0, n, i;

	if ((text = file_read_regular(path, &len)) == NULL) {
		*cause = xasprintf("%s: %s", path, errno == EINVAL ?
		    "not a regular file" : strerror(errno));
		return -1;
	}
	if (stat(path, &st) != 0)
		st.st_mtime = time(NULL);
	b->files[CA_MODULES].present = true;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		n = strlen(line);
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (n == 0 || *line == '#')
			continue;
		for (i = 0; i < n; i++) {
			if (!isalnum((unsigned char)line[i]) &&
			    line[i] != '_' && line[i] != '-')
				break;
			if (line[i] == '-')
				line[i] = '_';
		}
		if (i < n) {
			*cause = xasprintf("%s:%zu: not a module name: %s",
			    path, lineno, line);
			free(text);
			return -1;
		}
		/* No size is known: 0 (the reader takes any number). */
		key = xasprintf("%s 0 0 - Live 0x0000000000000000\n", line);
		ca_put(&b->files[CA_MODULES], line, n, key, strlen(key),
		    false);
		free(key);
		key = xasprintf("module %s", line);
		ca_see(&b->seen, key, 1, (int64_t)st.st_mtime,
		    (int64_t)st.st_mtime);
		free(key);
	}
	free(text);
	b->has_seen = true;
	return 0;
}

/* Remove a flat directory (the snapshot's). */
static void
ca_rmdir(const char *dir)
{
	DIR		*d;
	struct dirent	*de;
	char		*p;

	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", dir, de->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* The outputs being built: paths and contents, all written at once. */
struct ca_out {
	struct file_out	*v;
	size_t		 n, cap;
};

static void
ca_out_add(struct ca_out *o, const char *dir, const char *name, char *buf,
    size_t len, mode_t mode)
{
	XGROW(o->v, o->cap, o->n + 1, 16);
	o->v[o->n].path = xasprintf("%s/%s", dir, name);
	o->v[o->n].buf = buf;
	o->v[o->n].len = len;
	o->v[o->n].mode = mode;
	o->v[o->n].flags = 0;
	o->n++;
}

static void
ca_out_free(struct ca_out *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free((char *)o->v[i].path);
		free((void *)o->v[i].buf);
	}
	free(o->v);
}

/* The kept files the snapshot gives: those the bundle lacks, all of them
 * when the kernel changed. */
static int
ca_take_kept(const char *bundle, const char *from, bool release_changed,
    struct ca_out *o, char **cause)
{
	struct stat	 st;
	char		*src, *dst, *buf;
	size_t		 i, len;
	bool		 have;

	for (i = 0; ca_kept[i] != NULL; i++) {
		src = xasprintf("%s/%s", from, ca_kept[i]);
		dst = xasprintf("%s/%s", bundle, ca_kept[i]);
		have = access(dst, F_OK) == 0;
		free(dst);
		if (stat(src, &st) != 0 || (have && !release_changed)) {
			free(src);
			continue;
		}
		if ((buf = file_read_regular(src, &len)) == NULL) {
			*cause = xasprintf("%s: %s", src, strerror(errno));
			free(src);
			return -1;
		}
		free(src);
		ca_out_add(o, bundle, ca_kept[i], buf, len, st.st_mode & 0777);
	}
	return 0;
}

/* Under a new kernel, the old kernel's files the snapshot has no
 * counterpart of (modules.alias of a kernel without one) would describe
 * the wrong kernel: they go. */
static void
ca_drop_stale(const char *dir, const char *from)
{
	static const char *const kernel[] = { "config.xz", "kallsyms.xz",
	    "modules.alias.xz", "modules.builtin.ranges.xz" };
	char	*src, *dst;
	size_t	 i;

	for (i = 0; i < sizeof kernel / sizeof kernel[0]; i++) {
		src = xasprintf("%s/%s", from, kernel[i]);
		dst = xasprintf("%s/%s", dir, kernel[i]);
		if (access(src, F_OK) != 0)
			(void)unlink(dst);
		free(src);
		free(dst);
	}
}

/* Merge add into b and write the bundle: the merged files, the seen
 * file and the kept files from from (may be NULL). */
static int
ca_write(const char *dir, struct ca_bundle *b, struct ca_bundle *add,
    const char *from, struct collect_append_result *res, char **cause)
{
	struct ca_out	 o = { NULL, 0, 0 };
	struct strbuf	 sb;
	size_t		 i, j, before = b->files[CA_MODULES].n;
	const char	*sp;
	bool		 changed;
	int		 rc = -1;

	changed = b->release != NULL && add->release != NULL &&
	    strcmp(b->release, add->release) != 0;
	for (i = 0; i < CA_NFILES; i++) {
		if (!add->files[i].present)
			continue;
		for (j = 0; j < add->files[i].n; j++)
			ca_put(&b->files[i], add->files[i].v[j].key,
			    strlen(add->files[i].v[j].key),
			    add->files[i].v[j].text,
			    strlen(add->files[i].v[j].text), true);
		b->files[i].present = true;
	}
	for (i = 0; i < add->seen.n; i++)
		ca_see(&b->seen, add->seen.v[i].key, add->seen.v[i].count,
		    add->seen.v[i].first, add->seen.v[i].last);
	for (i = 0; i < CA_NFILES; i++) {
		if (!b->files[i].present)
			continue;
		strbuf_init(&sb);
		strbuf_add(&sb, "", 0);
		for (j = 0; j < b->files[i].n; j++) {
			/* crypto blocks are separated by blank lines */
			if (i == CA_CRYPTO && j > 0)
				strbuf_addc(&sb, '\n');
			strbuf_adds(&sb, b->files[i].v[j].text);
		}
		ca_out_add(&o, dir, ca_names[i], sb.s, sb.len, 0644);
	}
	strbuf_init(&sb);
	strbuf_adds(&sb, "# kctui collect --append: KIND COUNT FIRST LAST "
	    "NAME\n# how many snapshots saw each item, the first and the "
	    "last time (seconds since 1970, UTC)\n");
	for (i = 0; i < b->seen.n; i++) {
		sp = strcmp(b->seen.v[i].key, "runs") == 0 ? NULL :
		    strchr(b->seen.v[i].key, ' ');
		strbuf_addf(&sb, "%.*s %" PRIu64 " %lld %lld%s%s\n",
		    sp != NULL ? (int)(sp - b->seen.v[i].key) :
		    (int)strlen(b->seen.v[i].key), b->seen.v[i].key,
		    b->seen.v[i].count, (long long)b->seen.v[i].first,
		    (long long)b->seen.v[i].last, sp != NULL ? " " : "",
		    sp != NULL ? sp + 1 : "");
	}
	ca_out_add(&o, dir, "seen", sb.s, sb.len, 0644);
	if (from != NULL && ca_take_kept(dir, from, changed, &o, cause) != 0)
		goto out;
	if (file_write_atomic_set(o.v, o.n, cause) != 0)
		goto out;
	if (changed && from != NULL)
		ca_drop_stale(dir, from);
	res->modules = b->files[CA_MODULES].n;
	res->new_modules = b->files[CA_MODULES].n - before;
	res->runs = 0;
	for (i = 0; i < b->seen.n; i++)
		if (strcmp(b->seen.v[i].key, "runs") == 0)
			res->runs = b->seen.v[i].count;
	rc = 0;
out:
	ca_out_free(&o);
	return rc;
}

int
collect_append(const struct collect_append_options *opt,
    struct collect_append_result *res, char **cause)
{
	struct collect_options	 co;
	struct ca_bundle	 b, add;
	struct utsname		 uts;
	char			*tmp = NULL, *lockpath;
	const char		*from = opt->from;
	int			 lock, rc = -1;

	memset(res, 0, sizeof *res);
	if (opt->bundle == NULL || *opt->bundle == '\0') {
		*cause = xstrdup("no bundle");
		return -1;
	}
	if (path_mkdir_p(opt->bundle, 0755, cause) != 0)
		return -1;
	lockpath = xasprintf("%s/seen", opt->bundle);
	lock = path_lock(lockpath);
	free(lockpath);
	ca_bundle_init(&b);
	ca_bundle_init(&add);
	if (ca_load(opt->bundle, &b, 0, cause) != 0)
		goto out;
	if (opt->modprobed != NULL) {
		if (ca_load_modprobed(opt->modprobed, &add, cause) != 0)
			goto out;
	} else if (from == NULL) {
		/* A snapshot of now: the whole bundle (no trace) the first
		 * time or under a new kernel, else what changes. */
		if (uname(&uts) != 0) {
			*cause = xasprintf("uname: %s", strerror(errno));
			goto out;
		}
		tmp = xasprintf("%s/.kctui-append.XXXXXX", opt->bundle);
		if (mkdtemp(tmp) == NULL) {
			*cause = xasprintf("%s: %s", tmp, strerror(errno));
			free(tmp);
			tmp = NULL;
			goto out;
		}
		memset(&co, 0, sizeof co);
		co.outdir = tmp;
		co.no_trace = true;
		co.snapshot = b.release != NULL &&
		    strcmp(b.release, uts.release) == 0;
		co.note = opt->note;
		co.arg = opt->arg;
		if (collect_run(&co, cause) != 0)
			goto out;
		from = tmp;
		if (ca_load(tmp, &add, (int64_t)time(NULL), cause) != 0)
			goto out;
	} else if (ca_load(from, &add, 0, cause) != 0)
		goto out;
	if (b.release != NULL && add.release != NULL &&
	    strcmp(b.release, add.release) != 0 && opt->note != NULL) {
		char *msg = xasprintf("%s: the kernel is now %s (was %s): its "
		    "config and symbols replace the old ones", opt->bundle,
		    add.release, b.release);

		opt->note(opt->arg, msg);
		free(msg);
	}
	rc = ca_write(opt->bundle, &b, &add, from, res, cause);
out:
	if (tmp != NULL) {
		ca_rmdir(tmp);
		free(tmp);
	}
	ca_bundle_free(&b);
	ca_bundle_free(&add);
	if (lock >= 0)
		path_unlock(lock);
	return rc;
}
