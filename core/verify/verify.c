/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.c - the tailoring loop: build the trimmed configuration, boot it
 * on the bundle's machine, judge the workload's steps, and when a step
 * fails find the trims that broke it and put them back.
 *
 * The search is adaptive group testing, as ktest.pl's config_bisect and
 * syzkaller's kconfig minimizer do it: the trims are ordered by subsystem
 * (the directory of their Kconfig file), a probe trims a prefix of that
 * list, and a binary search over subsystem boundaries, then over the
 * options of the guilty subsystem, finds the first trim whose prefix
 * fails. That one is put back and the search goes on from the last
 * prefix known to pass, until the trims left pass together. It assumes
 * monotony (trimming more never repairs a step), which is what makes
 * log2(n) probes per culprit enough. Each probe is a configuration the
 * engine computed from the untrimmed one (so it is one conf accepts:
 * dependencies follow), built incrementally in the same O= directory.
 * Probes that compute to the same configuration share a verdict.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "../zstream.h"
#include "verify-informed.h"
#include "verify.h"

/* A probe's verdict, remembered by the hash of its configuration. */
struct verify_memo {
	uint64_t	 hash;
	bool		 pass;
	char		*step;
};

struct verify_state {
	struct verify	*v;
	struct kc_values *base;		/* the untrimmed values */
	struct verify_memo *memo;
	size_t		 nmemo;
	size_t		*order;		/* trims in subsystem order */
	struct build	 b;
	char		*bootdir;
	char		*kvm_memo;	/* work/kvm-failed (vm.c) */
	char		*initrd;
	char		*probe_config;	/* the config file of a probe */
	double		 probe_t0;	/* when the current probe began */
	/* The estimate the next probe announces: the fewest probes after
	 * it for the current failure (-1: none), set by whoever asks for
	 * it; and the later probes' times, for the time left. */
	int		 left;
	double		 later_sum;
	int		 nlater;
	char		*base_config;	/* the untrimmed config, plain */
	/* int, hex and string values the trimmed config changes: every
	 * probe takes them (they are not trims to search over). */
	struct kc_symbol **strsyms;
	char		**strvals;
	size_t		 nstr;
	/* bool/tristate values the trimmed config raises (a choice's other
	 * value selected, an option turned on): every probe takes them. */
	struct kc_symbol **raise;
	unsigned char	*raise_to;
	size_t		 nraise;
};

/* Tell the caller. */
static void
verify_emit(struct verify *v, struct verify_event *e)
{
	e->probe = v->probes;
	if (v->event != NULL)
		v->event(v->arg, e);
}

/* A remark. */
static void
verify_note(struct verify *v, const char *detail)
{
	struct verify_event e = { .kind = VEV_NOTE, .detail = detail };

	verify_emit(v, &e);
}

/* Read a config file that may be xz or gz (a bundle's config.xz) into a
 * plain file at out; -1 with *cause. */
