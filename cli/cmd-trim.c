/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-trim.c - "kctui suggest", "kctui export" and "kctui decide": the
 * command-line faces of core/trim.c (candidates and consequences),
 * core/decisions.c and core/report.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/attrib.h"
#include "../core/decisions.h"
#include "../core/evidence.h"
#include "../core/kbuild.h"
#include "../core/report.h"
#include "../core/trim.h"
#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/env.h"
#include "../lib/util.h"
#include "cli.h"

/* What suggest and export share: the configuration, the evidence, the
 * decisions and the suggestions. */
struct trim_run {
	struct kconfig		*k;
	struct cli_evidence	 ce;
	struct decisions	*d;
	char			*dpath;
	struct trim_input	 in;
	struct trim		*t;
	double			 t_config, t_evidence, t_suggest;
};

static double
cmd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --policy NAME; -1 if unknown. */
static int
cmd_policy(const char *s, enum trim_policy *p)
{
	if (strcmp(s, "modules") == 0)
		*p = TRIM_POLICY_MODULES;
	else if (strcmp(s, "aggressive") == 0)
		*p = TRIM_POLICY_AGGRESSIVE;
	else {
		fprintf(stderr, "kctui: --policy modules|aggressive, not "
		    "\"%s\"\n", s);
		return -1;
	}
	return 0;
}

/* The decisions file: --decisions (as given), else .kctui-decisions in
 * the tree. Malloc'd. */
static char *
cmd_decisions_path(struct cli *c, const char *opt)
{
	return opt != NULL ? cli_path(c, opt) : xstrdup(DECISIONS_DEFAULT);
}

/* Load the decisions; bad lines are errors for the command line (the
 * user asked for something we would silently ignore). */
static struct decisions *
cmd_load_decisions(const char *path)
{
	struct decisions	*d;
	char			*cause = NULL;

	d = decisions_load(path, &cause);
	if (d == NULL || cause != NULL) {
		fprintf(stderr, "%s\n", cause);
		fprintf(stderr, "kctui: fix or remove the bad lines of %s\n",
		    path);
		free(cause);
		decisions_free(d);
		return NULL;
	}
	return d;
}

/* Everything up to the suggestions; -1 (reason printed) on failure. */
static int
trim_run_open(struct cli *c, struct trim_run *r, enum trim_policy policy,
    const char *dopt)
{
	char	*cause = NULL;
	double	 t0;

	memset(r, 0, sizeof *r);
	if (c->nbundles == 0) {
		fprintf(stderr, "kctui: trim suggestions need evidence: give "
		    "-e BUNDLE (see kctui collect)\n");
		return -1;
	}
	r->dpath = cmd_decisions_path(c, dopt);
	if ((r->d = cmd_load_decisions(r->dpath)) == NULL)
		return -1;
	if (cli_open_both(c, &r->k, &r->ce, &r->t_config,
	    &r->t_evidence) != 0)
		return -1;
	r->in.ev = r->ce.ev;
	r->in.kb = r->ce.kb;
	r->in.a = r->ce.a;
	r->in.d = r->d;
	r->in.policy = policy;
	r->in.modules_dir = getenv("KCTUI_MODULES_DIR");
	/* For tests: the slow, obviously complete way. */
	r->in.full_recalc = getenv("KCTUI_TRIM_FULL_RECALC") != NULL;
	t0 = cmd_now();
	if ((r->t = trim_suggest(r->k, &r->in, &cause)) == NULL) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return -1;
	}
	r->t_suggest = cmd_now() - t0;
	return 0;
}

static void
trim_run_close(struct trim_run *r)
{
	trim_free(r->t);
	cli_close_evidence(&r->ce);
	if (r->k != NULL)
		kconfig_free(r->k);
	decisions_free(r->d);
	free(r->dpath);
}

/* -v: where the time went. */
static void
trim_run_times(struct cli *c, struct trim_run *r)
{
	struct trim_stats st;

	if (!c->verbose)
		return;
	trim_get_stats(r->t, &st);
	fprintf(stderr, "kctui: config %.0f ms, evidence %.0f ms, suggest "
	    "%.0f ms (%zu subsystem consequence recomputes: median %.2f ms, "
	    "max %.2f ms, total %.0f ms)\n", r->t_config * 1e3,
	    r->t_evidence * 1e3, r->t_suggest * 1e3, trim_nsubsys(r->t),
	    st.removes_median_ms, st.removes_max_ms, st.removes_total_ms);
	fprintf(stderr, "kctui: keep-set: %zu options, %d round%s (%zu "
	    "seed%s kept strictly)\n", st.keep, st.keep_rounds,
	    st.keep_rounds == 1 ? "" : "s", st.strict_seeds,
	    st.strict_seeds == 1 ? "" : "s");
}

