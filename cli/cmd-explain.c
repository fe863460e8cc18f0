/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-explain.c - "kctui explain SYMBOL" and "kctui enable SYMBOL[=y|m]":
 * the command-line faces of core/explain/explain.c and core/explain/enable.c. They only
 * print (and, for enable --apply, write); the sentences are made in core/
 * so that the TUI shows the same.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/evidence/attrib.h"
#include "../core/explain/enable.h"
#include "../core/explain/explain.h"
#include "../core/trim/report.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/util.h"
#include "../core/session.h"
#include "cli.h"

/* The symbol named on the command line, with or without CONFIG_. */
static struct kc_symbol *
cmd_find(struct kconfig *k, const char *arg)
{
	struct kc_symbol	*s;
	char			*hint;

	if (strncmp(arg, "CONFIG_", 7) == 0)
		arg += 7;
	s = kconfig_find(k, arg);
	if (s == NULL || kc_sym_name(s) == NULL) {
		hint = cli_did_you_mean(k, arg);
		fprintf(stderr, "kctui: no symbol %s in this tree%s\n", arg,
		    hint);
		free(hint);
		return NULL;
	}
	return s;
}

/* kctui explain SYMBOL [-e BUNDLE...]: -e after the command as suggest
 * and export take it (or before it, as every command). */
int
cmd_explain(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "evidence", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	struct session_evidence	 ce;
	struct kconfig		*k;
	struct kc_symbol	*sym;
	struct explain		*ex;
	const char		*name;
	size_t			 i;
	int			 ch, status = 1;

	/* 0: a full reset, so options may follow SYMBOL (main() parsed in
	 * "+" mode). */
	optind = 0;
	while ((ch = getopt_long(argc, argv, "e:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		default:
			cmd_usage_name(stderr, "explain");
			return 1;
		}
	}
	if (optind + 1 != argc) {
		cmd_usage_name(stderr, "explain");
		return 1;
	}
	name = argv[optind];
	if ((k = cli_open_config(s)) == NULL)
		return 1;
	if ((sym = cmd_find(k, name)) == NULL)
		goto out;
	if (cli_open_evidence(s, &ce) != 0)
		goto out;
	/* the explanation holds whatever the bundles: said, not refused */
	if (ce.ev != NULL)
		(void)cli_arch_check(s, ce.ev, false, false);
	ex = explain_symbol_file(k, sym, ce.a, s->config_path);
	for (i = 0; i < ex->nlines; i++)
		printf("%*s%s\n", 2 * ex->lines[i].indent, "",
		    ex->lines[i].text);
	explain_free(ex);
	session_close_evidence(&ce);
	status = 0;
out:
	kconfig_free(k);
	return status;
}

/* Whether the plan sets name itself (a numbered step). */
static bool
cmd_enable_in_plan(const struct enable_plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		if (strcmp(kc_sym_name(p->steps[i].sym), name) == 0)
			return true;
	return false;
}

/* A value as written, for a list ("(no line)" for none). */
static const char *
cmd_enable_value(const char *v)
{
	return v != NULL ? v : "(no line)";
}

/*
 * Every other change the written file holds, as export's report says
 * them: the diff between the input as read and the file written, minus
 * the plan's steps; those the plan's steps brought (defaults, selects,
 * what depended on them), then, under their own heading, those the
 * tree's update of the input brought (as olddefconfig: new options,
 * values the tree computes), which are written whatever the plan.
 */
static void
cmd_enable_others(struct session *s, struct kconfig *k,
    const struct enable_plan *p, const char *base)
{
	struct report_diff	*d;
	char			*now = kconfig_write_string(k);
	size_t			 n, i, nplan = 0, ntree = 0;
	int			 pass;

	d = report_diff_compute(s->config_text, base, now, k, &n);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			bool tree = (d[i].base == NULL) != (d[i].now ==
			    NULL) ? false : d[i].base == NULL ||
			    strcmp(d[i].base, d[i].now) == 0;

			if (cmd_enable_in_plan(p, d[i].name))
				continue;
			if (pass == 0 && !tree) {
				if (nplan++ == 0)
					printf("Also changed by these steps "
					    "(what depends on them, selects, "
					    "defaults):\n");
				printf("  CONFIG_%s: %s -> %s\n", d[i].name,
				    cmd_enable_value(d[i].was),
				    cmd_enable_value(d[i].now));
			} else if (pass == 1 && tree) {
				if (ntree++ == 0)
					printf("Changed by the tree's update of "
					    "the input (as olddefconfig; "
					    "written whatever the plan):\n");
				printf("  CONFIG_%s: %s -> %s\n", d[i].name,
				    cmd_enable_value(d[i].was),
				    cmd_enable_value(d[i].now));
			}
		}
	}
	printf("%zu line%s of the file differ%s from the input: %zu step%s "
	    "of the plan, %zu besides, %zu the tree's update.\n", n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "", n - nplan - ntree,
	    n - nplan - ntree == 1 ? "" : "s", nplan, ntree);
	report_diff_free(d, n);
	free(now);
}

