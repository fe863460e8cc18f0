/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - key codes independent of curses, and the key table: one place
 * that says what each key does. Actions return redraw flags.
 */
#ifndef KC_KEYS_H
#define KC_KEYS_H

/* Keys above the character range (tui.c maps curses codes to these). */
enum {
	K_UP = 0x110000, K_DOWN, K_LEFT, K_RIGHT, K_PPAGE, K_NPAGE,
	K_HOME, K_END, K_ENTER, K_BACKSPACE, K_ESC, K_RESIZE, K_F1, K_DEL
};

enum tui_action {
	A_NONE, A_UP, A_DOWN, A_PGUP, A_PGDN, A_HOME, A_END,
	A_ENTER, A_OPEN, A_BACK, A_CYCLE, A_SET_Y, A_SET_M, A_SET_N,
	A_HELP, A_SEARCH, A_SAVE, A_LOAD, A_QUIT, A_SHOW_ALL, A_SHOW_NAME,
	A_ONLY_NEW, A_REDRAW, A_TRIM, A_ACCEPT, A_REJECT, A_UNDO, A_EXPORT,
	A_ENABLE, A_VERIFY, A_KEYS, A_QUIT_ALL, A_SORT
};

/* Redraw flags an action returns. */
#define R_NONE		0x0
#define R_LINES		0x1	/* the visible lines changed */
#define R_REBUILD	0x2	/* the items changed: rebuild the tree */
#define R_ALL		0x4	/* clear and repaint everything */
#define R_QUIT		0x8
#define R_CLEAR		0x10	/* the terminal's contents are unknown
				   (C-l, back from C-z): redraw every cell */

struct key_binding {
	int		 key;
	enum tui_action	 action;
	const char	*help;	/* for the key list in the help screen */
};

/* The action of a key (A_NONE: unbound; letters then act as hotkeys). */
enum tui_action	 keys_action(int key);
/* The table, for the key list; *n entries. */
const struct key_binding *keys_table(int *n);
/* A key's name ("Enter", "PgUp", "y"); buf holds 8 bytes. */
const char	*keys_name(int key, char *buf);
/* The key list (F1, and ? where there is no option help), made from the
 * table: one line per action with all its keys (malloc'd). */
char		*keys_text(void);
#endif
