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

#include "../kconfig-parser/kconfig.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "decisions.h"
#include "report.h"
#include "trim.h"

/* Replace path with data atomically (lib/fileio.h), mode 0666 less the
 * umask like any file the user creates (the mkstemp this replaced made
 * reports and decisions files 0600 by accident). */
int
report_write_file(const char *path, const char *data, size_t len,
    char **cause)
{
	return file_write_atomic(path, data, len, 0666, 0, cause);
}

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

/* The report's model: per change, the accepted candidate it is filed
 * under (-1: an accepted one itself, -2: no single cause, -3: not in the
 * written configuration, not reported). */
struct report_model {
	const struct report_input	*in;
	int				*change_of;	/* symbol -> change */
	long				*root;		/* change -> candidate */
	bool				*accepted;	/* candidate accepted */
	size_t				 nremoved, ndragged, nother;
	/* accepted to_verify candidates */
	size_t				 nverify;
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

/* Whether the written configuration has sym (a symbol of the trim's
 * configuration, maybe another parse) at v: what the report says must be
 * what the file holds, whatever changed after the trim was computed. */
static bool
report_in_output(const struct report_input *in, struct kc_symbol *sym,
    enum kc_tri v)
{
	struct kc_symbol *s = kconfig_symbol(in->k, kc_sym_index(sym));

	return s != NULL && kc_sym_tristate(in->k, s) == v;
}

static void
report_model_build(struct report_model *m, const struct report_input *in)
{
	const struct trim_change	*c;
	size_t				 i;
	long				 cand;
	int				 n = kconfig_nsymbols(in->k);

	memset(m, 0, sizeof *m);
	m->in = in;
	m->change_of = xcalloc((size_t)n + 1, sizeof *m->change_of);
	for (i = 0; i < (size_t)n; i++)
		m->change_of[i] = -1;
	m->accepted = xcalloc(trim_ncands(in->t) + 1, sizeof *m->accepted);
	/* An accepted candidate on again in the output (set back in the
	 * browser) is not reported as removed. */
	for (i = 0; i < in->naccepted; i++)
		if (in->accepted[i] < trim_ncands(in->t) &&
		    report_in_output(in, trim_cand(in->t,
		    in->accepted[i])->sym, KC_NO))
			m->accepted[in->accepted[i]] = true;
	for (i = 0; i < in->naccepted; i++) {
		if (in->accepted[i] < trim_ncands(in->t) &&
		    m->accepted[in->accepted[i]] &&
		    trim_cand(in->t, in->accepted[i])->to_verify)
			m->nverify++;
	}
	for (i = 0; i < in->nchanges; i++)
		m->change_of[kc_sym_index(in->changes[i].sym)] = (int)i;
	m->root = xcalloc(in->nchanges + 1, sizeof *m->root);
	for (i = 0; i < in->nchanges; i++) {
		c = &in->changes[i];
		if (!report_in_output(in, c->sym, c->after)) {
			/* Not what the file holds: not reported. */
			m->root[i] = -3;
			continue;
		}
		cand = trim_cand_of(in->t, c->sym);
		if (cand >= 0 && m->accepted[cand] && c->after == KC_NO) {
			m->root[i] = -1;
			m->nremoved++;
			continue;
		}
		m->root[i] = c->after == KC_NO ? report_root(m, i) : -2;
		if (m->root[i] >= 0)
			m->ndragged++;
		else
			m->nother++;
	}
}

static void
report_model_free(struct report_model *m)
{
	free(m->change_of);
	free(m->root);
	free(m->accepted);
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

/* What the section of the to_verify candidates says first. */
static const char report_verify_note[] =
    "This configuration is not trusted until `kctui verify` has booted it: "
    "it trims options the modules policy keeps, beyond what a module list "
    "(`make localmodconfig`) keeps, because only evidence a boot must "
    "confirm holds them (traced hook or notifier code, a device present "
    "but not bound, an optional part of a loaded module). `kctui verify` "
    "builds and boots it, runs the workload, and puts back the options a "
    "step needs.";

/* The accepted to_verify candidates, each with what it dragged along
 * (markdown). */
static void
report_markdown_verify(struct strbuf *sb, struct report_model *m)
{
	const struct report_input	*in = m->in;
	const struct trim_change	*c;
	struct trim_cand		*cand;
	size_t				 j, i;

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
		    report_tri(cand->value), cand->reason);
		for (i = 0; i < in->nchanges; i++) {
			if (m->root[i] != (long)in->accepted[j])
				continue;
			c = &in->changes[i];
			strbuf_addf(sb, "  - dragged along: `CONFIG_%s` (%s -> "
			    "n, %s)\n", kc_sym_name(c->sym),
			    report_tri(c->before), c->why ? c->why : "follows");
		}
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
	const struct trim_change	*c;
	struct trim_cand		*cand;
	struct trim_subsys		*sub;
	struct strbuf			 sb;
	size_t				 s, j, i, nd;
	enum decision			 d;
	const char			*reason, *name;
	int				 b;

	strbuf_init(&sb);
	strbuf_adds(&sb, "# kctui trim report\n\n");
	strbuf_addf(&sb, "- input: `%s` (%zu options y or m)\n", in->config_in,
	    in->ym_before);
	strbuf_addf(&sb, "- output: `%s` (%zu options y or m)\n",
	    in->config_out, in->ym_after);
	strbuf_addf(&sb, "- policy: %s\n", in->policy);
	for (b = 0; b < in->nbundles; b++)
		strbuf_addf(&sb, "- evidence: `%s`\n", in->bundles[b]);
	report_each_warning(in->warnings, report_md_warning, &sb);
	strbuf_addf(&sb, "- removed: %zu options (%zu accepted, %zu dragged "
	    "along); %zu other changes\n", m->nremoved + m->ndragged,
	    m->nremoved, m->ndragged, m->nother);
	if (in->decisions_file != NULL)
		strbuf_addf(&sb, "- decisions: `%s`\n", in->decisions_file);
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
			    cand->name, report_tri(cand->value), cand->reason);
			report_saving(&sb, cand);
			strbuf_addc(&sb, '\n');
			for (i = 0; i < in->nchanges; i++) {
				if (m->root[i] != (long)sub->cands[j])
					continue;
				c = &in->changes[i];
				strbuf_addf(&sb, "  - dragged along: `CONFIG_%s`"
				    " (%s -> n, %s)\n", kc_sym_name(c->sym),
				    report_tri(c->before), c->why ? c->why :
				    "follows");
			}
		}
	}
	if (m->nother != 0) {
		strbuf_adds(&sb, "\n## Other changes\n\n");
		for (i = 0; i < in->nchanges; i++) {
			if (m->root[i] != -2)
				continue;
			c = &in->changes[i];
			strbuf_addf(&sb, "- `CONFIG_%s`: %s -> %s (%s)\n",
			    kc_sym_name(c->sym), report_tri(c->before),
			    report_tri(c->after), c->why ? c->why :
			    "no single cause");
		}
	}
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

