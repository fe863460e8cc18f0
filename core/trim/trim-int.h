/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-int.h - the inside of a struct trim, shared by the files of the
 * trim: trim.c (suggest, its rounds and lifetime), trim-keep.c (the
 * keep-set and its check), trim-candidates.c (candidates, subsystems,
 * savings), trim-consequences.c (what accepting changes) and
 * trim-modsize.c (module sizes). Not for use outside them: trim.h is the
 * interface.
 */
#ifndef KC_TRIM_INT_H
#define KC_TRIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/strmap.h"
#include "../evidence/attrib.h"
#include "trim.h"

/* Why a symbol is in the keep-set (trim_keep_reason()); K_NONE: it is
 * not. */
enum keep_kind {
	K_NONE, K_EVIDENCE, K_ESSENTIAL, K_DEPEND, K_SELECT, K_DECISION,
	K_DISK, K_CPU
};

/* The causes of a change, each formatted once per symbol (trim_why()). */
enum why_kind { W_DEPEND, W_SELECT, W_IMPLY, W_DEFAULT, W_NKINDS };

/* A module's size: from a .ko file of the module tree (read when first
 * asked), or from a bundle's list of loaded modules. */
struct ko_ent {
	char			*name;		/* '-' as '_' */
	char			*path;		/* the .ko file; NULL: a bundle's */
	unsigned long long	 size;		/* 0: unknown */
	bool			 known;		/* size read or given */
};

/* Module sizes by name: the first one found for a name wins. */
struct ko_map {
	struct strmap		 byname;	/* name -> index + 1 in ents */
	struct ko_ent		*ents;
	size_t			 count, alloc;
};

/* A menu's path, and its subsystem once one was made (-1 before). */
struct trim_pathent {
	struct kc_menu	*menu;		/* the nearest menu; NULL: top level */
	char		*path;
	long		 subsys;
};

/* One trim of one configuration: its keep-set, candidates, subsystems,
 * module sizes and the state the consequence recomputes reuse. */
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
	/*
	 * The verified policy (trim_verify_prepare()), NULL otherwise: the
	 * keep-set of the modules policy (keep1), what it keeps beyond a
	 * module list (beyond, with why in beyond_why), and its evidence
	 * seeds there that a boot must confirm (unseed: not seeds here;
	 * unseed_trace: traced code alone).
	 */
	unsigned char		*keep1, *beyond, *unseed, *unseed_trace;
	char			**beyond_why;
	/* minimal: the arch core's y options kept because the evidence
	 * cannot speak for them (trim_collect(), trim_arch_kept()) */
	struct kc_symbol	**arch_kept;
	size_t			 aarch_kept;
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

/* Whether a symbol is a bool or tristate (what a trim can set to n). */
static inline bool
trim_is_tristate(const struct kc_symbol *s)
{
	enum kc_type t = kc_sym_type(s);

	return t == KC_BOOL || t == KC_TRISTATE;
}

/* trim-keep.c: the keep-set of this round (afresh each round); drop the
 * candidates that can't be set to n, returning how many seeds lost their
 * value; the verdict the trim rules use; the verified policy's marks,
 * before the rounds. */
void		 trim_keep(struct trim *);
int		 trim_verify_prepare(struct trim *, char **cause);
size_t		 trim_settle(struct trim *);
enum verdict	 trim_verdict(const struct trim *, struct kc_symbol *);
bool		 trim_partial(const struct attrib_sym *);

/* trim-candidates.c: tentative candidates of a round, forgetting them,
 * then reasons, savings and subsystems of the final ones, and how many
 * options each subsystem really removes. */
void		 trim_collect(struct trim *);
void		 trim_uncollect(struct trim *);
void		 trim_describe(struct trim *);
int		 trim_removes(struct trim *, char **cause);

/* trim-consequences.c: set candidates to n in passes; how many could not
 * be (their indexes in fail, when not NULL). */
size_t		 trim_set_all(struct trim *, struct kconfig *, const size_t *,
		     size_t, size_t *fail);

/* trim-modsize.c: the module sizes (t->ko), one module's size (0 when
 * unknown), freeing them. */
void		 trim_ko_load(struct trim *);
unsigned long long trim_ko_bytes(struct trim *, const char *module);
void		 trim_ko_free(struct ko_map *);

#endif
