/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-session.c - the session side of kctui verify, shared by the
 * command line (cli/cmd-verify.c) and the browser (tui/verify.c): see
 * verify-session.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "../lib/proc.h"
#include "../lib/util.h"
#include "trim/decisions.h"
#include "profile/profile.h"
#include "kbuild/kbuild.h"
#include "evidence/evidence.h"
#include "session.h"
#include "twin/twin.h"
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

/* Whether the bundle has a file (plain, .xz or .gz). */
static bool
verify_has(struct session *s, const char *name)
{
	char	*cause = NULL, *p = verify_input(s, NULL, name, "", &cause);

	free(cause);
	free(p);
	return p != NULL;
}

/*
 * The bundle has no vm: make its twin (core/twin) from its evidence, and
 * write its vm, and its workload when the bundle has none, to
 * CACHE/twin, where the user can read them and the loaders' messages
 * point. -1 with *cause.
 */
static int
verify_inputs_twin(struct session *s, struct verify_inputs *vi,
    bool want_workload, char **cause)
{
	const struct twin_device *d;
	struct twin	 t;
	struct evidence	*ev = evidence_new();
	char		*dir, *why = NULL;
	size_t		 i, n;
	int		 rc = -1;

	memset(&t, 0, sizeof t);
	if (s->cache_dir == NULL) {
		*cause = xasprintf("%s: the bundle has no vm file, and there "
		    "is no caches' directory to write its twin to (kctui "
		    "twin -e BUNDLE -o DIR writes one to give the bundle)",
		    s->bundles[0]);
		evidence_free(ev);
		return -1;
	}
	evidence_set_cache_dir(ev, s->cache_dir);
	if (evidence_load(ev, s->bundles[0], NULL, NULL, cause) != 0)
		goto out;
	/* The devices of the QEMU that boots it; without one, the table's
	 * (verify then says QEMU is missing). */
	if (session_twin(s, ev, NULL, &t, NULL, &why) != 0) {
		*cause = xasprintf("%s: the bundle has no vm file and no twin "
		    "machine can be made from it: %s", s->bundles[0], why);
		free(why);
		goto out;
	}
	dir = xasprintf("%s/twin", s->cache_dir);
	vi->vm_path = xasprintf("%s/vm", dir);
	if (file_write_atomic(vi->vm_path, t.vm, strlen(t.vm), 0644,
	    ATOMIC_MKDIRS, cause) != 0) {
		free(dir);
		goto out;
	}
	if (want_workload) {
		vi->workload_path = xasprintf("%s/workload", dir);
		if (file_write_atomic(vi->workload_path, t.workload,
		    strlen(t.workload), 0644, ATOMIC_MKDIRS, cause) != 0) {
			free(dir);
			goto out;
		}
	}
	n = twin_unverifiable_count(&t);
	vi->twin = xasprintf("the twin made from the evidence (%s; kctui twin "
	    "-e BUNDLE prints it): %zu bound device%s with no twin", dir, n,
	    n == 1 ? "" : "s");
	free(dir);
	for (i = 0; (d = twin_unverifiable_at(&t, i)) != NULL; i++) {
		struct verify_nontwin *nt;

		vi->nontwin = xrealloc(vi->nontwin, (vi->nnontwin + 1) *
		    sizeof *vi->nontwin);
		nt = &vi->nontwin[vi->nnontwin++];
		nt->bus = xstrdup(d->bus);
		nt->driver = xstrdup(d->driver);
		nt->path = xstrdup(d->path);
		nt->module = d->module != NULL ? xstrdup(d->module) : NULL;
		nt->ids = twin_device_ids(d);
		nt->why = xstrdup(d->why != NULL ? d->why : "no twin");
	}
	for (i = 0; i < t.ndevices; i++) {
		struct vm_driver *l;

		if (t.devices[i].state != TWIN_WITH)
			continue;
		vi->loose = xrealloc(vi->loose, (vi->nloose + 1) *
		    sizeof *vi->loose);
		l = &vi->loose[vi->nloose++];
		l->bus = xstrdup(t.devices[i].bus);
		l->driver = xstrdup(t.devices[i].driver);
		l->device = xstrdup(t.devices[i].path);
	}
	/* The helpers the generated workload runs (tcploop, afalg) are the
	 * bundle's workload.d sources. */
	if (want_workload && workload_load(&vi->wl, vi->workload_path,
	    cause) == 0) {
		free(vi->wl.helpers);
		vi->wl.helpers = t.helpers != NULL ? xstrdup(t.helpers) : NULL;
		rc = 1;
	} else if (!want_workload)
		rc = 0;
out:
	twin_free(&t);
	evidence_free(ev);
	return rc;
}

