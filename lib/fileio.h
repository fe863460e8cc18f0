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

#include <stdbool.h>
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
/* The same from an open descriptor, which is closed (regular: refuse
 * anything but a regular file, as file_read_regular). */
char	*fd_read_all(int fd, size_t *len, bool regular);
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
 * temporary. A symlink's target is what is replaced; a character
 * device, FIFO or socket is written in place (ATOMIC_IN_PLACE implied,
 * no .old). PATH exists at every instant: .old is made by a hard link.
 */
struct atomic_file {
	char	*path;		/* the file replaced (a symlink resolved) */
	char	*shown;		/* the name the caller gave, for messages */
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
/* atomic_commit in two halves, for several files replaced together:
 * flush every one (fsync, close: where a full disk shows), then rename
 * every one. Each -1 with *cause and the temporary removed. */
int	 atomic_flush(struct atomic_file *, char **cause);
int	 atomic_rename(struct atomic_file *, char **cause);
/* Give up: close and remove the temporary. */
void	 atomic_abort(struct atomic_file *);
/* All of it at once: path's new content is buf. */
int	 file_write_atomic(const char *path, const void *buf, size_t len,
	     mode_t mode, int flags, char **cause);


/* One file of file_write_atomic_set(). */
struct file_out {
	const char	*path;
	const void	*buf;
	size_t		 len;
	mode_t		 mode;
	int		 flags;		/* ATOMIC_* */
};
/* Replace all of outs or none: each written and flushed before any is
 * renamed. -1 with *cause (naming the file) on failure. */
int	 file_write_atomic_set(const struct file_out *, size_t n,
	     char **cause);
/* Whether two names are the same file (same inode, or the same canonical
 * name for files that do not exist yet). */
bool	 path_same_file(const char *a, const char *b);
/* Remove the directory path and everything below it, following no link
 * (a link is removed, not its target); -1 with *cause. */
int	 path_remove_tree(const char *path, char **cause);
/* 1 when the directory path holds nothing, 0 when it holds something, -1
 * (errno set) when it cannot be read. */
int	 path_dir_empty(const char *path);
/* An exclusive lock for a read-modify-write of path (on its directory);
 * the descriptor for path_unlock, or -1 when none could be taken. */
int	 path_lock(const char *path);
/* The same, and when another writer holds the lock for a second, tell
 * waiting(arg, dir) once before waiting on (a run that seems to hang says
 * why); waiting may be NULL. */
int	 path_lock_wait(const char *path,
	     void (*waiting)(void *arg, const char *dir), void *arg);
void	 path_unlock(int fd);

#endif
