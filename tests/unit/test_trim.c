/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_trim.c - unit tests of core/trim*.c and core/trim/decisions.c on small
 * Kconfig fixtures: the candidate rules (visible, settable, not selected
 * by a symbol that stays, keep decisions, policies), consequences
 * (dependents, selects, choices) and the decisions file round trip.
 * Behaviour on the real tree is tested by tests/real/trim.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/trim/decisions.h"
#include "../../core/trim/trim.h"
#include "../../kconfig-parser/kconfig.h"

#define UNIT_PREFIX "unit/trim/"
#include "unit.h"

static char	tmpdir[] = "/tmp/kctui-trim-XXXXXX";

/* Whether a symbol is a candidate. */
static bool
is_cand(struct trim *t, const char *name)
{
	size_t i;

	for (i = 0; i < trim_ncands(t); i++)
		if (strcmp(trim_cand(t, i)->name, name) == 0)
			return true;
	return false;
}

static const char fixture[] =
    "config MODULES\n\tbool \"modules\"\n\tmodules\n"
    "menu \"Drivers\"\n"
    "menu \"Net\"\n"
    "config NETDEV\n\ttristate \"net devices\"\n"
    "config E1000\n\ttristate \"e1000\"\n\tdepends on NETDEV\n"
    "config E1000_EXTRA\n\tbool \"e1000 extras\"\n\tdepends on E1000\n"
    "config IGB\n\ttristate \"igb\"\n\tdepends on NETDEV\n\tselect PTP\n"
    "config PTP\n\ttristate\n"
    "config HIDDEN\n\ttristate \"hidden\" if n\n\tdefault m\n"
    "config FORCED\n\ttristate \"forced\"\n"
    "config FORCER\n\tbool \"forcer\"\n\tselect FORCED\n"
    "config BUILTIN\n\tbool \"built in\"\n"
    "endmenu\n"
    "choice\n\tprompt \"mode\"\n\ttristate\n"
    "config MODE_A\n\ttristate \"a\"\n"
    "config MODE_B\n\ttristate \"b\"\n"
    "endchoice\n"
    "endmenu\n";

static const char config[] =
    "CONFIG_MODULES=y\nCONFIG_NETDEV=m\nCONFIG_E1000=m\n"
    "CONFIG_E1000_EXTRA=y\nCONFIG_IGB=m\nCONFIG_FORCED=m\nCONFIG_FORCER=y\n"
    "CONFIG_BUILTIN=y\nCONFIG_MODE_A=m\nCONFIG_MODE_B=m\n";

/* Candidate rules without evidence (everything is "none"). */
static void
test_candidates(void)
{
	struct kconfig		*k = unit_kconfig(fixture, config, NULL);
	struct trim_input	 in;
	struct trim		*t;
	struct decisions	*d = decisions_new();
	struct trim_subsys	*sub;
	char			*cause = NULL;
	long			 s;

	memset(&in, 0, sizeof in);
	in.policy = TRIM_POLICY_MODULES;
	t = trim_suggest(k, &in, &cause);
	check("suggest", t != NULL, cause ? cause : "NULL");
	if (t == NULL)
		return;
	check("m-candidate", is_cand(t, "E1000") && is_cand(t, "IGB") &&
	    is_cand(t, "NETDEV"), "E1000, IGB, NETDEV");
	check("promptless-not-candidate", !is_cand(t, "PTP"), "PTP");
	check("invisible-not-candidate", !is_cand(t, "HIDDEN"), "HIDDEN");
	check("selected-by-stayer-not-candidate", !is_cand(t, "FORCED"),
	    "FORCED is selected by FORCER=y, which stays");
	check("modules-policy-keeps-y", !is_cand(t, "BUILTIN") &&
	    !is_cand(t, "E1000_EXTRA"), "y options are not candidates");
	check("tristate-choice-values", is_cand(t, "MODE_A") &&
	    is_cand(t, "MODE_B"), "m choice values can go");
	s = trim_find_subsys(t, "Net", &cause);
	check("subsystem-by-suffix", s >= 0 &&
	    strcmp(trim_subsys(t, (size_t)s)->path, "Drivers > Net") == 0,
	    cause ? cause : "path");
	free(cause);
	cause = NULL;
	check("subsystem-unknown", trim_find_subsys(t, "Sound", &cause) < 0 &&
	    cause != NULL && strstr(cause, "unknown subsystem") != NULL,
	    "no error");
	free(cause);
	cause = NULL;
	if (s >= 0) {
		sub = trim_subsys(t, (size_t)s);
		/* NETDEV, E1000, IGB go; E1000_EXTRA and PTP with them. */
		check("subsystem-removes", sub->removes == 5,
		    "removes != 5");
	}
	trim_free(t);

	/* A keep decision keeps a candidate and what it needs. */
	decisions_set(d, "CONFIG_E1000", DECISION_KEEP, "my laptop");
	in.d = d;
	t = trim_suggest(k, &in, &cause);
	check("keep-decision", t != NULL && !is_cand(t, "E1000") &&
	    !is_cand(t, "NETDEV") && is_cand(t, "IGB"),
	    "E1000 and its dependency NETDEV kept, IGB still a candidate");
	trim_free(t);
	/* A trim decision makes even a y option a candidate. */
	decisions_set(d, "BUILTIN", DECISION_TRIM, NULL);
	t = trim_suggest(k, &in, &cause);
	check("trim-decision", t != NULL && is_cand(t, "BUILTIN"),
	    "BUILTIN");
	trim_free(t);
	decisions_free(d);
	/* Aggressive without a trace falls back to modules. */
	in.d = NULL;
	in.policy = TRIM_POLICY_AGGRESSIVE;
	t = trim_suggest(k, &in, &cause);
	if (t != NULL) {
		struct trim_stats st;

		trim_get_stats(t, &st);
		check("aggressive-needs-trace", !st.aggressive && st.note &&
		    !is_cand(t, "BUILTIN"), "no fallback");
	}
	trim_free(t);
	kconfig_free(k);
}

