/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.c - record an evidence bundle on the running machine.
 *
 * The bundle is a directory of small files, each written atomically (a
 * temporary file in the same directory, fsync, rename):
 *
 *	uname		 the "uname -a" line, the host name left out
 *	modules		 /proc/modules
 *	modalias	 "<path under /sys/devices> <modalias>" per device
 *	drivers		 "<bus> <driver> <device path> <module or ->" per binding
 *	mounts		 /proc/mounts, what names the user left out
 *	filesystems	 /proc/filesystems
 *	crypto		 /proc/crypto
 *	kallsyms.xz	 /proc/kallsyms (mode 0600: it gives away KASLR)
 *	modules.alias.xz /lib/modules/RELEASE/modules.alias
 *	modules.builtin.ranges.xz  /lib/modules/RELEASE/modules.builtin.ranges,
 *			 when the kernel has it (6.12 on, BUILTIN_MODULE_RANGES)
 *	config.xz	 /boot/config-RELEASE or /proc/config.gz
 *	functions	 "name [module] count" per distinct traced function
 *	trace-stats	 "cpuN" and per_cpu/cpuN/stats, per CPU
 *
 * Tracing uses a private ftrace instance ("kctui-PID") running the function
 * tracer, so the global tracer and other users' instances are untouched.
 * The per-CPU raw ring buffers are read while they fill and every event is
 * folded into two hash tables keyed by address (the traced function and
 * its call site), so memory is bounded by distinct addresses, not events.
 * Addresses are turned into names once at the end, from /proc/kallsyms read
 * after the trace (so modules loaded by the traced command are known).
 *
 * The collector's own process is excluded from the trace
 * (set_ftrace_notrace_pid) so that reading the buffers does not feed them.
 *
 * A bundle is sent to others (bug reports, the project's fixtures), so
 * it says nothing that identifies the user or the machine: no host name
 * (uname's node name is "localhost"), no mount point but the system's
 * own, no mount source but a device's kernel name or a pseudo file
 * system's, no mount option value but a number (NFS and CIFS give the
 * server's address and the user's name there); MAC addresses, IP
 * addresses and serial numbers are in none of the files read.
 */

#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/clock.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "collect.h"

#include <event-parse.h>
#include <kbuffer.h>
#include <lzma.h>
#include <tracefs.h>
#include <zlib.h>

#define COLLECT_XZ_PRESET	6
#define COLLECT_DEFAULT_KB	(64 * 1024)	/* per CPU */
#define COLLECT_IOBUF		65536

/* An output file being written: a temporary name until out_close(); the
 * encoder's errors go to af.error, like write errors. */
struct out {
	struct atomic_file af;
	bool		 xz;
	lzma_stream	 lz;
	uint8_t		*zbuf;
};

/* Distinct addresses and how often each was seen. */
struct addr_count {
	uint64_t	 addr;		/* 0: empty slot */
	uint64_t	 count;
};
struct addr_table {
	struct addr_count *slots;
	size_t		 size;		/* power of two */
	size_t		 count;
};

/* A text symbol of /proc/kallsyms, by offsets into the text. */
struct ksym {
	uint64_t	 addr;
	uint64_t	 count;
	uint32_t	 name;
	uint32_t	 mod;
	uint16_t	 namelen;
	uint16_t	 modlen;	/* 0: core kernel */
};

/* One collection. */
struct collect {
	const struct collect_options *opt;
	const char	*outdir;
	struct utsname	 uts;
	struct strbuf	 kallsyms;	/* the text, once read */
	bool		 have_kallsyms;

	bool		 traced;	/* the trace tables are valid */
	struct addr_table ips;		/* traced functions */
	struct addr_table parents;	/* their call sites */
	uint64_t	 events;
	uint64_t	 missed;	/* lost, as the page headers say */
	struct strbuf	 stats;		/* trace-stats */
};

/*
 * The one file-scope variable: a signal handler gets no argument, so the
 * "stop tracing" flag it sets can only live here.  Only the trace loop
 * reads it, and only while its handlers are installed.
 */
static volatile sig_atomic_t collect_signalled;

/* Report a note through the caller's callback. */
static void
collect_note(struct collect *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	if (c->opt->note == NULL)
		return;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	c->opt->note(c->opt->arg, s);
	free(s);
}

/* Report progress through the caller's callback. */
static void
collect_progress(struct collect *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	if (c->opt->progress == NULL)
		return;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	c->opt->progress(c->opt->arg, s);
	free(s);
}

/* mkdir -p the output directory, and fail now rather than after the
 * trace if it can't be written. */
static int
collect_mkdirs(const char *dir, char **cause)
{
	if (path_mkdir_p(dir, 0755, cause) != 0)
		return -1;
	if (access(dir, W_OK) != 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Start writing dir/name (xz-compressed if xz). The mode is set exactly,
 * whatever the umask: kallsyms.xz must be 0600, the rest readable. */
static int
out_open(struct out *o, const char *dir, const char *name, bool xz,
    mode_t mode, char **cause)
{
	lzma_stream	 init = LZMA_STREAM_INIT;
	char		*path;
	int		 ret;

	memset(o, 0, sizeof *o);
	path = xasprintf("%s/%s", dir, name);
	ret = atomic_open(&o->af, path, mode, 0, cause);
	free(path);
	if (ret != 0)
		return -1;
	if (fchmod(o->af.fd, mode) != 0)
		o->af.error = errno;
	o->xz = xz;
	if (xz) {
		o->lz = init;
		o->zbuf = xmalloc(COLLECT_IOBUF);
		if (lzma_easy_encoder(&o->lz, COLLECT_XZ_PRESET,
		    LZMA_CHECK_CRC64) != LZMA_OK)
			o->af.error = ENOMEM;
	}
	return 0;
}

/* Run the encoder over input (or finish it) and write what comes out. */
static void
out_lzma(struct out *o, const void *buf, size_t len, lzma_action action)
{
	lzma_ret	ret;

	o->lz.next_in = buf;
	o->lz.avail_in = len;
	for (;;) {
		o->lz.next_out = o->zbuf;
		o->lz.avail_out = COLLECT_IOBUF;
		ret = lzma_code(&o->lz, action);
		if (ret != LZMA_OK && ret != LZMA_STREAM_END) {
			o->af.error = (ret == LZMA_MEM_ERROR) ? ENOMEM : EIO;
			return;
		}
		atomic_write(&o->af, o->zbuf, COLLECT_IOBUF - o->lz.avail_out);
		if (o->af.error != 0 || ret == LZMA_STREAM_END)
			return;
		if (action == LZMA_RUN && o->lz.avail_in == 0 &&
		    o->lz.avail_out != 0)
			return;
	}
}

/* Append to an output file; errors are kept for out_close(). */
static void
out_add(struct out *o, const void *buf, size_t len)
{
	if (o->af.error != 0 || len == 0)
		return;
	if (o->xz)
		out_lzma(o, buf, len, LZMA_RUN);
	else
		atomic_write(&o->af, buf, len);
}

/* Append a string. */
static void
out_adds(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* Free the encoder. */
static void
out_free(struct out *o)
{
	if (o->xz)
		lzma_end(&o->lz);
	free(o->zbuf);
	o->zbuf = NULL;
}

/* Finish an output file and rename it into place. */
static int
out_close(struct out *o, char **cause)
{
	if (o->xz && o->af.error == 0)
		out_lzma(o, NULL, 0, LZMA_FINISH);
	out_free(o);
	return atomic_commit(&o->af, cause);
}

/* Write a whole file from memory. */
static int
collect_write(struct collect *c, const char *name, const char *buf,
    size_t len, bool xz, mode_t mode, char **cause)
{
	struct out	o;

	if (out_open(&o, c->outdir, name, xz, mode, cause) != 0)
		return -1;
	out_add(&o, buf, len);
	return out_close(&o, cause);
}

/* Read a whole file (sizes in /proc and sysfs lie) into sb; -1 and errno. */
static int
collect_slurp(const char *path, struct strbuf *sb)
{
	char	buf[COLLECT_IOBUF];
	ssize_t	n;
	int	fd, saved;

	fd = open(path, O_RDONLY|O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(sb, buf, n);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

/*
 * Copy a file into the bundle. A source that can't be read is noted and
 * skipped (returns 0); only failing to write the bundle is an error.
 */
static int
collect_copy(struct collect *c, const char *src, const char *name, bool xz,
    char **cause)
{
	struct strbuf	sb;
	int		ret;

	strbuf_init(&sb);
	if (collect_slurp(src, &sb) != 0) {
		collect_note(c, "%s: %s: not collected", src, strerror(errno));
		strbuf_free(&sb);
		return 0;
	}
	ret = collect_write(c, name, sb.s, sb.len, xz, 0644, cause);
	strbuf_free(&sb);
	return ret;
}

/* Compare two strings through pointers, for qsort. */
static int
collect_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A growable list of lines, sorted and written as one file. */
struct lines {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

/* Append a line (taking ownership). */
static void
lines_add(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

/* Sort the lines and write them, one per line, then free them. */
static int
lines_write(struct collect *c, struct lines *l, const char *name,
    char **cause)
{
	struct out	o;
	size_t		i;
	int		ret = -1;

	if (l->n > 0)
		qsort(l->v, l->n, sizeof *l->v, collect_cmp_str);
	if (out_open(&o, c->outdir, name, false, 0644, cause) == 0) {
		for (i = 0; i < l->n; i++) {
			out_adds(&o, l->v[i]);
			out_add(&o, "\n", 1);
		}
		ret = out_close(&o, cause);
	}
	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
	return ret;
}

/* The uname -a line, as coreutils prints it on Linux, but for the host
 * name: "localhost", as a machine with none set calls itself. */
static int
collect_uname(struct collect *c, char **cause)
{
	char	*s;
	int	 ret;

	s = xasprintf("%s localhost %s %s %s GNU/Linux\n", c->uts.sysname,
	    c->uts.release, c->uts.version, c->uts.machine);
	ret = collect_write(c, "uname", s, strlen(s), false, 0644, cause);
	free(s);
	return ret;
}

/* Read a small sysfs attribute at dirfd/name into buf, one line; -1 if
 * unreadable or empty. */
static int
collect_attr(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t	n;
	int	fd;

	fd = openat(dirfd, name, O_RDONLY|O_CLOEXEC|O_NOFOLLOW);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] == '\0' ? -1 : 0;
}

/* Walk a directory of /sys/devices (path relative to it) for modalias. */
static void
collect_walk(int dirfd, struct strbuf *path, struct lines *l)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	char		 alias[4096];
	size_t		 len = path->len;
	int		 fd, isdir;

	d = fdopendir(dirfd);
	if (d == NULL) {
		close(dirfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (de->d_type == DT_UNKNOWN) {
			if (fstatat(dirfd, de->d_name, &sb,
			    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			isdir = S_ISDIR(sb.st_mode);
			if (!isdir && !S_ISREG(sb.st_mode))
				continue;
		} else if (de->d_type == DT_DIR)
			isdir = 1;
		else if (de->d_type == DT_REG)
			isdir = 0;
		else
			continue;	/* symlinks and the rest */

		if (!isdir) {
			if (strcmp(de->d_name, "modalias") != 0 || len == 0)
				continue;
			if (collect_attr(dirfd, de->d_name, alias,
			    sizeof alias) == 0)
				lines_add(l, xasprintf("%s %s", path->s,
				    alias));
			continue;
		}
		fd = openat(dirfd, de->d_name,
		    O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC);
		if (fd < 0)
			continue;
		if (len != 0)
			strbuf_addc(path, '/');
		strbuf_adds(path, de->d_name);
		collect_walk(fd, path, l);
		path->len = len;
		path->s[len] = '\0';
	}
	closedir(d);
}

/* modalias: every device's modalias under /sys/devices. */
static int
collect_modalias(struct collect *c, char **cause)
{
	struct lines	l = { NULL, 0, 0 };
	struct strbuf	path;
	int		fd;

	fd = open("/sys/devices", O_RDONLY|O_DIRECTORY|O_CLOEXEC);
	if (fd < 0) {
		collect_note(c, "/sys/devices: %s: no modalias",
		    strerror(errno));
		return 0;
	}
	strbuf_init(&path);
	collect_walk(fd, &path, &l);
	strbuf_free(&path);
	return lines_write(c, &l, "modalias", cause);
}

/* The module a driver belongs to ("-" if built in). */
static char *
collect_driver_module(const char *drvpath)
{
	char	*link, target[PATH_MAX], *s;
	ssize_t	 n;

	link = xasprintf("%s/module", drvpath);
	n = readlink(link, target, sizeof target - 1);
	free(link);
	if (n <= 0)
		return xstrdup("-");
	target[n] = '\0';
	s = strrchr(target, '/');
	return xstrdup(s != NULL ? s + 1 : target);
}

/* The devices bound to one driver. */
static void
collect_driver(const char *bus, const char *drv, struct lines *l)
{
	char		*dpath, *lpath, *real, *module = NULL;
	DIR		*d;
	struct dirent	*de;
	static const char devices[] = "/sys/devices/";

	dpath = xasprintf("/sys/bus/%s/drivers/%s", bus, drv);
	d = opendir(dpath);
	if (d == NULL) {
		free(dpath);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_type != DT_LNK || strcmp(de->d_name, "module") == 0)
			continue;
		lpath = xasprintf("%s/%s", dpath, de->d_name);
		real = realpath(lpath, NULL);
		free(lpath);
		if (real == NULL)
			continue;
		if (strncmp(real, devices, sizeof devices - 1) == 0 &&
		    real[sizeof devices - 1] != '\0') {
			if (module == NULL)
				module = collect_driver_module(dpath);
			lines_add(l, xasprintf("%s %s %s %s", bus, drv,
			    real + sizeof devices - 1, module));
		}
		free(real);
	}
	closedir(d);
	free(module);
	free(dpath);
}

/* drivers: every device bound to a driver, per bus. */
static int
collect_drivers(struct collect *c, char **cause)
{
	struct lines	 l = { NULL, 0, 0 };
	DIR		*bd, *dd;
	struct dirent	*be, *de;
	char		*path;

	bd = opendir("/sys/bus");
	if (bd == NULL) {
		collect_note(c, "/sys/bus: %s: no drivers", strerror(errno));
		return 0;
	}
	while ((be = readdir(bd)) != NULL) {
		if (be->d_name[0] == '.')
			continue;
		path = xasprintf("/sys/bus/%s/drivers", be->d_name);
		dd = opendir(path);
		free(path);
		if (dd == NULL)
			continue;
		while ((de = readdir(dd)) != NULL) {
			if (de->d_name[0] == '.' ||
			    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
				continue;
			collect_driver(be->d_name, de->d_name, &l);
		}
		closedir(dd);
	}
	closedir(bd);
	return lines_write(c, &l, "drivers", cause);
}

/* config.xz: /boot/config-RELEASE, else /proc/config.gz. */
static int
collect_config(struct collect *c, char **cause)
{
	char		*path;
	struct stat	 sb;
	int		 ret;

	path = xasprintf("/boot/config-%s", c->uts.release);
	if (stat(path, &sb) == 0) {
		ret = collect_copy(c, path, "config.xz", true, cause);
		free(path);
		return ret;
	}
	free(path);
	if (stat("/proc/config.gz", &sb) != 0) {
		collect_note(c, "no /boot/config-%s or /proc/config.gz: "
		    "no config", c->uts.release);
		return 0;
	}
	{
		struct strbuf	 sb2;
		gzFile		 gz;
		char		 buf[COLLECT_IOBUF];
		int		 n;

		gz = gzopen("/proc/config.gz", "rb");
		if (gz == NULL) {
			collect_note(c, "/proc/config.gz: %s: no config",
			    strerror(errno));
			return 0;
		}
		strbuf_init(&sb2);
		while ((n = gzread(gz, buf, sizeof buf)) > 0)
			strbuf_add(&sb2, buf, n);
		if (n < 0) {
			int	 e;

			collect_note(c, "/proc/config.gz: %s: no config",
			    gzerror(gz, &e));
			gzclose(gz);
			strbuf_free(&sb2);
			return 0;
		}
		gzclose(gz);
		ret = collect_write(c, "config.xz", sb2.s, sb2.len, true,
		    0644, cause);
		strbuf_free(&sb2);
		return ret;
	}
}

/* Add n to an address's count. */
static void
addr_table_add(struct addr_table *t, uint64_t addr, uint64_t n)
{
	struct addr_count	*old;
	size_t			 oldsize, i, h, mask;

	if (addr == 0)
		return;
	if (t->count * 2 >= t->size) {
		old = t->slots;
		oldsize = t->size;
		t->size = oldsize ? oldsize * 2 : 4096;
		t->slots = xcalloc(t->size, sizeof *t->slots);
		t->count = 0;
		for (i = 0; i < oldsize; i++) {
			if (old[i].addr != 0)
				addr_table_add(t, old[i].addr, old[i].count);
		}
		free(old);
	}
	mask = t->size - 1;
	h = (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 20) & mask;
	while (t->slots[h].addr != 0 && t->slots[h].addr != addr)
		h = (h + 1) & mask;
	if (t->slots[h].addr == 0) {
		t->slots[h].addr = addr;
		t->count++;
	}
	t->slots[h].count += n;
}

/* Free an address table. */
static void
addr_table_free(struct addr_table *t)
{
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* Order symbols by address, then by position in kallsyms. */
static int
ksym_cmp_addr(const void *a, const void *b)
{
	const struct ksym	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : (x->name > y->name);
}

/* The text of a collection's kallsyms, for the sorts below. */
struct ksym_sort {
	const char	 *text;
	struct ksym	 *syms;
};

/* Order symbol indices by name, then module (glibc's qsort_r). */
static int
ksym_cmp_name(const void *a, const void *b, void *arg)
{
	const struct ksym_sort	*s = arg;
	const struct ksym	*x = &s->syms[*(const size_t *)a];
	const struct ksym	*y = &s->syms[*(const size_t *)b];
	size_t			 n;
	int			 r;

	n = x->namelen < y->namelen ? x->namelen : y->namelen;
	r = memcmp(s->text + x->name, s->text + y->name, n);
	if (r == 0)
		r = (int)x->namelen - (int)y->namelen;
	if (r != 0)
		return r;
	n = x->modlen < y->modlen ? x->modlen : y->modlen;
	r = memcmp(s->text + x->mod, s->text + y->mod, n);
	return r != 0 ? r : (int)x->modlen - (int)y->modlen;
}

/* Parse the text symbols of kallsyms, sorted by address, aliases dropped. */
static struct ksym *
ksym_parse(const char *text, size_t len, size_t *np)
{
	struct ksym	*v = NULL, *k;
	size_t		 n = 0, cap = 0, i, j;
	const char	*p = text, *end = text + len, *eol, *q;
	char		*e;
	uint64_t	 addr;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (eol == NULL)
			eol = end;
		addr = strtoull(p, &e, 16);
		if (e == p || e + 3 > eol || e[0] != ' ' || e[2] != ' ')
			continue;
		if (strchr("tTwW", e[1]) == NULL || addr == 0)
			continue;
		q = e + 3;
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			v = xrealloc(v, cap * sizeof *v);
		}
		k = &v[n];
		memset(k, 0, sizeof *k);
		k->addr = addr;
		k->name = q - text;
		while (q < eol && *q != '\t' && *q != ' ')
			q++;
		if (q - (text + k->name) > UINT16_MAX)
			continue;
		k->namelen = q - (text + k->name);
		while (q < eol && (*q == '\t' || *q == ' '))
			q++;
		if (q < eol && *q == '[' && eol[-1] == ']' &&
		    eol - q - 2 <= UINT16_MAX) {
			k->mod = q + 1 - text;
			k->modlen = eol - q - 2;
		}
		if (k->namelen > 0)
			n++;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, ksym_cmp_addr);
	for (i = j = 0; i < n; i++) {
		if (j > 0 && v[j - 1].addr == v[i].addr)
			continue;
		v[j++] = v[i];
	}
	*np = j;
	return v;
}

/* The symbol containing addr (the last one at or below it), or NULL. */
static struct ksym *
ksym_find(struct ksym *v, size_t n, uint64_t addr)
{
	size_t	lo = 0, hi = n, mid;

	if (n == 0 || addr < v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &v[lo];
}

/*
 * functions: each distinct function of the trace, "name [module] count",
 * sorted by name. A function's count is the number of events naming it,
 * as the traced function or as its caller (parent_ip), so that callers
 * the tracer can't see (notrace, entry code) are listed too.
 */
static int
collect_functions(struct collect *c, char **cause)
{
	struct ksym		*syms, *k;
	struct ksym_sort	 ks;
	struct addr_table	*tables[2] = { &c->ips, &c->parents };
	size_t			 nsyms, i, t, n, *idx;
	uint64_t		 unresolved = 0, count;
	struct out		 o;
	char			 num[32];

	syms = ksym_parse(c->kallsyms.s, c->kallsyms.len, &nsyms);
	for (t = 0; t < 2; t++) {
		for (i = 0; i < tables[t]->size; i++) {
			if (tables[t]->slots[i].addr == 0)
				continue;
			k = ksym_find(syms, nsyms, tables[t]->slots[i].addr);
			if (k == NULL)
				unresolved += tables[t]->slots[i].count;
			else
				k->count += tables[t]->slots[i].count;
		}
	}
	if (unresolved > 0)
		collect_note(c, "%llu trace addresses not in kallsyms",
		    (unsigned long long)unresolved);

	idx = xmalloc((nsyms + 1) * sizeof *idx);
	for (i = n = 0; i < nsyms; i++) {
		if (syms[i].count != 0)
			idx[n++] = i;
	}
	ks.text = c->kallsyms.s;
	ks.syms = syms;
	if (n > 0)
		qsort_r(idx, n, sizeof *idx, ksym_cmp_name, &ks);

	if (out_open(&o, c->outdir, "functions", false, 0644, cause) != 0) {
		free(idx);
		free(syms);
		return -1;
	}
	for (i = 0; i < n; i = t) {
		/* Static functions of the same name in the same module. */
		count = 0;
		for (t = i; t < n &&
		    ksym_cmp_name(&idx[i], &idx[t], &ks) == 0; t++)
			count += syms[idx[t]].count;
		k = &syms[idx[i]];
		out_add(&o, c->kallsyms.s + k->name, k->namelen);
		if (k->modlen != 0) {
			out_add(&o, " [", 2);
			out_add(&o, c->kallsyms.s + k->mod, k->modlen);
			out_add(&o, "]", 1);
		}
		snprintf(num, sizeof num, " %llu\n",
		    (unsigned long long)count);
		out_adds(&o, num);
	}
	free(idx);
	free(syms);
	return out_close(&o, cause);
}

/* The state of one trace. */
struct trace {
	struct collect		 *c;
	const char		 *dir;		/* tracing directory */
	struct tracefs_instance	 *inst;
	struct tep_handle	 *tep;
	struct kbuffer		 *kbuf;
	struct tep_format_field	 *type_field;
	struct tep_format_field	 *ip_field;
	struct tep_format_field	 *parent_field;
	int			  function_id;
	struct tracefs_cpu	**cpus;
	int			  ncpus;
	void			 *page;
	size_t			  page_size;
	pid_t			  child;
	int			  go;		/* lets the child exec */
	int			  res;		/* exec's errno, or EOF */
	struct sigaction	  oldint, oldterm;
	bool			  handlers;
};

/* Signal handler: only ask the trace loop to stop. */
static void
trace_signal(int sig)
{
	(void)sig;
	collect_signalled = 1;
}

/* Install the SIGINT/SIGTERM handlers. */
static void
trace_handlers(struct trace *t)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = trace_signal;
	sigemptyset(&sa.sa_mask);
	collect_signalled = 0;
	sigaction(SIGINT, &sa, &t->oldint);
	sigaction(SIGTERM, &sa, &t->oldterm);
	t->handlers = true;
}

/* Fold the events of one ring-buffer page into the tables. */
static void
trace_page(struct trace *t, void *page)
{
	struct collect		*c = t->c;
	unsigned long long	 ts, type, ip, parent;
	void			*data;
	int			 missed;

	if (kbuffer_load_subbuffer(t->kbuf, page) < 0)
		return;
	missed = kbuffer_missed_events(t->kbuf);
	if (missed > 0)
		c->missed += missed;
	for (data = kbuffer_read_event(t->kbuf, &ts); data != NULL;
	    data = kbuffer_next_event(t->kbuf, &ts)) {
		if (tep_read_number_field(t->type_field, data, &type) != 0 ||
		    (int)type != t->function_id)
			continue;
		if (tep_read_number_field(t->ip_field, data, &ip) != 0)
			continue;
		c->events++;
		addr_table_add(&c->ips, ip, 1);
		if (tep_read_number_field(t->parent_field, data,
		    &parent) == 0)
			addr_table_add(&c->parents, parent, 1);
	}
}

/* Read what the ring buffers hold, at most max pages per CPU (0: all);
 * returns the number of pages read. */
static size_t
trace_read(struct trace *t, size_t max)
{
	size_t	total = 0, n;
	int	cpu, r;

	for (cpu = 0; cpu < t->ncpus; cpu++) {
		if (t->cpus[cpu] == NULL)
			continue;
		for (n = 0; max == 0 || n < max; n++) {
			r = tracefs_cpu_read(t->cpus[cpu], t->page, true);
			if (r <= 0)
				break;
			trace_page(t, t->page);
		}
		total += n;
	}
	return total;
}

/* Remove instances of collectors that died without cleaning up. */
static void
trace_reap(struct trace *t)
{
	struct tracefs_instance	*inst;
	DIR			*d;
	struct dirent		*de;
	char			*path, *end;
	long			 pid;

	path = xasprintf("%s/instances", t->dir);
	d = opendir(path);
	free(path);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "kctui-", 6) != 0)
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (*end != '\0' || pid <= 0 || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(t->dir, de->d_name);
		if (inst == NULL)
			continue;
		tracefs_tracer_clear(inst);
		if (tracefs_instance_destroy(inst) == 0)
			collect_note(t->c, "removed stale ftrace instance %s",
			    de->d_name);
		tracefs_instance_free(inst);
	}
	closedir(d);
}

/* Read the format of the function event; 0 or -1 after a note. */
static int
trace_setup_events(struct trace *t)
{
	struct collect		*c = t->c;
	const char		*systems[] = { "ftrace", NULL };
	struct tep_event	*ev;

	t->tep = tracefs_local_events_system(t->dir, systems);
	if (t->tep == NULL) {
		collect_note(c, "cannot read ftrace event formats: no trace");
		return -1;
	}
	ev = tep_find_event_by_name(t->tep, "ftrace", "function");
	if (ev == NULL ||
	    (t->type_field = tep_find_common_field(ev, "common_type")) ==
	    NULL ||
	    (t->ip_field = tep_find_field(ev, "ip")) == NULL ||
	    (t->parent_field = tep_find_field(ev, "parent_ip")) == NULL) {
		collect_note(c, "no ftrace/function event: no trace");
		return -1;
	}
	t->function_id = ev->id;
	t->kbuf = tep_kbuffer(t->tep);
	if (t->kbuf == NULL) {
		collect_note(c, "cannot parse ring buffer pages: no trace");
		return -1;
	}
	return 0;
}

/* Set up the instance, the tracer and the readers; 0 or -1 after a note. */
static int
trace_setup_instance(struct trace *t)
{
	struct collect		*c = t->c;
	char			 name[64], pid[32];
	size_t			 kb;
	int			 cpu;

	trace_reap(t);
	snprintf(name, sizeof name, "kctui-%ld", (long)getpid());
	t->inst = tracefs_instance_create(name);
	if (t->inst == NULL) {
		collect_note(c, "cannot create ftrace instance %s: %s: "
		    "no trace", name, strerror(errno));
		return -1;
	}
	tracefs_trace_off(t->inst);

	kb = c->opt->buffer_kb ? c->opt->buffer_kb : COLLECT_DEFAULT_KB;
	if (tracefs_instance_set_buffer_size(t->inst, kb, -1) != 0)
		collect_note(c, "cannot set the ring buffer to %zu kB: %s",
		    kb, strerror(errno));
	if (tracefs_tracer_set(t->inst, TRACEFS_TRACER_FUNCTION) != 0) {
		collect_note(c, "cannot set the function tracer: %s%s: "
		    "no trace", strerror(errno), errno == EPERM ?
		    " (the kernel does not allow it)" : "");
		return -1;
	}
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (tracefs_instance_file_write(t->inst, "set_ftrace_notrace_pid",
	    pid) <= 0)
		collect_note(c, "cannot exclude the collector from the trace");

	t->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (t->ncpus < 1)
		t->ncpus = 1;
	t->cpus = xcalloc(t->ncpus, sizeof *t->cpus);
	for (cpu = 0; cpu < t->ncpus; cpu++) {
		t->cpus[cpu] = tracefs_cpu_open(t->inst, cpu, true);
		if (t->cpus[cpu] != NULL &&
		    (size_t)tracefs_cpu_read_size(t->cpus[cpu]) > t->page_size)
			t->page_size = tracefs_cpu_read_size(t->cpus[cpu]);
	}
	if (t->page_size == 0) {
		collect_note(c, "cannot open the ring buffers: no trace");
		return -1;
	}
	t->page = xmalloc(t->page_size);
	return 0;
}

/*
 * Fork the command, held before exec until trace_release(). It is forked
 * before the ring buffers are opened so that it can't inherit them (an
 * instance can't be removed while anyone holds its files open, and the
 * command's own children may outlive it). -1 with *cause if fork fails.
 */
static int
trace_spawn(struct trace *t, char **cause)
{
	char *const	*argv = t->c->opt->command;
	int		 go[2], res[2], err;
	char		 byte;
	ssize_t		 n;

	if (socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, go) != 0) {
		*cause = xasprintf("socketpair: %s", strerror(errno));
		return -1;
	}
	if (pipe2(res, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	t->child = fork();
	if (t->child < 0) {
		*cause = xasprintf("fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(res[0]);
		close(res[1]);
		t->child = 0;
		return -1;
	}
	if (t->child == 0) {
		close(go[1]);
		close(res[0]);
		do
			n = read(go[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);	/* the trace did not start */
		sigaction(SIGINT, &t->oldint, NULL);
		sigaction(SIGTERM, &t->oldterm, NULL);
		execvp(argv[0], argv);
		err = errno;
		if (write(res[1], &err, sizeof err) < 0)
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(res[1]);
	t->go = go[1];
	t->res = res[0];
	return 0;
}

/* Let the command run; -1 with *cause if exec failed. */
static int
trace_release(struct trace *t, char **cause)
{
	int	err;
	ssize_t	n;

	n = send(t->go, "g", 1, MSG_NOSIGNAL);
	close(t->go);
	t->go = -1;
	if (n != 1) {
		*cause = xasprintf("%s: did not start",
		    t->c->opt->command[0]);
		return -1;
	}
	do
		n = read(t->res, &err, sizeof err);
	while (n < 0 && errno == EINTR);
	close(t->res);
	t->res = -1;
	if (n == sizeof err) {
		waitpid(t->child, NULL, 0);
		t->child = 0;
		*cause = xasprintf("%s: %s", t->c->opt->command[0],
		    strerror(err));
		return -1;
	}
	return 0;
}

/* Stop the command if it still runs (we were told to stop, or the trace
 * could not start) and reap it. */
static void
trace_reap_child(struct trace *t)
{
	int	i;

	if (t->go >= 0) {
		close(t->go);	/* never released: it exits by itself */
		t->go = -1;
	}
	if (t->res >= 0) {
		close(t->res);
		t->res = -1;
	}
	if (t->child <= 0)
		return;
	kill(t->child, SIGTERM);
	for (i = 0; i < 200; i++) {
		if (waitpid(t->child, NULL, WNOHANG) != 0)
			break;
		usleep(10000);
	}
	if (i == 200) {
		kill(t->child, SIGKILL);
		waitpid(t->child, NULL, 0);
	}
	t->child = 0;
}

/* The tracing loop: until the time is up, the command exits or a signal. */
static void
trace_loop(struct trace *t)
{
	struct collect	*c = t->c;
	double		 start = clock_now(), last = start, now;
	struct timespec	 nap = { 0, 20 * 1000 * 1000 };
	int		 seconds = c->opt->trace_seconds, status;

	for (;;) {
		if (trace_read(t, 256) == 0)
			nanosleep(&nap, NULL);
		now = clock_now();
		if (now - last >= 1.0) {
			collect_progress(c, "%llu events, %zu distinct "
			    "functions", (unsigned long long)c->events,
			    c->ips.count);
			last = now;
		}
		if (collect_signalled)
			break;
		if (t->child > 0) {
			if (waitpid(t->child, &status, WNOHANG) == t->child) {
				t->child = 0;
				break;
			}
		} else if (seconds > 0 && now - start >= seconds)
			break;
	}
}

/* Record per-CPU stats, and note overruns. */
static void
trace_stats(struct trace *t)
{
	struct collect	*c = t->c;
	char		 path[64], *s, *p;
	int		 cpu, len;
	unsigned long long overrun, total = 0;

	for (cpu = 0; cpu < t->ncpus; cpu++) {
		snprintf(path, sizeof path, "per_cpu/cpu%d/stats", cpu);
		s = tracefs_instance_file_read(t->inst, path, &len);
		if (s == NULL)
			continue;
		strbuf_addf(&c->stats, "cpu%d\n", cpu);
		strbuf_add(&c->stats, s, len);
		if (len > 0 && s[len - 1] != '\n')
			strbuf_addc(&c->stats, '\n');
		p = strstr(s, "overrun: ");
		if (p != NULL) {
			overrun = strtoull(p + 9, NULL, 10);
			total += overrun;
		}
		free(s);
	}
	if (total > 0 || c->missed > 0)
		collect_note(c, "%llu events lost (ring buffer overrun; "
		    "a larger buffer_kb may help)",
		    total > c->missed ? total : (unsigned long long)c->missed);
}

/* Tear everything down, whatever state it is in. */
static void
trace_cleanup(struct trace *t)
{
	int	cpu, i;

	trace_reap_child(t);
	if (t->inst != NULL) {
		tracefs_trace_off(t->inst);
		tracefs_tracer_clear(t->inst);
	}
	for (cpu = 0; t->cpus != NULL && cpu < t->ncpus; cpu++)
		tracefs_cpu_close(t->cpus[cpu]);
	free(t->cpus);
	free(t->page);
	if (t->inst != NULL) {
		/* EBUSY while a file of it is still open somewhere. */
		for (i = 0; tracefs_instance_destroy(t->inst) != 0; i++) {
			if (errno != EBUSY || i == 50) {
				collect_note(t->c, "cannot remove ftrace "
				    "instance %s: %s",
				    tracefs_instance_get_name(t->inst),
				    strerror(errno));
				break;
			}
			usleep(20000);
		}
		tracefs_instance_free(t->inst);
	}
	if (t->kbuf != NULL)
		kbuffer_free(t->kbuf);	/* tep_kbuffer() made it for us */
	if (t->tep != NULL)
		tep_free(t->tep);
	if (t->handlers) {
		sigaction(SIGINT, &t->oldint, NULL);
		sigaction(SIGTERM, &t->oldterm, NULL);
	}
	memset(t, 0, sizeof *t);
	t->go = t->res = -1;
}

/*
 * Trace, if we can. Returns -1 with *cause only when the command can't be
 * run; everything else that prevents tracing is a note.
 */
static int
collect_trace(struct collect *c, char **cause)
{
	struct trace	t;
	int		ret = 0;

	if (c->opt->no_trace)
		return 0;
	if (geteuid() != 0) {
		collect_note(c, "not root: no trace");
		return 0;
	}
	memset(&t, 0, sizeof t);
	t.c = c;
	t.dir = tracefs_tracing_dir();
	if (t.dir == NULL) {
		collect_note(c, "tracefs not mounted: no trace");
		return 0;
	}

	t.go = t.res = -1;

	trace_handlers(&t);
	if (trace_setup_events(&t) != 0)
		goto out;
	if (c->opt->command != NULL && c->opt->command[0] != NULL &&
	    trace_spawn(&t, cause) != 0) {
		ret = -1;
		goto out;
	}
	if (trace_setup_instance(&t) != 0)
		goto out;
	if (tracefs_trace_on(t.inst) != 0) {
		collect_note(c, "cannot turn tracing on: no trace");
		goto out;
	}
	if (t.child > 0 && trace_release(&t, cause) != 0) {
		ret = -1;
		goto out;
	}
	trace_loop(&t);
	tracefs_trace_off(t.inst);
	trace_reap_child(&t);
	trace_read(&t, 0);
	trace_stats(&t);
	c->traced = true;
	collect_progress(c, "%llu events, %zu distinct functions",
	    (unsigned long long)c->events, c->ips.count);
out:
	trace_cleanup(&t);
	return ret;
}

/* Whether s is made of lowercase letters, digits and chars (a kernel
 * device name, a file system type, an option's key). */
static bool
mounts_word(const char *s, size_t n, const char *chars)
{
	size_t	i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || strchr(chars, s[i]) != NULL))
			return false;
	return true;
}

/* Whether s is a number, with a unit (65536k, 50%, 0077). */
static bool
mounts_number(const char *s, size_t n)
{
	size_t	i;

	if (n > 1 && strchr("kKmMgG%", s[n - 1]) != NULL)
		n--;
	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Whether a mount point is the system's own (the same on every
 * machine), not a name someone chose. */
static bool
mounts_system_point(const char *s, size_t n)
{
	static const char *const points[] = {
		"/", "/boot", "/boot/efi", "/efi", "/home", "/tmp", "/var",
		"/var/tmp", "/var/log", "/usr", "/opt", "/srv", "/mnt",
		"/media", "/run", "/run/lock", "/run/shm", NULL
	};
	static const char *const trees[] = { "/proc", "/sys", "/dev", NULL };
	size_t	i, k;

	for (i = 0; points[i] != NULL; i++)
		if (strlen(points[i]) == n && memcmp(points[i], s, n) == 0)
			return true;
	for (i = 0; trees[i] != NULL; i++) {
		k = strlen(trees[i]);
		if (n >= k && memcmp(trees[i], s, k) == 0 && (n == k ||
		    s[k] == '/') && mounts_word(s, n, "/_.-"))
			return true;
	}
	return false;
}

/* The source of a mount, said without names: a device by its kernel
 * name (/dev/nvme0n1p2), a pseudo file system by its usual source, the
 * rest (server:/export, //server/share, /dev/mapper/NAME, a file, a
 * label) as "none" or "/dev/block". */
static void
mounts_source(struct strbuf *out, const char *s, size_t n)
{
	static const char *const pseudo[] = {
		"none", "proc", "sysfs", "tmpfs", "devtmpfs", "devpts",
		"cgroup", "cgroup2", "securityfs", "debugfs", "tracefs",
		"pstore", "bpf", "mqueue", "hugetlbfs", "configfs", "fusectl",
		"binfmt_misc", "efivarfs", "systemd-1", "overlay", "shm",
		"udev", "rootfs", "nsfs", "ramfs", "rpc_pipefs", NULL
	};
	size_t	i;

	if (n > 5 && memcmp(s, "/dev/", 5) == 0) {
		if (mounts_word(s + 5, n - 5, ""))
			strbuf_add(out, s, n);
		else
			strbuf_adds(out, "/dev/block");
		return;
	}
	for (i = 0; pseudo[i] != NULL; i++)
		if (strlen(pseudo[i]) == n && memcmp(pseudo[i], s, n) == 0) {
			strbuf_add(out, s, n);
			return;
		}
	strbuf_adds(out, "none");
}

/* Mount options with their values left out unless they are numbers
 * (size=65536k, mode=755): an address, a user name, a path or a
 * subvolume's name is the user's. */
static void
mounts_options(struct strbuf *out, const char *s, size_t n)
{
	const char	*o, *e, *eq;
	bool		 first = true;

	for (o = s; o < s + n; o = e + 1) {
		if ((e = memchr(o, ',', (size_t)(s + n - o))) == NULL)
			e = s + n;
		eq = memchr(o, '=', (size_t)(e - o));
		if (!mounts_word(o, (size_t)((eq != NULL ? eq : e) - o),
		    "_.-"))
			continue;
		if (!first)
			strbuf_addc(out, ',');
		first = false;
		if (eq != NULL && mounts_number(eq + 1, (size_t)(e - eq - 1)))
			strbuf_add(out, o, (size_t)(e - o));
		else
			strbuf_add(out, o, (size_t)((eq != NULL ? eq : e) - o));
	}
	if (first)
		strbuf_adds(out, "rw");
}

/* /proc/mounts with what names the user left out (collect.h). */
char *
collect_mounts_text(const char *text)
{
	struct strbuf	 out;
	const char	*p, *eol, *f[6], *fe[6], *q;
	int		 nf;

	strbuf_init(&out);
	strbuf_add(&out, "", 0);
	for (p = text; *p != '\0'; p = *eol != '\0' ? eol + 1 : eol) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		for (nf = 0, q = p; nf < 6 && q < eol; nf++) {
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			f[nf] = q;
			while (q < eol && *q != ' ' && *q != '\t')
				q++;
			fe[nf] = q;
			if (f[nf] == fe[nf])
				break;
		}
		if (nf != 6)
			continue;	/* not a mounts line: nothing of it */
		mounts_source(&out, f[0], (size_t)(fe[0] - f[0]));
		strbuf_addc(&out, ' ');
		if (mounts_system_point(f[1], (size_t)(fe[1] - f[1])))
			strbuf_add(&out, f[1], (size_t)(fe[1] - f[1]));
		else
			strbuf_adds(&out, "/private");
		strbuf_addc(&out, ' ');
		if (mounts_word(f[2], (size_t)(fe[2] - f[2]), "_.-"))
			strbuf_add(&out, f[2], (size_t)(fe[2] - f[2]));
		else
			strbuf_adds(&out, "unknown");
		strbuf_addc(&out, ' ');
		mounts_options(&out, f[3], (size_t)(fe[3] - f[3]));
		strbuf_adds(&out, " 0 0\n");
	}
	return strbuf_detach(&out);
}

/* mounts: /proc/mounts without the user's names (collect_mounts_text). */
static int
collect_mounts(struct collect *c, char **cause)
{
	struct strbuf	 sb;
	char		*text;
	int		 ret;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	if (collect_slurp("/proc/mounts", &sb) != 0) {
		collect_note(c, "/proc/mounts: %s: not collected",
		    strerror(errno));
		strbuf_free(&sb);
		return 0;
	}
	text = collect_mounts_text(sb.s);
	ret = collect_write(c, "mounts", text, strlen(text), false, 0644,
	    cause);
	free(text);
	strbuf_free(&sb);
	return ret;
}

/*
 * /proc/cpuinfo and /proc/meminfo, kept to what the twin machine reads
 * (core/twin: the CPU's vendor and features, how many, the RAM): a line
 * whose key is not in keys is left out, so nothing else of the machine
 * (power management, microcode, a future field) reaches the bundle.
 */
static int
collect_info(struct collect *c, const char *src, const char *name,
    const char *const *keys, char **cause)
{
	struct strbuf	 sb, out;
	const char	*line, *nl, *colon;
	size_t		 i, klen;
	int		 ret;

	strbuf_init(&sb);
	if (collect_slurp(src, &sb) != 0) {
		collect_note(c, "%s: %s: not collected", src, strerror(errno));
		strbuf_free(&sb);
		return 0;
	}
	strbuf_init(&out);
	for (line = sb.s; line != NULL && *line != '\0'; line = nl) {
		nl = strchr(line, '\n');
		nl = nl != NULL ? nl + 1 : line + strlen(line);
		/* a blank line ends a processor's block */
		if (*line == '\n') {
			strbuf_addc(&out, '\n');
			continue;
		}
		if ((colon = memchr(line, ':', nl - line)) == NULL)
			continue;
		for (klen = colon - line; klen > 0 && (line[klen - 1] == ' ' ||
		    line[klen - 1] == '\t'); klen--)
			;
		for (i = 0; keys[i] != NULL; i++) {
			if (strlen(keys[i]) == klen &&
			    strncmp(keys[i], line, klen) == 0) {
				strbuf_add(&out, line, nl - line);
				break;
			}
		}
	}
	ret = collect_write(c, name, out.s != NULL ? out.s : "", out.len,
	    false, 0644, cause);
	strbuf_free(&out);
	strbuf_free(&sb);
	return ret;
}

/*
 * The disks: "NAME BYTES" per /sys/block entry that is a disk (not a
 * loop, ram or zram device), for the twin's disks and the user's eye. No
 * model, no serial number, no WWN: those identify the hardware.
 */
static int
collect_disks(struct collect *c, char **cause)
{
	struct lines	 l;
	struct dirent	*de;
	DIR		*d;
	char		*path, buf[64], *line;
	unsigned long long sectors;
	FILE		*f;

	memset(&l, 0, sizeof l);
	if ((d = opendir("/sys/block")) == NULL) {
		collect_note(c, "/sys/block: %s: no disks file",
		    strerror(errno));
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    strncmp(de->d_name, "loop", 4) == 0 ||
		    strncmp(de->d_name, "ram", 3) == 0 ||
		    strncmp(de->d_name, "zram", 4) == 0)
			continue;
		path = xasprintf("/sys/block/%s/size", de->d_name);
		f = fopen(path, "r");
		free(path);
		if (f == NULL)
			continue;
		/* the size file is in 512-byte sectors, whatever the
		 * disk's own block size */
		if (fgets(buf, sizeof buf, f) != NULL &&
		    sscanf(buf, "%llu", &sectors) == 1 && sectors > 0) {
			line = xasprintf("%s %llu", de->d_name,
			    sectors * 512ULL);
			lines_add(&l, line);
		}
		fclose(f);
	}
	closedir(d);
	return lines_write(c, &l, "disks", cause);
}

/* The files that don't depend on the trace. */
static int
collect_files(struct collect *c, char **cause)
{
	char	*path;
	int	 ret;

	if (collect_uname(c, cause) != 0)
		return -1;
	if (access("/proc/modules", F_OK) == 0 &&
	    collect_copy(c, "/proc/modules", "modules", false, cause) != 0)
		return -1;
	static const char *const cpu_keys[] = { "processor", "vendor_id",
	    "cpu family", "model", "model name", "stepping", "flags", "bugs",
	    "address sizes", NULL };
	static const char *const mem_keys[] = { "MemTotal", NULL };

	if (collect_modalias(c, cause) != 0 || collect_drivers(c, cause) != 0)
		return -1;
	if (collect_info(c, "/proc/cpuinfo", "cpuinfo", cpu_keys,
	    cause) != 0 || collect_info(c, "/proc/meminfo", "meminfo",
	    mem_keys, cause) != 0)
		return -1;
	/* The network protocols in use, as counts (no address, no port):
	 * the twin's workload tests IPv6 when the machine used it. */
	static const char *const sock_keys[] = { "sockets", "TCP", "UDP",
	    "UDPLITE", "RAW", "FRAG", NULL };
	static const char *const sock6_keys[] = { "TCP6", "UDP6",
	    "UDPLITE6", "RAW6", "FRAG6", NULL };

	if (collect_info(c, "/proc/net/sockstat", "sockstat", sock_keys,
	    cause) != 0 || (access("/proc/net/sockstat6", F_OK) == 0 &&
	    collect_info(c, "/proc/net/sockstat6", "sockstat6", sock6_keys,
	    cause) != 0) || collect_disks(c, cause) != 0)
		return -1;
	if (collect_mounts(c, cause) != 0 ||
	    collect_copy(c, "/proc/filesystems", "filesystems", false,
	    cause) != 0 ||
	    collect_copy(c, "/proc/crypto", "crypto", false, cause) != 0)
		return -1;
	if (c->opt->snapshot)
		return 0;
	if (c->have_kallsyms && collect_write(c, "kallsyms.xz",
	    c->kallsyms.s, c->kallsyms.len, true, 0600, cause) != 0)
		return -1;
	path = xasprintf("/lib/modules/%s/modules.alias", c->uts.release);
	if (access(path, F_OK) == 0)
		ret = collect_copy(c, path, "modules.alias.xz", true, cause);
	else {
		collect_note(c, "no %s", path);
		ret = 0;
	}
	free(path);
	if (ret != 0)
		return -1;
	/* Only kernels built with CONFIG_BUILTIN_MODULE_RANGES have it: its
	 * absence is the normal case, not worth a note. */
	path = xasprintf("/lib/modules/%s/modules.builtin.ranges",
	    c->uts.release);
	ret = access(path, F_OK) == 0 ? collect_copy(c, path,
	    "modules.builtin.ranges.xz", true, cause) : 0;
	free(path);
	if (ret != 0)
		return -1;
	if (collect_config(c, cause) != 0)
		return -1;
	return 0;
}

/* Whether a command can be run: argv[0] executable, searched in $PATH
 * unless it has a slash, as execvp() does; -1 with *cause if not. */
static int
collect_find_command(const char *cmd, char **cause)
{
	const char	*path, *p, *colon;
	char		*try;
	int		 found = 0, err = ENOENT;

	if (*cmd == '\0') {
		*cause = xstrdup("empty command");
		return -1;
	}
	if (strchr(cmd, '/') != NULL) {
		if (access(cmd, X_OK) == 0)
			return 0;
		*cause = xasprintf("%s: %s", cmd, strerror(errno));
		return -1;
	}
	path = getenv("PATH");
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; !found; p = colon + 1) {
		colon = strchr(p, ':');
		if (colon == NULL)
			colon = p + strlen(p);
		try = xasprintf("%.*s%s%s", (int)(colon - p), p,
		    colon == p ? "" : "/", cmd);
		if (access(try, X_OK) == 0)
			found = 1;
		else if (errno == EACCES)
			err = EACCES;
		free(try);
		if (*colon == '\0')
			break;
	}
	if (found)
		return 0;
	*cause = xasprintf("%s: %s", cmd, err == ENOENT ?
	    "command not found" : strerror(err));
	return -1;
}

/* Record an evidence bundle into opt->outdir. */
int
collect_run(const struct collect_options *opt, char **cause)
{
	struct collect	c;
	int		ret = -1;

	memset(&c, 0, sizeof c);
	c.opt = opt;
	c.outdir = opt->outdir;
	strbuf_init(&c.kallsyms);
	strbuf_init(&c.stats);
	if (opt->outdir == NULL || *opt->outdir == '\0') {
		*cause = xstrdup("no output directory");
		goto out;
	}
	if (opt->command != NULL && opt->command[0] != NULL &&
	    collect_find_command(opt->command[0], cause) != 0)
		goto out;
	if (uname(&c.uts) != 0) {
		*cause = xasprintf("uname: %s", strerror(errno));
		goto out;
	}
	if (collect_mkdirs(opt->outdir, cause) != 0)
		goto out;

	if (collect_trace(&c, cause) != 0)
		goto out;

	/* After the trace: it may have loaded modules. */
	if (collect_slurp("/proc/kallsyms", &c.kallsyms) == 0)
		c.have_kallsyms = true;
	else
		collect_note(&c, "/proc/kallsyms: %s", strerror(errno));
	if (collect_files(&c, cause) != 0)
		goto out;
	if (c.traced) {
		if (collect_functions(&c, cause) != 0)
			goto out;
		if (collect_write(&c, "trace-stats", c.stats.s, c.stats.len,
		    false, 0644, cause) != 0)
			goto out;
	}
	ret = 0;
out:
	addr_table_free(&c.ips);
	addr_table_free(&c.parents);
	strbuf_free(&c.kallsyms);
	strbuf_free(&c.stats);
	return ret;
}
