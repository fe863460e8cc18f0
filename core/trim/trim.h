/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim.h - trim suggestions: the options a configuration could lose
 * because no evidence says they are used, grouped by the menu they sit in,
 * and what accepting them really changes (docs/trim.md).
 *
 * A candidate is y or m, visible and settable to n (not forced on by a
 * select: trimming what selects it takes it along), not selected by a
 * symbol that stays, without evidence of use, and outside the keep-set:
 * what has evidence, the boot essentials evidence can't see, and
 * (transitively) what those depend on and select. Decisions (decisions.h)
 * override: "keep" keeps an option and what it needs, "trim" makes one a
 * candidate whatever its evidence.
 */
#ifndef KC_TRIM_H
#define KC_TRIM_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kconfig-parser/kconfig.h"

struct evidence;
struct kbuild;
struct attrib;
struct decisions;

/*
 * modules: only m options; aggressive: also y options whose code was not
 * traced (drivers, filesystems, networking); minimal: every y/m option
 * whose code no bundle saw running, in every menu, but the boot
 * essentials, what the bundle's CPU needs and the arch core the evidence
 * cannot speak for (meant to be verified by `kctui verify`); verified: modules, plus the options kept beyond a module list
 * only by evidence a module list does not show (traced hook or notifier
 * code, a device present but not bound, an optional part of a loaded
 * module), as candidates to_verify: `kctui verify` boots the export and
 * puts back those a workload step needs (docs/trim.md).
 */
enum trim_policy {
	TRIM_POLICY_MODULES, TRIM_POLICY_AGGRESSIVE, TRIM_POLICY_VERIFIED,
	TRIM_POLICY_MINIMAL
};
/* A policy's name, as --policy takes it and reports print it. */
const char	*trim_policy_name(enum trim_policy);
/* A --policy name; -1 with *cause if unknown. */
int		 trim_policy_parse(const char *name, enum trim_policy *,
		     char **cause);
enum trim_state { TRIM_PENDING, TRIM_ACCEPTED, TRIM_REJECTED };

struct trim_cand {
	struct kc_symbol	*sym;
	const char		*name;		/* without CONFIG_ */
	enum kc_tri		 value;		/* y or m at suggestion time */
	char			*reason;
	size_t			 nobjs, nmodules;	/* what it builds */
	unsigned long long	 ko_bytes;	/* .ko sizes found, 0: unknown */
	size_t			 subsys;
	enum trim_state		 state;
	bool			 decided;	/* a "trim" decision made it */
	/* verified policy: kept by the modules policy, beyond a module
	 * list, only by evidence a boot must confirm (trim.h above) */
	bool			 to_verify;
	/* Builds code of a module whose bound device has no QEMU twin
	 * (trim_input's nontwin): why, or NULL. kctui verify puts such a
	 * trim back before its first probe; the browser marks it. */
	const char		*nontwin;
};

struct trim_subsys {
	char	*path;		/* "Device Drivers > ... > Ethernet driver
				   support", or "(top level)" */
	size_t	*cands;
	size_t	 ncands;
	/* y/m symbols accepting the whole subsystem turns off, consequences
	 * included */
	size_t	 removes;
};

struct trim_change {
	struct kc_symbol	*sym;
	enum kc_tri		 before, after;
	/* "depends on X", "was selected by X", "choice moved", or NULL (an
	 * accepted candidate itself, or no single cause found) */
	const char		*why;
	/* The symbol of why (X), or NULL. */
	struct kc_symbol	*cause;
};

struct trim_input {
	const struct evidence	*ev;
	const struct kbuild	*kb;
	const struct attrib	*a;
	const struct decisions	*d;		/* NULL: none */
	enum trim_policy	 policy;
	/* Where .ko files are (sizes): NULL means /lib/modules/<release of
	 * the first bundle with one>. */
	const char		*modules_dir;
	/* Skip computing trim_subsys.removes (left 0). */
	bool			 no_removes;
	/* Consequences by a full kconfig_recalc() and a compare of every
	 * symbol, instead of only the symbols that read a candidate (the
	 * two must agree; tests check it). */
	bool			 full_recalc;
	/* Seeds from the loaded modules alone (the options that build
	 * them), no other evidence nor boot essentials: the trim `make
	 * localmodconfig` would make, for trim_beyond_modules(). */
	bool			 module_list;
	/* Modules (Kbuild names, "iwlwifi") of bound devices that have no
	 * QEMU twin, and for each why ("pci iwlwifi at ...: no twin"):
	 * the session's (session_evidence), NULL when the bundle has a vm
	 * or no twin can be made. */
	char *const		*nontwin_mods;
	char *const		*nontwin_why;
	size_t			 nnontwin;
};

struct trim;

struct trim	*trim_suggest(struct kconfig *, const struct trim_input *,
		     char **cause);
void		 trim_free(struct trim *);

size_t		 trim_ncands(const struct trim *);
struct trim_cand *trim_cand(struct trim *, size_t);
size_t		 trim_nsubsys(const struct trim *);
struct trim_subsys *trim_subsys(struct trim *, size_t);

