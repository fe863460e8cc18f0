/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attrib.c - from evidence items to the Kconfig symbols behind them.
 *
 * A loaded module is found in the Kbuild index; a traced function through
 * the source index (which file defines it) and then the Kbuild index (which
 * object that file builds, under which conditions); a mounted filesystem,
 * a crypto driver and a built-in device driver through the names their
 * sources register. Every symbol on an object's condition chain gets the
 * item: the object's own symbol directly, the enclosing directories'
 * symbols as needed for it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "../kbuild/kbuild.h"
#include "../srcindex/srcindex.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"

struct attrib {
	const struct evidence	*ev;
	const struct kbuild	*kb;
	const struct srcindex	*si;

	struct attrib_sym	*syms;
	size_t			 nsyms, asyms;
	struct strmap		 bysym;		/* name -> index + 1 */

	struct strmap		 coded;		/* symbols that build code */

	const char		 *srctree;
	/* .c files #included by other .c files: included -> includer, for
	 * the directories looked at so far. */
	char			**inc_from, **inc_to, **inc_dirs;
	size_t			  ninc, ainc, ndirs;

	const struct ev_item	**unmapped;
	size_t			  nunmapped, aunmapped;
	struct attrib_stats	  st;
};

/* Find or add the attribution record of a symbol (name is borrowed: a
 * Kbuild condition or an evidence string, both outliving the attrib). */
static struct attrib_sym *
attrib_sym_get(struct attrib *a, const char *name, bool create)
{
	struct strmap_entry	*e;
	size_t			 len = strlen(name);
	bool			 added;

	if (!create) {
		e = strmap_find(&a->bysym, name, len);
		return e != NULL ? &a->syms[(uintptr_t)e->value - 1] : NULL;
	}
	e = strmap_insert(&a->bysym, name, len, &added);
	if (!added)
		return &a->syms[(uintptr_t)e->value - 1];
	XGROW(a->syms, a->asyms, a->nsyms + 1, 512);
	memset(&a->syms[a->nsyms], 0, sizeof a->syms[a->nsyms]);
	a->syms[a->nsyms].name = name;
	a->syms[a->nsyms].verdict = V_NONE;
	e->value = (void *)(uintptr_t)++a->nsyms;
	return &a->syms[a->nsyms - 1];
}

/* Give sym one more piece of evidence (once per item); partial as in
 * struct attrib_ref, where a whole (not partial) ref of the item wins. */
static void
attrib_add_ref_part(struct attrib_sym *s, const struct ev_item *item,
    bool direct, bool ambiguous, bool partial)
{
	size_t i;

	for (i = s->nrefs; i > 0; i--) {
		if (s->refs[i - 1].item == item) {
			s->refs[i - 1].direct |= direct;
			s->refs[i - 1].ambiguous &= ambiguous;
			s->refs[i - 1].partial &= partial;
			return;
		}
		if (s->nrefs - i > 8)
			break;	/* refs of one item are added together */
	}
	XGROW(s->refs, s->arefs, s->nrefs + 1, 4);
	s->refs[s->nrefs].item = item;
	s->refs[s->nrefs].direct = direct;
	s->refs[s->nrefs].ambiguous = ambiguous;
	s->refs[s->nrefs].partial = partial;
	s->nrefs++;
	switch (item->kind) {
	case EV_MODULE:
		s->nmodules++;
		break;
	case EV_TRACE:
		s->ntraces++;
		break;
	case EV_DEVICE:
	case EV_DRIVER:
		s->ndevices++;
		break;
	case EV_MOUNT:
	case EV_FS:
		s->nfs++;
		break;
	case EV_CRYPTO:
		s->ncrypto++;
		break;
	default:
		break;
	}
}

/* attrib_add_ref_part() of a ref that is not partial. */
static void
attrib_add_ref(struct attrib_sym *s, const struct ev_item *item, bool direct,
    bool ambiguous)
{
	attrib_add_ref_part(s, item, direct, ambiguous, false);
}

/* Attribute an item to every symbol an object depends on; false when the
 * object is built unconditionally (nothing to attribute to). */
static bool
attrib_obj(struct attrib *a, const struct kbuild_obj *obj,
    const struct ev_item *item, bool ambiguous)
{
	int i;

	for (i = 0; i < obj->nconds; i++)
		attrib_add_ref(attrib_sym_get(a, obj->conds[i], true), item,
		    i == obj->nconds - 1, ambiguous);
	return obj->nconds > 0;
}

