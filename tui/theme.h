/* SPDX-License-Identifier: GPL-2.0 */
/*
 * theme.h - the colours of the interface: an enum of screen elements and
 * one table (htop's CRT.c), filled from a YAML theme file. No curses
 * here, so the parser is fuzzed and tested on its own.
 */
#ifndef KC_THEME_H
#define KC_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum theme_el {
	EL_NORMAL, EL_SELECTED, EL_TITLE, EL_RULE, EL_STATUS, EL_HOTKEY,
	EL_VALUE, EL_ARROW, EL_COMMENT, EL_INVISIBLE, EL_NEW, EL_NAME,
	EL_EV_USED, EL_EV_PLAUSIBLE, EL_EV_NONE, EL_EV_NOCODE, EL_EV_ITEM,
	EL_HELP, EL_HELP_TITLE, EL_INPUT, EL_ERROR, EL_BUSY, EL_MATCH,
	EL_TREE, EL_LEGEND, EL_TRIM,
	EL_COUNT
};

/* Attributes, independent of curses. */
#define TA_BOLD		0x01
#define TA_REVERSE	0x02
#define TA_UNDERLINE	0x04
#define TA_DIM		0x08
#define TA_ITALIC	0x10

struct theme_color {
	short		fg, bg;		/* -1: terminal default, 0..255 */
	unsigned	attrs;		/* TA_* */
};

struct theme {
	char			*name;
	bool			 mono;	/* attributes only, no colours */
	struct theme_color	 el[EL_COUNT];
};

/* The YAML key of an element ("ev-used"), and back (-1: unknown). */
const char	*theme_el_name(enum theme_el);
int		 theme_el_find(const char *);

/* Built-in themes: "classic" (the default) and "mono". */
void		 theme_builtin(struct theme *, const char *name);
/* Parse YAML over the current table (elements not named keep their
 * colours). -1 with "name:line:col: message" in *cause. */
int		 theme_parse_buffer(struct theme *, const char *name,
		     const char *buf, size_t len, char **cause);
int		 theme_parse_file(struct theme *, const char *path,
		     char **cause);
/* A theme by NAME (searched in ~/.config/kctui/themes, $KCTUI_THEME_DIR
 * and the themes/ directory next to the binary) or by FILE (a path with
 * a '/' or ending in .yaml). On error the table is the default theme and
 * -1 is returned with *cause. */
int		 theme_load(struct theme *, const char *name_or_file,
		     char **cause);
void		 theme_free(struct theme *);
#endif
