/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_collect.c - unit tests of collect_run() (core/collect/collect.h) on the
 * machine running them: a bundle without tracing, whose files are
 * compared with their sources, the error paths, and, when root with
 * tracefs, short real traces (a command, a time limit, a signal) that
 * must find the kernel's read path and leave no ftrace instance behind.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include "../../lib/util.h"
#include "../../core/collect/collect.h"
#include "../../core/collect/collect-int.h"
#include "../../core/evidence/evidence.h"

#define UNIT_PREFIX "unit/collect/"
#include "unit.h"

static char	tmpdir[] = "/tmp/kctui-unit-XXXXXX";

/* What the callbacks saw. */
struct seen {
	struct strbuf	notes;
	struct strbuf	progress;
	int		nprogress;
};

/* Keep notes. */
static void
on_note(void *arg, const char *text)
{
	struct seen *s = arg;

	strbuf_adds(&s->notes, text);
	strbuf_addc(&s->notes, '\n');
}

/* Keep the last progress line. */
static void
on_progress(void *arg, const char *text)
{
	struct seen *s = arg;

	strbuf_reset(&s->progress);
	strbuf_adds(&s->progress, text);
	s->nprogress++;
}

/* Read a file of the bundle. */
static bool
slurp_out(const char *dir, const char *name, struct strbuf *sb)
{
	char	*path = xasprintf("%s/%s", dir, name);
	bool	 ok = unit_read_file(path, sb);

	free(path);
	return ok;
}

/* Decompress an .xz file of the bundle; false if missing or bad. */
static bool
unxz_out(const char *dir, const char *name, struct strbuf *out)
{
	struct strbuf	 in;
	lzma_stream	 lz = LZMA_STREAM_INIT;
	uint8_t		 buf[65536];
	lzma_ret	 ret;

	strbuf_init(&in);
	strbuf_reset(out);
	strbuf_add(out, "", 0);
	if (!slurp_out(dir, name, &in) ||
	    lzma_stream_decoder(&lz, UINT64_MAX, 0) != LZMA_OK) {
		strbuf_free(&in);
		return false;
	}
	lz.next_in = (const uint8_t *)in.s;
	lz.avail_in = in.len;
	do {
		lz.next_out = buf;
		lz.avail_out = sizeof buf;
		ret = lzma_code(&lz, LZMA_FINISH);
		strbuf_add(out, (char *)buf, sizeof buf - lz.avail_out);
	} while (ret == LZMA_OK);
	lzma_end(&lz);
	strbuf_free(&in);
	return ret == LZMA_STREAM_END;
}

/* Whether a file exists. */
static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Whether the text has a line for which ok() holds; count all of them,
 * and the lines it fails for. */
static size_t
count_lines(const char *text, bool (*ok)(const char *, size_t),
    size_t *bad)
{
	const char	*p = text, *eol;
	size_t		 good = 0;

	*bad = 0;
	for (; *p != '\0'; p = eol + 1) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		if (ok(p, eol - p))
			good++;
		else
			(*bad)++;
		if (*eol == '\0')
			break;
	}
	return good;
}

/* Count the space-separated fields of a line. */
static int
nfields(const char *p, size_t len)
{
	int	n = 0;
	size_t	i;

	for (i = 0; i < len; i++) {
		if (p[i] != ' ' && (i == 0 || p[i - 1] == ' '))
			n++;
	}
	return n;
}

/* "path alias": two fields, the alias with a colon. */
static bool
modalias_line(const char *p, size_t len)
{
	const char *sp = memchr(p, ' ', len);

	return sp != NULL && sp > p && nfields(p, len) == 2 &&
	    memchr(sp, ':', len - (sp - p)) != NULL && *p != '/';
}

/* "bus driver device module". */
static bool
drivers_line(const char *p, size_t len)
{
	return nfields(p, len) == 4;
}

/* "name [module] count" or "name count", with count > 0. */
static bool
functions_line(const char *p, size_t len)
{
	int		 n = nfields(p, len);
	const char	*sp;

	if (n != 2 && n != 3)
		return false;
	sp = p + len;
	while (sp > p && sp[-1] != ' ')
		sp--;
	if (sp == p || sp[0] < '1' || sp[0] > '9')
		return false;
	if (n == 3)
		return memchr(p, '[', len) != NULL && sp[-2] == ']';
	return true;
}

