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

/* Most names suggested for a mistyped symbol. */
#define CMD_SUGGEST_MAX	3

/* Edit distance of two short names, case-insensitive (bounded rows). */
static size_t
cmd_distance(const char *a, const char *b)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, *row, prev, cur, best;
	int	 ca, cb;

	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			ca = a[i - 1] >= 'a' && a[i - 1] <= 'z' ?
			    a[i - 1] - 32 : a[i - 1];
			cb = b[j - 1];
			best = prev + (ca == cb ? 0 : 1);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			cur = row[j];
			row[j] = best;
			prev = cur;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* "kctui: no symbol FOO in this tree (did you mean ...?)". */
static void
cmd_no_symbol(struct kconfig *k, const char *name)
{
	struct kc_symbol	*s, *best[CMD_SUGGEST_MAX];
	size_t			 dist[CMD_SUGGEST_MAX], d, len = strlen(name);
	const char		*n;
	int			 i, j, nbest = 0;

	for (i = 0; i < kconfig_nsymbols(k); i++) {
		s = kconfig_symbol(k, i);
		if ((n = kc_sym_name(s)) == NULL)
			continue;
		/* Cheap: only names of about the same length. */
		if (strlen(n) + 3 < len || strlen(n) > len + 3)
			continue;
		d = cmd_distance(name, n);
		if (d > 2 + len / 8)
			continue;
		for (j = nbest; j > 0 && dist[j - 1] > d; j--) {
			if (j < CMD_SUGGEST_MAX) {
				best[j] = best[j - 1];
				dist[j] = dist[j - 1];
			}
		}
		if (j < CMD_SUGGEST_MAX) {
			best[j] = s;
			dist[j] = d;
			if (nbest < CMD_SUGGEST_MAX)
				nbest++;
		}
	}
	fprintf(stderr, "kctui: no symbol %s in this tree", name);
	for (j = 0; j < nbest; j++)
		fprintf(stderr, "%s%s", j ? ", " : " (did you mean ",
		    kc_sym_name(best[j]));
	fprintf(stderr, "%s\n", nbest ? "?)" : "");
}

/* The symbol named on the command line, with or without CONFIG_. */
static struct kc_symbol *
cmd_find(struct kconfig *k, const char *arg)
{
	struct kc_symbol *s;

	if (strncmp(arg, "CONFIG_", 7) == 0)
		arg += 7;
	s = kconfig_find(k, arg);
	if (s == NULL || kc_sym_name(s) == NULL) {
		cmd_no_symbol(k, arg);
		return NULL;
	}
	return s;
}

/* kctui explain SYMBOL */
int
cmd_explain(struct session *s, int argc, char **argv)
{
	struct session_evidence	 ce;
	struct kconfig		*k;
	struct kc_symbol	*sym;
	struct explain		*ex;
	size_t			 i;
	int			 status = 1;

	if (argc != 2 || argv[1][0] == '-') {
		cmd_usage_name(stderr, "explain");
		return 1;
	}
	if ((k = cli_open_config(s)) == NULL)
		return 1;
	if ((sym = cmd_find(k, argv[1])) == NULL)
		goto out;
	if (cli_open_evidence(s, &ce) != 0)
		goto out;
	ex = explain_symbol(k, sym, ce.a);
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
