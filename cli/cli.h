/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command line: the command table (cmd.c) and the commands
 * (cmd-*.c). Each command gets the session main() resolved (core/session.h)
 * and its own arguments, argv[0] being its name.
 */
#ifndef KC_CLI_H
#define KC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct session;
struct session_evidence;
struct kconfig;
struct evidence;

/*
 * A command: its name, the synopsis after the name and the text of the
 * help's line (a newline in text continues at the text's column; text
 * starting with one starts on the next line; entries with no text are
 * listed together on one line), and what runs it.
 */
struct cmd_entry {
	const char	*name;
	const char	*args;
	const char	*text;
	int		(*exec)(struct session *, int argc, char **argv);
};

/* cmd.c */
const struct cmd_entry *cmd_lookup(const char *name);
void	 cmd_usage(FILE *);
/* One command's usage, for "kctui COMMAND --help". */
void	 cmd_usage_one(FILE *, const struct cmd_entry *);
/* The usage of the command called name, from the table: the one text a
 * command's bad option and its --help print. */
void	 cmd_usage_name(FILE *, const char *name);
/* A writer waits for another's lock on dir: said on stderr (lib/fileio's
 * path_lock_wait, decisions_on_wait). */
void	 cli_lock_waiting(void *arg, const char *dir);
/* What --version prints after "kctui ". */
#define KCTUI_VERSION	"0.24 (2026-12-07)"
/* The session's config and evidence, with the reason printed on
 * failure. */
struct kconfig *cli_open_config(struct session *);
int	 cli_open_evidence(struct session *, struct session_evidence *);
int	 cli_open_both(struct session *, struct kconfig **,
	     struct session_evidence *, double *t_config, double *t_evidence);
/* " (did you mean A, B?)" for a name no symbol has, "" when none is
 * close (malloc'd). */
char	*cli_did_you_mean(struct kconfig *, const char *name);
/* The bundles' architecture against the configuration's: said; with
 * refuse and not any_arch, refused (-1). */
int	 cli_arch_check(struct session *, const struct evidence *,
	     bool refuse, bool any_arch);
/* Warnings from evidence readers and the engine: "kctui: text". */
void	 cli_warn_prefixed(void *, const char *text);
/* Option arguments shared by commands: --policy P into the session,
 * --format text|tsv; -1 with the reason printed if bad. */
int	 cli_policy(struct session *, const char *arg);
int	 cli_format(const char *arg, bool *tsv);
/* Two of a command's files (labels[i]: "--report") naming one file: -1
 * with the reason printed; NULL names are not given. */
int	 cli_distinct_files(const char *cmd, const char *const *labels,
	     const char *const *names, size_t n);

/* cmd-conf.c: the configuration modes, and a name that is no command */
int	cmd_olddefconfig(struct session *, int argc, char **argv);
int	cmd_defconfig(struct session *, int argc, char **argv);
int	cmd_savedefconfig(struct session *, int argc, char **argv);
int	cmd_allconfig(struct session *, int argc, char **argv);
int	cmd_unknown(struct session *, int argc, char **argv);
/* kctui print-env */
int	cmd_print_env(struct session *, int argc, char **argv);
/* kctui evidence -e BUNDLE... [--format text|tsv] [--unmapped] */
int	cmd_evidence(struct session *, int argc, char **argv);
/* kctui collect -o DIR [--trace-seconds N] [-- COMMAND ARGS...] */
int	cmd_collect(struct session *, int argc, char **argv);
/* kctui collect --append BUNDLE [--from DIR | --import-modprobed FILE]
 * (cmd-collect-append.c) */
int	cmd_collect_append(struct session *, int argc, char **argv);
/* kctui explain SYMBOL */
int	cmd_explain(struct session *, int argc, char **argv);
/* kctui enable SYMBOL[=y|m] [--apply -o FILE] */
int	cmd_enable(struct session *, int argc, char **argv);
/* kctui need PROFILE... [--apply -o FILE] [--decisions FILE]
 * [--no-record] | need --list (cmd-need.c) */
int	cmd_need(struct session *, int argc, char **argv);
/* kctui suggest -e BUNDLE... [--policy P] [--format text|tsv]
 * [--decisions FILE] */
int	cmd_suggest(struct session *, int argc, char **argv);
/* kctui export -e BUNDLE... -o FILE [--policy P] [--accept X]...
 * [--report FILE] [--decisions FILE] */
int	cmd_export(struct session *, int argc, char **argv);
/* kctui verify -e BUNDLE [--config TRIMMED] ... (docs/verify.md) */
int	cmd_verify(struct session *, int argc, char **argv);
/* kctui twin -e BUNDLE... [-o DIR [--force]] [--qemu PATH] */
int	cmd_twin(struct session *, int argc, char **argv);
/* kctui decide CONFIG_X keep|trim|forget [REASON...] [--decisions FILE] */
int	cmd_decide(struct session *, int argc, char **argv);
#endif
