/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fileio.c - write-all, mkdir -p, whole-file reads and atomic replacement
 * (see fileio.h).
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

/* Write all of buf to fd, retrying short writes and EINTR. */
int
fd_write_all(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* mkdir -p: each component in turn, an existing directory being fine. */
int
path_mkdir_p(const char *dir, mode_t mode, char **cause)
{
	char		*copy = xstrdup(dir), *p;
	struct stat	 st;
	int		 rc = 0;

	for (p = copy + 1; rc == 0; p++) {
		p = strchr(p, '/');
		if (p != NULL)
			*p = '\0';
		if (*copy != '\0' && mkdir(copy, mode) != 0 &&
		    (errno != EEXIST || stat(copy, &st) != 0 ||
		    !S_ISDIR(st.st_mode))) {
			if (errno == EEXIST)
				errno = ENOTDIR;
			*cause = xasprintf("%s: %s", copy, strerror(errno));
			rc = -1;
		}
		if (p == NULL)
			break;
		*p = '/';
	}
	free(copy);
	return rc;
}

/* mkdir -p of the directory holding path (nothing for a bare name). */
int
path_mkdir_parent(const char *path, mode_t mode, char **cause)
{
	const char	*slash = strrchr(path, '/');
	char		*dir;
	int		 rc;

	if (slash == NULL || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	rc = path_mkdir_p(dir, mode, cause);
	free(dir);
	return rc;
}

/* The directory part of path ("." for a bare name, "/" for "/x"),
 * malloc'd: where its temporaries, its lock and its realpath live. */
static char *
path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
}

/* Read all of path into a NUL-terminated buffer; with regular, refuse
 * anything but a regular file. */
static char *
file_read(const char *path, size_t *len, bool regular)
{
	int		 fd;

	/* O_NONBLOCK: opening a FIFO with no writer must not hang before
	 * fstat can refuse it. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC |
	    (regular ? O_NONBLOCK : 0))) < 0)
		return NULL;
	return fd_read_all(fd, len, regular);
}

/* Read all of the open fd (closed here); see fileio.h. */
char *
fd_read_all(int fd, size_t *len, bool regular)
{
	struct stat	 st;
	char		*buf = NULL;
	size_t		 cap, n = 0;
	ssize_t		 r;
	int		 err = 0;

	if (fstat(fd, &st) != 0)
		err = errno;
	else if (regular && !S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	/* st_size is a hint (/proc and pipes say 0, a file may grow); one
	 * byte more than it leaves room to see the end without growing. */
	cap = err == 0 && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096;
	buf = xmalloc(cap);
	while (err == 0) {
		if (n + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err != 0) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

/* Read all of path (any kind of file) into a NUL-terminated buffer. */
char *
file_read_all(const char *path, size_t *len)
{
	return file_read(path, len, false);
}

/* Read all of a regular file into a NUL-terminated buffer. */
char *
file_read_regular(const char *path, size_t *len)
{
	return file_read(path, len, true);
}

/* The one line of a regular file (see fileio.h). */
char *
file_read_line(const char *path)
{
	char	*text;
	size_t	 len;

	if ((text = file_read_regular(path, &len)) == NULL)
		return NULL;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ' ||
	    text[len - 1] == '\t' || text[len - 1] == '\r'))
		text[--len] = '\0';
	if (len == 0 || strlen(text) != len || strchr(text, '\n') != NULL) {
		free(text);
		return NULL;
	}
	return text;
}

/* Create path (which must not exist) holding buf, fsync'd: for the
 * copies that are never seen half-written because nobody looks at their
 * name until they are renamed. */
static int
file_write_plain(const char *path, const void *buf, size_t len)
{
	int	 fd, err = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0666)) < 0)
		return -1;
	if (fd_write_all(fd, buf, len) != 0 || fsync(fd) != 0)
		err = errno;
	if (close(fd) != 0 && err == 0)
		err = errno;
	errno = err;
	return err == 0 ? 0 : -1;
}

/*
 * Where a write to path really goes: a symlink is followed to its final
 * target (as conf, cp and shells do: a config kept as a link to another
 * tree stays a link), so that target is what is replaced. The result is
 * malloc'd; *st is the target's (st_mode 0 when it does not exist yet).
 * -1 with *cause for a loop or a link that cannot be read.
 */
