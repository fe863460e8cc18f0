/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.c - what an export removed and why, for people (markdown) and
 * for tools (YAML through libyaml). Each removed option that was not
 * accepted itself is filed under the accepted option it was dragged along
 * by, following the chain of "depends on"/"was selected by" causes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "../../lib/yamlwrite.h"
#include "decisions.h"
#include "report.h"
#include "trim.h"

size_t
report_count_ym(struct kconfig *k)
{
	struct kc_symbol	*s;
	enum kc_type		 ty;
	size_t			 n = 0;
	int			 i;

	for (i = 0; i < kconfig_nsymbols(k); i++) {
		s = kconfig_symbol(k, i);
		ty = kc_sym_type(s);
		if ((ty == KC_BOOL || ty == KC_TRISTATE) &&
		    kc_sym_name(s) != NULL && kc_sym_tristate(k, s) != KC_NO &&
		    kc_sym_is_written(k, s))
			n++;
	}
	return n;
}

static const char *
report_tri(enum kc_tri v)
{
	return v == KC_YES ? "y" : v == KC_MOD ? "m" : "n";
}

/* Where an option that differs goes in the report, besides under the
 * accepted candidate (an index, >= 0) that dragged it along. */
enum {
	RD_ACCEPTED = -1,	/* an accepted candidate itself */
	RD_OTHER = -2,		/* no accepted candidate behind it */
	RD_TREE = -3		/* the tree's update of the input */
};

/* The report's model: the options whose line differs between the input
 * and the file written (report_diff_compute), each filed under the
 * accepted candidate it was dragged along by, or as one of the RD_*. */
struct report_model {
	const struct report_input	*in;
	int				*change_of;	/* symbol -> change */
	long				*diff_of;	/* symbol -> diff */
	bool				*accepted;	/* candidate accepted
							   and n in the file */
	struct report_diff		*diffs;
	size_t				 ndiffs;
	long				*root;		/* diff -> where */
	const char		       **why;		/* diff -> reason */
	char			       **why_owned;	/* those made here */
	size_t				 nremoved, ndragged, nother, ntree;
	/* Values (strings, numbers) whose line went with the option they
	 * depend on: listed under it, not counted as options removed. */
	size_t				 nvalues;
	/* accepted to_verify candidates */
	size_t				 nverify;
	/* y/m options of the input file, of the input as this tree
	 * reads it (brought up to date), of the file written. */
	size_t				 ym_in, ym_base, ym_out;
};

/* Follow the causes of change i to an accepted candidate. */
static long
report_root(struct report_model *m, size_t i)
{
	const struct trim_change	*c;
	long				 cand;
	int				 steps, idx;

	for (steps = 0; steps < 256; steps++) {
		c = &m->in->changes[i];
		cand = trim_cand_of(m->in->t, c->sym);
		if (cand >= 0 && m->accepted[cand] && c->after == KC_NO)
			return cand;
		if (c->cause == NULL || (idx = kc_sym_index(c->cause)) < 0 ||
		    m->change_of[idx] < 0)
			return -2;
		i = (size_t)m->change_of[idx];
	}
	return -2;
}

/* The change (index) of a symbol of expression x that the trim turned
 * off, or -1: what took away the line of an option that is not bool or
 * tristate (the trim's changes are only those). */
static int
report_dep_change(struct report_model *m, const struct kc_expr *x)
{
	struct kc_symbol	*s;
	int			 ci, idx;

	switch (kc_expr_op(x)) {
	case KC_EXPR_NONE:
		return -1;
	case KC_EXPR_OR:
	case KC_EXPR_AND:
		if ((ci = report_dep_change(m, kc_expr_left(x))) >= 0)
			return ci;
		return report_dep_change(m, kc_expr_right(x));
	case KC_EXPR_NOT:
		return report_dep_change(m, kc_expr_left(x));
	default:
		if ((s = kc_expr_sym(x)) == NULL ||
		    (idx = kc_sym_index(s)) < 0 || m->change_of[idx] < 0 ||
		    m->in->changes[m->change_of[idx]].after != KC_NO)
			return -1;
		return m->change_of[idx];
	}
}

/* Why the tree's update changed an option of the input. */
static const char *
report_tree_why(const struct report_diff *d)
{
	return d->was == NULL ? "not in the input: its default in this tree, "
	    "as olddefconfig gives it" : "the value this tree gives it, as "
	    "olddefconfig writes it";
}

