/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-collect-append.c - "kctui collect --append BUNDLE [--from DIR |
 * --import-modprobed FILE]": the command-line face of
 * core/collect-append.c, evidence gathered over weeks (a timer runs it
 * hourly: docs/evidence.md, "Evidence over weeks").
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/collect/collect-append.h"
#include "../core/session.h"
#include "../lib/util.h"
#include "cli.h"

/* kctui collect --append BUNDLE [--from DIR | --import-modprobed FILE] */
int
cmd_collect_append(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "append", required_argument, NULL, 'a' },
		{ "from", required_argument, NULL, 'f' },
		{ "import-modprobed", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct collect_append_options	 o;
	struct collect_append_result	 r;
	char				*bundle = NULL, *from = NULL;
	char				*mdb = NULL, *cause = NULL;
	int				 ch, status = 1;

	memset(&o, 0, sizeof o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			free(bundle);
			bundle = session_path(s, optarg);
			break;
		case 'f':
			free(from);
			from = session_path(s, optarg);
			break;
		case 'm':
			free(mdb);
			mdb = session_path(s, optarg);
			break;
		default:
			goto usage;
		}
	}
	/* No trace and no command: an append is what a timer runs, in a
	 * second, hourly. */
	if (bundle == NULL || optind != argc || (from != NULL && mdb != NULL))
		goto usage;
	o.bundle = bundle;
	o.from = from;
	o.modprobed = mdb;
	o.note = cli_warn_prefixed;
	if (collect_append(&o, &r, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		goto out;
	}
	if (!s->silent)
		printf("kctui: %s: %" PRIu64 " snapshot%s, %" PRIu64
		    " modules (%" PRIu64 " new)\n", bundle, r.runs,
		    r.runs == 1 ? "" : "s", r.modules, r.new_modules);
	status = 0;
out:
	free(bundle);
	free(from);
	free(mdb);
	return status;
usage:
	fprintf(stderr, "usage: kctui collect --append BUNDLE [--from DIR | "
	    "--import-modprobed FILE]\n");
	goto out;
}