static int
atomic_resolve(const char *path, char **out, struct stat *st, char **cause)
{
	char	*cur, *target, *next;
	const char *slash;
	ssize_t	 n;
	size_t	 cap;
	int	 hops;

	/* What exists is found the kernel's way (which also follows /proc's
	 * magic links such as /proc/self/fd/1 to a pipe); only a name that
	 * does not exist yet, or a dangling link, is followed by hand. */
	if (stat(path, st) == 0) {
		if (!S_ISREG(st->st_mode) ||
		    (*out = realpath(path, NULL)) == NULL)
			*out = xstrdup(path);
		return 0;
	}
	cur = xstrdup(path);
	for (hops = 0; hops < 40; hops++) {
		if (lstat(cur, st) != 0) {
			memset(st, 0, sizeof *st);
			*out = cur;
			return 0;
		}
		if (!S_ISLNK(st->st_mode)) {
			*out = cur;
			return 0;
		}
		/* readlink does not say the length first: grow until the
		 * whole target fits. */
		for (cap = 256;; cap *= 2) {
			target = xmalloc(cap);
			n = readlink(cur, target, cap);
			if (n < 0 || (size_t)n < cap)
				break;
			free(target);
		}
		if (n < 0) {
			*cause = xasprintf("%s: %s", cur, strerror(errno));
			free(target);
			free(cur);
			return -1;
		}
		target[n] = '\0';
		slash = strrchr(cur, '/');
		if (target[0] == '/' || slash == NULL)
			next = xstrdup(target);
		else
			next = xasprintf("%.*s/%s", (int)(slash - cur), cur,
			    target);
		free(target);
		free(cur);
		cur = next;
	}
	*cause = xasprintf("%s: %s", path, strerror(ELOOP));
	free(cur);
	return -1;
}

/*
 * Remove the temporaries of path that a killed writer left behind
 * (PATH.tmp.PID.TID.N, PATH.old.tmp.PID.TID.N) whose process is gone;
 * those of live processes are theirs. Best effort: a directory that
 * cannot be listed is left as it is.
 */
static void
atomic_sweep(const char *path)
{
	const char	*slash = strrchr(path, '/'), *base, *rest;
	char		*dir, *victim;
	DIR		*d;
	struct dirent	*de;
	size_t		 blen;
	long		 pid;
	char		*end;

	dir = path_dirname(path);
	base = slash == NULL ? path : slash + 1;
	blen = strlen(base);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, base, blen) != 0)
			continue;
		rest = de->d_name + blen;
		if (strncmp(rest, ".old", 4) == 0)
			rest += 4;
		if (strncmp(rest, ".tmp.", 5) != 0)
			continue;
		errno = 0;
		pid = strtol(rest + 5, &end, 10);
		if (errno != 0 || end == rest + 5 || *end != '.' || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		victim = xasprintf("%s/%s", dir, de->d_name);
		(void)unlink(victim);
		free(victim);
	}
	closedir(d);
	free(dir);
}

/* A temporary name beside path, unique to this process and thread. */
static char *
atomic_tmpname(const char *path, const char *infix, int try)
{
	return xasprintf("%s%s.tmp.%ld.%ld.%d", path, infix, (long)getpid(),
	    (long)syscall(SYS_gettid), try);
}

/*
 * Start replacing path. A symlink is followed and its target replaced; a
 * character device, FIFO or socket is written in place (-o /dev/stdout),
 * never renamed away; a directory is refused. Otherwise the temporary's
 * name carries the process and thread and a retry count, and is opened
 * O_EXCL: two writers (threads, processes) never share one, and those of
 * dead writers are swept away first.
 */
int
atomic_open(struct atomic_file *af, const char *path, mode_t mode, int flags,
    char **cause)
{
	struct stat	st;
	char		*real;
	int		try;

	memset(af, 0, sizeof *af);
	af->fd = -1;
	af->flags = flags;
	if (*path == '\0') {
		*cause = xstrdup("empty file name");
		return -1;
	}
	if ((flags & ATOMIC_MKDIRS) &&
	    path_mkdir_parent(path, 0777, cause) != 0)
		return -1;
	if (atomic_resolve(path, &real, &st, cause) != 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: Is a directory", path);
		free(real);
		return -1;
	}
	af->path = real;
	af->shown = xstrdup(path);
	if (st.st_mode != 0 && !S_ISREG(st.st_mode))
		af->flags = (flags | ATOMIC_IN_PLACE) & ~ATOMIC_KEEP_OLD;
	if (af->flags & ATOMIC_IN_PLACE) {
		af->tmp = af->path;
		af->fd = open(real, O_WRONLY | O_CREAT | O_CLOEXEC |
		    (S_ISREG(st.st_mode) || st.st_mode == 0 ? O_TRUNC : 0),
		    mode);
	} else {
		atomic_sweep(real);
		for (try = 0; try < 100; try++) {
			af->tmp = atomic_tmpname(real, "", try);
			af->fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC, mode);
			if (af->fd >= 0 || errno != EEXIST)
				break;
			free(af->tmp);
			af->tmp = NULL;
		}
	}
	if (af->fd < 0) {
		/* The name the user gave, not our temporary's. */
		*cause = xasprintf("%s: %s", path, strerror(errno));
		if (af->tmp != af->path)
			free(af->tmp);
		free(af->path);
		free(af->shown);
		memset(af, 0, sizeof *af);
		af->fd = -1;
		return -1;
	}
	return 0;
}

