/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.c - the defconfigs an arch Makefile generates instead of keeping
 * them as files ("generated_configs": powerpc's ppc64le_defconfig, the
 * default there from 6.8, arm's multi_v7_lpae_defconfig, arm64's
 * virtconfig).  Their rule is
 *
 *	NAME:
 *		$(call merge_into_defconfig,BASE,FRAGMENT...)
 *
 * (or merge_into_defconfig_override, or "NAME: OTHER_defconfig"), which
 * scripts/Makefile.defconf runs as scripts/kconfig/merge_config.sh -m
 * (the fragments merged into a copy of BASE, written to the config)
 * followed by olddefconfig.  The merge is done here to the byte, because
 * the config it writes becomes the .old file of the olddefconfig after
 * it.
 */

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/fileio.h"
#include "../lib/util.h"
#include "kconfig.h"

/* How deep "NAME: OTHER" aliases may go (pseries_defconfig is one). */
#define MERGE_ALIAS_MAX	8

/* A character grep -w counts as part of a word. */
static bool
merge_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether name occurs in text as a whole word (grep -qw). */
static bool
merge_has_word(const char *text, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p;

	if (text == NULL)
		return false;
	for (p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
		if ((p == text || !merge_word_char(p[-1]) || p[-1] == '\n') &&
		    !merge_word_char(p[n]))
			return true;
	}
	return false;
}

/* Drop every line of *text holding "name " or "name=" (merge_config.sh's
 * sed "/NAME[ =]/d", which matches anywhere in the line). */
static void
merge_drop_lines(struct strbuf *text, const char *name)
{
	struct strbuf	 out;
	const char	*p = text->s, *end, *q;
	size_t		 n = strlen(name);
	bool		 hit;

	strbuf_init(&out);
	while (p < text->s + text->len) {
		if ((end = memchr(p, '\n', text->s + text->len - p)) == NULL)
			end = text->s + text->len;
		hit = false;
		for (q = p; q + n < end && !hit; q++)
			hit = strncmp(q, name, n) == 0 &&
			    (q[n] == ' ' || q[n] == '=');
		if (!hit)
			strbuf_add(&out, p, (size_t)(end - p) +
			    (end < text->s + text->len));
		p = end + 1;
	}
	strbuf_free(text);
	*text = out;
}

/* The option name a fragment line sets ("CONFIG_X=..." or exactly
 * "# CONFIG_X is not set"), malloc'd, or NULL. */
static char *
merge_line_name(const char *line, size_t len)
{
	const char	*p = line, *e;

	if (len >= 2 && p[0] == '#' && p[1] == ' ')
		p += 2;
	if ((size_t)(p - line) + 7 > len || strncmp(p, "CONFIG_", 7) != 0)
		return NULL;
	for (e = p + 7; e < line + len && merge_word_char(*e) &&
	    *e != '\n'; e++)
		;
	if (p == line)
		return e < line + len && *e == '=' ? xstrndup(p, e - p) : NULL;
	if ((size_t)(line + len - e) == 11 && strncmp(e, " is not set", 11) == 0)
		return xstrndup(p, e - p);
	return NULL;
}

/* Merge one fragment into text as merge_config.sh does: each option it
 * names leaves text (when text has it as a word), then a newline and the
 * whole fragment are appended. */
static void
merge_fragment(struct strbuf *text, const char *frag, size_t len)
{
	const char	*p = frag, *end;
	char		*name;

	while (p < frag + len) {
		if ((end = memchr(p, '\n', frag + len - p)) == NULL)
			end = frag + len;
		if ((name = merge_line_name(p, (size_t)(end - p))) != NULL) {
			if (merge_has_word(text->s, name))
				merge_drop_lines(text, name);
			free(name);
		}
		p = end + 1;
	}
	strbuf_add(text, "\n", 1);
	strbuf_add(text, frag, len);
}

/* The recipe of rule "target:" in a Makefile's text, its backslash
 * continuations joined: "BASE,FRAGMENTS" of its merge_into_defconfig
 * call (*alias NULL), or the one prerequisite of "target: OTHER" in
 * *alias.  NULL (and *alias NULL) when the Makefile has no such rule. */
