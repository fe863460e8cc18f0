/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-keep.c - the keep-set: the options a trim must leave alone, and
 * why. Seeds from the evidence, the boot essentials evidence can't see,
 * the disks' drivers and keep decisions (or, for trim_beyond_modules(),
 * the loaded modules alone); then, transitively, what each kept option
 * needs to stay; then the check that the seeds hold with every candidate
 * set to n (trim_settle()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/util.h"
#include "../evidence/attrib.h"
#include "decisions.h"
#include "../evidence/evidence.h"
#include "../kbuild/kbuild.h"
#include "trim-int.h"

/*
 * Boot essentials evidence can't see: a running system's evidence is
 * recorded after boot, so what only the boot path uses (unpacking the
 * initramfs, mounting devtmpfs, running init) leaves no trace, and a
 * console is used only when something goes wrong. Each stays, with what
 * it needs. if_mounted: only when a bundle saw that filesystem mounted.
 */
static const struct trim_essential essentials[] = {
	/* Console: where boot messages and emergency shells go. */
	{ "TTY", "the console is a tty", NULL, false },
	{ "VT", "virtual terminals: the local console", NULL, false },
	{ "VT_CONSOLE", "kernel messages on the virtual terminal", NULL, false },
	{ "HW_CONSOLE", "the VT's hardware console", NULL, false },
	{ "VGA_CONSOLE", "text console before any framebuffer", NULL, false },
	{ "DUMMY_CONSOLE", "the VT needs a console driver at all times", NULL, false },
	{ "FRAMEBUFFER_CONSOLE", "console on the (EFI/VESA) framebuffer", NULL, false },
	{ "UNIX98_PTYS", "ptys for logins and terminals", NULL, false },
	{ "SERIAL_8250", "serial console (ttyS0), the console of VMs", NULL, false },
	{ "SERIAL_8250_CONSOLE", "kernel messages on the serial port", NULL, false },
	{ "SERIAL_8250_PNP", "finds the PC's serial ports", NULL, false },
	/* Init support: used once, before any evidence is recorded. */
	{ "BLK_DEV_INITRD", "the initramfs is unpacked at boot", NULL, false },
	{ "RD_GZIP", "initramfs images may be gzip-compressed", NULL, false },
	{ "RD_XZ", "initramfs images may be xz-compressed", NULL, false },
	{ "RD_ZSTD", "initramfs images may be zstd-compressed", NULL, false },
	{ "DEVTMPFS", "udev and the initramfs expect /dev populated", NULL, false },
	{ "DEVTMPFS_MOUNT", "/dev mounted before init", NULL, false },
	{ "UNIX", "init, udev and journald talk over unix sockets", NULL, false },
	{ "BINFMT_ELF", "init is an ELF binary", NULL, false },
	{ "BINFMT_SCRIPT", "initramfs scripts start with #!", NULL, false },
	{ "PROC_FS", "/proc: every init system reads it", NULL, false },
	{ "PROC_SYSCTL", "/proc/sys: systemd, udev and sysctl(8) set it at "
	    "boot", NULL, false },
	{ "SYSFS", "/sys: udev and the initramfs read it", NULL, false },
	{ "TMPFS", "tmpfs is mounted (/run, /dev/shm)", "tmpfs", false },
	{ "FHANDLE", "systemd and udev use name_to_handle_at", NULL, false },
	{ "INOTIFY_USER", "init systems watch files with inotify", NULL, false },
	{ "BLOCK", "disks at all", NULL, false },
	{ "MSDOS_PARTITION", "the root disk's partition table", NULL, false },
	{ "EFI_PARTITION", "the root disk's GPT partition table", NULL, false },
	/* Modules: loading the modules that the evidence says are used. */
	{ "MODULES", "the used modules must stay loadable", NULL, false },
	{ "MODULE_UNLOAD", "module tools expect unload", NULL, false },
	{ "MODVERSIONS", "the installed module tools and modules use it", NULL, false },
	{ "MODULE_COMPRESS_NONE", "how the modules are packed", NULL, false },
	{ "MODULE_COMPRESS_GZIP", "how the modules are packed", NULL, false },
	{ "MODULE_COMPRESS_XZ", "how the modules are packed", NULL, false },
	{ "MODULE_COMPRESS_ZSTD", "how the modules are packed", NULL, false },
	{ "MODULE_DECOMPRESS", "the kernel unpacks compressed modules", NULL, false },
	{ "MODULE_SIG", "signed modules are checked", NULL, false },
	{ "MODULE_SIG_ALL", "modules are signed at install", NULL, false },
	{ "MODULE_SIG_SHA256", "the modules' signature hash", NULL, false },
	{ "MODULE_SIG_SHA384", "the modules' signature hash", NULL, false },
	{ "MODULE_SIG_SHA512", "the modules' signature hash", NULL, false },
	/* Firmware interfaces: booted through them, never traced after. */
	{ "EFI", "booting on UEFI firmware", NULL, false },
	{ "EFI_STUB", "the firmware starts the kernel directly", NULL, false },
	{ "ACPI", "the firmware's description of the machine", NULL, false },
	{ "PCI", "the bus everything else sits on", NULL, false },
	/* Networking: DHCP before any recording starts. */
	{ "NET", "networking at all", NULL, false },
	{ "INET", "TCP/IP", NULL, false },
	{ "PACKET", "DHCP clients open packet sockets", NULL, false },
	/*
	 * The minimal policy judges every menu, so what runs only at boot
	 * or only when something goes wrong, outside the menus the other
	 * policies trim, is listed here too (minimal: true).
	 */
	{ "PRINTK", "kernel messages: the console says what went wrong "
	    "(and kctui verify reads it)", NULL, true },
	{ "BUG", "BUG() reports: a failing boot names its cause", NULL, true },
	{ "MULTIUSER", "users and groups: every init system and login",
	    NULL, true },
	{ "FUTEX", "glibc's threads and locks", NULL, true },
	{ "EPOLL", "event loops of init systems and daemons", NULL, true },
	{ "SIGNALFD", "systemd and udev wait for signals with it", NULL, true },
	{ "TIMERFD", "systemd's timers", NULL, true },
	{ "EVENTFD", "event notification of daemons and libraries", NULL, true },
	{ "POSIX_TIMERS", "timers of libc (timer_create, clock_nanosleep)",
	    NULL, true },
	{ "FILE_LOCKING", "flock and fcntl locks: package managers, "
	    "systemd, databases", NULL, true },
	{ "SHMEM", "shared memory and tmpfs", NULL, true },
	{ "PCI_MSI", "devices' interrupts (MSI/MSI-X), set up at probe",
	    NULL, true },
	{ "FW_LOADER", "drivers load their firmware at probe, before any "
	    "recording", NULL, true },
	{ "RTC_CLASS", "the time of day, read from the RTC at boot", NULL,
	    true },
	{ "RTC_HCTOSYS", "the system clock set from the RTC at boot", NULL,
	    true },
	{ "RTC_DRV_CMOS", "the PC's RTC", NULL, true },
	{ "EARLY_PRINTK", "messages before the console driver", NULL, true },
};

/*
 * Disk names in mounts (/dev/NAME...) and the block driver that makes
 * them: the root and mounted filesystems' disks must stay readable even
 * when their driver left no other evidence (built in, not traced).
 */
static const struct {
	const char	*prefix;
	const char	*sym;
} disk_drivers[] = {
	{ "vd", "VIRTIO_BLK" },
	{ "sd", "BLK_DEV_SD" },
	{ "sr", "BLK_DEV_SR" },
	{ "nvme", "BLK_DEV_NVME" },
	{ "mmcblk", "MMC_BLOCK" },
	{ "xvd", "XEN_BLKDEV_FRONTEND" },
	{ "md", "BLK_DEV_MD" },
	{ "dm-", "BLK_DEV_DM" },
	{ "mapper/", "BLK_DEV_DM" },
	{ "loop", "BLK_DEV_LOOP" },
	{ "nbd", "BLK_DEV_NBD" },
	{ "rbd", "BLK_DEV_RBD" },
	{ "zram", "ZRAM" },
	{ "pmem", "BLK_DEV_PMEM" },
	{ "ram", "BLK_DEV_RAM" },
};

/* Add a symbol to the keep-set (and the queue). */
static void
keep_sym(struct trim *t, struct kc_symbol *s, enum keep_kind kind,
    int by, size_t *nq)
{
	int		idx;
	unsigned char	strict;

	if (s == NULL || (idx = kc_sym_index(s)) < 0)
		return;
	strict = by >= 0 ? t->strict[by] : t->strict_seed[idx];
	if (t->keep[idx] != K_NONE) {
		/* Needed strictly now: what it needs is, too (once more in
		 * the queue, which has room for every symbol twice). */
		if (strict && !t->strict[idx]) {
			t->strict[idx] = 1;
			t->queue[(*nq)++] = idx;
		}
		return;
	}
	if (!trim_is_tristate(s) || kc_sym_tristate(t->k, s) == KC_NO)
		return;
	/* A trim decision is the user overriding the evidence: it does not
	 * protect the symbol (what depends on it shows as consequences). */
	if (kind != K_DECISION &&
	    decisions_get(t->in->d, kc_sym_name(s)) == DECISION_TRIM)
		return;
	t->keep[idx] = (unsigned char)kind;
	t->keep_by[idx] = by;
	t->strict[idx] = strict;
	if (by < 0)
		t->seed_val[idx] = kc_sym_tristate(t->k, s);
	t->queue[(*nq)++] = idx;
}

/* Whether a symbol has a prompt at all (shown now or not). */
static bool
keep_has_prompt(const struct kc_symbol *s)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind == KC_PROP_PROMPT)
			return true;
	}
	return false;
}