/* kctui enable SYMBOL[=y|m] [--apply -o FILE] */
int
cmd_enable(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "apply", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct enable_plan	*p = NULL;
	struct kconfig		*k;
	struct kc_symbol	*sym;
	enum kc_tri		 want = KC_YES;
	char			*name, *eq, *out = NULL, *cause = NULL, *base;
	bool			 apply = false;
	size_t			 i;
	int			 ch, status = 1;

	/* 0: a full reset, so options may follow SYMBOL (main() parsed in
	 * "+" mode). */
	optind = 0;
	while ((ch = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			apply = true;
			break;
		case 'o':
			free(out);
			out = session_path(s, optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc || (apply && out == NULL))
		goto usage;
	name = xstrdup(argv[optind]);
	if ((eq = strchr(name, '=')) != NULL) {
		*eq++ = '\0';
		if (strcmp(eq, "y") == 0)
			want = KC_YES;
		else if (strcmp(eq, "m") == 0)
			want = KC_MOD;
		else {
			free(name);
			goto usage;
		}
	}
	if ((k = cli_open_config(s)) == NULL) {
		free(name);
		free(out);
		return 1;
	}
	if ((sym = cmd_find(k, name)) == NULL)
		goto done;
	p = enable_plan(k, sym, want);
	if (!p->ok) {
		printf("CONFIG_%s can't be made %s: %s.\n", kc_sym_name(sym),
		    explain_tri_name(want), p->why_not);
		status = 2;
		goto done;
	}
	if (p->already) {
		printf("CONFIG_%s is already %s.\n", kc_sym_name(sym),
		    explain_tri_name(want));
		status = 0;
		goto done;
	}
	printf("To make CONFIG_%s %s, %zu change%s:\n", kc_sym_name(sym),
	    explain_tri_name(want), p->nsteps, p->nsteps == 1 ? "" : "s");
	for (i = 0; i < p->nsteps; i++)
		printf("  %zu. CONFIG_%s=%s: %s\n", i + 1,
		    kc_sym_name(p->steps[i].sym),
		    explain_tri_name(p->steps[i].value), p->steps[i].reason);
	status = 0;
	if (!apply) {
		printf("(nothing written: add --apply -o FILE to write the "
		    "result)\n");
		goto done;
	}
	/* The input as the engine read it: what differs from the file
	 * there is the tree's update (olddefconfig), not the plan's. */
	base = kconfig_write_string(k);
	if (enable_apply(k, p, &cause) != 0 ||
	    kconfig_write(k, out, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		free(base);
		status = 1;
		goto done;
	}
	cmd_enable_others(s, k, p, base);
	free(base);
	printf("configuration written to %s\n", out);
done:
	enable_plan_free(p);
	kconfig_free(k);
	free(name);
	free(out);
	return status;
usage:
	cmd_usage_name(stderr, "enable");
	free(out);
	return 1;
}