/*
 * The verified policy by name, and without evidence: nothing is kept
 * beyond a module list, so its candidates are the modules policy's and
 * none is to be verified (the real tree and bundle: tests/real/trim.sh).
 */
static void
test_verified(void)
{
	struct kconfig		*k = unit_kconfig(fixture, config, NULL);
	struct trim_input	 in;
	struct trim		*t, *tm;
	struct trim_stats	 st;
	enum trim_policy	 p = TRIM_POLICY_MODULES;
	char			*cause = NULL;
	size_t			 i, nv = 0;
	bool			 same;

	check("verified-parse", trim_policy_parse("verified", &p, &cause) ==
	    0 && p == TRIM_POLICY_VERIFIED && strcmp(trim_policy_name(p),
	    "verified") == 0, cause ? cause : "verified");
	free(cause);
	cause = NULL;
	check("policy-unknown", trim_policy_parse("all", &p, &cause) != 0 &&
	    cause != NULL && strstr(cause, "modules|aggressive|verified") !=
	    NULL, cause ? cause : "no error");
	free(cause);
	cause = NULL;
	memset(&in, 0, sizeof in);
	in.policy = TRIM_POLICY_MODULES;
	tm = trim_suggest(k, &in, &cause);
	in.policy = TRIM_POLICY_VERIFIED;
	t = trim_suggest(k, &in, &cause);
	check("verified-suggest", t != NULL && tm != NULL, cause ? cause :
	    "NULL");
	if (t != NULL && tm != NULL) {
		same = trim_ncands(t) == trim_ncands(tm);
		for (i = 0; same && i < trim_ncands(t); i++) {
			same = strcmp(trim_cand(t, i)->name,
			    trim_cand(tm, i)->name) == 0;
			nv += trim_cand(t, i)->to_verify;
		}
		trim_get_stats(t, &st);
		check("verified-no-evidence-is-modules", same && nv == 0 &&
		    st.to_verify == 0, "candidates differ or to_verify set");
	}
	free(cause);
	trim_free(t);
	trim_free(tm);
	kconfig_free(k);
}

/*
 * The minimal policy by name; without a trace it falls back to the
 * modules policy and says so; the CPU vendor table: what a vendor's CPUs
 * need, a feature of theirs, an option of every CPU (the real tree and
 * bundles: tests/real/trim.sh).
 */
