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

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../lib/fileio.h"

static char fuzz_file_dirname[64];

/* At exit: the scratch directory and its files (no subdirectories) go. */
static inline void
fuzz_file_cleanup(void)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[160];

	if ((d = opendir(fuzz_file_dirname)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (*de->d_name == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", fuzz_file_dirname,
		    de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(fuzz_file_dirname);
}

/* The target's scratch directory, made on first use. */
static inline const char *
fuzz_file_dir(void)
{
	if (*fuzz_file_dirname == '\0') {
		snprintf(fuzz_file_dirname, sizeof fuzz_file_dirname,
		    "/tmp/kctui-fuzz-file.%d", (int)getpid());
		mkdir(fuzz_file_dirname, 0700);
		atexit(fuzz_file_cleanup);
	}
	return fuzz_file_dirname;
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
