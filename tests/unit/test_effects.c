/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_effects.c - issue 35, item 3: what the trim review says accepting
 * a subsystem turns off is what the export writes. On the real 6.1 tree,
 * for EVERY subsystem of two bundles (cloud-vm on Debian's cloud config,
 * desktop-vm on Debian's amd64 config): trim_effects(), the function the
 * review's worker calls, lists each option once (candidates, dragged
 * along here, dragged along elsewhere, each with a reason), its count
 * equals the suggestion's "accepting removes N", and the export of that
 * subsystem alone (trim_export(), as `kctui export --accept SUBSYSTEM`
 * runs it) removes the same number and its report says "removed: N
 * options" with the same options: the report is read back from the file
 * written.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/session.h"
#include "../../core/trim/effects.h"
#include "../../core/trim/export.h"
#include "../../core/trim/trim.h"

#ifndef EFFECTS_BUNDLE
/* This program: cloud-vm; test_effects_desktop.c includes it for
 * desktop-vm (two programs, each within the unit group's time limit
 * under ASan). */
#define EFFECTS_BUNDLE	"cloud-vm"
#define EFFECTS_CONFIG	"config.amd64_none_cloud-amd64"
#define UNIT_PREFIX "unit/effects/"
#endif
/* Which subsystems this program walks: every EFFECTS_STEP-th from
 * EFFECTS_FIRST (desktop-vm's 245 are two programs' work under ASan). */
#ifndef EFFECTS_STEP
#define EFFECTS_STEP	1
#define EFFECTS_FIRST	0
#endif
#include "unit.h"

/* The options a markdown report names as removed (accepted candidates
 * and dragged along lines whose value became n), "\nNAME\n..." in the
 * order of the report; *n their number. */
static char *
report_removed(const char *text, size_t *n)
{
	struct strbuf	 sb;
	const char	*p, *q, *nl;
	bool		 sect = false;

	strbuf_init(&sb);
	strbuf_addc(&sb, '\n');
	*n = 0;
	for (p = text; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (strncmp(p, "## ", 3) == 0)
			/* Subsystem sections, not the others. */
			sect = strncmp(p, "## Other", 8) != 0 &&
			    strncmp(p, "## The input", 12) != 0 &&
			    strncmp(p, "## Kept", 7) != 0 &&
			    strncmp(p, "## Decisions", 12) != 0 &&
			    strncmp(p, "## Arch", 7) != 0 &&
			    strncmp(p, "## To be", 8) != 0;
		else if (sect && (strncmp(p, "- `CONFIG_", 10) == 0 ||
		    strncmp(p, "  - dragged along: `CONFIG_", 27) == 0) &&
		    (q = strstr(p, "`CONFIG_")) != NULL && q < nl) {
			const char *end = strchr(q + 8, '`');

			/* A dragged value that is not n (an int that lost
			 * its line) is not an option turned off. */
			if (p[0] == ' ' && memmem(end, (size_t)(nl - end),
			    " -> n,", 6) == NULL)
				goto next;
			strbuf_add(&sb, q + 8, (size_t)(end - q - 8));
			strbuf_addc(&sb, '\n');
			(*n)++;
		}
next:
		if (*nl == '\0')
			break;
	}
	return strbuf_detach(&sb);
}

/* Copy a file; false if it can't be. */
static bool
unit_copy(const char *from, const char *to)
{
	struct strbuf	sb;
	bool		ok;

	strbuf_init(&sb);
	ok = unit_read_file(from, &sb) && sb.len > 0 &&
	    unit_write_file(to, sb.s);
	strbuf_free(&sb);
	return ok;
}

/* "- removed: N options" of a markdown report, or -1. */
static long
report_count(const char *text)
{
	const char *p = strstr(text, "\n- removed: ");

	return p != NULL ? strtol(p + 12, NULL, 10) : -1;
}

