/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kctui.c - the command line: kctui [options] MODE [ARG].
 *
 * The configuration modes do what the kernel's scripts/kconfig/conf does
 * for the make target of the same name, in the same environment the top
 * Makefile would give it (derived here when kctui is run directly).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/env.h"
#include "../lib/util.h"
#include "cli.h"
#include "../tui/tui.h"

extern char **environ;


/* Whether an argument is a make-style variable assignment. */
static bool
cli_is_assignment(const char *arg)
{
	const char *p = arg;

	if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return false;
	while (*p == '_' || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		p++;
	return *p == '=';
}

/* A path given on the command line, as seen from where kctui started. */
char *
cli_path(struct cli *c, const char *path)
{
	if (path[0] == '/' || c->cwd == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", c->cwd, path);
}

/* Print usage and exit. */
static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: kctui [-C DIR] [--config FILE] [--kconfig FILE] "
	    "[--no-cache] [-j JOBS] [-s] [-v] [-e BUNDLE] [--theme NAME|FILE]\n"
	    "             [--policy modules|aggressive] [--decisions FILE] "
	    "[NAME=value...] [MODE [ARG]]\n"
	    "without a mode: the interactive configuration browser (with -e: "
	    "trim review, t)\n"
	    "modes:\n"
	    "  olddefconfig           update the config, new symbols to "
	    "their defaults\n"
	    "  defconfig [FILE]       new config from FILE (default: the "
	    "arch's defconfig)\n"
	    "  savedefconfig [FILE]   write the minimal config to FILE "
	    "(default: defconfig)\n"
	    "  allnoconfig | allyesconfig | allmodconfig | alldefconfig\n"
	    "  print-env              the environment conf would see\n"
	    "  evidence -e BUNDLE...  [--format text|tsv] [--unmapped]\n"
	    "                         what evidence says of each option\n"
	    "  collect -o DIR         [--trace-seconds N] [-- COMMAND...]\n"
	    "                         record an evidence bundle here\n"
	    "  explain SYMBOL         its value, why, what blocks it, what "
	    "depends on it\n"
	    "  enable SYMBOL[=y|m]    [--apply -o FILE] the changes that "
	    "turn it on\n"
	    "  suggest -e BUNDLE...   [--policy modules|aggressive] "
	    "[--format text|tsv]\n"
	    "                         [--decisions FILE]: trim candidates "
	    "by subsystem\n"
	    "  export -e BUNDLE... -o FILE  [--policy P] [--accept all|"
	    "SUBSYSTEM]...\n"
	    "                         [--report FILE[.yaml]] [--decisions "
	    "FILE]: write the trimmed config\n"
	    "  decide CONFIG_X keep|trim|forget [REASON...] [--decisions "
	    "FILE]\n"
	    "                         record a decision (default file: "
	    ".kctui-decisions in the tree)\n");
	exit(status);
}

/* Print warnings on stderr. */
static void
cli_warn(void *arg, const char *text)
{
	(void)arg;
	fprintf(stderr, "%s\n", text);
}

/* conf's messages: "#\n# text\n#" on stdout, unless silent. */
static void
cli_info(void *arg, const char *text)
{
	struct cli *c = arg;

	if (!c->silent)
		printf("#\n# %s\n#\n", text);
}

/* $(info,...) output, printed as is. */
static void
cli_pp_info(void *arg, const char *text)
{
	(void)arg;
	printf("%s\n", text);
}

/* Set or replace NAME in a malloc'd environment array. */
static char **
cli_setenv(char **envp, const char *name, const char *value)
{
	size_t	n, len = strlen(name);

	for (n = 0; envp[n] != NULL; n++) {
		if (strncmp(envp[n], name, len) == 0 && envp[n][len] == '=') {
			free(envp[n]);
			envp[n] = xasprintf("%s=%s", name, value);
			return envp;
		}
	}
	envp = xrealloc(envp, (n + 2) * sizeof *envp);
	envp[n] = xasprintf("%s=%s", name, value);
	envp[n + 1] = NULL;
	return envp;
}

/* The arch's default defconfig: arch/$SRCARCH/configs/$KBUILD_DEFCONFIG,
 * both derived by env_derive() as the Makefiles do. */
static char *
cli_default_defconfig(struct cli *c)
{
	const char *srcarch = env_lookup(c->envp, "SRCARCH");
	const char *name = env_lookup(c->envp, "KBUILD_DEFCONFIG");

	if (srcarch == NULL || name == NULL || *name == '\0')
		return NULL;
	return xasprintf("arch/%s/configs/%s", srcarch, name);
}

/* KCONFIG_ALLCONFIG: a seed file for the all*config modes. 0, or 1 with
 * a message printed. */
