/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim.c - trim suggestions and their consequences.
 *
 * The keep-set is computed first (evidence, boot essentials, keep
 * decisions, then what those depend on and select, transitively); the
 * candidates are the visible y/m options outside it that the policy
 * allows, grouped by the menus they sit in. Consequences are computed by
 * the engine itself on the caller's configuration: save the user values,
 * set the candidates to n, recompute, compare every symbol, restore. That
 * is the only way to see exactly what conf would do (choices, selects,
 * defaults that follow other symbols).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/clock.h"
#include "../lib/util.h"
#include "attrib.h"
#include "decisions.h"
#include "evidence.h"
#include "kbuild.h"
#include "trim.h"

/*
 * Boot essentials evidence can't see: a running system's evidence is
 * recorded after boot, so what only the boot path uses (unpacking the
 * initramfs, mounting devtmpfs, running init) leaves no trace, and a
 * console is used only when something goes wrong. Each stays, with what
 * it needs. if_mounted: only when a bundle saw that filesystem mounted.
 */
static const struct trim_essential essentials[] = {
	/* Console: where boot messages and emergency shells go. */
	{ "TTY", "the console is a tty", NULL },
	{ "VT", "virtual terminals: the local console", NULL },
	{ "VT_CONSOLE", "kernel messages on the virtual terminal", NULL },
	{ "HW_CONSOLE", "the VT's hardware console", NULL },
	{ "VGA_CONSOLE", "text console before any framebuffer", NULL },
	{ "DUMMY_CONSOLE", "the VT needs a console driver at all times", NULL },
	{ "FRAMEBUFFER_CONSOLE", "console on the (EFI/VESA) framebuffer", NULL },
	{ "UNIX98_PTYS", "ptys for logins and terminals", NULL },
	{ "SERIAL_8250", "serial console (ttyS0), the console of VMs", NULL },
	{ "SERIAL_8250_CONSOLE", "kernel messages on the serial port", NULL },
	{ "SERIAL_8250_PNP", "finds the PC's serial ports", NULL },
	/* Init support: used once, before any evidence is recorded. */
	{ "BLK_DEV_INITRD", "the initramfs is unpacked at boot", NULL },
	{ "RD_GZIP", "initramfs images may be gzip-compressed", NULL },
	{ "RD_XZ", "initramfs images may be xz-compressed", NULL },
	{ "RD_ZSTD", "initramfs images may be zstd-compressed", NULL },
	{ "DEVTMPFS", "udev and the initramfs expect /dev populated", NULL },
	{ "DEVTMPFS_MOUNT", "/dev mounted before init", NULL },
	{ "UNIX", "init, udev and journald talk over unix sockets", NULL },
	{ "BINFMT_ELF", "init is an ELF binary", NULL },
	{ "BINFMT_SCRIPT", "initramfs scripts start with #!", NULL },
	{ "PROC_FS", "/proc: every init system reads it", NULL },
	{ "SYSFS", "/sys: udev and the initramfs read it", NULL },
	{ "TMPFS", "tmpfs is mounted (/run, /dev/shm)", "tmpfs" },
	{ "FHANDLE", "systemd and udev use name_to_handle_at", NULL },
	{ "INOTIFY_USER", "init systems watch files with inotify", NULL },
	{ "BLOCK", "disks at all", NULL },
	{ "MSDOS_PARTITION", "the root disk's partition table", NULL },
	{ "EFI_PARTITION", "the root disk's GPT partition table", NULL },
	/* Modules: loading the modules that the evidence says are used. */
	{ "MODULES", "the used modules must stay loadable", NULL },
	{ "MODULE_UNLOAD", "module tools expect unload", NULL },
	{ "MODVERSIONS", "the installed module tools and modules use it", NULL },
	{ "MODULE_COMPRESS_NONE", "how the modules are packed", NULL },
	{ "MODULE_COMPRESS_GZIP", "how the modules are packed", NULL },
	{ "MODULE_COMPRESS_XZ", "how the modules are packed", NULL },
	{ "MODULE_COMPRESS_ZSTD", "how the modules are packed", NULL },
	{ "MODULE_DECOMPRESS", "the kernel unpacks compressed modules", NULL },
	{ "MODULE_SIG", "signed modules are checked", NULL },
	{ "MODULE_SIG_ALL", "modules are signed at install", NULL },
	{ "MODULE_SIG_SHA256", "the modules' signature hash", NULL },
	{ "MODULE_SIG_SHA384", "the modules' signature hash", NULL },
	{ "MODULE_SIG_SHA512", "the modules' signature hash", NULL },
	/* Firmware interfaces: booted through them, never traced after. */
	{ "EFI", "booting on UEFI firmware", NULL },
	{ "EFI_STUB", "the firmware starts the kernel directly", NULL },
	{ "ACPI", "the firmware's description of the machine", NULL },
	{ "PCI", "the bus everything else sits on", NULL },
	/* Networking: DHCP before any recording starts. */
	{ "NET", "networking at all", NULL },
	{ "INET", "TCP/IP", NULL },
	{ "PACKET", "DHCP clients open packet sockets", NULL },
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

/*
 * Top-level menus that are the architecture's core: their built-in (y)
 * options are never trimmed (the CPU itself); their modules are, as any
 * module no bundle saw loaded.
 */
static const char *const arch_menus[] = {
	"Processor type and features",
	"Binary Emulations",
};

/* Top-level menus whose built-in options the aggressive policy may trim
 * when none of their code ran: drivers, filesystems, networking. */
static const char *const driver_menus[] = {
	"Device Drivers",
	"File systems",
	"Networking support",
};

/* Rounds of the keep-set at most (trim_suggest()). */
#define TRIM_MAX_ROUNDS 6

enum keep_kind {
	K_NONE, K_EVIDENCE, K_ESSENTIAL, K_DEPEND, K_SELECT, K_DECISION,
	K_DISK
};

enum why_kind { W_DEPEND, W_SELECT, W_IMPLY, W_DEFAULT, W_NKINDS };

/* .ko sizes by module name ('-' as '_'). */
struct ko_map {
	char			**names;
	unsigned long long	 *sizes;
	size_t			  size, count;
};

/* A menu's path, and its subsystem once one was made (-1 before). */
struct trim_pathent {
	struct kc_menu	*menu;		/* the nearest menu; NULL: top level */
	char		*path;
	long		 subsys;
};

struct trim {
	struct kconfig		*k;
	const struct trim_input	*in;
	int			 nsyms;
	unsigned char		*keep;		/* enum keep_kind */
	int			*keep_by;	/* symbol that needed it */
	const char		**keep_ess;	/* essential's why */
	char			**keep_why;	/* formatted lazily */
	/* Keeping with every true side of an || and a selector even for a
	 * symbol with a (hidden) prompt: for the seeds a first, cheaper
	 * keep-set did not hold, and what they need (trim_keep()). */
	unsigned char		*strict, *strict_seed;
	enum kc_tri		*seed_val;	/* a seed's value to hold */
	int			*cand_of;	/* symbol -> candidate, -1 */
	struct trim_cand	*cands;
	size_t			 ncands, acands;
	struct trim_subsys	*subs;
	struct kc_menu		**sub_menu;
	/* Menu paths by nearest menu (trim_menu_path()): each candidate
	 * asks, most share one. */
	struct trim_pathent	*paths;
	size_t			 npaths, apaths;
	size_t			 nsubs, asubs;
	char			**whys;		/* W_NKINDS per symbol */
	enum kc_tri		*before, *after;
	int			*queue;
	/* The symbols a consequence evaluated (trim_propagate). */
	unsigned		*mark, markgen;
	unsigned		*acc, accgen;	/* in this call's set */
	int			*affected;
	/* The values of the configuration as last seen whole, and the user
	 * values they were computed from: while those are unchanged, the
	 * "before" side of a consequence needs no recompute. */
	enum kc_tri		*base;
	unsigned char		*base_has, *base_tri;
	const char		**base_str;
	enum kc_tri		*base_val, *base_vis;	/* every symbol */
	const char		**base_cur;
	bool			 base_ok;
	/* The context and user generation the baseline was taken in, and
	 * the one last found to have its user values: O(1) revalidation. */
	const struct kconfig	*base_k;
	uint64_t		 base_gen;
	struct ko_map		 ko;
	struct trim_stats	 st;
};

/* ------------------------------------------------------------ helpers */

static bool
trim_is_tristate(const struct kc_symbol *s)
{
	enum kc_type t = kc_sym_type(s);

	return t == KC_BOOL || t == KC_TRISTATE;
}

/* Whether a path's first component is one of names. */
static bool
trim_top_is(const char *path, const char *const *names, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (strncmp(path, names[i], len) == 0 &&
		    (path[len] == '\0' || strncmp(path + len, " > ", 3) == 0))
			return true;
	}
	return false;
}

