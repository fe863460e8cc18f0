/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_profile.c - the profile files (core/profile.c) and their
 * application (core/profile-apply.c): every file in profiles/ loads with a
 * reason and a source for each option, bad files give file:line(:col),
 * and applying one on a small Kconfig goes through enable's plans, says
 * what can't be given, and records keep decisions naming the profiles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/trim/decisions.h"
#include "../../core/explain/enable.h"
#include "../../core/profile/profile.h"
#include "../../core/verify/verify.h"

#define UNIT_PREFIX "unit/profile/"
#include "unit.h"

/* A profile from text (file name t.yaml); NULL and the error in *cause. */
static struct profile *
parse(const char *text, char **cause)
{
	*cause = NULL;
	return profile_parse_buffer("t.yaml", text, strlen(text), cause);
}

/* text is refused with exactly want. */
static void
bad(const char *name, const char *text, const char *want)
{
	struct profile	*pr;
	char		*cause;

	pr = parse(text, &cause);
	checkf(name, pr == NULL && cause != NULL && strcmp(cause, want) == 0,
	    "got %s, want %s", pr != NULL ? "a profile" : cause, want);
	profile_free(pr);
	free(cause);
}

#define HEAD "name: t\ndescription: a test\noptions:\n"

/* Every shipped profile loads, and each option has what the format
 * requires (the loader refuses otherwise: this checks the files). */
static void
test_shipped(void)
{
	static const char *names[] = { "containers", "wireguard",
	    "kvm-host", "nftables", "usb-storage", "nfs-client", "bluetooth",
	    "systemd" };
	struct profile	*pr;
	char		*cause, path[256];
	size_t		 i, j;
	bool		 ok;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "profiles/%s.yaml", names[i]);
		cause = NULL;
		pr = profile_load_file(path, &cause);
		ok = pr != NULL && strcmp(pr->name, names[i]) == 0 &&
		    pr->noptions > 0 && pr->step_name != NULL &&
		    pr->step_description != NULL;
		for (j = 0; ok && j < pr->noptions; j++)
			ok = pr->options[j].reason[0] != '\0' &&
			    pr->options[j].source[0] != '\0' &&
			    strchr(pr->options[j].reason, '\n') == NULL;
		checkf(names[i], ok, "%s", cause != NULL ? cause : path);
		free(cause);
		profile_free(pr);
	}
}

/* The fields land where they should. */
static void
test_fields(void)
{
	struct profile	*pr;
	char		*cause;

	pr = parse(HEAD
	    "  - name: CONFIG_A\n"
	    "    value: m\n"
	    "    reason: >\n"
	    "      folded over\n"
	    "      two lines\n"
	    "    source: here\n"
	    "  - name: B\n"
	    "    value: y\n"
	    "    optional: true\n"
	    "    reason: r\n"
	    "    source: s\n"
	    "step:\n"
	    "  name: t-1\n"
	    "  description: d\n"
	    "  run: |\n"
	    "    echo one\n"
	    "    echo two\n", &cause);
	check("fields", pr != NULL && pr->noptions == 2 &&
	    strcmp(pr->options[0].name, "A") == 0 &&
	    pr->options[0].value == KC_MOD && !pr->options[0].optional &&
	    strcmp(pr->options[0].reason, "folded over two lines") == 0 &&
	    pr->options[0].line == 4 &&
	    strcmp(pr->options[1].name, "B") == 0 &&
	    pr->options[1].value == KC_YES && pr->options[1].optional &&
	    strcmp(pr->step_name, "t-1") == 0 &&
	    strcmp(pr->step_run, "echo one\necho two\n") == 0,
	    cause);
	free(cause);
	profile_free(pr);
}