/* Remember an item nobody explains. */
static void
attrib_add_unmapped(struct attrib *a, const struct ev_item *item)
{
	XGROW(a->unmapped, a->aunmapped, a->nunmapped + 1, 64);
	a->unmapped[a->nunmapped++] = item;
}

/*
 * Whether the running kernel (its config, when a bundle has it) builds an
 * object: every symbol on its chain is set. This removes the candidates
 * another architecture or a disabled driver would give: libahci.o is
 * listed under a dozen platform drivers' symbols, a static init_once() is
 * defined in 33 files.
 */
static bool
attrib_obj_enabled(const struct attrib *a, const struct kbuild_obj *o)
{
	int i;

	if (!evidence_has_config(a->ev))
		return true;
	for (i = 0; i < o->nconds; i++) {
		if (evidence_config_value(a->ev, o->conds[i]) == NULL)
			return false;
	}
	return true;
}

/*
 * Whether an object is part of a module the running kernel loads: one of
 * its conditions is m. The Kbuild index names a built-in object after its
 * top-level name too (kernel/watchdog.o is "watchdog", like the module
 * drivers/watchdog builds); such objects share nothing with the module.
 * Without the config nothing is known: false.
 */
static bool
attrib_obj_modular(const struct attrib *a, const struct kbuild_obj *o)
{
	const char	*v;
	int		 i;

	if (!evidence_has_config(a->ev))
		return false;
	for (i = 0; i < o->nconds; i++) {
		if ((v = evidence_config_value(a->ev, o->conds[i])) != NULL &&
		    strcmp(v, "m") == 0)
			return true;
	}
	return false;
}

/*
 * The conditions every object of a module (the enabled ones, if only_on;
 * those attrib_obj_modular() calls its) hangs on: the module's own and its
 * enclosing directories'. Only the first such object's can be, so they are
 * at most its nconds, kept in the caller's whole[max]; the count, or -1
 * (all whole: nothing is partial) when more than max would have to be
 * looked at or no object is known to be the module's.
 */
static int
attrib_module_whole(const struct attrib *a, const struct kbuild_obj *const *objs,
    size_t n, bool only_on, const char **whole, int max)
{
	const struct kbuild_obj	*first = NULL;
	size_t			 i;
	int			 k, j, nw = 0;

	for (i = 0; i < n && first == NULL; i++) {
		if ((!only_on || attrib_obj_enabled(a, objs[i])) &&
		    attrib_obj_modular(a, objs[i]))
			first = objs[i];
	}
	if (first == NULL)
		return -1;
	if (first->nconds > max)
		return -1;
	for (k = 0; k < first->nconds; k++) {
		for (i = 0; i < n; i++) {
			if ((only_on && !attrib_obj_enabled(a, objs[i])) ||
			    !attrib_obj_modular(a, objs[i]))
				continue;
			for (j = 0; j < objs[i]->nconds &&
			    strcmp(objs[i]->conds[j], first->conds[k]) != 0;
			    j++)
				;
			if (j == objs[i]->nconds)
				break;
		}
		if (i == n)
			whole[nw++] = first->conds[k];
	}
	return nw;
}

/* Whether cond is one of whole[0..nw) (nw -1: all are). */
static bool
attrib_in_whole(const char **whole, int nw, const char *cond)
{
	int k;

	if (nw < 0)
		return true;
	for (k = 0; k < nw; k++) {
		if (strcmp(whole[k], cond) == 0)
			return true;
	}
	return false;
}

/* A module's objects all get the item (those the running kernel builds,
 * when that is known and leaves any). */
static bool
attrib_module(struct attrib *a, const char *module, const struct ev_item *item)
{
	const struct kbuild_obj *const	*objs;
	const char			*whole[16];
	size_t				 n, i, on = 0;
	int				 k, nw;

	n = kbuild_module(a->kb, module, &objs);
	for (i = 0; i < n; i++)
		on += attrib_obj_enabled(a, objs[i]);
	/* A condition not every object of the module hangs on is a part
	 * of it: the module being there does not say that part ran
	 * (partial). Kbuild nests a handful of conditions at most. */
	nw = attrib_module_whole(a, objs, n, on != 0, whole,
	    (int)(sizeof whole / sizeof whole[0]));
	for (i = 0; i < n; i++) {
		if (on != 0 && !attrib_obj_enabled(a, objs[i]))
			continue;
		for (k = 0; k < objs[i]->nconds; k++)
			attrib_add_ref_part(attrib_sym_get(a,
			    objs[i]->conds[k], true), item,
			    k == objs[i]->nconds - 1, false,
			    attrib_obj_modular(a, objs[i]) &&
			    !attrib_in_whole(whole, nw, objs[i]->conds[k]));
	}
	return n > 0;
}

