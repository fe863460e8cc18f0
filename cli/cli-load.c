/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-load.c - what every command that reads a configuration or evidence
 * does first: parse the tree's Kconfig, read .config, load bundles and
 * attribute them. Shared so that explain, suggest, export and the TUI see
 * exactly the same state as olddefconfig and evidence.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/attrib.h"
#include "../core/evidence.h"
#include "../core/kbuild.h"
#include "../core/srcindex.h"
#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/env.h"
#include "../lib/util.h"
#include "cli.h"

void
cli_warn_prefixed(void *arg, const char *text)
{
	(void)arg;
	fprintf(stderr, "kctui: %s\n", text);
}

void
cli_add_bundle(struct cli *c, const char *path)
{
	c->bundles = xrealloc(c->bundles, ((size_t)c->nbundles + 1) *
	    sizeof *c->bundles);
	c->bundles[c->nbundles++] = cli_path(c, path);
}

/* Engine warnings while reading for a query: the same text conf prints,
 * unless -s. */
static void
cli_open_warn(void *arg, const char *text)
{
	struct cli *c = arg;

	if (!c->silent)
		fprintf(stderr, "%s\n", text);
}

/* $(info,...) and conf's notes are noise for a query command, except the
 * one that says the values come from a defconfig because there is no
 * .config: "set by you" would otherwise puzzle. */
static void
cli_open_info(void *arg, const char *text)
{
	struct cli	*c = arg;
	const char	*name;

	if ((name = env_lookup(c->envp, "KCONFIG_CONFIG")) == NULL)
		name = ".config";
	if (!c->silent && strncmp(text, "using defaults found in ", 24) == 0)
		fprintf(stderr, "kctui: no %s: %s\n", name, text);
}

/* The $(shell) cache file of this tree, in c->cache, once. */
static void
cli_prepare_cache(struct cli *c)
{
	char cwd[PATH_MAX];

	if (c->cache == NULL && !c->no_cache && getcwd(cwd, sizeof cwd))
		c->cache = env_cache_path(c->envp, cwd);
}

struct kconfig *
cli_new_kconfig(struct cli *c, void (*warn)(void *, const char *),
    void (*info)(void *, const char *))
{
	struct kconfig_options	opt;

	memset(&opt, 0, sizeof opt);
	opt.envp = c->envp;
	cli_prepare_cache(c);
	opt.shell_cache = c->cache;
	opt.shell_jobs = c->jobs;
	opt.warn = warn;
	opt.info = info;
	opt.arg = c;
	return kconfig_new(&opt);
}