/* Where diff i goes (see struct report_model), and its reason. */
static void
report_model_file(struct report_model *m, size_t i)
{
	const struct report_input	*in = m->in;
	const struct report_diff	*d = &m->diffs[i];
	const struct trim_change	*c = NULL;
	struct kc_symbol		*s = kconfig_find(in->k, d->name);
	long				 cand = -1, r;
	int				 idx = s != NULL ? kc_sym_index(s) : -1;
	int				 ci;

	if (idx >= 0 && m->change_of[idx] >= 0) {
		c = &in->changes[m->change_of[idx]];
		cand = trim_cand_of(in->t, c->sym);
		/* The trim's change is what the file holds: it explains
		 * it; another value came from elsewhere. */
		if (d->now == NULL || strcmp(d->now, report_tri(c->after)))
			c = NULL;
	}
	if (c != NULL && cand >= 0 && m->accepted[cand] &&
	    c->after == KC_NO) {
		m->root[i] = RD_ACCEPTED;
		m->nremoved++;
	} else if (c != NULL && c->after == KC_NO &&
	    (r = report_root(m, (size_t)m->change_of[idx])) >= 0) {
		m->root[i] = r;
		m->why[i] = c->why != NULL ? c->why : "follows";
		m->ndragged++;
	} else if (c == NULL && s != NULL && d->now == NULL &&
	    (ci = report_dep_change(m, kc_sym_depends(s))) >= 0 &&
	    (r = report_root(m, (size_t)ci)) >= 0) {
		/* A value (string, number) no longer written: its
		 * dependency went with a trim. */
		m->root[i] = r;
		m->why[i] = m->why_owned[i] = xasprintf("depends on %s",
		    kc_sym_name(in->changes[ci].sym));
		m->nvalues++;
	} else if (c != NULL) {
		m->root[i] = RD_OTHER;
		m->why[i] = c->why != NULL ? c->why : "no single cause";
		m->nother++;
	} else if (d->base != NULL && d->now != NULL &&
	    strcmp(d->base, d->now) == 0) {
		m->root[i] = RD_TREE;
		m->why[i] = report_tree_why(d);
		m->ntree++;
	} else {
		m->root[i] = RD_OTHER;
		m->why[i] = in->other_why != NULL ? in->other_why :
		    "no single cause";
		m->nother++;
	}
}

/* The report's model of in: its differences, each filed. */
static void
report_model_build(struct report_model *m, const struct report_input *in)
{
	const char			*text_in;
	struct kc_symbol		*s;
	struct trim_cand		*cand;
	size_t				 i;
	int				 n = kconfig_nsymbols(in->k);

	memset(m, 0, sizeof *m);
	m->in = in;
	/* No input file: the configuration started from the defaults,
	 * which are then what it is compared with. */
	text_in = in->text_in != NULL ? in->text_in : in->text_base;
	m->diffs = report_diff_compute(text_in, in->text_base, in->text_out,
	    in->k, &m->ndiffs);
	m->ym_in = report_diff_count_ym(text_in);
	m->ym_base = report_diff_count_ym(in->text_base);
	m->ym_out = report_diff_count_ym(in->text_out);
	m->change_of = xcalloc((size_t)n + 1, sizeof *m->change_of);
	m->diff_of = xcalloc((size_t)n + 1, sizeof *m->diff_of);
	for (i = 0; i < (size_t)n; i++)
		m->change_of[i] = m->diff_of[i] = -1;
	for (i = 0; i < in->nchanges; i++)
		m->change_of[kc_sym_index(in->changes[i].sym)] = (int)i;
	for (i = 0; i < m->ndiffs; i++)
		if ((s = kconfig_find(in->k, m->diffs[i].name)) != NULL &&
		    kc_sym_index(s) >= 0)
			m->diff_of[kc_sym_index(s)] = (long)i;
	/* An accepted candidate is reported removed when the file turns it
	 * off: one set back on in the browser is not. */
	m->accepted = xcalloc(trim_ncands(in->t) + 1, sizeof *m->accepted);
	for (i = 0; i < in->naccepted; i++) {
		long di;

		if (in->accepted[i] >= trim_ncands(in->t))
			continue;
		cand = trim_cand(in->t, in->accepted[i]);
		di = m->diff_of[kc_sym_index(cand->sym)];
		if (di >= 0 && m->diffs[di].now != NULL &&
		    strcmp(m->diffs[di].now, "n") == 0) {
			m->accepted[in->accepted[i]] = true;
			m->nverify += cand->to_verify;
		}
	}
	m->root = xcalloc(m->ndiffs + 1, sizeof *m->root);
	m->why = xcalloc(m->ndiffs + 1, sizeof *m->why);
	m->why_owned = xcalloc(m->ndiffs + 1, sizeof *m->why_owned);
	for (i = 0; i < m->ndiffs; i++)
		report_model_file(m, i);
}

