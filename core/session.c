/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.c - what every command that reads a configuration or evidence
 * does first: resolve the tree, the configuration and conf's environment
 * from the command line's values, parse the tree's Kconfig, read .config,
 * load bundles and attribute them. Shared so that explain, suggest,
 * export and the browser see exactly the same state as olddefconfig and
 * evidence.
 *
 * Errors come back through *cause (or *msgs, several lines, for the
 * evidence) as kctui prints them; the engine's warnings while reading a
 * configuration stream to stderr as conf prints them.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kconfig-parser/env.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/fileio.h"
#include "../lib/proc.h"
#include "../lib/util.h"
#include "evidence/attrib.h"
#include "trim/decisions.h"
#include "evidence/evidence.h"
#include "kbuild/kbuild.h"
#include "session.h"
#include "srcindex/srcindex.h"
#include "twin/twin.h"

extern char **environ;

/* Defaults before the command line: here, twice the CPUs, the modules
 * policy. */
void
session_init(struct session *s)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(s, 0, sizeof *s);
	s->cwd = getcwd(NULL, 0);	/* before -C, for paths given */
	s->jobs = cpus > 0 ? (int)cpus * 2 : 2;
	s->policy = TRIM_POLICY_MODULES;
}

/* Free what the session holds (not the session itself). */
void
session_free(struct session *s)
{
	int i;

	for (i = 0; i < s->nbundles; i++)
		free(s->bundles[i]);
	free(s->bundles);
	strv_free(s->envp);
	free(s->vars);
	free(s->cwd);
	free(s->cache_dir);
	free(s->cache);
	free(s->decisions);
	free(s->config_text);
	free(s->twin_qemu);
	free(s->twin_devices);
}

/*
 * Resolve everything once the command line is read: enter the tree,
 * derive conf's environment (with the NAME=value arguments and --config
 * as KCONFIG_CONFIG), the top Kconfig ($KBUILD_KCONFIG, else Kconfig),
 * the configuration path, the caches and the decisions file. -1 with
 * *cause on failure.
 */
int
session_setup(struct session *s, char **cause)
{
	char		 cwd[PATH_MAX], *cfg;
	const char	*kk;

	if (s->dir != NULL && chdir(s->dir) != 0) {
		*cause = xasprintf("%s: %s", s->dir, strerror(errno));
		return -1;
	}
	s->envp = env_derive_args(".", environ, s->vars, cause);
	if (s->envp == NULL)
		return -1;
	/* --config is the user's path, from where they ran kctui (as -e,
	 * -o, --decisions); $KCONFIG_CONFIG stays relative to the tree,
	 * as make -C DIR gives it to conf, which runs there. */
	if (s->config != NULL) {
		cfg = s->dir != NULL ? session_path(s, s->config) :
		    xstrdup(s->config);
		s->envp = envp_set(s->envp, "KCONFIG_CONFIG", cfg);
		free(cfg);
	}
	if ((s->config_path = envp_get(s->envp, "KCONFIG_CONFIG")) == NULL)
		s->config_path = ".config";
	/* The top Kconfig: --kconfig, else $KBUILD_KCONFIG as
	 * scripts/kconfig/Makefile does, else Kconfig. */
	if (s->kconfig == NULL) {
		kk = envp_get(s->envp, "KBUILD_KCONFIG");
		s->kconfig = kk != NULL && *kk != '\0' ? kk : "Kconfig";
	}
	if (!s->no_cache && getcwd(cwd, sizeof cwd) != NULL &&
	    (s->cache = env_cache_path(s->envp, cwd)) != NULL) {
		s->cache_dir = xstrdup(s->cache);
		*strrchr(s->cache_dir, '/') = '\0';
	}
	/* The decisions belong to the configuration they are about: a
	 * file named after it, beside it (not into the tree when --config
	 * names a file elsewhere). */
	if (s->decisions == NULL)
		s->decisions = decisions_path_for(s->config_path);
	return 0;
}

/* A file named name in the configuration file's directory (malloc'd):
 * name alone when that is the tree. */
char *
session_beside_config(const struct session *s, const char *name)
{
	const char *slash = strrchr(s->config_path, '/');

	if (slash == NULL)
		return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - s->config_path),
	    s->config_path, name);
}

/* Where a relative configuration path was looked for, for messages
 * (malloc'd): after -C DIR it is DIR's, as $KCONFIG_CONFIG is for make
 * -C DIR; NULL when the path says it itself (absolute, or no -C). */
