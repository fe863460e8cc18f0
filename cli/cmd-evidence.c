/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-evidence.c - "kctui evidence" and "kctui collect": the command-line
 * faces of core/'s evidence reader, attribution and collector.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/evidence/attrib.h"
#include "../core/collect/collect.h"
#include "../core/evidence/evidence.h"
#include "../core/kbuild/kbuild.h"
#include "../core/srcindex/srcindex.h"
#include "../kconfig-parser/kconfig.h"
#include "../kconfig-parser/env.h"
#include "../lib/util.h"
#include "../core/session.h"
#include "cli.h"

/* Compare attributed symbols by name, for sorted output. */
static int
cmd_cmp_sym(const void *x, const void *y)
{
	const struct attrib_sym *a = *(const struct attrib_sym *const *)x;
	const struct attrib_sym *b = *(const struct attrib_sym *const *)y;

	return strcmp(a->name, b->name);
}

/* One line per symbol: TSV (CONFIG_X, verdict, kind:detail;...) or text. */
static void
cmd_print_symbols(const struct attrib *a, bool tsv, int nbundles)
{
	const struct attrib_sym	**v;
	const struct attrib_sym	 *s;
	char			  buf[512];
	size_t			  i, j, n = attrib_count(a), shown;

	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = attrib_at(a, i);
	qsort(v, n, sizeof *v, cmd_cmp_sym);
	for (i = 0; i < n; i++) {
		s = v[i];
		if (tsv) {
			printf("CONFIG_%s\t%s\t", s->name,
			    verdict_name(s->verdict));
			for (j = 0; j < s->nrefs; j++) {
				attrib_ref_format(&s->refs[j], buf, sizeof buf);
				printf("%s%s", j ? ";" : "", buf);
			}
			printf("\n");
			continue;
		}
		printf("CONFIG_%-32s %-9s", s->name, verdict_name(s->verdict));
		if (s->nmodules)
			printf(" %zu module%s", s->nmodules,
			    s->nmodules == 1 ? "" : "s");
		if (s->ntraces)
			printf(" %zu function%s traced", s->ntraces,
			    s->ntraces == 1 ? "" : "s");
		if (s->ndevices)
			printf(" %zu device%s", s->ndevices,
			    s->ndevices == 1 ? "" : "s");
		if (s->nfs)
			printf(" %zu filesystem%s", s->nfs,
			    s->nfs == 1 ? "" : "s");
		if (s->ncrypto)
			printf(" %zu crypto", s->ncrypto);
		for (j = shown = 0; j < s->nrefs && shown < 2; j++) {
			if (!s->refs[j].direct)
				continue;
			attrib_ref_format(&s->refs[j], buf, sizeof buf);
			printf("%s %s", shown ? "," : ":", buf);
			shown++;
		}
		if (nbundles > 1) {
			uint64_t	b = attrib_sym_bundles(s);
			int		seen = 0, k;

			for (k = 0; k < nbundles && k < 64; k++)
				seen += (b >> k) & 1;
			printf(" (seen in %d of %d bundles)", seen, nbundles);
		}
		printf("\n");
	}
	free(v);
}

/* --all: every bool/tristate symbol that is y or m in the configuration,
 * with its verdict, those without evidence included (none: it builds
 * code nobody saw run; no-code: it builds nothing itself). */
static int
cmd_print_all(struct session *s, const struct attrib *a, bool tsv)
{
	struct kconfig		*k;
	struct kc_symbol	*sym;
	const struct attrib_sym	*as;
	const char		*name;
	char			 buf[512];
	enum kc_tri		 v;
	size_t			 j;
	int			 i;

	if ((k = cli_open_config(s)) == NULL)
		return -1;
	for (i = 0; i < kconfig_nsymbols(k); i++) {
		sym = kconfig_symbol(k, i);
		name = kc_sym_name(sym);
		if (name == NULL || kc_sym_is_const(sym) || kc_sym_is_choice(sym))
			continue;
		if (kc_sym_type(sym) != KC_BOOL && kc_sym_type(sym) != KC_TRISTATE)
			continue;
		if ((v = kc_sym_tristate(k, sym)) == KC_NO)
			continue;
		as = attrib_find(a, name);
		printf(tsv ? "CONFIG_%s\t%s\t%s\t" : "CONFIG_%-32s %s %-9s",
		    name, v == KC_YES ? "y" : "m",
		    verdict_name(attrib_verdict(a, name)));
		for (j = 0; as != NULL && j < as->nrefs && (tsv || j < 2);
		    j++) {
			attrib_ref_format(&as->refs[j], buf, sizeof buf);
			printf(tsv ? "%s%s" : "%s %s", j ? (tsv ? ";" : ",") :
			    (tsv ? "" : ":"), buf);
		}
		printf("\n");
	}
	kconfig_free(k);
	return 0;
}

/*
 * --functions: where each traced function's code is, as kallsyms and
 * modules.builtin.ranges tell: "NAME HOME MODULE" (HOME module, built-in,
 * core, image or unknown; MODULE "-" when there is none).
 */