/* Whether an ftrace instance of ours is left. */
static bool
instances_left(char *name, size_t size)
{
	DIR		*d = opendir("/sys/kernel/tracing/instances");
	struct dirent	*de;
	bool		 left = false;

	if (d == NULL)
		return false;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "kctui-", 6) == 0) {
			snprintf(name, size, "%s", de->d_name);
			left = true;
		}
	}
	closedir(d);
	return left;
}

/* Whether the bundle holds a temporary file. */
static bool
temp_left(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	bool		 left = false;

	if (d == NULL)
		return false;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			left = true;
	}
	closedir(d);
	return left;
}

/* Show the notes as comment lines. */
static void
print_notes(const char *notes)
{
	const char	*p, *eol;

	for (p = notes; *p != '\0'; p = eol + 1) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			break;
		printf("# note: %.*s\n", (int)(eol - p), p);
	}
}

/* Run collect_run with the usual callbacks. */
static int
run(struct collect_options *opt, struct seen *seen, char **cause)
{
	strbuf_init(&seen->notes);
	strbuf_init(&seen->progress);
	strbuf_add(&seen->notes, "", 0);
	strbuf_add(&seen->progress, "", 0);
	seen->nprogress = 0;
	opt->note = on_note;
	opt->progress = on_progress;
	opt->arg = seen;
	*cause = NULL;
	return collect_run(opt, cause);
}

/* Free what the callbacks saw. */
static void
seen_free(struct seen *seen)
{
	strbuf_free(&seen->notes);
	strbuf_free(&seen->progress);
}

/* A bundle without the trace: every file there and like its source. */
static void
test_static(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	struct strbuf		 sb, src;
	struct utsname		 u;
	char			*dir, *cause, *want, *path;
	size_t			 good, bad;
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/static/deep/er", tmpdir);
	opt.outdir = dir;
	opt.no_trace = true;
	ret = run(&opt, &seen, &cause);
	check("static-runs", ret == 0, cause ? cause : "failed");
	free(cause);
	strbuf_init(&sb);
	strbuf_init(&src);

	/* the host name is not the bundle's to give (test_privacy) */
	uname(&u);
	want = xasprintf("%s localhost %s %s %s GNU/Linux\n", u.sysname,
	    u.release, u.version, u.machine);
	check("uname", slurp_out(dir, "uname", &sb) &&
	    strncmp(sb.s, "Linux ", 6) == 0 && strcmp(sb.s, want) == 0, sb.s);
	free(want);

	if (exists("/proc/modules")) {
		unit_read_file("/proc/modules", &src);
		check("modules", slurp_out(dir, "modules", &sb) &&
		    strcmp(sb.s, src.s) == 0, "differs from /proc/modules");
	} else
		check("no-modules", !slurp_out(dir, "modules", &sb),
		    "modules written without /proc/modules");

	check("mounts", slurp_out(dir, "mounts", &sb) &&
	    strstr(sb.s, " / ") != NULL, "no line for /");
	check("filesystems", slurp_out(dir, "filesystems", &sb) &&
	    strstr(sb.s, "\tproc\n") != NULL, "no proc");
	unit_read_file("/proc/crypto", &src);
	check("crypto", slurp_out(dir, "crypto", &sb) &&
	    strcmp(sb.s, src.s) == 0, "differs from /proc/crypto");

	check("modalias-exists", slurp_out(dir, "modalias", &sb), "missing");
	good = count_lines(sb.s, modalias_line, &bad);
	want = xasprintf("%zu good, %zu bad lines", good, bad);
	check("modalias-lines", good > 0 && bad == 0, want);
	free(want);
	/* Every line's path has that modalias in sysfs. */
	if (good > 0) {
		char	*sp = strchr(sb.s, ' '), *nl = strchr(sb.s, '\n');

		path = xasprintf("/sys/devices/%.*s/modalias",
		    (int)(sp - sb.s), sb.s);
		unit_read_file(path, &src);
		check("modalias-matches-sysfs", strncmp(src.s, sp + 1,
		    nl - sp - 1) == 0, path);
		free(path);
	}

	check("drivers-exists", slurp_out(dir, "drivers", &sb), "missing");
	good = count_lines(sb.s, drivers_line, &bad);
	want = xasprintf("%zu good, %zu bad lines", good, bad);
	check("drivers-lines", bad == 0, want);
	free(want);
	if (good > 0) {
		char	 bus[256], drv[256], dev[1024], mod[256];
		char	*link, *real;

		if (sscanf(sb.s, "%255s %255s %1023s %255s", bus, drv, dev,
		    mod) == 4) {
			link = xasprintf("/sys/bus/%s/drivers/%s", bus, drv);
			path = xasprintf("/sys/devices/%s/driver", dev);
			real = realpath(path, NULL);
			check("drivers-bound", real != NULL &&
			    strcmp(real, link) == 0, path);
			free(real);
			free(link);
			free(path);
		} else
			check("drivers-bound", 0, sb.s);
	}

	if (geteuid() == 0) {
		unit_read_file("/proc/kallsyms", &src);
		/* the same symbols, addresses relative to _stext */
		check("kallsyms", unxz_out(dir, "kallsyms.xz", &sb) &&
		    sb.len > 17 && src.len > 17 && strncmp(sb.s + 16,
		    src.s + 16, strcspn(src.s + 16, "\n")) == 0 &&
		    (strncmp(src.s, "0000000000000000", 16) == 0 ||
		    strncmp(sb.s, src.s, 16) != 0),
		    "not an xz of /proc/kallsyms with relative addresses");
	} else
		check("kallsyms", unxz_out(dir, "kallsyms.xz", &sb) &&
		    sb.len > 0, "not an xz file");

	path = xasprintf("/boot/config-%s", u.release);
	if (exists(path) || exists("/proc/config.gz"))
		check("config", unxz_out(dir, "config.xz", &sb) &&
		    strstr(sb.s, "\nCONFIG_") != NULL, "no CONFIG_ lines");
	else
		check("no-config", !exists(path), "config.xz without a source");
	free(path);
	path = xasprintf("/lib/modules/%s/modules.alias", u.release);
	if (exists(path))
		check("modules-alias", unxz_out(dir, "modules.alias.xz",
		    &sb) && strncmp(sb.s, "alias ", 6) == 0, "not an alias");
	else
		check("no-modules-alias", !slurp_out(dir, "modules.alias.xz",
		    &sb) && strstr(seen.notes.s, "modules.alias") != NULL,
		    "written, or not noted");
	free(path);

	check("no-functions", !slurp_out(dir, "functions", &sb),
	    "functions written with no_trace");
	check("no-temp-files", !temp_left(dir), "temporary file left");

	strbuf_free(&sb);
	strbuf_free(&src);
	seen_free(&seen);
	free(dir);
}

