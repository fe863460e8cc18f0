/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.c - the tailoring loop: build the trimmed configuration, boot it
 * on the bundle's machine, judge the workload's steps, and when a step
 * fails find the trims that broke it and put them back.
 *
 * When the first probe fails, verify-fillback.c puts back what the
 * console names, then searches in batches by subsystem within a probe
 * budget (verify-search.c says how and on what assumptions). Each probe
 * is a configuration the engine computed from the untrimmed one (so it is
 * one conf accepts: dependencies follow), built incrementally in the same
 * O= directory. Probes that compute to the same configuration share a
 * verdict.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/beneath.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "../evidence/zstream.h"
#include "verify-int.h"
#include "userspace.h"
#include "verify.h"

/* Tell the caller. */
void
verify_emit(struct verify *v, struct verify_event *e)
{
	e->probe = v->probes;
	if (v->event != NULL)
		v->event(v->arg, e);
}

/* A remark. */
void
verify_note(struct verify *v, const char *detail)
{
	struct verify_event e = { .kind = VEV_NOTE, .detail = detail };

	verify_emit(v, &e);
}

/* Read a config file that may be xz or gz (a bundle's config.xz) into a
 * plain file at out; -1 with *cause. A file of the bundle is opened
 * below it following no link; one the user named (--base) as any. */
