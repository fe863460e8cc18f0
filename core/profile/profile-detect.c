/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile-detect.c - the profiles a bundle shows the recorded machine
 * used, applied by themselves: today systemd, whose boot a busybox
 * verify never exercises (issue 34). What the recording shows of it is
 * in its mounts file (the system's mount points are kept there, see
 * docs/evidence.md): systemd mounts the cgroup2 hierarchy at
 * /sys/fs/cgroup (its unified layout, Debian's default since 11), or a
 * named "systemd" cgroup at /sys/fs/cgroup/systemd (its hybrid and
 * legacy layouts), and its proc-sys-fs-binfmt_misc.automount is an
 * autofs mount at /proc/sys/fs/binfmt_misc. No other init does these.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../evidence/zstream.h"
#include "profile.h"

/* Whether the n bytes at s are the word w. */
static bool
profile_word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* What the mounts text shows of systemd, or NULL (malloc'd): its lines
 * are "source point type options 0 0". */
static char *
profile_mounts_systemd(const char *text)
{
	const char	*p, *e, *w[3];
	size_t		 wn[3], k;

	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = p + strcspn(p, "\n");
		for (k = 0; k < 3; k++) {
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
			w[k] = p;
			while (p < e && *p != ' ' && *p != '\t')
				p++;
			wn[k] = (size_t)(p - w[k]);
		}
		if (wn[2] == 0)
			continue;
		if (profile_word_is(w[2], wn[2], "cgroup2") &&
		    profile_word_is(w[1], wn[1], "/sys/fs/cgroup"))
			return xstrdup("cgroup2 mounted at /sys/fs/cgroup");
		if (profile_word_is(w[2], wn[2], "cgroup") &&
		    profile_word_is(w[1], wn[1], "/sys/fs/cgroup/systemd"))
			return xstrdup("a systemd cgroup hierarchy at "
			    "/sys/fs/cgroup/systemd");
		if (profile_word_is(w[2], wn[2], "autofs") &&
		    profile_word_is(w[1], wn[1], "/proc/sys/fs/binfmt_misc"))
			return xstrdup("an autofs mount at "
			    "/proc/sys/fs/binfmt_misc");
	}
	return NULL;
}

char *
profile_bundle_systemd(const char *bundle)
{
	char	*text, *why;

	if ((text = zstream_bundle_text(bundle, "mounts")) == NULL)
		return NULL;
	why = profile_mounts_systemd(text);
	free(text);
	return why;
}