static int
verify_plain_config(const char *in, const char *out, char **cause)
{
	void	*buf;
	size_t	 len;

	if (zstream_decode_file(in, &buf, &len, cause) != 0)
		return -1;
	if (file_write_atomic(out, buf, len, 0644, 0, cause) != 0) {
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

/* Every bool/tristate value of the configuration now (kc_sym_index
 * order). */
static unsigned char *
verify_values(struct kconfig *k)
{
	int		 i, n = kconfig_nsymbols(k);
	unsigned char	*t = xcalloc((size_t)n + 1, 1);
	struct kc_symbol *sym;

	for (i = 0; i < n; i++) {
		sym = kconfig_symbol(k, i);
		if (kc_sym_type(sym) == KC_BOOL ||
		    kc_sym_type(sym) == KC_TRISTATE)
			t[i] = (unsigned char)kc_sym_tristate(k, sym);
	}
	return t;
}

/* The directory of a symbol's Kconfig file: its subsystem here
 * (malloc'd). */
static char *
verify_subsys(struct kc_symbol *sym)
{
	struct kc_menu	*m = kc_sym_menu(sym);
	const char	*f = m != NULL ? kc_menu_file(m) : NULL;
	const char	*slash;

	if (f == NULL || (slash = strrchr(f, '/')) == NULL)
		return xstrdup("(top)");
	return xstrndup(f, (size_t)(slash - f));
}

/*
 * The int, hex and string values of the configuration now: with trimmed,
 * remember them all; else (the untrimmed config) keep only those that
 * differ, which every probe then sets.
 */
static void
verify_save_strings(struct verify_state *st, bool trimmed)
{
	struct kconfig	*k = st->v->k;
	int		 i, n = kconfig_nsymbols(k);
	size_t		 j = 0, out = 0;

	for (i = 0; i < n; i++) {
		struct kc_symbol *sym = kconfig_symbol(k, i);
		enum kc_type	  t = kc_sym_type(sym);
		const char	 *val;

		if (t != KC_INT && t != KC_HEX && t != KC_STRING)
			continue;
		val = kc_sym_string(k, sym);
		if (trimmed) {
			st->strsyms = xrealloc(st->strsyms, (st->nstr + 1) *
			    sizeof *st->strsyms);
			st->strvals = xrealloc(st->strvals, (st->nstr + 1) *
			    sizeof *st->strvals);
			st->strsyms[st->nstr] = sym;
			st->strvals[st->nstr++] = xstrdup(val != NULL ? val : "");
			continue;
		}
		/* Same walk order as the trimmed pass: entry j is sym. */
		if (j < st->nstr && st->strsyms[j] == sym) {
			if (strcmp(st->strvals[j], val != NULL ? val : "") != 0 &&
			    kc_sym_is_written(k, sym)) {
				st->strsyms[out] = sym;
				st->strvals[out++] = st->strvals[j];
			} else
				free(st->strvals[j]);
			j++;
		}
	}
	if (!trimmed)
		st->nstr = out;
}

/* Order trims by subsystem, then by name (stable, reproducible). */
static int
verify_trim_cmp(const void *a, const void *b)
{
	const struct verify_trim *x = a, *y = b;
	int c = strcmp(x->subsys, y->subsys);

	return c != 0 ? c : strcmp(x->name, y->name);
}

/*
 * The trims: every bool/tristate whose value in the trimmed config is
 * lower than in the untrimmed one, plus --try's. Values are computed by
 * the engine from each file. -1 with *cause.
 */
static int
verify_find_trims(struct verify_state *st, char **cause)
{
	struct verify	*v = st->v;
	unsigned char	*bt, *tt;
	struct kc_symbol *sym;
	char		*why = NULL;
	int		 i, n = kconfig_nsymbols(v->k);
	size_t		 j;

	if (kconfig_read(v->k, v->trimmed, &why) != 0) {
		*cause = why != NULL && strstr(why, v->trimmed) != NULL ?
		    xstrdup(why) : xasprintf("%s: %s", v->trimmed,
		    why != NULL ? why : "cannot read");
		free(why);
		return -1;
	}
	kconfig_recalc(v->k);
	tt = verify_values(v->k);
	verify_save_strings(st, true);
	if (kconfig_read(v->k, st->base_config, &why) != 0) {
		*cause = xasprintf("%s: %s", v->base,
		    why != NULL ? why : "cannot read");
		free(why);
		free(tt);
		return -1;
	}
	kconfig_recalc(v->k);
	bt = verify_values(v->k);
	verify_save_strings(st, false);
	st->base = kconfig_values_save(v->k);
	v->trims = xcalloc((size_t)n + v->ntry + 1, sizeof *v->trims);
	for (i = 0; i < n; i++) {
		/* A choice moves with its values (and has no name): the
		 * values are what probes set. */
		sym = kconfig_symbol(v->k, i);
		if (kc_sym_is_choice(sym) || kc_sym_name(sym) == NULL)
			continue;
		if (tt[i] > bt[i]) {
			st->raise = xrealloc(st->raise, (st->nraise + 1) *
			    sizeof *st->raise);
			st->raise_to = xrealloc(st->raise_to, st->nraise + 1);
			st->raise[st->nraise] = kconfig_symbol(v->k, i);
			st->raise_to[st->nraise++] = tt[i];
		}
		if (tt[i] >= bt[i])
			continue;
		sym = kconfig_symbol(v->k, i);
		v->trims[v->ntrims].sym = sym;
		v->trims[v->ntrims].name = kc_sym_name(sym);
		v->trims[v->ntrims].from = bt[i];
		v->trims[v->ntrims].to = tt[i];
		v->ntrims++;
	}
	for (j = 0; j < v->ntry; j++) {
		const char *name = v->try_syms[j];

		if (strncmp(name, "CONFIG_", 7) == 0)
			name += 7;
		if ((sym = kconfig_find(v->k, name)) == NULL ||
		    (kc_sym_type(sym) != KC_BOOL &&
		    kc_sym_type(sym) != KC_TRISTATE)) {
			*cause = xasprintf("--try %s: no such bool or "
			    "tristate option in this tree", v->try_syms[j]);
			goto fail;
		}
		i = kc_sym_index(sym);
		if (bt[i] == KC_NO || tt[i] == KC_NO)
			continue;	/* already off */
		v->trims[v->ntrims].sym = sym;
		v->trims[v->ntrims].name = kc_sym_name(sym);
		v->trims[v->ntrims].from = bt[i];
		v->trims[v->ntrims].to = KC_NO;
		v->trims[v->ntrims].tried = true;
		v->ntrims++;
	}
	for (j = 0; j < v->ntrims; j++)
		v->trims[j].subsys = verify_subsys(v->trims[j].sym);
	qsort(v->trims, v->ntrims, sizeof *v->trims, verify_trim_cmp);
	free(bt);
	free(tt);
	return 0;
fail:
	free(bt);
	free(tt);
	return -1;
}

/*
 * The configuration with the trims selected by want[] (indexes into
 * v->trims) applied to the untrimmed values, as text. Setting an option
 * to n fails while something still selects it; the passes repeat until
 * nothing more changes, so that trimming the selector lets it go.
 */
static char *
verify_compose(struct verify_state *st, const bool *want)
{
	struct verify	*v = st->v;
	size_t		 i;
	bool		 progress = true;
	int		 pass;

	kconfig_values_restore(v->k, st->base);
	for (i = 0; i < st->nstr; i++)
		kc_sym_set_string(v->k, st->strsyms[i], st->strvals[i]);
	for (i = 0; i < st->nraise; i++)
		kc_sym_set_tristate(v->k, st->raise[i],
		    (enum kc_tri)st->raise_to[i]);
	kconfig_recalc(v->k);
	for (pass = 0; pass < 8 && progress; pass++) {
		progress = false;
		for (i = 0; i < v->ntrims; i++) {
			struct kc_symbol *sym = v->trims[i].sym;
			enum kc_tri to = (enum kc_tri)v->trims[i].to;

			if (!want[i] || kc_sym_tristate(v->k, sym) <= to)
				continue;
			if (kc_sym_set_tristate(v->k, sym, to))
				progress = true;
		}
		kconfig_recalc(v->k);
	}
	return kconfig_write_string(v->k);
}

/*
 * Debug information off in the config k holds: DEBUG_INFO_NONE, the
 * choice value, from 5.18 on; DEBUG_INFO=n before. False when it is off
 * already or the engine refuses.
 */
static bool
verify_debug_off(struct kconfig *k)
{
	struct kc_symbol *s;

	if ((s = kconfig_find(k, "DEBUG_INFO_NONE")) != NULL &&
	    kc_sym_is_choice_value(s))
		return kc_sym_tristate(k, s) != KC_YES &&
		    kc_sym_set_tristate(k, s, KC_YES);
	if ((s = kconfig_find(k, "DEBUG_INFO")) != NULL &&
	    kc_sym_tristate(k, s) != KC_NO)
		return kc_sym_set_tristate(k, s, KC_NO);
	return false;
}

/* MODVERSIONS=n in k; false when it is off already or cannot be. */
static bool
verify_modversions_off(struct kconfig *k)
{
	struct kc_symbol *s;

	if ((s = kconfig_find(k, "MODVERSIONS")) == NULL ||
	    kc_sym_tristate(k, s) == KC_NO)
		return false;
	return kc_sym_set_tristate(k, s, KC_NO);
}

/*
 * What a probe builds, once verify_compose() has computed the config: the
 * same without debug information and without module versions, unless
 * v->as_is. Neither changes the code gcc generates, and the trims are
 * about code; both cost build time:
 * - DWARF and BTF: 24 to 35 % per object in the compiles timed, and
 *   pahole over vmlinux and every module. BTF alone adds
 *   /sys/kernel/btf, which the report names as not tested.
 * - MODVERSIONS: every object that exports a symbol is preprocessed a
 *   second time and parsed by genksyms for its CRCs (44 % of the objects
 *   of Debian's trimmed 6.1 config; +38 % on those in the compiles
 *   timed). Kernel and modules are built together, so the CRCs can only
 *   agree; their check at module load is what goes untested.
 * Through the engine, so that what depends on them follows and the
 * kernel's conf agrees. NULL when there is nothing to switch off or the
 * config is to be built as it is.
 */
static char *
verify_build_variant(struct verify_state *st)
{
	struct verify	*v = st->v;
	bool		 debug, modversions;

	if (v->as_is)
		return NULL;
	/* Values are read lazily after a set: one recalc for both. */
	debug = verify_debug_off(v->k);
	modversions = verify_modversions_off(v->k);
	if (!debug && !modversions)
		return NULL;
	kconfig_recalc(v->k);
	v->built_without_debug |= debug;
	v->built_without_modversions |= modversions;
	return kconfig_write_string(v->k);
}

/* A phase of the current probe begins: its name and the seconds since
 * the probe began. */
static void
verify_phase(struct verify_state *st, const char *phase)
{
	struct verify_event e = { .kind = VEV_PHASE, .phase = phase };

	e.seconds = clock_now() - st->probe_t0;
	verify_emit(st->v, &e);
}

/* Build progress, handed on. */
static void
verify_build_progress(void *arg, const char *phase, long done, long total)
{
	struct verify_state	*st = arg;
	struct verify_event	 e = { .kind = VEV_BUILD };

	if (strcmp(phase, "build") != 0 || (done <= 0 && total <= 0)) {
		verify_phase(st, phase);
		return;
	}
	e.done = done;
	e.total = total;
	verify_emit(st->v, &e);
}

/* Build log lines, handed on. */
static void
verify_build_log(void *arg, const char *line)
{
	struct verify_state *st = arg;

	if (st->v->log != NULL)
		st->v->log(st->v->arg, line);
}

/* Boot progress: "boot", "step NAME", "done". */
static void
verify_boot_progress(void *arg, const char *event)
{
	struct verify_state	*st = arg;
	struct verify_event	 e = { .kind = VEV_STEP };

	if (strncmp(event, "step ", 5) != 0) {
		verify_phase(st, event);
		return;
	}
	e.name = event + 5;
	verify_emit(st->v, &e);
}

/* Compare what the guest had loaded and bound at the end with the
 * bundle's modules and drivers files (when the bundle has them). */
static void verify_compare(struct verify *, const struct vm_result *);
static void verify_measure_baseline(struct verify_state *, const char *,
    const char *, const char *);

/* The first failing step of a boot, or NULL when everything passed. */
static const char *
verify_first_failure(const struct verify *v, const struct vm_result *r)
{
	size_t i;

	if (!r->booted)
		return "boot";
	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i].state != VM_STEP_PASS)
			return r->steps[i].name;
	if (!r->finished)
		return r->timed_out ? "end (timed out)" : "end";
	if (v->nlost > 0)
		return "devices";
	return NULL;
}

/* Report each step's end. */
static void
verify_emit_steps(struct verify *v, const struct vm_result *r)
{
	size_t i;

	for (i = 0; i < r->nsteps; i++) {
		struct verify_event e = { .kind = VEV_STEP };
		const struct vm_step *s = &r->steps[i];

		e.name = s->name;
		e.rc = s->rc;
		e.seconds = s->seconds;
		e.state = s->state == VM_STEP_PASS ? "pass" :
		    s->state == VM_STEP_FAIL ? "fail" : "not-reached";
		if (s->state != VM_STEP_PASS) {
			e.log = s->log;
			e.nlog = s->nlog;
		}
		verify_emit(v, &e);
	}
	if (v->has_drivers && r->finished) {
		struct verify_event e = { .kind = VEV_STEP };

		e.name = "devices";
		e.state = v->nlost == 0 ? "pass" : "fail";
		e.log = v->lost;
		e.nlog = v->nlost;
		verify_emit(v, &e);
	}
}

/*
 * Boot a kernel on the bundle's machine with the workload: the initramfs
 * (modules from staging/lib/modules/release), then QEMU; r filled. QEMU
 * failing before the guest printed anything stops everything (no trim
 * can make QEMU refuse to start: nothing is bisected for it). -1 with
 * *cause.
 */
