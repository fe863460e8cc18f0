/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-verify.c - "kctui verify": the command-line face of core/verify/verify.c.
 * Builds the trimmed config, boots it on the bundle's machine, judges
 * the workload, puts back what a step needs, and writes the final config,
 * its report and the keep decisions (docs/verify.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/evidence/zstream.h"
#include "../core/trim/decisions.h"
#include "../core/kbuild/kbuild.h"
#include "../core/session.h"
#include "../core/verify/userspace.h"
#include "../core/verify/verify.h"
#include "../core/verify-session.h"
#include "../kconfig-parser/env.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "cli.h"

/* Raised by SIGINT/SIGTERM: the loop stops its child and returns. */
static volatile sig_atomic_t verify_cancel;

struct verify_opts {
	const char	*base, *workload, *out, *report, *work, *qemu;
	const char	*base_kernel;	/* --base-kernel ROOT */
	bool		 no_baseline;
	bool		 baseline_only;
	/* Text progress of the build: rewritten in place on a terminal,
	 * else a line every VERIFY_BUILD_EVERY seconds. */
	bool		 tty;
	double		 last_build;
	bool		 build_line;	/* a \r line is open */
	char	       **try_syms;
	size_t		 ntry;
	double		 timeout;
	bool		 tsv, no_fill_back, no_kvm, as_is;
	bool		 build_bundle_c;	/* --build-bundle-helpers */
	int		 jobs;
	int		 max_probes;	/* --max-probes (0 there: -1) */
	int		 boot_runs;	/* --boot-runs */
	const char	*compare;	/* --compare CONFIG */
	/* --userspace 1, --no-userspace 0, neither -1: as the bundle
	 * shows (systemd ran on the recorded machine). */
	int		 userspace;
	bool		 userspace_root;	/* --userspace-root: make the
						   root, print it, stop */
};

/* The signal handler: ask the loop to stop. */
static void
verify_on_signal(int sig)
{
	(void)sig;
	verify_cancel = 1;
}

/* Seconds between build progress lines when stdout is not a terminal. */
#define VERIFY_BUILD_EVERY 30.0

/* The build's object count as text: in place on a terminal, else now
 * and then. */
static void
verify_print_build(struct verify_opts *o, const struct verify_event *e)
{
	double now = clock_now();

	if (!o->tty && now - o->last_build < VERIFY_BUILD_EVERY)
		return;
	o->last_build = now;
	printf(o->tty ? "\r  build %ld" : "  build %ld", e->done);
	if (e->total > 0)
		printf("/%ld", e->total);
	printf(" objects%s", o->tty ? "\033[K" : "\n");
	o->build_line = o->tty;
}

/* Print one event: a line of text on the terminal, or TSV. */
static void
verify_print(void *arg, const struct verify_event *e)
{
	struct verify_opts *o = arg;
	size_t i;

	if (!o->tsv && o->build_line && e->kind != VEV_BUILD) {
		printf("\n");
		o->build_line = false;
	}
	switch (e->kind) {
	case VEV_PROBE:
		/* TSV: the estimate in two more columns (-1 / 0: none) */
		if (o->tsv)
			printf("probe\t%d\t%zu\t%zu\t%d\t%.0f\n", e->probe,
			    e->n, e->ntrims, e->left, e->eta);
		else if (e->left > 0)
			printf("probe %d: %zu of %zu trims (at least %d more "
			    "probe%s for this failure, about %.0f min)\n",
			    e->probe, e->n, e->ntrims, e->left, e->left == 1 ?
			    "" : "s", e->eta / 60);
		else
			printf("probe %d: %zu of %zu trims%s\n", e->probe, e->n,
			    e->ntrims, e->left == 0 ? " (the last if it "
			    "passes)" : "");
		break;
	case VEV_PHASE:
		if (o->tsv)
			printf("phase\t%d\t%s\t%.1f\n", e->probe, e->phase,
			    e->seconds);
		else
			printf("  %s\n", e->phase);
		break;
	case VEV_BUILD:
		if (o->tsv)
			printf("build\t%d\t%ld\t%ld\n", e->probe, e->done,
			    e->total);
		else
			verify_print_build(o, e);
		break;
	case VEV_STEP:
		if (e->state == NULL) {
			if (!o->tsv)
				printf("  step %s\n", e->name);
			break;
		}
		if (o->tsv) {
			printf("step\t%d\t%s\t%s\t%d\t%.1f\n", e->probe,
			    e->name, e->state, e->rc, e->seconds);
			break;
		}
		printf("  step %-16s %s", e->name, e->state);
		if (e->rc != 0)
			printf(" (exit %d)", e->rc);
		printf("\n");
		for (i = 0; i < e->nlog; i++)
			printf("    | %s\n", e->log[i]);
		break;
	case VEV_VERDICT:
		if (o->tsv)
			printf("verdict\t%d\t%s\t%s\t%.1f\n", e->probe, e->state,
			    e->name != NULL ? e->name : "", e->seconds);
		else if (e->name != NULL)
			printf("probe %d: %s at %s (%.0f s)\n", e->probe,
			    e->state, e->name, e->seconds);
		else
			printf("probe %d: %s (%.0f s)\n", e->probe, e->state,
			    e->seconds);
		break;
	case VEV_KEEP:
		if (o->tsv)
			printf("keep\tCONFIG_%s\t%s\n", e->name, e->state);
		else
			printf("put back CONFIG_%s: needed at boot: %s\n",
			    e->name, e->state);
		break;
	case VEV_NOTE:
		if (o->tsv)
			printf("note\t%s\n", e->detail);
		else
			printf("  note: %s\n", e->detail);
		break;
	}
	fflush(stdout);
}

/* Parse verify's options; -1 (reason printed) on a bad one. */
static int
verify_parse(struct session *s, struct verify_opts *o, int argc,
    char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "workload", required_argument, NULL, 'w' },
		{ "try", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "decisions", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "work-dir", required_argument, NULL, 'W' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "qemu", required_argument, NULL, 'q' },
		{ "no-kvm", no_argument, NULL, 'K' },
		{ "no-fill-back", no_argument, NULL, 'n' },
		{ "base-kernel", required_argument, NULL, 'B' },
		{ "no-baseline", no_argument, NULL, 'N' },
		{ "baseline-only", no_argument, NULL, 'O' },
		{ "as-is", no_argument, NULL, 'g' },
		{ "max-probes", required_argument, NULL, 'P' },
		{ "boot-runs", required_argument, NULL, 'R' },
		{ "compare", required_argument, NULL, 'C' },
		{ "build-bundle-helpers", no_argument, NULL, 'H' },
		{ "userspace", no_argument, NULL, 'U' },
		{ "no-userspace", no_argument, NULL, 'u' },
		{ "userspace-root", no_argument, NULL, 'Y' },
		/* Its first name, when only debug information was left out. */
		{ "debug-info", no_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 }
	};
	char	*end, *tok, *save;
	int	 opt;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "e:o:j:", longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'b': o->base = optarg; break;
		case 'w': o->workload = optarg; break;
		case 'o': o->out = optarg; break;
		case 'r': o->report = optarg; break;
		case 'd': session_set_decisions(s, optarg); break;
		case 'W': o->work = optarg; break;
		case 'q': o->qemu = optarg; break;
		case 'K': o->no_kvm = true; break;
		case 'n': o->no_fill_back = true; break;
		case 'B': o->base_kernel = optarg; break;
		case 'N': o->no_baseline = true; break;
		case 'O': o->baseline_only = true; break;
		case 'g': o->as_is = true; break;
		case 'H': o->build_bundle_c = true; break;
		case 'C': o->compare = optarg; break;
		case 'P':
			o->max_probes = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || *optarg == '\0' ||
			    o->max_probes < 0 || o->max_probes > 1000) {
				fprintf(stderr, "kctui: --max-probes %s: not a "
				    "number of probes (0: no bound, else 1 to "
				    "1000)\n", optarg);
				return -1;
			}
			if (o->max_probes == 0)
				o->max_probes = -1;
			break;
		case 'R':
			o->boot_runs = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || *optarg == '\0' ||
			    o->boot_runs < 1 || o->boot_runs > 9) {
				fprintf(stderr, "kctui: --boot-runs %s: not a "
				    "number of boots (1 to 9)\n", optarg);
				return -1;
			}
			break;
		case 'U': o->userspace = 1; break;
		case 'u': o->userspace = 0; break;
		case 'Y': o->userspace_root = true; break;
		case 'f':
			if (cli_format(optarg, &o->tsv) != 0)
				return -1;
			break;
		case 'j':
			o->jobs = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || o->jobs < 1) {
				fprintf(stderr, "kctui: -j %s: not a number "
				    "of jobs\n", optarg);
				return -1;
			}
			break;
		case 'T':
			o->timeout = strtod(optarg, &end);
			/* nan and inf parse; neither is a time limit. */
			if (*end != '\0' || !isfinite(o->timeout) ||
			    o->timeout <= 0 || o->timeout > 7 * 86400) {
				fprintf(stderr, "kctui: --timeout %s: not a "
				    "number of seconds (more than 0, at most 604800)\n", optarg);
				return -1;
			}
			break;
		case 't':
			save = NULL;
			for (tok = strtok_r(optarg, ",", &save); tok != NULL;
			    tok = strtok_r(NULL, ",", &save)) {
				o->try_syms = xrealloc(o->try_syms,
				    (o->ntry + 1) * sizeof *o->try_syms);
				o->try_syms[o->ntry++] = tok;
			}
			break;
		default:
			cmd_usage_name(stderr, "verify");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kctui: verify: unexpected argument '%s'\n",
		    argv[optind]);
		return -1;
	}
	if (s->nbundles != 1) {
		fprintf(stderr, "kctui: verify needs one evidence bundle: "
		    "-e BUNDLE (its vm and workload files say what to boot "
		    "and run)\n");
		return -1;
	}
	return 0;
}

