/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.h - evidence of use from real machines: bundles of what the
 * running kernel printed (docs/evidence.md), read and merged.
 *
 * Several bundles may be loaded (boots, workloads, a month of "kctui
 * collect"); every item remembers which bundles saw it (a bit per bundle,
 * in load order), so a driver seen once is not lost by a later snapshot.
 * Readers never fail on bad lines: they count them (warnings) and go on.
 */
#ifndef KC_EVIDENCE_H
#define KC_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ev_kind {
	EV_MODULE,	/* a loaded module: name (underscores), detail = size */
	EV_TRACE,	/* a traced function: name as traced (suffixes such as
			   .constprop.0 stripped), detail = [module] tag or NULL */
	EV_DEVICE,	/* a device present: name = modalias, detail = sysfs path */
	EV_DRIVER,	/* a bound driver: name = driver, detail = "bus device",
			   module = its module or NULL when built in */
	EV_MOUNT,	/* a mounted filesystem: name = fstype, detail = mountpoint */
	EV_FS,		/* a registered filesystem type (/proc/filesystems) */
	EV_CRYPTO,	/* a crypto algorithm (/proc/crypto): name = driver
			   ("sha256-generic"), detail = algorithm name,
			   module = its module or NULL for "kernel" */
	EV_NKINDS
};

struct ev_item {
	enum ev_kind	 kind;
	const char	*name;
	const char	*detail;
	const char	*module;
	uint64_t	 bundles;	/* bit i: seen in bundle i (first 64) */
	uint64_t	 hits;		/* times seen (trace events, mounts...);
					   crypto: users, refcnt - 1 summed */
	/* The bundle's seen file (kctui collect --append): snapshots that
	 * saw it, first and last (seconds since 1970); 0: no such file. */
	uint64_t	 seen;
	int64_t		 seen_first, seen_last;
};

struct ev_bundle {
	const char	*path;		/* as given */
	const char	*uname;		/* uname -a line, or NULL */
	const char	*release;	/* uname -r, or NULL */
	uint64_t	 trace_events;	/* lines/events read from the trace */
	uint64_t	 trace_overrun;	/* events lost, when recorded */
	int		 warnings;	/* bad lines skipped, all files */
	bool		 has_drivers;	/* it has a drivers file (maybe
					   empty): its bindings were read */
};

/* A line of a bundle's drivers file: a device bound to a driver. */
struct ev_binding {
	const char	*bus;
	const char	*driver;	/* may hold spaces ("i8042 kbd") */
	const char	*device;	/* its path under /sys/devices */
	const char	*module;	/* NULL: built in ("-") */
	int		 bundle;	/* which bundle's file */
};

struct evidence;
struct strmap;

struct evidence	*evidence_new(void);
void		 evidence_free(struct evidence *);

/*
 * Load a bundle directory and merge it. Missing files are fine (less
 * evidence). Bad lines are counted and reported through warn (one line a
 * file, "file: N malformed lines, first at line L: ..."), never fatal;
 * -1 with *cause only when dir can't be read at all.
 */
int		 evidence_load(struct evidence *, const char *dir,
		     void (*warn)(void *, const char *), void *arg,
		     char **cause);

/* Where parsed text traces are cached (NULL: not cached). A trace is
 * read again whenever its file changes. */
void		 evidence_set_cache_dir(struct evidence *, const char *dir);
/* For fuzzing: a trace cache's payload (evidence-cache.c) into bundle 0. */
bool		 evidence_trace_cache_blob(struct evidence *, const void *, size_t);

/* The kernel build kctui runs in (its include/config/kernel.release and
 * its modules.builtin.ranges): a bundle whose uname -r is that release and
 * that has no ranges file of its own reads the build's. Call before
 * loading. */
void		 evidence_set_build_ranges(struct evidence *,
		     const char *release, const char *path);

