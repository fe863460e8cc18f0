/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace-judge.c - reading what the root's check said on the console
 * (userspace-guest.c's markers, among systemd's own status lines) and
 * judging it against the baseline's: `systemctl is-system-running`
 * says running, or degraded with no unit failed that did not fail on
 * the baseline. The console is the guest's: its lines reach here made
 * visible by vm.c (lib/text.h), an escape sequence as the text \x1b;
 * the colour sequences systemd writes are taken out of what is quoted.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "userspace.h"
#include "verify.h"

/* Add a copy of s[0..n) to a list. */
static void
us_list_add(char ***v, size_t *n, const char *s, size_t len)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrndup(s, len);
}

/* Whether the list has the string s[0..n). */
static bool
us_list_has(char *const *v, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && memcmp(v[i], s, len) == 0)
			return true;
	return false;
}

/* A line without the colour sequences systemd writes, as vm.c shows
 * them ("\x1b[0;1;31m"), and without blanks at its ends (malloc'd). */
static char *
us_plain(const char *s, size_t n)
{
	struct strbuf	 sb;
	size_t		 i = 0, k;

	strbuf_init(&sb);
	while (i < n) {
		if (n - i >= 5 && memcmp(s + i, "\\x1b[", 5) == 0) {
			for (k = i + 5; k < n && ((s[k] >= '0' && s[k] <= '9') ||
			    s[k] == ';'); k++)
				;
			if (k < n && s[k] >= '@' && s[k] <= '~') {
				i = k + 1;
				continue;
			}
		}
		strbuf_addc(&sb, s[i++]);
	}
	/* the console's "\r\n" shows as "\x0d" at the end */
	for (;;) {
		if (sb.len >= 4 && memcmp(sb.s + sb.len - 4, "\\x0d", 4) == 0)
			sb.len -= 4;
		else if (sb.len > 0 && (sb.s[sb.len - 1] == ' ' ||
		    sb.s[sb.len - 1] == '\t'))
			sb.len--;
		else
			break;
		sb.s[sb.len] = '\0';
	}
	k = strspn(sb.s, " \t");
	if (k > 0) {
		memmove(sb.s, sb.s + k, sb.len - k + 1);
		sb.len -= k;
	}
	return strbuf_detach(&sb);
}

/*
 * A systemd time span as systemd-analyze prints it: numbers, each with
 * a unit (d, h, min, s, ms, us), blanks between: "1min 2.345s",
 * "850ms". -1 when it is none.
 */
double
userspace_span(const char *s, size_t n)
{
	static const struct { const char *u; double f; } units[] = {
		{ "min", 60 }, { "ms", 1e-3 }, { "us", 1e-6 },
		{ "\xc2\xb5s", 1e-6 }, { "d", 86400 }, { "h", 3600 },
		{ "s", 1 },
	};
	const char	*p = s, *end = s + n;
	double		 total = 0, v, frac;
	size_t		 i, ul;
	bool		 any = false, digits;

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		v = 0;
		digits = false;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			v = v * 10 + (*p - '0');
			digits = true;
		}
		if (p < end && *p == '.') {
			for (p++, frac = 0.1; p < end && *p >= '0' &&
			    *p <= '9'; p++, frac /= 10) {
				v += (*p - '0') * frac;
				digits = true;
			}
		}
		if (!digits)
			return -1;
		for (i = 0; i < sizeof units / sizeof *units; i++) {
			ul = strlen(units[i].u);
			if ((size_t)(end - p) >= ul &&
			    memcmp(p, units[i].u, ul) == 0 &&
			    (p + ul == end || p[ul] == ' '))
				break;
		}
		if (i == sizeof units / sizeof *units)
			return -1;
		total += v * units[i].f;
		p += strlen(units[i].u);
		any = true;
	}
	return any ? total : -1;
}

/*
 * "Startup finished in 1.9s (kernel) + 4.5s (userspace) = 6.4s": each
 * "SPAN (WHAT)" and the "= SPAN" total. An initrd part, which this root
 * has not (systemd never ran in kctui's initramfs), would be counted in
 * neither.
 */