static int
cli_allconfig(struct cli *c, struct kconfig *k, const char *mode)
{
	const char	*name = env_lookup(c->envp, "KCONFIG_ALLCONFIG");
	char		*cause = NULL, *file;

	if (name == NULL)
		return 0;
	if (strcmp(name, "") != 0 && strcmp(name, "1") != 0) {
		if (kconfig_read_simple(k, name, &cause) != 0) {
			fprintf(stderr, "*** Can't read seed configuration "
			    "\"%s\"!\n", name);
			free(cause);
			return 1;
		}
		return 0;
	}
	file = xasprintf("%s.config", mode);	/* allno.config etc. */
	if (kconfig_read_simple(k, file, &cause) != 0) {
		free(cause);
		cause = NULL;
		if (kconfig_read_simple(k, "all.config", &cause) != 0) {
			fprintf(stderr, "*** KCONFIG_ALLCONFIG set, but no "
			    "\"%s\" or \"all.config\" file found\n", file);
			free(cause);
			free(file);
			return 1;
		}
	}
	free(file);
	return 0;
}

/* Run one configuration mode; the exit status. */
static int
cli_mode(struct cli *c, const char *mode, const char *arg)
{
	struct kconfig		*k;
	char			*cause = NULL, *defconfig = NULL;
	const char		*werror;
	int			 status = 1;

	k = cli_new_kconfig(c, cli_warn, cli_info);

	if (kconfig_parse(k, c->kconfig, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		goto out;
	}

	if (strcmp(mode, "defconfig") == 0) {
		if (arg == NULL) {
			defconfig = cli_default_defconfig(c);
			if (defconfig == NULL) {
				fprintf(stderr, "kctui: no SRCARCH to find the "
				    "default defconfig\n");
				goto out;
			}
			if (!c->silent)
				printf("*** Default configuration is based on "
				    "'%s'\n", strrchr(defconfig, '/') + 1);
			arg = defconfig;
		}
		if (kconfig_read(k, arg, &cause) != 0) {
			fprintf(stderr, "***\n*** Can't find default "
			    "configuration \"%s\"!\n***\n", arg);
			goto out;
		}
		kconfig_set_all_new(k, KC_NEW_DEFAULT);
	} else if (strcmp(mode, "savedefconfig") == 0 ||
	    strcmp(mode, "olddefconfig") == 0) {
		/* conf treats an unreadable config as missing and would start
		 * from defaults; say so instead of silently replacing it. */
		const char *name = env_lookup(c->envp, "KCONFIG_CONFIG");

		if (name == NULL)
			name = ".config";
		if (access(name, F_OK) == 0 && access(name, R_OK) != 0) {
			fprintf(stderr, "kctui: %s: %s\n", name,
			    strerror(errno));
			goto out;
		}
		kconfig_read(k, NULL, &cause);
	} else if (strcmp(mode, "allnoconfig") == 0 ||
	    strcmp(mode, "allyesconfig") == 0 ||
	    strcmp(mode, "allmodconfig") == 0 ||
	    strcmp(mode, "alldefconfig") == 0) {
		char *m = xstrndup(mode, strlen(mode) - 6);

		if (cli_allconfig(c, k, m) != 0) {
			free(m);
			goto out;
		}
		free(m);
		kconfig_set_all_new(k, mode[3] == 'n' ? KC_NEW_NO :
		    mode[3] == 'y' ? KC_NEW_YES : mode[3] == 'm' ?
		    KC_NEW_MOD : KC_NEW_DEFAULT);
	} else {
		fprintf(stderr, "kctui: unknown mode: %s\n", mode);
		usage(1);
	}

	werror = env_lookup(c->envp, "KCONFIG_WERROR");
	if (werror != NULL && kconfig_dep_warnings(k) != 0)
		goto out;

	if (strcmp(mode, "savedefconfig") == 0) {
		if (kconfig_write_defconfig(k, arg != NULL ? arg : "defconfig",
		    &cause) != 0) {
			fprintf(stderr, "*** Error while saving defconfig to: "
			    "%s: %s\n", arg != NULL ? arg : "defconfig", cause);
			goto out;
		}
	} else if (kconfig_write(k, NULL, &cause) != 0) {
		fprintf(stderr, "\n*** Error during writing of the "
		    "configuration: %s\n\n", cause);
		goto out;
	}
	status = 0;
out:
	if (c->verbose) {
		struct kconfig_stats st;

		kconfig_get_stats(k, &st);
		fprintf(stderr, "kctui: %d symbols, %d files; $(shell): %d run, "
		    "%d cached, %d repeated\n", st.nsymbols, st.nfiles,
		    st.shell_runs, st.shell_cached, st.shell_dedup);
	}
	free(cause);
	free(defconfig);
	kconfig_free(k);
	return status;
}

/* Commands other than the configuration modes: each parses its own
 * arguments (argv[0] is the command name). */
static const struct cli_command {
	const char	*name;
	int		(*fn)(struct cli *, int, char **);
} cli_commands[] = {
	{ "evidence", cmd_evidence },
	{ "collect", cmd_collect },
	{ "explain", cmd_explain },
	{ "enable", cmd_enable },
	{ "suggest", cmd_suggest },
	{ "export", cmd_export },
	{ "decide", cmd_decide },
};

/* Free what main() allocated. */
static void
cli_free(struct cli *c)
{
	int i;

	for (i = 0; i < c->nbundles; i++)
		free(c->bundles[i]);
	free(c->bundles);
	env_free(c->envp);
	free(c->vars);
	free(c->cwd);
	free(c->cache);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "kconfig", required_argument, NULL, 'K' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "silent", no_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "theme", required_argument, NULL, 'T' },
		{ "policy", required_argument, NULL, 'P' },
		{ "decisions", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli	 c;
	char		*cause = NULL;
	const char	*mode, *arg, *theme = NULL;
	int		 ch, status, i, nvars;
	long		 cpus;

	/*
	 * Large blocks (the tree's indexes, xz dictionaries, per-run
	 * tables) come from the heap and stay there: glibc would mmap and
	 * munmap each, and every munmap while the loading threads run is a
	 * TLB shootdown across CPUs, expensive under virtualisation (a
	 * third of a suggest's time went there). A short-lived command
	 * gives the memory back at exit anyway.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	memset(&c, 0, sizeof c);
	c.cwd = getcwd(NULL, 0);	/* before -C, for paths given */
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	c.jobs = cpus > 0 ? (int)cpus * 2 : 2;
	while ((ch = getopt_long(argc, argv, "+C:e:hsvj:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'C':
			c.dir = optarg;
			break;
		case 'e':
			cli_add_bundle(&c, optarg);
			break;
		case 'c':
			c.config = optarg;
			break;
		case 'K':
			c.kconfig = optarg;
			break;
		case 'N':
			c.no_cache = true;
			break;
		case 'j':
			c.jobs = atoi(optarg);
			break;
		case 's':
			c.silent = true;
			break;
		case 'v':
			c.verbose = true;
			break;
		case 'T':
			theme = optarg;
			break;
		case 'P':
			if (strcmp(optarg, "modules") != 0 &&
			    strcmp(optarg, "aggressive") != 0) {
				fprintf(stderr, "kctui: --policy "
				    "modules|aggressive, not \"%s\"\n", optarg);
				cli_free(&c);
				return 1;
			}
			c.policy = optarg;
			break;
		case 'D':
			c.decisions = optarg;
			break;
		case 'h':
			usage(0);
		default:
			usage(1);
		}
	}
	/* make-style NAME=value arguments, as in "make CC=clang ...". */
	c.vars = xcalloc((size_t)argc + 1, sizeof *c.vars);
	for (nvars = 0; optind < argc && cli_is_assignment(argv[optind]);
	    optind++)
		c.vars[nvars++] = argv[optind];
	/* No mode: the interactive browser. */
	mode = optind < argc ? argv[optind] : NULL;
	arg = optind + 1 < argc ? argv[optind + 1] : NULL;

	if (c.dir != NULL && chdir(c.dir) != 0) {
		fprintf(stderr, "kctui: %s: %s\n", c.dir, strerror(errno));
		cli_free(&c);
		return 1;
	}
	c.envp = env_derive_args(".", environ, c.vars, &cause);
	if (c.envp == NULL) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		cli_free(&c);
		return 1;
	}
	if (c.config != NULL)
		c.envp = cli_setenv(c.envp, "KCONFIG_CONFIG", c.config);
	/* The top Kconfig: --kconfig, else $KBUILD_KCONFIG as
	 * scripts/kconfig/Makefile does, else Kconfig. */
	if (c.kconfig == NULL) {
		const char *kk = env_lookup(c.envp, "KBUILD_KCONFIG");

		c.kconfig = kk != NULL && *kk != '\0' ? kk : "Kconfig";
	}

	if (mode == NULL) {
		status = tui_main(&c, theme);
		cli_free(&c);
		return status;
	}
	for (i = 0; i < (int)(sizeof cli_commands / sizeof cli_commands[0]);
	    i++) {
		if (strcmp(mode, cli_commands[i].name) != 0)
			continue;
		status = cli_commands[i].fn(&c, argc - optind, argv + optind);
		cli_free(&c);
		return status;
	}
	if (strcmp(mode, "print-env") == 0) {
		for (i = 0; c.envp[i] != NULL; i++)
			printf("%s\n", c.envp[i]);
		cli_free(&c);
		return 0;
	}
	if (access(c.kconfig, R_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s (run kctui inside a kernel "
		    "tree, or give -C DIR or --kconfig FILE)\n", c.kconfig,
		    strerror(errno));
		cli_free(&c);
		return 1;
	}
	(void)cli_pp_info;
	status = cli_mode(&c, mode, arg);
	cli_free(&c);
	return status;
}