static void
test_minimal(void)
{
	struct kconfig		*k = unit_kconfig(fixture, config, NULL);
	struct trim_input	 in;
	struct trim		*t;
	struct trim_stats	 st;
	enum trim_policy	 p = TRIM_POLICY_MODULES;
	const char		*what = NULL, *v;
	char			*cause = NULL;
	bool			 needs = false;

	check("minimal-parse", trim_policy_parse("minimal", &p, &cause) ==
	    0 && p == TRIM_POLICY_MINIMAL && strcmp(trim_policy_name(p),
	    "minimal") == 0, cause ? cause : "minimal");
	free(cause);
	cause = NULL;
	memset(&in, 0, sizeof in);
	in.policy = TRIM_POLICY_MINIMAL;
	t = trim_suggest(k, &in, &cause);
	check("minimal-suggest", t != NULL, cause ? cause : "NULL");
	if (t != NULL) {
		trim_get_stats(t, &st);
		check("minimal-needs-trace", !st.minimal && !st.aggressive &&
		    st.note != NULL && strstr(st.note, "minimal") != NULL &&
		    !is_cand(t, "BUILTIN"), st.note ? st.note : "no note");
	}
	trim_free(t);
	free(cause);
	v = trim_cpu_option("MICROCODE_AMD", &what, &needs);
	check("cpu-needs", v != NULL && strcmp(v, "AuthenticAMD") == 0 &&
	    needs && what != NULL && strstr(what, "microcode") != NULL,
	    v ? v : "no vendor");
	v = trim_cpu_option("PERF_EVENTS_INTEL_RAPL", NULL, &needs);
	check("cpu-feature", v != NULL && strcmp(v, "GenuineIntel") == 0 &&
	    !needs, v ? v : "no vendor");
	check("cpu-every", trim_cpu_option("SMP", NULL, NULL) == NULL &&
	    trim_cpu_vendor(NULL) == NULL, "SMP is every CPU's");
	check("guest-no-evidence", !trim_cpu_guest_unused(NULL, "XEN", NULL),
	    "without a bundle nothing says the machine is not Xen");
	kconfig_free(k);
}

/* The change of a symbol in a list, or NULL. */
static const struct trim_change *
change_of(const struct trim_change *ch, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(kc_sym_name(ch[i].sym), name) == 0)
			return &ch[i];
	return NULL;
}

/* Consequences: dependents, selects, choices; values restored. */
static void
test_consequences(void)
{
	struct kconfig			*k = unit_kconfig(fixture, config, NULL);
	struct trim_input		 in;
	struct trim			*t;
	struct trim_change		*ch;
	const struct trim_change	*c;
	size_t				 n, idx[2], i;
	char				*cause = NULL, *before, *after;
	bool				 full;

	for (full = false; ; full = true) {
		memset(&in, 0, sizeof in);
		in.full_recalc = full;
		t = trim_suggest(k, &in, &cause);
		if (t == NULL)
			return;
		before = kconfig_write_string(k);
		for (i = n = 0; i < trim_ncands(t); i++)
			if (strcmp(trim_cand(t, i)->name, "NETDEV") == 0)
				idx[n++] = i;
		trim_consequences(t, k, idx, n, &ch, &n, &cause);
		c = change_of(ch, n, "E1000");
		check(full ? "dependent-full" : "dependent", c != NULL &&
		    c->after == KC_NO && c->why != NULL &&
		    strcmp(c->why, "depends on NETDEV") == 0,
		    c && c->why ? c->why : "E1000 not changed");
		c = change_of(ch, n, "E1000_EXTRA");
		check(full ? "dependent-y-full" : "dependent-y", c != NULL &&
		    c->before == KC_YES && c->after == KC_NO, "E1000_EXTRA");
		c = change_of(ch, n, "PTP");
		check(full ? "select-dropped-full" : "select-dropped",
		    c != NULL && c->after == KC_NO && c->why != NULL &&
		    strstr(c->why, "IGB") != NULL, c && c->why ? c->why :
		    "PTP not changed");
		check(full ? "forced-stays-full" : "forced-stays",
		    change_of(ch, n, "FORCED") == NULL, "FORCED changed");
		free(ch);
		after = kconfig_write_string(k);
		check(full ? "restored-full" : "restored",
		    strcmp(before, after) == 0, "values not restored");
		free(before);
		free(after);
		/* Choice: MODE_A off moves nothing here (m choice), but
		 * trimming both turns the choice off. */
		for (i = n = 0; i < trim_ncands(t); i++)
			if (strncmp(trim_cand(t, i)->name, "MODE_", 5) == 0)
				idx[n++] = i;
		trim_consequences(t, k, idx, n, &ch, &n, &cause);
		check(full ? "choice-values-full" : "choice-values",
		    n >= 2 && change_of(ch, n, "MODE_A") != NULL &&
		    change_of(ch, n, "MODE_B") != NULL, "choice values");
		free(ch);
		trim_free(t);
		if (full)
			break;
	}
	kconfig_free(k);
}