/* Defined in the architecture's own top Kconfig files (arch/Kconfig,
 * arch/ARCH/Kconfig*), not in a subsystem below arch/ARCH. */
static bool
trim_arch_file(const char *file)
{
	const char *p;

	if (file == NULL)
		return false;
	if (strncmp(file, "./", 2) == 0)
		file += 2;
	if (strcmp(file, "arch/Kconfig") == 0)
		return true;
	if (strncmp(file, "arch/", 5) != 0 || (p = strchr(file + 5, '/')) ==
	    NULL)
		return false;
	return strncmp(p + 1, "Kconfig", 7) == 0 && strchr(p + 1, '/') == NULL;
}

/* ------------------------------------------------------------ ko sizes */

static size_t
ko_hash(const char *s)
{
	return hash_str(s, strlen(s));
}

static void
ko_put(struct ko_map *m, const char *name, unsigned long long size)
{
	size_t i, j;

	if (m->count * 2 >= m->size) {
		struct ko_map	n;

		n.size = m->size ? m->size * 2 : 1024;
		n.count = 0;
		n.names = xcalloc(n.size, sizeof *n.names);
		n.sizes = xcalloc(n.size, sizeof *n.sizes);
		for (i = 0; i < m->size; i++) {
			if (m->names[i] == NULL)
				continue;
			for (j = ko_hash(m->names[i]) & (n.size - 1);
			    n.names[j] != NULL; j = (j + 1) & (n.size - 1))
				;
			n.names[j] = m->names[i];
			n.sizes[j] = m->sizes[i];
			n.count++;
		}
		free(m->names);
		free(m->sizes);
		*m = n;
	}
	for (j = ko_hash(name) & (m->size - 1); m->names[j] != NULL;
	    j = (j + 1) & (m->size - 1)) {
		if (strcmp(m->names[j], name) == 0)
			return;		/* first one found wins */
	}
	m->names[j] = xstrdup(name);
	m->sizes[j] = size;
	m->count++;
}

static unsigned long long
ko_get(const struct ko_map *m, const char *name)
{
	size_t j;

	if (m->size == 0)
		return 0;
	for (j = ko_hash(name) & (m->size - 1); m->names[j] != NULL;
	    j = (j + 1) & (m->size - 1)) {
		if (strcmp(m->names[j], name) == 0)
			return m->sizes[j];
	}
	return 0;
}

/* Module names use '_' in the map ("snd-hda-intel" is snd_hda_intel). */
static char *
ko_name(const char *s, size_t len)
{
	char	*n = xstrndup(s, len), *p;

	for (p = n; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

static struct ko_map *ko_walking;	/* nftw has no argument pointer */

/* One file under /lib/modules/VERSION: NAME.ko[.xz|.zst|.gz]. */
static int
ko_visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	const char	*base = path + f->base, *dot;
	char		*name;

	if (flag != FTW_F)
		return 0;
	if ((dot = strstr(base, ".ko")) == NULL || (dot[3] != '\0' &&
	    dot[3] != '.'))
		return 0;
	name = ko_name(base, (size_t)(dot - base));
	ko_put(ko_walking, name, (unsigned long long)st->st_size);
	free(name);
	return 0;
}

/* Sizes of the modules: the .ko files of the installed tree when there
 * is one, then the loaded modules' sizes of the bundles. */
static void
ko_load(struct trim *t)
{
	const struct evidence	*ev = t->in->ev;
	const struct ev_bundle	*b;
	const struct ev_item	*it;
	struct stat		 st;
	char			*dir = NULL, *name;
	size_t			 i, n;
	int			 j;

	if (t->in->modules_dir != NULL)
		dir = xstrdup(t->in->modules_dir);
	for (j = 0; dir == NULL && ev != NULL && j < evidence_nbundles(ev);
	    j++) {
		b = evidence_bundle(ev, j);
		if (b->release != NULL)
			dir = xasprintf("/lib/modules/%s", b->release);
	}
	if (dir != NULL && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* Static pointer: trim_suggest runs nftw from one thread
		 * at a time only in practice; guard by resetting. */
		ko_walking = &t->ko;
		nftw(dir, ko_visit, 16, FTW_PHYS);
		ko_walking = NULL;
		if (t->ko.count != 0)
			t->st.modules_dir = xstrdup(dir);
	}
	free(dir);
	n = ev != NULL ? evidence_count(ev, EV_MODULE) : 0;
	for (i = 0; i < n; i++) {
		it = evidence_item(ev, EV_MODULE, i);
		if (it->detail == NULL)
			continue;
		name = ko_name(it->name, strlen(it->name));
		ko_put(&t->ko, name, strtoull(it->detail, NULL, 10));
		free(name);
	}
}

static void
ko_free(struct ko_map *m)
{
	size_t i;

	for (i = 0; i < m->size; i++)
		free(m->names[i]);
	free(m->names);
	free(m->sizes);
}

/* ------------------------------------------------------------ keep-set */

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
	size_t		 i, n = strlen(module);

	base = base != NULL ? base + 1 : o->path;
	for (i = 0; i < n; i++) {
		if (base[i] != module[i] && !((base[i] == '-' ||
		    base[i] == '_') && (module[i] == '-' || module[i] == '_')))
			return false;
	}
	return strcmp(base + n, ".o") == 0;
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

/* Whether some bundle saw a filesystem type mounted. */
static bool
trim_mounted(const struct trim *t, const char *fstype)
{
	return t->in->ev != NULL &&
	    evidence_find(t->in->ev, EV_MOUNT, fstype) != NULL;
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
static enum verdict
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
static void
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
			if ((as->verdict == V_USED ||
			    as->verdict == V_PLAUSIBLE) && s != NULL &&
			    trim_has_evidence(t, s, as))
				keep_sym(t, s, K_EVIDENCE, -1, &nq);
		}
	}
	for (i = 0; i < sizeof essentials / sizeof essentials[0]; i++) {
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

const char *
trim_keep_reason(const struct trim *tc, const struct kc_symbol *s)
{
	struct trim	*t = (struct trim *)tc;
	int		 idx = kc_sym_index(s), by;

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

/* ---------------------------------------------------------- candidates */

/* The menu path of an entry: its enclosing menus' prompts. */
static char *
trim_path(struct kc_menu *m, struct kc_menu **nearest)
{
	struct kc_menu	*p, *chain[64];
	struct strbuf	 sb;
	size_t		 n = 0;
	const char	*prompt;

	*nearest = NULL;
	for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p)) {
		/* The root's prompt is the main menu title, not a menu. */
		if (kc_menu_kind(p) != KC_MENU_MENU || kc_menu_parent(p) ==
		    NULL || (prompt = kc_menu_prompt(p)) == NULL)
			continue;
		if (*nearest == NULL)
			*nearest = p;
		if (n < sizeof chain / sizeof chain[0])
			chain[n++] = p;
	}
	if (n == 0)
		return xstrdup("(top level)");
	strbuf_init(&sb);
	while (n-- > 0)
		strbuf_addf(&sb, "%s%s", sb.len ? " > " : "",
		    kc_menu_prompt(chain[n]));
	return strbuf_detach(&sb);
}

