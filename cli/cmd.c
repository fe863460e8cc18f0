/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.c - the command table: every mode and command kctui runs, the help
 * text made from it, and what the commands share to open the session's
 * configuration and evidence with the reasons printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/trim/export.h"
#include "../core/trim/trim.h"
#include "../kconfig-parser/kconfig.h"
#include "../core/session.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "cli.h"

/* The column of the help's texts. */
#define CMD_TEXT_COLUMN 25

static const struct cmd_entry cmd_table[] = {
	{ "olddefconfig", NULL,
	  "update the config, new symbols to their defaults",
	  cmd_olddefconfig },
	{ "defconfig", "[FILE]",
	  "new config from FILE (default: the arch's defconfig)",
	  cmd_defconfig },
	{ "savedefconfig", "[FILE]",
	  "write the minimal config to FILE (default: defconfig)",
	  cmd_savedefconfig },
	{ "allnoconfig", NULL, NULL, cmd_allconfig },
	{ "allyesconfig", NULL, NULL, cmd_allconfig },
	{ "allmodconfig", NULL, NULL, cmd_allconfig },
	{ "alldefconfig", NULL, NULL, cmd_allconfig },
	{ "print-env", NULL, "the environment conf would see", cmd_print_env },
	{ "evidence", "-e BUNDLE...", "[--format text|tsv] [--unmapped] [--all]\n"
	  "[--functions] [--stats]: what evidence says of each option",
	  cmd_evidence },
	{ "collect", "-o DIR", "[--force] [--trace-seconds N] [--no-trace] "
	  "[--buffer-kb KB]\n[-- COMMAND ARGS...]: record an evidence bundle "
	  "here; --append BUNDLE\n[--from DIR | --import-modprobed FILE]: add "
	  "what this machine shows now", cmd_collect },
	{ "explain", "SYMBOL [-e BUNDLE...]",
	  "its value, why, what blocks it, what depends on it", cmd_explain },
	{ "enable", "SYMBOL[=y|m]",
	  "[--apply -o FILE] the changes that turn it on", cmd_enable },
	{ "need", "PROFILE... | -e BUNDLE...", "[--apply -o FILE] "
	  "[--decisions FILE] [--no-record]\n[--workload FILE] | need --list: "
	  "what a feature needs (profiles/*.yaml), kept by every policy",
	  cmd_need },
	{ "suggest", "-e BUNDLE...",
	  "[--policy modules|aggressive|verified|minimal] [--format text|tsv]\n"
	  "[--decisions FILE] [--kept] [--any-arch]: trim candidates by "
	  "subsystem\n(bundles of another architecture than the config: "
	  "refused unless --any-arch)",
	  cmd_suggest },
	{ "export", "-e BUNDLE... -o FILE",
	  "[--policy P] [--accept all|SUBSYSTEM]...\n"
	  "[--report FILE[.yaml]] [--decisions FILE] [--builtin] [--any-arch]:\n"
	  "write the trimmed config; without --accept every subsystem's\n"
	  "candidates are accepted (as --accept all), less what the\n"
	  "decisions file keeps", cmd_export },
	{ "verify", "-e BUNDLE",
	  "[--config TRIMMED] [--base FILE] [--workload SCRIPT] [-j N]\n"
	  "[--try CONFIG_X,...] [-o FILE] [--report FILE] [--format text|tsv]\n"
	  "[--timeout S] [--work-dir DIR] [--no-fill-back] [--no-kvm]\n"
	  "[--as-is] [--build-bundle-helpers] [--max-probes N]\n"
	  "[--boot-runs N] [--compare CONFIG] [--userspace | --no-userspace]\n"
	  "[--userspace-root]\n"
	  "[--base-kernel ROOT | --no-baseline | --baseline-only]:\n"
	  "build and boot the trimmed config under QEMU, put back what the\n"
	  "workload needs", cmd_verify },
	{ "twin", "-e BUNDLE...", "[-o DIR [--force]] [--qemu PATH]\n"
	  "the bundle's machine as a QEMU vm file and a workload", cmd_twin },
	{ "decide", "CONFIG_X keep|trim|forget [REASON...] [--decisions FILE]",
	  "\nrecord a decision (default file: CONFIG.kctui-decisions beside "
	  "the config)",
	  cmd_decide },
};
#define CMD_COUNT (sizeof cmd_table / sizeof cmd_table[0])

