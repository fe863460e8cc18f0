/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.c - .config input and output, with conf's semantics: what a
 * value line means, which lines are warned about and ignored, how a file
 * is written (header, menu comments, order) and replaced atomically with
 * the previous one kept as .old.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "preprocess.h"
#include "../lib/fileio.h"

struct reader {
	struct kconfig	*k;
	const char	*name;
	int		 line;
	int		 warnings;
};

/* The prefix of symbol names in config files ($CONFIG_, as in conf). */
static const char *
config_prefix(struct kconfig *k)
{
	const char *p;

	if (k->config_prefix == NULL) {
		p = pp_getenv(k->pp, "CONFIG_");
		k->config_prefix = p != NULL ? p : "CONFIG_";
	}
	return k->config_prefix;
}

/* A warning about the line being read. */
static void __attribute__((format(printf, 2, 3)))
reader_warn(struct reader *r, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	kc_warn(r->k, "%s:%d:warning: %s", r->name, r->line, msg);
	free(msg);
	r->warnings++;
}

/* Store a value from a config line as sym's user value; 0 if taken (or
 * silently ignored, as conf ignores an unquoted string), 1 if refused. */
static int
config_set_value(struct reader *r, struct kc_symbol *sym, char *p)
{
	char *p2;

	switch (sym->type) {
	case KC_TRISTATE:
		if (p[0] == 'm') {
			sym->user_tri = KC_MOD;
			sym->flags |= SYM_DEF_USER;
			return 0;
		}
		/* FALLTHROUGH */
	case KC_BOOL:
		if (p[0] == 'y' || p[0] == 'n') {
			sym->user_tri = p[0] == 'y' ? KC_YES : KC_NO;
			sym->flags |= SYM_DEF_USER;
			return 0;
		}
		reader_warn(r, "symbol value '%s' invalid for %s", p,
		    sym->name);
		return 1;
	case KC_STRING:
		if (*p++ != '"')
			return 0;
		for (p2 = p; (p2 = strpbrk(p2, "\"\\")) != NULL; p2++) {
			if (*p2 == '"') {
				*p2 = '\0';
				break;
			}
			memmove(p2, p2 + 1, strlen(p2));
		}
		if (p2 == NULL) {
			reader_warn(r, "invalid string found");
			return 1;
		}
		/* FALLTHROUGH */
	case KC_INT:
	case KC_HEX:
		if (!sym_string_valid(sym, p)) {
			reader_warn(r, "symbol value '%s' invalid for %s", p,
			    sym->name);
			return 1;
		}
		sym->user_str = kc_intern(r->k, p);
		sym->flags |= SYM_DEF_USER;
		return 0;
	default:
		return 0;
	}
}

/* Store val as the user value of the symbol named name: unknown names,
 * overrides and, for a value of a choice, the choice's state. */
static void
config_assign(struct reader *r, char *name, char *val)
{
	struct kconfig		*k = r->k;
	struct kc_symbol	*sym, *cs;

	if ((sym = sym_find(k, name)) == NULL) {
		if (pp_getenv(k->pp, "KCONFIG_WARN_UNKNOWN_SYMBOLS") != NULL)
			reader_warn(r, "unknown symbol: %s", name);
		k->changed = true;
		return;
	}
	if (sym->flags & SYM_DEF_USER)
		reader_warn(r, "override: reassigning to symbol %s", sym->name);
	if (config_set_value(r, sym, val) != 0)
		return;
	if (!sym_is_choice_value(sym) || (cs = sym->choice) == NULL)
		return;
	if (k->rules.choice_priority) {
		/* The value read last has the highest priority. */
		sym->prio = ++k->prio_next;
		return;
	}
	switch (sym->user_tri) {
	case KC_NO:
		break;
	case KC_MOD:
		if (cs->user_tri == KC_YES) {
			reader_warn(r, "%s creates inconsistent choice state",
			    sym->name);
			cs->flags &= ~SYM_DEF_USER;
		}
		break;
	case KC_YES:
		if (cs->user_tri != KC_NO)
			reader_warn(r, "override: %s changes choice state",
			    sym->name);
		cs->user_sel = sym;
		break;
	}
	cs->user_tri = EXPR_OR(cs->user_tri, sym->user_tri);
}