/* The nearest menu above an entry (as trim_path() finds it), or NULL. */
static struct kc_menu *
trim_nearest(struct kc_menu *m)
{
	struct kc_menu *p;

	for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p)) {
		if (kc_menu_kind(p) == KC_MENU_MENU && kc_menu_parent(p) !=
		    NULL && kc_menu_prompt(p) != NULL)
			return p;
	}
	return NULL;
}

/*
 * An entry's menu path, owned by the trim: a path depends only on the
 * nearest menu, so it is formatted once per menu (slot in t->paths; the
 * last one found first: entries come in menu order).
 */
static struct trim_pathent *
trim_menu_path(struct trim *t, struct kc_menu *m)
{
	struct kc_menu		*nearest = trim_nearest(m), *dummy;
	struct trim_pathent	*e;
	size_t			 i;

	if (t->npaths != 0 && t->paths[t->npaths - 1].menu == nearest)
		return &t->paths[t->npaths - 1];
	for (i = 0; i < t->npaths; i++) {
		if (t->paths[i].menu == nearest) {
			/* Move it last, for the next entries of its menu. */
			struct trim_pathent tmp = t->paths[i];

			memmove(&t->paths[i], &t->paths[i + 1],
			    (t->npaths - i - 1) * sizeof *t->paths);
			t->paths[t->npaths - 1] = tmp;
			return &t->paths[t->npaths - 1];
		}
	}
	if (t->npaths == t->apaths) {
		t->apaths = t->apaths ? t->apaths * 2 : 64;
		t->paths = xrealloc(t->paths, t->apaths * sizeof *t->paths);
	}
	e = &t->paths[t->npaths++];
	e->menu = nearest;
	e->path = trim_path(m, &dummy);
	e->subsys = -1;
	return e;
}

/* The subsystem of a candidate's menu entry (created on first use). */
static size_t
trim_subsys_of(struct trim *t, struct kc_menu *m)
{
	struct trim_pathent	*e = trim_menu_path(t, m);

	if (e->subsys >= 0)
		return (size_t)e->subsys;
	if (t->nsubs == t->asubs) {
		t->asubs = t->asubs ? t->asubs * 2 : 64;
		t->subs = xrealloc(t->subs, t->asubs * sizeof *t->subs);
		t->sub_menu = xrealloc(t->sub_menu, t->asubs *
		    sizeof *t->sub_menu);
	}
	memset(&t->subs[t->nsubs], 0, sizeof t->subs[t->nsubs]);
	t->subs[t->nsubs].path = xstrdup(e->path);
	t->sub_menu[t->nsubs] = e->menu;
	e->subsys = (long)t->nsubs;
	return t->nsubs++;
}

/* Whether the policy lets a symbol with this value, verdict and place be
 * a candidate; *why is set to the reason it would be. */
static bool
trim_policy_allows(struct trim *t, struct kc_symbol *s, enum kc_tri v,
    enum verdict vd, const char *path, const char *file)
{
	bool arch = trim_top_is(path, arch_menus, sizeof arch_menus /
	    sizeof arch_menus[0]) || trim_arch_file(file);

	/* A module no bundle saw loaded was not needed to boot or run the
	 * recorded machine, arch core or not (localmodconfig's rule too). */
	if (v == KC_MOD)
		return true;
	/* y: only aggressive, only code that could have been traced, only
	 * drivers, filesystems and networking, never the arch core. */
	if (!t->st.aggressive || arch || vd != V_NONE)
		return false;
	(void)s;
	return trim_top_is(path, driver_menus, sizeof driver_menus /
	    sizeof driver_menus[0]);
}

/* The estimated saving: objects, modules, .ko bytes. */
static void
trim_saving(struct trim *t, struct trim_cand *c)
{
	const struct kbuild_obj	*const *objs;
	const char		**mods;
	char			*name;
	size_t			  n, i, j, nm = 0;

	if (t->in->kb == NULL)
		return;
	n = kbuild_symbol_objs(t->in->kb, c->name, &objs);
	c->nobjs = n;
	mods = xcalloc(n + 1, sizeof *mods);
	for (i = 0; i < n; i++) {
		if (objs[i]->module == NULL)
			continue;
		for (j = 0; j < nm && strcmp(mods[j], objs[i]->module) != 0;
		    j++)
			;
		if (j < nm)
			continue;
		mods[nm++] = objs[i]->module;
		if (c->value == KC_MOD) {
			name = ko_name(objs[i]->module,
			    strlen(objs[i]->module));
			c->ko_bytes += ko_get(&t->ko, name);
			t->st.ko_found += ko_get(&t->ko, name) != 0;
			free(name);
		}
	}
	c->nmodules = nm;
	free(mods);
}