/*
 * What keeping the symbols of one side of an || would add: nothing for
 * what is kept already, a little for a negation (it holds once the
 * negated symbol is trimmed, or stays true), more for a new option, more
 * for a module, and more again for an option without a prompt (only a
 * selector of its own can hold it).
 */
static size_t
keep_side_cost(const struct trim *t, const struct kc_expr *e)
{
	struct kc_symbol	*x;
	size_t			 l, r;
	int			 xi;

	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
		return keep_side_cost(t, kc_expr_left(e)) +
		    keep_side_cost(t, kc_expr_right(e));
	case KC_EXPR_OR:
		l = kc_expr_eval(t->k, kc_expr_left(e)) != KC_NO ?
		    keep_side_cost(t, kc_expr_left(e)) : SIZE_MAX / 4;
		r = kc_expr_eval(t->k, kc_expr_right(e)) != KC_NO ?
		    keep_side_cost(t, kc_expr_right(e)) : SIZE_MAX / 4;
		return l < r ? l : r;
	case KC_EXPR_NOT:
		return 1;
	case KC_EXPR_SYMBOL:
		x = kc_expr_sym(e);
		xi = kc_sym_index(x);
		if (xi < 0 || kc_sym_is_const(x) || t->keep[xi] != K_NONE ||
		    kc_sym_tristate(t->k, x) == KC_NO)
			return 0;
		return 4 + (kc_sym_tristate(t->k, x) == KC_MOD ? 16 : 0) +
		    (keep_has_prompt(x) ? 0 : 8);
	default:
		return 2;
	}
}

