/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_incremental.c - the engine's incremental invalidation (graph.c)
 * against conf's full invalidation, on the real Linux 6.1 tree and
 * Debian's amd64 config: two parses, one in each mode, take the same
 * pseudo-random sequence of user changes (set y/m/n, unset, restore of
 * saved values, a checkpoint rolled back in the incremental one against
 * a save and restore in the full one) and must agree on every symbol's
 * value, string and visibility after each. Needs the tree (KCTUI_TREE, else
 * ~/.cache/kctui/linux-6.1, as tests/run.sh prepares it).
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../kconfig-parser/preprocess.h"

#define UNIT_PREFIX "unit/incremental/"
#include "unit.h"
#include "../../lib/clock.h"

#define STEPS	300


/* Parse the tree (cwd) with its derived environment and read config. */
static struct kconfig *
load(char **envp, const char *config, bool incremental)
{
	struct kconfig_options	 opt;
	struct kconfig		*k;
	char			*cause = NULL;

	memset(&opt, 0, sizeof opt);
	opt.envp = envp;
	opt.warn = unit_quiet;
	opt.info = unit_quiet;
	k = kconfig_new(&opt);
	if (kconfig_parse(k, "Kconfig", &cause) != 0 ||
	    (config != NULL && kconfig_read(k, config, &cause) < 0)) {
		check("load", 0, cause != NULL ? cause : "?");
		free(cause);
		kconfig_free(k);
		return NULL;
	}
	kconfig_set_incremental(k, incremental);
	kconfig_recalc(k);
	return k;
}

/* The first symbol on which the two configurations disagree, or -1. */
static int
differ(struct kconfig *a, struct kconfig *b)
{
	struct kc_symbol	*x, *y;
	const char		*sx, *sy;
	int			 i;

	for (i = 0; i < kconfig_nsymbols(a); i++) {
		x = kconfig_symbol(a, i);
		y = kconfig_symbol(b, i);
		if (kc_sym_tristate(a, x) != kc_sym_tristate(b, y) ||
		    kc_sym_visible(a, x) != kc_sym_visible(b, y))
			return i;
		sx = kc_sym_string(a, x);
		sy = kc_sym_string(b, y);
		if ((sx == NULL) != (sy == NULL) ||
		    (sx != NULL && strcmp(sx, sy) != 0))
			return i;
	}
	return -1;
}

static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/*
 * Random sets on the real tree, each recomputed incrementally and in
 * full, the two compared. Long on purpose: one loop over one state (the
 * configuration, its saved values and the generation counters), whose
 * steps only make sense together.
 */
