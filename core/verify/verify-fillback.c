/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-fillback.c - when a step fails, find the trims that broke it and
 * put them back: first what the console names (informed fill-back,
 * verify-informed.c), then delta debugging in batches by subsystem within
 * a probe budget (verify-search.c), each put-back kept with the step and
 * the message or probe that named it. The probes themselves are
 * verify.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "verify-informed.h"
#include "verify-int.h"
#include "verify-search.h"
#include "verify.h"

/* Put trim i back, needed by step. */
static void
verify_keep(struct verify *v, size_t i, const char *step)
{
	struct verify_event e = { .kind = VEV_KEEP };

	v->trims[i].kept = true;
	free(v->trims[i].step);
	v->trims[i].step = xstrdup(step != NULL ? step : "boot");
	e.name = v->trims[i].name;
	e.state = v->trims[i].step;
	verify_emit(v, &e);
}

/* What informed fill-back is putting back for one named module: with
 * named set, the trims want[] selects get their reason there (the
 * search keeps them); else the trims not kept are put back at once. */
struct verify_informed_ctx {
	struct verify	*v;
	const char	*why;
	const bool	*want;
	char	       **named;
	int		 kept;
};

/* A symbol that builds a named module: put back if it is a trim. */
static void
verify_informed_sym(void *arg, const char *sym)
{
	struct verify_informed_ctx	*c = arg;
	size_t				 i;

	for (i = 0; i < c->v->ntrims; i++) {
		if (strcmp(c->v->trims[i].name, sym) != 0)
			continue;
		if (c->named != NULL) {
			if (!c->want[i] || c->named[i] != NULL)
				continue;
			c->named[i] = xstrdup(c->why);
		} else {
			if (c->v->trims[i].kept)
				continue;
			verify_keep(c->v, i, c->why);
		}
		c->kept++;
	}
}

/* The bundle's modules.alias read by the evidence's own reader (its
 * lines and its matching: evidence_alias_modules), or NULL when the
 * bundle has none. */
static struct evidence *
verify_bundle_aliases(const struct verify *v)
{
	struct evidence	*ev;
	char		*text = verify_bundle_file(v, "modules.alias");

	if (text == NULL)
		return NULL;
	ev = evidence_new();
	(void)evidence_read_aliases(ev, -1, text, strlen(text));
	free(text);
	return ev;
}

/*
 * Informed fill-back: the trims of want[] that build what the last boot
 * named (verify-informed.c), each given the message that named it in
 * named[] (malloc'd). The number named.
 */
static int
verify_informed_named(struct verify_state *st, const char *step,
    const bool *want, char **named)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	struct verify_named		 nm;
	struct evidence			*aliases;
	char				*console, *why;
	size_t				 i;

	memset(&nm, 0, sizeof nm);
	if (v->result.console != NULL &&
	    (console = file_read_all(v->result.console, NULL)) != NULL) {
		verify_named_scan(&nm, console);
		free(console);
	}
	for (i = 0; i < v->nlost; i++)
		verify_named_lost(&nm, v->lost[i]);
	aliases = verify_bundle_aliases(v);
	memset(&c, 0, sizeof c);
	c.v = v;
	c.want = want;
	c.named = named;
	for (i = 0; i < nm.n; i++) {
		/* "STEP: MESSAGE", as long as a table cell can bear */
		why = xasprintf("%s: %.160s", step != NULL ? step : "boot",
		    nm.v[i].why);
		why[strcspn(why, "\r")] = '\0';
		c.why = why;
		(void)verify_named_options(v->kb, aliases, nm.v[i].name,
		    verify_informed_sym, &c);
		free(why);
	}
	if (aliases != NULL)
		evidence_free(aliases);
	verify_named_free(&nm);
	return c.kept;
}

/*
 * A twin's devices with no twin: put back, before the first probe, the
 * trims that build their modules (the Kbuild index through the bundle's
 * modules.alias), each with the device as its reason. No boot here can
 * say whether a trim of them is harmless, so none is made.
 */