/* The reason text of a candidate. */
static char *
trim_reason(struct trim *t, struct trim_cand *c, enum verdict vd)
{
	const char *dr;

	if (c->decided) {
		dr = decisions_reason(t->in->d, c->name);
		return xasprintf("decision: trim%s%s%s", dr ? " (" : "",
		    dr ? dr : "", dr ? ")" : "") ;
	}
	if (c->value == KC_MOD) {
		if (t->in->a != NULL && attrib_find(t->in->a, c->name) != NULL)
			return xstrdup("module not loaded; its only evidence "
			    "is trace names defined elsewhere too");
		if (vd == V_NO_CODE)
			return xstrdup("module option with no evidence; "
			    "builds no object itself");
		return xstrdup("module not loaded; no device, driver, mount "
		    "or trace names it");
	}
	return xasprintf("built in, but none of its %zu object%s' "
	    "functions ran in the trace", c->nobjs, c->nobjs == 1 ? "" : "s");
}

/* Walk the menus: tentative candidates, in menu order. */
static void
trim_collect(struct trim *t)
{
	struct kc_menu		*m;
	struct kc_symbol	*s;
	struct trim_cand	*c;
	const char		*name;
	const char		*path;
	enum kc_tri		 v;
	enum verdict		 vd;
	enum decision		 d;
	int			 idx;
	bool			 decided;

	for (m = kconfig_root(t->k); m != NULL; m = kc_menu_walk(m)) {
		if ((s = kc_menu_sym(m)) == NULL || kc_sym_menu(s) != m ||
		    (name = kc_sym_name(s)) == NULL || kc_sym_is_choice(s) ||
		    !trim_is_tristate(s) || (idx = kc_sym_index(s)) < 0)
			continue;
		if ((v = kc_sym_tristate(t->k, s)) == KC_NO)
			continue;
		d = decisions_get(t->in->d, name);
		vd = trim_verdict(t, s);
		if (d == DECISION_KEEP) {
			if (t->keep[idx] == K_DECISION && vd != V_USED &&
			    vd != V_PLAUSIBLE && kc_sym_visible(t->k, s) !=
			    KC_NO)
				t->st.kept_by_decision++;
			continue;
		}
		decided = d == DECISION_TRIM;
		if (!decided && t->keep[idx] != K_NONE)
			continue;
		if (kc_sym_visible(t->k, s) == KC_NO)
			continue;
		path = trim_menu_path(t, m)->path;
		if (!decided && !trim_policy_allows(t, s, v, vd, path,
		    kc_menu_file(m)))
			continue;
		if (t->ncands == t->acands) {
			t->acands = t->acands ? t->acands * 2 : 256;
			t->cands = xrealloc(t->cands, t->acands *
			    sizeof *t->cands);
		}
		c = &t->cands[t->ncands];
		memset(c, 0, sizeof *c);
		c->sym = s;
		c->name = name;
		c->value = v;
		c->decided = decided;
		t->cand_of[idx] = (int)t->ncands++;
	}
}

static size_t trim_set_all(struct trim *, struct kconfig *, const size_t *,
    size_t, size_t *);

/* Forget the candidates of a round (trim_suggest()). */
static void
trim_uncollect(struct trim *t)
{
	size_t i;

	for (i = 0; i < t->ncands; i++)
		t->cand_of[kc_sym_index(t->cands[i].sym)] = -1;
	t->ncands = 0;
	t->st.kept_by_decision = 0;
}

/*
 * Drop the tentative candidates that can't be set to n even with every
 * other candidate gone: those a staying symbol selects (directly or
 * through promptless symbols in between). Asked of the engine itself, on
 * the configuration, restored afterwards: setting all of them in passes
 * (a candidate selected by another becomes settable once that one is n)
 * leaves exactly those.
 */
static size_t
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

/* Reasons, savings and subsystems of the final candidates. */
static void
trim_describe(struct trim *t)
{
	struct trim_cand	*c;
	struct trim_subsys	*sub;
	enum verdict		 vd;
	size_t			 i;

	for (i = 0; i < t->ncands; i++) {
		c = &t->cands[i];
		vd = trim_verdict(t, c->sym);
		trim_saving(t, c);
		c->reason = trim_reason(t, c, vd);
		c->subsys = trim_subsys_of(t, kc_sym_menu(c->sym));
		if (c->decided)
			t->st.trimmed_by_decision++;
		sub = &t->subs[c->subsys];
		sub->cands = xrealloc(sub->cands, (sub->ncands + 1) *
		    sizeof *sub->cands);
		sub->cands[sub->ncands++] = i;
	}
}

static int
trim_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How many y/m symbols accepting each whole subsystem turns off (timed:
 * this is the recompute the TUI's worker runs per subsystem). */
static int
trim_removes(struct trim *t, char **cause)
{
	struct trim_change	*ch;
	size_t			 i, j, n;
	double			*ms, t0;

	ms = xcalloc(t->nsubs + 1, sizeof *ms);
	for (i = 0; i < t->nsubs; i++) {
		t0 = clock_now() * 1e3;
		if (trim_consequences(t, t->k, t->subs[i].cands,
		    t->subs[i].ncands, &ch, &n, cause) != 0) {
			free(ms);
			return -1;
		}
		ms[i] = clock_now() * 1e3 - t0;
		t->st.removes_total_ms += ms[i];
		t->subs[i].removes = 0;
		for (j = 0; j < n; j++)
			t->subs[i].removes += ch[j].before != KC_NO &&
			    ch[j].after == KC_NO;
		free(ch);
	}
	if (t->nsubs != 0) {
		qsort(ms, t->nsubs, sizeof *ms, trim_cmp_double);
		t->st.removes_median_ms = ms[t->nsubs / 2];
		t->st.removes_max_ms = ms[t->nsubs - 1];
	}
	free(ms);
	return 0;
}

struct trim *
trim_suggest(struct kconfig *k, const struct trim_input *in, char **cause)
{
	struct trim	*t = xcalloc(1, sizeof *t);
	size_t		 lost;
	int		 i, round;

	t->k = k;
	t->in = in;
	t->nsyms = kconfig_nsymbols(k);
	t->keep = xcalloc((size_t)t->nsyms + 1, 1);
	t->keep_by = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_by);
	t->keep_ess = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_ess);
	t->keep_why = xcalloc((size_t)t->nsyms + 1, sizeof *t->keep_why);
	t->cand_of = xcalloc((size_t)t->nsyms + 1, sizeof *t->cand_of);
	t->whys = xcalloc((size_t)t->nsyms * W_NKINDS + 1, sizeof *t->whys);
	t->before = xcalloc((size_t)t->nsyms + 1, sizeof *t->before);
	t->after = xcalloc((size_t)t->nsyms + 1, sizeof *t->after);
	t->strict = xcalloc((size_t)t->nsyms + 1, 1);
	t->strict_seed = xcalloc((size_t)t->nsyms + 1, 1);
	t->seed_val = xcalloc((size_t)t->nsyms + 1, sizeof *t->seed_val);
	/* Each symbol enters the queue once, and once more when it turns
	 * strict. */
	t->queue = xcalloc(2 * (size_t)t->nsyms + 1, sizeof *t->queue);
	for (i = 0; i < t->nsyms; i++)
		t->cand_of[i] = -1;

	t->st.aggressive = in->policy == TRIM_POLICY_AGGRESSIVE;
	if (t->st.aggressive && (in->ev == NULL ||
	    evidence_count(in->ev, EV_TRACE) == 0)) {
		t->st.aggressive = false;
		t->st.note = "aggressive needs a bundle with a trace: "
		    "built-in options were not considered (modules policy)";
	}
	kconfig_recalc(k);
	ko_load(t);
	/*
	 * The keep-set, tried cheap first: one side of each ||, no selector
	 * for a hidden option with a prompt. The seeds it fails to hold are
	 * kept strictly the next round; each round only adds strict seeds,
	 * and the last makes them all strict (the safe, larger keep-set).
	 */
	for (round = 1;; round++) {
		trim_keep(t);
		trim_collect(t);
		if ((lost = trim_settle(t)) == 0 || round == TRIM_MAX_ROUNDS)
			break;
		t->st.strict_seeds += lost;
		trim_uncollect(t);
		if (round == TRIM_MAX_ROUNDS - 1)
			memset(t->strict_seed, 1, (size_t)t->nsyms);
	}
	t->st.keep_rounds = round;
	trim_describe(t);
	if (!in->no_removes && trim_removes(t, cause) != 0) {
		trim_free(t);
		return NULL;
	}
	return t;
}