/* Keep the symbols an expression needs to stay true: both sides of &&,
 * one true side of || (strictly: every true side); nothing under a
 * negation (trimming only turns things off, so a negated symbol never
 * needs protecting). */
static void
keep_expr(struct trim *t, const struct kc_expr *e, int by, size_t *nq)
{
	struct kc_symbol	*s;
	enum kc_tri		 l, r, v;

	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
		keep_expr(t, kc_expr_left(e), by, nq);
		keep_expr(t, kc_expr_right(e), by, nq);
		break;
	case KC_EXPR_OR:
		l = kc_expr_eval(t->k, kc_expr_left(e));
		r = kc_expr_eval(t->k, kc_expr_right(e));
		if (t->strict[by]) {
			if (l != KC_NO)
				keep_expr(t, kc_expr_left(e), by, nq);
			if (r != KC_NO)
				keep_expr(t, kc_expr_right(e), by, nq);
			break;
		}
		/* One side holds the value: of those giving the whole
		 * value, the cheaper to keep (the left on a tie). */
		v = l > r ? l : r;
		if (v == KC_NO)
			break;
		if (l == v && (r != v || keep_side_cost(t, kc_expr_left(e)) <=
		    keep_side_cost(t, kc_expr_right(e))))
			keep_expr(t, kc_expr_left(e), by, nq);
		else
			keep_expr(t, kc_expr_right(e), by, nq);
		break;
	case KC_EXPR_SYMBOL:
		keep_sym(t, kc_expr_sym(e), K_DEPEND, by, nq);
		break;
	case KC_EXPR_EQUAL:
	case KC_EXPR_UNEQUAL:
	case KC_EXPR_LTH:
	case KC_EXPR_LEQ:
	case KC_EXPR_GTH:
	case KC_EXPR_GEQ:
		if (kc_expr_eval(t->k, e) == KC_NO)
			break;
		if ((s = kc_expr_sym(e)) != NULL && !kc_sym_is_const(s))
			keep_sym(t, s, K_DEPEND, by, nq);
		if ((s = kc_expr_sym2(e)) != NULL && !kc_sym_is_const(s))
			keep_sym(t, s, K_DEPEND, by, nq);
		break;
	default:
		break;
	}
}

/* The OR terms of a selected_by expression that are true now. */
static void
keep_sel_terms(struct trim *t, const struct kc_expr *e,
    const struct kc_expr **terms, size_t *n, size_t max)
{
	if (kc_expr_op(e) == KC_EXPR_OR) {
		keep_sel_terms(t, kc_expr_left(e), terms, n, max);
		keep_sel_terms(t, kc_expr_right(e), terms, n, max);
		return;
	}
	if (*n < max && kc_expr_op(e) != KC_EXPR_NONE &&
	    kc_expr_eval(t->k, e) != KC_NO)
		terms[(*n)++] = e;
}

/* The selecting symbol of a select term ("A && cond"): its leftmost. */
static struct kc_symbol *
keep_term_sym(const struct kc_expr *e)
{
	while (kc_expr_op(e) == KC_EXPR_AND)
		e = kc_expr_left(e);
	return kc_expr_op(e) == KC_EXPR_SYMBOL ? kc_expr_sym(e) : NULL;
}

