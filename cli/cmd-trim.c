/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-trim.c - "kctui suggest", "kctui export" and "kctui decide": the
 * command-line faces of core/trim/trim.c (candidates and consequences),
 * core/trim/decisions.c and core/trim/report.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/evidence/attrib.h"
#include "../core/trim/decisions.h"
#include "../core/evidence/evidence.h"
#include "../core/trim/export.h"
#include "../core/kbuild/kbuild.h"
#include "../core/trim/report.h"
#include "../core/trim/trim.h"
#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/env.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "../core/session.h"
#include "cli.h"

/* What suggest and export share: the configuration, the evidence, the
 * decisions and the suggestions. */
struct trim_run {
	struct kconfig		*k;
	struct session_evidence	 ce;
	struct decisions	*d;
	const char		*dpath;		/* the session's */
	struct trim_input	 in;
	struct trim		*t;
	double			 t_config, t_evidence, t_suggest;
};

/* Load the decisions; bad lines are errors for the command line (the
 * user asked for something we would silently ignore). */
static struct decisions *
cmd_load_decisions(const char *path)
{
	struct decisions	*d;
	char			*cause = NULL;

	/* The directory's old .kctui-decisions, once, to this config's. */
	if (decisions_migrate(path, &cause) != 0 || cause != NULL)
		fprintf(stderr, "%s\n", cause);
	free(cause);
	cause = NULL;
	d = decisions_load(path, &cause);
	if (d == NULL) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return NULL;
	}
	if (cause != NULL) {
		fprintf(stderr, "%s\n", cause);
		fprintf(stderr, "kctui: fix or remove the bad lines of %s\n",
		    path);
		free(cause);
		decisions_free(d);
		return NULL;
	}
	return d;
}

/* Everything up to the suggestions; -1 (reason printed) on failure, or
 * when the bundles are of another architecture than the configuration
 * and not any_arch (--any-arch). */
static int
trim_run_open(struct session *s, struct trim_run *r, bool any_arch)
{
	char	*cause = NULL;
	double	 t0;

	memset(r, 0, sizeof *r);
	if (s->nbundles == 0) {
		fprintf(stderr, "kctui: trim suggestions need evidence: give "
		    "-e BUNDLE (see kctui collect)\n");
		return -1;
	}
	r->dpath = s->decisions;
	if ((r->d = cmd_load_decisions(r->dpath)) == NULL)
		return -1;
	if (cli_open_both(s, &r->k, &r->ce, &r->t_config,
	    &r->t_evidence) != 0)
		return -1;
	if (cli_arch_check(s, r->ce.ev, true, any_arch) != 0)
		return -1;
	session_trim_input(&r->ce, r->d, s->policy, &r->in);
	/* For tests: the slow, obviously complete way. */
	r->in.full_recalc = getenv("KCTUI_TRIM_FULL_RECALC") != NULL;
	t0 = clock_now();
	if ((r->t = trim_suggest(r->k, &r->in, &cause)) == NULL) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return -1;
	}
	r->t_suggest = clock_now() - t0;
	return 0;
}

static void
trim_run_close(struct trim_run *r)
{
	trim_free(r->t);
	session_close_evidence(&r->ce);
	if (r->k != NULL)
		kconfig_free(r->k);
	decisions_free(r->d);
}