/* The bundle's files, the vm and the workload loaded; a bundle with no
 * vm gets its twin (and the twin's workload when it has none). */
int
verify_inputs_load(struct session *s, struct verify_inputs *vi,
    const char *base, const char *workload, char **cause)
{
	int	r = 0;

	memset(vi, 0, sizeof *vi);
	if ((vi->base = verify_input(s, base, "config",
	    "the untrimmed config; or give --base FILE", cause)) == NULL)
		return -1;
	if (!verify_has(s, "vm") && (r = verify_inputs_twin(s, vi,
	    workload == NULL && !verify_has(s, "workload"), cause)) < 0)
		return -1;
	if (vi->workload_path == NULL && (vi->workload_path =
	    verify_input(s, workload, "workload", "the script whose steps "
	    "judge a boot; or give --workload SCRIPT", cause)) == NULL)
		return -1;
	if (vi->vm_path == NULL && (vi->vm_path = verify_input(s, NULL, "vm",
	    "the QEMU machine the bundle was recorded on", cause)) == NULL)
		return -1;
	if (vm_spec_load(&vi->spec, vi->vm_path, cause) != 0 ||
	    (r != 1 && workload_load(&vi->wl, vi->workload_path, cause) != 0))
		return -1;
	return 0;
}

/*
 * Add name (len bytes) to the list of profile names *v (*n of them)
 * unless it is there: a decision names a profile once per option.
 */
static void
verify_profile_name(char ***v, size_t *n, const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && strncmp((*v)[i], name, len) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrndup(name, len);
}

/*
 * The profiles the session's decisions name (a keep whose reason is
 * "need containers, wireguard: ...", as `kctui need` records them):
 * each one's workload step is appended to the run's workload when the
 * workload has no step of that name, so that the boot proves what the
 * profile kept. A profile no longer found, or without a step, is said
 * and skipped; a decisions file that cannot be read is said by the
 * save at the run's end, not here. How many steps were added.
 */
size_t
verify_profile_steps(struct session *s, struct workload *wl)
{
	struct decisions	*d;
	struct profile		*pr;
	enum decision		 dec;
	const char		*reason, *p, *colon, *comma;
	char			**names = NULL, *cause = NULL, *text;
	size_t			 i, n = 0, added = 0, count;

	if (s->decisions == NULL || access(s->decisions, F_OK) != 0 ||
	    (d = decisions_load(s->decisions, NULL)) == NULL)
		return 0;
	count = decisions_count(d);
	for (i = 0; i < count; i++) {
		decisions_at(d, i, &dec, &reason);
		if (dec != DECISION_KEEP || reason == NULL ||
		    strncmp(reason, "need ", 5) != 0 ||
		    (colon = strchr(reason, ':')) == NULL)
			continue;
		for (p = reason + 5; p < colon; p = comma + 2) {
			if ((comma = strstr(p, ", ")) == NULL || comma > colon)
				comma = colon;
			verify_profile_name(&names, &n, p, (size_t)(comma - p));
			if (comma == colon)
				break;
		}
	}
	decisions_free(d);
	for (i = 0; i < n; i++) {
		if ((pr = profile_find(names[i], &cause)) == NULL) {
			session_say(s, "verify: the decisions name the %s "
			    "profile, not run: %s", names[i], cause);
			free(cause);
			cause = NULL;
		} else if ((text = profile_workload_text(pr)) == NULL)
			session_say(s, "verify: the %s profile has no step to "
			    "run", names[i]);
		else if (profile_workload_has_step(wl->text, pr->step_name))
			free(text);
		else if (workload_append(wl, text, &cause) != 0) {
			session_say(s, "verify: the %s profile's step not "
			    "added: %s", names[i], cause);
			free(cause);
			cause = NULL;
			free(text);
		} else {
			session_say(s, "verify: step %s added to the workload "
			    "(the decisions keep the %s profile's options; "
			    "%s)", pr->step_name, names[i], pr->path);
			added++;
			free(text);
		}
		profile_free(pr);
		free(names[i]);
	}
	free(names);
	return added;
}

/*
 * Whether the userspace step runs, and why (for the report): asked,
 * refused, or by itself when the bundle's mounts show that the recorded
 * machine ran systemd (core/profile/profile-detect.c: cgroup2 mounted at
 * /sys/fs/cgroup, a systemd cgroup hierarchy, the binfmt_misc automount;
 * no other init makes these). The same for the CLI and the browser.
 */
static void
verify_userspace_choose(const struct verify_prepare_opts *o,
    struct verify_setup *vs, struct verify *v)
{
	char	*sign;