struct kconfig *
cli_open_config(struct cli *c)
{
	struct kconfig		*k;
	char			*cause = NULL;
	const char		*name;

	if (access(c->kconfig, R_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s (run kctui inside a kernel "
		    "tree, or give -C DIR or --kconfig FILE)\n", c->kconfig,
		    strerror(errno));
		return NULL;
	}
	k = cli_new_kconfig(c, cli_open_warn, cli_open_info);
	if (kconfig_parse(k, c->kconfig, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		goto fail;
	}
	if ((name = env_lookup(c->envp, "KCONFIG_CONFIG")) == NULL)
		name = ".config";
	if (access(name, F_OK) == 0 && access(name, R_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s\n", name, strerror(errno));
		goto fail;
	}
	if (c->config != NULL && !c->config_may_be_new &&
	    access(name, F_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s (--config names the "
		    "configuration to read)\n", name, strerror(errno));
		goto fail;
	}
	if (kconfig_read(k, NULL, &cause) < 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto fail;
	}
	kconfig_recalc(k);
	return k;
fail:
	free(cause);
	kconfig_free(k);
	return NULL;
}

/* The source index cache file for this tree: next to the $(shell)
 * cache, with the same per-tree hash. */
static char *
cli_srcindex_cache(struct cli *c)
{
	char	*shell, *p, cwd[PATH_MAX];

	if (c->no_cache || getcwd(cwd, sizeof cwd) == NULL)
		return NULL;
	if ((shell = env_cache_path(c->envp, cwd)) == NULL)
		return NULL;
	if ((p = strstr(shell, "/shell-")) != NULL)
		memcpy(p + 1, "srcix", 5);
	return shell;
}

/* The Kbuild index cache file for this tree: ".../kbuild-<hash>.cache"
 * for the $(shell) cache ".../shell-<hash>.cache"; NULL without one. */
static char *
cli_kbuild_cache(struct cli *c)
{
	char	*shell, *p, *path, cwd[PATH_MAX];

	if (c->no_cache || getcwd(cwd, sizeof cwd) == NULL)
		return NULL;
	if ((shell = env_cache_path(c->envp, cwd)) == NULL)
		return NULL;
	if ((p = strstr(shell, "/shell-")) == NULL) {
		free(shell);
		return NULL;
	}
	path = xasprintf("%.*s/kbuild-%s", (int)(p - shell), shell, p + 7);
	free(shell);
	return path;
}

/* "6.1" of "6.1.0-57-amd64" or "6.1.158": the length of major.minor. */
static size_t
cli_version_prefix(const char *v)
{
	size_t n = strspn(v, "0123456789");

	if (n == 0 || v[n] != '.')
		return 0;
	n++;
	n += strspn(v + n, "0123456789");
	return n;
}

/* Warn when a bundle was recorded on another kernel version than this
 * tree's: names of functions and modules drift between versions, so
 * its attribution is weaker (and "unmapped" grows). */
static void
cli_check_versions(struct cli *c, const struct evidence *ev,
    struct strbuf *out)
{
	const char		*tree = env_lookup(c->envp, "KERNELVERSION");
	const struct ev_bundle	*b;
	size_t			 tn, bn;
	int			 i;

	if (tree == NULL || (tn = cli_version_prefix(tree)) == 0)
		return;
	for (i = 0; i < evidence_nbundles(ev); i++) {
		b = evidence_bundle(ev, i);
		if (b->release == NULL)
			continue;
		bn = cli_version_prefix(b->release);
		if (bn == tn && strncmp(b->release, tree, tn) == 0)
			continue;
		strbuf_addf(out, "kctui: %s: recorded on Linux %s but this "
		    "tree is %s; names may not match, evidence is weaker\n",
		    b->path, b->release, tree);
	}
}

static double
cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Evidence readers' warnings, kept for the caller to print. */
static void
cli_warn_buffered(void *arg, const char *text)
{
	strbuf_addf(arg, "kctui: %s\n", text);
}

/*
 * The tree's indexes (Kbuild and sources) depend neither on the bundles
 * nor on each other: each is built on a thread of its own while the
 * bundles load (the walks of the tree wait on the kernel as much as they
 * compute).
 */
struct cli_index_job {
	const char	*srcarch;
	char		*cache;
	char		*kb_cache;	/* NULL: no cache */
	int		 jobs;
	struct kbuild	*kb;
	struct srcindex	*si;
	char		*kb_cause, *si_cause;
};

static void *
cli_kbuild_main(void *arg)
{
	struct cli_index_job *j = arg;

	j->kb = kbuild_scan_cached(".", j->srcarch, j->kb_cache,
	    &j->kb_cause);
	return NULL;
}

static void *
cli_srcindex_main(void *arg)
{
	struct cli_index_job *j = arg;

	j->si = srcindex_build(".", j->cache, j->jobs, &j->si_cause);
	return NULL;
}

/*
 * Load the bundles, index the tree and attribute; every message goes to
 * out (so a caller on another thread can print them in order). 0, or -1
 * with the reason in out.
 */
static int
cli_load_evidence(struct cli *c, struct cli_evidence *ce, struct strbuf *out)
{
	struct cli_index_job	 job;
	pthread_t		 th_kb, th_si;
	char			*cause = NULL, *cache, cwd[PATH_MAX];
	long			 cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool			 kb_thread, si_thread;
	int			 i, rc = 0;

	memset(ce, 0, sizeof *ce);
	if (c->nbundles == 0)
		return 0;
	ce->ev = evidence_new();
	if (!c->no_cache && getcwd(cwd, sizeof cwd) != NULL &&
	    (cache = env_cache_path(c->envp, cwd)) != NULL) {
		/* the directory of the per-tree caches */
		*strrchr(cache, '/') = '\0';
		evidence_set_cache_dir(ce->ev, cache);
		free(cache);
	}
	memset(&job, 0, sizeof job);
	if ((job.srcarch = env_lookup(c->envp, "SRCARCH")) == NULL)
		job.srcarch = "x86";
	job.cache = cli_srcindex_cache(c);
	job.kb_cache = cli_kbuild_cache(c);
	job.jobs = cpus > 0 ? (int)cpus : 1;
	kb_thread = pthread_create(&th_kb, NULL, cli_kbuild_main, &job) == 0;
	si_thread = pthread_create(&th_si, NULL, cli_srcindex_main,
	    &job) == 0;
	for (i = 0; i < c->nbundles; i++) {
		if (evidence_load(ce->ev, c->bundles[i], cli_warn_buffered,
		    out, &cause) != 0) {
			rc = -1;
			break;
		}
	}
	if (kb_thread)
		pthread_join(th_kb, NULL);
	else
		cli_kbuild_main(&job);
	if (si_thread)
		pthread_join(th_si, NULL);
	else
		cli_srcindex_main(&job);
	free(job.cache);
	free(job.kb_cache);
	ce->kb = job.kb;
	ce->si = job.si;
	/* The first failure in the sequential order: bundles, Kbuild,
	 * sources. */
	if (rc == 0 && (job.kb_cause != NULL || job.si_cause != NULL)) {
		if (job.kb_cause != NULL) {
			cause = job.kb_cause;
			job.kb_cause = NULL;
		} else {
			cause = job.si_cause;
			job.si_cause = NULL;
		}
		rc = -1;
	}
	free(job.kb_cause);
	free(job.si_cause);
	if (rc != 0) {
		strbuf_addf(out, "kctui: %s\n", cause);
		free(cause);
		cli_close_evidence(ce);
		return -1;
	}
	cli_check_versions(c, ce->ev, out);
	ce->a = attrib_build(ce->ev, ce->kb, ce->si, ".");
	return 0;
}

int
cli_open_evidence(struct cli *c, struct cli_evidence *ce)
{
	struct strbuf	out;
	int		rc;

	strbuf_init(&out);
	rc = cli_load_evidence(c, ce, &out);
	if (out.len != 0)
		fputs(out.s, stderr);
	strbuf_free(&out);
	return rc;
}

/* The evidence half of cli_open_both, on its own thread. */
struct cli_both_job {
	struct cli		*c;
	struct cli_evidence	*ce;
	struct strbuf		 out;
	double			 secs;
	int			 rc;
};


static void *
cli_both_main(void *arg)
{
	struct cli_both_job	*j = arg;
	double			 t0 = cli_now();

	j->rc = cli_load_evidence(j->c, j->ce, &j->out);
	j->secs = cli_now() - t0;
	return NULL;
}

/*
 * cli_open_config and cli_open_evidence at once: the two share nothing
 * until attribution meets the configuration in the caller, so the
 * bundles and the tree's indexes load while Kconfig parses. Messages come
 * out as the two calls one after the other would print them. The time
 * each half took goes to *t_config and *t_evidence (may be NULL).
 */
int
cli_open_both(struct cli *c, struct kconfig **kp, struct cli_evidence *ce,
    double *t_config, double *t_evidence)
{
	struct cli_both_job	 job;
	pthread_t		 th;
	bool			 threaded;
	double			 t0;

	memset(&job, 0, sizeof job);
	job.c = c;
	job.ce = ce;
	strbuf_init(&job.out);
	/* cli_new_kconfig fills c->cache; do it before the thread reads
	 * c. */
	cli_prepare_cache(c);
	threaded = pthread_create(&th, NULL, cli_both_main, &job) == 0;
	t0 = cli_now();
	*kp = cli_open_config(c);
	/* The trim's incremental recomputes need the dependency graph: build
	 * it while the evidence is still loading. */
	if (*kp != NULL)
		kconfig_prepare_graph(*kp);
	if (t_config != NULL)
		*t_config = cli_now() - t0;
	if (threaded)
		pthread_join(th, NULL);
	else
		cli_both_main(&job);
	if (t_evidence != NULL)
		*t_evidence = job.secs;
	if (*kp != NULL && job.out.len != 0)
		fputs(job.out.s, stderr);
	strbuf_free(&job.out);
	if (*kp == NULL || job.rc != 0) {
		if (job.rc == 0)
			cli_close_evidence(ce);
		if (*kp != NULL)
			kconfig_free(*kp);
		*kp = NULL;
		return -1;
	}
	return 0;
}

void
cli_close_evidence(struct cli_evidence *ce)
{
	attrib_free(ce->a);
	srcindex_free(ce->si);
	kbuild_free(ce->kb);
	evidence_free(ce->ev);
	memset(ce, 0, sizeof *ce);
}