/*
 * What accepting these candidates changes, on k's values (restored before
 * returning): every bool/tristate symbol whose value differs, the
 * candidates included (why NULL). *changes is malloc'd (caller frees);
 * the why strings belong to the trim.
 */
int		 trim_consequences(struct trim *, struct kconfig *,
		     const size_t *cands, size_t n,
		     struct trim_change **changes, size_t *nchanges,
		     char **cause);
/* Set the candidates to n in k (the export) and mark them accepted.
 * -1 with *cause naming those that could not be set. */
int		 trim_apply(struct trim *, struct kconfig *,
		     const size_t *cands, size_t n, char **cause);

/* The candidate index of a symbol, -1 when it is none. */
long		 trim_cand_of(const struct trim *, const struct kc_symbol *);
/* Inside the trim, the candidate index of an option that would be a
 * candidate but for a select forcing it on: never suggested, set to n
 * when what selects it is trimmed. */
#define TRIM_FORCED	(-2)
/* Why a symbol is in the keep-set ("evidence", "boot essential: ...",
 * "needed by CONFIG_X", "selected by CONFIG_X", "decision: keep"), or
 * NULL when it is not. For explain and the report. */
const char	*trim_keep_reason(const struct trim *, const struct kc_symbol *);
/* Counts for reports. */
struct trim_stats {
	size_t	keep;		/* symbols in the keep-set (y/m) */
	int	keep_rounds;	/* keep-sets tried (trim_suggest()) */
	size_t	strict_seeds;	/* seeds the cheaper keep-sets lost */
	size_t	kept_by_decision;	/* candidates a keep decision removed */
	size_t	trimmed_by_decision;
	bool	aggressive;	/* y options considered (has a trace) */
	bool	minimal;	/* the minimal policy in force (has a trace) */
	/* minimal: the recorded CPU's vendor ("GenuineIntel"), NULL when
	 * no bundle says it (every vendor's options then stay) */
	const char *cpu_vendor;
	/* minimal: y options of the arch core outside the keep-set that
	 * stay because the evidence cannot speak for them */
	size_t	arch_kept;
	size_t	to_verify;	/* candidates to verify by booting */
	const char *note;	/* e.g. why aggressive fell back, or NULL */
	char	*modules_dir;	/* where .ko sizes came from, or NULL */
	size_t	ko_found;
	/* Consequence recomputes of trim_subsys.removes, one a subsystem. */
	double	removes_median_ms, removes_max_ms, removes_total_ms;
};
void		 trim_get_stats(const struct trim *, struct trim_stats *);

/*
 * Find subsystems by name: an exact path, else a unique path that ends
 * with " > NAME" (or is NAME), else a unique path containing NAME
 * (case-insensitive). Returns the index, -1 with *cause (unknown or
 * ambiguous, with the candidates named).
 */
long		 trim_find_subsys(const struct trim *, const char *name,
		     char **cause);

/*
 * What a trim on the loaded modules alone (trim_input.module_list, as
 * `make localmodconfig`) would remove of what accepting every candidate
 * here keeps: the bool/tristate symbols y or m after this trim and n
 * after that one, in symbol order, each with why it stays (a chain of
 * keep reasons down to the evidence). On k, restored before returning.
 * *syms and *whys are malloc'd (caller frees both arrays and each why).
 */
int		 trim_beyond_modules(struct trim *, struct kconfig *,
		     struct kc_symbol ***syms, char ***whys, size_t *n,
		     char **cause);

/* The boot essentials list (data with reasons), for docs and tests. */
struct trim_essential {
	const char	*sym;
	const char	*why;
	const char	*if_mounted;	/* only when this fstype is mounted */
	/* Only under the minimal policy: the others never trim it (a y
	 * option outside their menus) or verify showed them right. */
	bool		 minimal;
};
size_t		 trim_essentials(const struct trim_essential **);
/* The y options of the arch core the minimal policy kept because the
 * evidence cannot speak for them (trim_stats.arch_kept of them), in menu
 * order; NULL under the other policies. */
struct kc_symbol *const *trim_arch_kept(const struct trim *, size_t *n);

/* trim-cpu.c: the recorded CPU's vendor, from the bundles' cpu modalias
 * ("GenuineIntel"), NULL when none says it or they disagree; the vendor
 * an option serves alone (what it is in *what, whether that vendor's
 * CPUs need it in *needs), NULL for every CPU. */
const char	*trim_cpu_vendor(const struct evidence *);
const char	*trim_cpu_option(const char *sym, const char **what,
		     bool *needs);
/* Whether sym is guest support for a hypervisor the bundles' machine is
 * not (its DMI, no device of it); why in *why (malloc'd, may be NULL). */
bool		 trim_cpu_guest_unused(const struct evidence *, const char *sym,
		     char **why);
/* trim-cpu.c: NULL when the bundles were recorded on the architecture
 * the configuration (its text's heading, else srcarch) is for, and the
 * configuration is read with its own SRCARCH; else a malloc'd sentence
 * naming each side (config_name names the file). For suggest, export,
 * explain and the browser alike. */
char		*trim_arch_mismatch(const struct evidence *,
		     const char *config_text, const char *config_name,
		     const char *srcarch);
#endif
