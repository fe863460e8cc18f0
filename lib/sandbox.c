/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sandbox.c - namespaces around a child process (see sandbox.h). Runs
 * between fork and exec: no allocation, fixed buffers for paths only
 * (PATH_MAX, the kernel's own limit), errors as errno.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandbox.h"

/* /usr (with merged /bin, /lib), the loader's directories and cache, the
 * alternatives cc and ld go through. Not /etc, not /home, not /root. */
const char *const sandbox_cc_paths[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/alternatives", "/etc/ld.so.cache", NULL,
};

/* Write text to a /proc file of our own. */
static int
sandbox_write(const char *path, const char *text)
{
	ssize_t	n;
	int	fd, e;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	n = write(fd, text, strlen(text));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* mkdir -p of path (a fixed buffer: between fork and exec). */
static int
sandbox_mkdirs(const char *path)
{
	char	buf[PATH_MAX];
	char	*p;

	if (strlen(path) >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The flags a bind of src must keep when made read-only: in a user
 * namespace the kernel refuses to drop nosuid, nodev or noexec. */
static unsigned long
sandbox_locked(const char *src)
{
	struct statvfs	sv;
	unsigned long	f = 0;

	if (statvfs(src, &sv) != 0)
		return 0;
	if (sv.f_flag & ST_NOSUID)
		f |= MS_NOSUID;
	if (sv.f_flag & ST_NODEV)
		f |= MS_NODEV;
	if (sv.f_flag & ST_NOEXEC)
		f |= MS_NOEXEC;
	return f;
}

/* Make host path src visible at root/src (read-only unless rw). */
static int
sandbox_bind(const char *root, const char *src, int rw)
{
	struct stat	 st;
	char		 dst[PATH_MAX], target[PATH_MAX];
	ssize_t		 n;
	int		 fd;

	if (lstat(src, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (snprintf(dst, sizeof dst, "%s%s", root, src) >= (int)sizeof dst) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		/* merged /usr: /bin -> usr/bin, recreated as it is */
		if ((n = readlink(src, target, sizeof target - 1)) < 0)
			return -1;
		target[n] = '\0';
		*strrchr(dst, '/') = '\0';
		if (sandbox_mkdirs(dst) != 0)
			return -1;
		snprintf(dst, sizeof dst, "%s%s", root, src);
		return symlink(target, dst) != 0 && errno != EEXIST ? -1 : 0;
	}
	if (S_ISDIR(st.st_mode)) {
		if (sandbox_mkdirs(dst) != 0)
			return -1;
	} else {
		*strrchr(dst, '/') = '\0';
		if (sandbox_mkdirs(dst) != 0)
			return -1;
		snprintf(dst, sizeof dst, "%s%s", root, src);
		if ((fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0)
			return -1;
		close(fd);
	}
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) != 0)
		return -1;
	if (!rw && mount(NULL, dst, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY |
	    sandbox_locked(src), NULL) != 0)
		return -1;
	return 0;
}

/* Enter the sandbox (see sandbox.h). */
int
sandbox_enter(const struct sandbox *sb)
{
	char		 map[64], old[PATH_MAX];
	uid_t		 uid = geteuid();
	gid_t		 gid = getegid();
	size_t		 i;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET |
	    CLONE_NEWIPC | CLONE_NEWUTS) != 0)
		return -1;
	/* ourselves, and no one else, inside */
	if (sandbox_write("/proc/self/setgroups", "deny") != 0 && errno !=
	    ENOENT)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (sandbox_write("/proc/self/uid_map", map) != 0)
		return -1;
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (sandbox_write("/proc/self/gid_map", map) != 0)
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("kctui-sandbox", sb->root, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0755,size=64m") != 0)
		return -1;
	for (i = 0; sb->ro != NULL && sb->ro[i] != NULL; i++)
		if (sandbox_bind(sb->root, sb->ro[i], 0) != 0)
			return -1;
	if (sb->rw != NULL && sandbox_bind(sb->root, sb->rw, 1) != 0)
		return -1;
	if (sandbox_bind(sb->root, "/dev/null", 1) != 0)
		return -1;
	snprintf(old, sizeof old, "%s/tmp", sb->root);
	if (mkdir(old, 01777) != 0 && errno != EEXIST)
		return -1;
	snprintf(old, sizeof old, "%s/.old", sb->root);
	if (mkdir(old, 0700) != 0 && errno != EEXIST)
		return -1;
	if (chdir(sb->root) != 0 ||
	    syscall(SYS_pivot_root, ".", ".old") != 0 || chdir("/") != 0 ||
	    umount2("/.old", MNT_DETACH) != 0 || rmdir("/.old") != 0)
		return -1;
	return 0;
}
