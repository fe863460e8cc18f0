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

static int	failures;
static char	tmpdir[] = "/tmp/kctui-unit-XXXXXX";
static char	warnings[4096];

/* Report one assertion. */
static void
check(const char *name, int ok, const char *detail)
{
	if (ok)
		printf("PASS unit/kconfig/%s\n", name);
	else {
		printf("FAIL unit/kconfig/%s: %s\n", name, detail);
		failures++;
	}
}

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
	struct kconfig	*k = new_kconfig();
	char		*cause = NULL;

	if (kconfig_parse_buffer(k, "Kconfig", text, strlen(text), &cause)) {
		printf("# unexpected parse error: %s\n", cause);
		free(cause);
	}
	return k;
}

/* Read a whole file into a static buffer ("" if missing). */
static const char *
slurp(const char *path)
{
	static char	 buf[65536];
	FILE		*f = fopen(path, "r");
	size_t		 n = 0;

	buf[0] = '\0';
	if (f != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Write text to a file. */
static void
spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
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
	int		 r;

	snprintf(path, sizeof path, "%s/.config", tmpdir);
	snprintf(old, sizeof old, "%s.old", path);
	spit(path, "# the user's file\n");
	kconfig_read(k, path, &cause);
	r = kconfig_write(k, path, &cause);
	text = kconfig_write_string(k);
	check("write-ok", r == 0, cause ? cause : "");
	check("write-content", strcmp(slurp(path), text) == 0, slurp(path));
	check("old-kept", strcmp(slurp(old), "# the user's file\n") == 0,
	    slurp(old));
	check("string-escaped", strstr(text, "CONFIG_S=\"x\\\"y\"\n") != NULL,
	    text);
	free(text);

	/* An identical write leaves both files alone. */
	spit(old, "# marker\n");
	r = kconfig_write(k, path, &cause);
	check("unchanged-no-rotation", r == 0 &&
	    strcmp(slurp(old), "# marker\n") == 0, slurp(old));

	/* A failed write leaves the original untouched: make writing the
	 * temporary file fail with a file size limit (EFBIG; works as root
	 * too, unlike permissions). */
	spit(path, "# keep me\n");
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
	check("original-intact", strcmp(slurp(path), "# keep me\n") == 0,
	    slurp(path));
	check("failed-write-old-intact", strcmp(slurp(old), "# marker\n") == 0,
	    slurp(old));
	free(cause);

	/* A directory as the target is refused. */
	cause = NULL;
	r = kconfig_write(k, tmpdir, &cause);
	check("write-to-directory-fails", r != 0 && cause != NULL &&
	    strstr(cause, "Is a directory") != NULL, cause ? cause : "no cause");
	free(cause);
	kconfig_free(k);
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

int
main(void)
{
	char cmd[300];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_evaluation();
	test_errors();
	test_bad_config();
	test_write();
	test_introspection();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return failures != 0;
}
