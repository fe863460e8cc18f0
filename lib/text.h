/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - what a guest or a bundle says, made safe to show: on a
 * terminal, in a report, in a comment of a generated file. A guest's
 * console or a bundle's drivers file is input someone else controls; an
 * escape sequence in it (OSC 0 retitles the terminal, OSC 52 writes the
 * clipboard) must reach the user as visible text, never as a command to
 * the terminal.
 */
#ifndef KC_TEXT_H
#define KC_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Flags of text_visible_add. */
#define TEXT_KEEP_NEWLINE	0x1	/* a multi-line text: '\n' (and the
					   '\r' of "\r\n") kept */

/*
 * Append s[0..n) to sb made visible: C0 control characters but tab, DEL,
 * the C1 controls (raw bytes 0x80-0x9f and their UTF-8 form U+0080-
 * U+009F), any byte that is not part of valid UTF-8, and a NUL, each
 * written as \xHH (ESC as \x1b, so a whole sequence shows as text);
 * valid UTF-8 text and tabs are kept as they are.
 */
void	 text_visible_add(struct strbuf *sb, const char *s, size_t n,
	     int flags);
/* The same as a new string (malloc'd). */
char	*text_visible(const char *s, size_t n, int flags);
/* The same of a NUL-terminated string. */
char	*text_visible_str(const char *s, int flags);
/* Whether s[0..n) is shown unchanged by text_visible. */
bool	 text_is_visible(const char *s, size_t n, int flags);

#endif