/* Count the symbols of e not kept yet (the direct part of what keeping
 * e would add). */
static size_t
keep_expr_new(const struct trim *t, const struct kc_expr *e)
{
	struct kc_symbol	*x;
	int			 xi;

	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		return keep_expr_new(t, kc_expr_left(e)) +
		    keep_expr_new(t, kc_expr_right(e));
	case KC_EXPR_SYMBOL:
		x = kc_expr_sym(e);
		xi = kc_sym_index(x);
		return xi >= 0 && t->keep[xi] == K_NONE &&
		    kc_sym_tristate(t->k, x) != KC_NO;
	default:
		return 0;
	}
}

/* What keeping a selector term ("A && cond") would cost: a module of its
 * own weighs most, then the objects it builds and the options its
 * dependencies would pull in; a y selector costs no module. */
static size_t
keep_selector_cost(const struct trim *t, const struct kc_expr *term)
{
	const struct kbuild_obj *const	*objs;
	struct kc_symbol		*x = keep_term_sym(term);
	size_t				 cost;

	if (x == NULL)
		return SIZE_MAX;
	cost = 4 * keep_expr_new(t, term) +
	    4 * keep_expr_new(t, kc_sym_depends(x));
	if (t->in->kb != NULL)
		cost += kbuild_symbol_objs(t->in->kb, kc_sym_name(x), &objs);
	if (kc_sym_tristate(t->k, x) == KC_MOD)
		cost += 16;
	return cost;
}

/*
 * A kept symbol whose value comes from a select (promptless ones, such as
 * SCSI_NETLINK, used by a loaded module but selected by drivers that are
 * not) stays only if one of its selectors does: keep one, the one already
 * kept, else the cheapest (keep_selector_cost()).
 */
static void
keep_selector(struct trim *t, struct kc_symbol *s, int idx, size_t *nq)
{
	const struct kc_expr	*terms[64], *pick = NULL;
	struct kc_symbol	*x;
	size_t			 n = 0, i, cost, pick_cost = 0;
	int			 xi;

	if (kc_sym_visible(t->k, s) != KC_NO)
		return;		/* the user's value holds it */
	/* Hidden now, but with a prompt: what hides it is often trimmed
	 * too (CFG80211_WEXT "if !CFG80211_WEXT_EXPORT"), and then the
	 * user's value holds it; if not, trim_settle() says so and the
	 * next keep-set is strict here. */
	if (!t->strict[idx] && keep_has_prompt(s))
		return;
	if (kc_sym_selected_value(t->k, s) == KC_NO)
		return;
	keep_sel_terms(t, kc_sym_selected_by(s), terms, &n, 64);
	for (i = 0; i < n; i++) {
		x = keep_term_sym(terms[i]);
		if (x == NULL || (xi = kc_sym_index(x)) < 0)
			continue;
		if (t->keep[xi] != K_NONE)
			return;
		cost = keep_selector_cost(t, terms[i]);
		if (pick == NULL || cost < pick_cost) {
			pick = terms[i];
			pick_cost = cost;
		}
	}
	if (pick != NULL)
		keep_expr(t, pick, idx, nq);
}

/*
 * A kept symbol whose value comes from a default (no prompt, as NETPOLL's
 * "def_bool NETCONSOLE", or no value of the user's) stays only while that
 * default does: keep the first active default's value and condition.
 */
static void
keep_default(struct trim *t, struct kc_symbol *s, int idx, size_t *nq)
{
	struct kc_prop_info	pi;
	int			i;

	if (kc_sym_visible(t->k, s) != KC_NO && kc_sym_has_user_value(s))
		return;		/* the user's value holds it */
	/* Hidden, with a prompt and a value of the user's: as in
	 * keep_selector(), the user's value once shown. */
	if (!t->strict[idx] && kc_sym_has_user_value(s) && keep_has_prompt(s))
		return;
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		if (pi.cond != NULL && kc_expr_eval(t->k, pi.cond) == KC_NO)
			continue;
		if (pi.cond != NULL)
			keep_expr(t, pi.cond, idx, nq);
		if (pi.expr != NULL)
			keep_expr(t, pi.expr, idx, nq);
		return;
	}
}

/*
 * The modules `make localmodconfig` keeps for a module it keeps: its
 * script reads Kconfig as text and keeps every module an expression
 * names, both sides of || and under a negation alike.
 */
