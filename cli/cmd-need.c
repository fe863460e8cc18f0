/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-need.c - "kctui need PROFILE... [--apply -o FILE]" and "kctui need
 * --list": a feature the recording did not see (core/profile.h) applied
 * through enable's engine with its reasons, and kept by every policy
 * through keep decisions that name the profile.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/trim/decisions.h"
#include "../core/explain/enable.h"
#include "../core/explain/explain.h"
#include "../core/profile/profile.h"
#include "../core/session.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "cli.h"

/* kctui need --list: every profile found, with its description. */
static int
cmd_need_list(void)
{
	char		**names = profile_names(), *cause = NULL;
	struct profile	 *pr;
	size_t		  i;
	int		  status = 0;

	if (names[0] == NULL) {
		fprintf(stderr, "kctui: need: no profiles found (looked in "
		    "~/.config/kctui/profiles, $KCTUI_PROFILE_DIR and "
		    "profiles/ beside kctui)\n");
		strv_free(names);
		return 1;
	}
	for (i = 0; names[i] != NULL; i++) {
		if ((pr = profile_find(names[i], &cause)) == NULL) {
			/* A broken file is said, the others still listed. */
			fprintf(stderr, "kctui: %s\n", cause);
			free(cause);
			cause = NULL;
			status = 1;
			continue;
		}
		printf("%-14s %s (%zu options)\n", pr->name,
		    pr->description, pr->noptions);
		profile_free(pr);
	}
	strv_free(names);
	return status;
}

/* One option's lines: what it asks, what happened, the plan's steps. */
static void
cmd_need_print(struct kconfig *k, const struct profile_result *r)
{
	const struct profile_option	*o = r->opt;
	size_t				 i;

	switch (r->status) {
	case PROFILE_ALREADY:
		printf("  CONFIG_%s: %s already: %s\n", o->name,
		    explain_tri_name(kc_sym_tristate(k, r->sym)), o->reason);
		break;
	case PROFILE_PLANNED:
		/* The plan's last step is the option itself: its reason is
		 * the profile's, said on the option's line. */
		if (r->again)
			printf("  CONFIG_%s=%s (a later change made it %s: "
			    "set again): %s%s\n", o->name,
			    explain_tri_name(r->want),
			    explain_tri_name(r->was), o->reason,
			    r->plan->nsteps > 1 ? "; first:" : "");
		else
			printf("  CONFIG_%s=%s (was %s): %s%s\n", o->name,
			    explain_tri_name(r->want),
			    explain_tri_name(r->was), o->reason,
			    r->plan->nsteps > 1 ? "; first:" : "");
		for (i = 0; i + 1 < r->plan->nsteps; i++)
			printf("      %zu. CONFIG_%s=%s: %s\n", i + 1,
			    kc_sym_name(r->plan->steps[i].sym),
			    explain_tri_name(r->plan->steps[i].value),
			    r->plan->steps[i].reason);
		break;
	case PROFILE_CANNOT:
	case PROFILE_ABSENT:
	case PROFILE_LOST:
		printf("  CONFIG_%s%s: this tree can't give it%s: %s.\n",
		    o->name, o->value == KC_YES ? "=y" : "",
		    o->optional ? " (optional)" : "", r->why_not);
		printf("      needed for: %s [%s]\n", o->reason, o->source);
		break;
	}
}

/* The summary of one profile's results. */
static void
cmd_need_summary(const struct profile_apply *pa, const struct profile *pr)
{
	const struct profile_result	*r;
	size_t				 i, given = 0, enabled = 0, cannot = 0;
	size_t				 optional = 0;

	for (i = 0; i < pa->nresults; i++) {
		r = &pa->results[i];
		if (r->profile != pr)
			continue;
		if (r->status == PROFILE_ALREADY)
			given++;
		else if (r->status == PROFILE_PLANNED)
			enabled++;
		else if (r->opt->optional)
			optional++;
		else
			cannot++;
	}
	printf("%s: %zu options: %zu given already, %zu enabled, %zu this "
	    "tree can't give", pr->name, pr->noptions, given, enabled,
	    cannot + optional);
	if (optional > 0)
		printf(" (%zu optional)", optional);
	printf(".\n");
}

