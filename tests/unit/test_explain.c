/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_explain.c - core/explain/explain.c and core/explain/enable.c on small hand-written
 * Kconfig fixtures, one per reason kind (set by the user, a default with
 * "if", a select, an imply, limited to m by a dependency, a choice, hidden
 * by a NOT conjunct, a menu's "visible if"), and enable plans through a
 * depends-on chain, a choice, a conflict and an impossible condition. The
 * real tree is tests/real/explain.sh's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/explain/enable.h"
#include "../../core/explain/explain.h"
#include "../../kconfig-parser/kconfig.h"

#define UNIT_PREFIX "unit/explain/"
#include "unit.h"

static const char MODULES[] =
    "config MODULES\n\tbool \"modules\"\n\tdefault y\n\tmodules\n";

/* Parse MODULES + text, read cfg as .config. */
static struct kconfig *
load(const char *text, const char *cfg)
{
	struct kconfig	*k;
	char		*all = xasprintf("%s%s", MODULES, text);

	k = unit_kconfig(all, cfg, NULL);
	free(all);
	return k;
}

/* The explanation of name, all lines joined ("kind:indent:text\n"). */
static char *
explain_text(struct kconfig *k, const char *name, struct explain **keep)
{
	struct explain	*ex = explain_symbol(k, kconfig_find(k, name), NULL);
	size_t		 i, len = 1;
	char		*out, *p;

	for (i = 0; i < ex->nlines; i++)
		len += strlen(ex->lines[i].text) + 16;
	p = out = malloc(len);
	*p = '\0';
	for (i = 0; i < ex->nlines; i++)
		p += sprintf(p, "%d:%d:%s\n", (int)ex->lines[i].kind,
		    ex->lines[i].indent, ex->lines[i].text);
	if (keep != NULL)
		*keep = ex;
	else
		explain_free(ex);
	return out;
}

/* Whether some line of kind has needle in its text. */
static const struct explain_line *
has_line(const struct explain *ex, enum explain_kind kind, const char *needle)
{
	size_t i;

	for (i = 0; i < ex->nlines; i++) {
		if (ex->lines[i].kind == kind &&
		    strstr(ex->lines[i].text, needle) != NULL)
			return &ex->lines[i];
	}
	return NULL;
}

/* Check that the explanation has a line of kind containing needle. */
static void
expect(const char *name, struct kconfig *k, const char *sym,
    enum explain_kind kind, const char *needle)
{
	struct explain	*ex;
	char		*all = explain_text(k, sym, &ex), *d;
	size_t		 n = strlen(all) + strlen(needle) + 64;

	d = malloc(n);
	snprintf(d, n, "no line with \"%s\" in:\n%s", needle, all);
	check(name, has_line(ex, kind, needle) != NULL, d);
	free(d);
	free(all);
	explain_free(ex);
}

static void
expect_brief(const char *name, struct kconfig *k, const char *sym,
    const char *want)
{
	char	*b = explain_brief(k, kconfig_find(k, sym)), d[512];

	snprintf(d, sizeof d, "brief \"%s\", want \"%s\"", b, want);
	check(name, strcmp(b, want) == 0, d);
	free(b);
}

/*
 * Every reason kind of explain on one fixture, case after case. Long on
 * purpose: each case is two lines against the same parsed Kconfig, and a
 * reader checks the list of kinds here in one place.
 */
static void
test_reasons(void)
{
	struct kconfig		*k;
	struct explain		*ex;
	const struct explain_line *l;
	char			*before, *after;

	/* Set by the user. */
	k = load("config A\n\tbool \"Option A\"\n", "CONFIG_A=y\n");
	expect("user-value", k, "A", EXPLAIN_VALUE, "Value: y, set by you in "
	    ".config");
	expect("user-head", k, "A", EXPLAIN_HEAD, "CONFIG_A — Option A (bool)");
	expect("user-location", k, "A", EXPLAIN_LOCATION, "Defined at "
	    "Kconfig:");
	expect_brief("user-brief", k, "A", "set by you");
	kconfig_free(k);

	/* A default with "if": the second one wins, named with its line. */
	k = load("config FOO\n\tbool \"foo\"\n"
	    "config X\n\tbool \"x\"\n"
	    "config B\n\tbool\n\tdefault m if X\n\tdefault y if FOO\n",
	    "CONFIG_FOO=y\n");
	expect("default-if", k, "B", EXPLAIN_VALUE, "Value: y, by default "
	    "(\"default y if FOO\" at Kconfig:12)");
	expect("default-no-prompt", k, "B", EXPLAIN_BLOCKER, "it has no "
	    "prompt");
	expect_brief("default-brief", k, "B", "default");
	kconfig_free(k);

	/* A default that does not apply, and why. */
	k = load("config BIG\n\tbool \"big\"\n"
	    "config SMALL\n\tdef_bool y\n\tdepends on !BIG\n", "CONFIG_BIG=y\n");
	expect("default-inactive", k, "SMALL", EXPLAIN_REASON, "does not "
	    "apply: BIG is y");
	kconfig_free(k);

	/* Selected; and a select that keeps a visible option on. */
	k = load("config S\n\tbool \"s\"\n\tselect T\n\tselect U\n"
	    "config T\n\tbool\n"
	    "config U\n\tbool \"u\"\n", "CONFIG_S=y\n# CONFIG_U is not set\n");
	expect("select", k, "T", EXPLAIN_VALUE, "Value: y, selected by S (y)");
	expect("select-visible", k, "U", EXPLAIN_VALUE, "selected by S (y)");
	expect("select-blocker", k, "U", EXPLAIN_BLOCKER, "can't be turned "
	    "off because S (y) selects it");
	expect("selects-line", k, "S", EXPLAIN_SELECTS, "It selects T (now y)");
	expect_brief("select-brief", k, "T", "selected by S");
	kconfig_free(k);

	/* Implied. */
	k = load("config I\n\tbool \"i\"\n\timply J\n"
	    "config J\n\tbool \"j\"\n", "CONFIG_I=y\n");
	expect("imply", k, "J", EXPLAIN_VALUE, "Value: y, implied by I (y)");
	expect_brief("imply-brief", k, "J", "implied by I");
	kconfig_free(k);

	/* Limited to m by a dependency that is m. */
	k = load("config D\n\ttristate \"d\"\n"
	    "config L\n\ttristate \"l\"\n\tdepends on D\n\tdefault y\n",
	    "CONFIG_D=m\n");
	expect("limited", k, "L", EXPLAIN_REASON, "limited to m because it "
	    "depends on something that is m (D is m)");
	expect("limited-blocker", k, "L", EXPLAIN_BLOCKER, "It can't be y, "
	    "only m or n, because it depends on something that is m: D is m");
	expect_brief("limited-brief", k, "L", "limited by D=m");
	kconfig_free(k);
	/* ... and the user asked for y. */
	k = load("config D\n\ttristate \"d\"\n"
	    "config L\n\ttristate \"l\"\n\tdepends on D\n",
	    "CONFIG_D=m\nCONFIG_L=y\n");
	expect("limited-user", k, "L", EXPLAIN_VALUE, "Value: m, limited to "
	    "m: you set y in .config, but it depends on something that is m "
	    "(D is m)");
	kconfig_free(k);

	/* A choice: the default value and the one not picked. */
	k = load("choice\n\tprompt \"Pick one\"\n\tdefault C2\n"
	    "config C1\n\tbool \"one\"\nconfig C2\n\tbool \"two\"\n"
	    "endchoice\n", "");
	expect("choice-picked", k, "C2", EXPLAIN_VALUE, "Value: y, chosen in "
	    "the choice \"Pick one\"");
	expect("choice-default", k, "C2", EXPLAIN_REASON, "by its default");
	expect("choice-other", k, "C1", EXPLAIN_VALUE, "Value: n, because the "
	    "choice \"Pick one\" picked C2");
	expect("choice-blocker", k, "C2", EXPLAIN_BLOCKER, "pick another "
	    "value of its choice");
	expect_brief("choice-brief", k, "C1", "choice");
	kconfig_free(k);
	/* ... picked by the user. */
	k = load("choice\n\tprompt \"Pick one\"\n\tdefault C2\n"
	    "config C1\n\tbool \"one\"\nconfig C2\n\tbool \"two\"\n"
	    "endchoice\n", "CONFIG_C1=y\n");
	expect("choice-user", k, "C1", EXPLAIN_REASON, "you picked it in "
	    ".config");
	kconfig_free(k);

	/* Hidden by a NOT conjunct: names the symbol that is y. */
	k = load("config X\n\tbool \"x\"\nconfig Y\n\tbool \"y\"\n"
	    "config H\n\tbool \"h\"\n\tdepends on X && !Y\n",
	    "CONFIG_X=y\nCONFIG_Y=y\n");
	expect("hidden-not", k, "H", EXPLAIN_BLOCKER, "it is not shown "
	    "because \"X && !Y\" is n: Y is y");
	free(explain_text(k, "H", &ex));
	l = has_line(ex, EXPLAIN_BLOCKER, "not shown");
	check("hidden-sym", l != NULL && l->sym == kconfig_find(k, "Y"),
	    "the blocker line does not point at Y");
	explain_free(ex);
	expect_brief("hidden-brief", k, "H", "not visible: conflicts with Y");
	kconfig_free(k);

	/* Inherited: a menu's "visible if" and its "depends on", and an
	 * entry listed under a menuconfig. */
	k = load("config V\n\tbool \"v\"\nconfig Z\n\tbool \"z\"\n"
	    "menu \"Hidden menu\"\n\tvisible if V\n"
	    "config W\n\tbool \"w\"\nendmenu\n"
	    "menu \"Deps menu\"\n\tdepends on Z\n"
	    "config W2\n\tbool \"w2\"\nendmenu\n"
	    "menuconfig P\n\tbool \"p\"\n"
	    "config Q\n\tbool \"q\"\n\tdepends on P\n", "");
	expect("visible-if", k, "W", EXPLAIN_REASON, "V is n — the menu "
	    "\"Hidden menu\" is only shown (visible if) when V");
	expect("menu-depends", k, "W2", EXPLAIN_REASON, "Z is n — inherited "
	    "from the menu \"Deps menu\"");
	expect("menuconfig-parent", k, "Q", EXPLAIN_REASON, "P is n — it is "
	    "listed under P");
	kconfig_free(k);

	/* What turning it off also turns off, on a copy of the values. */
	k = load("config P\n\tbool \"p\"\n"
	    "config Q\n\tbool \"q\"\n\tdepends on P\n\tdefault y\n"
	    "config R\n\ttristate \"r\"\n\tdepends on Q\n\tdefault m\n",
	    "CONFIG_P=y\n");
	before = kconfig_write_string(k);
	expect("dependents-count", k, "P", EXPLAIN_DEPENDENT, "also change 2 "
	    "other options");
	expect("dependents-q", k, "P", EXPLAIN_DEPENDENT, "Q: y -> n");
	expect("dependents-r", k, "P", EXPLAIN_DEPENDENT, "R: m -> n");
	after = kconfig_write_string(k);
	check("dependents-restored", strcmp(before, after) == 0,
	    "the configuration changed");
	free(before);
	free(after);
	kconfig_free(k);

	/* Only referred to. */
	k = load("config A\n\tbool \"a\"\n\tdepends on PPC\n", "");
	expect("undefined", k, "PPC", EXPLAIN_VALUE, "not defined for this "
	    "architecture");
	expect("undefined-dep", k, "A", EXPLAIN_BLOCKER, "PPC is not defined "
	    "for this architecture");
	kconfig_free(k);
}

/* The plan's steps as "SYM=v SYM=v". */
static void
plan_str(const struct enable_plan *p, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < p->nsteps && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? " " : "",
		    kc_sym_name(p->steps[i].sym),
		    explain_tri_name(p->steps[i].value));
}