/* Free what report_model_build made (not m itself). */
static void
report_model_free(struct report_model *m)
{
	size_t i;

	for (i = 0; i < m->ndiffs; i++)
		free(m->why_owned[i]);
	free(m->why_owned);
	report_diff_free(m->diffs, m->ndiffs);
	free(m->change_of);
	free(m->diff_of);
	free(m->root);
	free(m->why);
	free(m->accepted);
}

/* A value as the report shows it: as written, or "(no line)". */
static const char *
report_value(const char *v)
{
	return v != NULL ? v : "(no line)";
}

/* The input value of an accepted candidate (what its line said). */
static const char *
report_cand_was(struct report_model *m, const struct trim_cand *cand)
{
	long di = m->diff_of[kc_sym_index(cand->sym)];

	return di >= 0 ? report_value(m->diffs[di].was) :
	    report_tri(cand->value);
}

/* Saving text: "3 objects, 1 module, 120 KiB". */
static void
report_saving(struct strbuf *sb, const struct trim_cand *c)
{
	strbuf_addf(sb, "%zu object%s", c->nobjs, c->nobjs == 1 ? "" : "s");
	if (c->nmodules)
		strbuf_addf(sb, ", %zu module%s", c->nmodules,
		    c->nmodules == 1 ? "" : "s");
	if (c->ko_bytes)
		strbuf_addf(sb, ", %llu KiB", (c->ko_bytes + 1023) / 1024);
}

/* The options candidate cand dragged along, one "  - dragged along"
 * line each (markdown). */
static void
report_markdown_dragged(struct strbuf *sb, struct report_model *m,
    size_t cand)
{
	const struct report_diff	*d;
	size_t				 i;

	for (i = 0; i < m->ndiffs; i++) {
		if (m->root[i] != (long)cand)
			continue;
		d = &m->diffs[i];
		strbuf_addf(sb, "  - dragged along: `CONFIG_%s` (%s -> %s, "
		    "%s)\n", d->name, report_value(d->was),
		    report_value(d->now), m->why[i]);
	}
}

/* The options filed as where (RD_OTHER, RD_TREE), one line each with
 * both values and why (markdown). */
static void
report_markdown_list(struct strbuf *sb, struct report_model *m, long where)
{
	const struct report_diff	*d;
	size_t				 i;

	for (i = 0; i < m->ndiffs; i++) {
		if (m->root[i] != where)
			continue;
		d = &m->diffs[i];
		strbuf_addf(sb, "- `CONFIG_%s`: %s -> %s (%s)\n", d->name,
		    report_value(d->was), report_value(d->now), m->why[i]);
	}
}

/* What the section of the to_verify candidates says first. */
static const char report_verify_note[] =
    "This configuration is not trusted until `kctui verify` has booted it: "
    "it trims options the modules policy keeps, beyond what a module list "
    "(`make localmodconfig`) keeps, because only evidence a boot must "
    "confirm holds them (traced hook or notifier code, a device present "
    "but not bound, an optional part of a loaded module). `kctui verify` "
    "builds and boots it, runs the workload, and puts back the options a "
    "step needs.";

/* What a minimal export says first: it is meant to be verified. */
static const char report_minimal_note[] =
    "The minimal policy trims every option whose code no bundle saw "
    "running, in every menu, keeping only the boot essentials, what the "
    "recorded CPU needs and the arch core the evidence cannot speak for. "
    "A trace shows what ran while it was recorded, not what only boot or a "
    "rare event needs: this configuration is meant to be verified with "
    "`kctui verify`, which builds and boots it on the bundle's machine, runs "
    "the workload and puts back what a step needs.";