static void
us_parse_time(struct userspace_boot *b, const char *s, size_t n)
{
	const char	*p = memmem(s, n, " in ", 4), *end = s + n, *q, *o;
	double		 v;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	free(b->time_line);
	b->time_line = xstrndup(s, n);
	if (p == NULL)
		return;
	for (p += 4; p < end; p = q) {
		while (p < end && (*p == ' ' || *p == '+'))
			p++;
		if (p < end && *p == '=') {
			p++;
			while (p < end && *p == ' ')
				p++;
			b->total = userspace_span(p, (size_t)(end - p));
			return;
		}
		if ((o = memchr(p, '(', (size_t)(end - p))) == NULL)
			return;
		v = userspace_span(p, (size_t)(o - p > 0 && o[-1] == ' ' ?
		    o - 1 - p : o - p));
		if ((q = memchr(o, ')', (size_t)(end - o))) == NULL)
			return;
		if (q - o - 1 == 6 && memcmp(o + 1, "kernel", 6) == 0)
			b->kernel = v;
		else if (q - o - 1 == 9 && memcmp(o + 1, "userspace", 9) == 0)
			b->userspace = v;
		q++;
	}
}

/* A plain decimal number at s (up to n bytes: the line may end in
 * digits), or -1: /proc/uptime's first field. */
static double
us_number(const char *s, size_t n)
{
	char	*t = xstrndup(s, strcspn(s, " \t") < n ? strcspn(s, " \t") :
		    n), *end;
	double	 v = strtod(t, &end);

	if (end == t || *end != '\0' || !(v >= 0))
		v = -1;
	free(t);
	return v;
}

/* The check's own marker (the text after "@@kctui: userspace "). */
static void
us_parse_mark(struct userspace_boot *b, const char *s, size_t n)
{
	const char	*sp;
	size_t		 w;
	char		*plain;

	if (n > 6 && memcmp(s, "state ", 6) == 0) {
		free(b->state);
		/* the line is a string: strcspn stops at its end */
		b->state = xstrndup(s + 6, strcspn(s + 6, " \t"));
		b->seen = true;
	} else if (n > 7 && memcmp(s, "failed ", 7) == 0) {
		w = strcspn(s + 7, " \t");
		if (w > n - 7)
			w = n - 7;
		if (w > 0 && !us_list_has(b->failed, b->nfailed, s + 7, w))
			us_list_add(&b->failed, &b->nfailed, s + 7, w);
	} else if (n > 4 && memcmp(s, "log ", 4) == 0) {
		/* "log UNIT LINE": quoted as "UNIT: LINE" */
		sp = memchr(s + 4, ' ', n - 4);
		if (sp == NULL)
			return;
		plain = us_plain(sp + 1, (size_t)(s + n - sp - 1));
		b->quote = xrealloc(b->quote, (b->nquote + 1) *
		    sizeof *b->quote);
		b->quote[b->nquote++] = xasprintf("%.*s: %s",
		    (int)(sp - s - 4), s + 4, plain);
		free(plain);
	} else if (n > 5 && memcmp(s, "time ", 5) == 0)
		us_parse_time(b, s + 5, n - 5);
	else if (n > 9 && memcmp(s, "handover ", 9) == 0)
		b->handover = us_number(s + 9, n - 9);
}

/* systemd's own console line about a unit that did not start or ended
 * badly: "[FAILED] Failed to start ...", "... failed with result ...". */
static bool
us_failure_line(const char *s)
{
	return strstr(s, "FAILED") != NULL || strstr(s, "Failed to ") !=
	    NULL || strstr(s, "failed with result") != NULL ||
	    strstr(s, "Dependency failed") != NULL ||
	    strstr(s, "See 'systemctl status ") != NULL;
}

/*
 * Whether a console line names the unit: whole, or as systemd's status
 * line shortens a long name to the console's width, "systemd-sy\u2026vice"
 * (its start and end around an ellipsis, a word of the line).
 */
static bool
us_names_unit(const char *line, const char *unit)
{
	static const char ell[] = "\xe2\x80\xa6";
	const char	*e, *w, *x;
	size_t		 pre, post, ul = strlen(unit);

	if (strstr(line, unit) != NULL)
		return true;
	for (e = strstr(line, ell); e != NULL; e = strstr(e + 3, ell)) {
		for (w = e; w > line && w[-1] != ' '; w--)
			;
		for (x = e + 3; *x != '\0' && *x != ' '; x++)
			;
		pre = (size_t)(e - w);
		post = (size_t)(x - (e + 3));
		if (pre > 0 && pre + post < ul && memcmp(unit, w, pre) == 0 &&
		    memcmp(unit + ul - post, e + 3, post) == 0)
			return true;
	}
	return false;
}