/* Record the .c files that the .c files of dir #include. */
static void
attrib_scan_includes(struct attrib *a, const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		*path, *line = NULL, *p, *q;
	size_t		 cap = 0, n;

	a->inc_dirs = xrealloc(a->inc_dirs, (a->ndirs + 1) * sizeof *a->inc_dirs);
	a->inc_dirs[a->ndirs++] = xstrdup(dir);
	path = xasprintf("%s/%s", a->srctree, dir);
	d = opendir(path);
	free(path);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 3 || strcmp(de->d_name + n - 2, ".c") != 0)
			continue;
		path = xasprintf("%s/%s/%s", a->srctree, dir, de->d_name);
		f = fopen(path, "r");
		free(path);
		if (f == NULL)
			continue;
		while (getline(&line, &cap, f) > 0) {
			if (strncmp(line, "#include \"", 10) != 0)
				continue;
			p = line + 10;
			if ((q = strchr(p, '"')) == NULL || q - p < 3 ||
			    strncmp(q - 2, ".c", 2) != 0)
				continue;
			if (a->ninc == a->ainc) {
				a->ainc = a->ainc ? a->ainc * 2 : 64;
				a->inc_from = xrealloc(a->inc_from,
				    a->ainc * sizeof *a->inc_from);
				a->inc_to = xrealloc(a->inc_to,
				    a->ainc * sizeof *a->inc_to);
			}
			a->inc_from[a->ninc] = xasprintf("%s/%.*s", dir,
			    (int)(q - p), p);
			a->inc_to[a->ninc] = xasprintf("%s/%s", dir, de->d_name);
			a->ninc++;
		}
		fclose(f);
	}
	free(line);
	closedir(d);
}

/*
 * The object a source file ends up in: its own, or, for a .c file that
 * another .c file of its directory #includes (kernel/sched/build_*.c
 * gather the scheduler's files), the includer's.
 */
static const struct kbuild_obj *
attrib_source_obj(struct attrib *a, const char *file)
{
	const struct kbuild_obj	*o;
	const char		*slash;
	char			*dir;
	size_t			 i;
	int			 depth;

	for (depth = 0; depth < 3; depth++) {
		if ((o = kbuild_source(a->kb, file)) != NULL)
			return o;
		if (a->srctree == NULL || (slash = strrchr(file, '/')) == NULL)
			return NULL;
		dir = xstrndup(file, (size_t)(slash - file));
		for (i = 0; i < a->ndirs; i++) {
			if (strcmp(a->inc_dirs[i], dir) == 0)
				break;
		}
		if (i == a->ndirs)
			attrib_scan_includes(a, dir);
		free(dir);
		for (i = 0; i < a->ninc; i++) {
			if (strcmp(a->inc_from[i], file) == 0)
				break;
		}
		if (i == a->ninc)
			return NULL;
		file = a->inc_to[i];
	}
	return NULL;
}

/* Whether two objects hang on the same condition chain. */
static bool
attrib_same_conds(const struct kbuild_obj *x, const struct kbuild_obj *y)
{
	int i;

	if (x->nconds != y->nconds)
		return false;
	for (i = 0; i < x->nconds; i++) {
		if (strcmp(x->conds[i], y->conds[i]) != 0)
			return false;
	}
	return true;
}

/*
 * The next name of a module list ("ext4", or "a b" for an object that
 * links into several modules, as modules.builtin.ranges gives them), a
 * copy the caller frees, advancing *mods; NULL at the end.
 */
static char *
attrib_next_module(const char **mods)
{
	const char	*p = *mods, *w;

	while (*p == ' ')
		p++;
	for (w = p; *w != '\0' && *w != ' '; w++)
		;
	*mods = w;
	return w == p ? NULL : xstrndup(p, (size_t)(w - p));
}