/* The arch core the minimal policy kept and could not judge, as one
 * paragraph (not a list: these options are unchanged, and the report's
 * lists name changes only). */
static void
report_markdown_minimal(struct strbuf *sb, struct report_model *m)
{
	const struct report_input	*in = m->in;
	struct kc_symbol *const		*arch;
	struct trim_stats		 st;
	size_t				 n, i, nk = 0;

	trim_get_stats(in->t, &st);
	arch = trim_arch_kept(in->t, &n);
	for (i = 0; i < n; i++)
		nk += kc_sym_tristate(in->k, arch[i]) != KC_NO;
	strbuf_addf(sb, "\n## Arch core kept (the evidence cannot speak for "
	    "it)\n\n%zu y option%s of the architecture's core (\"Processor "
	    "type and features\", \"Binary Emulations\", arch/Kconfig) would "
	    "be candidates but run at boot or on hardware events only, where "
	    "no trace looks; they stay. %s\n\n", nk, nk == 1 ? "" : "s",
	    st.cpu_vendor != NULL ? "Only another CPU vendor's options "
	    "(microcode, machine checks, PMUs) are trimmed." :
	    "No bundle says the CPU's vendor: every vendor's options stay.");
	for (i = nk = 0; i < n; i++) {
		if (kc_sym_tristate(in->k, arch[i]) == KC_NO)
			continue;
		strbuf_addf(sb, "%s`CONFIG_%s`", nk++ ? ", " : "",
		    kc_sym_name(arch[i]));
	}
	if (nk != 0)
		strbuf_addc(sb, '\n');
}

/* The accepted to_verify candidates, each with what it dragged along
 * (markdown). */
static void
report_markdown_verify(struct strbuf *sb, struct report_model *m)
{
	const struct report_input	*in = m->in;
	struct trim_cand		*cand;
	size_t				 j;

	strbuf_addf(sb, "\n## To be verified by booting (kctui verify)\n\n"
	    "%s These %zu option%s:\n\n", report_verify_note, m->nverify,
	    m->nverify == 1 ? "" : "s");
	for (j = 0; j < in->naccepted; j++) {
		cand = trim_cand(in->t, in->accepted[j]);
		if (cand == NULL || !cand->to_verify ||
		    !m->accepted[in->accepted[j]] ||
		    cand->state != TRIM_ACCEPTED)
			continue;
		strbuf_addf(sb, "- `CONFIG_%s` (%s): %s\n", cand->name,
		    report_cand_was(m, cand), cand->reason);
		report_markdown_dragged(sb, m, in->accepted[j]);
	}
}

/* Call fn for each line of warnings (NULL: none). */
static void
report_each_warning(const char *warnings, void (*fn)(void *, const char *,
    size_t), void *arg)
{
	const char	*p, *nl;

	for (p = warnings; p != NULL && *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl > p)
			fn(arg, p, (size_t)(nl - p));
		if (*nl == '\0')
			break;
	}
}

/* A warning in the markdown report's header list. */
static void
report_md_warning(void *arg, const char *s, size_t n)
{
	strbuf_addf(arg, "- **warning**: %.*s\n", (int)n, s);
}