/* The command called name, or NULL. */
const struct cmd_entry *
cmd_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < CMD_COUNT; i++)
		if (strcmp(cmd_table[i].name, name) == 0)
			return &cmd_table[i];
	return NULL;
}

/* One entry's line of the help (and the entries without text after it,
 * on the same line); the index of the next entry. */
static size_t
cmd_usage_entry(struct strbuf *sb, size_t i)
{
	const struct cmd_entry	*e = &cmd_table[i];
	size_t			 start = sb->len;
	const char		*p;

	strbuf_addf(sb, "  %s%s%s", e->name, e->args != NULL ? " " : "",
	    e->args != NULL ? e->args : "");
	if (e->text == NULL) {
		while (i + 1 < CMD_COUNT && cmd_table[i + 1].text == NULL)
			strbuf_addf(sb, " | %s", cmd_table[++i].name);
		strbuf_addf(sb, "\n");
		return i + 1;
	}
	if (e->text[0] != '\n')
		strbuf_addf(sb, "%*s", sb->len - start + 2 > CMD_TEXT_COLUMN ?
		    2 : CMD_TEXT_COLUMN - (int)(sb->len - start), "");
	for (p = e->text; *p != '\0'; p++) {
		if (*p == '\n')
			strbuf_addf(sb, "\n%*s", CMD_TEXT_COLUMN, "");
		else
			strbuf_addc(sb, *p);
	}
	strbuf_addf(sb, "\n");
	return i + 1;
}

/* One command's usage ("kctui COMMAND --help"), from the table. */
void
cmd_usage_one(FILE *f, const struct cmd_entry *e)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	strbuf_addf(&sb, "usage: kctui [OPTIONS] ");
	(void)cmd_usage_entry(&sb, (size_t)(e - cmd_table));
	/* The entry is indented for the list; one line here. */
	fputs(sb.s, f);
	fprintf(f, "(kctui --help: the options before the command)\n");
	strbuf_free(&sb);
}

/* Another writer holds the lock (see cli.h). */
void
cli_lock_waiting(void *arg, const char *dir)
{
	(void)arg;
	fprintf(stderr, "kctui: waiting for another kctui writing in %s "
	    "(it holds the lock on that directory)\n", dir);
}

/* The usage of the command called name (see cli.h). */
void
cmd_usage_name(FILE *f, const char *name)
{
	const struct cmd_entry *e = cmd_lookup(name);

	if (e != NULL)
		cmd_usage_one(f, e);
}

/* The usage and help text, made from the table. */
void
cmd_usage(FILE *f)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	strbuf_addf(&sb, "usage: kctui [-C DIR] [--config FILE] "
	    "[--kconfig FILE] [--no-cache] [-j JOBS] [-s] [-v] [-e BUNDLE] "
	    "[--theme NAME|FILE]\n"
	    "             [--policy modules|aggressive|verified|minimal] "
	    "[--decisions FILE] [NAME=value...] [MODE [ARG]]\n"
	    "       kctui --help | --version | COMMAND --help\n"
	    "without a mode: the interactive configuration browser (with -e: "
	    "trim review, t)\n"
	    "modes:\n");
	for (i = 0; i < CMD_COUNT; )
		i = cmd_usage_entry(&sb, i);
	fputs(sb.s, f);
	strbuf_free(&sb);
}

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

/* " (did you mean A, B?)" for a name that is no symbol of k (the
 * closest names by edit distance), "" when none is close; malloc'd. The
 * one hint of explain, enable and decide. */