/* libyaml output into a strbuf. */
static int
report_yaml_out(void *arg, unsigned char *buf, size_t len)
{
	strbuf_add(arg, (const char *)buf, len);
	return 1;
}

static int
ys(yaml_emitter_t *e, const char *s)
{
	yaml_event_t ev;

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
	    (int)strlen(s), 1, 1, YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(e, &ev);
}

static int
ykv(yaml_emitter_t *e, const char *k, const char *v)
{
	return ys(e, k) && ys(e, v);
}

static int
ykn(yaml_emitter_t *e, const char *k, unsigned long long n)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%llu", n);
	return ys(e, k) && ys(e, buf);
}

static int
ymap(yaml_emitter_t *e, bool start)
{
	yaml_event_t ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	return yaml_emitter_emit(e, &ev);
}

static int
yseq(yaml_emitter_t *e, bool start)
{
	yaml_event_t ev;

	if (start)
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&ev);
	return yaml_emitter_emit(e, &ev);
}

/* The accepted to_verify candidates (YAML to_verify: trusted, note,
 * options with what they dragged along); 0 on an emitter error. */
static int
report_yaml_verify(yaml_emitter_t *e, struct report_model *m)
{
	const struct report_input	*in = m->in;
	const struct trim_change	*c;
	struct trim_cand		*cand;
	size_t				 j, i;
	char				*name;
	int				 ok;

	ok = ys(e, "to_verify") && ymap(e, true) &&
	    ykv(e, "trusted", "false") &&
	    ykv(e, "note", report_verify_note) &&
	    ys(e, "options") && yseq(e, true);
	for (j = 0; ok && j < in->naccepted; j++) {
		cand = trim_cand(in->t, in->accepted[j]);
		if (cand == NULL || !cand->to_verify ||
		    !m->accepted[in->accepted[j]] ||
		    cand->state != TRIM_ACCEPTED)
			continue;
		name = xasprintf("CONFIG_%s", cand->name);
		ok = ymap(e, true) && ykv(e, "option", name) &&
		    ykv(e, "was", report_tri(cand->value)) &&
		    ykv(e, "subsystem",
		    trim_subsys(in->t, cand->subsys)->path) &&
		    ykv(e, "reason", cand->reason) &&
		    ys(e, "dragged") && yseq(e, true);
		free(name);
		for (i = 0; ok && i < in->nchanges; i++) {
			if (m->root[i] != (long)in->accepted[j])
				continue;
			c = &in->changes[i];
			name = xasprintf("CONFIG_%s", kc_sym_name(c->sym));
			ok = ymap(e, true) && ykv(e, "option", name) &&
			    ykv(e, "was", report_tri(c->before)) &&
			    ykv(e, "why", c->why ? c->why : "follows") &&
			    ymap(e, false);
			free(name);
		}
		ok = ok && yseq(e, false) && ymap(e, false);
	}
	return ok && yseq(e, false) && ymap(e, false);
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

	yw->ok = yw->ok && ys(yw->e, line);
	free(line);
}