static int
verify_boot(struct verify_state *st, const char *kernel, const char *initrd,
    const char *staging, const char *release, struct vm_result *r,
    char **cause)
{
	struct verify		*v = st->v;
	struct initramfs	 ir;
	struct vm_boot		 vb;
	char			*builtin;
	int			 rc;

	memset(&ir, 0, sizeof ir);
	ir.out = initrd;
	ir.staging = staging;
	ir.release = release;
	ir.workload = v->workload;
	ir.scratch = st->bootdir;
	/* Built without loadable modules: what is built in, for the
	 * workload's modprobe (verify-init.sh's stand-in). */
	builtin = staging == NULL && st->b.dir != NULL ?
	    xasprintf("%s/modules.builtin", st->b.dir) : NULL;
	if (builtin != NULL && access(builtin, R_OK) == 0)
		ir.builtin = builtin;
	rc = initramfs_build(&ir, cause);
	free(builtin);
	if (rc != 0)
		return -1;
	memset(&vb, 0, sizeof vb);
	vb.spec = v->spec;
	vb.workload = v->workload;
	vb.qemu = v->qemu;
	vb.kernel = kernel;
	vb.initrd = initrd;
	vb.dir = st->bootdir;
	vb.timeout = v->timeout;
	/* One KVM failure is enough: later boots are under TCG. */
	vb.no_kvm = v->no_kvm || v->kvm_error != NULL;
	vb.kvm_memo = st->kvm_memo;
	vb.cancel = v->cancel;
	vb.progress = verify_boot_progress;
	vb.arg = st;
	if (vm_run(&vb, r, cause) != 0)
		return -1;
	if (r->kvm_error != NULL && v->kvm_error == NULL)
		v->kvm_error = xstrdup(r->kvm_error);
	if (r->host_error != NULL) {
		*cause = xasprintf("QEMU could not run this machine: %s%s",
		    r->host_error, v->kvm_error != NULL ? " (under TCG, "
		    "after KVM failed)" : "");
		return -1;
	}
	return 0;
}

/*
 * One probe: write the configuration, let the kernel's conf check it,
 * build, pack, boot, judge. 1 pass, 0 fail (*step: the first failing
 * step, malloc'd), -1 with *cause when the probe could not be run.
 */
static int
verify_probe(struct verify_state *st, const char *config, size_t ntrimmed,
    char **step, char **cause)
{
	struct verify		*v = st->v;
	struct verify_event	 e = { .kind = VEV_PROBE };
	const char		*first;
	bool			 changed = false;
	double			 t0 = clock_now();

	st->probe_t0 = t0;
	v->probes++;
	e.n = ntrimmed;
	e.ntrims = v->ntrims;
	e.left = v->probes == 1 ? -1 : st->left;
	/* Later probes rebuild what changed (ccache): the first, cold one
	 * says nothing of them; until one ran, the first is the bound. */
	if (e.left > 0)
		e.eta = e.left * (st->nlater > 0 ? st->later_sum / st->nlater :
		    v->first_probe);
	verify_emit(v, &e);
	st->left = -1;
	if (file_write_atomic(st->probe_config, config, strlen(config), 0644,
	    0, cause) != 0)
		return -1;
	if (build_config(&st->b, st->probe_config, &changed, cause) != 0)
		return -1;
	if (changed)
		verify_note(v, "the kernel's conf changed the probe's config "
		    "(kctui's engine and conf disagree): built as conf wrote "
		    "it");
	free(v->build_error);
	v->build_error = NULL;
	if (build_kernel(&st->b, cause) != 0) {
		/* A trim can break the build as well as the boot (a
		 * missing dependency in Kconfig): that is a failing step
		 * the search can fill back, unless we were stopped. */
		if (v->cancel != NULL && *v->cancel)
			return -1;
		e = (struct verify_event){ .kind = VEV_NOTE };
		e.detail = *cause;
		verify_emit(v, &e);
		free(v->build_error);
		v->build_error = *cause;
		*cause = NULL;
		e = (struct verify_event){ .kind = VEV_VERDICT };
		e.state = "fail";
		e.name = "build";
		e.seconds = clock_now() - t0;
		verify_emit(v, &e);
		*step = xstrdup("build");
		return 0;
	}
	verify_phase(st, "initramfs");
	vm_result_free(&v->result);
	if (verify_boot(st, st->b.bzimage, st->initrd, st->b.staging,
	    st->b.release, &v->result, cause) != 0)
		return -1;
	if (v->cancel != NULL && *v->cancel) {
		*cause = xstrdup("cancelled");
		return -1;
	}
	verify_compare(v, &v->result);
	verify_emit_steps(v, &v->result);
	first = verify_first_failure(v, &v->result);
	e = (struct verify_event){ .kind = VEV_VERDICT };
	e.state = first == NULL ? "pass" : "fail";
	e.name = first;
	e.seconds = clock_now() - t0;
	verify_emit(v, &e);
	if (v->probes == 1)
		v->first_probe = e.seconds;
	else {
		if (e.seconds > v->later_probe_max)
			v->later_probe_max = e.seconds;
		st->later_sum += e.seconds;
		st->nlater++;
	}
	if (first == NULL)
		return 1;
	*step = xstrdup(first);
	return 0;
}

/* A probe by the trims selected in want[], answered from the memo when
 * the engine computes a configuration already judged. */
static int
verify_try(struct verify_state *st, const bool *want, char **step,
    char **cause)
{
	struct verify	*v = st->v;
	char		*config = verify_compose(st, want), *build;
	uint64_t	 h = hash_buf64(config, strlen(config));
	size_t		 i, n = 0;
	int		 r;

	for (i = 0; i < v->ntrims; i++)
		n += want[i];
	for (i = 0; i < st->nmemo; i++) {
		if (st->memo[i].hash != h)
			continue;
		free(config);
		v->cached++;
		if (st->memo[i].pass)
			return 1;
		*step = xstrdup(st->memo[i].step);
		return 0;
	}
	build = verify_build_variant(st);
	r = verify_probe(st, build != NULL ? build : config, n, step, cause);
	free(build);
	free(v->final);
	v->final = config;
	if (r < 0)
		return -1;
	free(v->failure);
	v->failure = r == 1 ? NULL : xstrdup(*step);
	st->memo = xrealloc(st->memo, (st->nmemo + 1) * sizeof *st->memo);
	st->memo[st->nmemo].hash = h;
	st->memo[st->nmemo].pass = r == 1;
	st->memo[st->nmemo].step = r == 1 ? NULL : xstrdup(*step);
	st->nmemo++;
	return r;
}

/* want[] for "trim the first k of order[], not the kept ones". */
static void
verify_prefix(struct verify_state *st, const size_t *live, size_t nlive,
    size_t k, bool *want)
{
	size_t i;

	memset(want, 0, st->v->ntrims * sizeof *want);
	for (i = 0; i < k && i < nlive; i++)
		want[live[i]] = true;
}

/* The number of halvings that bring n candidates down to one. */
static int
verify_log2(size_t n)
{
	int	k = 0;

	while (n > 1) {
		n = (n + 1) / 2;
		k++;
	}
	return k;
}

/*
 * Find the first trim of live[] (indexes of trims not kept, in subsystem
 * order) whose prefix fails, knowing that the prefix of length lo passes
 * and the whole list fails: first over subsystem boundaries, then inside
 * the guilty subsystem. Returns its position in live[], or -1 with
 * *cause; *step is the step that prefix failed.
 */
static long
verify_bisect(struct verify_state *st, const size_t *live, size_t nlive,
    size_t lo, char **step, char **cause)
{
	struct verify	*v = st->v;
	bool		*want = xcalloc(v->ntrims + 1, sizeof *want);
	size_t		*bounds = xcalloc(nlive + 2, sizeof *bounds);
	size_t		 nb = 0, i, hi = nlive, blo, bhi, mid;
	char		*s = NULL;
	int		 r;

	/* Subsystem boundaries after lo: prefix lengths that end a
	 * subsystem. */
	for (i = lo + 1; i <= nlive; i++)
		if (i == nlive || strcmp(v->trims[live[i]].subsys,
		    v->trims[live[i - 1]].subsys) != 0)
			bounds[nb++] = i;
	/* Over boundaries: the first boundary whose prefix fails. */
	blo = 0;
	bhi = nb - 1;	/* bounds[nb - 1] == nlive fails */
	while (blo < bhi) {
		mid = (blo + bhi) / 2;
		/* the rest of this halving, then (at least) the probe of
		 * the trims left once the culprit is back */
		st->left = verify_log2(bhi - blo);
		verify_prefix(st, live, nlive, bounds[mid], want);
		if ((r = verify_try(st, want, &s, cause)) < 0)
			goto fail;
		if (r == 0) {
			bhi = mid;
			free(*step);
			*step = s;
			s = NULL;
		} else
			blo = mid + 1;
	}
	hi = bounds[bhi];
	if (bhi > 0)
		lo = bounds[bhi - 1];
	/* Inside the subsystem: the first option whose prefix fails. */
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		st->left = verify_log2(hi - lo);
		verify_prefix(st, live, nlive, mid, want);
		if ((r = verify_try(st, want, &s, cause)) < 0)
			goto fail;
		if (r == 0) {
			hi = mid;
			free(*step);
			*step = s;
			s = NULL;
		} else
			lo = mid;
	}
	free(want);
	free(bounds);
	return (long)hi - 1;