static void
test_errors(void)
{
	bad("no-source", HEAD
	    "  - name: A\n"
	    "    value: y\n"
	    "    reason: r\n",
	    "t.yaml:4: CONFIG_A: no source (where the need is documented)");
	bad("bad-value", HEAD
	    "  - name: A\n"
	    "    value: yes\n",
	    "t.yaml:5:12: value: y or m, not 'yes'");
	bad("unknown-key", HEAD
	    "  - name: A\n"
	    "    valeu: y\n",
	    "t.yaml:5:5: unknown key: valeu (name, value, reason, source, "
	    "optional)");
	bad("twice", HEAD
	    "  - { name: A, value: y, reason: r, source: s }\n"
	    "  - { name: CONFIG_A, value: m, reason: r, source: s }\n",
	    "t.yaml:5: CONFIG_A given twice (first at line 4)");
	bad("bad-name", HEAD
	    "  - { name: A-B, value: y, reason: r, source: s }\n",
	    "t.yaml:4:13: bad option name 'A-B' (letters, digits and _, "
	    "CONFIG_ optional)");
	bad("syntax", HEAD
	    "  - name: 'A\n",
	    "t.yaml:5:1: found unexpected end of stream");
	bad("no-options", "name: t\ndescription: d\n",
	    "t.yaml:3:1: no options");
	bad("empty-options", "name: t\ndescription: d\noptions: []\n",
	    "t.yaml:3:11: options: the list is empty");
	bad("top-key", HEAD "  - { name: A, value: y, reason: r, source: s }\n"
	    "colour: blue\n",
	    "t.yaml:5:1: unknown key: colour (name, description, options, "
	    "step)");
	bad("not-a-mapping", "- a\n- b\n",
	    "t.yaml:1:1: a profile is a mapping (name, description, "
	    "options, step)");
	bad("step-name", HEAD "  - { name: A, value: y, reason: r, source: s }\n"
	    "step: { name: a b, description: d }\n",
	    "t.yaml:5:15: step name 'a b': letters, digits, _, . and -");
}

/* A file whose name disagrees with the name inside is refused. */
static void
test_file_name(void)
{
	char		 dir[] = "/tmp/kctui-profile.XXXXXX", path[64], *cause;
	struct profile	*pr;

	if (!unit_tmpdir(dir)) {
		check("file-name", 0, "no scratch directory");
		return;
	}
	snprintf(path, sizeof path, "%s/other.yaml", dir);
	unit_write_file(path, HEAD
	    "  - { name: A, value: y, reason: r, source: s }\n");
	cause = NULL;
	pr = profile_load_file(path, &cause);
	check("file-name", pr == NULL && cause != NULL &&
	    strstr(cause, "the profile is named 't', the file other.yaml") !=
	    NULL, cause);
	free(cause);
	profile_free(pr);
	unit_rmtree(dir);
}

static const char kconfig_text[] =
    "config MODULES\n\tbool \"modules\"\n\tmodules\n\tdefault y\n"
    "config NET\n\tbool \"net\"\n"
    "config BR\n\ttristate \"bridge\"\n\tdepends on NET\n"
    "config FOO\n\tbool \"foo\"\n\tdepends on !NET\n"
    "config BAR\n\tbool\n"
    "config NUM\n\tint \"a number\"\n\tdefault 3\n";

/* Applying: a plan (NET then BR), an option already there, one that
 * can't be had (no prompt), one this tree lacks, a number, and the keep
 * decisions naming both profiles for a shared option. */
