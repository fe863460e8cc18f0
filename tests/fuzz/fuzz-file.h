/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-file.h - a fuzz input as a regular file in the target's own
 * directory: the bundle readers open a file below its directory
 * following no link (lib/beneath.h), so /proc/self/fd/N of a memfd, a
 * link, is refused before anything is parsed.
 */
#ifndef KC_FUZZ_FILE_H
#define KC_FUZZ_FILE_H

#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../../lib/fileio.h"

/* The target's scratch directory, made on first use. */
static inline const char *
fuzz_file_dir(void)
{
	static char	dir[64];

	if (*dir == '\0') {
		snprintf(dir, sizeof dir, "/tmp/kctui-fuzz-file.%d",
		    (int)getpid());
		mkdir(dir, 0700);
	}
	return dir;
}

/* dir/name holding data[0..n); its path in path (size len); -1 when it
 * cannot be written. */
static inline int
fuzz_file(const char *name, const void *data, size_t n, char *path,
    size_t len)
{
	int	fd;

	snprintf(path, len, "%s/%s", fuzz_file_dir(), name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) < 0)
		return -1;
	if (fd_write_all(fd, data, n) != 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

#endif