/* Every subsystem of one bundle on one config. */
static void
walk(const char *repo, const char *tree, const char *tmp, const char *name,
    const char *config)
{
	struct session		 s;
	struct session_evidence	 ce;
	struct trim_input	 in;
	struct trim_effects	 fx;
	struct trim_export	 e;
	struct kc_values	*saved;
	struct kconfig		*k = NULL;
	struct trim		*t;
	struct trim_subsys	*sub;
	struct strbuf		 rep, listed;
	char			*cause = NULL, *msgs = NULL, *bundle, *out;
	char			*repfile, *names, *cfg, *tname, *base;
	size_t			 i, j, bad = 0, nrep, sum = 0, nsub;
	size_t			 here = 0, elsewhere = 0, nowhy = 0;
	long			 count;
	char			 first[512] = "";

	cfg = xasprintf("%s/%s.config", tmp, name);
	if (!unit_copy(config, cfg)) {
		checkf(name, 0, "could not copy %s", config);
		free(cfg);
		return;
	}
	session_init(&s);
	s.dir = tree;
	s.config = cfg;
	bundle = xasprintf("%s/tests/fixtures/evidence/%s", repo, name);
	session_add_bundle(&s, bundle);
	if (session_setup(&s, &cause) != 0 ||
	    session_open_both(&s, &k, &ce, NULL, NULL, &msgs) != 0) {
		checkf(name, 0, "%s%s", cause != NULL ? cause : "",
		    msgs != NULL ? msgs : "");
		goto out;
	}
	session_trim_input(&ce, NULL, s.policy, &in);
	if ((t = trim_suggest(k, &in, &cause)) == NULL) {
		checkf(name, 0, "suggest: %s", cause);
		goto close;
	}
	/* The input as the engine read it, once (trim_export would write
	 * it out again for every subsystem). */
	base = kconfig_write_string(k);
	out = xasprintf("%s/%s.out", tmp, name);
	repfile = xasprintf("%s/%s.out.md", tmp, name);
	nsub = trim_nsubsys(t);
	for (i = EFFECTS_FIRST; i < nsub; i += EFFECTS_STEP) {
		sub = trim_subsys(t, i);
		if (trim_effects(t, k, i, sub->cands, sub->ncands, &fx,
		    &cause) != 0) {
			checkf(name, 0, "effects of %s: %s", sub->path, cause);
			free(cause);
			cause = NULL;
			bad++;
			continue;
		}
		/* The list, in the review's order: each option once. */
		strbuf_init(&listed);
		for (j = 0; j < fx.n; j++) {
			if (fx.e[j].why == NULL || fx.e[j].path == NULL)
				nowhy++;
			if (fx.e[j].group == TE_CANDIDATE &&
			    (fx.e[j].cand < 0 || trim_cand(t, (size_t)
			    fx.e[j].cand)->subsys != i))
				nowhy++;
		}
		here += fx.ngroup[TE_HERE];
		elsewhere += fx.ngroup[TE_ELSEWHERE];
		/* The export of this subsystem alone, on the values the
		 * suggestion started from. */
		saved = kconfig_values_save(k);
		memset(&e, 0, sizeof e);
		e.t = t;
		e.k = k;
		e.accepted = sub->cands;
		e.naccepted = sub->ncands;
		e.out = out;
		e.report = repfile;
		e.config_in = s.config_path;
		e.config_text = s.config_text;
		e.config_text_set = true;
		e.config_base = base;
		e.policy = s.policy;
		e.bundles = (const char *const *)s.bundles;
		e.nbundles = s.nbundles;
		if (trim_export(&e, &cause) != 0) {
			checkf(name, 0, "export of %s: %s", sub->path, cause);
			free(cause);
			cause = NULL;
			bad++;
		}
		free(e.warning);
		kconfig_values_restore(k, saved);
		kconfig_values_free(saved);
		for (j = 0; j < trim_ncands(t); j++)
			trim_cand(t, j)->state = TRIM_PENDING;
		strbuf_init(&rep);
		unit_read_file(repfile, &rep);
		count = report_count(rep.s != NULL ? rep.s : "");
		names = report_removed(rep.s != NULL ? rep.s : "", &nrep);
		for (j = 0; j < fx.n; j++) {
			tname = xasprintf("\n%s\n", kc_sym_name(
			    kconfig_symbol(k, fx.e[j].sym)));
			if (strstr(names, tname) == NULL)
				strbuf_adds(&listed, tname + 1);
			free(tname);
		}
		sum += fx.n;
		if (fx.n != sub->removes || fx.n != e.removed ||
		    count != (long)fx.n || nrep != fx.n || listed.len != 0) {
			if (getenv("UNIT_EFFECTS_VERBOSE") != NULL)
				printf("# %s: review %zu, suggest %zu, export "
				    "%zu, report %ld, names %zu; not in the "
				    "report: %s\n", sub->path, fx.n,
				    sub->removes, e.removed, count, nrep,
				    listed.len ? listed.s : "-");
			if (bad++ == 0)
				snprintf(first, sizeof first, "%s: review %zu "
				    "listed, suggest %zu, export %zu, report "
				    "\"removed: %ld\", report names %zu; not "
				    "in the report: %.120s", sub->path, fx.n,
				    sub->removes, e.removed, count, nrep,
				    listed.len ? listed.s : "-");
		}
		free(names);
		strbuf_free(&rep);
		strbuf_free(&listed);
		trim_effects_free(&fx);
	}
	checkf(name, bad == 0 && nsub > 0, "%zu of %zu subsystems differ; "
	    "first: %s", bad, nsub, first);
	if (bad == 0)
		printf("    %s: subsystems %d, %d, ... of %zu: %zu options "
		    "listed (%zu dragged along in their subsystem, %zu "
		    "elsewhere), each equal to the export's report\n", name,
		    EFFECTS_FIRST, EFFECTS_FIRST + EFFECTS_STEP, nsub, sum,
		    here, elsewhere);
	checkf("every-line-has-a-reason", nowhy == 0, "%zu lines without "
	    "a reason, a path or their candidate", nowhy);
	free(out);
	free(repfile);
	free(base);
	trim_free(t);
close:
	session_close_evidence(&ce);
	kconfig_free(k);
out:
	free(msgs);
	free(cause);
	free(bundle);
	session_free(&s);
	free(cfg);
}

int
main(void)
{
	char		 tmp[] = "/tmp/kctui-effects.XXXXXX";
	char		 repo[PATH_MAX], tbuf[PATH_MAX], *config, *dir;
	const char	*tree;

	if (getcwd(repo, sizeof repo) == NULL || !unit_tmpdir(tmp))
		return 1;
	if ((tree = unit_find_tree("Kconfig", tbuf, sizeof tbuf)) == NULL) {
		check("tree", 0, "no Linux 6.1 tree (tests/real/tree.sh "
		    "unpacks it)");
		return 1;
	}
	/* Debian's configs beside the tree (tests/real/tree.sh). */
	dir = xstrdup(tree);
	if (strrchr(dir, '/') != NULL)
		*strrchr(dir, '/') = '\0';
	config = xasprintf("%s/%s", dir, EFFECTS_CONFIG);
	walk(repo, tree, tmp, EFFECTS_BUNDLE, config);
	if (chdir(repo) != 0)
		return 1;
	unit_rmtree(tmp);
	free(config);
	free(dir);
	return unit_failures != 0;
}