fail:
	free(want);
	free(bounds);
	return -1;
}

/* Put trim i back, needed by step. */
static void
verify_keep(struct verify *v, size_t i, const char *step)
{
	struct verify_event e = { .kind = VEV_KEEP };

	v->trims[i].kept = true;
	free(v->trims[i].step);
	v->trims[i].step = xstrdup(step != NULL ? step : "boot");
	e.name = v->trims[i].name;
	e.state = v->trims[i].step;
	verify_emit(v, &e);
}

static char *verify_bundle_file(const struct verify *, const char *);

/* What informed fill-back is putting back for one named module. */
struct verify_informed_ctx {
	struct verify	*v;
	const char	*why;
	int		 kept;
};

/* A symbol that builds a named module: put back if it is a trim. */
static void
verify_informed_sym(void *arg, const char *sym)
{
	struct verify_informed_ctx	*c = arg;
	size_t				 i;

	for (i = 0; i < c->v->ntrims; i++) {
		if (c->v->trims[i].kept || strcmp(c->v->trims[i].name,
		    sym) != 0)
			continue;
		verify_keep(c->v, i, c->why);
		c->kept++;
	}
}

/*
 * Informed fill-back: put back the trims that build what the last boot
 * named (verify-informed.c), each recorded with the message that named
 * it. The number put back.
 */
static int
verify_informed_keep(struct verify_state *st, const char *step)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	struct verify_named		 nm;
	char				*console, *aliases, *why, *note;
	size_t				 i;

	memset(&nm, 0, sizeof nm);
	if (v->result.console != NULL &&
	    (console = file_read_all(v->result.console, NULL)) != NULL) {
		verify_named_scan(&nm, console);
		free(console);
	}
	for (i = 0; i < v->nlost; i++)
		verify_named_lost(&nm, v->lost[i]);
	aliases = verify_bundle_file(v, "modules.alias");
	memset(&c, 0, sizeof c);
	c.v = v;
	for (i = 0; i < nm.n; i++) {
		/* "STEP: MESSAGE", as long as a table cell can bear */
		why = xasprintf("%s: %.160s", step != NULL ? step : "boot",
		    nm.v[i].why);
		why[strcspn(why, "\r")] = '\0';
		c.why = why;
		(void)verify_named_options(v->kb, aliases, nm.v[i].name,
		    verify_informed_sym, &c);
		free(why);
	}
	if (c.kept > 0) {
		note = xasprintf("%d option%s put back because the boot named "
		    "them (%zu module%s named)", c.kept, c.kept == 1 ? "" :
		    "s", nm.n, nm.n == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	v->informed += c.kept;
	free(aliases);
	verify_named_free(&nm);
	return c.kept;
}

/*
 * A twin's devices with no twin: put back, before the first probe, the
 * trims that build their modules (the Kbuild index through the bundle's
 * modules.alias), each with the device as its reason. No boot here can
 * say whether a trim of them is harmless, so none is made.
 */
static void
verify_keep_nontwin(struct verify_state *st)
{
	struct verify			*v = st->v;
	struct verify_informed_ctx	 c;
	char				*aliases, *why, *note;
	size_t				 i;

	if (v->nnontwin == 0 || v->kb == NULL)
		return;
	aliases = verify_bundle_file(v, "modules.alias");
	memset(&c, 0, sizeof c);
	c.v = v;
	for (i = 0; i < v->nnontwin; i++) {
		if (v->nontwin[i].module == NULL)
			continue;
		why = xasprintf("not verifiable under QEMU: %s %s %s",
		    v->nontwin[i].bus, v->nontwin[i].driver,
		    v->nontwin[i].path);
		c.why = why;
		(void)verify_named_options(v->kb, aliases,
		    v->nontwin[i].module, verify_informed_sym, &c);
		free(why);
	}
	if (c.kept > 0) {
		note = xasprintf("%d option%s kept: they build drivers of "
		    "devices the twin machine does not have", c.kept,
		    c.kept == 1 ? "" : "s");
		verify_note(v, note);
		free(note);
	}
	free(aliases);
}

/*
 * The fill-back loop: while the trims left fail, put back what the failed
 * boot names (informed fill-back: one probe for all of them), and only
 * when it names nothing, find one culprit by bisection and put it back.
 * lo, the length of the prefix known to pass, carries over: taking
 * culprits out of the list leaves the part of that prefix that remains.
 */
static int
verify_fill_back(struct verify_state *st, const char *first_step,
    char **cause)
{
	struct verify	*v = st->v;
	size_t		*live = xcalloc(v->ntrims + 1, sizeof *live);
	bool		*want = xcalloc(v->ntrims + 1, sizeof *want);
	size_t		 nlive, i, lo = 0;
	char		*step = xstrdup(first_step), *s = NULL;
	long		 c;
	int		 r = 0;

	for (;;) {
		nlive = 0;
		for (i = 0; i < v->ntrims; i++)
			if (!v->trims[i].kept)
				live[nlive++] = i;
		if (nlive == 0) {
			/* Everything is back and it still fails: the
			 * untrimmed config fails this step too. */
			v->passed = false;
			break;
		}
		if (v->kb != NULL && verify_informed_keep(st, step) > 0) {
			for (i = 0, c = 0; i < lo; i++)
				c += !v->trims[live[i]].kept;
			lo = (size_t)c;
			goto probe;
		}
		c = verify_bisect(st, live, nlive, lo, &step, cause);
		if (c < 0) {
			r = -1;
			break;
		}
		verify_keep(v, live[c], step);
		lo = (size_t)c;
probe:
		/* The trims left, all of them: if they pass, that was the
		 * last probe. */
		st->left = 0;
		for (i = 0; i < v->ntrims; i++)
			want[i] = !v->trims[i].kept;
		if ((r = verify_try(st, want, &s, cause)) < 0)
			break;
		if (r == 1) {
			v->passed = true;
			r = 0;
			break;
		}
		free(step);
		step = s;
		s = NULL;
	}
	free(step);
	free(s);
	free(live);
	free(want);
	return r;
}

/* Lines of a bundle file (plain, .xz or .gz), or NULL when absent. */
static char *
verify_bundle_file(const struct verify *v, const char *name)
{
	return zstream_bundle_text(v->bundle, name);
}

/* Add s to a list. */
static void
verify_list_add(char ***list, size_t *n, char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = s;
}

/* The bundle's modalias file as path -> modalias in m; keys and values
 * point into the returned text, which outlives the map (NULL: the bundle
 * has none, m empty). */
static char *
verify_bundle_aliases(struct verify *v, struct strmap *m)
{
	char	*text, *line, *save = NULL, *sp;

	strmap_init(m);
	if ((text = verify_bundle_file(v, "modalias")) == NULL)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((sp = strchr(line, ' ')) == NULL || sp[1] == '\0')
			continue;
		*sp = '\0';
		if (strmap_get(m, line, sp - line) == NULL)
			strmap_set(m, line, sp - line, sp + 1);
	}
	return text;
}

/* Whether a bound device of the bundle has no twin (left out). */
static bool
verify_is_nontwin(const struct verify *v, const char *bus,
    const char *drv, const char *dev)
{
	size_t	i;

	for (i = 0; i < v->nnontwin; i++) {
		if (strcmp(v->nontwin[i].path, dev) == 0 &&
		    strcmp(v->nontwin[i].bus, bus) == 0 &&
		    strcmp(v->nontwin[i].driver, drv) == 0)
			return true;
	}
	return false;
}

/* A twin gives some devices with another, maybe fewer times than the
 * bundle bound them: such a device is there when any guest device of
 * its bus is bound to its driver. */