int
main(void)
{
	char			 config[PATH_MAX], detail[256], buf[PATH_MAX];
	const char		*tree = unit_find_tree("Kconfig", buf, sizeof buf);
	const char		*home = getenv("HOME");
	char			**envp, *cause = NULL;
	extern char		**environ;
	struct kconfig		*full, *inc;
	struct kc_values	*saved_f = NULL, *saved_i = NULL, *cp_f = NULL;
	uint64_t		 cp_gen = 0;
	bool			 cp_nested = true, cp_gen_ok = true;
	int			 ncp = 0;
	struct kc_symbol	*sf, *si;
	struct stat		 sb;
	uint32_t		 seed = 20261203;
	int			 step, idx, bad = -1, nsets = 0, nsyms;
	bool			 rf, ri, agree_set = true;
	double			 t0, tf = 0, ti = 0;
	enum kc_tri		 v;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tree == NULL) {
		check("tree", 0, "no Linux 6.1 tree (KCTUI_TREE)");
		return 1;
	}
	if ((envp = env_derive(tree, environ, &cause)) == NULL) {
		check("env", 0, cause);
		return 1;
	}
	if (chdir(tree) != 0) {
		check("chdir", 0, tree);
		return 1;
	}
	snprintf(config, sizeof config, "%s/.cache/kctui/"
	    "config.amd64_none_amd64", home != NULL ? home : "/root");
	full = load(envp, stat(config, &sb) == 0 ? config : NULL, false);
	inc = load(envp, stat(config, &sb) == 0 ? config : NULL, true);
	if (full == NULL || inc == NULL)
		return 1;
	nsyms = kconfig_nsymbols(full);
	check("same-symbols", nsyms == kconfig_nsymbols(inc), "counts");
	check("start-agrees", differ(full, inc) < 0, "after the read");

	for (step = 0; step < STEPS && bad < 0; step++) {
		idx = (int)(lcg(&seed) % (uint32_t)nsyms);
		sf = kconfig_symbol(full, idx);
		/* Every third step a choice value: choices are where the
		 * readers graph has edges both ways. */
		if (step % 3 == 0 && !kc_sym_is_choice_value(sf)) {
			step--;
			continue;
		}
		si = kconfig_symbol(inc, idx);
		/* Visible bool/tristate symbols: the ones a user changes. */
		if ((kc_sym_type(sf) != KC_BOOL &&
		    kc_sym_type(sf) != KC_TRISTATE) ||
		    kc_sym_visible(full, sf) == KC_NO) {
			step--;
			continue;
		}
		if (step % 50 == 10) {
			kconfig_values_free(saved_f);
			kconfig_values_free(saved_i);
			saved_f = kconfig_values_save(full);
			saved_i = kconfig_values_save(inc);
		}
		/* A checkpoint over steps 20..30 of each 50 in the
		 * incremental context; the full one saves and restores. */
		if (step % 50 == 20) {
			kconfig_values_free(cp_f);
			cp_f = kconfig_values_save(full);
			cp_nested = cp_nested && kconfig_checkpoint(inc) &&
			    !kconfig_checkpoint(inc);
			cp_gen = kconfig_user_generation(inc);
		}
		if (step % 50 == 30 && cp_f != NULL) {
			kconfig_values_restore(full, cp_f);
			kconfig_rollback(inc);
			cp_gen_ok = cp_gen_ok &&
			    kconfig_user_generation(inc) == cp_gen;
			ncp++;
			bad = differ(full, inc);
			if (bad >= 0) {
				snprintf(detail, sizeof detail, "rollback at "
				    "step %d: CONFIG_%s differs", step,
				    kc_sym_name(kconfig_symbol(full, bad)) ?
				    kc_sym_name(kconfig_symbol(full, bad)) :
				    "?");
				break;
			}
		}
		t0 = clock_now();
		if (step % 50 == 40 && saved_f != NULL) {
			kconfig_values_restore(full, saved_f);
			tf += clock_now() - t0;
			t0 = clock_now();
			kconfig_values_restore(inc, saved_i);
			ti += clock_now() - t0;
		} else if (step % 17 == 5) {
			kc_sym_unset(full, sf);
			tf += clock_now() - t0;
			t0 = clock_now();
			kc_sym_unset(inc, si);
			ti += clock_now() - t0;
		} else {
			v = (enum kc_tri)(lcg(&seed) % 3);
			rf = kc_sym_set_tristate(full, sf, v);
			tf += clock_now() - t0;
			t0 = clock_now();
			ri = kc_sym_set_tristate(inc, si, v);
			ti += clock_now() - t0;
			nsets += rf;
			agree_set = agree_set && rf == ri;
		}
		/* Compared after every fourth change only: in between, sets
		 * and the reads they do leave some symbols valid and some
		 * not, the state where invalidation may stop early. */
		if (step % 4 != 3)
			continue;
		t0 = clock_now();
		bad = differ(full, inc);
		tf += clock_now() - t0;	/* both recompute here; mostly full */
		if (bad >= 0)
			snprintf(detail, sizeof detail, "step %d (CONFIG_%s "
			    "changed): CONFIG_%s differs", step,
			    kc_sym_name(sf) ? kc_sym_name(sf) : "?",
			    kc_sym_name(kconfig_symbol(full, bad)) ?
			    kc_sym_name(kconfig_symbol(full, bad)) : "?");
	}
	check("sets-agree", agree_set, "a set was refused in one mode only");
	check("values-agree", bad < 0, bad >= 0 ? detail : "");
	check("sets-happened", nsets > STEPS / 4, "too few settable symbols");
	check("checkpoint-one-at-a-time", cp_nested && ncp >= STEPS / 50,
	    "a second checkpoint was accepted, or none was taken");
	check("rollback-generation", cp_gen_ok,
	    "the user generation after a rollback is not the checkpoint's");
	/* The write of both: byte-identical .config text. */
	{
		char *a = kconfig_write_string(full), *b = kconfig_write_string(inc);

		check("write-agrees", a != NULL && b != NULL && strcmp(a, b) == 0,
		    "written configs differ");
		free(a);
		free(b);
	}
	printf("# %d steps, %d sets taken: full + compare %.2f s, "
	    "incremental sets %.3f s\n", STEPS, nsets, tf, ti);
	kconfig_values_free(saved_f);
	kconfig_values_free(saved_i);
	kconfig_values_free(cp_f);
	kconfig_free(full);
	kconfig_free(inc);
	strv_free(envp);
	return unit_failures != 0;
}
