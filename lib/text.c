/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.c - control characters and escape sequences made visible (see
 * text.h).
 */
#include <string.h>

#include "text.h"
#include "util.h"

/* The length of the valid UTF-8 sequence at s (of at most n bytes) that
 * is not a control character, or 0. Overlong forms, surrogates and
 * values above U+10FFFF are invalid. */
static size_t
text_utf8_len(const unsigned char *s, size_t n)
{
	unsigned int	 c;
	size_t		 len, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	/* the C1 controls in their UTF-8 form: CSI is U+009B */
	if (c >= 0x80 && c <= 0x9f)
		return 0;
	return len;
}

/* Whether the byte at u[i] is kept as it is: printable ASCII, a tab,
 * with TEXT_KEEP_NEWLINE a newline and the CR of a CRLF. */
static bool
text_plain(const unsigned char *u, size_t n, size_t i, int flags)
{
	if ((u[i] >= 0x20 && u[i] < 0x7f) || u[i] == '\t')
		return true;
	if (!(flags & TEXT_KEEP_NEWLINE))
		return false;
	return u[i] == '\n' || (u[i] == '\r' && i + 1 < n &&
	    u[i + 1] == '\n');
}

/* Append s[0..n) made visible (see text.h). */
void
text_visible_add(struct strbuf *sb, const char *s, size_t n, int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t		 i = 0, start, len;
	char		 esc[4] = { '\\', 'x', 0, 0 };

	while (i < n) {
		start = i;
		while (i < n && text_plain(u, n, i, flags))
			i++;
		strbuf_add(sb, s + start, i - start);
		if (i == n)
			break;
		if (u[i] >= 0x80 && (len = text_utf8_len(u + i, n - i)) > 0) {
			strbuf_add(sb, s + i, len);
			i += len;
			continue;
		}
		/* a C1 control in UTF-8 shows both its bytes */
		len = u[i] == 0xc2 && i + 1 < n && u[i + 1] >= 0x80 &&
		    u[i + 1] <= 0x9f ? 2 : 1;
		for (; len > 0; len--, i++) {
			esc[2] = hex[u[i] >> 4];
			esc[3] = hex[u[i] & 0xf];
			strbuf_add(sb, esc, 4);
		}
	}
}

/* s[0..n) made visible, as a new string. */
char *
text_visible(const char *s, size_t n, int flags)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	text_visible_add(&sb, s, n, flags);
	return strbuf_detach(&sb);
}

/* A NUL-terminated string made visible. */
char *
text_visible_str(const char *s, int flags)
{
	return text_visible(s, strlen(s), flags);
}

/* Whether text_visible would leave s[0..n) unchanged. */
bool
text_is_visible(const char *s, size_t n, int flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t		 i = 0, len;

	while (i < n) {
		if (text_plain(u, n, i, flags))
			i++;
		else if (u[i] >= 0x80 && (len = text_utf8_len(u + i,
		    n - i)) > 0)
			i += len;
		else
			return false;
	}
	return true;
}
