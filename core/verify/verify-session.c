/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-session.c - the session side of kctui verify, shared by the
 * command line (cli/cmd-verify.c) and the browser (tui/verify.c): see
 * verify-session.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/util.h"
#include "../decisions.h"
#include "../session.h"
#include "verify-session.h"

/* A file of the bundle, or the path given; NULL with *cause when neither
 * exists. */
static char *
verify_input(struct session *s, const char *given, const char *name,
    const char *what, char **cause)
{
	static const char *const ext[] = { "", ".xz", ".gz" };
	char	*p;
	size_t	 i;

	if (given != NULL)
		return session_path(s, given);
	for (i = 0; i < 3; i++) {
		p = xasprintf("%s/%s%s", s->bundles[0], name, ext[i]);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	*cause = xasprintf("%s: the bundle has no %s file (%s; "
	    "docs/evidence.md)", s->bundles[0], name, what);
	return NULL;
}

/* The bundle's files, the vm and the workload loaded. */
int
verify_inputs_load(struct session *s, struct verify_inputs *vi,
    const char *base, const char *workload, char **cause)
{
	memset(vi, 0, sizeof *vi);
	if ((vi->base = verify_input(s, base, "config",
	    "the untrimmed config; or give --base FILE", cause)) == NULL ||
	    (vi->workload_path = verify_input(s, workload, "workload",
	    "the script whose steps judge a boot; or give --workload "
	    "SCRIPT", cause)) == NULL ||
	    (vi->vm_path = verify_input(s, NULL, "vm",
	    "the QEMU machine the bundle was recorded on", cause)) == NULL)
		return -1;
	if (vm_spec_load(&vi->spec, vi->vm_path, cause) != 0 ||
	    workload_load(&vi->wl, vi->workload_path, cause) != 0)
		return -1;
	return 0;
}

/* Free what verify_inputs_load filled. */
void
verify_inputs_free(struct verify_inputs *vi)
{
	vm_spec_free(&vi->spec);
	workload_free(&vi->wl);
	free(vi->base);
	free(vi->workload_path);
	free(vi->vm_path);
	memset(vi, 0, sizeof *vi);
}

/* The O= build directory: one per tree in the caches' directory. */
char *
verify_work_dir(struct session *s, const char *work, char **cause)
{
	char	 tree[PATH_MAX];

	if (work != NULL)
		return session_path(s, work);
	if (s->cache_dir == NULL || realpath(".", tree) == NULL) {
		*cause = xstrdup("verify keeps its build in the cache "
		    "directory, and there is none (--no-cache or no HOME): "
		    "give --work-dir DIR");
		return NULL;
	}
	return xasprintf("%s/verify-%016llx", s->cache_dir,
	    (unsigned long long)hash_buf64(tree, strlen(tree)));
}

/* "needed at boot: STEP" */
char *
verify_keep_reason(const struct verify_trim *tr)
{
	return xasprintf("needed at boot: %s", tr->step);
}

/* Each option put back, as a keep decision. */
size_t
verify_keep_decisions(struct decisions *d, const struct verify *v)
{
	char	*reason;
	size_t	 i, n = 0;

	for (i = 0; i < v->ntrims; i++) {
		if (!v->trims[i].kept)
			continue;
		reason = verify_keep_reason(&v->trims[i]);
		decisions_set(d, v->trims[i].name, DECISION_KEEP, reason);
		free(reason);
		n++;
	}
	return n;
}

/* Why the run is not verified. */
char *
verify_why(const struct verify *v, double timeout, bool no_fill_back)
{
	char *why, *all;

	if (v->build_error != NULL)
		why = xasprintf("the build failed: %s", v->build_error);
	else if (v->result.timed_out)
		why = xasprintf("the guest timed out after %.0f s (at %s; "
		    "--timeout S gives it longer)", timeout > 0 ? timeout :
		    600.0, v->failure != NULL ? v->failure : "?");
	else
		why = xasprintf("step %s failed", v->failure != NULL ?
		    v->failure : "?");
	if (no_fill_back || v->ntrims == 0)
		return why;
	all = xasprintf("%s, even with every trim put back: the untrimmed "
	    "config fails it too", why);
	free(why);
	return all;
}