/* Plan, compare the steps with want, apply and check the value. */
static void
expect_plan(const char *name, struct kconfig *k, const char *sym,
    enum kc_tri v, const char *want, const char *reason)
{
	struct enable_plan	*p;
	struct kc_symbol	*s = kconfig_find(k, sym);
	char			 got[512], d[1024], *cause = NULL;
	char			*before = kconfig_write_string(k), *after;
	size_t			 i;
	bool			 found = reason == NULL;

	p = enable_plan(k, s, v);
	after = kconfig_write_string(k);
	check(name, p->ok, p->why_not ? p->why_not : "no plan");
	plan_str(p, got, sizeof got);
	snprintf(d, sizeof d, "steps \"%s\", want \"%s\"", got, want);
	check(name, strcmp(got, want) == 0, d);
	for (i = 0; i < p->nsteps && !found; i++)
		found = strstr(p->steps[i].reason, reason) != NULL;
	snprintf(d, sizeof d, "no step reason with \"%s\"", reason ? reason :
	    "");
	check(name, found, d);
	check(name, strcmp(before, after) == 0, "planning changed the values");
	if (p->ok && enable_apply(k, p, &cause) != 0) {
		check(name, 0, cause);
		free(cause);
	}
	snprintf(d, sizeof d, "after apply %s is %s", sym,
	    explain_tri_name(kc_sym_tristate(k, s)));
	check(name, kc_sym_tristate(k, s) == v, d);
	free(before);
	free(after);
	enable_plan_free(p);
}