static const char *
cmd_tri(enum kc_tri v)
{
	return v == KC_YES ? "y" : v == KC_MOD ? "m" : "n";
}

/* Removed (y/m -> n) symbols among changes. */
static size_t
cmd_count_removed(const struct trim_change *ch, size_t n)
{
	size_t i, r = 0;

	for (i = 0; i < n; i++)
		r += ch[i].before != KC_NO && ch[i].after == KC_NO;
	return r;
}

/* Every candidate's index, for "all". */
static size_t *
cmd_all(struct trim *t, size_t *n)
{
	size_t *v = xcalloc(trim_ncands(t) + 1, sizeof *v), i;

	for (i = 0; i < trim_ncands(t); i++)
		v[i] = i;
	*n = trim_ncands(t);
	return v;
}

/* kctui suggest [--policy P] [--format text|tsv] [--decisions FILE] */
int
cmd_suggest(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "decisions", required_argument, NULL, 'd' },
		{ "kept", no_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 }
	};
	struct trim_run		 r;
	struct trim_stats	 st;
	struct kc_symbol	*sym;
	const char		*why;
	bool			 kept = false;
	int			 i;
	struct trim_subsys	*sub;
	struct trim_cand	*cand;
	struct trim_change	*ch;
	/* --policy and --decisions before the mode count too. */
	enum trim_policy	 policy = c->policy != NULL &&
				    strcmp(c->policy, "aggressive") == 0 ?
				    TRIM_POLICY_AGGRESSIVE : TRIM_POLICY_MODULES;
	const char		*dopt = c->decisions;
	char			*cause = NULL, saving[96];
	size_t			*all, nall, nch, s, j, removed;
	bool			 tsv = false;
	int			 opt, status = 1;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "e:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			cli_add_bundle(c, optarg);
			break;
		case 'p':
			if (cmd_policy(optarg, &policy) != 0)
				return 1;
			break;
		case 'f':
			if (strcmp(optarg, "tsv") == 0)
				tsv = true;
			else if (strcmp(optarg, "text") != 0) {
				fprintf(stderr, "kctui: --format text|tsv\n");
				return 1;
			}
			break;
		case 'd':
			dopt = optarg;
			break;
		case 'k':
			kept = true;
			break;
		default:
			fprintf(stderr, "usage: kctui -e BUNDLE suggest "
			    "[--policy modules|aggressive] [--format text|tsv]"
			    " [--decisions FILE] [--kept]\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kctui: suggest: unexpected argument %s\n",
		    argv[optind]);
		return 1;
	}
	if (trim_run_open(c, &r, policy, dopt) != 0)
		goto out;
	if (kept) {
		/* The keep-set instead: every y/m option kept, and why. */
		for (i = 0; i < kconfig_nsymbols(r.k); i++) {
			sym = kconfig_symbol(r.k, i);
			if ((why = trim_keep_reason(r.t, sym)) != NULL)
				printf("CONFIG_%s\t%s\t%s\n", kc_sym_name(sym),
				    cmd_tri(kc_sym_tristate(r.k, sym)), why);
		}
		status = 0;
		goto out;
	}
	trim_get_stats(r.t, &st);
	if (st.note != NULL)
		fprintf(stderr, "kctui: %s\n", st.note);
	all = cmd_all(r.t, &nall);
	if (trim_consequences(r.t, r.k, all, nall, &ch, &nch, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		free(all);
		goto out;
	}
	removed = cmd_count_removed(ch, nch);
	free(ch);
	free(all);
	if (tsv)
		printf("#subsystem\toption\tvalue\tobjects\tmodules\tko_bytes"
		    "\tsubsystem_removes\treason\n");
	else {
		printf("# %zu candidates in %zu subsystems (policy %s%s); "
		    "accepting all removes %zu of %zu y/m options\n",
		    trim_ncands(r.t), trim_nsubsys(r.t), policy ==
		    TRIM_POLICY_AGGRESSIVE ? "aggressive" : "modules",
		    policy == TRIM_POLICY_AGGRESSIVE && !st.aggressive ?
		    ", no trace: as modules" : "", removed,
		    report_count_ym(r.k));
		printf("# kept: %zu options with evidence or needed by them; "
		    "decisions (%s): %zu kept, %zu trimmed\n", st.keep,
		    r.dpath, st.kept_by_decision, st.trimmed_by_decision);
	}
	for (s = 0; s < trim_nsubsys(r.t); s++) {
		sub = trim_subsys(r.t, s);
		if (!tsv)
			printf("\n%s  [%zu candidate%s, accepting removes "
			    "%zu]\n", sub->path, sub->ncands, sub->ncands == 1 ?
			    "" : "s", sub->removes);
		for (j = 0; j < sub->ncands; j++) {
			cand = trim_cand(r.t, sub->cands[j]);
			if (tsv) {
				printf("%s\tCONFIG_%s\t%s\t%zu\t%zu\t%llu\t%zu"
				    "\t%s\n", sub->path, cand->name,
				    cmd_tri(cand->value), cand->nobjs,
				    cand->nmodules, cand->ko_bytes,
				    sub->removes, cand->reason);
				continue;
			}
			snprintf(saving, sizeof saving, "%zu obj%s", cand->nobjs,
			    cand->nobjs == 1 ? "" : "s");
			if (cand->nmodules)
				snprintf(saving + strlen(saving), sizeof saving -
				    strlen(saving), ", %zu module%s",
				    cand->nmodules, cand->nmodules == 1 ? "" :
				    "s");
			if (cand->ko_bytes)
				snprintf(saving + strlen(saving), sizeof saving -
				    strlen(saving), ", %llu KiB",
				    (cand->ko_bytes + 1023) / 1024);
			printf("  CONFIG_%-32s %s  %-24s %s\n", cand->name,
			    cmd_tri(cand->value), saving, cand->reason);
		}
	}
	trim_run_times(c, &r);
	status = 0;
out:
	trim_run_close(&r);
	return status;
}