/* The name in a "# CONFIG_X is not set" line (cut in place), or NULL:
 * from 6.8 conf wants exactly "is not set" after it (exact), before it
 * only its start. */
static char *
config_not_set(char *line, const char *prefix, bool exact)
{
	size_t	 plen = strlen(prefix);
	char	*name, *p;

	if (line[1] != ' ' || strncmp(line + 2, prefix, plen) != 0)
		return NULL;
	name = line + 2 + plen;
	if ((p = strchr(name, ' ')) == NULL)
		return NULL;
	*p++ = '\0';
	if (exact ? strcmp(p, "is not set") != 0 :
	    strncmp(p, "is not set", 10) != 0)
		return NULL;
	return name;
}

/* One line of a config file as conf reads it from 6.8: the newline (and
 * a carriage return) stripped, blank lines skipped, "# CONFIG_X is not
 * set" exactly, and anything but CONFIG_X=... is unexpected data. */
static void
config_read_line_strict(struct reader *r, char *line)
{
	const char	*prefix = config_prefix(r->k);
	size_t		 plen = strlen(prefix), len = strlen(line);
	char		*name, *p;

	if (len > 0 && line[len - 1] == '\n') {
		line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
	}
	if (line[0] == '\0')
		return;
	if (line[0] == '#') {
		if ((name = config_not_set(line, prefix, true)) != NULL)
			config_assign(r, name, (char *)"n");
		return;
	}
	if (strncmp(line, prefix, plen) != 0) {
		reader_warn(r, "unexpected data: %s", line);
		return;
	}
	name = line + plen;
	if ((p = strchr(name, '=')) == NULL) {
		reader_warn(r, "unexpected data: %s", line);
		return;
	}
	*p = '\0';
	config_assign(r, name, p + 1);
}

/* One line of a config file. */
static void
config_read_line(struct reader *r, char *line)
{
	struct kconfig		*k = r->k;
	const char		*prefix = config_prefix(k);
	size_t			 plen = strlen(prefix);
	char			*name, *p, *val;

	if (k->rules.strict_config_read) {
		config_read_line_strict(r, line);
		return;
	}
	if (line[0] == '#') {
		if ((name = config_not_set(line, prefix, false)) == NULL)
			return;
		val = (char *)"n";
	} else if (strncmp(line, prefix, plen) == 0) {
		name = line + plen;
		if ((p = strchr(name, '=')) == NULL)
			return;
		*p++ = '\0';
		val = p;
		if ((p = strchr(val, '\n')) != NULL) {
			*p = '\0';
			if (p > val && p[-1] == '\r')
				p[-1] = '\0';
		}
	} else {
		if (line[0] != '\r' && line[0] != '\n' && line[0] != '\0')
			reader_warn(r, "unexpected data: %.*s",
			    (int)strcspn(line, "\r\n"), line);
		return;
	}
	config_assign(r, name, val);
}

/* Forget every user value before loading a file. */
static void
config_reset_values(struct kconfig *k)
{
	struct kc_symbol	*sym;
	int			 i;

	for (i = 0; i < k->nsyms; i++) {
		sym = k->syms[i];
		sym->flags &= ~SYM_DEF_USER;
		if (sym_is_choice(sym) && !k->rules.choice_priority)
			sym->flags |= SYM_DEF_USER;
		sym->user_str = NULL;
		sym->user_tri = KC_NO;
		sym->user_sel = NULL;
	}
	if (++k->gen == 0)
		k->gen = 1;
}

/* Load config text (NUL-terminated, modifiable). */
static int
config_load(struct kconfig *k, const char *name, char *buf)
{
	struct reader	 r = { k, kc_intern(k, name), 0, 0 };
	char		*line = buf, *nl;

	journal_reset(k);
	config_reset_values(k);
	while (*line != '\0') {
		r.line++;
		nl = strchr(line, '\n');
		if (nl != NULL) {
			/* keep the newline, as conf's getline does */
			char save = nl[1];

			nl[1] = '\0';
			config_read_line(&r, line);
			nl[1] = save;
			line = nl + 1;
		} else {
			config_read_line(&r, line);
			break;
		}
	}
	return r.warnings;
}