/* An output directory that can't be made is the one error. */
static void
test_errors(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	char			*file, *dir, *cause;
	FILE			*f;
	int			 ret;

	file = xasprintf("%s/plainfile", tmpdir);
	f = fopen(file, "w");
	if (f != NULL)
		fclose(f);
	dir = xasprintf("%s/sub", file);
	memset(&opt, 0, sizeof opt);
	opt.outdir = dir;
	opt.no_trace = true;
	ret = run(&opt, &seen, &cause);
	check("bad-outdir", ret == -1 && cause != NULL &&
	    strstr(cause, "plainfile") != NULL, cause ? cause : "no error");
	free(cause);
	seen_free(&seen);

	opt.outdir = file;
	ret = run(&opt, &seen, &cause);
	check("outdir-is-file", ret == -1 && cause != NULL,
	    cause ? cause : "no error");
	free(cause);
	seen_free(&seen);
	free(dir);
	free(file);
}

/* Whether tracing can work here: root and tracefs with instances. */
static bool
can_trace(void)
{
	return geteuid() == 0 && exists("/sys/kernel/tracing/instances") &&
	    exists("/sys/kernel/tracing/events/ftrace/function");
}

/* Find "name count" or "name [mod] count" for name; its count or 0. */
static unsigned long long
function_count(const char *text, const char *name)
{
	const char	*p = text;
	size_t		 n = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
		p += n;
	}
	return 0;
}

/* Trace /bin/cat: the read path must show up, with counts. False if the
 * kernel does not let us trace functions (then there is nothing more to
 * test). */
