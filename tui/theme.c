/* SPDX-License-Identifier: GPL-2.0 */
/*
 * theme.c - theme table and its YAML reader (libyaml, event API, so that
 * every error has a line and column).
 *
 * A theme file:
 *
 *	name: classic
 *	colors:
 *	  normal:   { fg: black, bg: white }
 *	  selected: { fg: white, bg: blue, attrs: [bold] }
 *
 * Colours are names (black red green yellow blue magenta cyan white,
 * bright-NAME for 8..15, default) or numbers 0..255. "mono: true" asks
 * for attributes only.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "../lib/util.h"
#include "../lib/yamlread.h"
#include "theme.h"

static const char *theme_el_names[EL_COUNT] = {
	"normal", "selected", "title", "rule", "status", "hotkey",
	"value", "arrow", "comment", "invisible", "new", "name",
	"ev-used", "ev-plausible", "ev-none", "ev-no-code", "ev-item",
	"help", "help-title", "input", "error", "busy", "match",
	"tree", "legend", "trim"
};

const char *
theme_el_name(enum theme_el el)
{
	return el < EL_COUNT ? theme_el_names[el] : "?";
}

int
theme_el_find(const char *name)
{
	int i;

	for (i = 0; i < EL_COUNT; i++) {
		if (strcmp(theme_el_names[i], name) == 0)
			return i;
	}
	return -1;
}

/* Shorthand for the built-in tables. */
#define C(f, b, a) { (f), (b), (a) }
enum { BLK, RED, GRN, YEL, BLU, MAG, CYN, WHT };

/* mconf's look: black on white, blue selection and title. */
static const struct theme_color theme_classic[EL_COUNT] = {
	[EL_NORMAL] =		C(BLK, WHT, 0),
	[EL_SELECTED] =		C(WHT, BLU, TA_BOLD),
	[EL_TITLE] =		C(YEL, BLU, TA_BOLD),
	[EL_RULE] =		C(BLK, WHT, 0),
	[EL_STATUS] =		C(BLK, CYN, 0),
	[EL_HOTKEY] =		C(RED, WHT, TA_BOLD),
	[EL_VALUE] =		C(BLK, WHT, 0),
	[EL_ARROW] =		C(BLK, WHT, 0),
	[EL_COMMENT] =		C(BLU, WHT, 0),
	[EL_INVISIBLE] =	C(BLK, WHT, TA_DIM),
	[EL_NEW] =		C(RED, WHT, TA_BOLD),
	[EL_NAME] =		C(MAG, WHT, 0),
	[EL_EV_USED] =		C(GRN, WHT, TA_BOLD),
	[EL_EV_PLAUSIBLE] =	C(YEL, WHT, TA_BOLD),
	[EL_EV_NONE] =		C(RED, WHT, 0),
	[EL_EV_NOCODE] =	C(BLK, WHT, TA_DIM),
	[EL_EV_ITEM] =		C(GRN, WHT, 0),
	[EL_HELP] =		C(BLK, WHT, 0),
	[EL_HELP_TITLE] =	C(BLU, WHT, TA_BOLD),
	[EL_INPUT] =		C(WHT, BLK, 0),
	[EL_ERROR] =		C(WHT, RED, TA_BOLD),
	[EL_BUSY] =		C(YEL, CYN, TA_BOLD),
	[EL_MATCH] =		C(RED, WHT, TA_BOLD),
	[EL_TREE] =		C(BLU, WHT, 0),
	[EL_LEGEND] =		C(BLK, WHT, 0),
	[EL_TRIM] =		C(MAG, WHT, TA_BOLD),
};

/* No colours: the terminal's own, with attributes. */
static const struct theme_color theme_mono[EL_COUNT] = {
	[EL_SELECTED] =		C(-1, -1, TA_REVERSE),
	[EL_TITLE] =		C(-1, -1, TA_BOLD),
	[EL_STATUS] =		C(-1, -1, TA_REVERSE),
	[EL_HOTKEY] =		C(-1, -1, TA_UNDERLINE),
	[EL_COMMENT] =		C(-1, -1, TA_BOLD),
	[EL_INVISIBLE] =	C(-1, -1, TA_DIM),
	[EL_NEW] =		C(-1, -1, TA_BOLD),
	[EL_EV_USED] =		C(-1, -1, TA_BOLD),
	[EL_EV_NOCODE] =	C(-1, -1, TA_DIM),
	[EL_HELP_TITLE] =	C(-1, -1, TA_BOLD),
	[EL_INPUT] =		C(-1, -1, TA_UNDERLINE),
	[EL_ERROR] =		C(-1, -1, TA_BOLD | TA_REVERSE),
	[EL_BUSY] =		C(-1, -1, TA_BOLD | TA_REVERSE),
	[EL_MATCH] =		C(-1, -1, TA_BOLD | TA_UNDERLINE),
	[EL_TRIM] =		C(-1, -1, TA_BOLD | TA_UNDERLINE),
};

