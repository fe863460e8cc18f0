/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-int.h - what the files of the evidence reader share, and no
 * one else sees: struct evidence itself, the state of reading one file,
 * and the functions that cross between
 *
 *	evidence.c	  bundles: loading a directory, merging items, the API
 *	evidence-parse.c  the line parser of each bundle file, symbol tables
 *	evidence-dat.c	  trace.dat through libtracecmd
 *	evidence-cache.c  the trace and decoded-text caches
 *	zstream.c	  plain, xz and gzip files as one byte stream
 */
#ifndef KC_EVIDENCE_INT_H
#define KC_EVIDENCE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evidence.h"
#include "zstream.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"

#define EV_BUFSIZE	(1024 * 1024)	/* decoded bytes per read; also the
					   longest line kept */
#define EV_QUOTE	80		/* bytes of a bad line quoted */
#define EV_MAXBUNDLE	4096		/* readers' bundle index limit */

/* The items of one kind. */
struct ev_kindtab {
	struct ev_item	**v;		/* first-seen order */
	size_t		  n;
	size_t		  cap;
	struct strmap	  map;		/* name -> item */
};

/* modules.alias patterns, grouped by their literal prefix (up to the
 * first wildcard) so a lookup probes one group per prefix length. */
struct alias_pat {
	const char		*pattern;
	const char		*module;
	size_t			 seq;	/* load order */
	struct alias_pat	*next;
};
struct alias_group {
	struct alias_pat	*head;
	struct alias_pat	*tail;
};
struct alias_index {
	struct strmap		 groups;	/* literal prefix -> group */
	uint8_t			*lens;		/* lens[L]: a group of prefix
						   length L exists */
	size_t			 nlens;
	size_t			 npats;
};

/* A memo of alias lookups: modalias -> result. Filled by
 * evidence_alias_modules(), which takes a const evidence, so it lives
 * behind a pointer. */
struct alias_result {
	const char	**mods;
	size_t		  n;
};
struct alias_cache {
	struct strmap	  map;		/* modalias -> struct alias_result */
	struct arena	  arena;	/* results and keys */
};

/*
 * modules.builtin.ranges of the bundle being loaded (Linux 6.12 on): the
 * offsets of each built-in module's code and data within an ELF section
 * of vmlinux, and per section an anchor symbol whose address places the
 * section (base = anchor's address - anchor's offset). kallsyms gives the
 * anchors' addresses and the image's function addresses; when it ends,
 * each function is placed in a module's range or in none (ranges.c).
 */
struct ev_range {
	const char	*sect;		/* interned: ".text" */
	uint64_t	 start, end;	/* [start, end) from the section base */
	uint64_t	 abs;		/* start + base, once the base is known */
	const char	*mods;		/* interned: "ext4", or "a b" when the
					   object links into several modules */
};
struct ev_anchor {
	const char	*sect;
	const char	*sym;		/* interned */
	size_t		 symlen;	/* kallsyms compares every name */
	uint64_t	 off;
	uint64_t	 addr;
	bool		 found;
};
struct ev_ksym {
	const char	*name;		/* the syms entry's key */
	uint64_t	 addr;
};
struct ev_ranges {
	struct ev_range	*v;		/* the ranges that hold something */
	size_t		 n, cap;
	struct ev_anchor *a;
	size_t		 na, cap_a;
	struct ev_ksym	*pend;		/* image functions seen in kallsyms */
	size_t		 npend, cap_pend;
	const char	*missing;	/* an anchor kallsyms lacks, or NULL */
};

struct evidence {
	struct arena		 arena;
	struct intern		 strs;
	struct ev_bundle	**bundles;
	int			 nbundles;
	int			 capbundles;
	struct ev_kindtab	 kinds[EV_NKINDS];
	struct strmap		 syms;		/* kallsyms: name -> module */
	struct ev_ranges	 rng;		/* of the bundle being loaded */
	struct strmap		 homes;		/* image function -> built-in
						   module(s), "" outside them,
						   ev_home_conflict when its
						   copies differ */
	struct strmap		 builtin;	/* modules a ranges file names */
	struct strmap		 config;	/* running configs: X -> "y"/"m"/.. */
	/* Every line of the drivers files, in order (a driver bound to
	 * two devices is two bindings), and the modalias files' device
	 * path -> modalias (the first bundle's wins): what verify's
	 * devices check and the twin read, per device. */
	struct ev_binding	*bindings;
	size_t			 nbindings, capbindings;
	struct strmap		 devalias;
	struct alias_index	 alias;
	struct alias_cache	*cache;
	char			*cache_dir;	/* parsed traces, or NULL */
	char			*build_release;	/* the build kctui runs in: its */
	char			*build_ranges;	/* release and ranges, or NULL */
};

/* The state of reading one file. */
struct ev_ctx {
	struct evidence		*ev;
	/* kallsyms_line(): the module of the previous line, interned. */
	const char		*ksym_mod;
	size_t			 ksym_modn;
	struct ev_bundle	*bundle;	/* NULL: no bundle to account */
	uint64_t		 bit;		/* this bundle's bit, or 0 */
	int			 b;		/* its index, -1: none */
	int			 (*line)(struct ev_ctx *, const char *, size_t);
	void			 (*finish)(struct ev_ctx *);
	int			 flags;
	uint64_t		 lineno;
	uint64_t		 good;
	int			 malformed;
	uint64_t		 first_bad;
	char			 quote[EV_QUOTE + 1];
	int			 skipping;	/* in an over-long line */
	int			 unterminated;	/* the last line had no \n */