static bool
test_trace_command(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	struct strbuf		 sb;
	char			*argv[] = { "/bin/cat", "/etc/hostname", NULL };
	char			*dir, *cause, left[256], *want;
	size_t			 good, bad;
	unsigned long long	 n;
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/trace-command", tmpdir);
	opt.outdir = dir;
	opt.command = argv;
	opt.buffer_kb = 8192;
	ret = run(&opt, &seen, &cause);
	check("trace-command-runs", ret == 0, cause ? cause : "failed");
	free(cause);
	print_notes(seen.notes.s);
	printf("# progress: %s\n", seen.progress.s ? seen.progress.s : "");

	strbuf_init(&sb);
	check("trace-command-no-instance", !instances_left(left, sizeof left),
	    left);
	check("trace-command-uname", slurp_out(dir, "uname", &sb), "missing");
	if (strstr(seen.notes.s, "no trace") != NULL) {
		/* e.g. "cannot set the function tracer: Operation not
		 * permitted": a kernel that forbids function tracing. */
		check("trace-denied-no-functions",
		    !slurp_out(dir, "functions", &sb), "functions written");
		skip("trace", "the function tracer is not usable here");
		strbuf_free(&sb);
		seen_free(&seen);
		free(dir);
		return false;
	}
	check("functions-exists", slurp_out(dir, "functions", &sb), "missing");
	good = count_lines(sb.s, functions_line, &bad);
	want = xasprintf("%zu good, %zu bad lines", good, bad);
	check("functions-lines", good > 100 && bad == 0, want);
	free(want);
	n = function_count(sb.s, "ksys_read");
	if (n == 0)
		n = function_count(sb.s, "vfs_read");
	check("functions-read-path", n > 0, "no ksys_read or vfs_read");
	check("progress", seen.nprogress > 0 && seen.progress.s != NULL &&
	    strstr(seen.progress.s, " events, ") != NULL &&
	    strstr(seen.progress.s, " distinct functions") != NULL,
	    "no progress line");
	check("trace-stats", slurp_out(dir, "trace-stats", &sb) &&
	    strncmp(sb.s, "cpu0\n", 5) == 0 &&
	    strstr(sb.s, "overrun:") != NULL, "no cpu0 stats");
	strbuf_free(&sb);
	seen_free(&seen);
	free(dir);
	return true;
}

/* Sorted by name: each line's name is not less than the previous one's. */
static void
test_trace_sorted(const char *dir)
{
	struct strbuf	 sb;
	char		*p, *eol, *prev = NULL;
	size_t		 plen = 0, len;
	int		 ok = 1;

	strbuf_init(&sb);
	slurp_out(dir, "functions", &sb);
	for (p = sb.s; p != NULL && *p != '\0'; p = eol + 1) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			break;
		len = strcspn(p, " ");
		if (prev != NULL) {
			int	r = memcmp(prev, p, plen < len ? plen : len);

			if (r > 0 || (r == 0 && plen > len))
				ok = 0;
		}
		prev = p;
		plen = len;
	}
	check("trace-seconds-sorted", ok, "functions not sorted by name");
	strbuf_free(&sb);
}

/* Trace for a second, with no command. */
static void
test_trace_seconds(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	struct strbuf		 sb;
	char			*dir, *cause, left[256];
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/trace-seconds", tmpdir);
	opt.outdir = dir;
	opt.trace_seconds = 1;
	opt.buffer_kb = 4096;
	ret = run(&opt, &seen, &cause);
	check("trace-seconds-runs", ret == 0, cause ? cause : "failed");
	free(cause);
	printf("# progress: %s\n", seen.progress.s ? seen.progress.s : "");
	strbuf_init(&sb);
	check("trace-seconds-functions", slurp_out(dir, "functions", &sb) &&
	    sb.len > 0, "no functions");
	test_trace_sorted(dir);
	check("trace-seconds-no-instance", !instances_left(left, sizeof left),
	    left);
	strbuf_free(&sb);
	seen_free(&seen);
	free(dir);
}

/* A command that can't be run is an error, found before anything is
 * written or traced. */