void
theme_builtin(struct theme *t, const char *name)
{
	int i;

	free(t->name);
	if (name != NULL && strcmp(name, "mono") == 0) {
		memcpy(t->el, theme_mono, sizeof t->el);
		/* Zero-initialised entries mean black on black: make the
		 * untouched ones the terminal's default. */
		for (i = 0; i < EL_COUNT; i++) {
			if (t->el[i].fg == 0 && t->el[i].bg == 0) {
				t->el[i].fg = -1;
				t->el[i].bg = -1;
			}
		}
		t->mono = true;
		t->name = xstrdup("mono");
		return;
	}
	memcpy(t->el, theme_classic, sizeof t->el);
	t->mono = false;
	t->name = xstrdup("classic");
}

void
theme_free(struct theme *t)
{
	free(t->name);
	t->name = NULL;
}

/* A colour name or number; -2 when unknown. */
static int
theme_color_value(const char *s)
{
	static const char *names[] = {
		"black", "red", "green", "yellow", "blue", "magenta", "cyan",
		"white"
	};
	char	*end;
	long	 v;
	int	 i, bright = 0;

	if (strcmp(s, "default") == 0 || strcmp(s, "none") == 0)
		return -1;
	if (strncmp(s, "bright-", 7) == 0) {
		bright = 8;
		s += 7;
	}
	for (i = 0; i < 8; i++) {
		if (strcmp(s, names[i]) == 0)
			return i + bright;
	}
	if (bright || *s < '0' || *s > '9')
		return -2;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > 255)
		return -2;
	return (int)v;
}

/* An attribute name; 0 when unknown. */
static unsigned
theme_attr_value(const char *s)
{
	if (strcmp(s, "bold") == 0)
		return TA_BOLD;
	if (strcmp(s, "reverse") == 0)
		return TA_REVERSE;
	if (strcmp(s, "underline") == 0)
		return TA_UNDERLINE;
	if (strcmp(s, "dim") == 0)
		return TA_DIM;
	if (strcmp(s, "italic") == 0)
		return TA_ITALIC;
	return 0;
}

/* attrs: a scalar ("bold reverse") or a sequence of names. */
static int
tp_attrs(struct yamlread *tp, unsigned *out)
{
	unsigned	a;
	int		rc;

	*out = 0;
	if (tp->ev.type == YAML_SCALAR_EVENT) {
		char *s = xstrdup(yamlread_scalar(tp)), *w, *save = NULL;

		for (w = strtok_r(s, " ,", &save); w != NULL;
		    w = strtok_r(NULL, " ,", &save)) {
			if (strcmp(w, "none") == 0)
				continue;
			if ((a = theme_attr_value(w)) == 0) {
				yamlread_error(tp, "unknown attribute: %s", w);
				free(s);
				return -1;
			}
			*out |= a;
		}
		free(s);
		return 0;
	}
	if (tp->ev.type != YAML_SEQUENCE_START_EVENT)
		return yamlread_error(tp, "attrs: expected a list of attributes");
	while ((rc = yamlread_item(tp, YAML_SEQUENCE_END_EVENT,
	    "attrs: expected an attribute")) > 0) {
		if ((a = theme_attr_value(yamlread_scalar(tp))) == 0)
			return yamlread_error(tp, "unknown attribute: %s",
			    yamlread_scalar(tp));
		*out |= a;
	}
	return rc;
}