/* The candidates of --accept arguments (subsystem names, or all). */
static size_t *
cmd_accepted(struct trim *t, char **names, int nnames, size_t *n)
{
	struct trim_subsys	*sub;
	bool			*on;
	size_t			*v, i, j;
	char			*cause = NULL;
	long			 s;
	int			 a;

	for (a = 0; a < nnames; a++)
		if (strcmp(names[a], "all") == 0)
			return cmd_all(t, n);
	if (nnames == 0)
		return cmd_all(t, n);
	on = xcalloc(trim_ncands(t) + 1, sizeof *on);
	for (a = 0; a < nnames; a++) {
		if ((s = trim_find_subsys(t, names[a], &cause)) < 0) {
			fprintf(stderr, "kctui: --accept: %s\n", cause);
			free(cause);
			free(on);
			return NULL;
		}
		sub = trim_subsys(t, (size_t)s);
		for (j = 0; j < sub->ncands; j++)
			on[sub->cands[j]] = true;
	}
	v = xcalloc(trim_ncands(t) + 1, sizeof *v);
	for (i = *n = 0; i < trim_ncands(t); i++)
		if (on[i])
			v[(*n)++] = i;
	free(on);
	return v;
}

/* kctui export [--policy P] [--accept all|SUBSYSTEM]... -o FILE
 * [--report FILE] [--decisions FILE] */
