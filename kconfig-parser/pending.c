/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pending.c - symbols named through a $(shell) whose result was not there
 * yet when the parser met them ("pending": the parse goes on while the
 * probes run, preprocess.c): once every probe has finished, each gets its
 * real name, every reference is pointed at the real symbol, and the
 * pending ones leave the table, in the order a serial parse would have
 * made.
 */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "preprocess.h"

/* Replace pending symbols in an expression by the real ones. */
static void
pending_fix_expr(struct kc_expr *e)
{
	if (e == NULL)
		return;
	switch (e->type) {
	case E_NOT:
		pending_fix_expr(e->left.expr);
		break;
	case E_AND:
	case E_OR:
		pending_fix_expr(e->left.expr);
		pending_fix_expr(e->right.expr);
		break;
	default:
		if (e->left.sym != NULL && (e->left.sym->flags & SYM_PENDING))
			e->left.sym = e->left.sym->forward;
		if (e->type != E_SYMBOL && e->right.sym != NULL &&
		    (e->right.sym->flags & SYM_PENDING))
			e->right.sym = e->right.sym->forward;
		break;
	}
}

/* Fix every expression of a menu subtree. */
static void
pending_fix_menus(struct kc_menu *m)
{
	for (; m != NULL; m = m->next) {
		pending_fix_expr(m->dep);
		pending_fix_expr(m->visibility);
		pending_fix_menus(m->list);
	}
}

/* Order symbols by their (adjusted) creation order. */
static int
pending_cmp_order(const void *a, const void *b)
{
	const struct kc_symbol *x = *(const struct kc_symbol *const *)a;
	const struct kc_symbol *y = *(const struct kc_symbol *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* The parse is over and every $(shell) has finished: give each pending
 * symbol its real name, point every reference at the real symbol and drop
 * the pending ones from the table. */
void
sym_resolve_pending(struct kconfig *k)
{
	struct kc_symbol	*sym, **pp;
	struct kc_prop		*prop;
	char			*res, *cause = NULL;
	int			 i, j;

	if (k->npending == 0)
		return;
	for (i = 0; i < k->npending; i++) {
		sym = k->pending[i];
		if ((res = pp_resolve(k->pp, sym->name, &cause)) == NULL) {
			kc_error(k, "%s", cause);
			free(cause);
			cause = NULL;
			res = xstrdup("");
		}
		sym->forward = sym_lookup(k, res, sym->flags & ~SYM_PENDING);
		free(res);
	}
	for (i = 0; i < k->nsyms; i++) {
		for (prop = k->syms[i]->prop; prop != NULL; prop = prop->next) {
			pending_fix_expr(prop->expr);
			pending_fix_expr(prop->visible.expr);
		}
	}
	pending_fix_menus(k->root.list);
	for (i = 0; i < SYM_HASHSIZE; i++) {
		for (pp = &k->hash[i]; *pp != NULL; ) {
			if ((*pp)->flags & SYM_PENDING)
				*pp = (*pp)->hnext;
			else
				pp = &(*pp)->hnext;
		}
	}
	/* A symbol first named through a $(shell) result takes the place of
	 * its earliest pending reference: where it would have been created
	 * had the probe finished in time. Symbol indexes then don't depend on
	 * timing, so two parses of a tree agree on them (the worker's copy,
	 * kconfig_values_restore()). */
	for (i = 0; i < k->npending; i++) {
		sym = k->pending[i];
		if (sym->forward->order > sym->order)
			sym->forward->order = sym->order;
	}
	for (i = j = 0; i < k->nsyms; i++) {
		if (!(k->syms[i]->flags & SYM_PENDING))
			k->syms[j++] = k->syms[i];
	}
	k->nsyms = j;
	qsort(k->syms, (size_t)k->nsyms, sizeof *k->syms, pending_cmp_order);
	for (i = 0; i < k->nsyms; i++)
		k->syms[i]->order = (uint32_t)i;
	free(k->pending);
	k->pending = NULL;
	k->npending = 0;
}

