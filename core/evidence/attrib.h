/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attrib.h - attribution of evidence to the Kconfig symbols that build the
 * code behind it, through the Kbuild index and the source index; and a
 * verdict per symbol.
 */
#ifndef KC_ATTRIB_H
#define KC_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evidence.h"

struct kbuild;
struct srcindex;

/* Strongest first, so verdicts compare with < and >. */
enum verdict { V_USED, V_PLAUSIBLE, V_NONE, V_NO_CODE };

/* One piece of evidence as attributed to a symbol. */
struct attrib_ref {
	const struct ev_item	*item;
	bool			 direct;	/* the symbol's own object, not
						   an enclosing directory's */
	bool			 ambiguous;	/* function defined in several
						   places, not narrowed down */
	bool			 partial;	/* from a whole module (loaded,
						   bound, or a function found in
						   no file) to an option that
						   only some of its objects hang
						   on: a part that may not have
						   run (snd_pcm's ELD code) */
};

struct attrib_sym {
	const char		*name;		/* without CONFIG_ */
	enum verdict		 verdict;
	struct attrib_ref	*refs;
	size_t			 nrefs, arefs;
	size_t			 nmodules, ntraces, ndevices, nfs, ncrypto;
};

struct attrib_stats {
	size_t	modules, modules_mapped;
	size_t	functions, functions_mapped, functions_always;
	size_t	functions_ambiguous, functions_unknown;
	size_t	functions_ranges;	/* placed by modules.builtin.ranges */
	size_t	devices, devices_mapped;
	size_t	mounts, mounts_mapped;
	size_t	crypto, crypto_mapped;
};

struct attrib;

/* Attribute everything in ev; kb and si must outlive the result. srctree
 * is read for .c files that other .c files #include (kernel/sched). */
struct attrib	*attrib_build(const struct evidence *, const struct kbuild *,
		     const struct srcindex *, const char *srctree);
void		 attrib_free(struct attrib *);

/* The symbol's attribution, or NULL when no evidence names it. */
const struct attrib_sym *attrib_find(const struct attrib *, const char *sym);
/* The verdict of any symbol: no-code when it builds no object. */
enum verdict	 attrib_verdict(const struct attrib *, const char *sym);
size_t		 attrib_count(const struct attrib *);
const struct attrib_sym *attrib_at(const struct attrib *, size_t);
/* Evidence that no symbol explains. */
size_t		 attrib_unmapped(const struct attrib *,
		     const struct ev_item *const **items);
void		 attrib_get_stats(const struct attrib *, struct attrib_stats *);

/* The bundles (bit i: bundle i) in which any of the symbol's evidence
 * was seen: a driver seen in one of many snapshots is still kept. */
uint64_t	 attrib_sym_bundles(const struct attrib_sym *);

const char	*verdict_name(enum verdict);
const char	*ev_kind_name(enum ev_kind);
/* "module:virtio_net", "trace:ext4_file_write_iter", ... */
void		 attrib_ref_format(const struct attrib_ref *, char *, size_t);
#endif
