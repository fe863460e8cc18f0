/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kctui.c - the command line: kctui [options] [NAME=value...] [MODE [ARG]].
 * The options fill the session (core/session.h), then the command table
 * (cmd.c) runs the mode; without one, the interactive browser.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/session.h"
#include "../lib/util.h"
#include "../tui/tui.h"
#include "../lib/cachefile.h"
#include "cli.h"

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

/*
 * What was written to stdout reached it: a full disk or an error on the
 * pipe fails the run with a message, as git's close_stdout does, instead
 * of an exit 0 after output that was lost (kctui evidence > /dev/full).
 * The status to exit with.
 */
static int
close_stdout(int status)
{
	int	err = 0;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		err = errno != 0 ? errno : EIO;
	if (fclose(stdout) != 0 && err == 0)
		err = errno != 0 ? errno : EIO;
	if (err == 0)
		return status;
	fprintf(stderr, "kctui: write error on standard output: %s\n",
	    strerror(err));
	return status != 0 ? status : 1;
}

/* The usage on stdout (status 0) or stderr, and exit. */
static void __attribute__((noreturn))
usage(int status)
{
	cmd_usage(status ? stderr : stdout);
	exit(close_stdout(status));
}

static int	kctui_main(int, char **);

/* kctui: the run, then stdout flushed and closed with its errors said. */
int
main(int argc, char **argv)
{
	return close_stdout(kctui_main(argc, argv));
}

/* The options before the command, the session, then the command or the
 * browser; the exit status. */
static int
kctui_main(int argc, char **argv)
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
		{ "version", no_argument, NULL, 'V' },
		{ "theme", required_argument, NULL, 'T' },
		{ "policy", required_argument, NULL, 'P' },
		{ "decisions", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*cmd;
	struct session		 s;
	char			*cause = NULL;
	const char		*theme = NULL, *decisions = NULL;
	int			 ch, status, vars_start;

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
	session_init(&s);
	while ((ch = getopt_long(argc, argv, "+C:e:hsvj:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'C':
			s.dir = optarg;
			break;
		case 'e':
			session_add_bundle(&s, optarg);
			break;
		case 'c':
			s.config = optarg;
			break;
		case 'K':
			s.kconfig = optarg;
			break;
		case 'N':
			s.no_cache = true;
			break;
		case 'j':
			s.jobs = atoi(optarg);
			break;
		case 's':
			s.silent = true;
			break;
		case 'v':
			s.verbose = true;
			break;
		case 'T':
			theme = optarg;
			break;
		case 'P':
			if (cli_policy(&s, optarg) != 0) {
				session_free(&s);
				return 1;
			}
			break;
		case 'D':
			decisions = optarg;
			break;
		case 'h':
			usage(0);
		case 'V':
			printf("kctui %s\n", KCTUI_VERSION);
			session_free(&s);
			return 0;
		default:
			usage(1);
		}
	}
	/* -v: a cache that fails its checks is said as it is rebuilt */
	if (s.verbose)
		cachefile_set_note(cli_warn_prefixed, NULL);
	/* "kctui COMMAND --help": that command's usage, before anything is
	 * read (the options after a command are its own). */
	vars_start = optind;
	while (optind < argc && cli_is_assignment(argv[optind]))
		optind++;
	if (optind + 1 < argc && (cmd = cmd_lookup(argv[optind])) != NULL &&
	    (strcmp(argv[optind + 1], "--help") == 0 ||
	    strcmp(argv[optind + 1], "-h") == 0)) {
		cmd_usage_one(stdout, cmd);
		session_free(&s);
		return 0;
	}
	optind = vars_start;
	if (decisions != NULL)
		session_set_decisions(&s, decisions);
	/* make-style NAME=value arguments, as in "make CC=clang ...". */
	s.vars = xcalloc((size_t)argc + 1, sizeof *s.vars);
	for (; optind < argc && cli_is_assignment(argv[optind]); optind++)
		s.vars[s.nvars++] = argv[optind];
	if (session_setup(&s, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		session_free(&s);
		return 1;
	}

	if (optind == argc) {
		/* No mode: the interactive browser. */
		status = tui_main(&s, theme);
	} else {
		/* A name that is no command is said unknown by the
		 * configuration modes, after reading the Kconfig files. */
		if ((cmd = cmd_lookup(argv[optind])) == NULL)
			status = cmd_unknown(&s, argc - optind, argv + optind);
		else
			status = cmd->exec(&s, argc - optind, argv + optind);
	}
	session_free(&s);
	return status;
}