static void
keep_named_modules(struct trim *t, const struct kc_expr *e, int by,
    size_t *nq)
{
	struct kc_symbol *s;

	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		keep_named_modules(t, kc_expr_left(e), by, nq);
		keep_named_modules(t, kc_expr_right(e), by, nq);
		return;
	case KC_EXPR_NOT:
		keep_named_modules(t, kc_expr_left(e), by, nq);
		return;
	case KC_EXPR_NONE:
	case KC_EXPR_RANGE:
		return;
	default:
		break;
	}
	if ((s = kc_expr_sym(e)) != NULL && !kc_sym_is_const(s) &&
	    kc_sym_tristate(t->k, s) == KC_MOD)
		keep_sym(t, s, K_DEPEND, by, nq);
	if ((s = kc_expr_sym2(e)) != NULL && !kc_sym_is_const(s) &&
	    kc_sym_tristate(t->k, s) == KC_MOD)
		keep_sym(t, s, K_DEPEND, by, nq);
}

/*
 * A module's needs as `make localmodconfig` sees them (the module-list
 * trim, trim_input.module_list): every module its dependencies name, and,
 * when it has dependencies, every module a default or its condition
 * names (the script counts a default read after a "depends on" or inside
 * an "if" block as one more dependency: KVM_X86's "def_tristate KVM if
 * (KVM_INTEL != n || KVM_AMD != n)" keeps kvm_amd with kvm on an Intel
 * machine).
 */
static void
keep_needs_named(struct trim *t, struct kc_symbol *s, int idx, size_t *nq)
{
	struct kc_prop_info	pi;
	int			i;

	if (kc_sym_tristate(t->k, s) != KC_MOD)
		return;
	keep_named_modules(t, kc_sym_depends(s), idx, nq);
	if (kc_sym_depends(s) == NULL)
		return;
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		keep_named_modules(t, pi.cond, idx, nq);
		keep_named_modules(t, pi.expr, idx, nq);
	}
}

/* What a kept symbol needs: its dependencies (with the enclosing menus'
 * "visible if" and its prompt's condition, else it would lose its value),
 * the default or selector its value comes from, and what it selects. */
static void
keep_needs(struct trim *t, int idx, size_t *nq)
{
	struct kc_symbol	*s = kconfig_symbol(t->k, idx);
	struct kc_menu		*m, *p;
	struct kc_prop_info	 pi;
	int			 i;

	keep_expr(t, kc_sym_depends(s), idx, nq);
	if (t->in->module_list)
		keep_needs_named(t, s, idx, nq);
	keep_selector(t, s, idx, nq);
	keep_default(t, s, idx, nq);
	if ((m = kc_sym_menu(s)) != NULL) {
		keep_expr(t, kc_menu_prompt_cond(m), idx, nq);
		for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p))
			keep_expr(t, kc_menu_visible_if(p), idx, nq);
	}
	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_SELECT || pi.target == NULL)
			continue;
		if (pi.cond != NULL && kc_expr_eval(t->k, pi.cond) == KC_NO)
			continue;
		/* "select B if C": B follows C. Keeping B would keep what B
		 * depends on, usually C itself, which the evidence for this
		 * symbol does not ask for (SECURITY_IPE's "select
		 * IPE_PROP_DM_VERITY if DM_VERITY" kept dm-verity). */
		if (pi.own_cond != NULL)
			continue;
		keep_sym(t, pi.target, K_SELECT, idx, nq);
	}
}

/* The disks of the bundles' mounts (first field /dev/NAME), from the
 * bundles' own mounts files: the evidence keeps fstype and mount point
 * only. */
static void
keep_disks(struct trim *t, size_t *nq)
{
	const struct evidence	*ev = t->in->ev;
	FILE			*f;
	char			*path, *line = NULL, *dev;
	size_t			 cap = 0, i, len;
	int			 j;

	for (j = 0; ev != NULL && j < evidence_nbundles(ev); j++) {
		path = xasprintf("%s/mounts", evidence_bundle(ev, j)->path);
		f = fopen(path, "r");
		free(path);
		if (f == NULL)
			continue;
		while (getline(&line, &cap, f) >= 0) {
			if (strncmp(line, "/dev/", 5) != 0)
				continue;
			dev = line + 5;
			for (i = 0; i < sizeof disk_drivers /
			    sizeof disk_drivers[0]; i++) {
				len = strlen(disk_drivers[i].prefix);
				if (strncmp(dev, disk_drivers[i].prefix,
				    len) == 0) {
					keep_sym(t, kconfig_find(t->k,
					    disk_drivers[i].sym), K_DISK, -1,
					    nq);
					break;
				}
			}
		}
		fclose(f);
	}
	free(line);
}

/* Whether an object is in a module now: every symbol it depends on is
 * on, one of them m (an object of y options only is built in, even when
 * named like a module: kernel/entry/kvm.o). */
static bool
keep_obj_modular(const struct trim *t, const struct kbuild_obj *o)
{
	struct kc_symbol	*s;
	enum kc_tri		 v;
	bool			 m = false;
	int			 i;

	for (i = 0; i < o->nconds; i++) {
		s = kconfig_find(t->k, o->conds[i]);
		if (s == NULL || (v = kc_sym_tristate(t->k, s)) == KC_NO)
			return false;
		m |= v == KC_MOD;
	}
	return m;
}