void
trim_free(struct trim *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ncands; i++)
		free(t->cands[i].reason);
	free(t->cands);
	for (i = 0; i < t->nsubs; i++) {
		free(t->subs[i].path);
		free(t->subs[i].cands);
	}
	free(t->subs);
	free(t->sub_menu);
	for (i = 0; i < t->npaths; i++)
		free(t->paths[i].path);
	free(t->paths);
	for (i = 0; i < (size_t)t->nsyms; i++)
		free(t->keep_why[i]);
	for (i = 0; i < (size_t)t->nsyms * W_NKINDS; i++)
		free(t->whys[i]);
	free(t->whys);
	free(t->keep_why);
	free(t->keep_ess);
	free(t->keep_by);
	free(t->keep);
	free(t->cand_of);
	free(t->before);
	free(t->after);
	free(t->queue);
	free(t->strict);
	free(t->strict_seed);
	free(t->seed_val);
	free(t->base_val);
	free(t->base_vis);
	free(t->base_cur);
	free(t->mark);
	free(t->acc);
	free(t->affected);
	free(t->base);
	free(t->base_has);
	free(t->base_tri);
	free(t->base_str);
	free(t->st.modules_dir);
	ko_free(&t->ko);
	free(t);
}

size_t
trim_ncands(const struct trim *t)
{
	return t->ncands;
}

struct trim_cand *
trim_cand(struct trim *t, size_t i)
{
	return i < t->ncands ? &t->cands[i] : NULL;
}

size_t
trim_nsubsys(const struct trim *t)
{
	return t->nsubs;
}

struct trim_subsys *
trim_subsys(struct trim *t, size_t i)
{
	return i < t->nsubs ? &t->subs[i] : NULL;
}

long
trim_cand_of(const struct trim *t, const struct kc_symbol *s)
{
	int idx = kc_sym_index(s);

	return idx < 0 || idx >= t->nsyms ? -1 : t->cand_of[idx];
}

void
trim_get_stats(const struct trim *t, struct trim_stats *st)
{
	*st = t->st;
}

size_t
trim_essentials(const struct trim_essential **list)
{
	*list = essentials;
	return sizeof essentials / sizeof essentials[0];
}

/* -------------------------------------------------------- consequences */

/* Set candidates to n, in passes: a candidate selected by another one
 * becomes settable only once that one is n. Returns how many could not
 * be set; with fail, their indexes there. */
static size_t
trim_set_all(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, size_t *fail)
{
	struct kc_symbol	*s;
	size_t			*pending, np = 0, i, j;
	bool			 progress = true;

	pending = xcalloc(n + 1, sizeof *pending);
	for (i = 0; i < n; i++) {
		if (cands[i] < t->ncands)
			pending[np++] = cands[i];
	}
	while (np != 0 && progress) {
		progress = false;
		for (i = j = 0; i < np; i++) {
			/* k may be another parse of the same tree (the
			 * TUI's worker): same indexes, its own symbols. */
			s = kconfig_symbol(k, kc_sym_index(
			    t->cands[pending[i]].sym));
			if (kc_sym_tristate(k, s) == KC_NO ||
			    kc_sym_set_tristate(k, s, KC_NO))
				progress = true;
			else
				pending[j++] = pending[i];
		}
		np = j;
	}
	if (fail != NULL)
		memcpy(fail, pending, np * sizeof *pending);
	free(pending);
	return np;
}

/* The first symbol of an expression whose value changed. */
static struct kc_symbol *
trim_changed_in(struct trim *t, const struct kc_expr *e)
{
	struct kc_symbol	*s;
	int			 idx;

	switch (kc_expr_op(e)) {
	case KC_EXPR_NONE:
		return NULL;
	case KC_EXPR_OR:
	case KC_EXPR_AND:
		if ((s = trim_changed_in(t, kc_expr_left(e))) != NULL)
			return s;
		return trim_changed_in(t, kc_expr_right(e));
	case KC_EXPR_NOT:
		return trim_changed_in(t, kc_expr_left(e));
	default:
		s = kc_expr_sym(e);
		if (s != NULL && (idx = kc_sym_index(s)) >= 0 &&
		    t->before[idx] != t->after[idx])
			return s;
		s = kc_expr_sym2(e);
		if (s != NULL && (idx = kc_sym_index(s)) >= 0 &&
		    t->before[idx] != t->after[idx])
			return s;
		return NULL;
	}
}

/* "depends on X" and friends, one string per (kind, symbol). */
static const char *
trim_why(struct trim *t, enum why_kind kind, struct kc_symbol *x)
{
	static const char *const fmt[] = {
		"depends on %s", "was selected by %s", "was implied by %s",
		"default follows %s"
	};
	char **slot = &t->whys[(size_t)kc_sym_index(x) * W_NKINDS + kind];

	if (*slot == NULL)
		*slot = xasprintf(fmt[kind], kc_sym_name(x));
	return *slot;
}

/* Why a symbol changed: the first changed symbol of its dependencies,
 * prompt condition, selects, implies, then defaults. */