/* Append; the first error sticks until atomic_commit reports it. */
void
atomic_write(struct atomic_file *af, const void *buf, size_t len)
{
	if (af->error == 0 && fd_write_all(af->fd, buf, len) != 0)
		af->error = errno;
}

/* Free the names (the file is already closed). */
static void
atomic_release(struct atomic_file *af)
{
	if (af->tmp != af->path)
		free(af->tmp);
	free(af->path);
	free(af->shown);
	af->tmp = af->path = af->shown = NULL;
	af->fd = -1;
}

/* Give up: the temporary goes, PATH stays as it was. */
void
atomic_abort(struct atomic_file *af)
{
	if (af->path == NULL)
		return;
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp != af->path)
		unlink(af->tmp);
	atomic_release(af);
}

/*
 * Make the new content durable (fsync, close) without putting it in
 * place yet: a caller replacing several files flushes them all, then
 * renames them all. -1 with *cause (naming the target) and the
 * temporary removed on failure.
 */
int
atomic_flush(struct atomic_file *af, char **cause)
{
	int	 err = af->error;

	if (af->fd < 0)
		return 0;
	/* fsync is EINVAL on special files (a config on /dev/stdout). */
	if (err == 0 && fsync(af->fd) != 0 && errno != EINVAL &&
	    errno != EROFS)
		err = errno;
	if (close(af->fd) != 0 && err == 0)
		err = errno;
	af->fd = -1;
	if (err != 0) {
		*cause = xasprintf("%s: %s", af->shown, strerror(err));
		atomic_abort(af);
		return -1;
	}
	return 0;
}

/*
 * Keep path's current content as path.old without a moment in which path
 * does not exist: a hard link to a temporary name, renamed over .old
 * (rename(path, path.old) would leave no path to a writer killed before
 * its second rename). A file system without hard links gets a copy.
 */
static void
atomic_keep_old(const char *path)
{
	char	*old = xasprintf("%s.old", path), *tmp, *data;
	size_t	 len;
	int	 try;

	for (try = 0; try < 100; try++) {
		tmp = atomic_tmpname(path, ".old", try);
		if (link(path, tmp) == 0)
			break;
		if (errno != EEXIST) {
			free(tmp);
			tmp = NULL;
			break;
		}
		free(tmp);
		tmp = NULL;
	}
	if (tmp == NULL && errno != ENOENT &&
	    (data = file_read_regular(path, &len)) != NULL) {
		tmp = atomic_tmpname(path, ".old", 100);
		if (file_write_plain(tmp, data, len) != 0) {
			(void)unlink(tmp);
			free(tmp);
			tmp = NULL;
		}
		free(data);
	}
	/* rename leaves both names when they are links to one file (a .old
	 * left by a writer killed between its renames): our name goes
	 * either way. */
	if (tmp != NULL) {
		(void)rename(tmp, old);
		(void)unlink(tmp);
	}
	free(tmp);
	free(old);
}