/* A bool choice: trimming the selected value's dependency moves it. */
static void
test_choice_moves(void)
{
	static const char kc[] =
	    "config MODULES\n\tbool \"modules\"\n\tmodules\n"
	    "config FANCY\n\ttristate \"fancy\"\n"
	    "choice\n\tprompt \"mode\"\n"
	    "config M_FANCY\n\tbool \"fancy mode\"\n\tdepends on FANCY\n"
	    "config M_PLAIN\n\tbool \"plain mode\"\n"
	    "endchoice\n";
	static const char cf[] =
	    "CONFIG_MODULES=y\nCONFIG_FANCY=m\nCONFIG_M_FANCY=y\n";
	struct kconfig			*k = unit_kconfig(kc, cf, NULL);
	struct trim_input		 in;
	struct trim			*t;
	struct trim_change		*ch;
	const struct trim_change	*c;
	size_t				 n, idx = 0, i;
	char				*cause = NULL;

	memset(&in, 0, sizeof in);
	t = trim_suggest(k, &in, &cause);
	if (t == NULL)
		return;
	for (i = 0; i < trim_ncands(t); i++)
		if (strcmp(trim_cand(t, i)->name, "FANCY") == 0)
			idx = i;
	trim_consequences(t, k, &idx, 1, &ch, &n, &cause);
	c = change_of(ch, n, "M_PLAIN");
	check("choice-moved", c != NULL && c->after == KC_YES &&
	    change_of(ch, n, "M_FANCY") != NULL, "M_PLAIN did not move");
	free(ch);
	trim_apply(t, k, &idx, 1, &cause);
	check("apply", kc_sym_tristate(k, kconfig_find(k, "FANCY")) == KC_NO &&
	    trim_cand(t, idx)->state == TRIM_ACCEPTED, "FANCY still set");
	trim_free(t);
	kconfig_free(k);
}

/* The keep-set: one side of an ||, the cheaper; the default a value
 * comes from; the bet on a hidden prompt checked, and kept strictly in a
 * second round when it loses; what a select needs, but not the condition
 * of a "select B if C". Seeds are keep decisions here. */
static const char keep_fixture[] =
    "config MODULES\n\tbool \"modules\"\n\tmodules\n"
    "menu \"Drivers\"\n"
    "config A\n\ttristate \"a\"\n"
    "config B\n\tbool \"b\"\n"
    "config WANT_Y\n\tbool \"want y\"\n\tdepends on A || B\n"
    "config C\n\ttristate\n"
    "config SEL\n\ttristate \"sel\"\n\tselect C\n"
    "config D\n\ttristate \"d\"\n"
    "config WANT_M\n\ttristate \"want m\"\n\tdepends on C || D\n"
    "config CONSOLE\n\ttristate \"console\"\n"
    "config POLL\n\tdef_bool CONSOLE\n"
    "config H\n\tbool \"h\"\n"
    "config S\n\tbool \"s\" if !H\n"
    "config X\n\ttristate \"x\"\n\tselect S\n"
    "config HX\n\tbool\n"
    "config HS\n\ttristate \"hs\"\n\tselect HX\n"
    "config S2\n\tbool \"s2\" if !HX\n\tdefault y if HX\n"
    "config LSM\n\tbool \"lsm\"\n\tselect LSM_ALL\n"
    "\tselect LSM_VER if VER\n"
    "config VER\n\ttristate \"ver\"\n"
    "config LSM_VER\n\tbool \"lsm ver\"\n\tdepends on VER\n"
    "config ALL_DEP\n\ttristate \"all dep\"\n"
    "config LSM_ALL\n\tbool \"lsm all\"\n\tdepends on ALL_DEP\n"
    "endmenu\n";

