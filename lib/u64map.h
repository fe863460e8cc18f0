/* SPDX-License-Identifier: GPL-2.0 */
/*
 * u64map.h - the hash table for integer keys (addresses, pointers), as
 * strmap.h is for strings: open addressing, linear probing, power-of-two
 * size, at most half full. Key 0 is not a key (it marks an empty slot;
 * neither a traced address nor a pointer is 0).
 */
#ifndef KC_U64MAP_H
#define KC_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map_entry {
	uint64_t	key;	/* 0: empty slot */
	uint64_t	value;
};

struct u64map {
	struct u64map_entry	*slots;
	size_t			 size;	/* power of two, or 0 */
	size_t			 count;
};

void		 u64map_init(struct u64map *);
void		 u64map_free(struct u64map *);
/* The entry of key, or NULL (also for key 0). */
struct u64map_entry *u64map_find(const struct u64map *, uint64_t);
/* The entry of key (not 0), added with value 0 if absent; *added says
 * which (may be NULL). The pointer is valid until the next insertion. */
struct u64map_entry *u64map_insert(struct u64map *, uint64_t, bool *);
/* Iterate: start with *i = 0; NULL once every entry was returned. */
struct u64map_entry *u64map_next(const struct u64map *, size_t *);

#endif
