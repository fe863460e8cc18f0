/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fileio.h - the file plumbing every writer shares: write-all, mkdir -p,
 * reading a whole file, and the one atomic replacement of a file (a
 * temporary beside it, fsync, rename), so that no user file is ever left
 * half-written and every temporary has the same name scheme.
 */
#ifndef KC_FILEIO_H
#define KC_FILEIO_H

#include <sys/types.h>

#include <stddef.h>

/* Write all of buf to fd, retrying short writes and EINTR; -1 on error
 * (errno set). */
int	 fd_write_all(int fd, const void *buf, size_t len);
/* mkdir -p dir (each missing component with mode); -1 with *cause
 * ("DIR: reason") on failure. */
int	 path_mkdir_p(const char *dir, mode_t mode, char **cause);
/* mkdir -p of path's directory part. */
int	 path_mkdir_parent(const char *path, mode_t mode, char **cause);
/* The whole of path, NUL-terminated (malloc'd), its length in *len;
 * NULL with errno set on failure. */
char	*file_read_all(const char *path, size_t *len);
/* The same for a regular file only (EISDIR, EINVAL otherwise): a sourced
 * /dev/zero must not be read for ever. */
char	*file_read_regular(const char *path, size_t *len);
/* The one line of a regular file (include/config/kernel.release,
 * /proc/sys/kernel/random/boot_id), trailing blanks and newline gone;
 * NULL when it cannot be read, is empty or has more than one line. */
char	*file_read_line(const char *path);

/* Flags of atomic_open. */
#define ATOMIC_KEEP_OLD	0x1	/* keep the replaced file as PATH.old */
#define ATOMIC_IN_PLACE	0x2	/* write PATH itself (KCONFIG_OVERWRITECONFIG:
				   the user asked for it, e.g. a symlink) */
#define ATOMIC_MKDIRS	0x4	/* create missing parent directories */

/*
 * A file being replaced: written to PATH.tmp.PID.TID.N (same directory,
 * so the rename is atomic) opened O_EXCL with the caller's mode (umask
 * applies, as with fopen), then fsync'd and renamed over PATH by
 * atomic_commit. Until then PATH is untouched; atomic_abort removes the
 * temporary.
 */
struct atomic_file {
	char	*path;
	char	*tmp;		/* == path with ATOMIC_IN_PLACE */
	int	 fd;
	int	 flags;
	int	 error;		/* first write error (errno), 0 if none */
};

/* Start replacing path; -1 with *cause on failure (nothing to abort). */
int	 atomic_open(struct atomic_file *, const char *path, mode_t mode,
	     int flags, char **cause);
/* Append to the temporary; errors are remembered for atomic_commit. */
void	 atomic_write(struct atomic_file *, const void *, size_t);
/* fsync, close and rename into place (keeping PATH.old when asked); -1
 * with *cause, the temporary removed and PATH untouched, on failure. */
int	 atomic_commit(struct atomic_file *, char **cause);
/* Give up: close and remove the temporary. */
void	 atomic_abort(struct atomic_file *);
/* All of it at once: path's new content is buf. */
int	 file_write_atomic(const char *path, const void *buf, size_t len,
	     mode_t mode, int flags, char **cause);

#endif