	v->userspace = false;
	if (o->userspace == VERIFY_US_ON) {
		v->userspace = true;
		v->userspace_why = "--userspace";
		return;
	}
	if (o->userspace == VERIFY_US_OFF) {
		v->userspace_why = "--no-userspace";
		return;
	}
	sign = v->bundle != NULL ? profile_bundle_systemd(v->bundle) : NULL;
	if (sign != NULL) {
		v->userspace = true;
		vs->userspace_why = xasprintf("the bundle's mounts show the "
		    "recorded machine ran systemd (%s); --no-userspace skips "
		    "it", sign);
		free(sign);
	} else
		vs->userspace_why = xstrdup("the bundle's mounts show no sign "
		    "of systemd (cgroup2 at /sys/fs/cgroup, a systemd cgroup "
		    "hierarchy, the binfmt_misc automount); --userspace boots "
		    "it on any bundle");
	v->userspace_why = vs->userspace_why;
}

/* Point v at the inputs (see verify-session.h). */
void
verify_inputs_apply(const struct verify_inputs *vi, struct verify *v)
{
	v->base = vi->base;
	v->spec = &vi->spec;
	v->workload = &vi->wl;
	v->twin = vi->twin;
	v->nontwin = vi->nontwin;
	v->nnontwin = vi->nnontwin;
	v->loose = vi->loose;
	v->nloose = vi->nloose;
}

/* Free what verify_inputs_load filled. */
void
verify_inputs_free(struct verify_inputs *vi)
{
	size_t	i;

	vm_spec_free(&vi->spec);
	workload_free(&vi->wl);
	free(vi->base);
	free(vi->workload_path);
	free(vi->vm_path);
	free(vi->twin);
	for (i = 0; i < vi->nnontwin; i++) {
		free(vi->nontwin[i].bus);
		free(vi->nontwin[i].driver);
		free(vi->nontwin[i].path);
		free(vi->nontwin[i].module);
		free(vi->nontwin[i].ids);
		free(vi->nontwin[i].why);
	}
	free(vi->nontwin);
	for (i = 0; i < vi->nloose; i++) {
		free(vi->loose[i].bus);
		free(vi->loose[i].driver);
		free(vi->loose[i].device);
	}
	free(vi->loose);
	memset(vi, 0, sizeof *vi);
}

/* Set up a run from the session (see verify-session.h). */
int
verify_prepare(struct session *s, const struct verify_prepare_opts *o,
    struct verify_setup *vs, struct verify *v, char **cause)
{
	char	tree[PATH_MAX];
	long	ncpu;

	memset(vs, 0, sizeof *vs);
	if (s->nbundles != 1) {
		*cause = xstrdup("verify needs one evidence bundle: -e BUNDLE "
		    "(its vm and workload files say what to boot and run)");
		return -1;
	}
	if (verify_inputs_load(s, &vs->vi, o->base, o->workload, cause) != 0)
		return -1;
	verify_profile_steps(s, &vs->vi.wl);
	if (realpath(".", tree) == NULL) {
		*cause = xasprintf(".: %s", strerror(errno));
		return -1;
	}
	vs->tree = xstrdup(tree);
	if ((vs->work = verify_work_dir(s, o->work, cause)) == NULL ||
	    path_mkdir_p(vs->work, 0755, cause) != 0)
		return -1;
	v->tree = vs->tree;
	verify_inputs_apply(&vs->vi, v);
	v->bundle = s->bundles[0];
	v->work = vs->work;
	verify_userspace_choose(o, vs, v);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	v->jobs = o->jobs > 0 ? o->jobs : s->jobs > 0 ? s->jobs :
	    ncpu > 0 ? (int)ncpu : 1;
	return 0;
}

/* The Kbuild index into vs and v (see verify-session.h). */
int
verify_prepare_index(struct session *s, struct verify_setup *vs,
    struct verify *v, char **cause)
{
	const char	*srcarch = envp_get(s->envp, "SRCARCH");
	char		*kbcache = session_cache_file(s, "kbuild");

	vs->kb = kbuild_scan_cached(vs->tree, srcarch != NULL ? srcarch :
	    "x86", kbcache, cause);
	free(kbcache);
	v->kb = vs->kb;
	return vs->kb != NULL ? 0 : -1;
}

/* Free what verify_prepare and verify_prepare_index made. */
void
verify_setup_free(struct verify_setup *vs)
{
	verify_inputs_free(&vs->vi);
	if (vs->kb != NULL)
		kbuild_free(vs->kb);
	free(vs->tree);
	free(vs->work);
	free(vs->userspace_why);
	memset(vs, 0, sizeof *vs);
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