static char *
merge_find_rule(const char *mk, const char *target, char **alias)
{
	size_t		 n = strlen(target);
	const char	*p, *q, *end, *call;
	struct strbuf	 recipe;
	char		*res = NULL;

	*alias = NULL;
	for (p = mk; p != NULL && *p != '\0'; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (strncmp(p, target, n) != 0 || p[n] != ':' || p[n + 1] == '=')
			continue;
		for (q = p + n + 1; *q == ' ' || *q == '\t'; q++)
			;
		if (*q != '\n' && *q != '\0') {
			const char *w = q;

			while (*q != '\0' && !isspace((unsigned char)*q))
				q++;
			*alias = xstrndup(w, q - w);
			return NULL;
		}
		strbuf_init(&recipe);
		while (end != NULL && end[1] == '\t') {
			p = end + 2;
			end = strchr(p, '\n');
			strbuf_add(&recipe, p, end ? (size_t)(end - p) :
			    strlen(p));
			if (recipe.len > 0 && recipe.s[recipe.len - 1] == '\\')
				recipe.s[recipe.len - 1] = ' ';
			else
				break;
		}
		if ((call = strstr(recipe.s, "merge_into_defconfig")) != NULL &&
		    (call = strchr(call, ',')) != NULL &&
		    (q = strchr(call, ')')) != NULL)
			res = xstrndup(call + 1, q - (call + 1));
		strbuf_free(&recipe);
		return res;
	}
	return NULL;
}

/* Read arch/SRCARCH/configs/NAME under srctree into sb. */
static int
merge_read(struct strbuf *sb, const char *srctree, const char *srcarch,
    const char *name, const char *suffix, char **cause)
{
	char	*path, *text;
	size_t	 len;

	path = xasprintf("%s/arch/%s/configs/%s%s", srctree, srcarch, name,
	    suffix);
	if ((text = file_read_all(path, &len)) == NULL) {
		*cause = xasprintf("%s: the %s of a generated defconfig "
		    "cannot be read", path, *suffix ? "fragment" : "base");
		free(path);
		return -1;
	}
	strbuf_add(sb, text, len);
	free(text);
	free(path);
	return 0;
}

/*
 * The config a generated defconfig's rule writes before its olddefconfig:
 * NUL-terminated text in *out.  0 done, 1 when arch/SRCARCH/Makefile has
 * no rule for target (not a generated defconfig), -1 with *cause.
 */
int
kconfig_generated_defconfig(const char *srctree, const char *srcarch,
    const char *target, char **out, char **cause)
{
	char		*path, *mk, *args = NULL, *alias, *cur, *w, *base, *e;
	char		*save = NULL;
	struct strbuf	 text, frag;
	int		 depth, rc = 1;

	*out = NULL;
	path = xasprintf("%s/arch/%s/Makefile", srctree, srcarch);
	mk = file_read_all(path, NULL);
	free(path);
	if (mk == NULL)
		return 1;
	cur = xstrdup(target);
	for (depth = 0; depth < MERGE_ALIAS_MAX; depth++) {
		args = merge_find_rule(mk, cur, &alias);
		free(cur);
		cur = alias;
		if (alias == NULL)
			break;
	}
	free(cur);
	free(mk);
	if (args == NULL)
		return 1;
	strbuf_init(&text);
	if ((w = strchr(args, ',')) != NULL)
		*w++ = '\0';
	for (base = args; isspace((unsigned char)*base); base++)
		;
	for (e = base + strlen(base); e > base && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	if (merge_read(&text, srctree, srcarch, base, "", cause) != 0) {
		rc = -1;
		goto out;
	}
	for (w = w != NULL ? strtok_r(w, " \t", &save) : NULL; w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		strbuf_init(&frag);
		if (merge_read(&frag, srctree, srcarch, w, ".config",
		    cause) != 0) {
			strbuf_free(&frag);
			rc = -1;
			goto out;
		}
		merge_fragment(&text, frag.s, frag.len);
		strbuf_free(&frag);
	}
	*out = strbuf_detach(&text);
	rc = 0;
out:
	strbuf_free(&text);
	free(args);
	return rc;
}