/* One element: { fg: C, bg: C, attrs: A }. */
static int
tp_element(struct yamlread *tp, struct theme_color *c)
{
	char	*key;
	int	 v, rc;

	if (tp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(tp, "expected a mapping of fg, bg, attrs");
	c->attrs = 0;
	while ((rc = yamlread_item(tp, YAML_MAPPING_END_EVENT,
	    "expected fg, bg or attrs")) > 0) {
		key = xstrdup(yamlread_scalar(tp));
		if (strcmp(key, "fg") != 0 && strcmp(key, "bg") != 0 &&
		    strcmp(key, "attrs") != 0) {
			yamlread_error(tp, "unknown key: %s (fg, bg or attrs)", key);
			free(key);
			return -1;
		}
		if (yamlread_next(tp) != 0) {
			free(key);
			return -1;
		}
		if (strcmp(key, "attrs") == 0) {
			free(key);
			if (tp_attrs(tp, &c->attrs) != 0)
				return -1;
			continue;
		}
		if (tp->ev.type != YAML_SCALAR_EVENT) {
			free(key);
			return yamlread_error(tp, "expected a colour");
		}
		if ((v = theme_color_value(yamlread_scalar(tp))) == -2) {
			yamlread_error(tp, "unknown colour: %s", yamlread_scalar(tp));
			free(key);
			return -1;
		}
		if (key[0] == 'f')
			c->fg = (short)v;
		else
			c->bg = (short)v;
		free(key);
	}
	return rc;
}

/* colors: { ELEMENT: {...}, ... } */
static int
tp_colors(struct yamlread *tp, struct theme *t)
{
	int el, rc;

	if (tp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(tp, "colors: expected a mapping of elements");
	while ((rc = yamlread_item(tp, YAML_MAPPING_END_EVENT,
	    "expected an element name")) > 0) {
		if ((el = theme_el_find(yamlread_scalar(tp))) < 0)
			return yamlread_error(tp, "unknown element: %s",
			    yamlread_scalar(tp));
		if (yamlread_next(tp) != 0 || tp_element(tp, &t->el[el]) != 0)
			return -1;
	}
	return rc;
}

/* The document: a mapping with name, mono, colors. */
static int
tp_document(struct yamlread *tp, struct theme *t)
{
	char	*key;
	int	 rc;

	if (tp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(tp, "a theme is a mapping (name, colors)");
	while ((rc = yamlread_item(tp, YAML_MAPPING_END_EVENT,
	    "expected a key")) > 0) {
		key = xstrdup(yamlread_scalar(tp));
		if (yamlread_next(tp) != 0) {
			free(key);
			return -1;
		}
		if (strcmp(key, "colors") == 0) {
			free(key);
			if (tp_colors(tp, t) != 0)
				return -1;
		} else if (strcmp(key, "name") == 0 ||
		    strcmp(key, "mono") == 0) {
			if (tp->ev.type != YAML_SCALAR_EVENT) {
				free(key);
				return yamlread_error(tp, "expected a scalar");
			}
			if (key[0] == 'n') {
				free(t->name);
				t->name = xstrdup(yamlread_scalar(tp));
			} else if (strcmp(yamlread_scalar(tp), "true") == 0)
				t->mono = true;
			else if (strcmp(yamlread_scalar(tp), "false") == 0)
				t->mono = false;
			else {
				free(key);
				return yamlread_error(tp, "mono: true or false");
			}
			free(key);
		} else if (strcmp(key, "description") == 0) {
			free(key);
			if (yamlread_skip(tp) != 0)
				return -1;
		} else {
			yamlread_error(tp, "unknown key: %s (name, description, "
			    "mono, colors)", key);
			free(key);
			return -1;
		}
	}
	return rc;
}

/* The document's walk for yamlread_document(). */
static int
tp_walk(struct yamlread *tp, void *arg)
{
	return tp_document(tp, arg);
}

int
theme_parse_buffer(struct theme *t, const char *name, const char *buf,
    size_t len, char **cause)
{
	return yamlread_document(name, buf, len, "theme", tp_walk, t, cause);
}

int
theme_parse_file(struct theme *t, const char *path, char **cause)
{
	char	*buf;
	size_t	 len;
	int	 rc;

	if ((buf = file_read_all(path, &len)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	rc = theme_parse_buffer(t, path, buf, len, cause);
	free(buf);
	return rc;
}

/* The directory of the running binary (for themes/ beside it). */
static char *
theme_exe_dir(void)
{
	char	buf[PATH_MAX], *slash;
	ssize_t	n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

/* Where a theme NAME may be, in order; NULL-terminated, malloc'd. */
static char **
theme_candidates(const char *name)
{
	char		**v = xcalloc(8, sizeof *v);
	const char	 *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char	 *dir = getenv("KCTUI_THEME_DIR");
	char		 *exe = theme_exe_dir();
	int		  n = 0;

	if (xdg != NULL && *xdg != '\0')
		v[n++] = xasprintf("%s/kctui/themes/%s.yaml", xdg, name);
	else if (home != NULL && *home != '\0')
		v[n++] = xasprintf("%s/.config/kctui/themes/%s.yaml", home,
		    name);
	if (dir != NULL && *dir != '\0')
		v[n++] = xasprintf("%s/%s.yaml", dir, name);
	if (exe != NULL) {
		v[n++] = xasprintf("%s/themes/%s.yaml", exe, name);
		v[n++] = xasprintf("%s/../share/kctui/themes/%s.yaml", exe,
		    name);
		free(exe);
	}
	return v;
}

int
theme_load(struct theme *t, const char *spec, char **cause)
{
	char	**cands, *path = NULL;
	size_t	  len = strlen(spec);
	int	  i, rc;

	theme_builtin(t, strcmp(spec, "mono") == 0 ? "mono" : "classic");
	if (strchr(spec, '/') != NULL ||
	    (len > 5 && strcmp(spec + len - 5, ".yaml") == 0))
		path = xstrdup(spec);
	else {
		cands = theme_candidates(spec);
		for (i = 0; cands[i] != NULL; i++) {
			if (path == NULL && access(cands[i], R_OK) == 0)
				path = xstrdup(cands[i]);
			free(cands[i]);
		}
		free(cands);
		/* The two built-in tables need no file. */
		if (path == NULL && (strcmp(spec, "classic") == 0 ||
		    strcmp(spec, "mono") == 0))
			return 0;
		if (path == NULL) {
			*cause = xasprintf("theme %s: not found (looked in "
			    "~/.config/kctui/themes, $KCTUI_THEME_DIR and "
			    "themes/ beside kctui)", spec);
			return -1;
		}
	}
	rc = theme_parse_file(t, path, cause);
	free(path);
	if (rc != 0)
		theme_builtin(t, "classic");
	return rc;
}
