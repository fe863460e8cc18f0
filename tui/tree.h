/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - one generic tree widget (tmux's mode-tree): a mode builds
 * items with tree_add(), the widget flattens them into lines of (depth,
 * last), keeps the cursor and scroll position across rebuilds, and asks
 * the mode to draw each line into an attributed row. The menu browser and
 * the search results are modes of it.
 */
#ifndef KC_TREE_H
#define KC_TREE_H

#include <stdbool.h>

struct row;
struct tree;
struct tree_item;

struct tree_line {
	struct tree_item	*item;
	void			*data;
	int			 depth;
	bool			 last;	/* last child of its parent */
	/* For each depth below this one: whether that ancestor was the
	 * last child (no vertical line to draw there). */
	unsigned long		 lastmask;
};

struct tree_ops {
	/* Add the items for the mode's current state. */
	void		 (*build)(void *arg, struct tree *);
	/* Format a line into r, width cells wide. */
	void		 (*draw)(void *arg, struct tree *,
			     const struct tree_line *, bool selected,
			     struct row *r, int width);
	/* The text hotkeys match (first letter), or NULL: not a target. */
	const char	*(*text)(void *arg, void *data);
	/* Free an item's data (NULL: not owned). */
	void		 (*free)(void *data);
};

struct tree	*tree_create(const struct tree_ops *, void *arg);
void		 tree_free(struct tree *);
/* Add an item (parent NULL: top level). key identifies it across
 * rebuilds, so the cursor stays on the same thing. */
struct tree_item *tree_add(struct tree *, struct tree_item *parent,
		     void *data, const void *key, bool expanded);
/* Rebuild the items (ops->build) and the lines. */
void		 tree_build(struct tree *);
void		 tree_set_height(struct tree *, int);
int		 tree_height(const struct tree *);
int		 tree_count(const struct tree *);
const struct tree_line *tree_line(const struct tree *, int);
int		 tree_current(const struct tree *);
int		 tree_offset(const struct tree *);
void		*tree_current_data(const struct tree *);
/* Move the cursor; false when it did not move. */
bool		 tree_move(struct tree *, int delta);
void		 tree_home(struct tree *);
/* Show the lines from top on, the cursor on the first (pagers). */
void		 tree_scroll_to(struct tree *, int top);
void		 tree_end(struct tree *);
/* Put the cursor on the item with this key (or data); false if none. */
bool		 tree_select_key(struct tree *, const void *key);
/* The next line (after the cursor, wrapping) whose text starts with ch,
 * ignoring case; false if none. */
bool		 tree_hotkey(struct tree *, int ch);
/* Format screen line i (0 = first visible) into r. */
void		 tree_format(struct tree *, int i, struct row *, int width);
/* The tree drawing for a line ("├─ ", "└─ ", "│  "): ascii when the
 * terminal cannot show line drawing. */
void		 tree_prefix(const struct tree_line *, struct row *, int el,
		     bool ascii);
#endif