/*
 * Why name, which exists, cannot be a configuration: a directory, a FIFO,
 * a device (whose read could block for ever or never end) or a file that
 * cannot be read. NULL when it is a readable regular file or does not
 * exist (conf then starts from defaults, and so do we).
 */
static char *
config_unusable(const char *name)
{
	struct stat	 st;

	if (stat(name, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? NULL :
		    xasprintf("%s: %s", name, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return xasprintf("%s: is a directory, not a configuration "
		    "file", name);
	if (!S_ISREG(st.st_mode))
		return xasprintf("%s: not a regular file (%s), not read as a "
		    "configuration", name, S_ISFIFO(st.st_mode) ? "a FIFO" :
		    S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" :
		    S_ISSOCK(st.st_mode) ? "a socket" : "special");
	if (access(name, R_OK) != 0)
		return xasprintf("%s: %s", name, strerror(errno));
	return NULL;
}

/* Read a file whole, a relative name also below $srctree as conf looks
 * for it; NULL if neither can be read. Only regular files are read. (A
 * NUL byte in it ends the text, as it ends conf's lines.) */
static char *
config_slurp(struct kconfig *k, const char *name)
{
	const char	*srctree;
	char		*path, *buf;

	buf = file_read_regular(name, NULL);
	/* Only a name that does not open is looked for below srctree: a
	 * directory of that name here opens, and fails to read. */
	if (buf == NULL && errno == ENOENT && name[0] != '/' &&
	    (srctree = pp_getenv(k->pp, "srctree")) != NULL) {
		path = xasprintf("%s/%s", srctree, name);
		buf = file_read_regular(path, NULL);
		free(path);
	}
	return buf;
}

/* The config file conf would read by default. */
static const char *
config_default_name(struct kconfig *k)
{
	const char *name = pp_getenv(k->pp, "KCONFIG_CONFIG");

	return name != NULL ? name : ".config";
}

/* conf_read_simple(): 0 loaded, 1 nothing to load, -1 with *cause when
 * the file exists but is no configuration (kctui's rule, not conf's:
 * conf would block on a FIFO or start from defaults). */
static int
config_read_simple(struct kconfig *k, const char *name, int *warnings,
    char **cause)
{
	const char	*list;
	char		*buf, *copy, *tok, *save;

	*warnings = 0;
	if ((*cause = config_unusable(name != NULL ? name :
	    config_default_name(k))) != NULL)
		return -1;
	if (name != NULL) {
		if ((buf = config_slurp(k, name)) == NULL)
			return 1;
	} else {
		name = config_default_name(k);
		if ((buf = config_slurp(k, name)) == NULL) {
			k->changed = true;
			list = pp_getenv(k->pp, "KCONFIG_DEFCONFIG_LIST");
			if (list == NULL)
				return 1;
			copy = xstrdup(list);
			for (tok = strtok_r(copy, " \t\n", &save); tok != NULL;
			    tok = strtok_r(NULL, " \t\n", &save)) {
				if ((buf = config_slurp(k, tok)) != NULL) {
					name = kc_intern(k, tok);
					k->defaults_from = name;
					if (k->opt.info != NULL) {
						char *m = xasprintf("using "
						    "defaults found in %s", tok);

						k->opt.info(k->opt.arg, m);
						free(m);
					}
					break;
				}
			}
			free(copy);
			if (buf == NULL)
				return 1;
		}
	}
	*warnings = config_load(k, name, buf);
	free(buf);
	return 0;
}

/* Load values only (KCONFIG_ALLCONFIG). */
int
kconfig_read_simple(struct kconfig *k, const char *name, char **cause)
{
	char	*why = NULL;
	int	 warnings, rc;

	if ((rc = config_read_simple(k, name, &warnings, &why)) != 0) {
		*cause = why != NULL ? why : xasprintf("can't read "
		    "configuration \"%s\"", name != NULL ? name :
		    config_default_name(k));
		return rc;
	}
	return 0;
}

/* After loading: compute everything and decide whether the loaded file
 * is out of date, dropping user values that can't apply (conf_read()). */
static void
config_after_read(struct kconfig *k, int warnings)
{
	struct kc_symbol	**order, *sym;
	int			  i, n, unsaved = 0;

	sym_calc_value(k, k->modules_sym);
	order = sym_kernel_order(k, &n);
	for (i = 0; i < n; i++) {
		sym = order[i];
		sym_calc_value(k, sym);
		if (sym_is_choice(sym) || (sym->flags & SYM_NO_WRITE))
			continue;
		if (sym_has_value(sym) && (sym->flags & SYM_WRITE)) {
			switch (sym->type) {
			case KC_BOOL:
			case KC_TRISTATE:
				if (sym->user_tri == sym->curr_tri)
					continue;
				break;
			default:
				if (sym->user_str != NULL &&
				    strcmp(sym->curr_str, sym->user_str) == 0)
					continue;
				break;
			}
		} else if (!sym_has_value(sym) && !(sym->flags & SYM_WRITE))
			continue;
		unsaved++;
	}
	for (i = 0; i < n && !k->rules.keep_user_values; i++) {
		sym = order[i];
		if (!sym_has_value(sym) || sym_is_choice_value(sym))
			continue;
		if (sym->visible == KC_NO && !unsaved)
			sym->flags &= ~SYM_DEF_USER;
		switch (sym->type) {
		case KC_STRING:
		case KC_INT:
		case KC_HEX:
			/* A choice typed int (by its values) has no string
			 * user value; conf would crash here. */
			if (sym->user_str == NULL ||
			    sym_string_within_range(k, sym, sym->user_str))
				break;
			sym->flags &= ~SYM_DEF_USER;
			sym->valid_gen = 0;
			k->g_unwalked = true;
			unsaved++;
			break;
		default:
			break;
		}
	}
	journal_reset(k);
	if (warnings || unsaved)
		k->changed = true;
}

/* conf_read(). */
int
kconfig_read(struct kconfig *k, const char *name, char **cause)
{
	int warnings, rc;

	k->changed = false;
	if ((rc = config_read_simple(k, name, &warnings, cause)) != 0) {
		sym_calc_value(k, k->modules_sym);
		return rc;
	}
	config_after_read(k, warnings);
	return 0;
}

/* conf_read() of text in memory (tests, fuzzing). */
int
kconfig_read_buffer(struct kconfig *k, const char *name, const char *buf,
    size_t len, char **cause)
{
	char	*copy = xstrndup(buf, len);
	int	 warnings;

	(void)cause;
	k->changed = false;
	warnings = config_load(k, name, copy);
	free(copy);
	config_after_read(k, warnings);
	return 0;
}

/* conf_set_all_new_symbols() from 6.11: every prompted bool or tristate
 * entry without a value, in menu order, but no choice or choice value
 * (choices settle themselves from their values). */
static void
config_set_all_new_menus(struct kconfig *k, enum kc_new_mode mode)
{
	struct kc_menu		*m;
	struct kc_symbol	*sym;
	enum kc_tri		 val;

	switch (mode) {
	case KC_NEW_YES:
		val = KC_YES;
		break;
	case KC_NEW_MOD:
		val = KC_MOD;
		break;
	case KC_NEW_NO:
		val = KC_NO;
		break;
	default:
		sym_clear_all_valid(k);
		return;
	}
	for (m = k->root.list; m != NULL; m = menu_next(m)) {
		sym = m->sym;
		if (sym == NULL || m->prompt == NULL || sym_has_value(sym) ||
		    (sym->type != KC_BOOL && sym->type != KC_TRISTATE) ||
		    sym_is_choice_value(sym) || sym_is_choice(sym))
			continue;
		sym->user_tri = val;
		sym->flags |= SYM_DEF_USER;
	}
	sym_clear_all_valid(k);
}

/* conf_set_all_new_symbols(). */
void
kconfig_set_all_new(struct kconfig *k, enum kc_new_mode mode)
{
	struct kc_symbol	**order, *sym;
	enum kc_type		  type;
	int			  i, n;

	journal_reset(k);
	if (k->rules.choice_priority) {
		config_set_all_new_menus(k, mode);
		return;
	}
	order = sym_kernel_order(k, &n);
	for (i = 0; i < n; i++) {
		sym = order[i];
		if (sym_has_value(sym) || sym_is_valid(k, sym))
			continue;
		type = sym_get_type(k, sym);
		if (type != KC_BOOL && type != KC_TRISTATE)
			continue;
		switch (mode) {
		case KC_NEW_YES:
			sym->user_tri = KC_YES;
			break;
		case KC_NEW_MOD:
			sym->user_tri = KC_MOD;
			break;
		case KC_NEW_NO:
			sym->user_tri = KC_NO;
			break;
		default:
			continue;
		}
		sym->flags |= SYM_DEF_USER;
	}
	sym_clear_all_valid(k);
	/* Choices without a value get one from their defaults, and their
	 * values an explicit n unless set. */
	for (i = 0; i < n; i++) {
		sym = order[i];
		if ((sym_is_choice(sym) && !sym_has_value(sym)) ||
		    sym_is_choice_value(sym))
			sym->flags |= SYM_NEED_SET_CHOICE;
	}
	for (i = 0; i < n; i++) {
		sym = order[i];
		if (sym_has_value(sym) || !sym_is_choice(sym))
			continue;
		sym_calc_value(k, sym);
		sym_set_all_choice_values(k, sym);
	}
}

/* Append a symbol line: CONFIG_X=v, or "# CONFIG_X is not set". */
static void
config_print_symbol(struct kconfig *k, struct strbuf *sb,
    struct kc_symbol *sym)
{
	const char *val, *prefix = config_prefix(k), *p;

	if (sym->type == KC_UNKNOWN)
		return;
	val = sym_get_string_value(sym);
	if ((sym->type == KC_BOOL || sym->type == KC_TRISTATE) &&
	    val[0] == 'n') {
		strbuf_adds(sb, "# ");
		strbuf_adds(sb, prefix);
		strbuf_adds(sb, sym->name);
		strbuf_adds(sb, " is not set\n");
		return;
	}
	strbuf_adds(sb, prefix);
	strbuf_adds(sb, sym->name);
	strbuf_addc(sb, '=');
	if (sym->type == KC_STRING) {
		strbuf_addc(sb, '"');
		for (p = val; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\')
				strbuf_addc(sb, '\\');
			strbuf_addc(sb, *p);
		}
		strbuf_addc(sb, '"');
	} else
		strbuf_adds(sb, val);
	strbuf_addc(sb, '\n');
}

/* The text of a full .config, as conf_write() produces it. */
static void
config_format(struct kconfig *k, struct strbuf *sb)
{
	struct kc_menu		*m;
	struct kc_symbol	*sym;
	bool			 need_newline = false;
	int			 i;

	strbuf_addf(sb, "#\n# Automatically generated file; DO NOT EDIT.\n"
	    "# %s\n#\n", kconfig_mainmenu(k));
	if (!k->changed)
		sym_clear_all_valid(k);

	m = k->root.list;
	while (m != NULL) {
		sym = m->sym;
		if (sym == NULL) {
			if (!menu_is_visible(k, m))
				goto next;
			strbuf_addf(sb, "\n#\n# %s\n#\n", menu_get_prompt(m));
			need_newline = false;
		} else if (!(sym->flags & SYM_CHOICE) &&
		    !(sym->flags & SYM_WRITTEN)) {
			sym_calc_value(k, sym);
			if (!(sym->flags & SYM_WRITE))
				goto next;
			if (need_newline) {
				strbuf_addc(sb, '\n');
				need_newline = false;
			}
			sym->flags |= SYM_WRITTEN;
			config_print_symbol(k, sb, sym);
		}
next:
		if (m->list != NULL) {
			m = m->list;
			continue;
		}
		for (;;) {
			if (m->sym == NULL && m != &k->root &&
			    m->prompt != NULL && m->prompt->type == P_MENU &&
			    menu_is_visible(k, m)) {
				strbuf_addf(sb, "# end of %s\n",
				    menu_get_prompt(m));
				need_newline = true;
			}
			if (m->next != NULL) {
				m = m->next;
				break;
			}
			m = m->parent;
			if (m == NULL)
				break;
		}
	}
	for (i = 0; i < k->nsyms; i++)
		k->syms[i]->flags &= ~SYM_WRITTEN;
}

/* The written configuration as a string. */
char *
kconfig_write_string(struct kconfig *k)
{
	struct strbuf sb;

	strbuf_init(&sb);
	config_format(k, &sb);
	return strbuf_detach(&sb);
}

/* Whether path is a regular file holding exactly data. Anything else (a
 * device, a FIFO, /proc/self/fd/1) is written, never read back: reading
 * an output may block on it for ever or consume what it holds. */
static bool
config_same(const char *path, const char *data, size_t len)
{
	char	*old;
	size_t	 n;
	bool	 same;

	if ((old = file_read_regular(path, &n)) == NULL)
		return false;
	same = n == len && memcmp(old, data, len) == 0;
	free(old);
	return same;
}

/* Write data to path through a temporary file in the same directory and
 * a rename (lib/fileio.h), so path is never seen half-written; with
 * keep_old, the previous file becomes path.old. KCONFIG_OVERWRITECONFIG
 * writes path itself, as conf does (e.g. to keep a symlink). Directories
 * above path are created 0755 and the file 0666 (less the umask), as
 * conf's mkdir and fopen do. */
static int
config_replace(struct kconfig *k, const char *path, const char *data,
    size_t len, bool keep_old, char **cause)
{
	const char	*env;
	int		 flags = keep_old ? ATOMIC_KEEP_OLD : 0;

	if (*path == '\0') {
		*cause = xstrdup("config name is empty");
		return -1;
	}
	env = pp_getenv(k->pp, "KCONFIG_OVERWRITECONFIG");
	if (env != NULL && *env != '\0')
		flags |= ATOMIC_IN_PLACE;
	if (path_mkdir_parent(path, 0755, cause) != 0)
		return -1;
	return file_write_atomic(path, data, len, 0666, flags, cause);
}

/* Report a message through the info callback. */
static void
config_message(struct kconfig *k, const char *fmt, const char *arg)
{
	char *m;

	if (k->opt.info == NULL)
		return;
	m = xasprintf(fmt, arg);
	k->opt.info(k->opt.arg, m);
	free(m);
}

/* conf_write(). */
int
kconfig_write(struct kconfig *k, const char *path, char **cause)
{
	struct strbuf sb;

	if (path == NULL)
		path = config_default_name(k);
	strbuf_init(&sb);
	config_format(k, &sb);
	if (config_same(path, sb.s, sb.len)) {
		config_message(k, "No change to %s", path);
		strbuf_free(&sb);
		k->changed = false;
		return 0;
	}
	if (config_replace(k, path, sb.s, sb.len, true, cause) != 0) {
		strbuf_free(&sb);
		return -1;
	}
	strbuf_free(&sb);
	config_message(k, "configuration written to %s", path);
	k->changed = false;
	return 0;
}

/* conf_write_defconfig(): only what differs from the defaults. */
int
kconfig_write_defconfig(struct kconfig *k, const char *path, char **cause)
{
	struct strbuf		 sb;
	struct kc_menu		*m;
	struct kc_symbol	*sym, *cs, *ds;
	int			 ret;

	strbuf_init(&sb);
	sym_clear_all_valid(k);
	m = k->root.list;
	while (m != NULL) {
		sym = m->sym;
		if (sym == NULL) {
			if (!menu_is_visible(k, m))
				goto next;
		} else if (!sym_is_choice(sym)) {
			sym_calc_value(k, sym);
			if (!(sym->flags & SYM_WRITE))
				goto next;
			sym->flags &= ~SYM_WRITE;
			if (!(sym->visible > sym->rev_dep.tri))
				goto next;
			if (strcmp(sym_get_string_value(sym),
			    sym_get_string_default(k, sym)) == 0)
				goto next;
			if (sym_is_choice_value(sym)) {
				cs = sym->choice;
				ds = sym_choice_default(k, cs);
				if (!sym_is_optional(cs) && sym == ds &&
				    sym->type == KC_BOOL &&
				    sym->curr_tri == KC_YES)
					goto next;
			}
			config_print_symbol(k, &sb, sym);
		}
next:
		m = menu_next(m);
	}
	ret = config_replace(k, path, sb.s ? sb.s : "", sb.len, false, cause);
	strbuf_free(&sb);
	return ret;
}
