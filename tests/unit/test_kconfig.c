/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kconfig.c - unit tests of the engine's public API (kconfig.h):
 * parse results and errors, evaluation, .config reading and the atomic
 * write with .old backup. Behaviour against the kernel's own conf is
 * tested by tests/kconfig (fixtures with conf-made goldens) and
 * tests/real (the Linux 6.1 tree); this file checks what those can't see.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../kconfig-parser/version.h"

#define UNIT_PREFIX "unit/kconfig/"
#include "unit.h"

static char	tmpdir[] = "/tmp/kctui-unit-XXXXXX";
static char	warnings[4096];

/* Collect warnings instead of printing them. */
static void
collect(void *arg, const char *text)
{
	(void)arg;
	strncat(warnings, text, sizeof warnings - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

/* A fresh context with no environment and no $(shell) cache. */
static struct kconfig *
new_kconfig(void)
{
	static char		*noenv[] = { NULL };
	struct kconfig_options	 opt;

	memset(&opt, 0, sizeof opt);
	opt.envp = noenv;
	opt.warn = collect;
	opt.info = collect;
	warnings[0] = '\0';
	return kconfig_new(&opt);
}

/* Parse text, expecting success. */
static struct kconfig *
parse_ok(const char *text)
{
	warnings[0] = '\0';
	return unit_kconfig(text, NULL, collect);
}

static const char base_kconfig[] =
    "mainmenu \"Test\"\n"
    "config MODULES\n\tbool \"modules\"\n\tdefault y\n\tmodules\n"
    "config A\n\ttristate \"a\"\n\tdefault m\n"
    "config B\n\tbool \"b\"\n\tselect C\n"
    "config C\n\ttristate\n"
    "config D\n\ttristate \"d\"\n\tdepends on A\n\tdefault y\n"
    "config S\n\tstring \"s\"\n\tdefault \"x\\\"y\"\n"
    "config N\n\tint \"n\"\n\trange 1 10\n\tdefault 20\n";

/* Values as conf computes them: defaults, limits, selects, ranges. */
static void
test_evaluation(void)
{
	struct kconfig	*k = parse_ok(base_kconfig);
	char		*cause = NULL;
	const char	 cfg[] = "CONFIG_B=y\n";

	kconfig_read_buffer(k, "cfg", cfg, sizeof cfg - 1, &cause);
	check("default-m", kc_sym_tristate(k, kconfig_find(k, "A")) == KC_MOD,
	    "A should be m");
	check("depends-limits-to-m",
	    kc_sym_tristate(k, kconfig_find(k, "D")) == KC_MOD,
	    "D depends on A=m so is at most m");
	check("select-raises",
	    kc_sym_tristate(k, kconfig_find(k, "C")) == KC_YES,
	    "B=y selects C");
	check("range-clamps-default",
	    strcmp(kc_sym_string(k, kconfig_find(k, "N")), "10") == 0,
	    kc_sym_string(k, kconfig_find(k, "N")));
	check("mainmenu", strcmp(kconfig_mainmenu(k), "Test") == 0,
	    kconfig_mainmenu(k));
	kconfig_free(k);
}

/* A syntax error is reported as file:line and the parse fails. */
static void
test_errors(void)
{
	struct kconfig	*k = new_kconfig();
	char		*cause = NULL;
	const char	 bad[] = "config A\n\tbool \"a\"\n\tfrobnicate\n";
	const char	 rec[] = "config A\n\tbool \"a\"\n\tdepends on B\n"
	    "config B\n\tbool \"b\"\n\tdepends on A\n";
	int		 r;

	r = kconfig_parse_buffer(k, "Kconfig", bad, sizeof bad - 1, &cause);
	check("syntax-error-fails", r != 0, "parse should fail");
	check("syntax-error-location", cause != NULL &&
	    strstr(cause, "Kconfig:3:") != NULL, cause ? cause : "no cause");
	free(cause);
	kconfig_free(k);

	k = new_kconfig();
	cause = NULL;
	r = kconfig_parse_buffer(k, "Kconfig", rec, sizeof rec - 1, &cause);
	check("recursive-dependency-fails", r != 0 && cause != NULL &&
	    strstr(cause, "recursive dependency detected") != NULL,
	    cause ? cause : "no cause");
	free(cause);
	kconfig_free(k);

	k = new_kconfig();
	cause = NULL;
	r = kconfig_parse_buffer(k, "Kconfig", "menu \"m\"\n", 9, &cause);
	check("missing-endmenu", r != 0 && cause != NULL &&
	    strstr(cause, "Kconfig:1:") != NULL, cause ? cause : "no cause");
	free(cause);
	kconfig_free(k);
}

/* Bad .config lines are warned about with file:line and ignored. */
static void
test_bad_config(void)
{
	struct kconfig	*k = parse_ok(base_kconfig);
	char		*cause = NULL;
	const char	 cfg[] = "CONFIG_A=q\nCONFIG_N=abc\ngarbage\n"
	    "CONFIG_S=\"unterminated\n";

	kconfig_read_buffer(k, "bad.config", cfg, sizeof cfg - 1, &cause);
	check("bad-tristate-warned",
	    strstr(warnings, "bad.config:1:warning: symbol value 'q' invalid "
	    "for A") != NULL, warnings);
	check("bad-int-warned", strstr(warnings, "bad.config:2:") != NULL,
	    warnings);
	check("garbage-warned", strstr(warnings, "bad.config:3:warning: "
	    "unexpected data: garbage") != NULL, warnings);
	check("bad-string-warned", strstr(warnings, "bad.config:4:warning: "
	    "invalid string found") != NULL, warnings);
	check("bad-values-ignored",
	    kc_sym_tristate(k, kconfig_find(k, "A")) == KC_MOD, "A default");
	kconfig_free(k);
}

/* Writes replace the file atomically and keep the previous one. */
static void
test_write(void)
{
	struct kconfig	*k = parse_ok(base_kconfig);
	char		 path[256], old[300];
	char		*cause = NULL, *text;
	struct strbuf	 sb;
	int		 r;

	strbuf_init(&sb);
	snprintf(path, sizeof path, "%s/.config", tmpdir);
	snprintf(old, sizeof old, "%s.old", path);
	unit_write_file(path, "# the user's file\n");
	kconfig_read(k, path, &cause);
	r = kconfig_write(k, path, &cause);
	text = kconfig_write_string(k);
	check("write-ok", r == 0, cause ? cause : "");
	unit_read_file(path, &sb);
	check("write-content", strcmp(sb.s, text) == 0, sb.s);
	unit_read_file(old, &sb);
	check("old-kept", strcmp(sb.s, "# the user's file\n") == 0, sb.s);
	check("string-escaped", strstr(text, "CONFIG_S=\"x\\\"y\"\n") != NULL,
	    text);
	free(text);

	/* An identical write leaves both files alone. */
	unit_write_file(old, "# marker\n");
	r = kconfig_write(k, path, &cause);
	unit_read_file(old, &sb);
	check("unchanged-no-rotation", r == 0 &&
	    strcmp(sb.s, "# marker\n") == 0, sb.s);

	/* A failed write leaves the original untouched: make writing the
	 * temporary file fail with a file size limit (EFBIG; works as root
	 * too, unlike permissions). */
	unit_write_file(path, "# keep me\n");
	cause = NULL;
	{
		struct rlimit	 saved, small;
		void		(*oldsig)(int) = signal(SIGXFSZ, SIG_IGN);

		getrlimit(RLIMIT_FSIZE, &saved);
		small = saved;
		small.rlim_cur = 1;
		setrlimit(RLIMIT_FSIZE, &small);
		r = kconfig_write(k, path, &cause);
		setrlimit(RLIMIT_FSIZE, &saved);
		signal(SIGXFSZ, oldsig);
	}
	check("failed-write-reported", r != 0 && cause != NULL,
	    "write with a failing temporary file should fail");
	unit_read_file(path, &sb);
	check("original-intact", strcmp(sb.s, "# keep me\n") == 0, sb.s);
	unit_read_file(old, &sb);
	check("failed-write-old-intact", strcmp(sb.s, "# marker\n") == 0,
	    sb.s);
	free(cause);

	/* A directory as the target is refused. */
	cause = NULL;
	r = kconfig_write(k, tmpdir, &cause);
	check("write-to-directory-fails", r != 0 && cause != NULL &&
	    strstr(cause, "Is a directory") != NULL, cause ? cause : "no cause");
	free(cause);
	strbuf_free(&sb);
	kconfig_free(k);
}

/* 6.11 choices (a 6.12 tree): two trims before any recompute hide two
 * values of a choice whose chosen value is elsewhere; neither may be
 * written. The choice once stopped at the chosen value and judged the
 * others by a visibility computed before the trims (the Debian 6.12
 * exports wrote "# CONFIG_DEFAULT_FQ is not set"). */
static void
test_choice_hidden_values(void)
{
	static const char kc[] =
	    "config MODULES\n\tbool \"m\"\n\tdefault y\n\tmodules\n"
	    "config FQ\n\ttristate \"fq\"\n"
	    "config CODEL\n\ttristate \"codel\"\n"
	    "choice\n\tprompt \"default\"\n\tdefault D_PFIFO\n"
	    "config D_FQ\n\tbool \"fq\" if FQ\n"
	    "config D_CODEL\n\tbool \"codel\" if CODEL\n"
	    "config D_PFIFO\n\tbool \"pfifo\"\n"
	    "endchoice\n";
	static const char cfg[] = "CONFIG_MODULES=y\nCONFIG_FQ=m\n"
	    "CONFIG_CODEL=m\n# CONFIG_D_FQ is not set\n"
	    "# CONFIG_D_CODEL is not set\nCONFIG_D_PFIFO=y\n";
	char		 top[300], conf[300], mk[300];
	char		*cause = NULL, *text;
	struct kconfig	*k = new_kconfig();

	snprintf(top, sizeof top, "%s/k612/Kconfig", tmpdir);
	snprintf(conf, sizeof conf, "%s/k612/.config", tmpdir);
	snprintf(mk, sizeof mk, "%s/k612", tmpdir);
	mkdir(mk, 0755);
	snprintf(mk, sizeof mk, "%s/k612/Makefile", tmpdir);
	unit_write_file(mk, "VERSION = 6\nPATCHLEVEL = 12\n");
	unit_write_file(top, kc);
	unit_write_file(conf, cfg);
	if (kconfig_parse(k, top, &cause) != 0 ||
	    kconfig_read(k, conf, &cause) < 0) {
		check("choice-hidden-parse", 0, cause);
		free(cause);
		kconfig_free(k);
		return;
	}
	kconfig_recalc(k);
	kc_sym_set_tristate(k, kconfig_find(k, "FQ"), KC_NO);
	kc_sym_set_tristate(k, kconfig_find(k, "CODEL"), KC_NO);
	text = kconfig_write_string(k);
	check("choice-hidden-values-unwritten",
	    strstr(text, "CONFIG_D_FQ") == NULL &&
	    strstr(text, "CONFIG_D_CODEL") == NULL &&
	    strstr(text, "CONFIG_D_PFIFO=y\n") != NULL, text);
	free(text);
	kconfig_free(k);
}

/* A generated defconfig (powerpc's ppc64le_defconfig is one from 6.8):
 * the rule found through an alias, the fragments merged as the real
 * tree's scripts/kconfig/merge_config.sh -m merges them (run here as
 * the oracle): redefined values dropped from the base wherever the name
 * stands as a word, longer names kept, a fragment without a final
 * newline, comments carried. */
static void
test_generated_defconfig(void)
{
	char		 tree[PATH_MAX], d[512], f[600], *cmd, *text = NULL;
	char		*cause = NULL;
	struct strbuf	 want;
	int		 rc;

	snprintf(d, sizeof d, "%s/gen/arch/foo/configs", tmpdir);
	cmd = xasprintf("mkdir -p %s", d);
	if (system(cmd) != 0)
		check("generated-mkdir", 0, d);
	free(cmd);
	snprintf(f, sizeof f, "%s/gen/arch/foo/Makefile", tmpdir);
	unit_write_file(f, "KBUILD_DEFCONFIG := gen_defconfig\n"
	    "gen_defconfig: alias_defconfig\n"
	    "alias_defconfig:\n"
	    "\t$(call merge_into_defconfig,base_defconfig,\\\n"
	    "\t\tone two)\n");
	snprintf(f, sizeof f, "%s/base_defconfig", d);
	unit_write_file(f, "CONFIG_A=y\nCONFIG_FOO_BAR=y\n"
	    "# CONFIG_B is not set\nCONFIG_C=m\n"
	    "# a comment naming CONFIG_D here\nCONFIG_XCONFIG_C=y\n");
	snprintf(f, sizeof f, "%s/one.config", d);
	unit_write_file(f, "CONFIG_B=y\nCONFIG_FOO=y\n# CONFIG_C is not set\n");
	snprintf(f, sizeof f, "%s/two.config", d);
	unit_write_file(f, "CONFIG_D=y\nCONFIG_A=y");
	snprintf(d, sizeof d, "%s/gen", tmpdir);
	rc = kconfig_generated_defconfig(d, "foo", "gen_defconfig", &text,
	    &cause);
	if (unit_find_tree("scripts/kconfig/merge_config.sh", tree,
	    sizeof tree) == NULL) {
		check("generated-defconfig", 0, "no real tree for the oracle");
		free(text);
		return;
	}
	cmd = xasprintf("cd %s && KCONFIG_CONFIG=%s/oracle sh "
	    "%s/scripts/kconfig/merge_config.sh -m arch/foo/configs/"
	    "base_defconfig arch/foo/configs/one.config "
	    "arch/foo/configs/two.config > /dev/null", d, d, tree);
	strbuf_init(&want);
	if (system(cmd) == 0) {
		snprintf(f, sizeof f, "%s/oracle", d);
		unit_read_file(f, &want);
	}
	free(cmd);
	check("generated-defconfig", rc == 0 && want.len > 0 &&
	    strcmp(text, want.s) == 0, text != NULL ? text : cause);
	check("generated-not-a-rule", kconfig_generated_defconfig(d, "foo",
	    "base_defconfig", &cmd, &cause) == 1 && cmd == NULL, NULL);
	strbuf_free(&want);
	free(text);
}

/* The introspection API: expressions, properties, menus, set/unset and
 * saved values carried to a second parse of the same text. */
static void
test_introspection(void)
{
	struct kconfig		*k = parse_ok(base_kconfig), *k2;
	struct kc_symbol	*a, *c, *d, *b;
	struct kc_prop_info	 pi;
	struct kc_values	*vs;
	struct kc_menu		*m;
	char			*str;
	int			 i, nmenus = 0, found = 0;

	a = kconfig_find(k, "A");
	b = kconfig_find(k, "B");
	c = kconfig_find(k, "C");
	d = kconfig_find(k, "D");
	kconfig_recalc(k);	/* no .config read: compute MODULES first */
	str = kc_expr_str(kc_sym_depends(d));
	check("api-depends-str", strcmp(str, "A") == 0, str);
	free(str);
	check("api-depends-value", kc_sym_depends_value(k, d) == KC_MOD,
	    "D's dependency A is m");
	check("api-expr-sym", kc_expr_op(kc_sym_depends(d)) == KC_EXPR_SYMBOL &&
	    kc_expr_sym(kc_sym_depends(d)) == a, "depends on A is SYMBOL A");
	str = kc_expr_str(kc_sym_selected_by(c));
	check("api-selected-by", strstr(str, "B") != NULL, str);
	free(str);
	for (i = 0; kc_sym_prop(b, i, &pi); i++) {
		if (pi.kind == KC_PROP_SELECT && pi.target == c &&
		    pi.line == 11)
			found++;
	}
	check("api-prop-select", found == 1, "B has select C at Kconfig:11");
	check("api-invisible", kc_sym_visible(k, c) == KC_NO,
	    "C has no prompt");
	check("api-settable", kc_sym_tristate_settable(k, a, KC_YES) &&
	    !kc_sym_tristate_settable(k, c, KC_YES), "A settable, C not");
	check("api-set", kc_sym_set_tristate(k, a, KC_YES) &&
	    kc_sym_tristate(k, d) == KC_YES, "A=y lets D be y");
	vs = kconfig_values_save(k);
	kc_sym_unset(k, a);
	check("api-unset", kc_sym_tristate(k, a) == KC_MOD &&
	    !kc_sym_has_user_value(a), "A back to its default m");
	k2 = parse_ok(base_kconfig);
	check("api-restore", kconfig_values_restore(k2, vs) == 0 &&
	    kc_sym_tristate(k2, kconfig_find(k2, "A")) == KC_YES,
	    "saved A=y restored into a second parse");
	kconfig_values_free(vs);
	for (m = kc_menu_child(kconfig_root(k)); m != NULL; m = kc_menu_walk(m))
		if (kc_menu_kind(m) == KC_MENU_SYMBOL && kc_menu_prompt(m))
			nmenus++;
	check("api-menu-walk", nmenus == 6, "six prompted entries");
	kconfig_free(k2);
	kconfig_free(k);
}

/* A tree of a given kernel version in tmpdir/NAME: its Makefile says
 * VERSION.PATCHLEVEL, its Kconfig is text; config (may be NULL) is read
 * as its .config. NULL (and a "# " line) on a parse error. */
/*
 * A tree newer than every rule kctui has, with a statement kctui does not
 * know: the error names the file and line, and a note says the tree is
 * newer than the Kconfig kctui knows; the same statement in a tree kctui
 * knows gets no note.
 */
static void
test_beyond_known(void)
{
	static const char text[] =
	    "config FOO\n\tbool \"foo\"\n\tfrobnicate BAR\n";
	struct kconfig	*k;
	char		 dir[512], path[600], mk[64], note[160], *cause;
	int		 i, p, rc;
	bool		 noted;

	snprintf(note, sizeof note, "kctui knows the Kconfig language up to "
	    "Linux %d.%d", KC_RULES_NEWEST_VERSION, KC_RULES_NEWEST_PATCHLEVEL);
	for (i = 0; i < 2; i++) {
		p = KC_RULES_NEWEST_PATCHLEVEL + i;
		snprintf(dir, sizeof dir, "%s/beyond%d", tmpdir, i);
		mkdir(dir, 0755);
		snprintf(mk, sizeof mk, "VERSION = %d\nPATCHLEVEL = %d\n",
		    KC_RULES_NEWEST_VERSION, p);
		snprintf(path, sizeof path, "%s/Makefile", dir);
		unit_write_file(path, mk);
		snprintf(path, sizeof path, "%s/Kconfig", dir);
		unit_write_file(path, text);
		k = new_kconfig();
		cause = NULL;
		rc = kconfig_parse(k, path, &cause);
		noted = cause != NULL && strstr(cause, note) != NULL;
		check(i ? "beyond-known-noted" : "known-not-noted", rc != 0 &&
		    cause != NULL && strstr(cause, "Kconfig:3: unknown "
		    "statement \"frobnicate\"") != NULL && noted == (i == 1),
		    cause != NULL ? cause : "parsed");
		free(cause);
		kconfig_free(k);
	}
}

static struct kconfig *
parse_version(const char *name, int v, int p, const char *text,
    const char *config)
{
	struct kconfig	*k = new_kconfig();
	char		 dir[512], path[600], mk[64], *cause = NULL;

	snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
	mkdir(dir, 0755);
	snprintf(mk, sizeof mk, "VERSION = %d\nPATCHLEVEL = %d\n", v, p);
	snprintf(path, sizeof path, "%s/Makefile", dir);
	unit_write_file(path, mk);
	snprintf(path, sizeof path, "%s/Kconfig", dir);
	unit_write_file(path, text);
	if (kconfig_parse(k, path, &cause) != 0) {
		printf("# parse error: %s\n", cause);
		free(cause);
		kconfig_free(k);
		return NULL;
	}
	if (config != NULL) {
		snprintf(path, sizeof path, "%s/.config", dir);
		unit_write_file(path, config);
		if (kconfig_read(k, path, &cause) < 0) {
			printf("# read error: %s\n", cause);
			free(cause);
		}
	}
	kconfig_recalc(k);
	return k;
}

/* 6.18's transitional symbols: a new symbol whose value came from a
 * transitional one read from the old .config counts as set by the user
 * (conf does not ask for it, the TUI does not mark it new); the
 * transitional symbol is never written. 7.0's "depends on X if Y" is
 * X || Y = n. */
static void
test_newer_versions(void)
{
	static const char trans[] =
	    "config OLD\n\tbool\n\ttransitional\n"
	    "config NEW\n\tbool \"new\"\n\tdefault OLD\n"
	    "config OTHER\n\tbool \"other\"\n";
	static const char depif[] =
	    "config X\n\tbool \"x\"\n"
	    "config Y\n\tbool \"y\"\n"
	    "config A\n\tbool \"a\"\n\tdepends on X if Y\n";
	struct kconfig		*k;
	struct kc_symbol	*s;
	char			*str;

	k = parse_version("k618", 6, 18, trans, "CONFIG_OLD=y\n");
	check("transitional-parse", k != NULL, "6.18 tree parses");
	if (k == NULL)
		return;
	s = kconfig_find(k, "NEW");
	check("transitional-carried", kc_sym_tristate(k, s) == KC_YES &&
	    kc_sym_has_user_value(s), "NEW=y from OLD, as a user value");
	s = kconfig_find(k, "OTHER");
	check("transitional-other-new", !kc_sym_has_user_value(s),
	    "OTHER stays new");
	s = kconfig_find(k, "OLD");
	check("transitional-not-written", !kc_sym_is_written(k, s) &&
	    kc_sym_visible(k, s) == KC_YES, "OLD visible, never written");
	kconfig_free(k);

	k = parse_version("k612", 6, 12, trans, NULL);
	check("transitional-6.12", k == NULL, "an error before 6.18");
	kconfig_free(k);

	k = parse_version("k70", 7, 0, depif, NULL);
	check("depends-if-parse", k != NULL, "7.0 tree parses");
	if (k == NULL)
		return;
	s = kconfig_find(k, "A");
	str = kc_expr_str(kc_sym_depends(s));
	check("depends-if-expr", strcmp(str, "X || Y=n") == 0, str);
	free(str);
	check("depends-if-y-n", kc_sym_visible(k, s) == KC_YES,
	    "Y=n: A visible without X");
	kc_sym_set_tristate(k, kconfig_find(k, "Y"), KC_YES);
	check("depends-if-y-y", kc_sym_visible(k, s) == KC_NO,
	    "Y=y: A needs X");
	kconfig_free(k);

	test_beyond_known();
}

int
main(void)
{
	if (!unit_tmpdir(tmpdir))
		return 1;
	test_evaluation();
	test_errors();
	test_bad_config();
	test_write();
	test_introspection();
	test_choice_hidden_values();
	test_newer_versions();
	test_generated_defconfig();
	unit_rmtree(tmpdir);
	return unit_failures != 0;
}
