/* SPDX-License-Identifier: GPL-2.0 */
/*
 * graph.c - incremental invalidation: who reads whom.
 *
 * The kernel's conf forgets every value after any change (each symbol's
 * SYMBOL_VALID bit is cleared), so one change costs a recompute of all
 * ~17,000 symbols of Linux 6.1 the next time anything is read. In
 * incremental mode a change instead invalidates only the symbols whose
 * value is computed from the changed one, transitively, found through a
 * reverse-dependency graph built once: their values are recomputed lazily
 * as before, every other value stays current. The results are the same
 * (tests compare both ways on the real tree); what differs is how often a
 * symbol is recomputed, so the conf-compatible modes, whose unmet-
 * dependency warnings appear once per recompute exactly as conf prints
 * them, keep the full invalidation.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * A change reaching more than this share of the symbols invalidates
 * everything with one increment instead (cheaper than the walk, and the
 * lazy recompute is the same).
 */
#define GRAPH_FULL_SHARE	4

/* Note that reader reads every symbol of e (pass 0 counts, pass 1
 * stores), once per reader: stamp[] holds the last reader seen. */
static void
graph_expr(struct kconfig *k, const struct kc_expr *e, int reader, int pass)
{
	const struct kc_symbol	*x[2];
	int			 i, idx;

	if (e == NULL)
		return;
	switch (e->type) {
	case E_NONE:
		return;
	case E_OR:
	case E_AND:
		graph_expr(k, e->left.expr, reader, pass);
		graph_expr(k, e->right.expr, reader, pass);
		return;
	case E_NOT:
		graph_expr(k, e->left.expr, reader, pass);
		return;
	case E_SYMBOL:
		x[0] = e->left.sym;
		x[1] = NULL;
		break;
	default:		/* comparisons and ranges: two symbols */
		x[0] = e->left.sym;
		x[1] = e->right.sym;
		break;
	}
	for (i = 0; i < 2; i++) {
		if (x[i] == NULL || (x[i]->flags & SYM_CONST))
			continue;
		idx = (int)x[i]->order;
		if (idx < 0 || idx >= k->nsyms || idx == reader ||
		    k->g_stamp[idx] == (uint32_t)reader + 1)
			continue;
		k->g_stamp[idx] = (uint32_t)reader + 1;
		if (pass == 0)
			k->g_off[idx + 1]++;
		else
			k->g_to[k->g_fill[idx]++] = reader;
	}
}

/* An edge from one symbol to a reader (choices and their values). */
static void
graph_edge(struct kconfig *k, const struct kc_symbol *from, int reader,
    int pass)
{
	int idx;

	if (from == NULL || (from->flags & SYM_CONST))
		return;
	idx = (int)from->order;
	if (idx < 0 || idx >= k->nsyms || idx == reader ||
	    k->g_stamp[idx] == (uint32_t)reader + 1)
		return;
	k->g_stamp[idx] = (uint32_t)reader + 1;
	if (pass == 0)
		k->g_off[idx + 1]++;
	else
		k->g_to[k->g_fill[idx]++] = reader;
}

/*
 * Everything sym_calc_value() reads for one symbol: its dependencies,
 * selects and implies, every property's condition and value (defaults,
 * ranges, prompts), the "visible if" of every menu its entries sit in,
 * its choice, and for a choice its values.
 */
static void
graph_reader(struct kconfig *k, struct kc_symbol *s, int pass)
{
	struct kc_prop	*p;
	struct kc_menu	*m;
	int		 r = (int)s->order, i;

	graph_expr(k, s->dir_dep.expr, r, pass);
	graph_expr(k, s->rev_dep.expr, r, pass);
	graph_expr(k, s->implied.expr, r, pass);
	for (p = s->prop; p != NULL; p = p->next) {
		graph_expr(k, p->visible.expr, r, pass);
		if (p->type != P_SELECT && p->type != P_IMPLY)
			graph_expr(k, p->expr, r, pass);
		for (m = p->menu; m != NULL; m = m->parent)
			graph_expr(k, m->visibility, r, pass);
	}
	for (m = s->menu; m != NULL; m = m->parent)
		graph_expr(k, m->visibility, r, pass);
	graph_edge(k, s->choice, r, pass);
	for (i = 0; i < s->nvalues; i++)
		graph_edge(k, s->values[i], r, pass);
}

/* Build the reverse graph (CSR: g_off[i]..g_off[i+1] index g_to with the
 * readers of symbol i), each edge once. */
static void
graph_build(struct kconfig *k)
{
	int i, pass, n = k->nsyms;

	k->g_off = xcalloc((size_t)n + 2, sizeof *k->g_off);
	k->g_stamp = xcalloc((size_t)n + 1, sizeof *k->g_stamp);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (i = 0; i < n; i++)
				k->g_off[i + 1] += k->g_off[i];
			k->g_to = xcalloc((size_t)k->g_off[n] + 1,
			    sizeof *k->g_to);
			k->g_fill = xcalloc((size_t)n + 1, sizeof *k->g_fill);
			memcpy(k->g_fill, k->g_off, (size_t)n *
			    sizeof *k->g_fill);
		}
		memset(k->g_stamp, 0, (size_t)n * sizeof *k->g_stamp);
		for (i = 0; i < n; i++)
			graph_reader(k, k->syms[i], pass);
	}
	free(k->g_fill);
	k->g_fill = NULL;
	/* From here on g_stamp marks the walks (g_mark generations). */
	memset(k->g_stamp, 0, (size_t)n * sizeof *k->g_stamp);
	k->g_mark = 0;
	k->g_queue = xcalloc((size_t)n + 1, sizeof *k->g_queue);
	k->g_nsyms = n;
}