static int
verify_plain_config(const char *in, const char *bundle, const char *out,
    char **cause)
{
	const char	*slash = strrchr(in, '/');
	char		*dir, *raw;
	void		*buf;
	size_t		 len, rawlen;
	int		 rc;

	/* never a link in the bundle: a config.xz pointing at a host file
	 * would be built and its lines warned about */
	if (bundle == NULL || strncmp(in, bundle, strlen(bundle)) != 0 ||
	    in[strlen(bundle)] != '/') {
		if (zstream_decode_file(in, &buf, &len, cause) != 0)
			return -1;
		rc = file_write_atomic(out, buf, len, 0644, 0, cause);
		free(buf);
		return rc;
	}
	dir = slash == NULL ? xstrdup(".") : slash == in ? xstrdup("/") :
	    xstrndup(in, slash - in);
	raw = beneath_read(dir, slash == NULL ? in : slash + 1, &rawlen, cause);
	free(dir);
	if (raw == NULL)
		return -1;
	rc = zstream_decode(raw, rawlen, &buf, &len, cause);
	free(raw);
	if (rc != 0)
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

/* The first failing step of a boot, or NULL when everything passed. */
const char *
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
void
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
int
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
	ir.build_bundle_c = v->build_bundle_c;
	/* Built without loadable modules: what is built in, for the
	 * workload's modprobe (verify-init.sh's stand-in). */
	builtin = staging == NULL && st->b.dir != NULL ?
	    xasprintf("%s/modules.builtin", st->b.dir) : NULL;
	if (builtin != NULL && access(builtin, R_OK) == 0)
		ir.builtin = builtin;
	if (userspace_image(v) != NULL)
		ir.userspace = userspace_init_sh;
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
	vb.root_disk = userspace_image(v);
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
	userspace_after_boot(st, r, st->booting_baseline);
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
int
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
	st->built_hash = h;
	if (r < 0)
		return -1;
	if (r == 1) {
		/* The boot the report shows and times, if this config is
		 * the final one. */
		vm_result_free(&st->pass);
		st->pass = v->result;
		memset(&v->result, 0, sizeof v->result);
		st->has_pass = true;
		st->pass_hash = h;
	}
	free(v->failure);
	v->failure = r == 1 ? NULL : xstrdup(*step);
	st->memo = xrealloc(st->memo, (st->nmemo + 1) * sizeof *st->memo);
	st->memo[st->nmemo].hash = h;
	st->memo[st->nmemo].pass = r == 1;
	st->memo[st->nmemo].step = r == 1 ? NULL : xstrdup(*step);
	st->nmemo++;
	return r;
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
	/* checked: a vm file's sizes are somebody else's numbers */
	for (i = 0; i < v->spec->ndisks; i++) {
		if (!u64_add(disks, v->spec->disks[i].size, &disks) ||
		    disks > VM_DISKS_MAX) {
			*cause = xasprintf("%s: its disks add up to more than "
			    "%llu GiB, the most kctui makes", v->spec->path,
			    VM_DISKS_MAX >> 30);
			return -1;
		}
	}
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

/*
 * WORK/trims.tsv: the trims in the order the search takes them (name,
 * subsystem, from, to), for whoever wants to know what a probe searches
 * over (tests/unit/test_verify_search.c's fixture is one). Best effort: a
 * run does not need it.
 */
static void
verify_write_trims(struct verify_state *st)
{
	struct verify	*v = st->v;
	struct strbuf	 sb;
	char		*path, *why = NULL;
	size_t		 i;
	static const char tri[] = "nmy";

	strbuf_init(&sb);
	for (i = 0; i < v->ntrims; i++)
		strbuf_addf(&sb, "%s\t%s\t%c\t%c\n", v->trims[i].name,
		    v->trims[i].subsys, tri[v->trims[i].from % 3],
		    tri[v->trims[i].to % 3]);
	path = xasprintf("%s/trims.tsv", v->work);
	if (file_write_atomic(path, sb.s, sb.len, 0644, 0, &why) != 0)
		free(why);
	free(path);
	strbuf_free(&sb);
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
	if (verify_plain_config(v->base, v->bundle, st->base_config,
	    cause) != 0)
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
	if (verify_find_trims(st, cause) != 0)
		return -1;
	verify_write_trims(st);
	return 0;
}

/*
 * The build directory holds the final config: when the search's last
 * probe was not it (phase 3 of verify-search.c ends on a failure as well
 * as on a pass), build it again (incremental: what the failed probe
 * changed) for the measures and the timed boots. It passed its probe
 * already: this is no probe. -1 with *cause.
 */
static int
verify_final_build(struct verify_state *st, char **cause)
{
	struct verify	*v = st->v;
	uint64_t	 h = hash_buf64(v->final, strlen(v->final));
	char		*build;
	bool		 changed = false;
	int		 rc;

	if (h == st->built_hash)
		return 0;
	verify_note(v, "building the final config again (it passed its "
	    "probe; a later probe failed) for its measures");
	/* verify_compose() left the engine on the final config */
	build = verify_build_variant(st);
	rc = file_write_atomic(st->probe_config, build != NULL ? build :
	    v->final, strlen(build != NULL ? build : v->final), 0644, 0,
	    cause);
	free(build);
	if (rc == 0)
		rc = build_config(&st->b, st->probe_config, &changed, cause);
	if (rc == 0)
		rc = build_kernel(&st->b, cause);
	if (rc == 0)
		st->built_hash = h;
	return rc;
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
		/* The final config is the last passing probe's (the search
		 * ends on one), not always the last one built. */
		want = xcalloc(v->ntrims + 1, sizeof *want);
		for (i = 0; i < v->ntrims; i++)
			want[i] = !v->trims[i].kept;
		free(v->final);
		v->final = verify_compose(&st, want);
		free(want);
		r = verify_final_build(&st, cause);
	}
	if (st.has_pass && v->passed) {
		vm_result_free(&v->result);
		v->result = st.pass;
		memset(&st.pass, 0, sizeof st.pass);
		st.has_pass = false;
		verify_compare(v, &v->result);
		verify_boot_time_add(&st, 1, &v->result);
	}
	verify_sizes(&st);
	verify_measure_trimmed(&st);
	if (r == 0)
		verify_boot_times(&st);
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
	vm_result_free(&st.pass);
	free(st.base_kernel);
	free(st.base_root);
	free(st.base_release);
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
	userspace_free(v);
}

