/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fileio.c - write-all, mkdir -p, whole-file reads and atomic replacement
 * (see fileio.h).
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Read all of path into a NUL-terminated buffer; with regular, refuse
 * anything but a regular file. */
static char *
file_read(const char *path, size_t *len, bool regular)
{
	struct stat	 st;
	char		*buf = NULL;
	size_t		 cap, n = 0;
	ssize_t		 r;
	int		 fd, err = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
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

/*
 * Start replacing path. The temporary's name carries the process and
 * thread and a retry count, and is opened O_EXCL: two writers (threads,
 * processes) never share one, and a stale one from a crash is skipped.
 */
int
atomic_open(struct atomic_file *af, const char *path, mode_t mode, int flags,
    char **cause)
{
	struct stat	st;
	int		try;

	memset(af, 0, sizeof *af);
	af->fd = -1;
	af->flags = flags;
	if (*path == '\0') {
		*cause = xstrdup("empty file name");
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: Is a directory", path);
		return -1;
	}
	if ((flags & ATOMIC_MKDIRS) &&
	    path_mkdir_parent(path, 0777, cause) != 0)
		return -1;
	af->path = xstrdup(path);
	if (flags & ATOMIC_IN_PLACE) {
		af->tmp = af->path;
		af->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    mode);
	} else {
		for (try = 0; try < 100; try++) {
			af->tmp = xasprintf("%s.tmp.%ld.%ld.%d", path,
			    (long)getpid(), (long)syscall(SYS_gettid), try);
			af->fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC, mode);
			if (af->fd >= 0 || errno != EEXIST)
				break;
			free(af->tmp);
			af->tmp = NULL;
		}
	}
	if (af->fd < 0) {
		*cause = xasprintf("%s: %s", af->tmp != NULL ? af->tmp : path,
		    strerror(errno));
		if (af->tmp != af->path)
			free(af->tmp);
		free(af->path);
		af->tmp = af->path = NULL;
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
	af->tmp = af->path = NULL;
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

/* Make the new content durable, then move it over PATH. */
int
atomic_commit(struct atomic_file *af, char **cause)
{
	char	*old;
	int	 err = af->error;

	/* fsync is EINVAL on special files (a config on /dev/stdout). */
	if (err == 0 && fsync(af->fd) != 0 && errno != EINVAL)
		err = errno;
	if (close(af->fd) != 0 && err == 0)
		err = errno;
	af->fd = -1;
	if (err != 0) {
		*cause = xasprintf("%s: %s", af->tmp, strerror(err));
		atomic_abort(af);
		return -1;
	}
	if (af->tmp == af->path) {
		atomic_release(af);
		return 0;
	}
	if (af->flags & ATOMIC_KEEP_OLD) {
		old = xasprintf("%s.old", af->path);
		(void)rename(af->path, old);	/* there may be none yet */
		free(old);
	}
	if (rename(af->tmp, af->path) != 0) {
		*cause = xasprintf("%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	atomic_release(af);
	return 0;
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