static void
trim_explain(struct trim *t, struct trim_change *c)
{
	struct kc_symbol	*x;
	struct kc_menu		*m;
	struct kc_prop_info	 pi;
	int			 i;

	c->why = NULL;
	c->cause = NULL;
	if (t->acc[kc_sym_index(c->sym)] == t->accgen &&
	    t->after[kc_sym_index(c->sym)] == KC_NO)
		return;		/* an accepted candidate itself */
	if ((x = trim_changed_in(t, kc_sym_depends(c->sym))) != NULL ||
	    ((m = kc_sym_menu(c->sym)) != NULL &&
	    (x = trim_changed_in(t, kc_menu_prompt_cond(m))) != NULL)) {
		c->why = trim_why(t, W_DEPEND, x);
		c->cause = x;
		return;
	}
	if ((x = trim_changed_in(t, kc_sym_selected_by(c->sym))) != NULL) {
		c->why = trim_why(t, W_SELECT, x);
		c->cause = x;
		return;
	}
	if (kc_sym_is_choice_value(c->sym)) {
		c->why = "choice moved";
		return;
	}
	if ((x = trim_changed_in(t, kc_sym_implied_by(c->sym))) != NULL) {
		c->why = trim_why(t, W_IMPLY, x);
		c->cause = x;
		return;
	}
	for (i = 0; kc_sym_prop(c->sym, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT)
			continue;
		if ((x = trim_changed_in(t, pi.cond)) != NULL ||
		    (x = trim_changed_in(t, pi.expr)) != NULL) {
			c->why = trim_why(t, W_DEFAULT, x);
			c->cause = x;
			return;
		}
	}
}

/*
 * Which symbols the candidates change, found from the candidates outwards
 * through the engine's readers graph: a symbol is evaluated when
 * something it reads changed, and passes it on to its own readers only
 * when it changed itself (value, string or visibility; a choice always
 * does, as its selection is not in those). A symbol never reached kept
 * its value: nothing it reads changed. The evaluated symbols are left in
 * t->affected (marked in t->mark) with their new values in t->after.
 * Returns their number, or -1 when MODULES is reached (then anything may
 * change: the caller recomputes everything).
 */
static int
trim_propagate(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n)
{
	struct kc_symbol	*mod = kconfig_find(k, "MODULES"), *s;
	const int		*rd;
	const char		*str;
	int			 na = 0, qi, idx, nr, e;
	size_t			 i;
	bool			 changed;

	if (t->mark == NULL) {
		t->mark = xcalloc((size_t)t->nsyms + 1, sizeof *t->mark);
		t->affected = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->affected);
	}
	if (++t->markgen == 0) {
		memset(t->mark, 0, (size_t)t->nsyms * sizeof *t->mark);
		t->markgen = 1;
	}
	for (i = 0; i < n; i++) {
		if (cands[i] >= t->ncands)
			continue;
		idx = kc_sym_index(t->cands[cands[i]].sym);
		if (t->mark[idx] != t->markgen) {
			t->mark[idx] = t->markgen;
			t->affected[na++] = idx;
		}
	}
	for (qi = 0; qi < na; qi++) {
		idx = t->affected[qi];
		s = kconfig_symbol(k, idx);
		if (s == mod)
			return -1;
		t->before[idx] = t->base[idx];
		t->after[idx] = trim_is_tristate(s) ? kc_sym_tristate(k, s) :
		    KC_NO;
		str = kc_sym_string(k, s);
		changed = kc_sym_is_choice(s) ||
		    kc_sym_tristate(k, s) != t->base_val[idx] ||
		    kc_sym_visible(k, s) != t->base_vis[idx] ||
		    (str != t->base_cur[idx] && (str == NULL ||
		    t->base_cur[idx] == NULL || strcmp(str,
		    t->base_cur[idx]) != 0));
		if (!changed)
			continue;
		rd = kconfig_readers(k, idx, &nr);
		for (e = 0; e < nr; e++) {
			if (rd[e] < 0 || rd[e] >= t->nsyms ||
			    t->mark[rd[e]] == t->markgen)
				continue;
			t->mark[rd[e]] = t->markgen;
			t->affected[na++] = rd[e];
		}
	}
	return na;
}

/* Whether k's user values are still those the baseline was computed
 * from. */
static bool
trim_base_valid(struct trim *t, struct kconfig *k)
{
	struct kc_symbol	*s;
	const char		*a, *b;
	int			 i;

	if (!t->base_ok)
		return false;
	if (k == t->base_k && kconfig_user_generation(k) == t->base_gen)
		return true;
	for (i = 0; i < t->nsyms; i++) {
		s = kconfig_symbol(k, i);
		if (kc_sym_has_user_value(s) != t->base_has[i])
			return false;
		if (!t->base_has[i])
			continue;
		if ((unsigned char)kc_sym_user_tristate(s) != t->base_tri[i])
			return false;
		a = kc_sym_user_string(s);
		b = t->base_str[i];
		if (a != b && (a == NULL || b == NULL || strcmp(a, b) != 0))
			return false;
	}
	t->base_k = k;
	t->base_gen = kconfig_user_generation(k);
	return true;
}

/* Recompute everything and remember it as the baseline. */
static void
trim_base_take(struct trim *t, struct kconfig *k)
{
	struct kc_symbol	*s;
	int			 i;

	if (t->base == NULL) {
		t->base = xcalloc((size_t)t->nsyms + 1, sizeof *t->base);
		t->base_has = xcalloc((size_t)t->nsyms + 1, 1);
		t->base_tri = xcalloc((size_t)t->nsyms + 1, 1);
		t->base_str = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_str);
		t->base_val = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_val);
		t->base_vis = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_vis);
		t->base_cur = xcalloc((size_t)t->nsyms + 1,
		    sizeof *t->base_cur);
	}
	kconfig_recalc(k);
	for (i = 0; i < t->nsyms; i++) {
		s = kconfig_symbol(k, i);
		t->base[i] = trim_is_tristate(s) ? kc_sym_tristate(k, s) :
		    KC_NO;
		t->base_has[i] = kc_sym_has_user_value(s);
		t->base_tri[i] = (unsigned char)kc_sym_user_tristate(s);
		/* User strings are interned by the engine: they live as
		 * long as the configuration. */
		t->base_str[i] = kc_sym_user_string(s);
		/* What readers read (trim_propagate); strings are interned
		 * or constant, alive as long as the configuration. */
		t->base_val[i] = kc_sym_tristate(k, s);
		t->base_vis[i] = kc_sym_visible(k, s);
		t->base_cur[i] = kc_sym_string(k, s);
	}
	t->base_ok = true;
	t->base_k = k;
	t->base_gen = kconfig_user_generation(k);
}

