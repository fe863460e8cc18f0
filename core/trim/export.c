/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.c - write a trimmed configuration and its report: what accepting
 * the candidates changes, the comparison with a trim on the loaded
 * modules alone when everything is accepted, the configuration itself
 * (atomically: the input is never touched unless out names it) and the
 * report (report.c). `kctui export` and the browser's trim review both
 * come here.
 */
#include <stdlib.h>
#include <string.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "export.h"
#include "report.h"
#include "trim-int.h"
#include "trim.h"

/* Removed (y/m -> n) symbols among changes. */
size_t
trim_changes_removed(const struct trim_change *ch, size_t n)
{
	size_t i, r = 0;

	for (i = 0; i < n; i++)
		r += ch[i].before != KC_NO && ch[i].after == KC_NO;
	return r;
}

/*
 * Write the configuration (ri->text_out) and the report together: both
 * are rendered and written to temporaries, and neither replaces its file unless both could
 * be written (a full disk while writing the report must not leave a new
 * config behind an old report). The config keeps its .old, as conf's
 * writes do.
 */
static int
export_write(struct trim_export *e, const struct report_input *ri,
    char **cause)
{
	struct file_out	 outs[2];
	const char	*config = ri->text_out;
	char		*report = NULL;
	size_t		 rlen = 0, n = 1;
	int		 rc = -1;

	memset(outs, 0, sizeof outs);
	outs[0].path = e->out;
	outs[0].buf = config;
	outs[0].len = strlen(config);
	outs[0].mode = 0666;
	outs[0].flags = ATOMIC_KEEP_OLD | ATOMIC_MKDIRS;
	if (e->report != NULL) {
		if ((report = report_render(e->report, ri, &rlen,
		    cause)) == NULL)
			goto out;
		outs[1].path = e->report;
		outs[1].buf = report;
		outs[1].len = rlen;
		outs[1].mode = 0666;
		n = 2;
	}
	rc = file_write_atomic_set(outs, n, cause);
out:
	free(report);
	return rc;
}

/*
 * Export e->accepted: the configuration to e->out and, when e->report is
 * set, the report. Fills e's results; a candidate that could not be set
 * is no failure but a warning in e->warning. -1 with *cause on failure.
 */
int
trim_export(struct trim_export *e, char **cause)
{
	struct report_input	 ri;
	struct trim_change	*ch = NULL;
	struct kconfig		*result = e->result != NULL ? e->result : e->k;
	struct kc_symbol	**bsyms = NULL;
	char			**bwhys = NULL, *warnings = NULL;
	const char		*text_in;
	char			*text_read = NULL, *text_base = NULL;
	char			*text_out = NULL;
	size_t			 nch = 0, nb = 0, i, len;
	int			 rc = -1;

	e->warning = NULL;
	if (trim_consequences(e->t, e->k, e->accepted, e->naccepted, &ch, &nch,
	    cause) != 0)
		return -1;
	e->removed = trim_changes_removed(ch, nch);
	e->ym_before = report_count_ym(e->k);
	/* The comparison with a module list alone, when everything is
	 * accepted (then it is what the report's reader compares). */
	memset(&ri, 0, sizeof ri);
	if (e->report != NULL && e->naccepted == trim_ncands(e->t)) {
		if (trim_beyond_modules(e->t, e->k, &bsyms, &bwhys, &nb,
		    cause) != 0)
			goto out;
		ri.has_beyond = true;
	}
	/* The report is the difference between the input file and the
	 * file written: the input as read (the browser's, from when it
	 * read it: it may have saved over it since), and as the engine
	 * read it, before any change. */
	if ((text_in = e->config_text) == NULL && !e->config_text_set &&
	    e->config_in != NULL)
		text_in = text_read = file_read_regular(e->config_in, &len);
	text_base = e->config_base != NULL ? xstrdup(e->config_base) :
	    kconfig_write_string(e->k);
	if (e->result == NULL)
		trim_apply(e->t, e->k, e->accepted, e->naccepted, &e->warning);
	memset(&e->bi, 0, sizeof e->bi);
	if (e->builtin) {
		export_builtin(result, &e->bi);
		ri.builtin = true;
		ri.builtin_made_y = e->bi.made_y;
		ri.builtin_nleft = e->bi.nleft;
		ri.builtin_left = e->bi.left;
		ri.builtin_modules_off = e->bi.modules_off;
	}
	text_out = kconfig_write_string(result);
	ri.beyond = bsyms;
	ri.beyond_why = bwhys;
	ri.nbeyond = nb;
	ri.t = e->t;
	ri.k = result;
	ri.accepted = e->accepted;
	ri.naccepted = e->naccepted;
	ri.changes = ch;
	ri.nchanges = nch;
	ri.config_in = e->config_in;
	ri.text_in = text_in;
	ri.text_base = text_base;
	ri.text_out = text_out;
	ri.other_why = e->other_why != NULL ? e->other_why : e->builtin ?
	    "built in (--builtin): a kept module made y, or what needs "
	    "loadable modules gone with MODULES" : NULL;
	ri.config_out = e->out;
	ri.policy = trim_policy_name(e->policy);
	ri.bundles = e->bundles;
	ri.nbundles = e->nbundles;
	e->ym_after = report_count_ym(result);
	ri.decisions_file = e->decisions_file;
	ri.warnings = warnings = e->t->in->ev != NULL ?
	    evidence_trace_warnings(e->t->in->ev) : NULL;
	rc = export_write(e, &ri, cause);
out:
	for (i = 0; i < nb; i++)
		free(bwhys[i]);
	free(bwhys);
	free(bsyms);
	free(ch);
	free(warnings);
	free(text_read);
	free(text_base);
	free(text_out);
	return rc;
}

/* See export.h: the check `kctui export` and the browser's e share. */
int
export_distinct_files(const char *cmd, const char *const *labels,
    const char *const *names, size_t n, char **cause)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (names[i] == NULL || names[j] == NULL ||
			    !path_same_file(names[i], names[j]))
				continue;
			*cause = xasprintf("%s: %s (%s) and %s (%s) are the "
			    "same file; nothing written", cmd, labels[i],
			    names[i], labels[j], names[j]);
			return -1;
		}
	}
	return 0;
}