void
verify_keep_nontwin(struct verify_state *st)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	struct evidence			*aliases;
	char				*why, *note;
	size_t				 i;

	if (v->nnontwin == 0 || v->kb == NULL)
		return;
	aliases = verify_bundle_aliases(v);
	memset(&c, 0, sizeof c);
	c.v = v;
	for (i = 0; i < v->nnontwin; i++) {
		if (v->nontwin[i].module == NULL)
			continue;
		why = xasprintf("not verifiable under QEMU: %s %s %s",
		    v->nontwin[i].bus, v->nontwin[i].driver,
		    v->nontwin[i].path);
		c.why = why;
		(void)verify_named_options(v->kb, aliases,
		    v->nontwin[i].module, verify_informed_sym, &c);
		free(why);
	}
	if (c.kept > 0) {
		note = xasprintf("%d option%s kept: they build drivers of "
		    "devices the twin machine does not have", c.kept,
		    c.kept == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	if (aliases != NULL)
		evidence_free(aliases);
}

/* The search's view of verify (verify-search.h's callbacks). */
struct verify_search_ctx {
	struct verify_state	*st;
	struct vsearch		*s;
};

/* A probe for the search: verify_try, the probes counted as verify
 * counts them (the memo answers some without a build). */
static int
verify_search_probe(void *arg, const bool *want, int left, char **step,
    char **cause)
{
	struct verify_search_ctx	*c = arg;
	int				 r;

	c->st->left = left;
	r = verify_try(c->st, want, step, cause);
	c->s->probes = c->st->v->probes;
	return r;
}

/* What the last boot's console names among want[], for the search. */
static int
verify_search_informed(void *arg, const char *step, const bool *want,
    char **named)
{
	struct verify_search_ctx	*c = arg;
	struct verify			*v = c->st->v;
	char				*note;
	int				 n;

	if (v->kb == NULL)
		return 0;
	n = verify_informed_named(c->st, step, want, named);
	if (n > 0) {
		note = xasprintf("%d option%s put back because the boot named "
		    "them", n, n == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	v->informed += n;
	return n;
}

/* A put-back the search decided. */
static void
verify_search_keep(void *arg, size_t i, const char *why)
{
	struct verify_search_ctx *c = arg;

	verify_keep(c->st->v, i, why);
}

/* A remark of the search's. */
static void
verify_search_note(void *arg, const char *text)
{
	struct verify_search_ctx *c = arg;

	verify_note(c->st->v, text);
}

/*
 * The fill-back: while the trims left fail, put back what the failed
 * boot names, else search for the culprit in batches by subsystem, within
 * the probe budget (verify-search.c).
 */
int
verify_fill_back(struct verify_state *st, const char *first_step,
    char **cause)
{
	struct verify			*v = st->v;
	struct vsearch			 s;
	struct verify_search_ctx	 c;
	size_t				 i;
	int				 r;

	memset(&s, 0, sizeof s);
	s.items = xcalloc(v->ntrims + 1, sizeof *s.items);
	for (i = 0; i < v->ntrims; i++) {
		s.items[i].name = v->trims[i].name;
		s.items[i].subsys = v->trims[i].subsys;
		s.items[i].kept = v->trims[i].kept;
	}
	s.n = v->ntrims;
	s.budget = v->max_probes == 0 ? VERIFY_MAX_PROBES :
	    v->max_probes < 0 ? 0 : v->max_probes;
	s.probes = v->probes;
	s.probe = verify_search_probe;
	s.informed = verify_search_informed;
	s.keep = verify_search_keep;
	s.note = verify_search_note;
	c.st = st;
	c.s = &s;
	s.arg = &c;
	r = vsearch_run(&s, first_step, cause);
	v->passed = r == 0 && s.passed;
	v->budget_hit = s.budget_hit;
	v->batches = s.batches;
	v->culprits = s.culprits;
	free(s.items);
	return r;
}
