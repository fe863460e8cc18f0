/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace-root.c - the Debian root verify's userspace step boots: made
 * by mmdebstrap (the distribution's tool for it, from the release's own
 * packages: minbase, systemd-sysv, udev, kmod) with the check put in by
 * its customize hook (userspace-guest.c), as an ext2 image (genext2fs,
 * no privilege needed) turned into ext4 with room to write, once per
 * release, architecture and recipe, in the kctui cache
 * (CACHE/userspace/debian-SUITE-ARCH-RECIPE.img). A root there is used
 * as it is: never remade by surprise (rm it to have it made again); a
 * change of the recipe in kctui gives another name. It is made under a
 * lock and under a temporary name renamed at the end, so a second run
 * waits and a stopped one leaves no half-made root. Each boot attaches
 * it with QEMU's snapshot=on: what the guest writes is thrown away.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "userspace.h"

/* What the root has beyond minbase (udev comes with systemd's
 * recommends in a full install; minbase needs it named). */
#define US_PACKAGES	"systemd-sysv,udev,kmod"
/* Room left to write after the packages (the journal, /var). */
#define US_ROOM		"+512M"

/* The recipe's hash: the packages, the hook, the steps after. */
static unsigned long long
us_recipe(void)
{
	uint64_t h = hash_buf64(US_PACKAGES, strlen(US_PACKAGES));

	h = hash_fnv64(h, userspace_hook_sh, strlen(userspace_hook_sh));
	h = hash_fnv64(h, "ext4 " US_ROOM, strlen("ext4 " US_ROOM));
	return (unsigned long long)(h & 0xffffffffULL);
}

/* The release's code name from a line "VERSION_CODENAME=x" of
 * /etc/os-release, or NULL (malloc'd). */
static char *
us_host_suite(void)
{
	char	*text, *p, *e, *s = NULL;
	size_t	 len;

	if ((text = file_read_all("/etc/os-release", &len)) == NULL)
		return NULL;
	for (p = text; p != NULL && *p != '\0'; p = e != NULL ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (strncmp(p, "VERSION_CODENAME=", 17) == 0) {
			p += 17;
			len = e != NULL ? (size_t)(e - p) : strlen(p);
			if (len > 0 && strspn(p, "abcdefghijklmnopqrstuvwxyz") ==
			    len)
				s = xstrndup(p, len);
			break;
		}
	}
	free(text);
	return s;
}

/* The suite (see userspace.h): Debian's kernel series by release. */
char *
userspace_suite(const char *uname_text)
{
	static const struct { const char *ver, *suite; } debian[] = {
		{ "Debian 6.12.", "trixie" }, { "Debian 6.1.", "bookworm" },
		{ "Debian 5.10.", "bullseye" }, { "Debian 4.19.", "buster" },
	};
	char	*s;
	size_t	 i;

	for (i = 0; uname_text != NULL && i < sizeof debian / sizeof *debian;
	    i++)
		if (strstr(uname_text, debian[i].ver) != NULL)
			return xstrdup(debian[i].suite);
	if ((s = us_host_suite()) != NULL)
		return s;
	return xstrdup("bookworm");
}

/* The cache directory (malloc'd), or NULL when there is no home. */
static char *
us_cache_dir(const char *cache)
{
	const char	*e;

	if (cache != NULL)
		return xstrdup(cache);
	if ((e = getenv("KCTUI_CACHE")) != NULL && *e != '\0')
		return xstrdup(e);
	if ((e = getenv("XDG_CACHE_HOME")) != NULL && *e != '\0')
		return xasprintf("%s/kctui", e);
	if ((e = getenv("HOME")) != NULL && *e != '\0')
		return xasprintf("%s/.cache/kctui", e);
	return NULL;
}

/* Hand a child's line to the caller's log, and keep the last ones for
 * an error. */
struct us_lines {
	struct userspace_root *r;
	struct strbuf	 last;
};

static void
us_line(void *arg, const char *line, size_t len)
{
	struct us_lines	*l = arg;
	char		*s;

	if (l->r->log != NULL) {
		s = xstrndup(line, len);
		l->r->log(l->r->arg, s);
		free(s);
	}
	if (len == 0)
		return;
	strbuf_reset(&l->last);
	strbuf_add(&l->last, line, len);
}

/* Run one step of the making; ok_codes: exit codes that are success
 * besides 0 (e2fsck's 1: "errors corrected"). -1 with *cause. */
