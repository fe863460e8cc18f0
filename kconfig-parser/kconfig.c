/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconfig.c - the struct kconfig context: creation, parsing entry points,
 * diagnostics and the public accessors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "preprocess.h"

/* Intern a string in k's table. */
const char *
kc_intern(struct kconfig *k, const char *s)
{
	return intern_str(&k->strings, s, strlen(s));
}

/* A warning: to the callback, else stderr. */
void
kc_warn(struct kconfig *k, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (k->opt.warn != NULL)
		k->opt.warn(k->opt.arg, msg);
	else
		fprintf(stderr, "%s\n", msg);
	free(msg);
}

/* An error: collected for *cause; the operation will fail. */
void
kc_error(struct kconfig *k, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (k->errbuf.len != 0)
		strbuf_addc(&k->errbuf, '\n');
	strbuf_adds(&k->errbuf, msg);
	free(msg);
	k->errors++;
}

/* Preprocessor messages go to the same callbacks. */
static void
kconfig_pp_message(void *arg, enum pp_msg level, const char *text)
{
	struct kconfig *k = arg;

	if (level == PP_INFO) {
		if (k->opt.info != NULL)
			k->opt.info(k->opt.arg, text);
		else
			printf("%s\n", text);
	} else
		kc_warn(k, "%s", text);
}

/* Set up one of the constant symbols y, m, n. */
static void
kconfig_init_const(struct kc_symbol *s, const char *name, enum kc_tri tri)
{
	s->name = name;
	s->type = KC_TRISTATE;
	s->flags = SYM_CONST;
	s->curr_tri = tri;
	s->curr_str = name;
}

/* A new, empty configuration. */
struct kconfig *
kconfig_new(const struct kconfig_options *opt)
{
	struct kconfig		*k = xcalloc(1, sizeof *k);
	struct pp_options	 po;

	if (opt != NULL)
		k->opt = *opt;
	arena_init(&k->arena);
	intern_init(&k->strings, &k->arena);
	strbuf_init(&k->errbuf);
	kconfig_init_const(&k->sym_yes, "y", KC_YES);
	kconfig_init_const(&k->sym_mod, "m", KC_MOD);
	kconfig_init_const(&k->sym_no, "n", KC_NO);
	k->gen = 1;
	kc_rules_for(&k->rules, 6, 1);
	journal_init(k);
	k->root.flags = MENU_ROOT;
	k->root.file = "";

	memset(&po, 0, sizeof po);
	po.envp = k->opt.envp;
	po.cache_path = k->opt.shell_cache;
	po.shell_jobs = k->opt.shell_jobs;
	po.no_shell = k->opt.no_shell;
	po.message = kconfig_pp_message;
	po.message_arg = k;
	k->pp = pp_create(&po);
	return k;
}

/* Free a configuration and everything in it. */
void
kconfig_free(struct kconfig *k)
{
	int i;

	if (k == NULL)
		return;
	pp_free(k->pp);
	for (i = 0; i < k->nsyms; i++)
		free(k->syms[i]->values);
	free(k->syms);
	free(k->korder);
	free(k->files);
	strbuf_free(&k->errbuf);
	intern_free(&k->strings);
	arena_free(&k->arena);
	graph_free(k);
	journal_free(k);
	free(k);
}

/* Hand the collected errors to the caller. */
static int
kconfig_fail(struct kconfig *k, char **cause)
{
	if (cause != NULL)
		*cause = xstrdup(k->errbuf.len ? k->errbuf.s : "parse failed");
	strbuf_reset(&k->errbuf);
	return -1;
}

/* What conf_parse() does after the grammar: defaults for MODULES and the
 * main menu, finalization, recursive dependency check. */
static int
kconfig_finish(struct kconfig *k, char **cause)
{
	if (k->errors)
		return kconfig_fail(k, cause);
	if (k->modules_sym == NULL)
		k->modules_sym = &k->sym_no;
	if (k->root.prompt == NULL) {
		struct kc_prop *prop = arena_alloc(&k->arena, sizeof *prop);

		prop->type = P_MENU;
		prop->text = "Main menu";
		prop->menu = &k->root;
		prop->file = "";
		k->root.prompt = prop;
	}
	menu_finalize(k, &k->root);
	if (sym_check_all_deps(k) != 0 || k->errors)
		return kconfig_fail(k, cause);
	if (k->rules.transitional && menu_check_transitional(k, &k->root))
		return kconfig_fail(k, cause);
	k->changed = true;
	return 0;
}

/* Pick the rules of the tree's version: VERSION and PATCHLEVEL of the
 * Makefile in $srctree, else next to the top Kconfig file; none keeps
 * the 6.1 rules. */