static void
verify_match_loose(const struct verify *v, const struct vm_driver *want,
    size_t nwant, const struct vm_result *r, bool *lost)
{
	size_t	i, j, k;

	for (i = 0; i < nwant; i++) {
		if (!lost[i])
			continue;
		for (j = 0; j < v->nloose; j++) {
			if (strcmp(v->loose[j].device, want[i].device) != 0 ||
			    strcmp(v->loose[j].driver, want[i].driver) != 0)
				continue;
			for (k = 0; k < r->ndrivers; k++) {
				if (strcmp(r->drivers[k].bus, want[i].bus) == 0 &&
				    strcmp(r->drivers[k].driver,
				    want[i].driver) == 0)
					lost[i] = false;
			}
			break;
		}
	}
}

/* Compare the guest's modules and bound drivers with the bundle's: a
 * device the recorded machine had bound and this kernel left without
 * its driver is a lost device (the "devices" check); one this machine
 * does not have at all is absent, its difference, reported apart. */
static void
verify_compare(struct verify *v, const struct vm_result *r)
{
	struct vm_driver	*want = NULL;
	char			*text, *line, *save = NULL;
	struct strmap		 aliases;
	size_t			 i, nwant = 0;
	bool			*lost, *absent;
	char			*s, *atext;

	for (i = 0; i < v->nlost; i++)
		free(v->lost[i]);
	for (i = 0; i < v->nabsent; i++)
		free(v->absent[i]);
	for (i = 0; i < v->nmissing; i++)
		free(v->missing[i]);
	v->nlost = v->nabsent = v->nmissing = 0;
	if (!r->finished)
		return;
	if ((text = verify_bundle_file(v, "modules")) != NULL) {
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			char name[256];

			if (sscanf(line, "%255s", name) != 1 ||
			    strcmp(name, "Module") == 0)
				continue;
			for (i = 0; i < r->nmodules; i++)
				if (strcmp(r->modules[i], name) == 0)
					break;
			if (i == r->nmodules)
				verify_list_add(&v->missing, &v->nmissing,
				    xstrdup(name));
		}
		free(text);
	}
	if ((text = verify_bundle_file(v, "drivers")) != NULL) {
		v->has_drivers = true;
		save = NULL;
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			char *bus, *drv, *dev;

			if (vm_driver_split(line, &bus, &drv, &dev) != 0 ||
			    verify_is_nontwin(v, bus, drv, dev))
				continue;
			want = xrealloc(want, (nwant + 1) * sizeof *want);
			want[nwant].bus = bus;
			want[nwant].driver = drv;
			want[nwant].device = dev;
			nwant++;
		}
		lost = xcalloc(nwant + 1, sizeof *lost);
		absent = xcalloc(nwant + 1, sizeof *absent);
		verify_match_devices(want, nwant, r->drivers, r->ndrivers,
		    lost);
		verify_match_loose(v, want, nwant, r, lost);
		atext = verify_bundle_aliases(v, &aliases);
		verify_absent_devices(want, nwant, lost, &aliases, r->devices,
		    r->ndevices, r->drivers, r->ndrivers, absent);
		for (i = 0; i < nwant; i++) {
			if (!lost[i])
				continue;
			s = xasprintf("%s %s %s", want[i].bus, want[i].driver,
			    want[i].device);
			if (absent[i])
				verify_list_add(&v->absent, &v->nabsent, s);
			else
				verify_list_add(&v->lost, &v->nlost, s);
		}
		strmap_free(&aliases);
		free(atext);
		free(absent);
		free(lost);
		free(want);
		free(text);
	}
}

/*
 * The bundle's machine fits this host, before anything is built: its
 * memory leaves the host 1 GiB (QEMU itself, the build's make), and its
 * disks fit the free space of the work directory (the images are sparse,
 * but mkfs and the guest's writes fill them). A bundle is somebody
 * else's file: "memory 1048576" or "disk big 8388607T" must not get as
 * far as QEMU after a half-hour build.
 */
static int
verify_host_fits(const struct verify *v, char **cause)
{
	struct statvfs	 fs;
	uint64_t	 disks = 0, host_mib, avail;
	long		 pages, psize;
	size_t		 i;
	char		*dir, *slash;
	int		 rc;

	pages = sysconf(_SC_PHYS_PAGES);
	psize = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psize > 0) {
		host_mib = (uint64_t)pages * (uint64_t)psize >> 20;
		if ((uint64_t)v->spec->memory + 1024 > host_mib) {
			*cause = xasprintf("%s: 'memory %d' (MiB) does not fit "
			    "this host's %" PRIu64 " MiB with 1 GiB to spare; "
			    "lower it in the vm file", v->spec->path,
			    v->spec->memory, host_mib);
			return -1;
		}
	}
	for (i = 0; i < v->spec->ndisks; i++)
		disks += v->spec->disks[i].size;
	/* The work directory may not exist yet: its nearest ancestor that
	 * does is on the same file system, or the mkdir will say why. */
	dir = xstrdup(v->work);
	while ((rc = statvfs(dir, &fs)) != 0 &&
	    (slash = strrchr(dir, '/')) != NULL) {
		if (slash == dir) {
			rc = statvfs("/", &fs);
			break;
		}
		*slash = '\0';
	}
	free(dir);
	if (rc == 0) {
		avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		if (disks > avail) {
			*cause = xasprintf("%s: its disks need %" PRIu64 " MiB "
			    "and %s has %" PRIu64 " MiB free", v->spec->path,
			    disks >> 20, v->work, avail >> 20);
			return -1;
		}
	}
	return 0;
}

/* Set up the state: directories, the build, the trims. */
static int
verify_setup(struct verify_state *st, char **cause)
{
	struct verify	*v = st->v;
	char		*dir, *qemu, *why = NULL;

	if (v->workload == NULL || v->workload->nsteps == 0) {
		*cause = xasprintf("%s: the bundle has no workload (a "
		    "'workload' file with step lines; docs/evidence.md): "
		    "nothing to judge a boot by", v->bundle);
		return -1;
	}
	qemu = v->qemu != NULL ? xstrdup(v->qemu) :
	    xasprintf("qemu-system-%s", v->spec->arch);
	if (proc_find(qemu, &why) != 0) {
		*cause = xasprintf("%s (apt-get install qemu-system-x86, or "
		    "give --qemu PATH): nothing to boot the kernel with", why);
		free(why);
		free(qemu);
		return -1;
	}
	free(qemu);
	if (verify_host_fits(v, cause) != 0)
		return -1;
	if (build_check_tree(v->tree, v->arch, cause) != 0)
		return -1;
	if (path_mkdir_p(v->work, 0755, cause) != 0)
		return -1;
	st->bootdir = xasprintf("%s/boot", v->work);
	st->kvm_memo = xasprintf("%s/kvm-failed", v->work);
	if (path_mkdir_p(st->bootdir, 0755, cause) != 0)
		return -1;
	st->initrd = xasprintf("%s/initrd.cpio", st->bootdir);
	st->probe_config = xasprintf("%s/probe.config", v->work);
	/* The bundle's config.xz may be the untrimmed config. */
	st->base_config = xasprintf("%s/base.config", v->work);
	if (verify_plain_config(v->base, st->base_config, cause) != 0)
		return -1;
	dir = xasprintf("%s/build", v->work);
	st->b.tree = v->tree;
	st->b.dir = dir;
	st->b.arch = v->arch;
	st->b.jobs = v->jobs;
	st->b.cancel = v->cancel;
	st->b.progress = verify_build_progress;
	st->b.log = verify_build_log;
	st->b.arg = st;
	return verify_find_trims(st, cause);
}

/* The release of the kernel the bundle was recorded on (uname -r: the
 * third word of its uname file), or NULL (malloc'd). */
static char *
verify_bundle_release(const struct verify *v)
{
	char	*text, *w[3], *save = NULL, *rel = NULL;
	int	 i;

	if ((text = verify_bundle_file(v, "uname")) == NULL)
		return NULL;
	w[0] = strtok_r(text, " \t\n", &save);
	for (i = 1; i < 3 && w[i - 1] != NULL; i++)
		w[i] = strtok_r(NULL, " \t\n", &save);
	if (i == 3 && w[2] != NULL && strchr(w[2], '/') == NULL &&
	    strcmp(w[2], "..") != 0)
		rel = xstrdup(w[2]);
	free(text);
	return rel;
}

/* Run a command of the baseline's set-up quietly in dir; 0 when it
 * exited 0, else -1 with *cause naming it and its last line. */
static int
verify_run_quiet(char *const *argv, const char *dir, char **cause)
{
	struct proc_opts	 o;
	struct proc_result	 r;

	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.cwd = dir;
	o.timeout = 900;
	if (proc_run(&o, &r, cause) != 0)
		return -1;
	if (r.exit_code != 0) {
		*cause = xasprintf("%s exited with status %d", argv[0],
		    r.exit_code);
		return -1;
	}
	return 0;
}

