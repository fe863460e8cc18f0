/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-int.h - what the parts of the Kbuild index share (see kbuild.c
 * for how the index is built): the index itself (kbuild.c), the record
 * of what a scan looked at (kbuild-deps.c), the values of the make
 * evaluator (kbuild-expand.c, with its functions in kbuild-func.c), its
 * statements (kbuild-make.c), the walk of the tree (kbuild-walk.c) and
 * the cache (kbuild-cache.c). Not for use outside kbuild*.c.
 */
#ifndef KC_KBUILD_INT_H
#define KC_KBUILD_INT_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kbuild.h"
#include "../../lib/strmap.h"
#include "../../lib/util.h"

#define KB_MAX_WORDS	4096	/* words one expansion may give */
#define KB_MAX_DEPTH	48	/* nested references and functions */
#define KB_MAX_IFS	64	/* nested conditionals */
#define KB_MAX_CONDS	32	/* conds kept per word (the innermost) */
#define KB_MAX_INCLUDE	8	/* nested includes */
#define KB_MAX_NEST	8	/* nested composite objects */
#define KB_MAX_FILE	(8 << 20)
#define KB_BUDGET	2000000L /* expansion steps per file */

/*
 * What a scan for kbuild_scan_cached looked at in the tree, so that a
 * cache of its result can be checked: a file read ('R': its mtime, size
 * and inode), a test of whether a path is a regular file ('F': the
 * answer), a directory listed ('D': its mtime and inode) and a
 * $(wildcard) ('G': the pattern from the tree top and the matches).
 */
struct kbdep {
	const char	*path;		/* from the tree top */
	char		 kind;		/* 'R', 'F', 'D' or 'G' */
	bool		 ok;		/* F: a regular file */
	int64_t		 mtime;		/* R, D: nanoseconds */
	int64_t		 size;		/* R */
	uint64_t	 ino;		/* R, D */
	const char	*list;		/* G: the matches, each NUL-ended */
	size_t		 listlen;
};

struct kbdeps {
	struct arena	 a;
	struct strmap	 seen;		/* kind + path -> struct kbdep */
	struct kbdep	**v;
	size_t		 n, cap;
	bool		 bad;		/* something not recordable: no cache */
};

/* An object with its place in the per-path chain. */
struct kobj {
	struct kbuild_obj	 pub;
	struct kobj		*next;	/* same path, another module */
	int			 group;
	char			 src;	/* first of its path: its source is
					   .c ('c'), .S ('S') or none (0) */
};

/* A list of objects (of a module, or of a symbol). */
struct olist {
	const struct kbuild_obj	**v;
	size_t			  n, cap;
	int			  group;
};

/* A directory to read, with the conds of the Makefile line naming it. */
struct kdir {
	const char	 *path;		/* "" for the top */
	const char	**conds;
	int		  nconds;
	bool		  unk;		/* reached under an unknown condition */
	bool		  modonly;	/* reached by obj-m += dir/ only */
	bool		  parsed;
	int		  group;
};

struct kbuild {
	struct arena		 arena;
	struct intern		 in;
	char			*srctree;
	int			 treefd;	/* -1 without a tree */

	struct strmap		 objpaths;	/* path -> struct kobj chain */
	struct strmap		 sources;	/* "fs/ext4/inode.c" -> kobj */
	struct strmap		 modules;	/* name -> struct olist */
	struct strmap		 syms;		/* last cond -> struct olist */
	struct strmap		 dirs;		/* path -> struct kdir */

	struct kobj		**objv;		/* every object, scan order */
	size_t			  nobjv, capobjv;
	struct olist		**lists;	/* every olist, to free */
	size_t			  nlists, caplists;
	struct kdir		**queue;
	size_t			  nqueue, capqueue, qhead;

	struct strmap		**gvars;	/* per group: exported vars */
	const char		**garch;	/* per group: SRCARCH */
	int			  ngroups;

	struct kbdeps		 *rec;		/* kbuild_scan_cached: what the
						   scan looks at, or NULL */
	struct kbuild_stats	  st;
};

enum kind { K_PLAIN, K_Y, K_M, K_MAYBE, K_OBJS };

/* A word of a value with the conditions for it to be there. */
struct cw {
	const char	 *s;
	const char	**conds;	/* interned, outermost first */
	int		  nconds;
	unsigned char	  unk;		/* also a condition we can't write */
	unsigned char	  cfg;		/* a $(CONFIG_X) value: y or m */
	unsigned char	  kind;		/* enum kind, of assigned words */
};

struct cwv {
	struct cw	*v;
	size_t		 n, cap;
};