char *
cli_did_you_mean(struct kconfig *k, const char *name)
{
	struct strbuf		 sb;
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
	strbuf_init(&sb);
	for (j = 0; j < nbest; j++)
		strbuf_addf(&sb, "%s%s", j ? ", " : " (did you mean ",
		    kc_sym_name(best[j]));
	strbuf_adds(&sb, nbest ? "?)" : "");
	return strbuf_detach(&sb);
}

/* The session's configuration; NULL, with the reason printed, on
 * failure. */
struct kconfig *
cli_open_config(struct session *s)
{
	struct kconfig	*k;
	char		*cause = NULL;

	if ((k = session_open_config(s, &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
	}
	return k;
}

/* The session's evidence, its warnings printed; -1 (reason printed) on
 * failure, 0 with everything NULL when no bundle was given. */
int
cli_open_evidence(struct session *s, struct session_evidence *ce)
{
	char	*msgs = NULL;
	int	 rc;

	rc = session_open_evidence(s, ce, &msgs);
	if (msgs != NULL)
		fputs(msgs, stderr);
	free(msgs);
	return rc;
}

/* Both at once (session_open_both), messages printed; -1 if either
 * fails. */
int
cli_open_both(struct session *s, struct kconfig **kp,
    struct session_evidence *ce, double *t_config, double *t_evidence)
{
	char	*msgs = NULL;
	int	 rc;

	rc = session_open_both(s, kp, ce, t_config, t_evidence, &msgs);
	if (msgs != NULL)
		fputs(msgs, stderr);
	free(msgs);
	return rc;
}

/* Warnings from evidence readers and the engine: "kctui: text". */
void
cli_warn_prefixed(void *arg, const char *text)
{
	(void)arg;
	fprintf(stderr, "kctui: %s\n", text);
}

/* --policy P of a command (or before the mode): into s, else the reason
 * printed and -1. */
int
cli_policy(struct session *s, const char *arg)
{
	char	*cause = NULL;

	if (trim_policy_parse(arg, &s->policy, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* --format text|tsv: *tsv set for tsv, else the usage printed and -1. */
int
cli_format(const char *arg, bool *tsv)
{
	if (strcmp(arg, "tsv") == 0)
		*tsv = true;
	else if (strcmp(arg, "text") != 0) {
		fprintf(stderr, "kctui: --format text|tsv\n");
		return -1;
	}
	return 0;
}

/*
 * Refuse, before anything is read or written, two of a command's files
 * that are one file (after symlinks and "./"): an export whose report
 * names its input config would replace the user's config with markdown.
 * names[i] may be NULL (not given). -1 with the reason printed.
 */
int
cli_distinct_files(const char *cmd, const char *const *labels,
    const char *const *names, size_t n)
{
	char *cause = NULL;

	/* The rule is the browser's too (core/export.c). */
	if (export_distinct_files(cmd, labels, names, n, &cause) == 0)
		return 0;
	fprintf(stderr, "kctui: %s\n", cause);
	free(cause);
	return -1;
}

/*
 * The bundles against the configuration's architecture (core's
 * trim_arch_mismatch, the browser's too): a mismatch is said; with
 * refuse (suggest, export: a list or a file made of evidence that cannot
 * speak for this config) it is refused, -1, unless --any-arch was given.
 */
int
cli_arch_check(struct session *s, const struct evidence *ev, bool refuse,
    bool any_arch)
{
	const char	*srcarch = envp_get(s->envp, "SRCARCH");
	char		*why;

	why = trim_arch_mismatch(ev, s->config_text, s->config_path,
	    srcarch != NULL ? srcarch : "x86");
	if (why == NULL)
		return 0;
	if (refuse && !any_arch) {
		fprintf(stderr, "kctui: %s.\nkctui: nothing done: every option "
		    "the bundle could not show would be a candidate (--any-arch "
		    "to go on anyway)\n", why);
		free(why);
		return -1;
	}
	fprintf(stderr, "kctui: warning: %s\n", why);
	free(why);
	return 0;
}