static const char keep_config[] =
    "CONFIG_MODULES=y\nCONFIG_A=m\nCONFIG_B=y\nCONFIG_WANT_Y=y\n"
    "CONFIG_SEL=m\nCONFIG_D=m\nCONFIG_WANT_M=m\nCONFIG_CONSOLE=m\n"
    "CONFIG_H=y\nCONFIG_S=y\nCONFIG_X=m\nCONFIG_HS=m\nCONFIG_S2=y\n"
    "CONFIG_LSM=y\nCONFIG_VER=m\nCONFIG_LSM_VER=y\nCONFIG_ALL_DEP=m\n"
    "CONFIG_LSM_ALL=y\n";

static void
test_keep_set(void)
{
	struct kconfig		*k = unit_kconfig(keep_fixture, keep_config, NULL);
	struct trim_input	 in;
	struct trim_stats	 st;
	struct trim		*t;
	struct decisions	*d = decisions_new();
	char			*cause = NULL;
	const char		*r;

	decisions_set(d, "WANT_Y", DECISION_KEEP, NULL);
	decisions_set(d, "WANT_M", DECISION_KEEP, NULL);
	decisions_set(d, "POLL", DECISION_KEEP, NULL);
	decisions_set(d, "H", DECISION_KEEP, NULL);
	decisions_set(d, "S", DECISION_KEEP, NULL);
	decisions_set(d, "S2", DECISION_KEEP, NULL);
	decisions_set(d, "LSM", DECISION_KEEP, NULL);
	memset(&in, 0, sizeof in);
	in.policy = TRIM_POLICY_MODULES;
	in.d = d;
	t = trim_suggest(k, &in, &cause);
	check("keep-suggest", t != NULL, cause ? cause : "NULL");
	if (t == NULL) {
		decisions_free(d);
		kconfig_free(k);
		return;
	}
	/* WANT_Y=y: only B gives the || y; A (m) can go. */
	check("keep-or-side-with-the-value", is_cand(t, "A") &&
	    trim_keep_reason(t, kconfig_find(k, "B")) != NULL,
	    "A a candidate, B kept");
	/* WANT_M: C has no prompt (its selector SEL would stay too), D
	 * does: D is cheaper. */
	check("keep-or-cheaper-side", is_cand(t, "SEL") && !is_cand(t, "D"),
	    "SEL a candidate, D kept");
	/* POLL's value is CONSOLE's, through its default. */
	r = trim_keep_reason(t, kconfig_find(k, "CONSOLE"));
	check("keep-default", !is_cand(t, "CONSOLE") && r != NULL &&
	    strstr(r, "POLL") != NULL, r ? r : "CONSOLE not kept");
	/* S2 is hidden while HX is selected by HS; trimming HS shows S2,
	 * and the user's y holds: HS can go, in one round. */
	check("keep-hidden-prompt-bet-won", is_cand(t, "HS"),
	    "HS not a candidate");
	/* S is hidden by H, which stays: without X (its selector) it
	 * would go. The first round loses it, the second keeps X. */
	/* LSM selects LSM_ALL, which needs ALL_DEP: kept. "select
	 * LSM_VER if VER": LSM_VER follows VER, which LSM does not need. */
	check("keep-select-dependency", !is_cand(t, "ALL_DEP") &&
	    !is_cand(t, "LSM_ALL"), "ALL_DEP or LSM_ALL a candidate");
	check("keep-conditional-select-not-its-condition", is_cand(t, "VER"),
	    "VER kept");
	trim_get_stats(t, &st);
	check("keep-hidden-prompt-bet-lost", !is_cand(t, "X") &&
	    st.keep_rounds == 2 && st.strict_seeds == 1,
	    "X a candidate, or not in a second round");
	trim_free(t);
	decisions_free(d);
	kconfig_free(k);
}