/* Whether module is one of mods. */
static bool
attrib_in_modules(const char *module, const char *mods)
{
	char	*one;
	bool	 r = false;

	if (strchr(mods, ' ') == NULL)
		return modname_eq(module, mods);
	while (!r && (one = attrib_next_module(&mods)) != NULL) {
		r = modname_eq(module, one);
		free(one);
	}
	return r;
}

enum attrib_result { AR_NONE, AR_MAPPED, AR_ALWAYS, AR_AMBIGUOUS };

/*
 * Attribute an item through the files a name is registered in. module,
 * when known, narrows the candidates to the objects of that module or
 * modules ("" for the kernel image narrows nothing: a potential module may
 * be built in).
 */
static enum attrib_result
attrib_by_name(struct attrib *a, enum src_kind kind, const char *name,
    const char *module, const struct ev_item *item)
{
	const uint32_t			 *files;
	const struct kbuild_obj		**objs, *o;
	size_t				  nfiles, n = 0, i, j;
	bool				  same = true, cond = false;
	enum attrib_result		  r;

	nfiles = srcindex_lookup(a->si, kind, name, &files);
	if (nfiles == 0)
		return AR_NONE;
	objs = xcalloc(nfiles, sizeof *objs);
	for (i = 0; i < nfiles; i++) {
		if ((o = attrib_source_obj(a, srcindex_path(a->si,
		    files[i]))) == NULL)
			continue;
		if (module != NULL && *module != '\0' &&
		    (o->module == NULL || !attrib_in_modules(o->module,
		    module)))
			continue;
		for (j = 0; j < n && objs[j] != o; j++)
			;
		if (j == n)
			objs[n++] = o;
	}
	if (n == 0) {
		free(objs);
		return AR_NONE;
	}
	/* Keep what the running kernel builds, if that leaves any. */
	for (i = j = 0; i < n; i++) {
		if (attrib_obj_enabled(a, objs[i]))
			objs[j++] = objs[i];
	}
	if (j > 0)
		n = j;
	for (i = 1; i < n; i++)
		same &= attrib_same_conds(objs[0], objs[i]);
	for (i = 0; i < (same ? 1 : n); i++)
		cond |= attrib_obj(a, objs[i], item, !same);
	r = !cond ? AR_ALWAYS : same ? AR_MAPPED : AR_AMBIGUOUS;
	free(objs);
	return r;
}

/* Modules: each loaded module's objects. */
static void
attrib_modules(struct attrib *a)
{
	const struct ev_item	*it;
	size_t			 i, n = evidence_count(a->ev, EV_MODULE);

	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_MODULE, i);
		a->st.modules++;
		if (attrib_module(a, it->name, it))
			a->st.modules_mapped++;
		else
			attrib_add_unmapped(a, it);
	}
}

/*
 * A function of a built-in module that no file defines by that name (an
 * out-of-line copy of a header's static inline, say skb_put_data in
 * ipv6): the module is known, not which of its objects, so only the
 * conditions every one of its objects (those the running kernel builds,
 * if any) hangs on get the item: IPV6, not IPV6_SEG6_HMAC. For each of
 * mods.
 */
static bool
attrib_builtin_modules(struct attrib *a, const char *mods,
    const struct ev_item *item)
{
	const struct kbuild_obj *const	*objs;
	const struct kbuild_obj		*first = NULL;
	char				*one;
	size_t				 n, i, on;
	int				 k, common;
	bool				 any = false;

	while ((one = attrib_next_module(&mods)) != NULL) {
		n = kbuild_module(a->kb, one, &objs);
		free(one);
		for (i = on = 0; i < n; i++)
			on += attrib_obj_enabled(a, objs[i]);
		common = -1;
		for (i = 0; i < n; i++) {
			if (on > 0 && !attrib_obj_enabled(a, objs[i]))
				continue;
			if (common < 0) {
				first = objs[i];
				common = first->nconds;
				continue;
			}
			for (k = 0; k < common && k < objs[i]->nconds &&
			    strcmp(first->conds[k], objs[i]->conds[k]) == 0;
			    k++)
				;
			common = k;
		}
		for (k = 0; k < common; k++)
			attrib_add_ref(attrib_sym_get(a, first->conds[k], true),
			    item, k == common - 1, false);
		any |= common > 0;
	}
	return any;
}