/* Move a flushed temporary over PATH (keeping PATH.old when asked). */
int
atomic_rename(struct atomic_file *af, char **cause)
{
	if (af->tmp == af->path) {
		atomic_release(af);
		return 0;
	}
	if (af->flags & ATOMIC_KEEP_OLD)
		atomic_keep_old(af->path);
	if (rename(af->tmp, af->path) != 0) {
		*cause = xasprintf("%s: %s", af->shown, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	atomic_release(af);
	return 0;
}

/* Make the new content durable, then move it over PATH. */
int
atomic_commit(struct atomic_file *af, char **cause)
{
	if (atomic_flush(af, cause) != 0)
		return -1;
	return atomic_rename(af, cause);
}

/* Replace path's content with buf, atomically. */
int
file_write_atomic(const char *path, const void *buf, size_t len, mode_t mode,
    int flags, char **cause)
{
	struct atomic_file af;

	if (atomic_open(&af, path, mode, flags, cause) != 0)
		return -1;
	atomic_write(&af, buf, len);
	return atomic_commit(&af, cause);
}

/*
 * Replace several files together (a config and its report): every one is
 * written and flushed before any is renamed, so a full disk or a
 * read-only directory leaves all of them as they were. Only a failure of
 * rename itself (rare: the same directories were just written) can leave
 * the first ones replaced; the message then says which.
 */
int
file_write_atomic_set(const struct file_out *outs, size_t n, char **cause)
{
	struct atomic_file	*af = xcalloc(n, sizeof *af);
	size_t			 i, opened = 0, done = 0;
	int			 rc = -1;
	char			*why;

	for (i = 0; i < n; i++) {
		if (atomic_open(&af[i], outs[i].path, outs[i].mode,
		    outs[i].flags, cause) != 0)
			goto out;
		opened++;
		atomic_write(&af[i], outs[i].buf, outs[i].len);
	}
	for (i = 0; i < n; i++)
		if (atomic_flush(&af[i], cause) != 0)
			goto out;
	for (i = 0; i < n; i++, done++) {
		if (atomic_rename(&af[i], cause) != 0) {
			if (done > 0) {
				why = xasprintf("%s (%s was already written)",
				    *cause, outs[0].path);
				free(*cause);
				*cause = why;
			}
			done++;
			goto out;
		}
	}
	rc = 0;
out:
	for (i = done; i < opened; i++)
		atomic_abort(&af[i]);
	free(af);
	return rc;
}

/* A name's canonical form without requiring the file to exist: its
 * directory resolved (realpath), then its last component. */
static char *
path_canonical(const char *path)
{
	const char	*slash = strrchr(path, '/');
	char		*dir, *real, *out;

	if ((real = realpath(path, NULL)) != NULL)
		return real;
	dir = path_dirname(path);
	real = realpath(dir, NULL);
	out = real == NULL ? xstrdup(path) : xasprintf("%s/%s",
	    strcmp(real, "/") == 0 ? "" : real, slash == NULL ? path :
	    slash + 1);
	free(real);
	free(dir);
	return out;
}

/* Whether a and b name the same file: the same inode when both exist
 * (links, hard links, ./x and x), else the same canonical name. */
bool
path_same_file(const char *a, const char *b)
{
	struct stat	 sa, sb;
	char		*ca, *cb;
	bool		 same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = path_canonical(a);
	cb = path_canonical(b);
	same = strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}

/*
 * Serialise read-modify-write cycles on path between processes (two
 * `kctui decide`, the browser and the command line, two olddefconfig):
 * an exclusive flock on path's directory, which exists whether or not
 * path does and is not replaced by the rename that replaces path (a lock
 * on the file itself would be left behind on the old inode). Returns
 * the descriptor for path_unlock, or -1 when the directory cannot be
 * locked (a file system without flock): then the caller goes on
 * unlocked, as before. Not reentrant: a process holds one at a time.
 */
int
path_lock(const char *path)
{
	return path_lock_wait(path, NULL, NULL);
}

/* How long a writer waits quietly for the lock before it says so. */
#define PATH_LOCK_QUIET_MS	1000

/* path_lock, saying after a second that it waits (see fileio.h). */
int
path_lock_wait(const char *path, void (*waiting)(void *, const char *),
    void *arg)
{
	struct timespec	 ts = { 0, 50 * 1000 * 1000 };
	char		*dir;
	int		 fd, ms;

	dir = path_dirname(path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		free(dir);
		return -1;
	}
	/* Quietly for a second (a writer holds it for milliseconds). */
	for (ms = 0; waiting != NULL && ms < PATH_LOCK_QUIET_MS; ms += 50) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			free(dir);
			return fd;
		}
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		nanosleep(&ts, NULL);
	}
	if (waiting != NULL && ms >= PATH_LOCK_QUIET_MS)
		waiting(arg, dir);
	free(dir);
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Release path_lock's lock (-1: none was taken). */
void
path_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Remove every entry below the open directory dfd (closed here), links
 * unlinked, never followed. */
static int
path_empty_fd(int dfd, const char *shown, char **cause)
{
	struct dirent	*de;
	DIR		*d;
	char		*sub;
	int		 fd, rc = 0;

	if ((d = fdopendir(dfd)) == NULL) {
		*cause = xasprintf("%s: %s", shown, strerror(errno));
		close(dfd);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			*cause = xasprintf("%s/%s: %s", shown, de->d_name,
			    strerror(errno));
			rc = -1;
			break;
		}
		sub = xasprintf("%s/%s", shown, de->d_name);
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			*cause = xasprintf("%s: %s", sub, strerror(errno));
			rc = -1;
		} else if ((rc = path_empty_fd(fd, sub, cause)) == 0 &&
		    unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) != 0) {
			*cause = xasprintf("%s: %s", sub, strerror(errno));
			rc = -1;
		}
		free(sub);
	}
	closedir(d);
	return rc;
}

/* Remove the directory path and everything below it (see fileio.h). */
int
path_remove_tree(const char *path, char **cause)
{
	int	fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (path_empty_fd(fd, path, cause) != 0)
		return -1;
	if (rmdir(path) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Whether path is a directory holding nothing (see fileio.h). */
int
path_dir_empty(const char *path)
{
	struct dirent	*de;
	DIR		*d;
	int		 empty = 1;

	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	return empty;
}