/*
 * Read the userspace step's console lines: the check's markers, and
 * systemd's own failure lines, kept when they name a unit the check
 * says failed (after the markers are read: the units are known then;
 * when the check never reported, every such line is kept). The quote
 * is systemd's lines first (what the console showed), then the
 * journal's.
 */
void
userspace_boot_parse(struct userspace_boot *b, char *const *lines, size_t n)
{
	static const char mark[] = VM_MARK "userspace ";
	char		**own = NULL, **journal, *plain;
	const char	*m;
	size_t		  i, k, nown = 0, njournal;

	memset(b, 0, sizeof *b);
	b->kernel = b->userspace = b->total = b->handover = -1;
	for (i = 0; i < n; i++) {
		size_t len = strlen(lines[i]);

		m = memmem(lines[i], len, mark, sizeof mark - 1);
		if (m != NULL) {
			m += sizeof mark - 1;
			us_parse_mark(b, m, (size_t)(lines[i] + len - m));
			continue;
		}
		plain = us_plain(lines[i], len);
		if (us_failure_line(plain)) {
			own = xrealloc(own, (nown + 1) * sizeof *own);
			own[nown++] = plain;
		} else
			free(plain);
	}
	journal = b->quote;
	njournal = b->nquote;
	b->quote = NULL;
	b->nquote = 0;
	for (i = 0; i < nown; i++) {
		for (k = 0; k < b->nfailed; k++)
			if (us_names_unit(own[i], b->failed[k]))
				break;
		if (k < b->nfailed || !b->seen) {
			b->quote = xrealloc(b->quote, (b->nquote + 1) *
			    sizeof *b->quote);
			b->quote[b->nquote++] = own[i];
		} else
			free(own[i]);
	}
	free(own);
	for (i = 0; i < njournal; i++) {
		b->quote = xrealloc(b->quote, (b->nquote + 1) *
		    sizeof *b->quote);
		b->quote[b->nquote++] = journal[i];
	}
	free(journal);
}

void
userspace_boot_free(struct userspace_boot *b)
{
	size_t i;

	for (i = 0; i < b->nfailed; i++)
		free(b->failed[i]);
	free(b->failed);
	for (i = 0; i < b->nquote; i++)
		free(b->quote[i]);
	free(b->quote);
	free(b->state);
	free(b->time_line);
	memset(b, 0, sizeof *b);
}

/* The verdict (see userspace.h). */
bool
userspace_judge(const struct userspace_boot *base,
    const struct userspace_boot *b, char **why, const char ***newly,
    size_t *nnewly)
{
	struct strbuf	 sb;
	size_t		 i;

	*why = NULL;
	*newly = NULL;
	*nnewly = 0;
	if (!b->seen) {
		*why = xstrdup("the root's check never reported: systemd did "
		    "not start it, or the machine stopped first");
		return false;
	}
	if (strcmp(b->state, "running") == 0)
		return true;
	if (strcmp(b->state, "degraded") != 0) {
		*why = xasprintf("systemctl is-system-running: %s (running "
		    "or degraded expected)", b->state);
		return false;
	}
	for (i = 0; i < b->nfailed; i++) {
		if (base != NULL && us_list_has(base->failed, base->nfailed,
		    b->failed[i], strlen(b->failed[i])))
			continue;
		*newly = xrealloc(*newly, (*nnewly + 1) * sizeof **newly);
		(*newly)[(*nnewly)++] = b->failed[i];
	}
	if (*nnewly == 0)
		return true;
	strbuf_init(&sb);
	strbuf_addf(&sb, "systemctl is-system-running: degraded; failed%s:",
	    base != NULL ? " and not on the baseline" : " (no baseline to "
	    "compare with)");
	for (i = 0; i < *nnewly; i++)
		strbuf_addf(&sb, " %s", (*newly)[i]);
	*why = strbuf_detach(&sb);
	return false;
}
