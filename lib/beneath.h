/* SPDX-License-Identifier: GPL-2.0 */
/*
 * beneath.h - opening a file of a directory kctui does not trust (an
 * evidence bundle, its workload.d) so that nothing is followed out of it:
 * no symbolic link, on the way or at the end, and no "..". A bundle is
 * someone else's files; a link in it to /etc/shadow must be an error
 * naming the link, never the host file's content copied into a guest, a
 * twin or a report.
 */
#ifndef KC_BENEATH_H
#define KC_BENEATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Open rel (relative: no leading '/', no ".." component) below the
 * directory dfd without following any symbolic link: openat2 with
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or where the kernel has none
 * (ENOSYS, or a seccomp filter's EPERM) each component opened O_NOFOLLOW.
 * flags as open(2), without O_CREAT; O_CLOEXEC is added. -1 with errno:
 * ELOOP when a component is a link, EXDEV when rel would leave dfd.
 */
int	 beneath_openat(int dfd, const char *rel, int flags);
/* The fallback of beneath_openat, one component at a time (exported for
 * the tests, which cannot take openat2 away). */
int	 beneath_openat_compat(int dfd, const char *rel, int flags);
/* rel below the directory dir (dir itself, the bundle the user named, may
 * be a link); -1 with *cause "DIR/REL: reason" (a link said to be one). */
int	 beneath_open(const char *dir, const char *rel, int flags,
	     char **cause);
/* The whole of the regular file rel below dir, NUL-terminated, its
 * length in *len (may be NULL); NULL with *cause as beneath_open (not a
 * regular file said so). */
char	*beneath_read(const char *dir, const char *rel, size_t *len,
	     char **cause);
/* The message for errno err of a beneath open of shown ("SHOWN: ...");
 * malloc'd. */
char	*beneath_strerror(const char *shown, int err);

#endif
