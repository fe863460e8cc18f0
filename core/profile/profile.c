/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.c - the profile files (profiles/NAME.yaml) and where they are
 * found. libyaml's event API, as tui/theme.c reads themes, so that every
 * error names the file, line and column:
 *
 *	name: wireguard
 *	description: WireGuard VPN tunnels (wg-quick, systemd-networkd)
 *	options:
 *	  - name: WIREGUARD
 *	    value: m
 *	    reason: the WireGuard module itself
 *	    source: drivers/net/Kconfig, WIREGUARD help
 *	step:
 *	  name: wireguard
 *	  description: a wg interface is created and given a key
 *	  run: |
 *	    ip link add wg0 type wireguard || return 1
 *
 * value is y (built in) or m (a module, or built in). optional: true
 * marks an option the feature works without (moby's "Optional
 * Features").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "../../lib/yamlread.h"
#include "profile.h"

/*
 * A scalar value (the event after its key) as one line: runs of blanks
 * and newlines become one space, so a folded YAML paragraph is one
 * sentence (a reason goes into the decisions file, one line each).
 */
static int
pp_line_value(struct yamlread *pp, const char *key, char **out)
{
	const char	*s;
	struct strbuf	 sb;

	if (yamlread_next(pp) != 0)
		return -1;
	if (pp->ev.type != YAML_SCALAR_EVENT)
		return yamlread_error(pp, "%s: expected text", key);
	if (*out != NULL)
		return yamlread_error(pp, "%s given twice", key);
	strbuf_init(&sb);
	for (s = yamlread_scalar(pp); *s != '\0'; s++) {
		if (isspace((unsigned char)*s)) {
			if (sb.len > 0 && sb.s[sb.len - 1] != ' ')
				strbuf_addc(&sb, ' ');
		} else if (iscntrl((unsigned char)*s)) {
			strbuf_free(&sb);
			return yamlread_error(pp, "%s: control character in the "
			    "text", key);
		} else
			strbuf_addc(&sb, *s);
	}
	while (sb.len > 0 && sb.s[sb.len - 1] == ' ')
		sb.s[--sb.len] = '\0';
	if (sb.len == 0) {
		strbuf_free(&sb);
		return yamlread_error(pp, "%s: empty", key);
	}
	*out = strbuf_detach(&sb);
	return 0;
}

/* An option's name: CONFIG_ optional, then letters, digits and _. */
static int
pp_option_name(struct yamlread *pp, char **out)
{
	const char	*s, *p;

	if (yamlread_next(pp) != 0)
		return -1;
	if (pp->ev.type != YAML_SCALAR_EVENT)
		return yamlread_error(pp, "name: expected an option name");
	if (*out != NULL)
		return yamlread_error(pp, "name given twice");
	s = yamlread_scalar(pp);
	if (strncmp(s, "CONFIG_", 7) == 0)
		s += 7;
	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			break;
	if (*s == '\0' || *p != '\0')
		return yamlread_error(pp, "bad option name '%s' (letters, digits "
		    "and _, CONFIG_ optional)", yamlread_scalar(pp));
	*out = xstrdup(s);
	return 0;
}

/* One entry of options: a mapping of name, value, reason, source and
 * optional. */
static int
pp_option(struct yamlread *pp, struct profile_option *o)
{
	char	*key, *value = NULL, *opt = NULL;
	int	 rc;

	memset(o, 0, sizeof *o);
	o->line = yamlread_line(pp);
	if (pp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(pp, "an option is a mapping (name, value, "
		    "reason, source)");
	while ((rc = yamlread_key(pp, "a key of the option")) > 0) {
		key = xstrdup(yamlread_scalar(pp));
		if (strcmp(key, "name") == 0)
			rc = pp_option_name(pp, &o->name);
		else if (strcmp(key, "value") == 0)
			rc = pp_line_value(pp, key, &value);
		else if (strcmp(key, "reason") == 0)
			rc = pp_line_value(pp, key, &o->reason);
		else if (strcmp(key, "source") == 0)
			rc = pp_line_value(pp, key, &o->source);
		else if (strcmp(key, "optional") == 0)
			rc = pp_line_value(pp, key, &opt);
		else
			rc = yamlread_error(pp, "unknown key: %s (name, value, "
			    "reason, source, optional)", key);
		free(key);
		if (rc != 0)
			break;
		if (value != NULL && o->value == KC_NO) {
			if (strcmp(value, "y") == 0)
				o->value = KC_YES;
			else if (strcmp(value, "m") == 0)
				o->value = KC_MOD;
			else
				rc = yamlread_error(pp, "value: y or m, not '%s'",
				    value);
		}
		if (opt != NULL && !o->optional) {
			if (strcmp(opt, "true") == 0)
				o->optional = true;
			else if (strcmp(opt, "false") != 0)
				rc = yamlread_error(pp, "optional: true or false, "
				    "not '%s'", opt);
		}
		if (rc != 0)
			break;
	}
	free(value);
	free(opt);
	if (rc != 0)
		return -1;
	if (o->name == NULL)
		return yamlread_error_at(pp, o->line, "an option without a name");
	if (o->value == KC_NO)
		return yamlread_error_at(pp, o->line, "CONFIG_%s: no value (y or "
		    "m)", o->name);
	if (o->reason == NULL)
		return yamlread_error_at(pp, o->line, "CONFIG_%s: no reason (why "
		    "the feature needs it)", o->name);
	if (o->source == NULL)
		return yamlread_error_at(pp, o->line, "CONFIG_%s: no source (where "
		    "the need is documented)", o->name);
	return 0;
}

static void
profile_option_clear(struct profile_option *o)
{
	free(o->name);
	free(o->reason);
	free(o->source);
}

/* options: a sequence of option mappings; a name given twice is an
 * error naming the first line. */
static int
pp_options(struct yamlread *pp, struct profile *pr)
{
	struct profile_option	 o;
	size_t			 i;

	if (pp->ev.type != YAML_SEQUENCE_START_EVENT)
		return yamlread_error(pp, "options: expected a list of options");
	if (pr->options != NULL)
		return yamlread_error(pp, "options given twice");
	pr->options = xcalloc(1, sizeof *pr->options);
	for (;;) {
		if (yamlread_next(pp) != 0)
			return -1;
		if (pp->ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (pp_option(pp, &o) != 0) {
			profile_option_clear(&o);
			return -1;
		}
		for (i = 0; i < pr->noptions; i++) {
			if (strcmp(pr->options[i].name, o.name) != 0)
				continue;
			yamlread_error_at(pp, o.line, "CONFIG_%s given twice (first "
			    "at line %zu)", o.name, pr->options[i].line);
			profile_option_clear(&o);
			return -1;
		}
		pr->options = xrealloc(pr->options, (pr->noptions + 1) *
		    sizeof *pr->options);
		pr->options[pr->noptions++] = o;
	}
	if (pr->noptions == 0)
		return yamlread_error(pp, "options: the list is empty");
	return 0;
}

/* A step name: letters, digits, _, . and - (the workload's rule). */
static bool
profile_step_name_ok(const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("_.-", *p) == NULL)
			return false;
	return *s != '\0';
}

/* step: name, description and (optional) run. */
static int
pp_step(struct yamlread *pp, struct profile *pr)
{
	size_t	 line = yamlread_line(pp);
	char	*key;
	int	 rc;

	if (pp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(pp, "step: expected a mapping (name, "
		    "description, run)");
	if (pr->step_description != NULL)
		return yamlread_error(pp, "step given twice");
	while ((rc = yamlread_key(pp, "a key of the step")) > 0) {
		key = xstrdup(yamlread_scalar(pp));
		if (strcmp(key, "name") == 0) {
			rc = pp_line_value(pp, key, &pr->step_name);
			if (rc == 0 && !profile_step_name_ok(pr->step_name))
				rc = yamlread_error(pp, "step name '%s': letters, "
				    "digits, _, . and -", pr->step_name);
		} else if (strcmp(key, "description") == 0)
			rc = pp_line_value(pp, key, &pr->step_description);
		else if (strcmp(key, "run") == 0) {
			/* Shell text: kept as written, lines and all. */
			if ((rc = yamlread_next(pp)) == 0 &&
			    pp->ev.type != YAML_SCALAR_EVENT)
				rc = yamlread_error(pp, "run: expected text");
			else if (rc == 0 && pr->step_run != NULL)
				rc = yamlread_error(pp, "run given twice");
			else if (rc == 0)
				pr->step_run = xstrdup(yamlread_scalar(pp));
		} else
			rc = yamlread_error(pp, "unknown key: %s (name, "
			    "description, run)", key);
		free(key);
		if (rc != 0)
			return -1;
	}
	if (rc != 0)
		return -1;
	if (pr->step_name == NULL || pr->step_description == NULL)
		return yamlread_error_at(pp, line, "step: needs a name and a "
		    "description");
	return 0;
}

/* The document: name, description, options, step. */
static int
pp_document(struct yamlread *pp, struct profile *pr)
{
	char	*key;
	int	 rc;

	if (pp->ev.type != YAML_MAPPING_START_EVENT)
		return yamlread_error(pp, "a profile is a mapping (name, "
		    "description, options, step)");
	while ((rc = yamlread_key(pp, "a key")) > 0) {
		key = xstrdup(yamlread_scalar(pp));
		if (strcmp(key, "name") == 0) {
			rc = pp_line_value(pp, key, &pr->name);
			if (rc == 0 && !profile_step_name_ok(pr->name))
				rc = yamlread_error(pp, "name '%s': letters, "
				    "digits, _, . and -", pr->name);
		} else if (strcmp(key, "description") == 0)
			rc = pp_line_value(pp, key, &pr->description);
		else if (strcmp(key, "options") == 0)
			rc = yamlread_next(pp) == 0 ? pp_options(pp, pr) : -1;
		else if (strcmp(key, "step") == 0)
			rc = yamlread_next(pp) == 0 ? pp_step(pp, pr) : -1;
		else
			rc = yamlread_error(pp, "unknown key: %s (name, "
			    "description, options, step)", key);
		free(key);
		if (rc != 0)
			return -1;
	}
	if (rc != 0)
		return -1;
	if (pr->name == NULL)
		return yamlread_error(pp, "no name");
	if (pr->description == NULL)
		return yamlread_error(pp, "no description");
	if (pr->options == NULL)
		return yamlread_error(pp, "no options");
	return 0;
}

/* The document's walk for yamlread_document(). */
static int
pp_walk(struct yamlread *pp, void *arg)
{
	return pp_document(pp, arg);
}

struct profile *
profile_parse_buffer(const char *name, const char *buf, size_t len,
    char **cause)
{
	struct profile	*pr = xcalloc(1, sizeof *pr);

	pr->path = xstrdup(name);
	if (yamlread_document(name, buf, len, "profile", pp_walk, pr,
	    cause) != 0) {
		profile_free(pr);
		return NULL;
	}
	return pr;
}

struct profile *
profile_load_file(const char *path, char **cause)
{
	struct profile	*pr;
	const char	*base;
	char		*buf;
	size_t		 len, blen;

	/* A regular file only: a FIFO would block the command. */
	if ((buf = file_read_regular(path, &len)) == NULL) {
		*cause = xasprintf("%s: %s", path, errno == EINVAL ?
		    "not a regular file" : strerror(errno));
		return NULL;
	}
	if (memchr(buf, '\0', len) != NULL) {
		*cause = xasprintf("%s: a NUL byte: not a profile", path);
		free(buf);
		return NULL;
	}
	pr = profile_parse_buffer(path, buf, len, cause);
	free(buf);
	if (pr == NULL)
		return NULL;
	/* "need NAME" finds NAME.yaml: the name inside must agree, or a
	 * copied file would record decisions under the wrong name. */
	base = (base = strrchr(path, '/')) != NULL ? base + 1 : path;
	blen = strlen(base);
	if (blen > 5 && strcmp(base + blen - 5, ".yaml") == 0 &&
	    (strlen(pr->name) != blen - 5 ||
	    strncmp(pr->name, base, blen - 5) != 0)) {
		*cause = xasprintf("%s: the profile is named '%s', the file "
		    "%.*s.yaml: rename one", path, pr->name, (int)(blen - 5),
		    base);
		profile_free(pr);
		return NULL;
	}
	return pr;
}

/* The directory of the running binary (profiles/ beside it). */
static char *
profile_exe_dir(void)
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

/*
 * The user's own first ($XDG_CONFIG_HOME or ~/.config/kctui/profiles),
 * then $KCTUI_PROFILE_DIR, then the project's beside the binary and
 * where an install puts them: a user's file of the same name wins.
 */
char **
profile_dirs(void)
{
	char		**v = xcalloc(6, sizeof *v);
	const char	 *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char	 *dir = getenv("KCTUI_PROFILE_DIR");
	char		 *exe = profile_exe_dir();
	int		  n = 0;

	if (xdg != NULL && *xdg != '\0')
		v[n++] = xasprintf("%s/kctui/profiles", xdg);
	else if (home != NULL && *home != '\0')
		v[n++] = xasprintf("%s/.config/kctui/profiles", home);
	if (dir != NULL && *dir != '\0')
		v[n++] = xstrdup(dir);
	if (exe != NULL) {
		v[n++] = xasprintf("%s/profiles", exe);
		v[n++] = xasprintf("%s/../share/kctui/profiles", exe);
		free(exe);
	}
	return v;
}

struct profile *
profile_find(const char *spec, char **cause)
{
	char		**dirs, *path = NULL;
	size_t		  len = strlen(spec), i;
	struct profile	 *pr;

	if (strchr(spec, '/') != NULL ||
	    (len > 5 && strcmp(spec + len - 5, ".yaml") == 0))
		return profile_load_file(spec, cause);
	if (!profile_step_name_ok(spec)) {
		*cause = xasprintf("bad profile name '%s'", spec);
		return NULL;
	}
	dirs = profile_dirs();
	for (i = 0; dirs[i] != NULL && path == NULL; i++) {
		path = xasprintf("%s/%s.yaml", dirs[i], spec);
		if (access(path, F_OK) != 0) {
			free(path);
			path = NULL;
		}
	}
	strv_free(dirs);
	if (path == NULL) {
		*cause = xasprintf("no profile %s (kctui need --list shows "
		    "them; looked in ~/.config/kctui/profiles, "
		    "$KCTUI_PROFILE_DIR and profiles/ beside kctui)", spec);
		return NULL;
	}
	pr = profile_load_file(path, cause);
	free(path);
	return pr;
}

static int
profile_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
profile_names(void)
{
	char		**dirs = profile_dirs(), **v = NULL, *name;
	size_t		  n = 0, i, j, len;
	struct dirent	 *de;
	DIR		 *d;

	for (i = 0; dirs[i] != NULL; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len <= 5 || strcmp(de->d_name + len - 5,
			    ".yaml") != 0)
				continue;
			name = xstrndup(de->d_name, len - 5);
			for (j = 0; j < n; j++)
				if (strcmp(v[j], name) == 0)
					break;
			if (j < n || !profile_step_name_ok(name)) {
				free(name);
				continue;
			}
			v = xrealloc(v, (n + 2) * sizeof *v);
			v[n++] = name;
		}
		closedir(d);
	}
	strv_free(dirs);
	if (v == NULL)
		return xcalloc(1, sizeof *v);
	qsort(v, n, sizeof *v, profile_cmp);
	v[n] = NULL;
	return v;
}

void
profile_free(struct profile *pr)
{
	size_t i;

	if (pr == NULL)
		return;
	for (i = 0; i < pr->noptions; i++)
		profile_option_clear(&pr->options[i]);
	free(pr->options);
	free(pr->path);
	free(pr->name);
	free(pr->description);
	free(pr->step_name);
	free(pr->step_description);
	free(pr->step_run);
	free(pr);
}

char *
profile_workload_text(const struct profile *pr)
{
	struct strbuf	 sb;
	const char	*p, *nl;
	char		*fn;
	size_t		 i;

	if (pr->step_run == NULL || pr->step_name == NULL)
		return NULL;
	/* A shell function name: the step's with - and . as _. */
	fn = xasprintf("need_%s", pr->step_name);
	for (i = 0; fn[i] != '\0'; i++)
		if (fn[i] == '-' || fn[i] == '.')
			fn[i] = '_';
	strbuf_init(&sb);
	strbuf_addf(&sb, "\n# kctui need %s: %s\n# (%s)\n%s() {\n",
	    pr->name, pr->step_description, pr->path, fn);
	for (p = pr->step_run; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl > p)
			strbuf_addf(&sb, "\t%.*s", (int)(nl - p), p);
		strbuf_addc(&sb, '\n');
		if (*nl == '\0')
			break;
	}
	strbuf_addf(&sb, "}\nstep %s %s\n", pr->step_name, fn);
	free(fn);
	return strbuf_detach(&sb);
}

bool
profile_workload_has_step(const char *text, const char *name)
{
	const char	*p = text;
	size_t		 n = strlen(name);

	for (; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "step", 4) != 0 || (p[4] != ' ' &&
		    p[4] != '\t'))
			continue;
		for (p += 4; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' ||
		    p[n] == '\t' || p[n] == '\n' || p[n] == '\0'))
			return true;
	}
	return false;
}
