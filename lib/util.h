/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by the Kconfig engine and core/: checked
 * allocation, a growable string buffer, an arena, string interning and
 * hashing. Files: fileio.h; caches: cachefile.h; hash tables: strmap.h;
 * time: clock.h.
 *
 * Nothing here keeps global state: every arena and intern table belongs to
 * the struct kconfig that created it, so two configurations can live (and be
 * evaluated on different threads) side by side.
 */
#ifndef KC_UTIL_H
#define KC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Allocation that cannot fail: on exhaustion we abort, as there is no
 * sensible recovery in the middle of building the symbol graph. */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list);

/*
 * A growing array: make room for need elements of size bytes, the
 * capacity *cap doubling from first (amortised O(1) appends; the size
 * computations are checked, an overflow is out of memory). The array is
 * returned, moved or not; unchanged when need <= *cap. XGROW(p, cap, need,
 * first) assigns it back: `XGROW(v->items, v->cap, v->n + 1, 64);`.
 */
void	*xgrow(void *, size_t *, size_t, size_t, size_t);
#define XGROW(p, cap, need, first) \
	((p) = xgrow((p), &(cap), (need), (first), sizeof *(p)))

/* A growable, always NUL-terminated string. */
struct strbuf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};
void	 strbuf_init(struct strbuf *);
void	 strbuf_add(struct strbuf *, const char *, size_t);
void	 strbuf_adds(struct strbuf *, const char *);
void	 strbuf_addc(struct strbuf *, char);
void	 strbuf_addf(struct strbuf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strbuf_reset(struct strbuf *);
char	*strbuf_detach(struct strbuf *);	/* caller frees */
void	 strbuf_free(struct strbuf *);

/* A bump allocator: objects of the symbol/menu/expression graph live as
 * long as their struct kconfig and are freed together. */
struct arena_chunk;
struct arena {
	struct arena_chunk *head;
	size_t		    used;	/* bytes used in head */
	size_t		    cap;	/* bytes in head */
};
void	 arena_init(struct arena *);
void	*arena_alloc(struct arena *, size_t);	/* zeroed, 16-aligned */
char	*arena_strdup(struct arena *, const char *);
char	*arena_strndup(struct arena *, const char *, size_t);
void	 arena_free(struct arena *);

/* String interning: equal strings share one pointer, so symbol names and
 * file names compare by address. */
struct intern {
	struct arena	*arena;
	const char     **slots;
	uint32_t	*hashes;
	size_t		 size;	/* power of two */
	size_t		 count;
};
void		 intern_init(struct intern *, struct arena *);
const char	*intern_str(struct intern *, const char *, size_t);
void		 intern_free(struct intern *);

/* Checked arithmetic for the numbers a bundle gives (sizes summed or
 * multiplied): false, *r unspecified, when the result does not fit. */
static inline bool
u64_add(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}
static inline bool
u64_mul(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}
static inline bool
size_add(size_t a, size_t b, size_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}
static inline bool
size_mul(size_t a, size_t b, size_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

uint32_t	 hash_str(const char *, size_t);
uint64_t	 hash_fnv64(uint64_t, const void *, size_t);
uint64_t	 hash_buf64(const void *, size_t);

/*
 * Environments as NULL-terminated arrays of "NAME=value" strings (conf's,
 * make's, a $(shell)'s): one lookup, one set, one free for all of kctui.
 */
const char *envp_get(char *const *envp, const char *name);	/* or NULL */
/* Set or replace NAME in a malloc'd array of malloc'd strings (which
 * may be reallocated: the new one is returned). */
char	**envp_set(char **envp, const char *name, const char *value);
void	 strv_free(char **);	/* each string, then the array; NULL ok */

/*
 * Module names: the kernel treats '-' and '_' as the same character
 * ("snd-hda-intel" is snd_hda_intel in /proc/modules), and so does kctui,
 * by these only. The canonical form has '_'.
 */
static inline char
modname_char(char c)
{
	return c == '-' ? '_' : c;
}
char	*modname_canon(char *);		/* in place; returns it */
char	*modname_dup(const char *, size_t);	/* canonical, malloc'd */
bool	 modname_eq(const char *, const char *);
bool	 modname_eqn(const char *, const char *, size_t);

#endif