static void
test_apply(void)
{
	struct kconfig		*k;
	struct profile		*prs[2];
	struct profile_apply	*pa;
	struct decisions	*d;
	char			*cause;
	bool			 ok;

	k = unit_kconfig(kconfig_text, "CONFIG_MODULES=y\n", NULL);
	prs[0] = parse("name: one\ndescription: d\noptions:\n"
	    "  - { name: BR, value: m, reason: bridging, source: s }\n"
	    "  - { name: MODULES, value: y, reason: mods, source: s }\n"
	    "  - { name: BAR, value: y, reason: bar, source: s }\n"
	    "  - { name: GONE, value: y, optional: true, reason: g, "
	    "source: s }\n"
	    "  - { name: NUM, value: y, reason: n, source: s }\n", &cause);
	prs[1] = parse("name: two\ndescription: d\noptions:\n"
	    "  - { name: BR, value: y, reason: built in, source: s }\n",
	    &cause);
	if (prs[0] == NULL || prs[1] == NULL) {
		check("apply", 0, cause);
		free(cause);
		profile_free(prs[0]);
		profile_free(prs[1]);
		kconfig_free(k);
		return;
	}
	pa = profile_apply(k, prs, 2);
	ok = pa->nresults == 6 &&
	    pa->results[0].status == PROFILE_PLANNED &&
	    pa->results[0].plan->nsteps == 2 &&
	    pa->results[0].want == KC_MOD &&
	    pa->results[1].status == PROFILE_ALREADY &&
	    pa->results[2].status == PROFILE_CANNOT &&
	    pa->results[3].status == PROFILE_ABSENT &&
	    pa->results[4].status == PROFILE_CANNOT &&
	    pa->results[5].status == PROFILE_PLANNED &&
	    pa->nmissing == 2 &&
	    kc_sym_tristate(k, kconfig_find(k, "BR")) == KC_YES &&
	    kc_sym_tristate(k, kconfig_find(k, "NET")) == KC_YES;
	checkf("apply", ok, "%zu results, missing %zu", pa->nresults,
	    pa->nmissing);
	check("apply-why-not", pa->nresults > 3 &&
	    pa->results[3].why_not != NULL &&
	    strstr(pa->results[3].why_not, "no Kconfig file") != NULL,
	    pa->nresults > 3 ? pa->results[3].why_not : NULL);

	d = decisions_new();
	checkf("record", profile_record(pa, d) == 3 &&
	    decisions_get(d, "BR") == DECISION_KEEP &&
	    decisions_get(d, "MODULES") == DECISION_KEEP &&
	    decisions_get(d, "BAR") == DECISION_NONE &&
	    decisions_reason(d, "BR") != NULL &&
	    strcmp(decisions_reason(d, "BR"), "need one, two: bridging") == 0,
	    "BR: %s", decisions_reason(d, "BR"));
	/* Again: nothing new to say. */
	checkf("record-again", profile_record(pa, d) == 0, "changed");
	decisions_free(d);
	profile_apply_free(pa);

	/* A later profile that turns an earlier option off: said, not
	 * hidden. */
	profile_free(prs[1]);
	prs[1] = parse("name: three\ndescription: d\noptions:\n"
	    "  - { name: FOO, value: y, reason: foo, source: s }\n", &cause);
	if (prs[1] != NULL) {
		pa = profile_apply(k, prs, 2);
		check("lost", pa->results[0].status == PROFILE_LOST &&
		    pa->results[5].status == PROFILE_PLANNED,
		    pa->results[0].why_not);
		profile_apply_free(pa);
	} else {
		check("lost", 0, cause);
		free(cause);
	}
	profile_free(prs[0]);
	profile_free(prs[1]);
	kconfig_free(k);
}

/* An option given by a default a later plan changes is planned again:
 * NS is "default !EXPERT", KC needs EXPERT (Linux's NAMESPACES and
 * KCMP). */
static void
test_again(void)
{
	static const char kc[] =
	    "config EXPERT\n\tbool \"expert\"\n"
	    "config NS\n\tbool \"ns\" if EXPERT\n\tdefault !EXPERT\n"
	    "config KC\n\tbool \"kc\"\n\tdepends on EXPERT\n";
	struct kconfig		*k = unit_kconfig(kc, "", NULL);
	struct profile		*pr;
	struct profile_apply	*pa;
	char			*cause;

	pr = parse("name: a\ndescription: d\noptions:\n"
	    "  - { name: NS, value: y, reason: r, source: s }\n"
	    "  - { name: KC, value: y, reason: r, source: s }\n", &cause);
	if (pr == NULL) {
		check("again", 0, cause);
		free(cause);
		kconfig_free(k);
		return;
	}
	pa = profile_apply(k, &pr, 1);
	check("again", pa->nmissing == 0 &&
	    pa->results[0].status == PROFILE_PLANNED &&
	    pa->results[0].again &&
	    kc_sym_tristate(k, kconfig_find(k, "NS")) == KC_YES &&
	    kc_sym_tristate(k, kconfig_find(k, "KC")) == KC_YES,
	    pa->results[0].why_not);
	profile_apply_free(pa);
	profile_free(pr);
	kconfig_free(k);
}

/* Whether a bundle's mounts show systemd: each sign, and none in the
 * recorded fixture (busybox's init). */