/*
 * Traced functions: defining file, its object, its conditions. Where the
 * function is narrows the files: a loaded module's or a built-in module's
 * objects (kallsyms, modules.builtin.ranges). A function the ranges put
 * outside every built-in module narrows nothing: the Kbuild index names
 * an object's module after its top-level object (kernel/watchdog.o is
 * "watchdog", as is drivers/watchdog's module), and leaving out the
 * objects of built-in modules by that name loses real evidence
 * (LOCKUP_DETECTOR's watchdog_timer_fn, on the 6.12 built-in bundle).
 */
static void
attrib_traces(struct attrib *a)
{
	const struct ev_item	*it;
	const char		*module;
	size_t			 i, n = evidence_count(a->ev, EV_TRACE);
	enum attrib_result	 r;
	enum ev_home		 home;

	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_TRACE, i);
		a->st.functions++;
		module = it->detail;
		home = module != NULL ? EVH_MODULE :
		    evidence_symbol_home(a->ev, it->name, &module);
		if (home == EVH_BUILTIN || home == EVH_CORE)
			a->st.functions_ranges++;
		r = attrib_by_name(a, SRC_FUNC, it->name, module, it);
		if (r == AR_NONE && module != NULL && *module != '\0') {
			/* Not found by file: still the module's. */
			if (home == EVH_BUILTIN ?
			    attrib_builtin_modules(a, module, it) :
			    attrib_module(a, module, it))
				r = AR_MAPPED;
		}
		switch (r) {
		case AR_MAPPED:
			a->st.functions_mapped++;
			break;
		case AR_AMBIGUOUS:
			a->st.functions_mapped++;
			a->st.functions_ambiguous++;
			break;
		case AR_ALWAYS:
			a->st.functions_mapped++;
			a->st.functions_always++;
			break;
		default:
			a->st.functions_unknown++;
			attrib_add_unmapped(a, it);
			break;
		}
	}
}

/* Devices and drivers: bound drivers through their module or their
 * registered name; present devices through the modules whose aliases
 * match them (plausible only). */
static void
attrib_devices(struct attrib *a)
{
	const struct ev_item	*it;
	const char *const	*mods;
	size_t			 i, j, n, nm;
	bool			 ok;

	n = evidence_count(a->ev, EV_DRIVER);
	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_DRIVER, i);
		a->st.devices++;
		if (it->module != NULL)
			ok = attrib_module(a, it->module, it);
		else
			ok = attrib_by_name(a, SRC_DRIVER, it->name, NULL, it) !=
			    AR_NONE;
		/* A built-in driver named KBUILD_MODNAME (virtio_net, most
		 * drivers) has no literal name in its source: its name is
		 * the module's it would be, which the Kbuild index knows. */
		if (!ok && it->module == NULL)
			ok = attrib_module(a, it->name, it);
		if (ok)
			a->st.devices_mapped++;
		else
			attrib_add_unmapped(a, it);
	}
	n = evidence_count(a->ev, EV_DEVICE);
	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_DEVICE, i);
		nm = evidence_alias_modules(a->ev, it->name, &mods);
		for (j = 0; j < nm; j++)
			attrib_module(a, mods[j], it);
	}
}

/*
 * Crypto driver names the kernel builds at run time rather than writes
 * as ".cra_driver_name = ...": the prefix and the file that builds them
 * (drbg.c names each DRBG "drbg_pr_" or "drbg_nopr_" plus its core's
 * name, and gives all of them the cra_name "stdrng", which ansi_cprng.c
 * also uses, so that name says nothing).
 */
static const struct {
	const char	*prefix;
	const char	*file;
} crypto_built_names[] = {
	{ "drbg_pr_", "crypto/drbg.c" },
	{ "drbg_nopr_", "crypto/drbg.c" },
};

/*
 * A built-in crypto algorithm by its driver name: a name the source
 * writes, a name built at run time (crypto_built_names), or a template
 * instance "tmpl(arg,...)", whose code is the template's (struct
 * crypto_template .name, "cbc" of "cbc(ecb(aes-aesni))"). The arguments
 * are algorithms registered on their own, each with an entry of its own
 * in /proc/crypto, and often named by cra_name ("sha256" of
 * "pkcs1pad(rsa-generic,sha256)"), which many drivers share: they are not
 * attributed here. Whether the name was found.
 */