/* Markdown. */
static char *
report_markdown(struct report_model *m, size_t *len)
{
	const struct report_input	*in = m->in;
	struct trim_cand		*cand;
	struct trim_subsys		*sub;
	struct strbuf			 sb;
	size_t				 s, j, i, nd;
	enum decision			 d;
	const char			*reason, *name;
	struct trim_stats		 st;
	int				 b;

	strbuf_init(&sb);
	strbuf_adds(&sb, "# kctui trim report\n\n");
	/* Both counts when the tree's update changes one: the export
	 * counts from the second (kctui export's "y/m options N -> M"). */
	strbuf_addf(&sb, "- input: `%s` (%s%zu options y or m", in->config_in,
	    in->text_in == NULL ? "none: the tree's defaults, " : "",
	    m->ym_in);
	if (m->ym_base != m->ym_in)
		strbuf_addf(&sb, "; %zu once brought up to date, as "
		    "olddefconfig", m->ym_base);
	strbuf_adds(&sb, ")\n");
	strbuf_addf(&sb, "- output: `%s` (%zu options y or m)\n",
	    in->config_out, m->ym_out);
	strbuf_addf(&sb, "- policy: %s\n", in->policy);
	for (b = 0; b < in->nbundles; b++)
		strbuf_addf(&sb, "- evidence: `%s`\n", in->bundles[b]);
	report_each_warning(in->warnings, report_md_warning, &sb);
	strbuf_addf(&sb, "- removed: %zu options (%zu accepted, %zu dragged "
	    "along)", m->nremoved + m->ndragged, m->nremoved, m->ndragged);
	if (m->nvalues != 0)
		strbuf_addf(&sb, "; %zu value%s no longer written (the option "
		    "%s on went)", m->nvalues, m->nvalues == 1 ? "" : "s",
		    m->nvalues == 1 ? "it depends" : "each depends");
	strbuf_addf(&sb, "; %zu other changes", m->nother);
	if (m->ntree != 0)
		strbuf_addf(&sb, "; %zu brought up to date (as olddefconfig)",
		    m->ntree);
	strbuf_addc(&sb, '\n');
	if (in->decisions_file != NULL)
		strbuf_addf(&sb, "- decisions: `%s`\n", in->decisions_file);
	if (in->builtin)
		strbuf_addf(&sb, "- built in (--builtin): %zu module%s made y; "
		    "%s%s\n", in->builtin_made_y, in->builtin_made_y == 1 ? "" :
		    "s", in->builtin_modules_off ? "MODULES=n, no loadable "
		    "modules" : in->builtin_nleft != 0 ? "MODULES stays y: "
		    "these can only be modules: " : "MODULES stays y",
		    in->builtin_left != NULL && !in->builtin_modules_off ?
		    in->builtin_left : "");
	trim_get_stats(in->t, &st);
	if (st.minimal) {
		strbuf_addf(&sb, "- trusted: no, meant to be verified by booting "
		    "(kctui verify): %s\n", report_minimal_note);
		strbuf_addf(&sb, "- CPU: %s\n", st.cpu_vendor != NULL ?
		    st.cpu_vendor : "vendor unknown (no cpu modalias)");
	}
	if (m->nverify != 0) {
		strbuf_addf(&sb, "- trusted: no, %zu option%s to be verified "
		    "by booting (kctui verify)\n", m->nverify, m->nverify == 1 ?
		    "" : "s");
		report_markdown_verify(&sb, m);
	}
	for (s = 0; s < trim_nsubsys(in->t); s++) {
		sub = trim_subsys(in->t, s);
		for (j = nd = 0; j < sub->ncands; j++)
			nd += m->accepted[sub->cands[j]];
		if (nd == 0)
			continue;
		strbuf_addf(&sb, "\n## %s\n\n", sub->path);
		for (j = 0; j < sub->ncands; j++) {
			if (!m->accepted[sub->cands[j]])
				continue;
			cand = trim_cand(in->t, sub->cands[j]);
			if (cand->state != TRIM_ACCEPTED)
				continue;
			strbuf_addf(&sb, "- `CONFIG_%s` (%s): %s; ",
			    cand->name, report_cand_was(m, cand),
			    cand->reason);
			report_saving(&sb, cand);
			strbuf_addc(&sb, '\n');
			report_markdown_dragged(&sb, m, sub->cands[j]);
		}
	}
	if (m->nother != 0) {
		strbuf_adds(&sb, "\n## Other changes\n\n");
		report_markdown_list(&sb, m, RD_OTHER);
	}
	if (m->ntree != 0) {
		strbuf_adds(&sb, "\n## The input brought up to date "
		    "(as olddefconfig)\n\n");
		report_markdown_list(&sb, m, RD_TREE);
	}
	if (st.minimal)
		report_markdown_minimal(&sb, m);
	if (in->has_beyond) {
		strbuf_adds(&sb, "\n## Kept beyond a module list\n\n");
		strbuf_addf(&sb, "A trim on the loaded modules alone (what `make "
		    "localmodconfig` does) would also remove these %zu "
		    "option%s. kctui keeps them for evidence a module list "
		    "does not show (traced functions, devices, code linked "
		    "into a loaded module, the boot essentials) and for what "
		    "that evidence needs to keep its value:\n\n", in->nbeyond,
		    in->nbeyond == 1 ? "" : "s");
		for (i = 0; i < in->nbeyond; i++)
			strbuf_addf(&sb, "- `CONFIG_%s` (%s): %s\n",
			    kc_sym_name(in->beyond[i]), report_tri(
			    kc_sym_tristate(in->k, in->beyond[i])),
			    in->beyond_why[i]);
		if (in->nbeyond == 0)
			strbuf_adds(&sb, "- (none)\n");
	}
	if (in->decisions_file != NULL) {
		struct decisions *ds = decisions_load(in->decisions_file, NULL);

		if (ds != NULL && decisions_count(ds) != 0) {
			strbuf_adds(&sb, "\n## Decisions honoured\n\n");
			for (i = 0; i < decisions_count(ds); i++) {
				name = decisions_at(ds, i, &d, &reason);
				strbuf_addf(&sb, "- `CONFIG_%s` %s%s%s\n", name,
				    decision_name(d), reason ? ": " : "",
				    reason ? reason : "");
			}
		}
		decisions_free(ds);
	}
	*len = sb.len;
	return strbuf_detach(&sb);
}

