/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-int.h - what the two halves of kctui collect share: the
 * snapshot of /proc and /sys and the bundle's writers (collect.c), and
 * the function tracer with the symbols it resolves (collect-trace.c).
 */
#ifndef KC_COLLECT_INT_H
#define KC_COLLECT_INT_H

#include <sys/types.h>
#include <sys/utsname.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lzma.h>

#include "../../lib/fileio.h"
#include "../../lib/u64map.h"
#include "../../lib/util.h"
#include "collect.h"

#define COLLECT_XZ_PRESET	6
#define COLLECT_DEFAULT_KB	(64 * 1024)	/* per CPU */
#define COLLECT_IOBUF		65536

/* An output file being written: a temporary name until out_close(); the
 * encoder's errors go to af.error, like write errors. */
struct out {
	struct atomic_file af;
	bool		 xz;
	lzma_stream	 lz;
	uint8_t		*zbuf;
};

/* A text symbol of /proc/kallsyms, by offsets into the text. */
struct ksym {
	uint64_t	 addr;
	uint64_t	 count;
	uint32_t	 name;
	uint32_t	 mod;
	uint16_t	 namelen;
	uint16_t	 modlen;	/* 0: core kernel */
};

/* One collection. */
struct collect {
	const struct collect_options *opt;
	const char	*outdir;
	char		*fresh;		/* --force: the new bundle, swapped in
					   for outdir at the end */
	struct utsname	 uts;
	struct strbuf	 kallsyms;	/* the text, once read */
	bool		 have_kallsyms;

	bool		 traced;	/* the trace tables are valid */
	struct u64map	 ips;		/* traced functions: address ->
					   times seen */
	struct u64map	 parents;	/* their call sites, the same */
	uint64_t	 events;
	uint64_t	 missed;	/* lost, as the page headers say */
	struct strbuf	 stats;		/* trace-stats */
};

/* collect.c: notes and progress through the caller's callbacks, and the
 * bundle's files. */
void	 collect_note(struct collect *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
void	 collect_progress(struct collect *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
int	 collect_write(struct collect *, const char *name, const char *buf,
	     size_t len, bool xz, mode_t mode, char **cause);
/* An output file of the bundle, written as it goes (xz: compressed),
 * renamed into place by out_close; errors kept until then. */
int	 out_open(struct out *, const char *dir, const char *name, bool xz,
	     mode_t mode, char **cause);
void	 out_add(struct out *, const void *buf, size_t len);
void	 out_adds(struct out *, const char *s);
int	 out_close(struct out *, char **cause);
void	 out_free(struct out *);

/* collect.c: a whole file into sb (sizes in /proc and sysfs lie); -1
 * and errno when it cannot be read. */
int	 collect_slurp(const char *path, struct strbuf *sb);

/* collect-private.c: the config (redacted) and the mounts (the system's
 * own) written into the bundle; 0 or -1 with *cause. */
int	 collect_config(struct collect *, char **cause);
int	 collect_mounts(struct collect *, char **cause);

/* collect-trace.c: the function tracer (as root with tracefs) into
 * c->ips and c->parents, then those addresses named from kallsyms into
 * the functions file; the tables freed. -1 with *cause. */
int	 collect_trace(struct collect *, char **cause);
int	 collect_functions(struct collect *, char **cause);
#endif
