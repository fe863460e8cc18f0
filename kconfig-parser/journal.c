/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journal.c - checkpoints of the user values, and their generation.
 *
 * A trim tries a removal, reads the consequences and goes back, hundreds
 * of times per run. Saving and restoring every symbol's user value costs
 * O(symbols) each way (kconfig_values_save); a checkpoint instead notes
 * each symbol's user state just before its first change, so going back
 * costs what was changed, and only those symbols' readers recompute.
 *
 * The user generation names the state of the user values: every change
 * takes a new number (from a counter that only goes up, started from the
 * clock so two contexts do not share numbers), and a rollback gives back
 * the checkpoint's, as the values are those again. So a caller can tell
 * in O(1) that nothing changed since it last looked.
 */

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../lib/clock.h"

#define JOURNAL_FLAGS	(SYM_DEF_USER | SYM_NEED_SET_CHOICE)

/* A first user generation no other context is likely to have. */
void
journal_init(struct kconfig *k)
{
	k->user_next = clock_ns() ^ ((uint64_t)(uintptr_t)k << 8);
	k->user_gen = k->user_next;
}

/* Free the undo log. */
void
journal_free(struct kconfig *k)
{
	free(k->j_undo);
	free(k->j_stamp);
	k->j_undo = NULL;
	k->j_stamp = NULL;
	k->j_n = k->j_alloc = 0;
	k->j_on = false;
}

/*
 * The user state of sym is about to change: count it, and under a
 * checkpoint keep its state from before the first change.
 */
void
journal_note(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_undo	*u;

	k->user_gen = ++k->user_next;
	if (!k->j_on || sym == NULL || (int)sym->order >= k->j_nsyms ||
	    k->j_stamp[sym->order] == k->j_epoch)
		return;
	k->j_stamp[sym->order] = k->j_epoch;
	XGROW(k->j_undo, k->j_alloc, k->j_n + 1, 64);
	u = &k->j_undo[k->j_n++];
	u->sym = sym;
	u->flags = sym->flags & JOURNAL_FLAGS;
	u->tri = sym->user_tri;
	u->str = sym->user_str;
	u->sel = sym->user_sel;
	u->prio = sym->prio;
}

/* User values were replaced wholesale (a config read): no going back. */
void
journal_reset(struct kconfig *k)
{
	k->user_gen = ++k->user_next;
	k->j_on = false;
	k->j_n = 0;
}

/* Start noting changes so that kconfig_rollback() can undo them; false
 * when a checkpoint is already open. */
bool
kconfig_checkpoint(struct kconfig *k)
{
	if (k->j_on)
		return false;
	if (k->j_stamp == NULL || k->j_nsyms != k->nsyms) {
		free(k->j_stamp);
		k->j_stamp = xcalloc((size_t)k->nsyms + 1, sizeof *k->j_stamp);
		k->j_nsyms = k->nsyms;
		k->j_epoch = 0;
	}
	if (++k->j_epoch == 0) {
		memset(k->j_stamp, 0, (size_t)k->j_nsyms * sizeof *k->j_stamp);
		k->j_epoch = 1;
	}
	k->j_on = true;
	k->j_n = 0;
	k->j_gen0 = k->user_gen;
	return true;
}

/* Keep the changes since the checkpoint and stop noting them. */
void
kconfig_checkpoint_end(struct kconfig *k)
{
	k->j_on = false;
	k->j_n = 0;
}

/* Put back every user value changed since the checkpoint; only their
 * readers are invalidated. */
void
kconfig_rollback(struct kconfig *k)
{
	struct kc_undo		*u;
	struct kc_symbol	**syms;
	size_t			 i;

	if (!k->j_on)
		return;
	k->j_on = false;
	if (k->j_n == 0)
		return;
	syms = xcalloc(k->j_n, sizeof *syms);
	for (i = 0; i < k->j_n; i++) {
		u = &k->j_undo[i];
		u->sym->flags = (u->sym->flags & ~JOURNAL_FLAGS) | u->flags;
		u->sym->user_tri = u->tri;
		u->sym->user_str = u->str;
		u->sym->user_sel = u->sel;
		u->sym->prio = u->prio;
		syms[i] = u->sym;
	}
	graph_invalidate_many(k, syms, k->j_n);
	free(syms);
	k->j_n = 0;
	/* Every user value is back as it was at the checkpoint. */
	k->user_gen = k->j_gen0;
}

/* The generation of the user values (see the top of the file). */
uint64_t
kconfig_user_generation(const struct kconfig *k)
{
	return k->user_gen;
}
