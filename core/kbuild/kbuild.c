/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.c - an index of the kernel's Makefiles and Kbuild files (see
 * kbuild.h): which CONFIG_ symbols control each object and each module.
 *
 * Each file is read by a small evaluator of the part of GNU make that
 * Kbuild files use. Every word of a variable's value carries the symbols
 * that must be set for the word to be there ("conds"): obj-$(CONFIG_FOO)
 * += foo.o gives the word foo.o with conds [FOO] in the variable "obj-",
 * and words assigned inside "ifdef CONFIG_BAR" get BAR too. Both branches
 * of every conditional are read:
 *
 *  - positive tests give conds: ifdef CONFIG_X, ifeq ($(CONFIG_X),y) (or
 *    m, or a value), ifneq ($(CONFIG_X),), ifeq ($(CONFIG_A)$(CONFIG_B),yy),
 *    ifneq ($(var),) where var has one conditional word;
 *  - negative ones (ifndef, ifeq ($(CONFIG_X),), ifneq ($(CONFIG_X),y),
 *    every "else") and ones we can't evaluate ($(shell), $(call), ORs of
 *    several symbols) add no conds but mark the words "unknown", which only
 *    clears kbuild_obj.always;
 *  - tests on what make knows without a .config (ifeq ($(SRCARCH),x86),
 *    undefined variables, KBUILD_EXTMOD) are evaluated, and dead branches
 *    skipped; $(ARCH) (x86, x86_64 or i386) is unknown.
 *
 * A conditional "=" or ":=" (mmu-$(CONFIG_MMU) := memory.o after mmu-y :=
 * nommu.o) can't remove the words it would replace: they become unknown.
 * foo-$(CONFIG_A)$(CONFIG_B) (an OR) is read as foo-y, unknown, no conds.
 *
 * Variables are expanded when assigned (= and := alike). A reference to a
 * variable with several conditional values ("BITS := 32" under ifeq
 * ($(CONFIG_X86_32),y), "BITS := 64" in the else) expands to each of them,
 * so foo_$(BITS).o gives foo_32.o [X86_32] and foo_64.o. $(CONFIG_X)
 * expands to "y" with conds [X] marked "could be m". Functions handled:
 * addprefix addsuffix basename dir filter filter-out findstring firstword
 * foreach if lastword notdir patsubst sort strip subst wildcard, and
 * $(v:a=b); anything else ($(call), $(shell), $(eval), ...) expands to
 * nothing and counts the line as skipped (when it assigns obj-, lib-,
 * subdir- or a composite).
 *
 * The walk: the top Makefile (which includes arch/$(SRCARCH)/Makefile) is
 * read for the variables it exports (ARCH_CORE, ARCH_LIB, ARCH_DRIVERS
 * from core-y, libs-y and drivers-y, BITS, ...; its unknown conditions
 * are ignored, as it is full of them and only these variables matter),
 * then the top Kbuild file is read as the root directory and every
 * obj-*, subdir-* directory is descended, breadth first, with the conds
 * accumulated outermost first. A directory named twice before it is read
 * (obj-$(CONFIG_USB) += usb/, obj-$(CONFIG_PCI) += usb/) keeps the conds
 * common to both, the rest unknown; named after it is read, it keeps its
 * first conds. Then, for coverage, the same is done for every other
 * architecture: directories already read are not read again; objects
 * found only there have always == false, and a module name found under
 * $(SRCARCH) keeps only its $(SRCARCH) objects. Directories no
 * architecture reaches (tools/, scripts/, Documentation/) are not read.
 *
 * Objects: each word foo.o of obj-* or lib-* is a composite when foo-y,
 * foo-objs, foo-m or foo-$(CONFIG_X) has parts (nested composites are
 * followed), its leaves get the composite's conds plus their own. A word
 * of obj-m or obj-$(CONFIG_X) (X could be m) names a potential module,
 * "foo" with '-' made '_'; obj-y, obj-$(subst m,y,...), obj-$(X:m=y) and
 * lib-* words are built in only. A leaf's source is foo.c or foo.S if it
 * exists (.c assumed when there is no tree, as with kbuild_parse_text on
 * kbuild_new_empty). Conds repeated are kept once, at their last place.
 * An object listed under different conds (obj-$(CONFIG_A) += x.o and
 * obj-$(CONFIG_B) += x.o) has one record for each; kbuild_source gives
 * the first. Words from $(CONFIG_NAME) values (a string: obj-y +=
 * $(CONFIG_BUILTIN_DTB).dtb.o) are dropped, counted as skipped.
 *
 * kbuild_parse_text reads a text as directory dir's Makefile; a directory
 * it names is recorded with its conds, so a later kbuild_parse_text of
 * that directory starts from them. It returns 0, or -1 for bad arguments.
 *
 * kbuild_scan_cached records, during the scan, everything it looks at in
 * the tree (struct kbdeps: files read, files looked for, the arch
 * directory listed, $(wildcard)s) and saves the objects in scan order with
 * those dependencies; a later call checks them (a few thousand stats) and
 * replays the objects through kb_obj_insert, the scan's own insertion, so
 * every lookup answers as after a scan (see kbuild-cache.c).
 *
 * The parts (kbuild-int.h is what they share): this file is the index
 * and its lookups; kbuild-walk.c the walk of the tree (paths, files,
 * directories, architectures); kbuild-make.c the statements of the
 * make language (lines, assignments, conditionals, includes);
 * kbuild-expand.c its values (words with conds, variables, references)
 * and kbuild-func.c its functions; kbuild-deps.c the record of what a
 * scan looked at and kbuild-cache.c the cache made of it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild-int.h"