/* Whether an object file is the module itself ("drivers/ata/libahci.o"
 * for libahci; '-' and '_' alike, as module names go). */
static bool
keep_obj_is_module(const struct kbuild_obj *o, const char *module)
{
	const char	*base = strrchr(o->path, '/');
	size_t		 n = strlen(module);

	base = base != NULL ? base + 1 : o->path;
	return strlen(base) == n + 2 && modname_eqn(base, module, n) &&
	    strcmp(base + n, ".o") == 0;
}

/* Whether an object depends on sym. */
static bool
keep_obj_has(const struct kbuild_obj *o, const char *sym)
{
	int i;

	for (i = 0; i < o->nconds; i++) {
		if (strcmp(o->conds[i], sym) == 0)
			return true;
	}
	return false;
}

/*
 * The seeds of a module list alone, as `make localmodconfig` reads it:
 * for each loaded module, every option that builds it (obj-$(CONFIG_X) +=
 * mod.o, however many lines: libahci.o has one per AHCI driver) and what
 * every object in it depends on (obj-$(CONFIG_KVM) += kvm.o for the parts
 * of kvm, and the directories above); not the options that add optional
 * parts (kvm-$(CONFIG_HYPERV) += kvm_onhyperv.o).
 */
static void
keep_module_list(struct trim *t, size_t *nq)
{
	const struct kbuild_obj *const	*objs;
	const struct kbuild_obj		*first;
	const struct ev_item		*it;
	size_t				 i, n, j;
	int				 c;
	bool				 all;

	if (t->in->ev == NULL || t->in->kb == NULL)
		return;
	for (i = 0; i < evidence_count(t->in->ev, EV_MODULE); i++) {
		it = evidence_item(t->in->ev, EV_MODULE, i);
		n = kbuild_module(t->in->kb, it->name, &objs);
		first = NULL;
		for (j = 0; j < n; j++) {
			if (!keep_obj_modular(t, objs[j]))
				continue;
			if (first == NULL)
				first = objs[j];
			if (keep_obj_is_module(objs[j], it->name) &&
			    objs[j]->nconds > 0)
				keep_sym(t, kconfig_find(t->k, objs[j]->conds[
				    objs[j]->nconds - 1]), K_EVIDENCE, -1, nq);
		}
		for (c = 0; first != NULL && c < first->nconds; c++) {
			for (j = 0, all = true; j < n && all; j++) {
				if (keep_obj_modular(t, objs[j]))
					all = keep_obj_has(objs[j],
					    first->conds[c]);
			}
			if (all)
				keep_sym(t, kconfig_find(t->k,
				    first->conds[c]), K_EVIDENCE, -1, nq);
		}
	}
}

/*
 * minimal: what the recorded CPU needs, its vendor's options (support
 * code, microcode, machine checks; trim-cpu.c): code that runs at boot or
 * on a hardware event, which no trace shows. No vendor known: nothing
 * here, and the arch core keeps every vendor's (trim_minimal_allows()).
 */
static void
keep_cpu(struct trim *t, size_t *nq)
{
	struct kc_symbol	*s;
	const char		*vendor;
	bool			 needs;
	int			 i;

	if (t->st.cpu_vendor == NULL)
		return;
	for (i = 0; i < t->nsyms; i++) {
		s = kconfig_symbol(t->k, i);
		/* a module not loaded was not needed (localmodconfig's
		 * rule): only the built-in code that runs at boot */
		if (kc_sym_name(s) == NULL || kc_sym_tristate(t->k, s) !=
		    KC_YES || (vendor =
		    trim_cpu_option(kc_sym_name(s), NULL, &needs)) == NULL ||
		    !needs || strcmp(vendor, t->st.cpu_vendor) != 0)
			continue;
		keep_sym(t, s, K_CPU, -1, nq);
	}
}

/* Whether some bundle saw a filesystem type mounted. */
static bool
trim_mounted(const struct trim *t, const char *fstype)
{
	return t->in->ev != NULL &&
	    evidence_find(t->in->ev, EV_MOUNT, fstype) != NULL;
}

/*
 * Whether all a symbol's evidence is a whole module's (loaded, bound,
 * matched, or a function of it found in no file) and the symbol is only a
 * part of that module (struct attrib_ref's partial): snd_pcm loaded says
 * nothing of SND_PCM_ELD's pcm_drm_eld.o, HYPERV's kvm_onhyperv.o in kvm.
 * Its own functions in the trace would be refs that are not partial.
 */
bool
trim_partial(const struct attrib_sym *as)
{
	size_t i;

	for (i = 0; i < as->nrefs; i++) {
		if (!as->refs[i].partial)
			return false;
	}
	return as->nrefs > 0;
}

