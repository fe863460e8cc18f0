/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.c - attributed rows (see rows.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util.h"
#include "rows.h"

void
row_init(struct row *r)
{
	memset(r, 0, sizeof *r);
}

void
row_free(struct row *r)
{
	free(r->ch);
	free(r->el);
	row_init(r);
}

void
row_clear(struct row *r)
{
	r->n = 0;
}

/* Room for one more cell. */
static void
row_grow(struct row *r)
{
	if (r->n < r->a)
		return;
	r->a = r->a ? r->a * 2 : 128;
	r->ch = xrealloc(r->ch, (size_t)r->a * sizeof *r->ch);
	r->el = xrealloc(r->el, (size_t)r->a * sizeof *r->el);
}

void
row_addch(struct row *r, int el, uint32_t cp)
{
	row_grow(r);
	r->ch[r->n] = cp;
	r->el[r->n] = (uint8_t)el;
	r->n++;
}

/* Decode UTF-8: a strict decoder, since prompts come from files. */
void
row_add(struct row *r, int el, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		uint32_t	cp;
		int		len, i;

		if (*p < 0x80) {
			cp = *p;
			len = 1;
		} else if ((*p & 0xe0) == 0xc0) {
			cp = *p & 0x1f;
			len = 2;
		} else if ((*p & 0xf0) == 0xe0) {
			cp = *p & 0x0f;
			len = 3;
		} else if ((*p & 0xf8) == 0xf0) {
			cp = *p & 0x07;
			len = 4;
		} else {
			row_addch(r, el, '?');
			p++;
			continue;
		}
		for (i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				break;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if (i < len) {
			row_addch(r, el, '?');
			p++;
			continue;
		}
		/* Tabs and control characters would break the columns. */
		if (cp == '\t')
			cp = ' ';
		else if (cp < 0x20 || cp == 0x7f)
			cp = '?';
		row_addch(r, el, cp);
		p += len;
	}
}

void
row_addf(struct row *r, int el, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	row_add(r, el, s);
	free(s);
}

void
row_fit(struct row *r, int el, int width)
{
	if (width < 0)
		width = 0;
	while (r->n < width)
		row_addch(r, el, ' ');
	r->n = width;
}

void
row_paint(struct row *r, int el, int from, int to)
{
	int i;

	for (i = from < 0 ? 0 : from; i < to && i < r->n; i++)
		r->el[i] = (uint8_t)el;
}

int
utf8_encode(uint32_t cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

char *
row_text(const struct row *r)
{
	struct strbuf	sb;
	char		b[4];
	int		i;

	strbuf_init(&sb);
	for (i = 0; i < r->n; i++)
		strbuf_add(&sb, b, (size_t)utf8_encode(r->ch[i], b));
	return strbuf_detach(&sb);
}

char *
row_attrs(const struct row *r, const char *letters)
{
	char	*s = xmalloc((size_t)r->n + 1);
	size_t	 nl = strlen(letters);
	int	 i;

	for (i = 0; i < r->n; i++)
		s[i] = r->el[i] < nl ? letters[r->el[i]] : '?';
	s[r->n] = '\0';
	return s;
}