/* Append o to the list l. */
static void
olist_add(struct olist *l, const struct kbuild_obj *o)
{
	XGROW(l->v, l->cap, l->n + 1, 4);
	l->v[l->n++] = o;
}

/* The list of key in map m, created (for group) if new. */
static struct olist *
olist_get(struct kbuild *kb, struct strmap *m, const char *key, int group)
{
	struct strmap_entry	*e;
	struct olist		*l;
	bool			 added;

	e = strmap_insert(m, key, strlen(key), &added);
	if (!added)
		return e->value;
	l = e->value = arena_alloc(&kb->arena, sizeof *l);
	l->group = group;
	XGROW(kb->lists, kb->caplists, kb->nlists + 1, 256);
	kb->lists[kb->nlists++] = l;
	return l;
}

/*
 * Record the object path (from the tree top, ".o", len l) of group built
 * into module under conds (interned, like module). An object listed under
 * other conds (obj-$(CONFIG_A) += x.o, obj-$(CONFIG_B) += x.o) gets one
 * record each; kbuild_source gives the first. The first record of a path
 * looks for its source, unless src is known (a cache: 'c', 'S' or 0; -1
 * to look). This is how both a scan and a cache load fill the index.
 */
void
kb_obj_insert(struct kbuild *kb, int group, const char *path, size_t l,
    const char *module, const char **conds, int nconds, bool always,
    int src)
{
	struct strmap_entry	*e;
	struct kobj		*o, *head;
	const char		*ip, *sp;
	char			*t;
	int			 i;

	ip = intern_str(&kb->in, path, l);
	e = strmap_insert(&kb->objpaths, ip, l, NULL);
	head = e->value;
	for (o = head; o != NULL; o = o->next) {
		if (o->pub.module == module && o->pub.nconds == nconds &&
		    (nconds == 0 || memcmp(o->pub.conds, conds,
		    (size_t)nconds * sizeof *conds) == 0))
			return;
	}
	o = arena_alloc(&kb->arena, sizeof *o);
	o->pub.path = ip;
	o->pub.module = module;
	o->pub.nconds = nconds;
	o->pub.always = always && nconds == 0;
	o->pub.conds = arena_alloc(&kb->arena, (size_t)(nconds + 1) *
	    sizeof *o->pub.conds);
	for (i = 0; i < nconds; i++)
		o->pub.conds[i] = conds[i];
	o->group = group;
	o->next = head;
	e->value = o;	/* no insertion since strmap_insert: e holds */
	XGROW(kb->objv, kb->capobjv, kb->nobjv + 1, 4096);
	kb->objv[kb->nobjv++] = o;
	kb->st.objects++;

	if (head == NULL && l > 2) {
		t = xmalloc(l + 1);
		memcpy(t, path, l - 2);
		if (src < 0 && kb->treefd < 0)
			src = 'c';
		else if (src < 0) {
			strcpy(t + l - 2, ".c");
			if (kb_tree_file(kb, t))
				src = 'c';
			else {
				strcpy(t + l - 2, ".S");
				src = kb_tree_file(kb, t) ? 'S' : 0;
			}
		}
		o->src = (char)src;
		if (src == 'c' || src == 'S') {
			t[l - 2] = '.';
			t[l - 1] = (char)src;
			t[l] = '\0';
			sp = intern_str(&kb->in, t, l);
			if (strmap_get(&kb->sources, sp, l) == NULL)
				strmap_set(&kb->sources, sp, l, o);
		}
		free(t);
	}
	if (module != NULL) {
		struct olist	*ml = olist_get(kb, &kb->modules, module,
		    group);

		if (ml->group == group)
			olist_add(ml, &o->pub);
	}
	if (nconds > 0)
		olist_add(olist_get(kb, &kb->syms, conds[nconds - 1], 0),
		    &o->pub);
}