static void
test_detect(void)
{
	static const struct {
		const char	*name, *mounts, *want;
	} cases[] = {
		{ "detect-unified", "proc /proc proc rw 0 0\n"
		  "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nsdelegate 0 0\n",
		  "cgroup2 mounted at /sys/fs/cgroup" },
		{ "detect-hybrid", "cgroup /sys/fs/cgroup/systemd cgroup "
		  "rw,name 0 0\n",
		  "a systemd cgroup hierarchy at /sys/fs/cgroup/systemd" },
		{ "detect-binfmt", "systemd-1 /proc/sys/fs/binfmt_misc autofs "
		  "rw,fd=30 0 0",
		  "an autofs mount at /proc/sys/fs/binfmt_misc" },
		{ "detect-none", "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
		  "tmpfs /sys/fs/cgroup\n", NULL },
	};
	char	 dir[] = "/tmp/kctui-profile-det.XXXXXX", *path, *why;
	size_t	 i;

	if (!unit_tmpdir(dir)) {
		check("detect", 0, "no scratch directory");
		return;
	}
	path = xasprintf("%s/mounts", dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unit_write_file(path, cases[i].mounts);
		why = profile_bundle_systemd(dir);
		checkf(cases[i].name, cases[i].want == NULL ? why == NULL :
		    why != NULL && strcmp(why, cases[i].want) == 0, "got %s",
		    why != NULL ? why : "none");
		free(why);
	}
	free(path);
	why = profile_bundle_systemd("tests/fixtures/evidence/cloud-vm");
	checkf("detect-fixture", why == NULL, "got %s", why);
	free(why);
	unit_rmtree(dir);
}

/* The shipped steps with a run text, appended to a workload, are read
 * by verify's workload reader as steps of their own; a step name the
 * file has is found. */
static void
test_workload(void)
{
	static const char *names[] = { "bluetooth", "containers", "kvm-host",
	    "nfs-client", "nftables", "systemd", "usb-storage", "wireguard" };
	static const char none[] = "name: x\ndescription: no step\n"
	    "options:\n  - name: A\n    value: y\n    reason: r\n"
	    "    source: s\n";
	const size_t	 n = sizeof names / sizeof names[0];
	char		 dir[] = "/tmp/kctui-profile-wl.XXXXXX", *path, *cause;
	char		*step;
	struct profile	*pr;
	struct workload	 w;
	struct strbuf	 sb;
	size_t		 i;
	bool		 ok = true;

	if (!unit_tmpdir(dir)) {
		check("workload", 0, "no scratch directory");
		return;
	}
	strbuf_init(&sb);
	strbuf_adds(&sb, "step first true\n");
	for (i = 0; i < n; i++) {
		path = xasprintf("profiles/%s.yaml", names[i]);
		cause = NULL;
		pr = profile_load_file(path, &cause);
		free(path);
		step = pr != NULL ? profile_workload_text(pr) : NULL;
		ok = ok && step != NULL &&
		    !profile_workload_has_step(sb.s, pr->step_name);
		if (step != NULL)
			strbuf_adds(&sb, step);
		ok = ok && pr != NULL &&
		    profile_workload_has_step(sb.s, pr->step_name);
		free(step);
		free(cause);
		profile_free(pr);
	}
	path = xasprintf("%s/workload", dir);
	unit_write_file(path, sb.s);
	memset(&w, 0, sizeof w);
	cause = NULL;
	if (workload_load(&w, path, &cause) != 0)
		ok = false;
	ok = ok && w.nsteps == n + 1;
	for (i = 0; ok && i < n; i++)
		ok = strcmp(w.steps[i + 1], names[i]) == 0;
	checkf("workload", ok, "%s", cause != NULL ? cause : sb.s);
	free(cause);
	workload_free(&w);
	free(path);
	strbuf_free(&sb);
	/* A profile without run text gives none. */
	cause = NULL;
	pr = profile_parse_buffer("x.yaml", none, sizeof none - 1, &cause);
	check("workload-none", pr != NULL && profile_workload_text(pr) ==
	    NULL, cause);
	free(cause);
	profile_free(pr);
	unit_rmtree(dir);
}

int
main(void)
{
	test_shipped();
	test_fields();
	test_errors();
	test_file_name();
	test_apply();
	test_again();
	test_detect();
	test_workload();
	return unit_failures != 0;
}