int
cmd_export(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "accept", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "decisions", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct trim_run		 r;
	struct report_input	 ri;
	struct trim_change	*ch = NULL;
	/* --policy and --decisions before the mode count too. */
	enum trim_policy	 policy = c->policy != NULL &&
				    strcmp(c->policy, "aggressive") == 0 ?
				    TRIM_POLICY_AGGRESSIVE : TRIM_POLICY_MODULES;
	const char		*dopt = c->decisions, *in_name;
	char			*cause = NULL, *out = NULL, *report = NULL;
	char			**accept = NULL;
	size_t			*acc = NULL, nacc = 0, nch = 0, before;
	struct kc_symbol	**bsyms = NULL;
	char			**bwhys = NULL;
	size_t			 nb = 0, i;
	int			 opt, status = 1, naccept = 0;

	memset(&r, 0, sizeof r);
	optind = 0;
	accept = xcalloc((size_t)argc + 1, sizeof *accept);
	while ((opt = getopt_long(argc, argv, "e:o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			cli_add_bundle(c, optarg);
			break;
		case 'p':
			if (cmd_policy(optarg, &policy) != 0)
				goto out;
			break;
		case 'a':
			accept[naccept++] = optarg;
			break;
		case 'o':
			free(out);
			out = cli_path(c, optarg);
			break;
		case 'r':
			free(report);
			report = cli_path(c, optarg);
			break;
		case 'd':
			dopt = optarg;
			break;
		default:
			fprintf(stderr, "usage: kctui -e BUNDLE export "
			    "[--policy modules|aggressive] [--accept all|"
			    "SUBSYSTEM]... -o FILE [--report FILE] "
			    "[--decisions FILE]\n");
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kctui: export: unexpected argument %s "
		    "(several subsystems: repeat --accept)\n", argv[optind]);
		goto out;
	}
	if (out == NULL) {
		fprintf(stderr, "kctui: export needs -o FILE (the input "
		    "configuration is never overwritten unless -o names "
		    "it)\n");
		goto out;
	}
	if (trim_run_open(c, &r, policy, dopt) != 0)
		goto out;
	if ((acc = cmd_accepted(r.t, accept, naccept, &nacc)) == NULL)
		goto out;
	if (trim_consequences(r.t, r.k, acc, nacc, &ch, &nch, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	before = report_count_ym(r.k);
	/* The comparison with a module list alone, when everything is
	 * accepted (then it is what the report's reader compares). */
	memset(&ri, 0, sizeof ri);
	if (report != NULL && nacc == trim_ncands(r.t)) {
		if (trim_beyond_modules(r.t, r.k, &bsyms, &bwhys, &nb,
		    &cause) != 0) {
			fprintf(stderr, "kctui: %s\n", cause);
			goto out;
		}
		ri.has_beyond = true;
	}
	if (trim_apply(r.t, r.k, acc, nacc, &cause) != 0) {
		fprintf(stderr, "kctui: warning: %s\n", cause);
		free(cause);
		cause = NULL;
	}
	if (kconfig_write(r.k, out, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	if ((in_name = env_lookup(c->envp, "KCONFIG_CONFIG")) == NULL)
		in_name = ".config";
	ri.beyond = bsyms;
	ri.beyond_why = bwhys;
	ri.nbeyond = nb;
	ri.t = r.t;
	ri.k = r.k;
	ri.accepted = acc;
	ri.naccepted = nacc;
	ri.changes = ch;
	ri.nchanges = nch;
	ri.config_in = in_name;
	ri.config_out = out;
	ri.policy = policy == TRIM_POLICY_AGGRESSIVE ? "aggressive" :
	    "modules";
	ri.bundles = (const char *const *)c->bundles;
	ri.nbundles = c->nbundles;
	ri.ym_before = before;
	ri.ym_after = report_count_ym(r.k);
	ri.decisions_file = r.dpath;
	if (report != NULL && report_write(report, &ri, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	if (!c->silent)
		printf("kctui: %zu of %zu candidates accepted, %zu options "
		    "removed; y/m options %zu -> %zu; written to %s%s%s\n",
		    nacc, trim_ncands(r.t), cmd_count_removed(ch, nch), before,
		    ri.ym_after, out, report ? ", report " : "",
		    report ? report : "");
	trim_run_times(c, &r);
	status = 0;
out:
	for (i = 0; i < nb; i++)
		free(bwhys[i]);
	free(bwhys);
	free(bsyms);
	free(cause);
	free(ch);
	free(acc);
	free(accept);
	free(out);
	free(report);
	trim_run_close(&r);
	return status;
}

/* kctui decide CONFIG_X keep|trim|forget [REASON...] [--decisions FILE] */
int
cmd_decide(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "decisions", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	struct decisions	*d = NULL;
	struct kconfig		*k;
	struct strbuf		 reason;
	const char		*name, *p, *dopt = NULL;
	char			*path = NULL, *cause = NULL;
	enum decision		 dec;
	int			 opt, i, status = 1;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dopt = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 2)
		goto usage;
	name = argv[optind];
	if (strncmp(name, "CONFIG_", 7) == 0)
		name += 7;
	for (p = name; *p != '\0'; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			break;
	if (*name == '\0' || *p != '\0') {
		fprintf(stderr, "kctui: decide: bad option name %s\n",
		    argv[optind]);
		return 1;
	}
	if (strcmp(argv[optind + 1], "keep") == 0)
		dec = DECISION_KEEP;
	else if (strcmp(argv[optind + 1], "trim") == 0)
		dec = DECISION_TRIM;
	else if (strcmp(argv[optind + 1], "forget") == 0)
		dec = DECISION_NONE;
	else
		goto usage;
	/* A typo would be honoured by nobody: check the name is an option of
	 * this tree. */
	if ((k = cli_open_config(c)) == NULL)
		return 1;
	if (kconfig_find(k, name) == NULL || kc_sym_index(kconfig_find(k,
	    name)) < 0) {
		fprintf(stderr, "kctui: decide: CONFIG_%s is not an option of "
		    "%s\n", name, c->kconfig);
		kconfig_free(k);
		return 1;
	}
	kconfig_free(k);
	strbuf_init(&reason);
	for (i = optind + 2; i < argc; i++)
		strbuf_addf(&reason, "%s%s", reason.len ? " " : "", argv[i]);
	path = cmd_decisions_path(c, dopt);
	if ((d = cmd_load_decisions(path)) == NULL)
		goto out;
	decisions_set(d, name, dec, reason.s);
	if (decisions_save(d, path, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	if (!c->silent)
		printf("kctui: CONFIG_%s %s%s%s (%s)\n", name,
		    decision_name(dec), reason.len ? "  # " : "",
		    reason.len ? reason.s : "", path);
	status = 0;
out:
	strbuf_free(&reason);
	decisions_free(d);
	free(path);
	free(cause);
	return status;
usage:
	fprintf(stderr, "usage: kctui decide CONFIG_X keep|trim|forget "
	    "[REASON...] [--decisions FILE]\n");
	return 1;
}