/*
 * Whether a symbol's evidence counts. A module's code runs only when the
 * module is loaded, so for module code whose module no bundle saw loaded,
 * an ambiguous trace match (a function name defined in several places,
 * "init_once") is some other definition's, and a CPU-feature alias match
 * is no device; everything else counts.
 */
static bool
trim_has_evidence(const struct trim *t, struct kc_symbol *s,
    const struct attrib_sym *as)
{
	size_t i;

	/* aggressive: a part of a loaded module (an option only some of
	 * its objects hang on) is evidenced by a function of its own in
	 * the trace, not by the module being there (trim_partial()). */
	if (t->st.aggressive && trim_partial(as))
		return false;
	/* m itself, or a y option inside an m one (its code is part of
	 * that module). */
	if (kc_sym_tristate(t->k, s) != KC_MOD &&
	    kc_expr_eval(t->k, kc_sym_depends(s)) != KC_MOD)
		return true;
	for (i = 0; i < as->nrefs; i++) {
		const struct ev_item *it = as->refs[i].item;

		if (it->kind == EV_TRACE && as->refs[i].ambiguous)
			continue;
		/* A CPU feature alias ("cpu:type:x86,...:feature:...")
		 * matches every module for any feature the CPU has (kvm_amd
		 * on an Intel CPU with SVM exposed, cpufreq drivers); the
		 * module not being loaded after coldplug says more. */
		if (it->kind == EV_DEVICE && strncmp(it->name, "cpu:", 4) == 0)
			continue;
		return true;
	}
	return false;
}

/* The verdict the trim rules use: trim_has_evidence() applied. */
enum verdict
trim_verdict(const struct trim *t, struct kc_symbol *s)
{
	const struct attrib_sym	*as;
	enum verdict		 v;

	if (t->in->a == NULL)
		return V_NONE;
	v = attrib_verdict(t->in->a, kc_sym_name(s));
	if ((v == V_USED || v == V_PLAUSIBLE) &&
	    (as = attrib_find(t->in->a, kc_sym_name(s))) != NULL &&
	    !trim_has_evidence(t, s, as))
		return V_NONE;
	return v;
}

/* The keep-set, breadth first from the seeds. */
void
trim_keep(struct trim *t)
{
	const struct attrib_sym	*as;
	struct kc_symbol	*s;
	size_t			 i, nq = 0, qi, n;
	enum decision		 d;
	const char		*reason;
	const char		*name;

	/* Afresh on each round (trim_suggest()); only strict_seed stays. */
	memset(t->keep, 0, (size_t)t->nsyms);
	memset(t->strict, 0, (size_t)t->nsyms);
	memset(t->keep_ess, 0, (size_t)t->nsyms * sizeof *t->keep_ess);
	t->st.keep = 0;
	if (t->in->module_list) {
		keep_module_list(t, &nq);
		goto decisions;
	}
	if (t->in->a != NULL) {
		n = attrib_count(t->in->a);
		for (i = 0; i < n; i++) {
			as = attrib_at(t->in->a, i);
			s = kconfig_find(t->k, as->name);
			/* verified: not the seeds a boot must confirm */
			if (s != NULL && t->unseed != NULL &&
			    t->unseed[kc_sym_index(s)])
				continue;
			if ((as->verdict == V_USED ||
			    as->verdict == V_PLAUSIBLE) && s != NULL &&
			    trim_has_evidence(t, s, as))
				keep_sym(t, s, K_EVIDENCE, -1, &nq);
		}
	}
	for (i = 0; i < sizeof essentials / sizeof essentials[0]; i++) {
		if (essentials[i].minimal && !t->st.minimal)
			continue;
		if (essentials[i].if_mounted != NULL &&
		    !trim_mounted(t, essentials[i].if_mounted))
			continue;
		s = kconfig_find(t->k, essentials[i].sym);
		if (s == NULL || kc_sym_index(s) < 0)
			continue;
		keep_sym(t, s, K_ESSENTIAL, -1, &nq);
		if (t->keep[kc_sym_index(s)] == K_ESSENTIAL)
			t->keep_ess[kc_sym_index(s)] = essentials[i].why;
	}
	keep_disks(t, &nq);
	if (t->st.minimal)
		keep_cpu(t, &nq);
decisions:
	n = decisions_count(t->in->d);
	for (i = 0; i < n; i++) {
		name = decisions_at(t->in->d, i, &d, &reason);
		if (d == DECISION_KEEP)
			keep_sym(t, kconfig_find(t->k, name), K_DECISION, -1,
			    &nq);
	}
	for (qi = 0; qi < nq; qi++)
		keep_needs(t, t->queue[qi], &nq);
	for (i = 0; i < (size_t)t->nsyms; i++)
		t->st.keep += t->keep[i] != K_NONE;
}