	uint64_t		 events;	/* trace events read */
	uint64_t		 lost;		/* [LOST N EVENTS], missed */
	uint64_t		 overrun;	/* trace-stats overrun: sum */
	int			 modfmt;	/* modules: 0 unknown, 1 proc,
						   2 lsmod */
	struct strbuf		 tmp;		/* scratch for unescaping */
	struct strbuf		 cname;		/* crypto block being read */
	struct strbuf		 cdriver;
	struct strbuf		 cmodule;
	uint64_t		 cline;		/* its first line, or 0 */
	int			 cdriver_set;
	int			 cmodule_set;
	uint64_t		 crefcnt;	/* its refcnt, 0 if none */

	struct strbuf		*tee;		/* decoded text also goes
						   here (text cache), or NULL */
	size_t			 tee_max;	/* ...up to this length */
	int			 tee_failed;
};

/* Parser flags. */
#define EVF_TRACE	0x1	/* an unterminated last line is truncated */
#define EVF_NONUL	0x2	/* lines with NUL bytes are malformed */

/* What a bundle file is to evidence_load, beyond its parser. */
enum ev_role {
	EVR_TEXT,		/* parsed, nothing more */
	EVR_TRACE,		/* a text trace: the trace cache */
	EVR_STATS		/* trace-stats: the bundle's overrun */
};

/* A file evidence_load reads. */
struct ev_file {
	const char	*name;
	int		 (*line)(struct ev_ctx *, const char *, size_t);
	void		 (*finish)(struct ev_ctx *);
	int		 flags;
	enum ev_role	 role;
};

/* The warning sink of one load. */
struct ev_warn {
	void		 (*fn)(void *, const char *);
	void		*arg;
};

/* Whether c is a space or a tab (the blanks of every bundle file). */
static inline int
ev_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parse the hex digits at [p, e) into *v; the end of the run (p when
 * there is none). A run of more than 16 digits is no 64-bit address:
 * *v is 0 and the caller, which sees the length, decides.
 */
static inline const char *
ev_hex64(const char *p, const char *e, uint64_t *v)
{
	const char	*s = p;
	int		 d;

	*v = 0;
	for (; p < e; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		*v = (*v << 4) | (uint64_t)d;
	}
	if (p - s > 16)
		*v = 0;
	return p;
}

/* Intern [s, s+n) for the lifetime of the evidence. */
static inline const char *
ev_intern(struct evidence *ev, const char *s, size_t n)
{
	return intern_str(&ev->strs, s, n);
}

/* Intern a bundle's string as visible text (escape bytes shown as \xHH,
 * lib/text.h), as ev_add does for items: what is shown is never raw. */
const char	*ev_intern_visible(struct evidence *, const char *s, size_t n);

/* evidence.c: items, lines, files. */
struct ev_bundle *ev_bundle_at(struct evidence *, int);
struct ev_item	*ev_add(struct ev_ctx *, enum ev_kind, const char *, size_t,
		     const char *, size_t, const char *, size_t, uint64_t);
void		 ev_bad(struct ev_ctx *, const char *, size_t);
size_t		 ev_feed(struct ev_ctx *, const char *, size_t, int);
void		 ev_ctx_init(struct ev_ctx *, struct evidence *, int,
		     int (*)(struct ev_ctx *, const char *, size_t),
		     void (*)(struct ev_ctx *), int);
void		 ev_ctx_done(struct ev_ctx *);
int		 ev_read_mem(struct evidence *, int, const char *, size_t,
		     int (*)(struct ev_ctx *, const char *, size_t),
		     void (*)(struct ev_ctx *), int);
void		 ev_warnf(const struct ev_warn *, const char *, ...)
		     __attribute__((format(printf, 2, 3)));
void		 ev_read_fd(struct ev_ctx *, int, enum zstream_type,
		     const char *, const struct ev_warn *);
void		 ev_read_stream(struct ev_ctx *, struct zstream *,
		     const char *, const struct ev_warn *);

/* evidence-parse.c: the parsers. */
size_t		 ev_suffix_len(const char *, size_t);
extern const struct ev_file ev_files[];
extern const size_t ev_nfiles;
int		 ev_trace_line(struct ev_ctx *, const char *, size_t);
/* evidence-seen.c: the seen file of collect --append */
int		 ev_seen_line(struct ev_ctx *, const char *, size_t);
int		 ev_functions_line(struct ev_ctx *, const char *, size_t);
void		 ev_trace_add(struct ev_ctx *, const char *, size_t,
		     const char *, size_t);

/* evidence-ranges.c: modules.builtin.ranges. */
extern const char ev_home_conflict[];
int		 ev_ranges_line(struct ev_ctx *, const char *, size_t);
void		 ev_ranges_note(struct evidence *, const char *, uint64_t);
void		 ev_ranges_anchor(struct evidence *, const char *, size_t,
		     uint64_t);
void		 ev_ranges_resolve(struct evidence *);
void		 ev_ranges_clear(struct ev_ranges *);

/* evidence-dat.c: trace.dat. */
/* fd is the file opened (kept open by the caller), path its name. */
void		 ev_dat_read(struct ev_ctx *, int fd, const char *path,
		     const struct ev_warn *);

/* evidence-cache.c: 0 when the trace was read (from the cache or, then
 * cached, from fd), -1 when there is no cache to use. */
int		 evcache_read_trace(struct evidence *, int, int,
		     enum zstream_type, const char *, const struct ev_warn *,
		     uint64_t *);
void		 evcache_read_text(struct evidence *, struct ev_ctx *, int,
		     enum zstream_type, const char *, const struct ev_warn *);

#endif