/*
 * --workload FILE: the profiles' steps appended to a workload (the twin's,
 * kctui twin -o DIR), for kctui verify --workload FILE to run; a step the
 * file has already is left as it is. 0, or -1 with the reason printed.
 */
static int
cmd_need_workload(const char *path, struct profile *const *prs, size_t n)
{
	struct strbuf	 sb;
	char		*text, *step, *cause = NULL;
	size_t		 len, i, added = 0;
	int		 rc = -1;

	if ((text = file_read_regular(path, &len)) == NULL) {
		fprintf(stderr, "kctui: %s: %s\n", path, errno == EINVAL ?
		    "not a regular file" : strerror(errno));
		return -1;
	}
	strbuf_init(&sb);
	strbuf_add(&sb, text, len);
	for (i = 0; i < n; i++) {
		if ((step = profile_workload_text(prs[i])) == NULL) {
			printf("%s: its step is described, not written as a "
			    "script: nothing added to %s\n", prs[i]->name,
			    path);
			continue;
		}
		if (profile_workload_has_step(sb.s, prs[i]->step_name))
			printf("%s: %s has a step %s already\n",
			    prs[i]->name, path, prs[i]->step_name);
		else {
			if (sb.len > 0 && sb.s[sb.len - 1] != '\n')
				strbuf_addc(&sb, '\n');
			strbuf_adds(&sb, step);
			printf("%s: step %s added to %s\n", prs[i]->name,
			    prs[i]->step_name, path);
			added++;
		}
		free(step);
	}
	if (added > 0 && file_write_atomic(path, sb.s, sb.len, 0644, 0,
	    &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		goto out;
	}
	rc = 0;
out:
	strbuf_free(&sb);
	free(text);
	return rc;
}

/*
 * The profiles the session's bundles show the machine used, added to
 * prs (room for one more) unless named already: systemd, when a
 * bundle's mounts show it ran (core/profile-detect.c). -1 with the
 * reason printed when its profile can't be read.
 */
static int
cmd_need_detect(struct session *s, struct profile **prs, size_t *n)
{
	char	*why = NULL, *cause = NULL;
	size_t	 i;
	int	 b;

	for (i = 0; i < *n; i++)
		if (strcmp(prs[i]->name, "systemd") == 0)
			return 0;
	for (b = 0; b < s->nbundles && why == NULL; b++)
		why = profile_bundle_systemd(s->bundles[b]);
	if (why == NULL)
		return 0;
	printf("%s shows its machine ran systemd (%s): profile systemd "
	    "applied too\n", s->bundles[b - 1], why);
	free(why);
	if ((prs[*n] = profile_find("systemd", &cause)) == NULL) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return -1;
	}
	(*n)++;
	return 0;
}

/* kctui [-e BUNDLE...] need PROFILE... [--apply -o FILE] [--decisions FILE]
 * [--no-record] [--workload FILE] | need --list */