/* Free the graph (kconfig_free, or when symbols were added). */
void
graph_free(struct kconfig *k)
{
	free(k->g_off);
	free(k->g_to);
	free(k->g_stamp);
	free(k->g_queue);
	free(k->g_fill);
	k->g_off = NULL;
	k->g_to = NULL;
	k->g_stamp = NULL;
	k->g_queue = NULL;
	k->g_fill = NULL;
	k->g_nsyms = 0;
}

/*
 * User values of syms[0..n) changed: invalidate what can change with them.
 * In full mode (or for MODULES, which every tristate reads) that is every
 * symbol; in incremental mode the symbols, their choices, and every symbol
 * reading them, transitively (one walk from all of them: their closures
 * overlap).
 */
void
graph_invalidate_many(struct kconfig *k, struct kc_symbol **syms, size_t n)
{
	struct kc_symbol	*sym;
	size_t			 i;
	int			 nq, ns, qi, idx, e, r, limit;

	if (n == 0)
		return;
	if (!k->incremental) {
		sym_clear_all_valid(k);
		return;
	}
	for (i = 0; i < n; i++) {
		sym = syms[i];
		if (sym == NULL || (sym->flags & SYM_CONST) ||
		    sym == k->modules_sym || (int)sym->order >= k->nsyms) {
			sym_clear_all_valid(k);
			return;
		}
	}
	if (k->g_off == NULL || k->g_nsyms != k->nsyms) {
		graph_free(k);
		graph_build(k);
	}
	if (++k->g_mark == 0) {
		memset(k->g_stamp, 0, (size_t)k->nsyms * sizeof *k->g_stamp);
		k->g_mark = 1;
	}
	limit = k->nsyms / GRAPH_FULL_SHARE;
	nq = 0;
	for (i = 0; i < n; i++) {
		sym = syms[i];
		if (k->g_stamp[sym->order] != k->g_mark) {
			k->g_stamp[sym->order] = k->g_mark;
			k->g_queue[nq++] = (int)sym->order;
		}
		if (sym->choice != NULL && !(sym->choice->flags & SYM_CONST) &&
		    k->g_stamp[sym->choice->order] != k->g_mark) {
			k->g_stamp[sym->choice->order] = k->g_mark;
			k->g_queue[nq++] = (int)sym->choice->order;
		}
		if (nq > limit) {
			sym_clear_all_valid(k);
			return;
		}
	}
	/*
	 * A reader that is invalid already needs no walk past it: it has
	 * been invalid since before any valid reader of it was computed
	 * (each invalidation of a valid symbol walks on to its readers), so
	 * a valid reader computed without reading it (an && or || that
	 * decided early) and does not depend on it. Only the sources are
	 * always walked from; and nothing stops early while a symbol was
	 * invalidated without that walk (k->g_unwalked).
	 */
	ns = nq;
	for (qi = 0; qi < nq; qi++) {
		idx = k->g_queue[qi];
		if (qi >= ns && !k->g_unwalked &&
		    !sym_is_valid(k, k->syms[idx]))
			continue;
		for (e = k->g_off[idx]; e < k->g_off[idx + 1]; e++) {
			r = k->g_to[e];
			if (k->g_stamp[r] == k->g_mark)
				continue;
			k->g_stamp[r] = k->g_mark;
			k->g_queue[nq++] = r;
		}
		if (nq > limit) {
			sym_clear_all_valid(k);
			return;
		}
	}
	for (qi = 0; qi < nq; qi++)
		k->syms[k->g_queue[qi]]->valid_gen = 0;
	k->changed = true;
}

/* A user value of sym changed (graph_invalidate_many of one). */
void
graph_invalidate(struct kconfig *k, struct kc_symbol *sym)
{
	graph_invalidate_many(k, &sym, 1);
}

/* Switch incremental invalidation on or off. It is off by default
 * because conf's unmet-dependency warnings come once per recompute, so
 * only full recomputes give the same warnings as conf. */
void
kconfig_set_incremental(struct kconfig *k, bool on)
{
	k->incremental = on;
}

/* Whether incremental invalidation is on. */
bool
kconfig_incremental(const struct kconfig *k)
{
	return k->incremental;
}

/* The symbols whose values are computed from symbol index directly. */
const int *
kconfig_readers(struct kconfig *k, int index, int *n)
{
	*n = 0;
	if (index < 0 || index >= k->nsyms)
		return NULL;
	if (k->g_off == NULL || k->g_nsyms != k->nsyms) {
		graph_free(k);
		graph_build(k);
	}
	*n = k->g_off[index + 1] - k->g_off[index];
	return k->g_to + k->g_off[index];
}

/* Build the graph now (it is otherwise built on first use). */
void
kconfig_prepare_graph(struct kconfig *k)
{
	if (k->g_off == NULL || k->g_nsyms != k->nsyms) {
		graph_free(k);
		graph_build(k);
	}
}