static bool
attrib_crypto_name(struct attrib *a, const char *name,
    const struct ev_item *it)
{
	const struct kbuild_obj	*o;
	const char		*open;
	char			*tmpl;
	size_t			 i;
	bool			 ok;

	if (attrib_by_name(a, SRC_CRYPTO, name, NULL, it) != AR_NONE)
		return true;
	for (i = 0; i < sizeof crypto_built_names /
	    sizeof crypto_built_names[0]; i++) {
		if (strncmp(name, crypto_built_names[i].prefix,
		    strlen(crypto_built_names[i].prefix)) != 0)
			continue;
		if ((o = attrib_source_obj(a, crypto_built_names[i].file)) ==
		    NULL)
			return false;
		attrib_obj(a, o, it, false);
		return true;
	}
	if ((open = strchr(name, '(')) == NULL || open == name ||
	    name[strlen(name) - 1] != ')')
		return false;
	tmpl = xstrndup(name, (size_t)(open - name));
	ok = attrib_by_name(a, SRC_CRYPTO, tmpl, NULL, it) != AR_NONE;
	free(tmpl);
	return ok;
}

/* Filesystems (mounted: used; registered: plausible) and crypto. */
static void
attrib_fs_crypto(struct attrib *a)
{
	const struct ev_item	*it;
	size_t			 i, n;
	bool			 ok;

	n = evidence_count(a->ev, EV_MOUNT);
	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_MOUNT, i);
		a->st.mounts++;
		if (attrib_by_name(a, SRC_FSTYPE, it->name, NULL, it) !=
		    AR_NONE)
			a->st.mounts_mapped++;
		else
			attrib_add_unmapped(a, it);
	}
	n = evidence_count(a->ev, EV_FS);
	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_FS, i);
		attrib_by_name(a, SRC_FSTYPE, it->name, NULL, it);
	}
	n = evidence_count(a->ev, EV_CRYPTO);
	for (i = 0; i < n; i++) {
		it = evidence_item(a->ev, EV_CRYPTO, i);
		a->st.crypto++;
		if (it->module != NULL)
			ok = attrib_module(a, it->module, it);
		else
			ok = attrib_crypto_name(a, it->name, it);
		if (ok)
			a->st.crypto_mapped++;
		else
			attrib_add_unmapped(a, it);
	}
}

/* The verdict from a symbol's refs: code seen running or loaded, or only
 * signs that it could be. */
static void
attrib_judge(struct attrib_sym *s)
{
	size_t i;

	s->verdict = V_NONE;
	for (i = 0; i < s->nrefs; i++) {
		switch (s->refs[i].item->kind) {
		case EV_TRACE:
			/* A function name defined in several places
			 * ("init_once"): some definition of it ran, maybe
			 * not this one. */
			if (s->refs[i].ambiguous) {
				s->verdict = V_PLAUSIBLE;
				break;
			}
			s->verdict = V_USED;
			return;
		case EV_MODULE:
		case EV_DRIVER:
		case EV_MOUNT:
			s->verdict = V_USED;
			return;
		case EV_CRYPTO:
			/* Registered only is a weak sign; an allocated
			 * transform (refcnt above one) is use. */
			if (s->refs[i].item->hits > 0) {
				s->verdict = V_USED;
				return;
			}
			s->verdict = V_PLAUSIBLE;
			break;
		default:
			s->verdict = V_PLAUSIBLE;
			break;
		}
	}
}

/* Record every symbol that some object depends on. */
static void
attrib_collect_coded(struct attrib *a)
{
	const struct kbuild_obj	*o;
	size_t			 i, n = kbuild_nobjs(a->kb), cap = 0;
	int			 c;

	for (i = 0; i < n; i++)
		cap += (size_t)kbuild_obj_at(a->kb, i)->nconds;
	strmap_reserve(&a->coded, cap);
	for (i = 0; i < n; i++) {
		o = kbuild_obj_at(a->kb, i);
		for (c = 0; c < o->nconds; c++)
			strmap_set(&a->coded, o->conds[c],
			    strlen(o->conds[c]), (void *)1);
	}
}

