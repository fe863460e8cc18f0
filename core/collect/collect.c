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
 * Tracing (collect-trace.c) uses a private ftrace instance ("kctui-PID") running the function
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
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <linux/fs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "collect.h"
#include "collect-int.h"

#include <lzma.h>
#include <zlib.h>

/* Report a note through the caller's callback. */
void
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
void
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
int
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
void
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
void
out_adds(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* Free the encoder. */
void
out_free(struct out *o)
{
	if (o->xz)
		lzma_end(&o->lz);
	free(o->zbuf);
	o->zbuf = NULL;
}

/* Finish an output file and rename it into place. */
int
out_close(struct out *o, char **cause)
{
	if (o->xz && o->af.error == 0)
		out_lzma(o, NULL, 0, LZMA_FINISH);
	out_free(o);
	return atomic_commit(&o->af, cause);
}

/* Write a whole file from memory. */
int
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
int
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
	XGROW(l->v, l->cap, l->n + 1, 256);
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
	if (c->have_kallsyms) {
		/* relative to _stext: the KASLR base is the machine's */
		char *rel = collect_kallsyms_relative(c->kallsyms.s,
		    c->kallsyms.len);

		ret = collect_write(c, "kallsyms.xz", rel, strlen(rel), true,
		    0600, cause);
		free(rel);
		if (ret != 0)
			return -1;
	}
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
 * unless it has a slash, as execvp() does (lib/proc.c's search); -1 with
 * *cause if not. */
static int
collect_find_command(const char *cmd, char **cause)
{
	if (*cmd == '\0') {
		*cause = xstrdup("empty command");
		return -1;
	}
	return proc_find(cmd, cause);
}

/*
 * Where the bundle is written. A bundle is one machine's: an output
 * directory that holds anything (another machine's modules, trace.xz,
 * vm) is refused, unless force, and then the new bundle is written to a
 * fresh directory beside it and swapped in at the end (collect_swap), so
 * nothing stale is left in it and a failed run leaves the old one whole.
 */
static int
collect_outdir(struct collect *c, char **cause)
{
	const char	*dir = c->opt->outdir;
	struct stat	 st;
	int		 empty;

	c->outdir = dir;
	if (lstat(dir, &st) != 0)
		return errno == ENOENT ? collect_mkdirs(dir, cause) :
		    (*cause = xasprintf("%s: %s", dir, strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: not a directory", dir);
		return -1;
	}
	if ((empty = path_dir_empty(dir)) < 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (empty)
		return collect_mkdirs(dir, cause);
	if (!c->opt->force) {
		*cause = xasprintf("%s: not empty: a bundle is one machine's, "
		    "and what is there would stay beside this one's (--force "
		    "replaces it); nothing written", dir);
		return -1;
	}
	c->fresh = xasprintf("%s.kctui-new.%ld", dir, (long)getpid());
	if (mkdir(c->fresh, 0755) != 0) {
		*cause = xasprintf("%s: %s", c->fresh, strerror(errno));
		free(c->fresh);
		c->fresh = NULL;
		return -1;
	}
	c->outdir = c->fresh;
	return 0;
}

/* --force: the fresh bundle takes the output directory's name (one
 * exchange where the kernel has it), the old content is removed. */
static int
collect_swap(struct collect *c, char **cause)
{
	const char	*dir = c->opt->outdir;
	char		*old;
	int		 rc;

	if (syscall(SYS_renameat2, AT_FDCWD, c->fresh, AT_FDCWD, dir,
	    RENAME_EXCHANGE) == 0)
		return path_remove_tree(c->fresh, cause);
	old = xasprintf("%s.kctui-old.%ld", dir, (long)getpid());
	if (rename(dir, old) != 0 || rename(c->fresh, dir) != 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(old);
		return -1;
	}
	rc = path_remove_tree(old, cause);
	free(old);
	return rc;
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
	if (collect_outdir(&c, cause) != 0)
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
	if (c.fresh != NULL && collect_swap(&c, cause) != 0)
		goto out;
	ret = 0;
out:
	if (c.fresh != NULL) {
		char *ignored = NULL;

		/* after a failure, the half-made bundle; the old is whole */
		if (ret != 0 && access(c.fresh, F_OK) == 0)
			(void)path_remove_tree(c.fresh, &ignored);
		free(ignored);
		free(c.fresh);
	}
	u64map_free(&c.ips);
	u64map_free(&c.parents);
	strbuf_free(&c.kallsyms);
	strbuf_free(&c.stats);
	return ret;
}
