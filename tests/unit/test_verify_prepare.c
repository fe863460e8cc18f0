/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_verify_prepare.c - the one setup of a verify run that `kctui
 * verify` (cli/cmd-verify.c) and the browser's v (tui/verify.c) both
 * call: on the real 6.1 tree, with a copy of the cloud-vm bundle that has
 * no vm (a `kctui collect` bundle), and a bound vsock device QEMU has no
 * twin of. The run gets the twin, its no-twin device, its loose devices,
 * the work directory, the jobs and the Kbuild index informed fill-back
 * uses: what the browser's setup used to leave out.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/session.h"
#include "../../core/verify-session.h"

#define UNIT_PREFIX "unit/verify_prepare/"
#include "unit.h"

#define FIXTURE "tests/fixtures/evidence/cloud-vm"

/* The bundle: cloud-vm without vm and workload, and a vsock device. */
static bool
make_bundle(const char *repo, const char *dir)
{
	char	*cmd;
	int	 r;

	cmd = xasprintf("cp -r '%s/" FIXTURE "' '%s' && rm -rf '%s/vm' "
	    "'%s/workload' '%s/workload.d' && echo 'virtio "
	    "vmw_vsock_virtio_transport pci0000:00/0000:00:06.0/virtio5 "
	    "vmw_vsock_virtio_transport' >> '%s/drivers'", repo, dir, dir,
	    dir, dir, dir);
	r = system(cmd);
	free(cmd);
	return r == 0;
}

/* A session in the tree with the bundle, as the front ends make it. */
static bool
open_session(struct session *s, const char *tree, const char **bundles,
    int n)
{
	char	*cause = NULL;
	int	 i;

	session_init(s);
	s->dir = tree;
	for (i = 0; i < n; i++)
		session_add_bundle(s, bundles[i]);
	if (session_setup(s, &cause) != 0) {
		check("session", 0, cause);
		free(cause);
		return false;
	}
	return true;
}

int
main(void)
{
	struct verify_prepare_opts	 po;
	struct verify_setup		 vs;
	struct verify			 v;
	struct session			 s;
	char				 tmp[] = "/tmp/kctui-vprep.XXXXXX";
	char				 repo[PATH_MAX], tbuf[PATH_MAX];
	char				*bundle, *cache, *cause = NULL;
	const char			*tree, *bundles[2];
	size_t				 i, vsock = 0;
	struct stat			 st;

	if (getcwd(repo, sizeof repo) == NULL || !unit_tmpdir(tmp))
		return 1;
	if ((tree = unit_find_tree("Kconfig", tbuf, sizeof tbuf)) == NULL) {
		check("tree", 0, "no Linux 6.1 tree (tests/real/tree.sh "
		    "unpacks it)");
		return 1;
	}
	bundle = xasprintf("%s/bundle", tmp);
	cache = xasprintf("%s/cache", tmp);
	setenv("KCTUI_CACHE_DIR", cache, 1);
	if (!make_bundle(repo, bundle)) {
		check("bundle", 0, "could not copy the fixture");
		return 1;
	}

	bundles[0] = bundle;
	if (!open_session(&s, tree, bundles, 1))
		return 1;
	memset(&po, 0, sizeof po);
	memset(&v, 0, sizeof v);
	if (verify_prepare(&s, &po, &vs, &v, &cause) != 0) {
		check("prepare", 0, cause);
		return 1;
	}
	check("prepare", 1, NULL);
	checkf("twin", v.twin != NULL && strstr(v.twin, "twin made from "
	    "the evidence") != NULL, "%s", v.twin != NULL ? v.twin : "(none)");
	for (i = 0; i < v.nnontwin; i++)
		vsock += strcmp(v.nontwin[i].driver,
		    "vmw_vsock_virtio_transport") == 0;
	checkf("nontwin-vsock", vsock == 1, "%zu no-twin devices, %zu vsock",
	    v.nnontwin, vsock);
	checkf("loose", v.nloose > 0 && v.loose != NULL, "%zu", v.nloose);
	checkf("inputs", v.base != NULL && v.spec != NULL &&
	    v.workload != NULL && v.workload->nsteps > 0, "base %s",
	    v.base != NULL ? v.base : "(none)");
	checkf("work-dir", v.work != NULL && stat(v.work, &st) == 0 &&
	    S_ISDIR(st.st_mode) && strncmp(v.work, cache, strlen(cache)) == 0,
	    "%s", v.work != NULL ? v.work : "(none)");
	checkf("tree", v.tree != NULL && realpath(tree, tbuf) != NULL &&
	    strcmp(v.tree, tbuf) == 0, "%s", v.tree != NULL ? v.tree : "");
	checkf("bundle-jobs", v.bundle == s.bundles[0] && v.jobs > 0,
	    "jobs %d", v.jobs);
	check("no-index-yet", v.kb == NULL, "the index is the second step");
	if (verify_prepare_index(&s, &vs, &v, &cause) != 0) {
		check("index", 0, cause);
		free(cause);
		cause = NULL;
	} else
		check("index", v.kb != NULL, NULL);
	verify_setup_free(&vs);
	session_free(&s);

	/* Two bundles: the front ends' one message. */
	bundles[1] = FIXTURE;
	if (!open_session(&s, tree, bundles, 2))
		return 1;
	memset(&v, 0, sizeof v);
	checkf("two-bundles", verify_prepare(&s, &po, &vs, &v, &cause) != 0 &&
	    cause != NULL && strstr(cause, "verify needs one evidence "
	    "bundle") != NULL, "%s", cause != NULL ? cause : "accepted");
	free(cause);
	verify_setup_free(&vs);
	session_free(&s);

	unit_rmtree(tmp);
	free(bundle);
	free(cache);
	return unit_failures != 0;
}