/* An index with no tree (treefd -1): sources are then assumed .c. */
struct kbuild *
kbuild_new_empty(void)
{
	struct kbuild	*kb = xcalloc(1, sizeof *kb);

	arena_init(&kb->arena);
	intern_init(&kb->in, &kb->arena);
	kb->treefd = -1;
	return kb;
}

/* The objects live in the arena; only the lists and maps are separate. */
void
kbuild_free(struct kbuild *kb)
{
	size_t	i;
	int	g;

	if (kb == NULL)
		return;
	for (i = 0; i < kb->nlists; i++)
		free(kb->lists[i]->v);
	free(kb->lists);
	free(kb->objv);
	free(kb->queue);
	for (g = 0; g < kb->ngroups; g++) {
		strmap_free(kb->gvars[g]);
		free(kb->gvars[g]);
	}
	free(kb->gvars);
	free(kb->garch);
	strmap_free(&kb->objpaths);
	strmap_free(&kb->sources);
	strmap_free(&kb->modules);
	strmap_free(&kb->syms);
	strmap_free(&kb->dirs);
	intern_free(&kb->in);
	arena_free(&kb->arena);
	if (kb->treefd >= 0)
		close(kb->treefd);
	kbdeps_free(kb->rec);
	free(kb->srctree);
	free(kb);
}

/* Callers pass paths as found in traces, sometimes with a "./". */
const struct kbuild_obj *
kbuild_source(const struct kbuild *kb, const char *srcpath)
{
	const struct kobj	*o;

	while (srcpath[0] == '.' && srcpath[1] == '/')
		srcpath += 2;
	o = strmap_get(&kb->sources, srcpath, strlen(srcpath));
	return o ? &o->pub : NULL;
}

/* Module names are kept with '_' as the kernel shows them loaded. */
size_t
kbuild_module(const struct kbuild *kb, const char *module,
    const struct kbuild_obj *const **objs)
{
	const struct olist	*l;
	char			*m = modname_dup(module, strlen(module));

	l = strmap_get(&kb->modules, m, strlen(m));
	free(m);
	*objs = l ? l->v : NULL;
	return l ? l->n : 0;
}

/* Symbols are kept without their CONFIG_ prefix, as in Kconfig. */
size_t
kbuild_symbol_objs(const struct kbuild *kb, const char *sym,
    const struct kbuild_obj *const **objs)
{
	const struct olist	*l;

	if (strncmp(sym, "CONFIG_", 7) == 0)
		sym += 7;
	l = strmap_get(&kb->syms, sym, strlen(sym));
	*objs = l ? l->v : NULL;
	return l ? l->n : 0;
}

/* For walks over every object, in scan order. */
size_t
kbuild_nobjs(const struct kbuild *kb)
{
	return kb->nobjv;
}

/* NULL past the end, so a walk needs no separate bound check. */
const struct kbuild_obj *
kbuild_obj_at(const struct kbuild *kb, size_t i)
{
	return i < kb->nobjv ? &kb->objv[i]->pub : NULL;
}

/* A copy: the caller may keep it after kbuild_free. */
void
kbuild_get_stats(const struct kbuild *kb, struct kbuild_stats *st)
{
	*st = kb->st;
}
