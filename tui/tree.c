/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.c - the generic tree widget (see tree.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"
#include "rows.h"
#include "tree.h"

struct tree_item {
	struct tree_item	*parent;
	struct tree_item	*first, *lastkid, *next;
	void			*data;
	const void		*key;
	bool			 expanded;
};

struct tree {
	const struct tree_ops	*ops;
	void			*arg;
	struct tree_item	*first, *lastkid;
	struct tree_line	*lines;
	int			 nlines, alines;
	int			 current, offset, height;
};

struct tree *
tree_create(const struct tree_ops *ops, void *arg)
{
	struct tree *t = xcalloc(1, sizeof *t);

	t->ops = ops;
	t->arg = arg;
	t->height = 1;
	return t;
}

/* Free a list of items and their children. */
static void
tree_free_items(struct tree *t, struct tree_item *it)
{
	struct tree_item *next;

	for (; it != NULL; it = next) {
		next = it->next;
		tree_free_items(t, it->first);
		if (t->ops->free != NULL)
			t->ops->free(it->data);
		free(it);
	}
}

void
tree_free(struct tree *t)
{
	if (t == NULL)
		return;
	tree_free_items(t, t->first);
	free(t->lines);
	free(t);
}

struct tree_item *
tree_add(struct tree *t, struct tree_item *parent, void *data,
    const void *key, bool expanded)
{
	struct tree_item *it = xcalloc(1, sizeof *it);

	it->parent = parent;
	it->data = data;
	it->key = key;
	it->expanded = expanded;
	if (parent == NULL) {
		if (t->lastkid != NULL)
			t->lastkid->next = it;
		else
			t->first = it;
		t->lastkid = it;
	} else {
		if (parent->lastkid != NULL)
			parent->lastkid->next = it;
		else
			parent->first = it;
		parent->lastkid = it;
	}
	return it;
}

/* Append the lines of a list of siblings. */
static void
tree_flatten(struct tree *t, struct tree_item *it, int depth,
    unsigned long mask)
{
	struct tree_line *l;

	for (; it != NULL; it = it->next) {
		if (t->nlines == t->alines) {
			t->alines = t->alines ? t->alines * 2 : 256;
			t->lines = xrealloc(t->lines, (size_t)t->alines *
			    sizeof *t->lines);
		}
		l = &t->lines[t->nlines++];
		l->item = it;
		l->data = it->data;
		l->depth = depth;
		l->last = it->next == NULL;
		l->lastmask = mask;
		if (it->expanded && it->first != NULL)
			tree_flatten(t, it->first, depth + 1, depth < 63 ?
			    mask | ((unsigned long)l->last << depth) : mask);
	}
}

/* Keep the cursor on screen. */
static void
tree_clamp(struct tree *t)
{
	if (t->current >= t->nlines)
		t->current = t->nlines - 1;
	if (t->current < 0)
		t->current = 0;
	if (t->offset > t->current)
		t->offset = t->current;
	if (t->current >= t->offset + t->height)
		t->offset = t->current - t->height + 1;
	if (t->offset > t->nlines - t->height)
		t->offset = t->nlines - t->height;
	if (t->offset < 0)
		t->offset = 0;
}

void
tree_build(struct tree *t)
{
	const void	*key = NULL;
	int		 old = t->current, oldoff = t->offset, i;

	if (t->current < t->nlines)
		key = t->lines[t->current].item->key;
	tree_free_items(t, t->first);
	t->first = t->lastkid = NULL;
	t->nlines = 0;
	t->ops->build(t->arg, t);
	tree_flatten(t, t->first, 0, 0);
	t->current = old;
	for (i = 0; key != NULL && i < t->nlines; i++) {
		if (t->lines[i].item->key == key) {
			/* Same item: keep it at the same screen row. */
			t->current = i;
			t->offset = oldoff + (i - old);
			break;
		}
	}
	tree_clamp(t);
}

void
tree_set_height(struct tree *t, int h)
{
	t->height = h > 0 ? h : 1;
	tree_clamp(t);
}

int
tree_height(const struct tree *t)
{
	return t->height;
}

int
tree_count(const struct tree *t)
{
	return t->nlines;
}

const struct tree_line *
tree_line(const struct tree *t, int i)
{
	return i >= 0 && i < t->nlines ? &t->lines[i] : NULL;
}

int
tree_current(const struct tree *t)
{
	return t->current;
}

int
tree_offset(const struct tree *t)
{
	return t->offset;
}

void *
tree_current_data(const struct tree *t)
{
	return t->current < t->nlines ? t->lines[t->current].data : NULL;
}

bool
tree_move(struct tree *t, int delta)
{
	int old = t->current;

	t->current += delta;
	tree_clamp(t);
	return t->current != old;
}

void
tree_home(struct tree *t)
{
	t->current = 0;
	tree_clamp(t);
}

void
tree_scroll_to(struct tree *t, int top)
{
	t->offset = t->current = top;
	tree_clamp(t);
	/* The last page: the cursor on its first line too. */
	t->current = t->offset;
}

void
tree_end(struct tree *t)
{
	t->current = t->nlines - 1;
	tree_clamp(t);
}

bool
tree_select_key(struct tree *t, const void *key)
{
	int i;

	for (i = 0; i < t->nlines; i++) {
		if (t->lines[i].item->key == key ||
		    t->lines[i].data == key) {
			t->current = i;
			/* Jumps land a third down the screen, with context. */
			t->offset = i - t->height / 3;
			tree_clamp(t);
			return true;
		}
	}
	return false;
}

bool
tree_hotkey(struct tree *t, int ch)
{
	const char	*s;
	int		 i, n;

	if (t->ops->text == NULL || t->nlines == 0)
		return false;
	for (n = 1; n <= t->nlines; n++) {
		i = (t->current + n) % t->nlines;
		if ((s = t->ops->text(t->arg, t->lines[i].data)) == NULL)
			continue;
		while (*s != '\0' && !isalnum((unsigned char)*s))
			s++;
		if (tolower((unsigned char)*s) == tolower(ch)) {
			t->current = i;
			tree_clamp(t);
			return true;
		}
	}
	return false;
}

void
tree_format(struct tree *t, int i, struct row *r, int width)
{
	int n = t->offset + i;

	row_clear(r);
	if (n < t->nlines)
		t->ops->draw(t->arg, t, &t->lines[n], n == t->current, r,
		    width);
	row_fit(r, 0, width);
}

void
tree_prefix(const struct tree_line *l, struct row *r, int el, bool ascii)
{
	int d;

	for (d = 1; d < l->depth; d++) {
		bool last = d < 64 && (l->lastmask >> d) & 1;

		row_add(r, el, last ? "   " : ascii ? "|  " : "\u2502  ");
	}
	if (l->depth > 0)
		row_add(r, el, l->last ? (ascii ? "`- " : "\u2514\u2500 ") :
		    (ascii ? "|- " : "\u251c\u2500 "));
}