/* The options filed as where (a candidate that dragged them, RD_OTHER,
 * RD_TREE), a mapping each: option, was, now (with_now, or when it is not
 * n) and why; 0 on an emitter error. */
static int
report_yaml_list(yaml_emitter_t *e, struct report_model *m, long where,
    bool with_now)
{
	const struct report_diff	*d;
	size_t				 i;
	char				*name;
	int				 ok = 1;
	bool				 now;

	for (i = 0; ok && i < m->ndiffs; i++) {
		if (m->root[i] != where)
			continue;
		d = &m->diffs[i];
		/* Dragged along is n, said once for all; a string or
		 * number that lost its line says so. */
		now = with_now || d->now == NULL || strcmp(d->now, "n") != 0;
		name = xasprintf("CONFIG_%s", d->name);
		ok = yamlwrite_map(e, true) && yamlwrite_kv(e, "option", name) &&
		    yamlwrite_kv(e, "was", report_value(d->was)) &&
		    (!now || yamlwrite_kv(e, "now", report_value(d->now))) &&
		    yamlwrite_kv(e, "why", m->why[i]) && yamlwrite_map(e, false);
		free(name);
	}
	return ok;
}

/* The accepted to_verify candidates (YAML to_verify: trusted, note,
 * options with what they dragged along); 0 on an emitter error. */
static int
report_yaml_verify(yaml_emitter_t *e, struct report_model *m)
{
	const struct report_input	*in = m->in;
	struct trim_cand		*cand;
	size_t				 j;
	char				*name;
	int				 ok;

	ok = yamlwrite_str(e, "to_verify") && yamlwrite_map(e, true) &&
	    yamlwrite_kv(e, "trusted", "false") &&
	    yamlwrite_kv(e, "note", report_verify_note) &&
	    yamlwrite_str(e, "options") && yamlwrite_seq(e, true);
	for (j = 0; ok && j < in->naccepted; j++) {
		cand = trim_cand(in->t, in->accepted[j]);
		if (cand == NULL || !cand->to_verify ||
		    !m->accepted[in->accepted[j]] ||
		    cand->state != TRIM_ACCEPTED)
			continue;
		name = xasprintf("CONFIG_%s", cand->name);
		ok = yamlwrite_map(e, true) && yamlwrite_kv(e, "option", name) &&
		    yamlwrite_kv(e, "was", report_cand_was(m, cand)) &&
		    yamlwrite_kv(e, "subsystem",
		    trim_subsys(in->t, cand->subsys)->path) &&
		    yamlwrite_kv(e, "reason", cand->reason) &&
		    yamlwrite_str(e, "dragged") && yamlwrite_seq(e, true) &&
		    report_yaml_list(e, m, (long)in->accepted[j], false) &&
		    yamlwrite_seq(e, false) && yamlwrite_map(e, false);
		free(name);
	}
	return ok && yamlwrite_seq(e, false) && yamlwrite_map(e, false);
}

/* The minimal policy's note, CPU and the arch core it kept (YAML
 * minimal: trusted, note, cpu_vendor, arch_kept); 0 on an emitter
 * error. */