static void
test_trace_not_found(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	char			*argv[] = { "/nonexistent/kctui-cmd", NULL };
	char			*dir, *cause, left[256];
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/trace-not-found", tmpdir);
	opt.outdir = dir;
	opt.command = argv;
	opt.buffer_kb = 1024;
	ret = run(&opt, &seen, &cause);
	check("command-not-found", ret == -1 && cause != NULL &&
	    strstr(cause, "kctui-cmd") != NULL, cause ? cause : "no error");
	free(cause);
	check("command-not-found-no-instance",
	    !instances_left(left, sizeof left), left);
	check("command-not-found-no-outdir", !exists(dir),
	    "output directory made");
	seen_free(&seen);

	argv[0] = "kctui-no-such-command";
	ret = run(&opt, &seen, &cause);
	check("command-not-in-path", ret == -1 && cause != NULL &&
	    strstr(cause, ": not found") != NULL,
	    cause ? cause : "no error");
	free(cause);
	seen_free(&seen);
	free(dir);
}

/* SIGTERM stops the trace early; the bundle is still written. */
static void
test_trace_signal(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	struct strbuf		 sb;
	char			*argv[] = { "/bin/sh", "-c",
				    "kill -TERM $PPID; exec sleep 30", NULL };
	char			*dir, *cause, left[256];
	time_t			 t0 = time(NULL);
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/trace-signal", tmpdir);
	opt.outdir = dir;
	opt.command = argv;
	opt.buffer_kb = 1024;
	ret = run(&opt, &seen, &cause);
	check("signal-runs", ret == 0, cause ? cause : "failed");
	free(cause);
	check("signal-stops-early", time(NULL) - t0 < 20, "waited for sleep");
	strbuf_init(&sb);
	check("signal-functions", slurp_out(dir, "functions", &sb),
	    "no functions");
	check("signal-no-instance", !instances_left(left, sizeof left), left);
	strbuf_free(&sb);
	seen_free(&seen);
	free(dir);
}

/* Not root: the bundle without a trace, and a note saying why. */
static void
test_not_root_note(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	char			*dir, *cause;
	int			 ret;

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/not-root", tmpdir);
	opt.outdir = dir;
	opt.trace_seconds = 1;
	ret = run(&opt, &seen, &cause);
	check("not-root-runs", ret == 0, cause ? cause : "failed");
	free(cause);
	check("not-root-note", seen.notes.s != NULL &&
	    strstr(seen.notes.s, "not root: no trace") != NULL,
	    "no note");
	seen_free(&seen);
	free(dir);
}

/* What identifies this machine or its user, by kind. */
struct secrets {
	const char	*kind;
	char	       **v;
	size_t		 n;
};

/* Add a secret unless it is empty, short or a placeholder. */
static void
secret_add(struct secrets *s, const char *value)
{
	static const char *const generic[] = {
		"localhost", "None", "Not Specified", "Default string",
		"To Be Filled By O.E.M.", "0123456789", "00:00:00:00:00:00",
		NULL
	};
	char	*v = xstrdup(value);
	size_t	 i, n;

	v[strcspn(v, "\n")] = '\0';
	for (n = strlen(v); n > 0 && v[n - 1] == ' '; n--)
		v[n - 1] = '\0';
	for (i = 0; generic[i] != NULL; i++)
		if (strcmp(v, generic[i]) == 0)
			break;
	if (generic[i] != NULL || strlen(v) < 2) {
		free(v);
		return;
	}
	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], v) == 0) {
			free(v);
			return;
		}
	s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = v;
}

/* Add the first line of each file matching dir/STAR/name (a sysfs
 * attribute of every device of a class). */
static void
secret_files(struct secrets *s, const char *dir, const char *name)
{
	struct strbuf	 sb;
	struct dirent	*de;
	DIR		*d;
	char		*p;

	if ((d = opendir(dir)) == NULL)
		return;
	strbuf_init(&sb);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/%s", dir, de->d_name, name);
		if (unit_read_file(p, &sb))
			secret_add(s, sb.s);
		free(p);
	}
	closedir(d);
	strbuf_free(&sb);
}

/* Whether c may be inside a host name, an address or a serial: a match
 * of a secret must not be part of a longer word ("vm" in "kvm"). */
static bool
secret_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	    c == '-';
}

/* Whether text has the secret as a whole word. */
static bool
secret_in(const char *text, const char *secret)
{
	const char	*p;
	size_t		 n = strlen(secret);

	for (p = text; (p = strstr(p, secret)) != NULL; p++)
		if ((p == text || !secret_char(p[-1])) && !secret_char(p[n]))
			return true;
	return false;
}