/* Decisions file: load, warnings with file:line, save, load again. */
static void
test_decisions(void)
{
	struct decisions	*d;
	char			 path[128], path2[128];
	char			*cause = NULL, buf[1024];
	FILE			*f;
	size_t			 n;

	snprintf(path, sizeof path, "%s/decisions", tmpdir);
	snprintf(path2, sizeof path2, "%s/missing", tmpdir);
	d = decisions_load(path2, &cause);
	check("decisions-missing-empty", d != NULL && cause == NULL &&
	    decisions_count(d) == 0, "missing file");
	decisions_free(d);
	f = fopen(path, "w");
	fputs("# my decisions\n\nCONFIG_E1000 keep  # laptop NIC\n"
	    "CONFIG_IGB trim\nCONFIG_BAD perhaps\nnot a line\n", f);
	fclose(f);
	d = decisions_load(path, &cause);
	check("decisions-load", d != NULL &&
	    decisions_get(d, "E1000") == DECISION_KEEP &&
	    decisions_get(d, "IGB") == DECISION_TRIM &&
	    decisions_get(d, "BAD") == DECISION_NONE &&
	    strcmp(decisions_reason(d, "E1000"), "laptop NIC") == 0,
	    "entries");
	snprintf(buf, sizeof buf, "%s:5:", path);
	check("decisions-bad-line", cause != NULL && strstr(cause, buf) &&
	    strstr(cause, ":6:"), cause ? cause : "no warning");
	free(cause);
	cause = NULL;
	decisions_set(d, "CONFIG_IGB", DECISION_KEEP, "changed my mind");
	decisions_set(d, "PTP", DECISION_TRIM, NULL);
	decisions_set(d, "E1000", DECISION_NONE, NULL);
	check("decisions-save", decisions_save(d, path, &cause) == 0,
	    cause ? cause : "");
	decisions_free(d);
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	check("decisions-comments-kept", strncmp(buf, "# my decisions\n\n",
	    16) == 0 && strstr(buf, "CONFIG_IGB keep  # changed my mind\n") &&
	    strstr(buf, "CONFIG_PTP trim\n") && !strstr(buf, "E1000"), buf);
	d = decisions_load(path, &cause);
	check("decisions-round-trip", d != NULL && decisions_count(d) == 2 &&
	    decisions_get(d, "IGB") == DECISION_KEEP &&
	    decisions_get(d, "PTP") == DECISION_TRIM, "reload");
	free(cause);
	decisions_free(d);
	unlink(path);

	/* Two writers: each set saves only its own decisions over what the
	 * other saved (the browser and `decide` at once lost decisions). */
	{
		struct decisions *a = decisions_load(path, NULL);
		struct decisions *b = decisions_load(path, NULL);

		decisions_set(a, "EXT4_FS", DECISION_KEEP, "root");
		decisions_set(b, "BTRFS_FS", DECISION_TRIM, NULL);
		cause = NULL;
		check("decisions-merge", decisions_save(a, path, &cause) == 0 &&
		    decisions_save(b, path, &cause) == 0, cause);
		decisions_free(a);
		decisions_free(b);
		d = decisions_load(path, NULL);
		check("decisions-merge-both", d != NULL &&
		    decisions_get(d, "EXT4_FS") == DECISION_KEEP &&
		    decisions_get(d, "BTRFS_FS") == DECISION_TRIM, "lost one");
		/* Emptied by undo: dropped only when nothing is left. */
		decisions_set(d, "EXT4_FS", DECISION_NONE, NULL);
		check("decisions-drop-kept", decisions_save(d, path, &cause) ==
		    0 && decisions_drop_if_empty(path, &cause) == 0 &&
		    access(path, F_OK) == 0, "dropped a file with a decision");
		decisions_set(d, "BTRFS_FS", DECISION_NONE, NULL);
		check("decisions-drop-empty", decisions_save(d, path, &cause) ==
		    0 && decisions_drop_if_empty(path, &cause) == 0 &&
		    access(path, F_OK) != 0, "empty file left");
		decisions_free(d);
		/* A reason's newline cannot plant a second entry. */
		d = decisions_new();
		decisions_set(d, "VIRTIO_NET", DECISION_KEEP,
		    "needed\nCONFIG_EXT4_FS trim");
		check("decisions-reason-one-line", !decisions_reason_ok(
		    "a\nb") && decisions_reason_ok("fine") &&
		    decisions_save(d, path, &cause) == 0, cause);
		decisions_free(d);
		d = decisions_load(path, NULL);
		check("decisions-reason-no-entry", d != NULL &&
		    decisions_count(d) == 1 &&
		    decisions_get(d, "EXT4_FS") == DECISION_NONE, "planted");
		decisions_free(d);
		unlink(path);
	}
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("FAIL unit/trim/tmpdir: mkdtemp\n");
		return 1;
	}
	test_candidates();
	test_verified();
	test_minimal();
	test_consequences();
	test_choice_moves();
	test_keep_set();
	test_decisions();
	rmdir(tmpdir);
	return unit_failures != 0;
}