static int
us_run(struct userspace_root *r, char *const *argv, int ok_code,
    char **cause)
{
	struct proc_opts	 o;
	struct proc_result	 pr;
	struct us_lines		 l;
	int			 rc = 0;

	memset(&o, 0, sizeof o);
	memset(&l, 0, sizeof l);
	l.r = r;
	strbuf_init(&l.last);
	o.argv = argv;
	o.timeout = 1800;
	o.cancel = r->cancel;
	o.line = us_line;
	o.arg = &l;
	if (proc_run(&o, &pr, cause) != 0)
		rc = -1;
	else if (pr.cancelled) {
		*cause = xstrdup("cancelled");
		rc = -1;
	} else if (pr.exit_code != 0 && pr.exit_code != ok_code) {
		*cause = xasprintf("%s exited with status %d%s%s", argv[0],
		    pr.exit_code, l.last.len > 0 ? ": " : "",
		    l.last.len > 0 ? l.last.s : "");
		rc = -1;
	}
	strbuf_free(&l.last);
	return rc;
}

/* Make the root at tmp: mmdebstrap's ext2, then ext4 with room. */
static int
us_make(struct userspace_root *r, const char *tmp, char **cause)
{
	char	*inc = xstrdup("--include=" US_PACKAGES);
	char	*hook = xasprintf("--customize-hook=%s", userspace_hook_sh);
	char	*arch = xasprintf("--architectures=%s", r->arch);
	char	*mm[] = { "mmdebstrap", "--variant=minbase", "--format=ext2",
	    arch, inc, hook, (char *)r->suite, (char *)tmp, NULL };
	char	*tune[] = { "tune2fs", "-O",
	    "extents,uninit_bg,dir_index,has_journal", (char *)tmp, NULL };
	char	*fsck[] = { "e2fsck", "-fpD", (char *)tmp, NULL };
	char	*grow[] = { "truncate", "-s", US_ROOM, (char *)tmp, NULL };
	char	*resize[] = { "resize2fs", "-f", (char *)tmp, NULL };
	int	 rc;

	rc = us_run(r, mm, 0, cause);
	if (rc == 0)
		rc = us_run(r, tune, 0, cause);
	if (rc == 0)
		rc = us_run(r, fsck, 1, cause);
	if (rc == 0)
		rc = us_run(r, grow, 0, cause);
	if (rc == 0)
		rc = us_run(r, resize, 0, cause);
	free(inc);
	free(hook);
	free(arch);
	return rc;
}

/* The root from the cache, made when missing (see userspace.h). */
int
userspace_root_get(struct userspace_root *r, char **cause)
{
	struct stat	 sb;
	char		*dir, *base, *tmp = NULL, *why = NULL;
	double		 t0;
	int		 lock = -1, rc = -1;

	if ((base = us_cache_dir(r->cache)) == NULL) {
		*cause = xstrdup("no cache directory for the userspace root "
		    "(set KCTUI_CACHE or HOME)");
		return -1;
	}
	dir = xasprintf("%s/userspace", base);
	r->image = xasprintf("%s/debian-%s-%s-%08llx.img", dir, r->suite,
	    r->arch, us_recipe());
	if (stat(r->image, &sb) == 0 && S_ISREG(sb.st_mode))
		goto have;
	if (proc_find("mmdebstrap", &why) != 0 || proc_find("genext2fs",
	    &why) != 0) {
		*cause = xasprintf("the userspace step's root is made with "
		    "mmdebstrap and genext2fs (make deps, or apt-get install "
		    "mmdebstrap genext2fs): %s", why);
		goto out;
	}
	if (path_mkdir_p(dir, 0755, cause) != 0)
		goto out;
	if ((lock = path_lock(r->image)) < 0) {
		*cause = xasprintf("%s: cannot lock: %s", dir, strerror(errno));
		goto out;
	}
	/* another run may have made it while this one waited */
	if (stat(r->image, &sb) == 0 && S_ISREG(sb.st_mode))
		goto have;
	tmp = xasprintf("%s/.debian-%s-%s.%ld.tmp", dir, r->suite, r->arch,
	    (long)getpid());
	unlink(tmp);
	t0 = clock_now();
	if (us_make(r, tmp, &why) != 0) {
		*cause = xasprintf("making the userspace root (%s, %s) with "
		    "mmdebstrap: %s", r->suite, r->arch, why);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, r->image) != 0) {
		*cause = xasprintf("%s: %s", r->image, strerror(errno));
		unlink(tmp);
		goto out;
	}
	r->built = true;
	r->seconds = clock_now() - t0;
	if (stat(r->image, &sb) != 0) {
		*cause = xasprintf("%s: %s", r->image, strerror(errno));
		goto out;
	}
have:
	r->bytes = (long long)sb.st_blocks * 512;
	rc = 0;
out:
	if (lock >= 0)
		path_unlock(lock);
	if (rc != 0) {
		free(r->image);
		r->image = NULL;
	}
	free(why);
	free(tmp);
	free(dir);
	free(base);
	return rc;
}

void
userspace_root_free(struct userspace_root *r)
{
	free(r->image);
	r->image = NULL;
}