/* A variable of the Makefile being read. */
struct var {
	const char	*name;
	struct cwv	 val;
	bool		 exported;
	bool		 fixed;		/* assignments ignored (srctree, ...) */
	bool		 opaque;	/* value unknown (ARCH) */
	bool		 broken;	/* assigned from something we skipped */
};

/* A conditional being read: the conds of the current branch. */
struct frame {
	const char	**conds;
	int		  nconds;
	bool		  unk, dead;
	bool		  seen_true;	/* an earlier branch was surely taken */
	bool		  all_false;	/* every earlier branch surely not */
};

/* The state of reading one Makefile (and what it includes). */
struct parse {
	struct kbuild		*kb;
	struct arena		 a;		/* scratch, freed after the file */
	struct strmap		 vars;		/* name -> struct var */
	const struct strmap	*inherit;	/* exported by the top Makefile */
	const char		*dir;
	bool			 top;		/* the top Makefile */
	struct frame		 fr[KB_MAX_IFS];
	int			 nfr, base, over;
	int			 depth, incdepth;
	const char		*file;		/* for KBUILD_DEBUG */
	int			 lineno;
	long			 budget;
	bool			 broken;	/* this line used something skipped */
	bool			 opaque;	/* ... or a value we can't know */
};

/* A scalar function argument: the words joined, their conds merged. */
struct scal {
	const char	 *s;
	const char	**conds;
	int		  nconds;
	unsigned char	  unk, cfg;
};

/* A make function ($(subst ...)), called with the text after its name. */
struct kb_func {
	const char	*name;
	void		(*fn)(struct parse *, const char *, size_t,
			    struct cwv *);
};

/* kbuild.c: the index */
void		 kb_obj_insert(struct kbuild *, int group, const char *path,
		     size_t l, const char *module, const char **conds,
		     int nconds, bool always, int src);

/* kbuild-deps.c: what a scan looked at */
struct kbdeps	*kbdeps_new(void);
void		 kbdeps_free(struct kbdeps *);
int64_t		 kbdeps_mtime(const struct stat *);
void		 kbdeps_file(struct kbdeps *, const char *path, bool ok);
void		 kbdeps_stat(struct kbdeps *, char kind, const char *path,
		     const struct stat *);
void		 kbdeps_glob(struct kbdeps *, const char *pattern,
		     char **matches, size_t n);

/* kbuild-expand.c: words, variables, references */
struct cw	*kb_cwv_add(struct arena *, struct cwv *);
const char	**kb_conds_cat(struct arena *, const char **x, int nx,
		     const char **y, int ny, int *n, unsigned char *unk);
bool		 kb_ends_with(const char *s, size_t len, const char *suffix);
size_t		 kb_ref_end(const char *s, size_t i, size_t len);
bool		 kb_is_ref(const char *s, size_t i, size_t len);
void		 kb_trim(const char **s, size_t *len);
struct var	*kb_var_local(struct parse *, const char *name, size_t len);
void		 kb_var_fix(struct parse *, const char *name,
		     const char *value, bool opaque);
void		 kb_var_words(struct parse *, const char *name, size_t len,
		     struct cwv *out);
void		 kb_emit(struct parse *, struct cwv *out, const char *s,
		     size_t len, const struct cw *like);
void		 kb_emit_split(struct parse *, struct cwv *out, const char *s,
		     const struct cw *like);
void		 kb_scalar(struct parse *, const char *s, size_t len,
		     struct scal *);
int		 kb_split_args(const char *s, size_t len, int max,
		     const char **a, size_t *al);
void		 kb_expand(struct parse *, const char *s, size_t len,
		     struct cwv *out);

/* kbuild-func.c: make functions */
const struct kb_func *kb_func_find(const char *name, size_t len);
void		 kb_patsubst(struct parse *, const char *pat, const char *rep,
		     const struct cwv *in, struct cwv *out);

/* kbuild-make.c: lines, assignments, conditionals, includes */
void		 kb_parse_init(struct parse *, struct kbuild *,
		     const char *dir, bool top, int group);
void		 kb_parse_text(struct parse *, const char *text, size_t len);
void		 kb_parse_done(struct parse *);

/* kbuild-walk.c: paths, files and directories of the tree */
char		*kb_path_norm(struct arena *, const struct kbuild *,
		     const char *s, size_t len);
bool		 kb_tree_file(const struct kbuild *, const char *path);
char		*kb_tree_read(const struct kbuild *, const char *path,
		     size_t *lenp);
bool		 kb_scan_check_arch(const char *srcarch, char **cause);
struct kbuild	*kb_scan_open(const char *srctree, char **cause);
struct kbuild	*kb_scan_tree(const char *srctree, const char *srcarch,
		     struct kbdeps *rec, char **cause);

#endif
