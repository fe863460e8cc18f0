/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strmap.h - the one string-keyed hash table: open addressing, linear
 * probing, power-of-two size, each slot caching its key's hash and length.
 *
 * Keys are borrowed, not copied: they must outlive the map (interned
 * strings, arena copies, a mapped file). Values are a pointer; callers that
 * map to an index store it as (void *)(uintptr_t)(index + 1) so that NULL
 * still means "absent".
 */
#ifndef KC_STRMAP_H
#define KC_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap_entry {
	const char	*key;	/* NULL: empty slot */
	uint32_t	 len;
	uint32_t	 hash;
	void		*value;
};

struct strmap {
	struct strmap_entry	*slots;
	size_t			 size;	/* power of two, or 0 */
	size_t			 count;
};

void		 strmap_init(struct strmap *);
void		 strmap_free(struct strmap *);
/* Size the table for n keys at once (no rehash while they go in). */
void		 strmap_reserve(struct strmap *, size_t n);
/* The value of key (s, n), or NULL. */
void		*strmap_get(const struct strmap *, const char *s, size_t n);
/* The entry of key (s, n), or NULL. */
struct strmap_entry *strmap_find(const struct strmap *, const char *s,
		    size_t n);
/* The entry of key (s, n), added (value NULL) if absent; *added says
 * which (may be NULL). The pointer is valid until the next insertion.
 * An added entry's key may be re-pointed (e->key = copy) at an equal
 * string that outlives the map: look up with a temporary, copy the key
 * only when it is new, and hash it once. */
struct strmap_entry *strmap_insert(struct strmap *, const char *s, size_t n,
		    bool *added);
/* Set key (s, n) to value, adding it if absent. */
void		 strmap_set(struct strmap *, const char *s, size_t n,
		    void *value);
/* Iterate: start with *i = 0; NULL once every entry was returned. */
struct strmap_entry *strmap_next(const struct strmap *, size_t *i);

#endif