/* One line per bundle whose trace lost events (trace-stats overrun, or
 * [LOST N EVENTS]): a trace with holes cannot prove an option unused.
 * malloc'd; NULL when none did. */
char		*evidence_trace_warnings(const struct evidence *);

int		 evidence_nbundles(const struct evidence *);
const struct ev_bundle *evidence_bundle(const struct evidence *, int);

/* Every item of a kind, in first-seen order. */
size_t		 evidence_count(const struct evidence *, enum ev_kind);
const struct ev_item *evidence_item(const struct evidence *, enum ev_kind,
		     size_t index);
/* Find an item by kind and name (NULL if absent). */
const struct ev_item *evidence_find(const struct evidence *, enum ev_kind,
		     const char *name);

/* kallsyms, when a bundle has it: the module a symbol is in ("" for the
 * kernel image), or NULL if unknown. */
const char	*evidence_symbol_module(const struct evidence *,
		     const char *func);
/* Where a traced function's code is (evidence-ranges.c). */
enum ev_home {
	EVH_UNKNOWN,		/* not in kallsyms */
	EVH_IMAGE,		/* in the kernel image, nothing more known */
	EVH_MODULE,		/* in a loaded module: kallsyms "[module]" */
	EVH_BUILTIN,		/* in the image, in a built-in module's range
				   (modules.builtin.ranges) */
	EVH_CORE		/* in the image, outside every such range */
};
/* *module: the loaded or built-in module(s) (space-separated when an
 * object links into several), "" for the image and the core, NULL when
 * unknown. A name whose copies differ in place is EVH_IMAGE. */
enum ev_home	 evidence_symbol_home(const struct evidence *,
		     const char *func, const char **module);
/* Whether a bundle's modules.builtin.ranges names the module (- or _). */
bool		 evidence_builtin_module(const struct evidence *,
		     const char *module);
/* modules.alias, when a bundle has it: the modules whose alias pattern
 * matches a modalias; returns the count, *mods owned by the evidence. */
size_t		 evidence_alias_modules(const struct evidence *,
		     const char *modalias, const char *const **mods);

/* The running kernel's config, when a bundle has it (config[.xz]): a
 * symbol's value ("y", "m", "0x10"...) or NULL when not set. */
bool		 evidence_has_config(const struct evidence *);
const char	*evidence_config_value(const struct evidence *,
		     const char *sym);

/* Readers, exposed for tests and fuzzing: parse one file's text into the
 * evidence as bundle index b; return the number of malformed lines. */
/* Every line of the drivers files, in order: i from 0 to n - 1 (NULL
 * past the end); and the modalias files' modalias of a device path (the
 * first bundle's), or NULL. The one reading of those files that the
 * evidence, verify's devices check and the twin share. */
size_t		 evidence_nbindings(const struct evidence *);
const struct ev_binding *evidence_binding(const struct evidence *, size_t i);
const char	*evidence_device_modalias(const struct evidence *,
		     const char *device);
/* The same as a map, device path -> modalias (lib/strmap.h). */
const struct strmap *evidence_device_aliases(const struct evidence *);
/* Read one file's text as a bundle's (b: its index, for the bundles
 * bits; -1: none); the malformed lines, counted. */
int		 evidence_read_drivers(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_modalias(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_modules(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_trace(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_mounts(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_crypto(struct evidence *, int b, const char *,
		     size_t);
int		 evidence_read_aliases(struct evidence *, int b, const char *,
		     size_t);
/* The release (uname -r) of a uname file's text as the evidence reads
 * it, NULL if none or not a directory name (malloc'd). */
char		*evidence_uname_release(const char *);
/* modules.builtin.ranges, then kallsyms, of one bundle. */
int		 evidence_read_ranges(struct evidence *, int b, const char *,
		     size_t, const char *, size_t);

/* Strip a compiler suffix (.constprop.N, .isra.N, .part.N, .cold,
 * .llvm.N, and combinations) in place; returns name. */
char		*evidence_strip_suffix(char *name);
#endif