static void
cmd_print_functions(const struct evidence *ev, bool tsv)
{
	static const char *const homes[] = {
		[EVH_UNKNOWN] = "unknown", [EVH_IMAGE] = "image",
		[EVH_MODULE] = "module", [EVH_BUILTIN] = "built-in",
		[EVH_CORE] = "core"
	};
	const struct ev_item	*it;
	const char		*mod;
	enum ev_home		 h;
	size_t			 i, n = evidence_count(ev, EV_TRACE);

	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_TRACE, i);
		mod = it->detail;
		h = mod != NULL ? EVH_MODULE :
		    evidence_symbol_home(ev, it->name, &mod);
		if (mod == NULL || *mod == '\0')
			mod = "-";
		printf(tsv ? "%s\t%s\t%s\n" : "%-40s %-8s %s\n", it->name,
		    homes[h], mod);
	}
}

/* kctui evidence -e BUNDLE... [--format text|tsv] [--unmapped] [--all]
 * [--functions] [--stats] */
int
cmd_evidence(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "unmapped", no_argument, NULL, 'u' },
		{ "stats", no_argument, NULL, 'S' },
		{ "all", no_argument, NULL, 'a' },
		{ "functions", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct session_evidence	  ce;
	struct attrib		 *a;
	struct attrib_stats	  st;
	const struct ev_item	*const *un;
	bool			  tsv = false, unmapped = false, stats = false;
	bool			  all = false, functions = false;
	int			  ch, status = 1;
	size_t			  i, n;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "e:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'f':
			if (cli_format(optarg, &tsv) != 0)
				return 1;
			break;
		case 'u':
			unmapped = true;
			break;
		case 'S':
			stats = true;
			break;
		case 'a':
			all = true;
			break;
		case 'F':
			functions = true;
			break;
		default:
			cmd_usage_name(stderr, "evidence");
			return 1;
		}
	}
	if (s->nbundles == 0) {
		fprintf(stderr, "kctui: evidence needs at least one -e BUNDLE\n");
		return 1;
	}
	if (cli_open_evidence(s, &ce) != 0)
		return 1;
	a = ce.a;
	if (unmapped) {
		n = attrib_unmapped(a, &un);
		for (i = 0; i < n; i++)
			printf("%s:%s\n", ev_kind_name(un[i]->kind),
			    un[i]->name);
	} else if (functions) {
		cmd_print_functions(ce.ev, tsv);
	} else if (all) {
		if (cmd_print_all(s, a, tsv) != 0) {
			session_close_evidence(&ce);
			return 1;
		}
	} else
		cmd_print_symbols(a, tsv, s->nbundles);
	if (stats || s->verbose) {
		attrib_get_stats(a, &st);
		fprintf(stderr, "kctui: modules %zu/%zu attributed; functions "
		    "%zu/%zu (%.1f%%) attributed, %zu always built, %zu "
		    "ambiguous, %zu unknown, %zu placed by "
		    "modules.builtin.ranges; devices %zu/%zu; mounts %zu/%zu; "
		    "crypto %zu/%zu\n", st.modules_mapped, st.modules,
		    st.functions_mapped, st.functions, st.functions ?
		    100.0 * (double)st.functions_mapped /
		    (double)st.functions : 100.0, st.functions_always,
		    st.functions_ambiguous, st.functions_unknown,
		    st.functions_ranges,
		    st.devices_mapped, st.devices, st.mounts_mapped, st.mounts,
		    st.crypto_mapped, st.crypto);
	}
	status = 0;
	session_close_evidence(&ce);
	return status;
}

/* Progress on one terminal line. */
static void
cmd_progress(void *arg, const char *text)
{
	(void)arg;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\rkctui: %s\033[K", text);
}

/* kctui collect -o DIR [--force] [--trace-seconds N] [--no-trace]
 * [-- CMD...] */
int
cmd_collect(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trace-seconds", required_argument, NULL, 't' },
		{ "no-trace", no_argument, NULL, 'n' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct collect_options	 o;
	char			*cause = NULL, *out = NULL;
	int			 ch, status;

	/* collect --append BUNDLE: evidence over weeks, its own options. */
	for (ch = 1; ch < argc && strcmp(argv[ch], "--") != 0; ch++)
		if (strncmp(argv[ch], "--append", 8) == 0)
			return cmd_collect_append(s, argc, argv);
	memset(&o, 0, sizeof o);
	o.trace_seconds = 10;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			free(out);
			out = session_path(s, optarg);
			break;
		case 't':
			o.trace_seconds = atoi(optarg);
			break;
		case 'n':
			o.no_trace = true;
			break;
		case 'b':
			o.buffer_kb = (size_t)strtoul(optarg, NULL, 10);
			break;
		case 'F':
			o.force = true;
			break;
		default:
			cmd_usage_name(stderr, "collect");
			free(out);
			return 1;
		}
	}
	if (out == NULL) {
		fprintf(stderr, "kctui: collect needs -o DIR\n");
		return 1;
	}
	if (optind < argc)
		o.command = argv + optind;
	o.outdir = out;
	o.progress = cmd_progress;
	o.note = cli_warn_prefixed;
	status = collect_run(&o, &cause) == 0 ? 0 : 1;
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);
	if (status != 0)
		fprintf(stderr, "kctui: %s\n", cause);
	free(cause);
	free(out);
	return status;
}