/* Attribute all the evidence. */
struct attrib *
attrib_build(const struct evidence *ev, const struct kbuild *kb,
    const struct srcindex *si, const char *srctree)
{
	struct attrib	*a = xcalloc(1, sizeof *a);
	size_t		 i;

	strmap_init(&a->bysym);
	strmap_init(&a->coded);
	a->srctree = srctree;
	a->ev = ev;
	a->kb = kb;
	a->si = si;
	attrib_modules(a);
	attrib_traces(a);
	attrib_devices(a);
	attrib_fs_crypto(a);
	for (i = 0; i < a->nsyms; i++)
		attrib_judge(&a->syms[i]);
	attrib_collect_coded(a);
	return a;
}

/* Free an attribution. */
void
attrib_free(struct attrib *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->nsyms; i++)
		free(a->syms[i].refs);
	free(a->syms);
	strmap_free(&a->bysym);
	strmap_free(&a->coded);
	free(a->unmapped);
	for (i = 0; i < a->ninc; i++) {
		free(a->inc_from[i]);
		free(a->inc_to[i]);
	}
	free(a->inc_from);
	free(a->inc_to);
	for (i = 0; i < a->ndirs; i++)
		free(a->inc_dirs[i]);
	free(a->inc_dirs);
	free(a);
}

const struct attrib_sym *
attrib_find(const struct attrib *a, const char *sym)
{
	return attrib_sym_get((struct attrib *)a, sym, false);
}

/* A symbol's verdict; symbols no object depends on build no code. */
enum verdict
attrib_verdict(const struct attrib *a, const char *sym)
{
	const struct attrib_sym	*s = attrib_find(a, sym);

	if (s != NULL)
		return s->verdict;
	if (strmap_find(&a->coded, sym, strlen(sym)) != NULL)
		return V_NONE;
	return V_NO_CODE;
}

size_t
attrib_count(const struct attrib *a)
{
	return a->nsyms;
}

const struct attrib_sym *
attrib_at(const struct attrib *a, size_t i)
{
	return i < a->nsyms ? &a->syms[i] : NULL;
}

size_t
attrib_unmapped(const struct attrib *a, const struct ev_item *const **items)
{
	*items = a->unmapped;
	return a->nunmapped;
}

void
attrib_get_stats(const struct attrib *a, struct attrib_stats *st)
{
	*st = a->st;
}

uint64_t
attrib_sym_bundles(const struct attrib_sym *s)
{
	uint64_t	b = 0;
	size_t		i;

	for (i = 0; i < s->nrefs; i++)
		b |= s->refs[i].item->bundles;
	return b;
}

/* Verdict names, as the TSV output spells them. */
const char *
verdict_name(enum verdict v)
{
	static const char *names[] = { "used", "plausible", "none", "no-code" };

	return (unsigned)v < 4 ? names[v] : "?";
}

/* Evidence kind names, as "kind:detail" items spell them. */
const char *
ev_kind_name(enum ev_kind k)
{
	switch (k) {
	case EV_MODULE:
		return "module";
	case EV_TRACE:
		return "trace";
	case EV_DEVICE:
	case EV_DRIVER:
		return "device";
	case EV_MOUNT:
	case EV_FS:
		return "fs";
	case EV_CRYPTO:
		return "crypto";
	default:
		return "?";
	}
}

/* "kind:detail" for one reference. */
void
attrib_ref_format(const struct attrib_ref *r, char *buf, size_t len)
{
	const struct ev_item *it = r->item;

	switch (it->kind) {
	case EV_DRIVER:
		snprintf(buf, len, "device:%s bound to %s", it->detail ?
		    it->detail : "?", it->name);
		break;
	case EV_DEVICE:
		snprintf(buf, len, "device:%s present", it->detail ?
		    it->detail : it->name);
		break;
	case EV_MOUNT:
		snprintf(buf, len, "fs:%s mounted on %s", it->name,
		    it->detail ? it->detail : "?");
		break;
	case EV_FS:
		snprintf(buf, len, "fs:%s registered", it->name);
		break;
	case EV_CRYPTO:
		snprintf(buf, len, "crypto:%s %s", it->name, it->hits > 0 ?
		    "in use" : "registered");
		break;
	default:
		snprintf(buf, len, "%s:%s%s", ev_kind_name(it->kind),
		    it->name, r->ambiguous ? " (ambiguous)" : "");
		break;
	}
	/* Only a part of the module is this option's: say so, the aggressive
	 * policy does not count it (trim_partial()). */
	if (r->partial && strlen(buf) + sizeof " (part)" <= len)
		strcat(buf, " (part)");
}