/*
 * The distribution's package of release, unpacked into ROOT (returned,
 * malloc'd) under the work directory, with depmod run (the package ships
 * no modules.dep). Kept for later runs. NULL with *cause.
 */
static char *
verify_baseline_fetch(struct verify *v, const char *release, char **cause)
{
	char	*dir, *root, *pkg, *deb = NULL, *vmlinuz, *why = NULL;
	char	*dl[] = { "apt-get", "download", NULL, NULL };
	char	*x[] = { "dpkg-deb", "-x", NULL, NULL, NULL };
	char	*dm[] = { "depmod", "-b", NULL, NULL, NULL };
	DIR	*d;
	struct dirent *de;
	struct stat st;

	dir = xasprintf("%s/baseline", v->work);
	root = xasprintf("%s/%s", dir, release);
	vmlinuz = xasprintf("%s/boot/vmlinuz-%s", root, release);
	if (stat(vmlinuz, &st) == 0) {
		free(vmlinuz);
		free(dir);
		return root;
	}
	pkg = xasprintf("linux-image-%s", release);
	if (path_mkdir_p(dir, 0755, cause) != 0)
		goto fail;
	dl[2] = pkg;
	if (verify_run_quiet(dl, dir, &why) != 0) {
		*cause = xasprintf("apt-get download %s: %s", pkg, why);
		goto fail;
	}
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL && deb == NULL)
			if (strncmp(de->d_name, pkg, strlen(pkg)) == 0 &&
			    de->d_name[strlen(pkg)] == '_' &&
			    strstr(de->d_name, ".deb") != NULL)
				deb = xasprintf("%s/%s", dir, de->d_name);
		closedir(d);
	}
	if (deb == NULL) {
		*cause = xasprintf("apt-get download %s left no .deb in %s",
		    pkg, dir);
		goto fail;
	}
	x[2] = deb;
	x[3] = root;
	dm[2] = root;
	dm[3] = (char *)release;
	if (verify_run_quiet(x, dir, cause) != 0 ||
	    verify_run_quiet(dm, dir, cause) != 0)
		goto fail;
	if (stat(vmlinuz, &st) != 0) {
		*cause = xasprintf("%s: %s", vmlinuz, strerror(errno));
		goto fail;
	}
	free(why);
	free(deb);
	free(pkg);
	free(vmlinuz);
	free(dir);
	return root;
fail:
	free(why);
	free(deb);
	free(pkg);
	free(vmlinuz);
	free(dir);
	free(root);
	return NULL;
}

/*
 * Before anything is built: boot the kernel the bundle was recorded on
 * with its workload on this machine. When it fails, the machine, the
 * workload or the host is wrong, and no trim can be judged: stop. No
 * kernel to be had is no error: the report says there was no baseline.
 * -1 with *cause to stop.
 */
static int
verify_baseline(struct verify_state *st, char **cause)
{
	struct verify		*v = st->v;
	struct vm_result	 r;
	char			*release, *root = NULL, *kernel = NULL;
	char			*initrd = NULL, *why = NULL;
	const char		*first;
	DIR			*d;
	struct dirent		*de;
	int			 rc = -1;

	if (v->no_baseline) {
		v->baseline = xstrdup("none (--no-baseline)");
		return 0;
	}
	release = verify_bundle_release(v);
	if (v->base_kernel != NULL) {
		root = xstrdup(v->base_kernel);
		/* Its release: the one modules directory it has. */
		kernel = xasprintf("%s/lib/modules", root);
		if (release == NULL && (d = opendir(kernel)) != NULL) {
			while ((de = readdir(d)) != NULL && release == NULL)
				if (de->d_name[0] != '.')
					release = xstrdup(de->d_name);
			closedir(d);
		}
		free(kernel);
		kernel = NULL;
	} else if (release == NULL) {
		v->baseline = xstrdup("none (the bundle names no kernel "
		    "release; --base-kernel ROOT gives one)");
		return 0;
	} else if ((root = verify_baseline_fetch(v, release, &why)) ==
	    NULL) {
		v->baseline = xasprintf("none (%s)", why);
		free(why);
		free(release);
		return 0;
	}
	if (release == NULL) {
		*cause = xasprintf("%s: no lib/modules/RELEASE in it "
		    "(--base-kernel wants an unpacked kernel package)", root);
		goto out;
	}
	kernel = xasprintf("%s/boot/vmlinuz-%s", root, release);
	verify_note(v, "baseline: booting the kernel the bundle was recorded "
	    "on");
	st->probe_t0 = clock_now();	/* its phases' times count from here */
	initrd = xasprintf("%s/baseline.cpio", st->bootdir);
	memset(&r, 0, sizeof r);
	if (verify_boot(st, kernel, initrd, root, release, &r, cause) != 0) {
		vm_result_free(&r);
		goto out;
	}
	verify_compare(v, &r);
	if (v->baseline_only)
		verify_emit_steps(v, &r);
	if ((first = verify_first_failure(v, &r)) != NULL) {
		*cause = xasprintf("the baseline, %s (the kernel the bundle "
		    "was recorded on), failed at %s on this machine: the "
		    "machine, the workload or the host is wrong, not a trim; "
		    "nothing was built (console: %s; --no-baseline to go on)",
		    kernel, first, r.console != NULL ? r.console : "none");
		vm_result_free(&r);
		goto out;
	}
	v->baseline = xasprintf("%s booted and passed every step (%.0f s "
	    "under %s)", kernel, r.seconds, r.kvm ? "KVM" : "TCG");
	verify_measure_baseline(st, root, release, kernel);
	if (v->baseline_only) {
		/* its boot is the result the report shows */
		vm_result_free(&v->result);
		v->result = r;
		memset(&r, 0, sizeof r);
	}
	vm_result_free(&r);
	rc = 0;
out:
	free(initrd);
	free(kernel);
	free(root);
	free(release);
	return rc;
}

/*
 * The baseline's vmlinux sections: a package ships only the image, whose
 * payload the tree's own scripts/extract-vmlinux unpacks (a stripped
 * vmlinux: sections, no symbols). Paths go to sh as arguments.
 */
static void
verify_measure_extract(struct verify_state *st, const char *kernel,
    struct measure *m)
{
	struct verify		*v = st->v;
	struct proc_opts	 o;
	struct proc_result	 r;
	char			*script, *out, *cause = NULL;
	char			*argv[] = { "sh", "-c", "exec sh \"$1\" \"$2\" "
	    "> \"$3\" 2>/dev/null", "sh", NULL, NULL, NULL, NULL };

	script = xasprintf("%s/scripts/extract-vmlinux", v->tree);
	out = xasprintf("%s/baseline-vmlinux", v->work);
	argv[4] = script;
	argv[5] = (char *)kernel;
	argv[6] = out;
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.timeout = 300;
	o.cancel = v->cancel;
	if (access(script, R_OK) == 0 && proc_run(&o, &r, &cause) == 0 &&
	    r.exit_code == 0 && measure_elf_sizes(out, &m->text, &m->data,
	    &m->bss, &cause) != 0)
		m->text = m->data = m->bss = -1;
	free(cause);
	unlink(out);
	free(out);
	free(script);
}

/*
 * The baseline's column of the measured table: its package has the
 * image, System.map (no vmlinux: no section sizes, the system calls from
 * the map), the modules and the config.
 */
static void
verify_measure_baseline(struct verify_state *st, const char *root,
    const char *release, const char *kernel)
{
	struct verify	*v = st->v;
	struct measure	*m = &v->measured[0];
	struct stat	 sb;
	char		*p, *text;
	size_t		 len;

	measure_init(m, "baseline (the bundle's kernel)");
	v->has_measured = true;
	if (stat(kernel, &sb) == 0)
		m->bzimage = sb.st_size;
	p = xasprintf("%s/boot/System.map-%s", root, release);
	if ((m->syscalls = measure_syscalls_map(p)) >= 0)
		m->syscalls_from = "System.map";
	free(p);
	/* a distribution's System.map is a placeholder: the bundle's
	 * kallsyms is that kernel's */
	if (m->syscalls < 0 && (text = verify_bundle_file(v, "kallsyms")) !=
	    NULL) {
		if ((m->syscalls = measure_syscalls_map_text(text)) >= 0)
			m->syscalls_from = "the bundle's kallsyms, every "
			    "__x64_sys_ wrapper";
		free(text);
	}
	verify_measure_extract(st, kernel, m);
	p = xasprintf("%s/lib/modules/%s", root, release);
	measure_modules(p, &m->modules, &m->modules_bytes);
	free(p);
	p = xasprintf("%s/boot/config-%s", root, release);
	if ((text = file_read_all(p, &len)) == NULL)
		text = file_read_all(st->base_config, &len);
	if (text != NULL)
		m->ym = measure_ym_text(text);
	free(text);
	free(p);
}