/* -v: where the time went. */
static void
trim_run_times(struct session *s, struct trim_run *r)
{
	struct trim_stats st;

	if (!s->verbose)
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

/* suggest's own options. */
struct suggest_opts {
	bool	tsv;		/* --format tsv */
	bool	kept;		/* --kept: the keep-set instead */
	bool	any_arch;	/* --any-arch */
};

/* suggest's arguments into s and o; -1 (reason printed) if bad. */
static int
cmd_suggest_parse(struct session *s, int argc, char **argv,
    struct suggest_opts *o)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "decisions", required_argument, NULL, 'd' },
		{ "kept", no_argument, NULL, 'k' },
		{ "any-arch", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	int	opt;

	memset(o, 0, sizeof *o);
	optind = 0;
	while ((opt = getopt_long(argc, argv, "e:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'p':
			/* Over --policy before the mode. */
			if (cli_policy(s, optarg) != 0)
				return -1;
			break;
		case 'f':
			if (cli_format(optarg, &o->tsv) != 0)
				return -1;
			break;
		case 'd':
			session_set_decisions(s, optarg);
			break;
		case 'k':
			o->kept = true;
			break;
		case 'A':
			o->any_arch = true;
			break;
		default:
			cmd_usage_name(stderr, "suggest");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kctui: suggest: unexpected argument %s\n",
		    argv[optind]);
		return -1;
	}
	return 0;
}

/* --kept: every y/m option the keep-set holds, and why. */
static void
cmd_suggest_kept(struct trim_run *r)
{
	struct kc_symbol	*sym;
	const char		*why;
	int			 i;

	for (i = 0; i < kconfig_nsymbols(r->k); i++) {
		sym = kconfig_symbol(r->k, i);
		if ((why = trim_keep_reason(r->t, sym)) != NULL)
			printf("CONFIG_%s\t%s\t%s\n", kc_sym_name(sym),
			    cmd_tri(kc_sym_tristate(r->k, sym)), why);
	}
}

/*
 * The heading: the columns (tsv), or the totals, with what accepting
 * every candidate removes, and the keep-set (text); -1 (reason printed)
 * if the consequences cannot be computed.
 */
static int
cmd_suggest_header(struct session *s, struct trim_run *r, bool tsv)
{
	struct trim_stats	 st;
	struct trim_change	*ch;
	char			*cause = NULL;
	size_t			*all, nall, nch, removed;

	trim_get_stats(r->t, &st);
	if (st.note != NULL)
		fprintf(stderr, "kctui: %s\n", st.note);
	all = cmd_all(r->t, &nall);
	if (trim_consequences(r->t, r->k, all, nall, &ch, &nch, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		free(all);
		return -1;
	}
	removed = trim_changes_removed(ch, nch);
	free(ch);
	free(all);
	if (tsv) {
		printf("#subsystem\toption\tvalue\tobjects\tmodules\tko_bytes"
		    "\tsubsystem_removes\treason\tverify\n");
		return 0;
	}
	printf("# %zu candidates in %zu subsystems (policy %s%s); "
	    "accepting all removes %zu of %zu y/m options\n",
	    trim_ncands(r->t), trim_nsubsys(r->t),
	    trim_policy_name(s->policy),
	    (s->policy == TRIM_POLICY_AGGRESSIVE ||
	    s->policy == TRIM_POLICY_MINIMAL) && !st.aggressive ?
	    ", no trace: as modules" : "", removed, report_count_ym(r->k));
	if (st.minimal)
		printf("# minimal: meant to be verified by booting (kctui "
		    "verify); CPU %s; %zu arch core options kept (the "
		    "evidence cannot speak for them)\n", st.cpu_vendor != NULL ?
		    st.cpu_vendor : "vendor unknown: every vendor's options "
		    "kept", st.arch_kept);
	printf("# kept: %zu options with evidence or needed by them; "
	    "decisions (%s): %zu kept, %zu trimmed\n", st.keep, r->dpath,
	    st.kept_by_decision, st.trimmed_by_decision);
	if (st.to_verify != 0)
		printf("# %zu to be verified by booting (marked ?): trimmed "
		    "only once kctui verify has booted the export\n",
		    st.to_verify);
	return 0;
}

/* One candidate of a subsystem: a tsv row, or a text line with what
 * trimming it saves; to_verify ones marked ("?", tsv column verify). */
static void
cmd_suggest_cand(const struct trim_subsys *sub, const struct trim_cand *cand,
    bool tsv)
{
	char	saving[96];

	if (tsv) {
		printf("%s\tCONFIG_%s\t%s\t%zu\t%zu\t%llu\t%zu\t%s\t%s\n",
		    sub->path, cand->name, cmd_tri(cand->value), cand->nobjs,
		    cand->nmodules, cand->ko_bytes, sub->removes,
		    cand->reason, cand->to_verify ? "to-verify" : "-");
		return;
	}
	snprintf(saving, sizeof saving, "%zu obj%s", cand->nobjs,
	    cand->nobjs == 1 ? "" : "s");
	if (cand->nmodules)
		snprintf(saving + strlen(saving), sizeof saving -
		    strlen(saving), ", %zu module%s", cand->nmodules,
		    cand->nmodules == 1 ? "" : "s");
	if (cand->ko_bytes)
		snprintf(saving + strlen(saving), sizeof saving -
		    strlen(saving), ", %llu KiB",
		    (cand->ko_bytes + 1023) / 1024);
	/* "?": to be verified by booting (verified policy) */
	printf("%c CONFIG_%-32s %s  %-24s %s\n", cand->to_verify ? '?' : ' ',
	    cand->name, cmd_tri(cand->value), saving, cand->reason);
}

/* Every subsystem (a heading in text) and its candidates. */
static void
cmd_suggest_list(struct trim_run *r, bool tsv)
{
	struct trim_subsys	*sub;
	size_t			 si, j;

	for (si = 0; si < trim_nsubsys(r->t); si++) {
		sub = trim_subsys(r->t, si);
		if (!tsv)
			printf("\n%s  [%zu candidate%s, accepting removes "
			    "%zu]\n", sub->path, sub->ncands, sub->ncands == 1 ?
			    "" : "s", sub->removes);
		for (j = 0; j < sub->ncands; j++)
			cmd_suggest_cand(sub, trim_cand(r->t, sub->cands[j]),
			    tsv);
	}
}

/* kctui suggest [--policy P] [--format text|tsv] [--decisions FILE]
 * [--kept] */
int
cmd_suggest(struct session *s, int argc, char **argv)
{
	struct suggest_opts	 o;
	struct trim_run		 r;
	int			 status = 1;

	if (cmd_suggest_parse(s, argc, argv, &o) != 0)
		return 1;
	if (trim_run_open(s, &r, o.any_arch) != 0)
		goto out;
	if (o.kept)
		cmd_suggest_kept(&r);
	else {
		if (cmd_suggest_header(s, &r, o.tsv) != 0)
			goto out;
		cmd_suggest_list(&r, o.tsv);
		trim_run_times(s, &r);
	}
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
 * [--report FILE] [--decisions FILE] [--builtin] */
int
cmd_export(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "accept", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "decisions", required_argument, NULL, 'd' },
		{ "builtin", no_argument, NULL, 'b' },
		{ "any-arch", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const labels[] = {
		"--config", "-o", "--report", "--decisions"
	};
	const char		*names[4];
	struct trim_run		 r;
	struct trim_export	 e;
	char			*cause = NULL, *out = NULL, *report = NULL;
	char			**accept = NULL;
	size_t			*acc = NULL, nacc = 0;
	int			 opt, status = 1, naccept = 0;
	bool			 any_arch = false;

	memset(&r, 0, sizeof r);
	memset(&e, 0, sizeof e);
	optind = 0;
	accept = xcalloc((size_t)argc + 1, sizeof *accept);
	while ((opt = getopt_long(argc, argv, "e:o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'p':
			/* Over --policy before the mode. */
			if (cli_policy(s, optarg) != 0)
				goto out;
			break;
		case 'a':
			accept[naccept++] = optarg;
			break;
		case 'o':
			free(out);
			out = session_path(s, optarg);
			break;
		case 'r':
			free(report);
			report = session_path(s, optarg);
			break;
		case 'd':
			session_set_decisions(s, optarg);
			break;
		case 'b':
			e.builtin = true;
			break;
		case 'A':
			any_arch = true;
			break;
		default:
			cmd_usage_name(stderr, "export");
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kctui: export: unexpected argument %s "
		    "(several subsystems: repeat --accept)\n", argv[optind]);
		goto out;
	}
	if (out == NULL) {
		fprintf(stderr, "kctui: export needs -o FILE (not the input "
		    "configuration: export never overwrites it)\n");
		goto out;
	}
	names[0] = s->config_path;
	names[1] = out;
	names[2] = report;
	names[3] = s->decisions;
	if (cli_distinct_files("export", labels, names, 4) != 0)
		goto out;
	if (trim_run_open(s, &r, any_arch) != 0)
		goto out;
	if ((acc = cmd_accepted(r.t, accept, naccept, &nacc)) == NULL)
		goto out;
	e.t = r.t;
	e.k = r.k;
	e.accepted = acc;
	e.naccepted = nacc;
	e.out = out;
	e.report = report;
	e.config_in = s->config_path;
	e.policy = s->policy;
	e.bundles = (const char *const *)s->bundles;
	e.nbundles = s->nbundles;
	e.decisions_file = r.dpath;
	status = trim_export(&e, &cause);
	if (e.warning != NULL)
		fprintf(stderr, "kctui: warning: %s\n", e.warning);
	if (status != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		status = 1;
		goto out;
	}
	if (!s->silent)
		printf("kctui: %zu of %zu candidates accepted, %zu options "
		    "removed; y/m options %zu -> %zu; written to %s%s%s\n",
		    nacc, trim_ncands(r.t), e.removed, e.ym_before,
		    e.ym_after, out, report ? ", report " : "",
		    report ? report : "");
	if (!s->silent && e.builtin)
		printf("kctui: built in: %zu modules made y; %s%s\n",
		    e.bi.made_y, e.bi.modules_off ? "MODULES=n" :
		    "MODULES stays y, still modules: ", e.bi.modules_off ? "" :
		    e.bi.left != NULL ? e.bi.left : "none");
	trim_run_times(s, &r);
out:
	free(e.bi.left);
	free(e.warning);
	free(cause);
	free(acc);
	free(accept);
	free(out);
	free(report);
	trim_run_close(&r);
	return status;
}

/* kctui decide CONFIG_X keep|trim|forget [REASON...] [--decisions FILE] */
int
cmd_decide(struct session *s, int argc, char **argv)
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
	if ((k = cli_open_config(s)) == NULL)
		return 1;
	if (kconfig_find(k, name) == NULL || kc_sym_index(kconfig_find(k,
	    name)) < 0) {
		char *hint = cli_did_you_mean(k, name);

		fprintf(stderr, "kctui: decide: CONFIG_%s is not an option of "
		    "%s%s\n", name, s->kconfig, hint);
		free(hint);
		kconfig_free(k);
		return 1;
	}
	kconfig_free(k);
	strbuf_init(&reason);
	for (i = optind + 2; i < argc; i++)
		strbuf_addf(&reason, "%s%s", reason.len ? " " : "", argv[i]);
	if (!decisions_reason_ok(reason.s)) {
		fprintf(stderr, "kctui: decide: a reason is one line of text "
		    "(no newline, tab or other control character)\n");
		goto out;
	}
	/* decide's own --decisions, else the session's (one given before
	 * the mode, or the default), as suggest and export read it. */
	path = dopt != NULL ? session_path(s, dopt) : xstrdup(s->decisions);
	if ((d = cmd_load_decisions(path)) == NULL)
		goto out;
	decisions_set(d, name, dec, reason.s);
	decisions_on_wait(d, cli_lock_waiting, NULL);
	if (decisions_save(d, path, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	if (!s->silent)
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
	cmd_usage_name(stderr, "decide");
	return 1;
}
