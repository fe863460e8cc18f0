/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-seen.c - a bundle's "seen" file, written by kctui collect
 * --append (core/collect-append.c): "KIND COUNT FIRST LAST NAME" per
 * item, how many snapshots saw it and the first and last time (seconds
 * since 1970). Read after the files that make the items, it sets their
 * seen counts (several bundles' counts add up); a line naming an item
 * no file of the bundle has is skipped (an edited bundle), a line that
 * is not of that form is malformed like any other.
 */
#include <stdint.h>
#include <string.h>

#include "evidence-int.h"

/* The kind a seen line names, or -1; "runs" is EV_NKINDS. */
static int
seen_kind(const char *s, size_t n)
{
	static const struct {
		const char	*name;
		enum ev_kind	 kind;
	} kinds[] = {
		{ "module", EV_MODULE }, { "driver", EV_DRIVER },
		{ "mount", EV_MOUNT }, { "fs", EV_FS },
		{ "crypto", EV_CRYPTO }, { "runs", EV_NKINDS },
	};
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strlen(kinds[i].name) == n &&
		    memcmp(kinds[i].name, s, n) == 0)
			return (int)kinds[i].kind;
	return -1;
}

/* A decimal number of [s, s+n), at most 18 digits; -1 if not one. */
static int64_t
seen_number(const char *s, size_t n)
{
	int64_t	v = 0;
	size_t	i;

	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* A word of a line. */
struct seen_tok {
	const char	*s;
	size_t		 n;
};

/* The first max words of [s, s+n); how many. */
static int
seen_split(const char *s, size_t n, struct seen_tok *t, int max)
{
	const char	*e = s + n;
	int		 k = 0;

	while (k < max) {
		while (s < e && ev_blank(*s))
			s++;
		if (s == e)
			break;
		t[k].s = s;
		while (s < e && !ev_blank(*s))
			s++;
		t[k].n = (size_t)(s - t[k].s);
		k++;
	}
	return k;
}

int
ev_seen_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct seen_tok	 t[4];
	struct ev_item	*it;
	const char	*name, *e = s + n;
	int64_t		 count, first, last;
	int		 nt, k;

	while (n > 0 && ev_blank(s[0])) {
		s++;
		n--;
	}
	if (n == 0 || s[0] == '#')
		return 0;
	nt = seen_split(s, n, t, 4);
	if (nt < 4 || (k = seen_kind(t[0].s, t[0].n)) < 0)
		return -1;
	count = seen_number(t[1].s, t[1].n);
	first = seen_number(t[2].s, t[2].n);
	last = seen_number(t[3].s, t[3].n);
	if (count <= 0 || first < 0 || last < first)
		return -1;
	/* The name is the rest of the line (drivers have blanks). */
	for (name = t[3].s + t[3].n; name < e && ev_blank(*name); name++)
		;
	while (e > name && ev_blank(e[-1]))
		e--;
	if (k == EV_NKINDS)
		return name == e ? 1 : -1;
	if (name == e)
		return -1;
	it = strmap_get(&c->ev->kinds[k].map, name, (size_t)(e - name));
	if (it == NULL)
		return 1;
	if (it->seen == 0 || first < it->seen_first)
		it->seen_first = first;
	if (last > it->seen_last)
		it->seen_last = last;
	it->seen += (uint64_t)count;
	return 1;
}