/* --baseline-only's word on the userspace step: the baseline's state,
 * its failed units and systemd-analyze time. */
static void
verify_print_userspace(const struct verify *v)
{
	const struct userspace_boot *b;
	size_t i;

	if (!v->userspace) {
		printf("userspace: not booted (%s)\n", v->userspace_why);
		return;
	}
	if (v->us == NULL || !v->us->has_base) {
		printf("userspace: no baseline boot\n");
		return;
	}
	b = &v->us->base;
	printf("userspace: %s", b->seen ? b->state : "no report");
	for (i = 0; i < b->nfailed; i++)
		printf("%s%s", i == 0 ? "; failed:" : " ", b->failed[i]);
	if (b->time_line != NULL)
		printf("; %s", b->time_line);
	printf(" (root %s)\n", v->us->root.image);
}

/*
 * --userspace-root: the userspace step's root for this bundle's release
 * from the cache, made when missing (a slow first step a user may take
 * ahead); its path on stdout. 0, or -1 with the reason printed.
 */
static int
verify_userspace_root(const struct verify *v)
{
	struct userspace_root	 r;
	char			*uname, *suite, *cause = NULL;
	int			 rc;

	uname = v->bundle != NULL ? zstream_bundle_text(v->bundle, "uname") :
	    NULL;
	suite = userspace_suite(uname);
	free(uname);
	memset(&r, 0, sizeof r);
	r.suite = suite;
	r.arch = userspace_debian_arch(v->spec != NULL ? v->spec->arch :
	    NULL);
	r.cancel = &verify_cancel;
	if ((rc = userspace_root_get(&r, &cause)) != 0) {
		fprintf(stderr, "kctui: verify: %s\n", cause);
		free(cause);
	} else if (r.built)
		printf("%s (Debian %s, %s: made in %.0f s, %lld MiB)\n",
		    r.image, suite, r.arch, r.seconds, r.bytes >> 20);
	else
		printf("%s (Debian %s, %s: cached, %lld MiB)\n", r.image,
		    suite, r.arch, r.bytes >> 20);
	userspace_root_free(&r);
	free(suite);
	return rc;
}