/* The YAML document; 0 on an emitter error. */
static int
report_yaml_doc(yaml_emitter_t *e, struct report_model *m)
{
	const struct report_input	*in = m->in;
	const struct trim_change	*c;
	struct trim_cand		*cand;
	struct trim_subsys		*sub;
	yaml_event_t			 ev;
	struct report_yw		 yw;
	size_t				 s, j, i;
	char				*name;
	int				 b, ok = 1;

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = ok && yaml_emitter_emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(e, &ev);
	ok = ok && ymap(e, true);
	ok = ok && ykv(e, "input", in->config_in);
	ok = ok && ykn(e, "input_ym", in->ym_before);
	ok = ok && ykv(e, "output", in->config_out);
	ok = ok && ykn(e, "output_ym", in->ym_after);
	ok = ok && ykv(e, "policy", in->policy);
	ok = ok && ys(e, "evidence") && yseq(e, true);
	for (b = 0; b < in->nbundles; b++)
		ok = ok && ys(e, in->bundles[b]);
	ok = ok && yseq(e, false);
	if (in->warnings != NULL) {
		yw.e = e;
		yw.ok = ok && ys(e, "warnings") && yseq(e, true);
		report_each_warning(in->warnings, report_yaml_warning, &yw);
		ok = yw.ok && yseq(e, false);
	}
	ok = ok && ykn(e, "accepted", m->nremoved);
	ok = ok && ykn(e, "dragged", m->ndragged);
	ok = ok && ys(e, "removed") && yseq(e, true);
	for (s = 0; ok && s < trim_nsubsys(in->t); s++) {
		sub = trim_subsys(in->t, s);
		for (j = 0; ok && j < sub->ncands; j++) {
			cand = trim_cand(in->t, sub->cands[j]);
			if (!m->accepted[sub->cands[j]] ||
			    cand->state != TRIM_ACCEPTED)
				continue;
			name = xasprintf("CONFIG_%s", cand->name);
			ok = ok && ymap(e, true) && ykv(e, "option", name) &&
			    ykv(e, "was", report_tri(cand->value)) &&
			    ykv(e, "subsystem", sub->path) &&
			    ykv(e, "reason", cand->reason) &&
			    ykn(e, "objects", cand->nobjs) &&
			    ykn(e, "modules", cand->nmodules) &&
			    ykn(e, "ko_bytes", cand->ko_bytes);
			free(name);
			ok = ok && ys(e, "dragged") && yseq(e, true);
			for (i = 0; ok && i < in->nchanges; i++) {
				if (m->root[i] != (long)sub->cands[j])
					continue;
				c = &in->changes[i];
				name = xasprintf("CONFIG_%s",
				    kc_sym_name(c->sym));
				ok = ymap(e, true) && ykv(e, "option", name) &&
				    ykv(e, "was", report_tri(c->before)) &&
				    ykv(e, "why", c->why ? c->why : "follows") &&
				    ymap(e, false);
				free(name);
			}
			ok = ok && yseq(e, false) && ymap(e, false);
		}
	}
	ok = ok && yseq(e, false);
	ok = ok && ys(e, "other_changes") && yseq(e, true);
	for (i = 0; ok && i < in->nchanges; i++) {
		if (m->root[i] != -2)
			continue;
		c = &in->changes[i];
		name = xasprintf("CONFIG_%s", kc_sym_name(c->sym));
		ok = ymap(e, true) && ykv(e, "option", name) &&
		    ykv(e, "was", report_tri(c->before)) &&
		    ykv(e, "now", report_tri(c->after)) &&
		    ykv(e, "why", c->why ? c->why : "no single cause") &&
		    ymap(e, false);
		free(name);
	}
	ok = ok && yseq(e, false);
	if (ok && m->nverify != 0)
		ok = report_yaml_verify(e, m);
	if (in->has_beyond) {
		ok = ok && ys(e, "kept_beyond_module_list") && yseq(e, true);
		for (i = 0; ok && i < in->nbeyond; i++) {
			name = xasprintf("CONFIG_%s",
			    kc_sym_name(in->beyond[i]));
			ok = ymap(e, true) && ykv(e, "option", name) &&
			    ykv(e, "value", report_tri(kc_sym_tristate(in->k,
			    in->beyond[i]))) &&
			    ykv(e, "why", in->beyond_why[i]) && ymap(e, false);
			free(name);
		}
		ok = ok && yseq(e, false);
	}
	ok = ok && ymap(e, false);
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
	yaml_emitter_set_output(&e, report_yaml_out, &sb);
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
	rc = report_write_file(path, text, len, cause);
	free(text);
	return rc;
}