static int
report_yaml_minimal(yaml_emitter_t *e, struct report_model *m)
{
	struct kc_symbol *const	*arch;
	struct trim_stats	 st;
	size_t			 n, i;
	char			*name;
	int			 ok;

	trim_get_stats(m->in->t, &st);
	arch = trim_arch_kept(m->in->t, &n);
	ok = yamlwrite_str(e, "minimal") && yamlwrite_map(e, true) &&
	    yamlwrite_kv(e, "trusted", "false") &&
	    yamlwrite_kv(e, "note", report_minimal_note) &&
	    yamlwrite_kv(e, "cpu_vendor", st.cpu_vendor != NULL ? st.cpu_vendor :
	    "unknown") && yamlwrite_str(e, "arch_kept") && yamlwrite_seq(e, true);
	for (i = 0; ok && i < n; i++) {
		if (kc_sym_tristate(m->in->k, arch[i]) == KC_NO)
			continue;
		name = xasprintf("CONFIG_%s", kc_sym_name(arch[i]));
		ok = yamlwrite_str(e, name);
		free(name);
	}
	return ok && yamlwrite_seq(e, false) && yamlwrite_map(e, false);
}

/* The YAML emitter and its state, for report_yaml_warning. */
struct report_yw {
	yaml_emitter_t	*e;
	int		 ok;
};

/* A warning as one string of the YAML report's warnings list. */
static void
report_yaml_warning(void *arg, const char *s, size_t n)
{
	struct report_yw	*yw = arg;
	char			*line = xstrndup(s, n);

	yw->ok = yw->ok && yamlwrite_str(yw->e, line);
	free(line);
}