/*
 * The privacy rule on a bundle made here: no file of it (the .xz ones
 * decompressed) has this machine's host name, a MAC or IP address of its
 * interfaces, a serial number of its firmware, disks or USB devices, or
 * a mount point or source of /proc/mounts that names something of the
 * user's.
 */
static void
test_privacy(void)
{
	struct collect_options	 opt;
	struct seen		 seen;
	struct secrets		 sec[5];
	struct strbuf		 sb, file;
	struct utsname		 u;
	struct ifaddrs		*ifa, *i;
	struct dirent		*de;
	DIR			*d;
	char			*dir, *cause = NULL, addr[INET6_ADDRSTRLEN];
	char			*line, *save = NULL, *src, *point;
	char			 name[64];
	size_t			 k, j, files = 0, found[5];
	int			 ret;

	memset(sec, 0, sizeof sec);
	sec[0].kind = "hostname";
	sec[1].kind = "mac";
	sec[2].kind = "ip";
	sec[3].kind = "serial";
	sec[4].kind = "mount";
	uname(&u);
	secret_add(&sec[0], u.nodename);
	secret_files(&sec[1], "/sys/class/net", "address");
	if (getifaddrs(&ifa) == 0) {
		for (i = ifa; i != NULL; i = i->ifa_next) {
			if (i->ifa_addr == NULL)
				continue;
			if (i->ifa_addr->sa_family == AF_INET &&
			    inet_ntop(AF_INET, &((struct sockaddr_in *)
			    (void *)i->ifa_addr)->sin_addr, addr,
			    sizeof addr) != NULL &&
			    strncmp(addr, "127.", 4) != 0)
				secret_add(&sec[2], addr);
			if (i->ifa_addr->sa_family == AF_INET6 &&
			    inet_ntop(AF_INET6, &((struct sockaddr_in6 *)
			    (void *)i->ifa_addr)->sin6_addr, addr,
			    sizeof addr) != NULL && strcmp(addr, "::1") != 0)
				secret_add(&sec[2], addr);
		}
		freeifaddrs(ifa);
	}
	secret_files(&sec[3], "/sys/class/dmi", "product_serial");
	secret_files(&sec[3], "/sys/class/dmi", "board_serial");
	secret_files(&sec[3], "/sys/class/dmi", "chassis_serial");
	secret_files(&sec[3], "/sys/class/dmi", "product_uuid");
	secret_files(&sec[3], "/sys/block", "serial");
	secret_files(&sec[3], "/sys/block", "device/serial");
	secret_files(&sec[3], "/sys/bus/usb/devices", "serial");
	/* mount points where people name things, network sources */
	strbuf_init(&sb);
	strbuf_init(&file);
	unit_read_file("/proc/mounts", &sb);
	for (line = strtok_r(sb.s, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		src = line;
		point = line + strcspn(line, " ");
		if (*point == '\0')
			continue;
		*point++ = '\0';
		point[strcspn(point, " ")] = '\0';
		if ((strncmp(point, "/home/", 6) == 0 ||
		    strncmp(point, "/mnt/", 5) == 0 ||
		    strncmp(point, "/media/", 7) == 0 ||
		    strncmp(point, "/run/media/", 11) == 0 ||
		    strncmp(point, "/run/user/", 10) == 0 ||
		    strncmp(point, "/srv/", 5) == 0))
			secret_add(&sec[4], point);
		if (strchr(src, ':') != NULL || strchr(src, '@') != NULL ||
		    strncmp(src, "//", 2) == 0)
			secret_add(&sec[4], src);
	}

	memset(&opt, 0, sizeof opt);
	dir = xasprintf("%s/private", tmpdir);
	opt.outdir = dir;
	opt.no_trace = true;
	ret = run(&opt, &seen, &cause);
	check("privacy/runs", ret == 0, cause);
	free(cause);
	memset(found, 0, sizeof found);
	if (ret == 0 && (d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (strlen(de->d_name) > 3 && strcmp(de->d_name +
			    strlen(de->d_name) - 3, ".xz") == 0) {
				if (!unxz_out(dir, de->d_name, &file))
					continue;
			} else if (!slurp_out(dir, de->d_name, &file))
				continue;
			files++;
			for (k = 0; k < 5; k++)
				for (j = 0; j < sec[k].n; j++)
					if (secret_in(file.s, sec[k].v[j])) {
						found[k]++;
						printf("# %s: the %s '%s'\n",
						    de->d_name, sec[k].kind,
						    sec[k].v[j]);
					}
		}
		closedir(d);
	}
	check("privacy/files", files >= 8, "fewer than 8 files read");
	for (k = 0; k < 5; k++) {
		snprintf(name, sizeof name, "privacy/%s", sec[k].kind);
		checkf(name, files >= 8 && found[k] == 0, "%zu of the %zu "
		    "looked for found", found[k], sec[k].n);
		printf("# %zu %s value%s of this machine looked for\n",
		    sec[k].n, sec[k].kind, sec[k].n == 1 ? "" : "s");
		for (j = 0; j < sec[k].n; j++)
			free(sec[k].v[j]);
		free(sec[k].v);
	}
	/* the disks and the sockets in use: names, sizes, counts only */
	if (ret == 0) {
		char	*dp = xasprintf("%s/disks", dir), *txt, *line, *save;
		size_t	 len, bad = 0, n = 0;
		char	 nm[64];
		unsigned long long by;
		char	 extra;

		txt = file_read_all(dp, &len);
		for (line = txt ? strtok_r(txt, "\n", &save) : NULL;
		    line != NULL; line = strtok_r(NULL, "\n", &save), n++)
			bad += sscanf(line, "%63s %llu %c", nm, &by,
			    &extra) != 2;
		checkf("privacy/disks", txt != NULL && bad == 0, "%zu of %zu "
		    "lines not 'NAME BYTES'", bad, n);
		free(txt);
		free(dp);
		dp = xasprintf("%s/sockstat", dir);
		txt = file_read_all(dp, &len);
		checkf("privacy/sockstat", txt != NULL && strstr(txt,
		    "TCP: inuse") != NULL, "%s", txt ? txt : "no sockstat");
		free(txt);
		free(dp);
	}
	/* the host name is looked for on every machine */
	check("privacy/hostname-known", sec[0].n == 1 || strcmp(u.nodename,
	    "localhost") == 0, u.nodename);
	strbuf_free(&sb);
	strbuf_free(&file);
	seen_free(&seen);
	free(dir);
}

/* The mounts file says what is mounted, not where the user put it nor
 * whose it is: NFS and CIFS servers and user names, a LUKS mapping, a
 * user's mount points gone; devices, types and numbers kept; and the
 * evidence reader reads every line. */
static void
test_mounts_text(void)
{
	static const char in[] =
	    "/dev/nvme0n1p2 / ext4 rw,relatime 0 0\n"
	    "/dev/nvme0n1p1 /boot/efi vfat rw,relatime,fmask=0077,"
	    "codepage=437,iocharset=ascii 0 0\n"
	    "/dev/mapper/luks-0b8fbb2e-4c3d-4f8e-9a55-6c1d2e3f4a5b /home "
	    "ext4 rw,relatime 0 0\n"
	    "tmpfs /run/user/1000 tmpfs rw,nosuid,nodev,size=1620380k,"
	    "mode=700,uid=1000 0 0\n"
	    "server.example.org:/export/alice /home/alice/nfs nfs4 rw,"
	    "vers=4.2,addr=192.0.2.5,clientaddr=192.0.2.20 0 0\n"
	    "//nas/share /mnt/share cifs rw,username=bob,domain=HOME,"
	    "addr=198.51.100.7 0 0\n"
	    "/dev/sdb1 /media/alice/My\\040Photos vfat rw,uid=1000 0 0\n"
	    "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n";
	static const char want[] =
	    "/dev/nvme0n1p2 / ext4 rw,relatime 0 0\n"
	    "/dev/nvme0n1p1 /boot/efi vfat rw,relatime,fmask=0077,"
	    "codepage=437,iocharset 0 0\n"
	    "/dev/block /home ext4 rw,relatime 0 0\n"
	    "tmpfs /private tmpfs rw,nosuid,nodev,size=1620380k,mode=700,"
	    "uid=1000 0 0\n"
	    "none /private nfs4 rw,vers,addr,clientaddr 0 0\n"
	    "none /private cifs rw,username,domain,addr 0 0\n"
	    "/dev/sdb1 /private vfat rw,uid=1000 0 0\n"
	    "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n";
	struct evidence	*ev;
	char		*out = collect_mounts_text(in);
	int		 bad;

	checkf("privacy/mounts-text", out != NULL && strcmp(out, want) == 0,
	    "got:\n%s", out != NULL ? out : "(null)");
	ev = evidence_new();
	bad = out != NULL ? evidence_read_mounts(ev, 0, out, strlen(out)) :
	    -1;
	checkf("privacy/mounts-read", bad == 0 &&
	    evidence_count(ev, EV_MOUNT) == 6 &&
	    evidence_find(ev, EV_MOUNT, "nfs4") != NULL &&
	    evidence_find(ev, EV_MOUNT, "cifs") != NULL, "%d malformed, %zu "
	    "types", bad, evidence_count(ev, EV_MOUNT));
	evidence_free(ev);
	free(out);
}

/* Add count sightings at sym + off, sym's address read from kallsyms. */
static void
count_at(struct u64map *m, const struct strbuf *ks, const char *sym,
    uint64_t off, uint64_t count)
{
	char		*needle = xasprintf(" %s\n", sym);
	const char	*p = strstr(ks->s, needle), *line;
	uint64_t	 addr = 0;

	if (p == NULL)	/* a module's symbol: a tab and [module] follow */
		p = strstr(ks->s, (needle[strlen(needle) - 1] = '\t', needle));
	if (p != NULL) {
		for (line = p; line > ks->s && line[-1] != '\n'; line--)
			;
		addr = strtoull(line, NULL, 16);
	}
	free(needle);
	if (addr != 0)
		u64map_insert(m, addr + off, NULL)->value += count;
}

/*
 * The trace's address counts named from kallsyms (collect_functions),
 * without a live trace: the cloud-vm bundle's own kallsyms (recorded from
 * Debian's 6.1 kernel), addresses inside three functions (one of a
 * module), a call site counted into its caller, one address below every
 * symbol. The functions file lists each function once, by name, with
 * its sightings summed, the module named.
 */
static void
test_functions_named(void)
{
	struct collect_options	 opt;
	struct collect		 c;
	struct strbuf		 sb;
	char			*dir = xasprintf("%s/functions", tmpdir);
	char			*cause = NULL;
	int			 rc;

	memset(&opt, 0, sizeof opt);
	memset(&c, 0, sizeof c);
	strbuf_init(&c.kallsyms);
	strbuf_init(&sb);
	c.opt = &opt;
	c.outdir = dir;
	mkdir(dir, 0755);
	if (!unxz_out("tests/fixtures/evidence/cloud-vm",
	    "kallsyms.xz", &c.kallsyms)) {
		check("functions-named", 0, "no fixture kallsyms.xz");
		free(dir);
		return;
	}
	count_at(&c.ips, &c.kallsyms, "vfs_read", 0x10, 3);
	count_at(&c.ips, &c.kallsyms, "vfs_write", 0, 2);
	count_at(&c.ips, &c.kallsyms, "skcipher_sendmsg", 4, 1);
	count_at(&c.parents, &c.kallsyms, "vfs_read", 0x20, 1);
	u64map_insert(&c.ips, 0x10, NULL)->value = 5;	/* below all */
	rc = collect_functions(&c, &cause);
	if (rc == 0) {
		char *path = xasprintf("%s/functions", dir);

		unit_read_file(path, &sb);
		free(path);
	}
	checkf("functions-named", rc == 0 && strcmp(sb.s,
	    "skcipher_sendmsg [algif_skcipher] 1\n"
	    "vfs_read 4\n"
	    "vfs_write 2\n") == 0 && c.ips.count == 4, "%s",
	    rc == 0 ? sb.s : cause);
	free(cause);
	u64map_free(&c.ips);
	u64map_free(&c.parents);
	strbuf_free(&c.kallsyms);
	strbuf_free(&sb);
	free(dir);
}

int
main(void)
{
	if (!unit_tmpdir(tmpdir))
		return 1;
	test_static();
	test_privacy();
	test_mounts_text();
	test_errors();
	test_trace_not_found();
	test_functions_named();
	if (geteuid() != 0)
		test_not_root_note();
	if (can_trace()) {
		if (test_trace_command()) {
			test_trace_seconds();
			test_trace_signal();
		}
	} else
		skip("trace", "needs root and tracefs with instances");

	unit_rmtree(tmpdir);
	return unit_failures != 0;
}