static char *
session_config_where(const struct session *s)
{
	char *cwd, *where;

	if (s->config_path[0] == '/' || s->dir == NULL ||
	    (cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	where = xasprintf("%s/%s", cwd, s->config_path);
	free(cwd);
	return where;
}

/* A path given on the command line, as seen from where kctui started
 * (malloc'd). */
char *
session_path(const struct session *s, const char *path)
{
	if (path[0] == '/' || s->cwd == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", s->cwd, path);
}

/* Add a bundle path (as given) to the session's bundles. */
void
session_add_bundle(struct session *s, const char *path)
{
	s->bundles = xrealloc(s->bundles, ((size_t)s->nbundles + 1) *
	    sizeof *s->bundles);
	s->bundles[s->nbundles++] = session_path(s, path);
}

/* The decisions file: path as given on the command line. */
void
session_set_decisions(struct session *s, const char *path)
{
	free(s->decisions);
	s->decisions = session_path(s, path);
	s->decisions_given = true;
}


/* A configuration context with the session's environment, $(shell)
 * cache and jobs; warn and info get the session as their argument. */
struct kconfig *
session_new_kconfig(struct session *s, void (*warn)(void *, const char *),
    void (*info)(void *, const char *))
{
	struct kconfig_options	opt;

	memset(&opt, 0, sizeof opt);
	opt.envp = s->envp;
	opt.shell_cache = s->cache;
	opt.shell_jobs = s->jobs;
	opt.warn = warn;
	opt.info = info;
	opt.arg = s;
	return kconfig_new(&opt);
}

/* A message for the user: the front end's s->say, else stderr. */
void
session_say(struct session *s, const char *fmt, ...)
{
	va_list	 ap;
	char	*text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	if (s->say != NULL)
		s->say(s->say_arg, text);
	else
		fprintf(stderr, "%s\n", text);
	free(text);
}

/* Engine warnings while reading for a query: the same text conf prints,
 * unless -s. */
static void
session_open_warn(void *arg, const char *text)
{
	struct session *s = arg;

	if (!s->silent)
		session_say(s, "%s", text);
}

/* $(info,...) and conf's notes are noise for a query command; where the
 * values came from when there is no .config is said after the read
 * (kconfig_defaults_from). */
static void
session_open_info(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* The values come from a defconfig because there is no configuration
 * file: said, or "set by you" would puzzle. */
static void
session_say_defaults(struct session *s, const char *from)
{
	char	*where;

	if (s->silent)
		return;
	/* A relative $KCONFIG_CONFIG after -C: say where. */
	where = session_config_where(s);
	session_say(s, "kctui: no %s%s: using defaults found in %s",
	    where != NULL ? where : s->config_path, where != NULL ?
	    " ($KCONFIG_CONFIG is relative to the tree, as with make -C)" : "",
	    from);
	free(where);
}

/* Whether the top Kconfig file can be read: -1 with *cause, the message
 * as kctui prints it, when not. */
int
session_check_kconfig(struct session *s, char **cause)
{
	if (access(s->kconfig, R_OK) == 0)
		return 0;
	*cause = xasprintf("kctui: %s: %s (run kctui inside a kernel tree, or "
	    "give -C DIR or --kconfig FILE)", s->kconfig, strerror(errno));
	return -1;
}

/* The message of an error about the configuration file: its name, and
 * where it was looked for when it is relative to the tree (-C). */
static char *
session_config_error(const struct session *s, const char *error)
{
	char *where = session_config_where(s), *msg;

	if (where == NULL)
		return xasprintf("kctui: %s: %s", s->config_path, error);
	msg = xasprintf("kctui: %s: %s (looked for %s: $KCONFIG_CONFIG is "
	    "relative to the tree, as with make -C)", s->config_path, error,
	    where);
	free(where);
	return msg;
}

/*
 * Parse the tree's Kconfig and read the user's config as the
 * configuration tools do (new symbols take their defaults; nothing is
 * written). NULL with *cause, the message as kctui prints it, on
 * failure.
 */
struct kconfig *
session_open_config(struct session *s, char **cause)
{
	struct kconfig	*k;
	const char	*name = s->config_path;
	char		*why = NULL;
	size_t		 len;

	if (session_check_kconfig(s, cause) != 0)
		return NULL;
	k = session_new_kconfig(s, session_open_warn, session_open_info);
	if (kconfig_parse(k, s->kconfig, &why) != 0) {
		*cause = why;
		why = NULL;
		goto fail;
	}
	if (access(name, F_OK) == 0 && access(name, R_OK) != 0) {
		*cause = session_config_error(s, strerror(errno));
		goto fail;
	}
	if (s->config != NULL && !s->config_may_be_new &&
	    access(name, F_OK) != 0) {
		*cause = xasprintf("kctui: %s: %s (--config names the "
		    "configuration to read)", name, strerror(errno));
		goto fail;
	}
	if (kconfig_read(k, NULL, &why) < 0) {
		*cause = xasprintf("kctui: %s", why);
		goto fail;
	}
	if (kconfig_defaults_from(k) != NULL)
		session_say_defaults(s, kconfig_defaults_from(k));
	kconfig_recalc(k);
	free(s->config_text);
	s->config_text = file_read_regular(name, &len);
	return k;
fail:
	free(why);
	kconfig_free(k);
	return NULL;
}

/* A per-tree cache file next to the $(shell) cache: "PREFIX-<hash>.cache"
 * for ".../shell-<hash>.cache"; NULL without one. */
char *
session_cache_file(const struct session *s, const char *prefix)
{
	const char *p;

	if (s->cache == NULL || (p = strstr(s->cache, "/shell-")) == NULL)
		return NULL;
	return xasprintf("%.*s/%s-%s", (int)(p - s->cache), s->cache, prefix,
	    p + 7);
}

/* "6.1" of "6.1.0-57-amd64" or "6.1.158": the length of major.minor. */
static size_t
session_version_prefix(const char *v)
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
session_check_versions(struct session *s, const struct evidence *ev,
    struct strbuf *out)
{
	const char		*tree = envp_get(s->envp, "KERNELVERSION");
	const struct ev_bundle	*b;
	size_t			 tn, bn;
	int			 i;

	if (tree == NULL || (tn = session_version_prefix(tree)) == 0)
		return;
	for (i = 0; i < evidence_nbundles(ev); i++) {
		b = evidence_bundle(ev, i);
		if (b->release == NULL)
			continue;
		bn = session_version_prefix(b->release);
		if (bn == tn && strncmp(b->release, tree, tn) == 0)
			continue;
		strbuf_addf(out, "kctui: %s: recorded on Linux %s but this "
		    "tree is %s; names may not match, evidence is weaker\n",
		    b->path, b->release, tree);
	}
}

/* Evidence readers' warnings, kept for the caller to print. */
static void
session_warn_buffered(void *arg, const char *text)
{
	strbuf_addf(arg, "kctui: %s\n", text);
}

/*
 * The tree's indexes (Kbuild and sources) depend neither on the bundles
 * nor on each other: each is built on a thread of its own while the
 * bundles load (the walks of the tree wait on the kernel as much as they
 * compute).
 */
struct session_index_job {
	const char	*srcarch;
	char		*cache;
	char		*kb_cache;	/* NULL: no cache */
	int		 jobs;
	struct kbuild	*kb;
	struct srcindex	*si;
	char		*kb_cause, *si_cause;
};

/* The Kbuild index, on its thread. */
static void *
session_kbuild_main(void *arg)
{
	struct session_index_job *j = arg;

	j->kb = kbuild_scan_cached(".", j->srcarch, j->kb_cache,
	    &j->kb_cause);
	return NULL;
}

/* The source index, on its thread. */
static void *
session_srcindex_main(void *arg)
{
	struct session_index_job *j = arg;

	j->si = srcindex_build(".", j->cache, j->jobs, &j->si_cause);
	return NULL;
}

/*
 * A kernel built in this tree with CONFIG_BUILTIN_MODULE_RANGES leaves
 * modules.builtin.ranges at the top and its release in
 * include/config/kernel.release: bundles recorded from that kernel (same
 * uname -r) without a ranges file of their own use it.
 */
static void
session_build_ranges(struct evidence *ev)
{
	char	*release;

	if (access("modules.builtin.ranges", R_OK) != 0 ||
	    (release = file_read_line("include/config/kernel.release")) ==
	    NULL)
		return;
	evidence_set_build_ranges(ev, release, "modules.builtin.ranges");
	free(release);
}

/* The trim's input (see session.h). */
void
session_trim_input(const struct session_evidence *ce,
    const struct decisions *d, enum trim_policy policy,
    struct trim_input *in)
{
	memset(in, 0, sizeof *in);
	in->ev = ce->ev;
	in->kb = ce->kb;
	in->a = ce->a;
	in->d = d;
	in->policy = policy;
	in->nontwin_mods = ce->nontwin_mods;
	in->nontwin_why = ce->nontwin_why;
	in->nnontwin = ce->nnontwin;
	in->modules_dir = getenv("KCTUI_MODULES_DIR");
}

/* The twin of the evidence's machine (see session.h). */
int
session_twin(struct session *s, const struct evidence *ev, const char *qemu,
    struct twin *t, char **note, char **cause)
{
	struct twin_opts	 o;
	char			*why = NULL;

	if (qemu == NULL)
		qemu = "qemu-system-x86_64";
	if (s->twin_qemu == NULL || strcmp(s->twin_qemu, qemu) != 0) {
		free(s->twin_qemu);
		free(s->twin_devices);
		s->twin_qemu = xstrdup(qemu);
		s->twin_devices = NULL;
		if (!proc_have(qemu))
			why = xasprintf("no %s here", qemu);
		else if ((s->twin_devices = twin_qemu_devices(qemu, &why)) ==
		    NULL) {
			*cause = why;
			free(s->twin_qemu);
			s->twin_qemu = NULL;
			return -1;
		}
		free(why);
	}
	if (s->twin_devices == NULL && note != NULL)
		*note = xasprintf("no %s here: every device of the table is "
		    "assumed", qemu);
	memset(&o, 0, sizeof o);
	twin_opts_host(&o);
	o.qemu_devices = s->twin_devices;
	return twin_make(ev, &o, t, cause);
}

/*
 * The modules of the bound devices no twin machine can have (core/twin),
 * into ce: what kctui verify could not test on the bundle's twin. Only
 * for bundles without a vm file (those are booted on their own machine);
 * nothing when no twin can be made (no drivers file, not x86_64).
 */
static void
session_nontwin(struct session *s, struct session_evidence *ce)
{
	const struct twin_device	*d;
	struct twin			 tw;
	char				*cause = NULL, *vm, *mod;
	size_t				 i, j, n;
	int				 b;

	for (b = 0; b < evidence_nbundles(ce->ev); b++) {
		vm = xasprintf("%s/vm", evidence_bundle(ce->ev, b)->path);
		i = access(vm, F_OK) == 0;
		free(vm);
		if (i)
			return;
	}
	memset(&tw, 0, sizeof tw);
	if (session_twin(s, ce->ev, NULL, &tw, NULL, &cause) != 0) {
		free(cause);
		return;
	}
	n = twin_unverifiable_count(&tw);
	for (i = 0; i < n; i++) {
		d = twin_unverifiable_at(&tw, i);
		/* a built-in driver's name is the module it would be */
		mod = modname_canon(xstrdup(d->module != NULL ? d->module :
		    d->driver));
		for (j = 0; j < ce->nnontwin &&
		    strcmp(ce->nontwin_mods[j], mod) != 0; j++)
			;
		if (j < ce->nnontwin) {
			free(mod);
			continue;
		}
		ce->nontwin_mods = xrealloc(ce->nontwin_mods,
		    (ce->nnontwin + 1) * sizeof *ce->nontwin_mods);
		ce->nontwin_why = xrealloc(ce->nontwin_why,
		    (ce->nnontwin + 1) * sizeof *ce->nontwin_why);
		ce->nontwin_mods[ce->nnontwin] = mod;
		ce->nontwin_why[ce->nnontwin++] = xasprintf("%s %s at %s has "
		    "no twin: %s", d->bus, d->driver, d->path, d->why);
	}
	twin_free(&tw);
}

/*
 * Load the bundles, index the tree and attribute; every message goes to
 * out (so a caller on another thread can print them in order). 0, or -1
 * with the reason in out.
 */
static int
session_load_evidence(struct session *s, struct session_evidence *ce,
    struct strbuf *out)
{
	struct session_index_job job;
	pthread_t		 th_kb, th_si;
	char			*cause = NULL, *lost, *line, *save = NULL;
	long			 cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool			 kb_thread, si_thread;
	int			 i, rc = 0;

	memset(ce, 0, sizeof *ce);
	if (s->nbundles == 0)
		return 0;
	ce->ev = evidence_new();
	if (s->cache_dir != NULL)
		evidence_set_cache_dir(ce->ev, s->cache_dir);
	session_build_ranges(ce->ev);
	memset(&job, 0, sizeof job);
	if ((job.srcarch = envp_get(s->envp, "SRCARCH")) == NULL)
		job.srcarch = "x86";
	job.cache = session_cache_file(s, "srcix");
	job.kb_cache = session_cache_file(s, "kbuild");
	job.jobs = cpus > 0 ? (int)cpus : 1;
	kb_thread = pthread_create(&th_kb, NULL, session_kbuild_main,
	    &job) == 0;
	si_thread = pthread_create(&th_si, NULL, session_srcindex_main,
	    &job) == 0;
	for (i = 0; i < s->nbundles; i++) {
		if (evidence_load(ce->ev, s->bundles[i], session_warn_buffered,
		    out, &cause) != 0) {
			rc = -1;
			break;
		}
	}
	if (kb_thread)
		pthread_join(th_kb, NULL);
	else
		session_kbuild_main(&job);
	if (si_thread)
		pthread_join(th_si, NULL);
	else
		session_srcindex_main(&job);
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
		session_close_evidence(ce);
		return -1;
	}
	session_check_versions(s, ce->ev, out);
	if ((lost = evidence_trace_warnings(ce->ev)) != NULL) {
		for (line = strtok_r(lost, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			strbuf_addf(out, "kctui: warning: %s\n", line);
		free(lost);
	}
	ce->a = attrib_build(ce->ev, ce->kb, ce->si, ".");
	session_nontwin(s, ce);
	return 0;
}

/* The text of a message buffer for the caller to print, or NULL. */
static char *
session_msgs(struct strbuf *out)
{
	char *text = out->len != 0 ? xstrdup(out->s) : NULL;

	strbuf_free(out);
	return text;
}

/*
 * Load the session's bundles, index the tree and attribute. 0, with
 * everything NULL when no bundle was given, or -1; *msgs is what to print
 * on stderr, warnings and the reason of a failure (malloc'd, lines end in
 * a newline), or NULL.
 */
int
session_open_evidence(struct session *s, struct session_evidence *ce,
    char **msgs)
{
	struct strbuf	out;
	int		rc;

	strbuf_init(&out);
	rc = session_load_evidence(s, ce, &out);
	*msgs = session_msgs(&out);
	return rc;
}

/* session_open_both's evidence half and what it gives back. */
struct session_both_job {
	struct session		*s;
	struct session_evidence	*ce;
	struct strbuf		 out;
	double			 secs;
	int			 rc;
};

/* The evidence half of session_open_both, on its own thread. */
static void *
session_both_main(void *arg)
{
	struct session_both_job	*j = arg;
	double			 t0 = clock_now();

	j->rc = session_load_evidence(j->s, j->ce, &j->out);
	j->secs = clock_now() - t0;
	return NULL;
}

/*
 * session_open_config and session_open_evidence at once: the two share
 * nothing until attribution meets the configuration in the caller, so the
 * bundles and the tree's indexes load while Kconfig parses. *msgs gets
 * what the two calls one after the other would have the caller print
 * (NULL: nothing); -1 if either fails. The time each half took goes to
 * *t_config and *t_evidence (may be NULL).
 */
int
session_open_both(struct session *s, struct kconfig **kp,
    struct session_evidence *ce, double *t_config, double *t_evidence,
    char **msgs)
{
	struct session_both_job	 job;
	pthread_t		 th;
	bool			 threaded;
	double			 t0;
	char			*cause = NULL;

	memset(&job, 0, sizeof job);
	job.s = s;
	job.ce = ce;
	strbuf_init(&job.out);
	threaded = pthread_create(&th, NULL, session_both_main, &job) == 0;
	t0 = clock_now();
	*kp = session_open_config(s, &cause);
	/* The trim's incremental recomputes need the dependency graph: build
	 * it while the evidence is still loading. */
	if (*kp != NULL)
		kconfig_prepare_graph(*kp);
	if (t_config != NULL)
		*t_config = clock_now() - t0;
	if (threaded)
		pthread_join(th, NULL);
	else
		session_both_main(&job);
	if (t_evidence != NULL)
		*t_evidence = job.secs;
	if (*kp == NULL) {
		strbuf_free(&job.out);
		*msgs = xasprintf("%s\n", cause);
		free(cause);
	} else
		*msgs = session_msgs(&job.out);
	if (*kp == NULL || job.rc != 0) {
		if (job.rc == 0)
			session_close_evidence(ce);
		if (*kp != NULL)
			kconfig_free(*kp);
		*kp = NULL;
		return -1;
	}
	return 0;
}

/* Free what session_open_evidence() loaded. */
void
session_close_evidence(struct session_evidence *ce)
{
	size_t i;

	for (i = 0; i < ce->nnontwin; i++) {
		free(ce->nontwin_mods[i]);
		free(ce->nontwin_why[i]);
	}
	free(ce->nontwin_mods);
	free(ce->nontwin_why);
	attrib_free(ce->a);
	srcindex_free(ce->si);
	kbuild_free(ce->kb);
	evidence_free(ce->ev);
	memset(ce, 0, sizeof *ce);
}
