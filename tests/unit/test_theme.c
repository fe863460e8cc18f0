/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_theme.c - the YAML theme reader (tui/theme.c, built in here: unit
 * programs link the libraries only): every file in themes/ loads, colours
 * and attributes land in the table, and bad files give file:line:col.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tui/theme.c"

#define UNIT_PREFIX "unit/theme/"
#include "unit.h"

/* Parse text over the classic table; the error, or NULL. */
static char *
parse(struct theme *t, const char *text)
{
	char *cause = NULL;

	theme_builtin(t, "classic");
	if (theme_parse_buffer(t, "t.yaml", text, strlen(text), &cause) == 0)
		return NULL;
	return cause;
}

static void
bad(const char *name, const char *text, const char *want)
{
	struct theme	 t = { 0 };
	char		*cause = parse(&t, text);

	check(name, cause != NULL && strcmp(cause, want) == 0,
	    cause != NULL ? cause : "accepted");
	free(cause);
	theme_free(&t);
}

int
main(void)
{
	static const char *files[] = { "classic", "dark", "light", "mono",
	    "high-contrast" };
	struct theme	 t = { 0 };
	char		*cause, path[256];
	size_t		 i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "themes/%s.yaml", files[i]);
		cause = NULL;
		theme_builtin(&t, "classic");
		check(files[i], theme_parse_file(&t, path, &cause) == 0 &&
		    strcmp(t.name, files[i]) == 0, cause ? cause : t.name);
		free(cause);
	}
	/* The shipped classic file is the built-in table. */
	{
		struct theme b = { 0 };

		theme_builtin(&b, "classic");
		theme_builtin(&t, "mono");
		cause = NULL;
		theme_parse_file(&t, "themes/classic.yaml", &cause);
		t.mono = false;
		check("classic-file-is-builtin", memcmp(t.el, b.el,
		    sizeof t.el) == 0, "themes/classic.yaml differs");
		free(cause);
		theme_free(&b);
	}
	cause = parse(&t, "colors:\n  selected: { fg: 208, bg: bright-blue, "
	    "attrs: bold underline }\n  new: { attrs: [reverse, dim] }\n");
	check("values", cause == NULL && t.el[EL_SELECTED].fg == 208 &&
	    t.el[EL_SELECTED].bg == 12 && t.el[EL_SELECTED].attrs ==
	    (TA_BOLD | TA_UNDERLINE) && t.el[EL_NEW].attrs == (TA_REVERSE |
	    TA_DIM) && t.el[EL_NORMAL].bg == 7, cause ? cause : "wrong table");
	free(cause);
	check("el-names", theme_el_find("ev-no-code") == EL_EV_NOCODE &&
	    theme_el_find("nope") == -1, "element names");

	bad("bad-colour", "colors:\n  normal: { fg: purple }\n",
	    "t.yaml:2:17: unknown colour: purple");
	bad("bad-element", "colors:\n  nromal: { fg: red }\n",
	    "t.yaml:2:3: unknown element: nromal");
	bad("bad-key", "name: x\ncolours: {}\n",
	    "t.yaml:2:10: unknown key: colours (name, description, mono, "
	    "colors)");
	bad("bad-attr", "colors:\n  normal: { attrs: [blink] }\n",
	    "t.yaml:2:21: unknown attribute: blink");
	bad("bad-number", "colors:\n  normal: { fg: 256 }\n",
	    "t.yaml:2:17: unknown colour: 256");
	bad("not-mapping", "- a\n- b\n", "t.yaml:1:1: a theme is a mapping "
	    "(name, colors)");
	bad("syntax", "colors: {\n", "t.yaml:2:1: did not find expected node "
	    "content");
	bad("empty", "", "t.yaml:1:1: empty theme");

	/* A bad file: the table is the default theme afterwards. */
	{
		FILE *f = fopen("/tmp/kctui-bad-theme.yaml", "w");
		struct theme b = { 0 };

		fputs("name: bad\ncolors:\n  normal: { fg: purple }\n", f);
		fclose(f);
		theme_builtin(&b, "classic");
		cause = NULL;
		check("bad-file-default", theme_load(&t,
		    "/tmp/kctui-bad-theme.yaml", &cause) == -1 && cause &&
		    strstr(cause, "kctui-bad-theme.yaml:3:17:") != NULL &&
		    memcmp(t.el, b.el, sizeof t.el) == 0, cause ? cause : "");
		free(cause);
		remove("/tmp/kctui-bad-theme.yaml");
		theme_free(&b);
	}
	cause = NULL;
	check("missing-name", theme_load(&t, "no-such-theme", &cause) == -1 &&
	    cause != NULL && strstr(cause, "not found") != NULL, "found?");
	free(cause);
	theme_free(&t);
	return unit_failures != 0;
}
