/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.c - the key table (see keys.h). mconf's keys, plus those of
 * Kconfiglib's menuconfig for what mconf lacks (show-all, names).
 */
#include <stdio.h>
#include <string.h>

#include "../lib/util.h"
#include "keys.h"

static const struct key_binding keys_bindings[] = {
	{ K_UP, A_UP, "previous line" },
	{ 'k', A_UP, NULL },
	{ K_DOWN, A_DOWN, "next line" },
	{ 'j', A_DOWN, NULL },
	{ K_PPAGE, A_PGUP, "page up" },
	{ K_NPAGE, A_PGDN, "page down (Space too in help and this list)" },
	{ K_HOME, A_HOME, "first line" },
	{ K_END, A_END, "last line" },
	{ K_ENTER, A_ENTER, "enter a submenu, edit a value, or toggle; in "
	    "search results, jump to the option" },
	{ K_RIGHT, A_OPEN, "enter a submenu" },
	{ K_LEFT, A_BACK, "back to the parent menu" },
	{ K_BACKSPACE, A_BACK, NULL },
	{ K_ESC, A_BACK, "close this view (help, submenu, review); at the "
	    "main menu, Esc Esc leaves" },
	{ ' ', A_CYCLE, "cycle the value (n, m, y)" },
	{ 'y', A_SET_Y, "set to y (built in)" },
	{ 'm', A_SET_M, "set to m (module)" },
	{ 'n', A_SET_N, "set to n (off); in search results and after / in "
	    "help, the next match" },
	{ '?', A_HELP, "help on the option; where there is none, this "
	    "key list" },
	{ 'h', A_HELP, NULL },
	{ K_F1, A_KEYS, "this key list" },
	{ '/', A_SEARCH, "search (regex over names, prompts, help); in help, "
	    "find text on the page (then n, N: the next, previous line with it)" },
	{ 's', A_SAVE, "save the configuration (a question names the file: "
	    "y writes it, a another name)" },
	{ 'l', A_LOAD, "load another configuration (it becomes the file "
	    "being edited)" },
	{ 'q', A_QUIT, "close this view; at the main menu, leave (asks to "
	    "save changes)" },
	{ 'Q', A_QUIT_ALL, "leave from any view (asks to save changes)" },
	{ 'A', A_SHOW_ALL, "show all options, invisible ones too" },
	{ 'z', A_SHOW_ALL, NULL },
	{ 'C', A_SHOW_NAME, "show option names" },
	{ 'N', A_ONLY_NEW, "show only NEW options; in search results and "
	    "after / in help, the previous match" },
	{ 'L' & 0x1f, A_REDRAW, "repaint the screen" },
	{ 'E', A_ENABLE, "how to turn the option on (plan; y applies it)" },
	{ 't', A_TRIM, "trim review (with -e): subsystems and candidates" },
	{ 'a', A_ACCEPT, "trim review: accept (trim) the option or subsystem" },
	{ 'r', A_REJECT, "trim review: reject (keep) the option or subsystem" },
	{ 'u', A_UNDO, "trim review: undo the last accept or reject" },
	{ 'o', A_SORT, "trim review: sort the subsystems (menu order, most "
	    "savings, most turned off, most candidates, name)" },
	{ 'e', A_EXPORT, "export the trimmed configuration and its report "
	    "(a question names both: y writes, a another name)" },
	{ 'v', A_VERIFY, "trim review: verify the accepted trims (build, boot, "
	    "judge the workload; v again cancels)" },
};

enum tui_action
keys_action(int key)
{
	size_t i;

	for (i = 0; i < sizeof keys_bindings / sizeof keys_bindings[0]; i++) {
		if (keys_bindings[i].key == key)
			return keys_bindings[i].action;
	}
	return A_NONE;
}

const struct key_binding *
keys_table(int *n)
{
	*n = (int)(sizeof keys_bindings / sizeof keys_bindings[0]);
	return keys_bindings;
}

const char *
keys_name(int key, char *buf)
{
	switch (key) {
	case K_UP: return "Up";
	case K_DOWN: return "Down";
	case K_LEFT: return "Left";
	case K_RIGHT: return "Right";
	case K_PPAGE: return "PgUp";
	case K_NPAGE: return "PgDn";
	case K_HOME: return "Home";
	case K_END: return "End";
	case K_ENTER: return "Enter";
	case K_BACKSPACE: return "Backspace";
	case K_ESC: return "Esc";
	case K_F1: return "F1";
	case ' ': return "Space";
	}
	if (key > 0 && key < 0x20)
		snprintf(buf, 8, "C-%c", key + 'a' - 1);
	else
		snprintf(buf, 8, "%c", key);
	return buf;
}

/* The first binding of j's action with a help text (the line j's key
 * is listed on). */
static size_t
keys_owner(size_t j)
{
	size_t i, n = sizeof keys_bindings / sizeof keys_bindings[0];

	for (i = 0; i < n; i++) {
		if (keys_bindings[i].action == keys_bindings[j].action &&
		    keys_bindings[i].help != NULL)
			return i;
	}
	return j;
}

/* The key list: for each action with a help text, its keys ("Up, k"),
 * then the text. */
char *
keys_text(void)
{
	struct strbuf	 sb, names;
	size_t		 i, j, n = sizeof keys_bindings / sizeof keys_bindings[0];
	char		 buf[8];

	strbuf_init(&sb);
	strbuf_adds(&sb, "Keys (F1; ? where there is no option help):\n\n");
	for (i = 0; i < n; i++) {
		if (keys_bindings[i].help == NULL)
			continue;
		strbuf_init(&names);
		for (j = 0; j < n; j++) {
			/* Keys with a help of their own get their own line;
			 * those without go with the first that has one. */
			if (j != i && (keys_bindings[j].help != NULL ||
			    keys_owner(j) != i))
				continue;
			if (names.len > 0)
				strbuf_adds(&names, ", ");
			strbuf_adds(&names, keys_name(keys_bindings[j].key,
			    buf));
		}
		strbuf_addf(&sb, "  %-16s %s\n", names.s, keys_bindings[i].help);
		strbuf_free(&names);
	}
	return strbuf_detach(&sb);
}