static void
expect_refusal(const char *name, struct kconfig *k, const char *sym,
    const char *why)
{
	struct enable_plan	*p = enable_plan(k, kconfig_find(k, sym), KC_YES);
	char			 d[1024];

	snprintf(d, sizeof d, "ok %d, why_not \"%s\", want \"%s\"", p->ok,
	    p->why_not ? p->why_not : "", why);
	check(name, !p->ok && p->why_not != NULL &&
	    strstr(p->why_not, why) != NULL, d);
	enable_plan_free(p);
}

static void
test_enable(void)
{
	struct kconfig		*k;
	struct enable_plan	*p;

	/* A depends-on chain, in order of application. */
	k = load("config A1\n\tbool \"a1\"\n"
	    "config A2\n\tbool \"a2\"\n\tdepends on A1\n"
	    "config A3\n\ttristate \"a3\"\n\tdepends on A2\n", "");
	expect_plan("enable-chain", k, "A3", KC_YES, "A1=y A2=y A3=y",
	    "A2 depends on A1");
	kconfig_free(k);
	k = load("config A1\n\tbool \"a1\"\n"
	    "config A3\n\ttristate \"a3\"\n\tdepends on A1\n", "");
	expect_plan("enable-module", k, "A3", KC_MOD, "A1=y A3=m",
	    "the option you asked for");
	kconfig_free(k);

	/* Through a promptless symbol's "default y if". */
	k = load("config F\n\tbool \"f\"\n"
	    "config HID\n\tbool\n\tdefault y if F\n"
	    "config T\n\tbool \"t\"\n\tdepends on HID\n", "");
	expect_plan("enable-promptless-default", k, "T", KC_YES, "F=y T=y",
	    "HID has no prompt and defaults on when F is y");
	kconfig_free(k);

	/* A choice: select the needed value. */
	k = load("choice\n\tprompt \"Pick one\"\n\tdefault C2\n"
	    "config C1\n\tbool \"one\"\nconfig C2\n\tbool \"two\"\n"
	    "endchoice\n"
	    "config NEEDC1\n\tbool \"n\"\n\tdepends on C1\n", "");
	expect_plan("enable-choice", k, "NEEDC1", KC_YES, "C1=y NEEDC1=y",
	    "NEEDC1 depends on C1");
	kconfig_free(k);
	/* ... and a conflict with a choice value: pick another. */
	k = load("choice\n\tprompt \"Pick one\"\n\tdefault C2\n"
	    "config C1\n\tbool \"one\"\nconfig C2\n\tbool \"two\"\n"
	    "endchoice\n"
	    "config NOTC2\n\tbool \"n\"\n\tdepends on !C2\n", "");
	expect_plan("enable-choice-conflict", k, "NOTC2", KC_YES,
	    "C1=y NOTC2=y", "pick C1 instead of C2");
	kconfig_free(k);

	/* A conflict: X must go off, and SEL, which selects X, first. */
	k = load("config SEL\n\tbool \"sel\"\n\tselect X\n"
	    "config X\n\tbool \"x\"\n"
	    "config H\n\tbool \"h\"\n\tdepends on !X\n",
	    "CONFIG_SEL=y\nCONFIG_X=y\n");
	expect_plan("enable-conflict", k, "H", KC_YES, "SEL=n X=n H=y",
	    "SEL selects X, which has to be off");
	kconfig_free(k);

	/* Impossible: a promptless symbol nothing sets, and one that is not
	 * defined at all. */
	k = load("config ARCHY\n\tbool\n"
	    "config NEEDA\n\tbool \"n\"\n\tdepends on ARCHY\n"
	    "config NEEDPPC\n\tbool \"p\"\n\tdepends on PPC\n"
	    "config FIXED\n\tdef_bool y\n"
	    "config NOTFIXED\n\tbool \"nf\"\n\tdepends on !FIXED\n", "");
	expect_refusal("enable-impossible", k, "NEEDA", "ARCHY is not "
	    "something you can set: it has no prompt and is n");
	expect_refusal("enable-undefined", k, "NEEDPPC", "PPC is not "
	    "something you can set: it is not defined for this architecture");
	expect_refusal("enable-fixed", k, "NOTFIXED", "FIXED can't be turned "
	    "off: it has no prompt and is y");
	p = enable_plan(k, kconfig_find(k, "MODULES"), KC_YES);
	check("enable-already", p->ok && p->already && p->nsteps == 0,
	    "MODULES=y is not reported as already so");
	enable_plan_free(p);
	p = enable_plan(k, kconfig_find(k, "NEEDA"), KC_MOD);
	check("enable-bool-m", !p->ok && strstr(p->why_not, "bool") != NULL,
	    "a bool planned to m");
	enable_plan_free(p);
	kconfig_free(k);
}