/* Record each option put back as a keep decision. */
static int
verify_save_decisions(struct session *s, const struct verify *v)
{
	struct decisions	*d;
	char			*cause = NULL;
	size_t			 i, n = 0;

	for (i = 0; i < v->ntrims; i++)
		n += v->trims[i].kept;
	if (n == 0)
		return 0;
	d = decisions_load(s->decisions, &cause);
	if (d == NULL || cause != NULL) {
		fprintf(stderr, "%s\nkctui: decisions not recorded: fix or "
		    "remove the bad lines of %s\n", cause, s->decisions);
		free(cause);
		decisions_free(d);
		return -1;
	}
	verify_keep_decisions(d, v);
	if (decisions_save(d, s->decisions, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		decisions_free(d);
		return -1;
	}
	decisions_free(d);
	return 0;
}

/* Why the config is not verified, on stderr. */
static void
verify_print_why(const struct verify_opts *o, const struct verify *v,
    const char *report)
{
	char *why = verify_why(v, o->timeout, o->no_fill_back);

	fprintf(stderr, "kctui: verify: NOT verified: %s\nkctui: report: %s "
	    "(the config and decisions were not changed)\n", why, report);
	free(why);
}

/* Write the final config (only a verified one), the report and the
 * decisions; -1 (reason printed) if any could not be written. */
static int
verify_write(struct session *s, const struct verify_opts *o,
    const struct verify *v)
{
	char	*out, *report, *text, *cause = NULL;
	int	 r = 0;

	out = o->out != NULL ? session_path(s, o->out) :
	    xstrdup(s->config_path);
	report = o->report != NULL ? session_path(s, o->report) :
	    xasprintf("%s.verify.md", out);
	if (v->passed && v->final != NULL && file_write_atomic(out, v->final,
	    strlen(v->final), 0644, ATOMIC_KEEP_OLD, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		r = -1;
	}
	text = verify_report(v);
	if (file_write_atomic(report, text, strlen(text), 0666,
	    ATOMIC_MKDIRS, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		r = -1;
	}
	free(text);
	if (r == 0 && verify_write_measured(v, report, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		r = -1;
	}
	if (v->passed && verify_save_decisions(s, v) != 0)
		r = -1;
	if (!v->passed)
		verify_print_why(o, v, report);
	else if (!o->tsv)
		printf("verified: %s\nreport: %s\n", out, report);
	free(out);
	free(report);
	return r;
}

/* kctui verify -e BUNDLE [--config TRIMMED] ... (docs/verify.md) */
int
cmd_verify(struct session *s, int argc, char **argv)
{
	struct verify_opts	 o;
	struct verify		 v;
	struct verify_setup	 vs;
	struct verify_prepare_opts po;
	struct sigaction	 sa;
	struct kconfig		*k = NULL;
	char			*cause = NULL, *compare = NULL;
	int			 rc = 1;

	memset(&o, 0, sizeof o);
	o.userspace = -1;
	memset(&v, 0, sizeof v);
	memset(&vs, 0, sizeof vs);
	if (verify_parse(s, &o, argc, argv) != 0)
		goto out;
	memset(&po, 0, sizeof po);
	po.base = o.base;
	po.workload = o.workload;
	po.work = o.work;
	po.jobs = o.jobs;
	po.userspace = o.userspace == 1 ? VERIFY_US_ON : o.userspace == 0 ?
	    VERIFY_US_OFF : VERIFY_US_AUTO;
	if (verify_prepare(s, &po, &vs, &v, &cause) != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		goto out;
	}
	if (o.userspace_root) {
		rc = verify_userspace_root(&v) == 0 ? 0 : 1;
		goto out;
	}
	/* what the flag lets run on this host, said before anything is */
	if (o.build_bundle_c && vs.vi.wl.helpers != NULL) {
		char *list = initramfs_bundle_c(vs.vi.wl.helpers);

		if (list != NULL)
			fprintf(stderr, "kctui: verify: compiling the bundle's "
			    "own C on this host, in a sandbox "
			    "(--build-bundle-helpers): %s\n", list);
		free(list);
	}
	if (access(s->config_path, R_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s (give the trimmed config with "
		    "--config FILE; kctui export writes one)\n",
		    s->config_path, strerror(errno));
		goto out;
	}
	if ((k = cli_open_config(s)) == NULL)
		goto out;
	/* Without the index, bisection alone. */
	if (verify_prepare_index(s, &vs, &v, &cause) != 0) {
		fprintf(stderr, "kctui: warning: no Kbuild index (%s): what a "
		    "failed boot names is found by bisection\n", cause);
		free(cause);
		cause = NULL;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = verify_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	v.k = k;
	v.trimmed = s->config_path;
	v.try_syms = o.try_syms;
	v.ntry = o.ntry;
	v.timeout = o.timeout;
	v.no_kvm = o.no_kvm;
	v.no_fill_back = o.no_fill_back;
	v.max_probes = o.max_probes;
	v.boot_runs = o.boot_runs;
	/* relative to where kctui was started, not the tree */
	compare = o.compare != NULL ? session_path(s, o.compare) : NULL;
	v.compare = compare;
	v.base_kernel = o.base_kernel;
	v.no_baseline = o.no_baseline;
	v.baseline_only = o.baseline_only;
	v.as_is = o.as_is;
	v.build_bundle_c = o.build_bundle_c;
	v.qemu = o.qemu;
	v.cancel = &verify_cancel;
	o.tty = isatty(STDOUT_FILENO);
	o.last_build = -VERIFY_BUILD_EVERY;
	v.event = verify_print;
	v.arg = &o;
	if (verify_run(&v, &cause) != 0) {
		fprintf(stderr, "kctui: verify: %s\n", cause);
		goto out;
	}
	if (o.baseline_only) {
		/* Nothing built: no config or decisions to write. */
		if (!o.tsv) {
			size_t	j;

			printf("baseline: %s\n", v.baseline);
			verify_print_userspace(&v);
			if (v.twin != NULL)
				printf("machine: %s\n", v.twin);
			for (j = 0; j < v.nnontwin; j++)
				printf("  no twin: %s %s %s: %s\n",
				    v.nontwin[j].bus, v.nontwin[j].driver,
				    v.nontwin[j].path, v.nontwin[j].why);
		}
		rc = 0;
	} else if (verify_write(s, &o, &v) == 0 && v.passed)
		rc = 0;
out:
	free(cause);
	verify_free(&v);
	verify_setup_free(&vs);
	if (k != NULL)
		kconfig_free(k);
	free(o.try_syms);
	free(compare);
	return rc;
}