/* qsort: ints, ascending. */
static int
trim_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
trim_consequences(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, struct trim_change **changes, size_t *nchanges, char **cause)
{
	struct kc_values	*saved = NULL;
	struct kc_symbol	*s;
	struct trim_change	*ch = NULL;
	size_t			 nch = 0, ach = 0;
	int			 i, j, na, idx, restored = 0;
	bool			 full, inc, cp;

	*changes = NULL;
	*nchanges = 0;
	if (kconfig_nsymbols(k) != t->nsyms) {
		*cause = xstrdup("trim: configuration of another tree");
		return -1;
	}
	if (t->acc == NULL)
		t->acc = xcalloc((size_t)t->nsyms + 1, sizeof *t->acc);
	if (++t->accgen == 0) {
		memset(t->acc, 0, (size_t)t->nsyms * sizeof *t->acc);
		t->accgen = 1;
	}
	for (j = 0; j < (int)n; j++) {
		if (cands[j] < t->ncands)
			t->acc[kc_sym_index(t->cands[cands[j]].sym)] =
			    t->accgen;
	}
	full = t->in->full_recalc;
	if (full || !trim_base_valid(t, k))
		trim_base_take(t, k);
	/*
	 * Only what reads a changed symbol can change: the sets and the
	 * restore invalidate just those (the engine's incremental mode), and
	 * trim_propagate() evaluates outwards from the candidates, which
	 * gives the values of a full kconfig_recalc() at a fraction of the
	 * cost. in->full_recalc keeps conf's way and compares every symbol,
	 * the oracle the tests compare with.
	 */
	inc = kconfig_incremental(k);
	kconfig_set_incremental(k, !full);
	/* Going back costs what changed, unless a checkpoint is open
	 * already (then the O(symbols) save and restore). */
	if (!(cp = kconfig_checkpoint(k)))
		saved = kconfig_values_save(k);
	trim_set_all(t, k, cands, n, NULL);
	na = full ? -1 : trim_propagate(t, k, cands, n);
	if (na < 0) {
		/* MODULES reached, or the oracle: everything. */
		full = true;
		na = t->nsyms;
		kconfig_recalc(k);
		for (j = 0; j < na; j++) {
			s = kconfig_symbol(k, j);
			t->before[j] = t->base[j];
			t->after[j] = trim_is_tristate(s) ?
			    kc_sym_tristate(k, s) : KC_NO;
		}
	}
	/* In symbol order, whichever way they were found. */
	if (!full)
		qsort(t->affected, (size_t)na, sizeof *t->affected, trim_cmp_int);
	for (j = 0; j < na; j++) {
		i = full ? j : t->affected[j];
		if (t->after[i] == t->before[i])
			continue;
		if (nch == ach) {
			ach = ach ? ach * 2 : 64;
			ch = xrealloc(ch, ach * sizeof *ch);
		}
		ch[nch].sym = kconfig_symbol(k, i);
		ch[nch].before = t->before[i];
		ch[nch].after = t->after[i];
		nch++;
	}
	for (i = 0; i < (int)nch; i++)
		trim_explain(t, &ch[i]);
	/* Leave before == after everywhere: trim_explain of a later call
	 * reads both arrays outside its own affected set. */
	for (j = 0; j < na; j++) {
		idx = full ? j : t->affected[j];
		t->after[idx] = t->before[idx];
	}
	if (cp)
		kconfig_rollback(k);
	else
		restored = kconfig_values_restore(k, saved);
	kconfig_set_incremental(k, inc);
	if (restored != 0) {
		kconfig_values_free(saved);
		free(ch);
		*cause = xstrdup("trim: could not restore the values");
		return -1;
	}
	kconfig_values_free(saved);
	*changes = ch;
	*nchanges = nch;
	return 0;
}

int
trim_apply(struct trim *t, struct kconfig *k, const size_t *cands,
    size_t n, char **cause)
{
	struct strbuf	 sb;
	size_t		*fail, nf, i;

	fail = xcalloc(n + 1, sizeof *fail);
	nf = trim_set_all(t, k, cands, n, fail);
	kconfig_recalc(k);
	for (i = 0; i < n; i++) {
		if (cands[i] < t->ncands)
			t->cands[cands[i]].state = TRIM_ACCEPTED;
	}
	for (i = 0; i < nf; i++)
		t->cands[fail[i]].state = TRIM_PENDING;
	if (nf != 0) {
		strbuf_init(&sb);
		strbuf_addf(&sb, "%zu option%s could not be set to n (still "
		    "selected or needed by options not accepted):", nf,
		    nf == 1 ? "" : "s");
		for (i = 0; i < nf && i < 20; i++)
			strbuf_addf(&sb, " CONFIG_%s", t->cands[fail[i]].name);
		if (nf > 20)
			strbuf_adds(&sb, " ...");
		*cause = strbuf_detach(&sb);
	}
	free(fail);
	return nf != 0 ? -1 : 0;
}

/* ----------------------------------------------------------- lookup */

/* Case-insensitive substring search. */
static bool
trim_icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0'; hay++) {
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	}
	return n == 0;
}

long
trim_find_subsys(const struct trim *t, const char *name, char **cause)
{
	struct strbuf	 sb;
	size_t		 i, len = strlen(name), plen, nm;
	long		 found;
	int		 pass;
	const char	*p;

	for (i = 0; i < t->nsubs; i++) {
		if (strcmp(t->subs[i].path, name) == 0)
			return (long)i;
	}
	for (pass = 0; pass < 2; pass++) {
		found = -1;
		nm = 0;
		for (i = 0; i < t->nsubs; i++) {
			p = t->subs[i].path;
			plen = strlen(p);
			if (pass == 0 ? !(plen > len + 3 &&
			    strcmp(p + plen - len, name) == 0 &&
			    strncmp(p + plen - len - 3, " > ", 3) == 0) :
			    !trim_icontains(p, name))
				continue;
			found = (long)i;
			nm++;
		}
		if (nm == 1)
			return found;
		if (nm > 1) {
			strbuf_init(&sb);
			strbuf_addf(&sb, "subsystem \"%s\" is ambiguous (%zu "
			    "match):", name, nm);
			for (i = 0, plen = 0; i < t->nsubs && plen < 10; i++) {
				p = t->subs[i].path;
				len = strlen(name);
				if (pass == 0 ? !(strlen(p) > len + 3 &&
				    strcmp(p + strlen(p) - len, name) == 0) :
				    !trim_icontains(p, name))
					continue;
				strbuf_addf(&sb, "\n  %s", p);
				plen++;
			}
			*cause = strbuf_detach(&sb);
			return -1;
		}
	}
	*cause = xasprintf("unknown subsystem \"%s\" (no trim candidates "
	    "in a menu of that name; see kctui suggest)", name);
	return -1;
}

/* ------------------------------------------------- beyond a module list */

/* Whether a symbol counts among a .config's y/m options. */
static bool
trim_is_ym(struct kconfig *k, struct kc_symbol *s)
{
	return trim_is_tristate(s) && kc_sym_name(s) != NULL &&
	    kc_sym_tristate(k, s) != KC_NO && kc_sym_is_written(k, s);
}