/* The YAML document; 0 on an emitter error. */
static int
report_yaml_doc(yaml_emitter_t *e, struct report_model *m)
{
	const struct report_input	*in = m->in;
	struct trim_cand		*cand;
	struct trim_subsys		*sub;
	yaml_event_t			 ev;
	struct report_yw		 yw;
	size_t				 s, j, i;
	char				*name;
	struct trim_stats		 st;
	int				 b, ok = 1;

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(e, &ev);
	ok = ok && yamlwrite_map(e, true);
	ok = ok && yamlwrite_kv(e, "input", in->config_in);
	ok = ok && yamlwrite_kn(e, "input_ym", m->ym_in);
	ok = ok && yamlwrite_kn(e, "input_ym_up_to_date", m->ym_base);
	ok = ok && yamlwrite_kv(e, "output", in->config_out);
	ok = ok && yamlwrite_kn(e, "output_ym", m->ym_out);
	ok = ok && yamlwrite_kv(e, "policy", in->policy);
	if (in->builtin)
		ok = ok && yamlwrite_str(e, "builtin") && yamlwrite_map(e, true) &&
		    yamlwrite_kn(e, "made_y", in->builtin_made_y) &&
		    yamlwrite_kv(e, "modules", in->builtin_modules_off ? "n" : "y") &&
		    yamlwrite_kn(e, "left_m", in->builtin_nleft) &&
		    yamlwrite_kv(e, "left", in->builtin_left != NULL ? in->builtin_left :
		    "") && yamlwrite_map(e, false);
	trim_get_stats(in->t, &st);
	if (st.minimal)
		ok = ok && report_yaml_minimal(e, m);
	ok = ok && yamlwrite_str(e, "evidence") && yamlwrite_seq(e, true);
	for (b = 0; b < in->nbundles; b++)
		ok = ok && yamlwrite_str(e, in->bundles[b]);
	ok = ok && yamlwrite_seq(e, false);
	if (in->warnings != NULL) {
		yw.e = e;
		yw.ok = ok && yamlwrite_str(e, "warnings") && yamlwrite_seq(e, true);
		report_each_warning(in->warnings, report_yaml_warning, &yw);
		ok = yw.ok && yamlwrite_seq(e, false);
	}
	ok = ok && yamlwrite_kn(e, "accepted", m->nremoved);
	ok = ok && yamlwrite_kn(e, "dragged", m->ndragged);
	ok = ok && yamlwrite_kn(e, "values_dropped", m->nvalues);
	ok = ok && yamlwrite_str(e, "removed") && yamlwrite_seq(e, true);
	for (s = 0; ok && s < trim_nsubsys(in->t); s++) {
		sub = trim_subsys(in->t, s);
		for (j = 0; ok && j < sub->ncands; j++) {
			cand = trim_cand(in->t, sub->cands[j]);
			if (!m->accepted[sub->cands[j]] ||
			    cand->state != TRIM_ACCEPTED)
				continue;
			name = xasprintf("CONFIG_%s", cand->name);
			ok = ok && yamlwrite_map(e, true) && yamlwrite_kv(e, "option", name) &&
			    yamlwrite_kv(e, "was", report_cand_was(m, cand)) &&
			    yamlwrite_kv(e, "subsystem", sub->path) &&
			    yamlwrite_kv(e, "reason", cand->reason) &&
			    yamlwrite_kn(e, "objects", cand->nobjs) &&
			    yamlwrite_kn(e, "modules", cand->nmodules) &&
			    yamlwrite_kn(e, "ko_bytes", cand->ko_bytes);
			free(name);
			ok = ok && yamlwrite_str(e, "dragged") && yamlwrite_seq(e, true) &&
			    report_yaml_list(e, m, (long)sub->cands[j],
			    false) && yamlwrite_seq(e, false) && yamlwrite_map(e, false);
		}
	}
	ok = ok && yamlwrite_seq(e, false);
	ok = ok && yamlwrite_str(e, "other_changes") && yamlwrite_seq(e, true) &&
	    report_yaml_list(e, m, RD_OTHER, true) && yamlwrite_seq(e, false);
	ok = ok && yamlwrite_str(e, "brought_up_to_date") && yamlwrite_seq(e, true) &&
	    report_yaml_list(e, m, RD_TREE, true) && yamlwrite_seq(e, false);
	if (ok && m->nverify != 0)
		ok = report_yaml_verify(e, m);
	if (in->has_beyond) {
		ok = ok && yamlwrite_str(e, "kept_beyond_module_list") && yamlwrite_seq(e, true);
		for (i = 0; ok && i < in->nbeyond; i++) {
			name = xasprintf("CONFIG_%s",
			    kc_sym_name(in->beyond[i]));
			ok = yamlwrite_map(e, true) && yamlwrite_kv(e, "option", name) &&
			    yamlwrite_kv(e, "value", report_tri(kc_sym_tristate(in->k,
			    in->beyond[i]))) &&
			    yamlwrite_kv(e, "why", in->beyond_why[i]) && yamlwrite_map(e, false);
			free(name);
		}
		ok = ok && yamlwrite_seq(e, false);
	}
	ok = ok && yamlwrite_map(e, false);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(e, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(e, &ev);
	return ok;
}

static char *
report_yaml(struct report_model *m, size_t *len, char **cause)
{
	yaml_emitter_t	 e;
	struct strbuf	 sb;

	strbuf_init(&sb);
	if (!yaml_emitter_initialize(&e)) {
		*cause = xstrdup("libyaml: out of memory");
		return NULL;
	}
	yaml_emitter_set_output(&e, yamlwrite_strbuf, &sb);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, 100);
	if (!report_yaml_doc(&e, m)) {
		*cause = xasprintf("libyaml: %s", e.problem ? e.problem :
		    "emitter error");
		yaml_emitter_delete(&e);
		strbuf_free(&sb);
		return NULL;
	}
	yaml_emitter_delete(&e);
	*len = sb.len;
	return strbuf_detach(&sb);
}

/* Whether a report name asks for YAML. */
static bool
report_is_yaml(const char *path)
{
	size_t n = strlen(path);

	return (n > 5 && strcmp(path + n - 5, ".yaml") == 0) ||
	    (n > 4 && strcmp(path + n - 4, ".yml") == 0);
}

/* The report's text for path (YAML when it ends in .yaml or .yml). */
char *
report_render(const char *path, const struct report_input *in, size_t *len,
    char **cause)
{
	struct report_model	 m;
	char			*text;

	*len = 0;
	report_model_build(&m, in);
	if (report_is_yaml(path))
		text = report_yaml(&m, len, cause);
	else
		text = report_markdown(&m, len);
	report_model_free(&m);
	return text;
}

int
report_write(const char *path, const struct report_input *in, char **cause)
{
	char	*text;
	size_t	 len;
	int	 rc;

	if ((text = report_render(path, in, &len, cause)) == NULL)
		return -1;
	/* 0666 less the umask, like any file the user creates. */
	rc = file_write_atomic(path, text, len, 0666, 0, cause);
	free(text);
	return rc;
}
