/* SPDX-License-Identifier: GPL-2.0 */
/*
 * beneath.c - opening a bundle's file without following anything out of
 * it (see beneath.h).
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beneath.h"
#include "fileio.h"
#include "util.h"

/* Whether rel is a path we agree to resolve at all: relative, no "..". */
static bool
beneath_valid(const char *rel)
{
	const char	*p = rel;
	size_t		 n;

	if (*rel == '\0' || *rel == '/')
		return false;
	while (*p != '\0') {
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		p += strspn(p, "/");
	}
	return true;
}

/* The fallback: each directory component opened O_NOFOLLOW|O_DIRECTORY
 * from the last, the final one O_NOFOLLOW; a link anywhere is ELOOP. */
int
beneath_openat_compat(int dfd, const char *rel, int flags)
{
	struct stat	 st;
	const char	*p = rel;
	char		*name;
	size_t		 n;
	int		 cur = dfd, next, err;

	if (!beneath_valid(rel)) {
		errno = EXDEV;
		return -1;
	}
	for (;;) {
		n = strcspn(p, "/");
		name = xstrndup(p, n);
		p += n;
		p += strspn(p, "/");
		if (*p == '\0') {
			next = openat(cur, name, flags | O_NOFOLLOW |
			    O_CLOEXEC);
		} else {
			next = openat(cur, name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		}
		err = errno;
		/* O_DIRECTORY on a link may say ENOTDIR: say what it is */
		if (next < 0 && err == ENOTDIR && fstatat(cur, name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
			err = ELOOP;
		free(name);
		if (cur != dfd)
			close(cur);
		if (next < 0) {
			errno = err;
			return -1;
		}
		if (*p == '\0')
			return next;
		cur = next;
	}
}

/* Open rel below dfd following no link (see beneath.h). */
int
beneath_openat(int dfd, const char *rel, int flags)
{
	struct open_how	 how;
	int		 fd, tries;

	if (!beneath_valid(rel)) {
		errno = EXDEV;
		return -1;
	}
	memset(&how, 0, sizeof how);
	how.flags = (unsigned)(flags | O_CLOEXEC | O_NOFOLLOW);
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
	    RESOLVE_NO_MAGICLINKS;
	/* EAGAIN: a rename raced the lookup; the kernel asks us to retry */
	for (tries = 0; tries < 8; tries++) {
		fd = (int)syscall(SYS_openat2, dfd, rel, &how, sizeof how);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		return beneath_openat_compat(dfd, rel, flags);
	return fd;
}

/* The message for a failed beneath open. */
char *
beneath_strerror(const char *shown, int err)
{
	if (err == ELOOP)
		return xasprintf("%s: a symbolic link (a bundle's files are "
		    "never followed out of it)", shown);
	if (err == EXDEV)
		return xasprintf("%s: outside the bundle's directory",
		    shown);
	return xasprintf("%s: %s", shown, strerror(err));
}

/* rel below the directory dir (see beneath.h). */
int
beneath_open(const char *dir, const char *rel, int flags, char **cause)
{
	char	*shown;
	int	 dfd, fd, err;

	shown = xasprintf("%s/%s", dir, rel);
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		free(shown);
		return -1;
	}
	fd = beneath_openat(dfd, rel, flags);
	err = errno;
	close(dfd);
	if (fd < 0)
		*cause = beneath_strerror(shown, err);
	free(shown);
	return fd;
}

/* The whole of the regular file rel below dir (see beneath.h). */
char *
beneath_read(const char *dir, const char *rel, size_t *len, char **cause)
{
	char	*buf;
	int	 fd;

	/* O_NONBLOCK: a FIFO must be refused, not waited on */
	if ((fd = beneath_open(dir, rel, O_RDONLY | O_NONBLOCK, cause)) < 0)
		return NULL;
	if ((buf = fd_read_all(fd, len, true)) == NULL)
		*cause = xasprintf("%s/%s: %s", dir, rel, errno == EINVAL ?
		    "not a regular file" : strerror(errno));
	return buf;
}