/* Why a symbol is kept, formatted on first use (most are never asked:
 * explain and the report ask for a few). */
const char *
trim_keep_reason(const struct trim *tc, const struct kc_symbol *s)
{
	struct trim	*t = (struct trim *)tc;
	int		 idx = kc_sym_index(s), by;
	const char	*what = NULL;

	if (idx < 0 || idx >= t->nsyms || t->keep[idx] == K_NONE)
		return NULL;
	if (t->keep_why[idx] != NULL)
		return t->keep_why[idx];
	by = t->keep_by[idx];
	switch (t->keep[idx]) {
	case K_EVIDENCE:
		t->keep_why[idx] = xasprintf("evidence (%s)", verdict_name(
		    attrib_verdict(t->in->a, kc_sym_name(s))));
		break;
	case K_ESSENTIAL:
		t->keep_why[idx] = xasprintf("boot essential: %s",
		    t->keep_ess[idx]);
		break;
	case K_DISK:
		t->keep_why[idx] = xstrdup("boot essential: driver of a "
		    "mounted disk");
		break;
	case K_DECISION:
		t->keep_why[idx] = xstrdup("decision: keep");
		break;
	case K_CPU:
		(void)trim_cpu_option(kc_sym_name(s), &what, NULL);
		t->keep_why[idx] = xasprintf("boot essential: the recorded "
		    "CPU's (%s) %s", t->st.cpu_vendor, what);
		break;
	case K_DEPEND:
		t->keep_why[idx] = xasprintf("needed by CONFIG_%s",
		    kc_sym_name(kconfig_symbol(t->k, by)));
		break;
	case K_SELECT:
		t->keep_why[idx] = xasprintf("selected by CONFIG_%s",
		    kc_sym_name(kconfig_symbol(t->k, by)));
		break;
	default:
		return NULL;
	}
	return t->keep_why[idx];
}

/*
 * Drop the tentative candidates that can't be set to n even with every
 * other candidate gone: those a staying symbol selects (directly or
 * through promptless symbols in between). Asked of the engine itself, on
 * the configuration, restored afterwards: setting all of them in passes
 * (a candidate selected by another becomes settable once that one is n)
 * leaves exactly those.
 */
size_t
trim_settle(struct trim *t)
{
	struct kc_values	*saved = NULL;
	struct trim_cand	*c;
	struct kc_symbol	*s;
	size_t			*all, *fail, nf, i, j, nlost = 0;
	int			 x;
	bool			 inc = kconfig_incremental(t->k), cp;

	all = xcalloc(t->ncands + 1, sizeof *all);
	fail = xcalloc(t->ncands + 1, sizeof *fail);
	for (i = 0; i < t->ncands; i++)
		all[i] = i;
	/* Each set recomputes only what reads the candidate. */
	kconfig_set_incremental(t->k, !t->in->full_recalc);
	/* Going back costs what changed (a checkpoint), else a save, a
	 * restore and a recompute of everything. */
	if (!(cp = kconfig_checkpoint(t->k)))
		saved = kconfig_values_save(t->k);
	nf = trim_set_all(t, t->k, all, t->ncands, fail);
	/* Every seed (evidence, essential, decision) must hold its value
	 * with everything trimmed; one that does not is kept strictly by
	 * the next round. A trim decision may take one down: that is the
	 * user's call, shown as a consequence. */
	for (x = 0; x < t->nsyms; x++) {
		if (t->keep_by[x] != -1 || t->keep[x] == K_NONE ||
		    t->keep[x] == K_DEPEND || t->keep[x] == K_SELECT ||
		    t->strict_seed[x])
			continue;
		s = kconfig_symbol(t->k, x);
		if (kc_sym_tristate(t->k, s) != t->seed_val[x]) {
			t->strict_seed[x] = 1;
			nlost++;
		}
	}
	if (cp)
		kconfig_rollback(t->k);
	else {
		kconfig_values_restore(t->k, saved);
		kconfig_values_free(saved);
		kconfig_recalc(t->k);
	}
	kconfig_set_incremental(t->k, inc);
	for (i = 0; i < nf; i++)
		t->cand_of[kc_sym_index(t->cands[fail[i]].sym)] = -1;
	free(all);
	free(fail);
	for (i = j = 0; i < t->ncands; i++) {
		c = &t->cands[i];
		if (t->cand_of[kc_sym_index(c->sym)] == -1)
			continue;
		if (i != j)
			t->cands[j] = *c;
		t->cand_of[kc_sym_index(c->sym)] = (int)j++;
	}
	t->ncands = j;
	return nlost;
}

/* The boot essentials table, for docs and tests to list. */
size_t
trim_essentials(const struct trim_essential **list)
{
	*list = essentials;
	return sizeof essentials / sizeof essentials[0];
}