int
cmd_need(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "apply", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "decisions", required_argument, NULL, 'd' },
		{ "no-record", no_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "workload", required_argument, NULL, 'w' },
		{ "evidence", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	struct profile		**prs = NULL;
	struct profile_apply	 *pa = NULL;
	struct decisions	 *d = NULL;
	struct kconfig		 *k = NULL;
	const char		 *labels[] = { "-o", "--decisions" }, *names[2];
	char			 *out = NULL, *dpath = NULL, *cause = NULL;
	char			 *wpath = NULL, *spec;
	bool			  apply = false, record = true, list = false;
	size_t			  i, j, n = 0, nrec;
	int			  ch, status = 1;

	optind = 0;
	/* -e after the command, as suggest, export and explain take it */
	while ((ch = getopt_long(argc, argv, "e:o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'a':
			apply = true;
			break;
		case 'o':
			free(out);
			out = session_path(s, optarg);
			break;
		case 'd':
			free(dpath);
			dpath = session_path(s, optarg);
			break;
		case 'n':
			record = false;
			break;
		case 'l':
			list = true;
			break;
		case 'w':
			free(wpath);
			wpath = session_path(s, optarg);
			break;
		default:
			goto usage;
		}
	}
	if (list) {
		if (optind != argc || apply || out != NULL || wpath != NULL)
			goto usage;
		free(dpath);
		return cmd_need_list();
	}
	/* With -e BUNDLE, the profiles the bundles show are applied by
	 * themselves, so no PROFILE is needed then. */
	if ((optind >= argc && s->nbundles == 0) || apply != (out != NULL))
		goto usage;
	/* Every profile is read before anything is opened: a bad file is
	 * a file:line error and nothing is written. */
	prs = xcalloc((size_t)(argc - optind) + 1, sizeof *prs);
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		/* A path is from where kctui started (-C changed there). */
		spec = strchr(argv[i], '/') != NULL ||
		    (strlen(argv[i]) > 5 && strcmp(argv[i] +
		    strlen(argv[i]) - 5, ".yaml") == 0) ?
		    session_path(s, argv[i]) : xstrdup(argv[i]);
		prs[n] = profile_find(spec, &cause);
		free(spec);
		if (prs[n] == NULL) {
			fprintf(stderr, "kctui: %s\n", cause);
			free(cause);
			goto done;
		}
		for (j = 0; j < n; j++)
			if (strcmp(prs[j]->name, prs[n]->name) == 0)
				break;
		if (j < n) {
			/* The same profile twice: once is enough. */
			profile_free(prs[n]);
			continue;
		}
		n++;
	}
	if (cmd_need_detect(s, prs, &n) != 0)
		goto done;
	if (n == 0) {
		printf("no profile named, and the bundles show none to "
		    "apply (kctui need --list)\n");
		status = 0;
		goto done;
	}
	if (dpath == NULL)
		dpath = xstrdup(s->decisions);
	/* -o naming the decisions file would lose one of them. */
	names[0] = out;
	names[1] = record ? dpath : NULL;
	if (cli_distinct_files("need", labels, names, 2) != 0)
		goto done;
	if (record) {
		d = decisions_load(dpath, &cause);
		if (d == NULL || cause != NULL) {
			fprintf(stderr, "kctui: %s\n", cause);
			if (d != NULL)
				fprintf(stderr, "kctui: fix or remove the bad "
				    "lines of %s\n", dpath);
			free(cause);
			goto done;
		}
	}
	if ((k = cli_open_config(s)) == NULL)
		goto done;
	pa = profile_apply(k, prs, n);
	for (i = 0; i < n; i++) {
		printf("Profile %s: %s (%s)\n", prs[i]->name,
		    prs[i]->description, prs[i]->path);
		for (j = 0; j < pa->nresults; j++)
			if (pa->results[j].profile == prs[i])
				cmd_need_print(k, &pa->results[j]);
		cmd_need_summary(pa, prs[i]);
		if (prs[i]->step_name != NULL)
			printf("Its workload step %s: %s\n",
			    prs[i]->step_name, prs[i]->step_description);
	}
	status = pa->nmissing > 0 ? 2 : 0;
	if (pa->nmissing > 0)
		printf("%zu option%s needed this tree can't give (above).\n",
		    pa->nmissing, pa->nmissing == 1 ? "" : "s");
	if (apply) {
		if (kconfig_write(k, out, &cause) != 0) {
			fprintf(stderr, "kctui: %s\n", cause);
			free(cause);
			status = 1;
			goto done;
		}
		printf("configuration written to %s (%zu change%s)\n", out,
		    pa->nchanges, pa->nchanges == 1 ? "" : "s");
	} else if (pa->nchanges > 0)
		printf("(configuration not written: add --apply -o FILE to "
		    "write the %zu change%s)\n", pa->nchanges,
		    pa->nchanges == 1 ? "" : "s");
	if (record) {
		nrec = profile_record(pa, d);
		if (decisions_save(d, dpath, &cause) != 0) {
			fprintf(stderr, "kctui: %s\n", cause);
			free(cause);
			status = 1;
			goto done;
		}
		printf("%zu keep decision%s recorded in %s\n", nrec,
		    nrec == 1 ? "" : "s", dpath);
	}
	if (wpath != NULL && cmd_need_workload(wpath, prs, n) != 0)
		status = 1;
done:
	profile_apply_free(pa);
	if (k != NULL)
		kconfig_free(k);
	decisions_free(d);
	for (i = 0; i < n; i++)
		profile_free(prs[i]);
	free(prs);
	free(out);
	free(dpath);
	free(wpath);
	return status;
usage:
	/* the table's usage, as every command prints it */
	cmd_usage_name(stderr, "need");
	free(out);
	free(dpath);
	free(wpath);
	return 1;
}