/* How the depends-on of sym reads with values (explain_expr_values). */
static void
expect_values(const char *name, struct kconfig *k, const char *sym,
    const char *want)
{
	struct strbuf	sb;
	char		d[512];

	strbuf_init(&sb);
	explain_expr_values(k, kc_menu_depends(kc_sym_menu(kconfig_find(k,
	    sym))), &sb);
	snprintf(d, sizeof d, "got \"%s\", want \"%s\"", sb.s, want);
	check(name, strcmp(sb.s, want) == 0, d);
	strbuf_free(&sb);
}

/* Issue 35 item 10: dependencies as menuconfig's help prints them: a
 * negated symbol without parentheses, one no Kconfig defines (S390 on
 * x86) by its name alone, parentheses only where precedence needs. */
static void
test_expr_values(void)
{
	struct kconfig *k;

	k = load("config X86_32\n\tbool\n"
	    "config A\n\tbool \"a\"\nconfig B\n\ttristate \"b\"\n"
	    "config NEG_UNDEF\n\tbool \"n1\"\n\tdepends on !S390\n"
	    "config NEG_DEF\n\tbool \"n2\"\n\tdepends on A && !X86_32\n"
	    "config NEG_OR\n\tbool \"n3\"\n\tdepends on !(A || B)\n"
	    "config OR_AND\n\tbool \"n4\"\n\tdepends on (A || B) && !S390\n"
	    "config CMP\n\tbool \"n5\"\n\tdepends on B != n\n",
	    "CONFIG_A=y\nCONFIG_B=m\n");
	expect_values("values-not-undefined", k, "NEG_UNDEF", "!S390");
	expect_values("values-not-symbol", k, "NEG_DEF",
	    "A [=y] && !X86_32 [=n]");
	expect_values("values-not-or", k, "NEG_OR", "!(A [=y] || B [=m])");
	expect_values("values-or-in-and", k, "OR_AND",
	    "(A [=y] || B [=m]) && !S390");
	expect_values("values-compare", k, "CMP", "B [=m]!=n");
	kconfig_free(k);
}

/* Issue 35 item 10: the user's values are said to be in the file they
 * came from, not always ".config". */
static void
test_config_name(void)
{
	struct kconfig	*k;
	struct explain	*ex;

	k = load("config A\n\tbool \"Option A\"\n", "CONFIG_A=y\n");
	ex = explain_symbol_file(k, kconfig_find(k, "A"), NULL, "/tmp/x/c1");
	check("config-name-file", has_line(ex, EXPLAIN_VALUE,
	    "Value: y, set by you in c1.") != NULL, "no \"set by you in c1\"");
	explain_free(ex);
	kconfig_free(k);
}

int
main(void)
{
	test_reasons();
	test_expr_values();
	test_config_name();
	test_enable();
	return unit_failures != 0;
}