static void
kconfig_detect_version(struct kconfig *k, const char *file)
{
	const char	*srctree = pp_getenv(k->pp, "srctree");
	const char	*slash;
	char		*path;
	int		 v, p, found;

	if (srctree != NULL && *srctree != '\0')
		path = xasprintf("%s/Makefile", srctree);
	else if ((slash = strrchr(file, '/')) != NULL)
		path = xasprintf("%.*s/Makefile",
		    (int)(slash - file), file);
	else
		path = xstrdup("Makefile");
	found = kc_rules_read_makefile(path, &v, &p);
	free(path);
	if (found == 0)
		kc_rules_for(&k->rules, v, p);
}

/* Parse a Kconfig tree from its top file. */
int
kconfig_parse(struct kconfig *k, const char *file, char **cause)
{
	kconfig_detect_version(k, file);
	if (parse_file(k, file) != 0)
		return kconfig_fail(k, cause);
	return kconfig_finish(k, cause);
}

/* Parse Kconfig text from memory. */
int
kconfig_parse_buffer(struct kconfig *k, const char *name, const char *buf,
    size_t len, char **cause)
{
	if (parse_buffer(k, name, buf, len) != 0)
		return kconfig_fail(k, cause);
	return kconfig_finish(k, cause);
}

/* Whether the values differ from the .config last read or written
 * (conf_get_changed()), so that a caller can skip a needless write. */
bool
kconfig_changed(const struct kconfig *k)
{
	return k->changed;
}

/* The file of KCONFIG_DEFCONFIG_LIST the values came from when there
 * was no configuration to read ("using defaults found in ..."), or NULL. */
const char *
kconfig_defaults_from(const struct kconfig *k)
{
	return k->defaults_from;
}

/* How many unmet-dependency warnings were given, so KCONFIG_WERROR
 * can turn them into a failure as conf does. */
int
kconfig_dep_warnings(const struct kconfig *k)
{
	return k->dep_warnings;
}

/* The symbol named name, or NULL; "y", "m" and "n" give the
 * constants. Never creates one, unlike the parser's lookup. */
struct kc_symbol *
kconfig_find(struct kconfig *k, const char *name)
{
	return sym_find(k, name);
}

/* How many symbols the tree has: the bound for kconfig_symbol() and
 * kc_sym_index(). */
int
kconfig_nsymbols(const struct kconfig *k)
{
	return k->nsyms;
}

/* The symbol at index i in creation order, or NULL out of range. */
struct kc_symbol *
kconfig_symbol(const struct kconfig *k, int i)
{
	return i >= 0 && i < k->nsyms ? k->syms[i] : NULL;
}

/* s's name, interned in the configuration; NULL for an unnamed choice. */
const char *
kc_sym_name(const struct kc_symbol *s)
{
	return s->name;
}

/* s's declared type (KC_UNKNOWN for a symbol only referred to). */
enum kc_type
kc_sym_type(const struct kc_symbol *s)
{
	return s->type;
}

/* s's current bool/tristate value, recomputed first if anything it
 * reads has changed. */
enum kc_tri
kc_sym_tristate(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	return s->curr_tri;
}

/* s's current value as conf writes it ("y", "0x10", a string); owned
 * by the configuration, not to be freed. */
const char *
kc_sym_string(struct kconfig *k, struct kc_symbol *s)
{
	sym_calc_value(k, s);
	return sym_get_string_value(s);
}

/* Set a value from its text as a .config line would (bool/tristate:
 * y/m/n; hex gets its 0x); false when the value is out of range. */
bool
kc_sym_set_string(struct kconfig *k, struct kc_symbol *s, const char *v)
{
	return sym_set_string_value(k, s, v);
}

/* The root of the menu tree (the main menu); owned by k. */
struct kc_menu *
kconfig_root(struct kconfig *k)
{
	return &k->root;
}

/* The main menu's title, the third line of a .config. */
const char *
kconfig_mainmenu(struct kconfig *k)
{
	return k->root.prompt != NULL ? k->root.prompt->text : "Main menu";
}

/* How many Kconfig files were read, for auto.conf.cmd dependencies. */
int
kconfig_nfiles(const struct kconfig *k)
{
	return k->nfiles;
}

/* The i-th Kconfig file read, in order, or NULL out of range. */
const char *
kconfig_file(const struct kconfig *k, int i)
{
	return i >= 0 && i < k->nfiles ? k->files[i] : NULL;
}

/* Counters for -v and the benchmarks. */
void
kconfig_get_stats(const struct kconfig *k, struct kconfig_stats *st)
{
	struct pp_stats ps;

	pp_get_stats(k->pp, &ps);
	st->nsymbols = k->nsyms;
	st->nfiles = k->nfiles;
	st->shell_runs = ps.shell_runs;
	st->shell_cached = ps.shell_cached;
	st->shell_dedup = ps.shell_dedup;
}
