/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-load.c - what every command that reads a configuration or evidence
 * does first: parse the tree's Kconfig, read .config, load bundles and
 * attribute them. Shared so that explain, suggest, export and the TUI see
 * exactly the same state as olddefconfig and evidence.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/attrib.h"
#include "../core/evidence.h"
#include "../core/kbuild.h"
#include "../core/srcindex.h"
#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/preprocess.h"
#include "../kconfig-parser/util.h"
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

/* $(info,...) and conf's notes are noise for a query command. */
static void
cli_open_info(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

struct kconfig *
cli_new_kconfig(struct cli *c, void (*warn)(void *, const char *),
    void (*info)(void *, const char *))
{
	struct kconfig_options	opt;
	char			cwd[PATH_MAX];

	memset(&opt, 0, sizeof opt);
	opt.envp = c->envp;
	if (c->cache == NULL && !c->no_cache && getcwd(cwd, sizeof cwd))
		c->cache = env_cache_path(c->envp, cwd);
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
cli_check_versions(struct cli *c, const struct evidence *ev)
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
		fprintf(stderr, "kctui: %s: recorded on Linux %s but this tree "
		    "is %s; names may not match, evidence is weaker\n",
		    b->path, b->release, tree);
	}
}

int
cli_open_evidence(struct cli *c, struct cli_evidence *ce)
{
	const char	*srcarch;
	char		*cause = NULL, *cache, cwd[PATH_MAX];
	long		 cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int		 i;

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
	for (i = 0; i < c->nbundles; i++) {
		if (evidence_load(ce->ev, c->bundles[i], cli_warn_prefixed,
		    NULL, &cause) != 0)
			goto fail;
	}
	cli_check_versions(c, ce->ev);
	if ((srcarch = env_lookup(c->envp, "SRCARCH")) == NULL)
		srcarch = "x86";
	if ((ce->kb = kbuild_scan(".", srcarch, &cause)) == NULL)
		goto fail;
	cache = cli_srcindex_cache(c);
	ce->si = srcindex_build(".", cache, cpus > 0 ? (int)cpus : 1, &cause);
	free(cache);
	if (ce->si == NULL)
		goto fail;
	ce->a = attrib_build(ce->ev, ce->kb, ce->si, ".");
	return 0;
fail:
	fprintf(stderr, "kctui: %s\n", cause);
	free(cause);
	cli_close_evidence(ce);
	return -1;
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