/* The first symbol of an expression (not under a negation) marked in
 * set, or NULL. */
static struct kc_symbol *
trim_expr_marked(const struct kc_expr *e, const unsigned char *set)
{
	struct kc_symbol	*x;
	int			 xi;

	if (e == NULL)
		return NULL;
	switch (kc_expr_op(e)) {
	case KC_EXPR_AND:
	case KC_EXPR_OR:
		if ((x = trim_expr_marked(kc_expr_left(e), set)) != NULL)
			return x;
		return trim_expr_marked(kc_expr_right(e), set);
	case KC_EXPR_SYMBOL:
		x = kc_expr_sym(e);
		xi = kc_sym_index(x);
		return xi >= 0 && set[xi] ? x : NULL;
	default:
		return NULL;
	}
}

/* The first symbol marked in set of the first active default of s. */
static struct kc_symbol *
trim_default_marked(struct trim *t, struct kc_symbol *s,
    const unsigned char *set)
{
	struct kc_prop_info	pi;
	int			i;

	for (i = 0; kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind != KC_PROP_DEFAULT || (pi.cond != NULL &&
		    kc_expr_eval(t->k, pi.cond) == KC_NO))
			continue;
		return trim_expr_marked(pi.expr, set);
	}
	return NULL;
}

/*
 * Why a symbol stays: its keep reason and those of what needed it, down
 * to the seed and its evidence ("needed by CONFIG_CFG80211_WEXT, needed
 * by CONFIG_WEXT_CORE: evidence (used): trace:wext_netdev_notifier_call").
 * One outside the keep-set stays with an option it depends on or is
 * selected by that stays (its sub-options, under the modules policy):
 * one of the difference (beyond) first.
 */
static char *
trim_stay_why(struct trim *t, struct kc_symbol *s, const unsigned char *beyond,
    const unsigned char *stay)
{
	const struct attrib_sym	*as;
	struct kc_symbol	*x;
	struct strbuf		 sb;
	char			 buf[256];
	size_t			 i, shown;
	int			 idx = kc_sym_index(s), steps;

	strbuf_init(&sb);
	if (t->keep[idx] == K_NONE) {
		/* Another option of the difference first: the default
		 * the value comes from (NET_POLL_CONTROLLER's "def_bool
		 * NETPOLL"), what it depends on, what selects it. */
		x = trim_default_marked(t, s, beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_depends(s), beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_selected_by(s), beyond);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_depends(s), stay);
		if (x == NULL)
			x = trim_expr_marked(kc_sym_selected_by(s), stay);
		if (x == NULL || x == s) {
			strbuf_adds(&sb, "not a trim candidate, and what it "
			    "depends on stays");
			return strbuf_detach(&sb);
		}
		strbuf_addf(&sb, "stays with CONFIG_%s, ", kc_sym_name(x));
		idx = kc_sym_index(x);
		if (t->keep[idx] == K_NONE) {
			strbuf_adds(&sb, "which stays too");
			return strbuf_detach(&sb);
		}
	}
	for (steps = 0; steps < 32; steps++) {
		s = kconfig_symbol(t->k, idx);
		strbuf_adds(&sb, trim_keep_reason(t, s));
		if (t->keep[idx] != K_DEPEND && t->keep[idx] != K_SELECT)
			break;
		idx = t->keep_by[idx];
		if (idx < 0 || t->keep[idx] == K_NONE)
			break;
		/* "needed by CONFIG_B, needed by CONFIG_C: evidence" */
		strbuf_adds(&sb, t->keep[idx] == K_DEPEND ||
		    t->keep[idx] == K_SELECT ? ", " : ": ");
	}
	if (t->keep[idx] == K_EVIDENCE && t->in->a != NULL &&
	    (as = attrib_find(t->in->a, kc_sym_name(s))) != NULL) {
		for (i = shown = 0; i < as->nrefs && shown < 3; i++) {
			attrib_ref_format(&as->refs[i], buf, sizeof buf);
			strbuf_addf(&sb, "%s%s", shown++ ? ", " : ": ", buf);
		}
		if (as->nrefs > shown)
			strbuf_addf(&sb, " and %zu more", as->nrefs - shown);
	}
	return strbuf_detach(&sb);
}

int
trim_beyond_modules(struct trim *t, struct kconfig *k,
    struct kc_symbol ***symsp, char ***whysp, size_t *np, char **cause)
{
	struct trim_input	 in2 = *t->in;
	struct trim		*lm;
	struct kc_values	*saved;
	struct kc_symbol	*s, **syms = NULL;
	unsigned char		*ours, *stay;
	char			**whys = NULL;
	size_t			*all, i, n = 0;
	bool			 inc = kconfig_incremental(k);
	int			 x;

	*symsp = NULL;
	*whysp = NULL;
	*np = 0;
	if (k != t->k) {
		*cause = xstrdup("trim: configuration of another trim");
		return -1;
	}
	in2.module_list = true;
	in2.no_removes = true;
	if ((lm = trim_suggest(k, &in2, cause)) == NULL)
		return -1;
	ours = xcalloc((size_t)t->nsyms + 1, 1);
	stay = xcalloc((size_t)t->nsyms + 1, 1);
	all = xcalloc((t->ncands > lm->ncands ? t->ncands : lm->ncands) + 1,
	    sizeof *all);
	kconfig_set_incremental(k, !t->in->full_recalc);
	saved = kconfig_values_save(k);
	/* Everything accepted here ... */
	for (i = 0; i < t->ncands; i++)
		all[i] = i;
	trim_set_all(t, k, all, t->ncands, NULL);
	for (x = 0; x < t->nsyms; x++)
		ours[x] = trim_is_ym(k, kconfig_symbol(k, x));
	kconfig_values_restore(k, saved);
	/* ... and on the module list alone. */
	for (i = 0; i < lm->ncands; i++)
		all[i] = i;
	trim_set_all(lm, k, all, lm->ncands, NULL);
	for (x = 0; x < t->nsyms; x++) {
		stay[x] = ours[x];
		if (ours[x] && !trim_is_ym(k, kconfig_symbol(k, x)))
			n++;
		else
			ours[x] = 0;
	}
	kconfig_values_restore(k, saved);
	kconfig_values_free(saved);
	kconfig_set_incremental(k, inc);
	kconfig_recalc(k);
	trim_free(lm);
	free(all);
	if (n != 0) {
		syms = xcalloc(n, sizeof *syms);
		whys = xcalloc(n, sizeof *whys);
	}
	for (x = 0, i = 0; x < t->nsyms && i < n; x++) {
		if (!ours[x])
			continue;
		s = kconfig_symbol(k, x);
		syms[i] = s;
		whys[i++] = trim_stay_why(t, s, ours, stay);
	}
	free(ours);
	free(stay);
	*symsp = syms;
	*whysp = whys;
	*np = n;
	return 0;
}
