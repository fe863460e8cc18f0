/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.h - an attributed row: one code point and one theme element per
 * cell (htop's RichString). Rows are formatted without curses, so tests
 * can read text and colours; tui.c paints them.
 */
#ifndef KC_ROWS_H
#define KC_ROWS_H

#include <stdarg.h>
#include <stdint.h>

struct row {
	uint32_t	*ch;
	uint8_t		*el;
	int		 n, a;
};

void	 row_init(struct row *);
void	 row_free(struct row *);
void	 row_clear(struct row *);
/* Append UTF-8 text in element el (invalid bytes become '?'). */
void	 row_add(struct row *, int el, const char *utf8);
void	 row_addf(struct row *, int el, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 row_addch(struct row *, int el, uint32_t cp);
/* Pad with spaces (or cut) to exactly width cells. */
void	 row_fit(struct row *, int el, int width);
/* Set the element of cells [from, to). */
void	 row_paint(struct row *, int el, int from, int to);
/* The text as UTF-8 (malloc'd). */
char	*row_text(const struct row *);
/* The element names of each cell as one letter per cell, for tests:
 * letters[el] (malloc'd). */
char	*row_attrs(const struct row *, const char *letters);
/* Encode one code point as UTF-8 into buf (4 bytes); its length. */
int	 utf8_encode(uint32_t cp, char *buf);
#endif