/*
 * The tree's own `make localmodconfig` of the untrimmed config with the
 * bundle's modules (as lsmod prints them), in its own O= directory: its
 * y+m count, or -1. Run through sh for the "yes ''" answering conf's
 * questions; the paths go as arguments, never into the script's text.
 */
static long
verify_measure_lmc(struct verify_state *st)
{
	struct verify		*v = st->v;
	struct proc_opts	 o;
	struct proc_result	 r;
	char			*dir, *lsmod, *cfg, *mods, *text, *cause = NULL;
	char			*line, *save = NULL, *w;
	struct strbuf		 sb;
	size_t			 len;
	long			 n = -1;
	char			*argv[] = { "sh", "-c", "yes '' | exec make -s "
	    "-C \"$1\" O=\"$2\" LSMOD=\"$3\" localmodconfig >/dev/null "
	    "2>&1", "sh", NULL, NULL, NULL, NULL };

	if ((mods = verify_bundle_file(v, "modules")) == NULL)
		return -1;
	strbuf_init(&sb);
	strbuf_adds(&sb, "Module                  Size  Used by\n");
	for (line = strtok_r(mods, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		/* name size refcount: what streamline_config.pl reads */
		if ((w = strchr(line, ' ')) == NULL)
			strbuf_addf(&sb, "%s 0 0\n", line);
		else
			strbuf_addf(&sb, "%s\n", line);
	}
	free(mods);
	dir = xasprintf("%s/localmodconfig", v->work);
	lsmod = xasprintf("%s/lsmod", v->work);
	cfg = xasprintf("%s/.config", dir);
	if (path_mkdir_p(dir, 0755, &cause) != 0 ||
	    file_write_atomic(lsmod, sb.s, sb.len, 0644, 0, &cause) != 0 ||
	    (text = file_read_all(st->base_config, &len)) == NULL)
		goto out;
	if (file_write_atomic(cfg, text, len, 0644, 0, &cause) != 0) {
		free(text);
		goto out;
	}
	free(text);
	argv[4] = (char *)v->tree;
	argv[5] = dir;
	argv[6] = lsmod;
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.timeout = 900;
	o.cancel = v->cancel;
	if (proc_run(&o, &r, &cause) == 0 && r.exit_code == 0 &&
	    (text = file_read_all(cfg, &len)) != NULL) {
		n = measure_ym_text(text);
		free(text);
	}
out:
	free(cause);
	strbuf_free(&sb);
	free(cfg);
	free(lsmod);
	free(dir);
	return n;
}

/*
 * The trimmed column (the last build: the final config when it passed)
 * and localmodconfig's y+m: vmlinux's sections and system calls, the
 * image, the staged modules, the config's y+m.
 */
static void
verify_measure_trimmed(struct verify_state *st)
{
	struct verify	*v = st->v;
	struct measure	*m = &v->measured[1];
	struct stat	 sb;
	char		*p, *text, *cause = NULL;
	size_t		 len;

	if (st->b.bzimage == NULL || stat(st->b.bzimage, &sb) != 0)
		return;
	if (!v->has_measured)
		measure_init(&v->measured[0], "baseline (the bundle's kernel)");
	v->has_measured = true;
	measure_init(m, v->passed ? "trimmed (verified)" :
	    "trimmed (last probe)");
	m->bzimage = sb.st_size;
	p = xasprintf("%s/vmlinux", st->b.dir);
	if (measure_elf_sizes(p, &m->text, &m->data, &m->bss, &cause) != 0)
		m->text = m->data = m->bss = -1;
	free(cause);
	cause = NULL;
	if ((m->syscalls = measure_syscalls(p, &cause)) >= 0)
		m->syscalls_from = "vmlinux";
	free(cause);
	free(p);
	if (st->b.staging != NULL && st->b.release != NULL) {
		p = xasprintf("%s/lib/modules/%s", st->b.staging,
		    st->b.release);
		measure_modules(p, &m->modules, &m->modules_bytes);
		free(p);
	} else if (st->b.staging == NULL) {
		m->modules = 0;		/* CONFIG_MODULES off */
		m->modules_bytes = 0;
	}
	p = xasprintf("%s/.config", st->b.dir);
	if (v->passed && v->final != NULL)
		m->ym = measure_ym_text(v->final);
	else if ((text = file_read_all(p, &len)) != NULL) {
		m->ym = measure_ym_text(text);
		free(text);
	}
	free(p);
	measure_init(&v->measured[2], "make localmodconfig");
	v->measured[2].ym = verify_measure_lmc(st);
}

/* Sizes of the last build: bzImage, and the staged modules' .ko files. */
static void
verify_sizes(struct verify_state *st)
{
	struct stat sb;

	if (st->b.bzimage != NULL && stat(st->b.bzimage, &sb) == 0)
		st->v->bzimage_bytes = sb.st_size;
}

/* Build, boot and judge the trimmed config; fill back (see verify.h). */
int
verify_run(struct verify *v, char **cause)
{
	struct verify_state	 st;
	bool			*want;
	char			*step = NULL;
	double			 t0 = clock_now();
	size_t			 i;
	int			 r;

	memset(&st, 0, sizeof st);
	st.left = -1;
	st.v = v;
	if (v->baseline_only && v->no_baseline) {
		*cause = xstrdup("--baseline-only and --no-baseline: nothing "
		    "to do");
		r = -1;
		goto out;
	}
	if (verify_setup(&st, cause) != 0 || verify_baseline(&st, cause) !=
	    0) {
		r = -1;
		goto out;
	}
	if (v->baseline_only) {
		if (strncmp(v->baseline, "none", 4) == 0) {
			*cause = xasprintf("--baseline-only: no baseline "
			    "kernel: %s", v->baseline);
			r = -1;
			goto out;
		}
		v->passed = true;
		r = 0;
		goto out;
	}
	verify_keep_nontwin(&st);
	want = xcalloc(v->ntrims + 1, sizeof *want);
	for (i = 0; i < v->ntrims; i++)
		want[i] = !v->trims[i].kept;
	r = verify_try(&st, want, &step, cause);
	free(want);
	if (r == 1) {
		v->passed = true;
		r = 0;
	} else if (r == 0) {
		if (v->no_fill_back || v->ntrims == 0) {
			v->passed = false;
			r = 0;
		} else
			r = verify_fill_back(&st, step, cause);
	}
	if (r == 0 && v->passed) {
		/* The final config is the last one built (the passing
		 * probe), unless the memo answered: compose it again. */
		want = xcalloc(v->ntrims + 1, sizeof *want);
		for (i = 0; i < v->ntrims; i++)
			want[i] = !v->trims[i].kept;
		free(v->final);
		v->final = verify_compose(&st, want);
		free(want);
	}
	verify_sizes(&st);
	verify_measure_trimmed(&st);
out:
	v->seconds = clock_now() - t0;
	free(step);
	for (i = 0; i < st.nmemo; i++)
		free(st.memo[i].step);
	free(st.memo);
	if (st.base != NULL)
		kconfig_values_free(st.base);
	free((char *)st.b.dir);
	build_free(&st.b);
	free(st.bootdir);
	free(st.kvm_memo);
	free(st.initrd);
	free(st.probe_config);
	free(st.base_config);
	for (i = 0; i < st.nstr; i++)
		free(st.strvals[i]);
	free(st.strvals);
	free(st.strsyms);
	free(st.raise);
	free(st.raise_to);
	return r;
}

/* Free the results. */
void
verify_free(struct verify *v)
{
	size_t i;

	for (i = 0; i < v->ntrims; i++) {
		free(v->trims[i].step);
		free(v->trims[i].subsys);
	}
	free(v->trims);
	for (i = 0; i < v->nlost; i++)
		free(v->lost[i]);
	free(v->lost);
	for (i = 0; i < v->nabsent; i++)
		free(v->absent[i]);
	free(v->absent);
	for (i = 0; i < v->nmissing; i++)
		free(v->missing[i]);
	free(v->missing);
	free(v->final);
	free(v->failure);
	free(v->build_error);
	free(v->kvm_error);
	free(v->baseline);
	vm_result_free(&v->result);
}

/* A trim's values, "y -> n". */
static const char *
verify_tri_name(int t)
{
	return t == KC_YES ? "y" : t == KC_MOD ? "m" : "n";
}

/* The report's table of the final boot's steps. */
static void
verify_report_steps(const struct verify *v, struct strbuf *sb)
{
	const struct vm_result	*r = &v->result;
	size_t			 i, j;

	strbuf_addf(sb, "\n## Steps of the last boot\n\n"
	    "| step | result | exit | seconds |\n| --- | --- | --- | --- |\n");
	strbuf_addf(sb, "| boot | %s | | |\n", r->booted ? "pass" : "FAIL");
	for (i = 0; i < r->nsteps; i++) {
		const struct vm_step *s = &r->steps[i];

		strbuf_addf(sb, "| %s | %s | %d | %.1f |\n", s->name,
		    s->state == VM_STEP_PASS ? "pass" :
		    s->state == VM_STEP_FAIL ? "FAIL" : "not reached",
		    s->rc, s->seconds);
	}
	for (i = 0; i < r->nsteps; i++) {
		const struct vm_step *s = &r->steps[i];

		if (s->state == VM_STEP_PASS || s->nlog == 0)
			continue;
		strbuf_addf(sb, "\nConsole of step %s:\n\n", s->name);
		for (j = 0; j < s->nlog; j++)
			strbuf_addf(sb, "    %s\n", s->log[j]);
	}
}

/* The report's comparison with the recorded machine. */
static void
verify_report_devices(const struct verify *v, struct strbuf *sb)
{
	size_t i;

	strbuf_addf(sb, "\n## Against the recorded machine\n\n"
	    "%zu modules loaded and %zu devices bound at the end of the "
	    "boot.\n", v->result.nmodules, v->result.ndrivers);
	if (v->nlost == 0)
		strbuf_addf(sb, "\nNo device the bundle had bound lost its "
		    "driver.\n");
	else {
		strbuf_addf(sb, "\nDevices bound in the bundle, unbound "
		    "here (bus driver device):\n\n");
		for (i = 0; i < v->nlost; i++)
			strbuf_addf(sb, "- %s\n", v->lost[i]);
	}
	if (v->nabsent > 0) {
		strbuf_addf(sb, "\nDevices bound in the bundle that this "
		    "machine does not have (the machine's difference, not "
		    "the trim's; bus driver device):\n\n");
		for (i = 0; i < v->nabsent; i++)
			strbuf_addf(sb, "- %s\n", v->absent[i]);
	}
	if (v->nmissing > 0) {
		strbuf_addf(sb, "\nModules loaded in the bundle, not "
		    "here (built in, trimmed, or not needed by this "
		    "workload):\n\n");
		for (i = 0; i < v->nmissing; i++)
			strbuf_addf(sb, "%s`%s`", i == 0 ? "" : ", ",
			    v->missing[i]);
		strbuf_addf(sb, "\n");
	}
}

/* The report (markdown) of a finished run. */
char *
verify_report(const struct verify *v)
{
	struct strbuf	 sb;
	size_t		 i, kept = 0;

	for (i = 0; i < v->ntrims; i++)
		kept += v->trims[i].kept;
	strbuf_init(&sb);
	strbuf_addf(&sb, "# kctui verify\n\n");
	/* One verdict line, whatever happened to KVM (a dangling else once
	 * printed both verdicts, or neither). */
	if (v->passed)
		strbuf_addf(&sb, "**Verified**: this config was built, booted "
		    "under QEMU (%s) on the bundle's machine, and every "
		    "workload step passed.\n", v->result.kvm ? "KVM" : "TCG");
	else
		strbuf_addf(&sb, "**Not verified**: the last probe failed "
		    "at %s%s%s. Do not trust this config.\n",
		    v->failure != NULL ? v->failure : "a step",
		    v->build_error != NULL ? ": " : "",
		    v->build_error != NULL ? v->build_error : "");
	if (v->kvm_error != NULL)
		strbuf_addf(&sb, "\n/dev/kvm is there but QEMU could not run "
		    "the guest with it (`%s`): every boot after that ran "
		    "under TCG.\n", v->kvm_error);
	strbuf_addf(&sb, "\n- untrimmed config: %s\n- trimmed config: %s\n"
	    "- bundle: %s\n- workload: %s (%zu steps)\n"
	    "- trims: %zu, put back: %zu, staying: %zu\n"
	    "- probes: %d builds and boots, %d answered by an earlier "
	    "probe; %.0f s in all (first %.0f s, later at most %.0f s)\n",
	    v->base, v->trimmed, v->bundle, v->workload->path,
	    v->workload->nsteps, v->ntrims, kept, v->ntrims - kept, v->probes,
	    v->cached, v->seconds, v->first_probe, v->later_probe_max);
	if (v->built_without_debug)
		strbuf_addf(&sb, "- built without debug information "
		    "(CONFIG_DEBUG_INFO_NONE): -g does not change the code, "
		    "but BTF (/sys/kernel/btf) was not tested; `--as-is` "
		    "builds the config's own\n");
	if (v->built_without_modversions)
		strbuf_addf(&sb, "- built without module versions "
		    "(CONFIG_MODVERSIONS=n): they do not change the code, "
		    "but the symbol CRC check at module load was not tested; "
		    "`--as-is` builds them\n");
	if (v->bzimage_bytes > 0)
		strbuf_addf(&sb, "- bzImage: %ld bytes\n", v->bzimage_bytes);
	strbuf_addf(&sb, "- baseline: %s\n", v->baseline != NULL ?
	    v->baseline : "none");
	if (v->twin != NULL)
		strbuf_addf(&sb, "- machine: %s\n", v->twin);
	if (v->informed > 0)
		strbuf_addf(&sb, "- put back because a failed boot named them: "
		    "%d (the rest by bisection)\n", v->informed);
	if (v->has_measured) {
		strbuf_adds(&sb, "\n## What the trim bought (measured "
		    "without a boot)\n\nRead from the kernels themselves: "
		    "the image's bytes; vmlinux's sections as size(1) counts "
		    "them (the baseline's unpacked from its image by the "
		    "tree's scripts/extract-vmlinux); the system "
		    "calls compiled in (the syscall table's entries that are "
		    "neither sys_ni_syscall nor a weak stub; the baseline's "
		    "from its System.map); the modules and their bytes on "
		    "disk; the config's y+m, beside the tree's own `make "
		    "localmodconfig` of the untrimmed config with the "
		    "bundle's modules. Boot times are not measured here.\n\n");
		measure_table(&sb, v->measured, 3);
	}
	verify_report_steps(v, &sb);
	if (kept > 0) {
		strbuf_addf(&sb, "\n## Put back\n\n| option | subsystem | "
		    "needed at boot by |\n| --- | --- | --- |\n");
		for (i = 0; i < v->ntrims; i++)
			if (v->trims[i].kept)
				strbuf_addf(&sb, "| CONFIG_%s | %s | %s |\n",
				    v->trims[i].name, v->trims[i].subsys,
				    v->trims[i].step);
	}
	if (kept < v->ntrims) {
		strbuf_addf(&sb, "\n## Trims that stay%s\n\n| option | "
		    "subsystem | change |\n| --- | --- | --- |\n",
		    v->passed ? " (verified by the boot)" : "");
		for (i = 0; i < v->ntrims; i++)
			if (!v->trims[i].kept)
				strbuf_addf(&sb, "| CONFIG_%s | %s | %s -> %s%s "
				    "|\n", v->trims[i].name, v->trims[i].subsys,
				    verify_tri_name(v->trims[i].from),
				    verify_tri_name(v->trims[i].to),
				    v->trims[i].tried ? " (--try)" : "");
	}
	if (v->result.finished)
		verify_report_devices(v, &sb);
	if (v->nnontwin > 0) {
		strbuf_addf(&sb, "\n## Not verifiable under QEMU: kept\n\n"
		    "The twin machine has no device for these; the options "
		    "that build their drivers were put back before the first "
		    "probe and no boot here judges them (bus driver device):"
		    "\n\n");
		for (i = 0; i < v->nnontwin; i++)
			strbuf_addf(&sb, "- %s %s %s%s%s%s%s%s: %s\n",
			    v->nontwin[i].bus, v->nontwin[i].driver,
			    v->nontwin[i].path,
			    v->nontwin[i].ids != NULL ? " [" : "",
			    v->nontwin[i].ids != NULL ? v->nontwin[i].ids : "",
			    v->nontwin[i].ids != NULL ? "]" : "",
			    v->nontwin[i].module != NULL ? ", module " : "",
			    v->nontwin[i].module != NULL ?
			    v->nontwin[i].module : "", v->nontwin[i].why);
	}
	return strbuf_detach(&sb);
}
