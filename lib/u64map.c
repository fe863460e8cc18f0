/* SPDX-License-Identifier: GPL-2.0 */
/*
 * u64map.c - integer-keyed open addressing (see u64map.h). The slot is
 * the key's Fibonacci hash (its high bits, so that aligned addresses and
 * pointers, whose low bits are all zero, still spread).
 */
#include <stdlib.h>
#include <string.h>

#include "u64map.h"
#include "util.h"

/* An empty map; it allocates on the first insertion. */
void
u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof *m);
}

/* Free the slots (entries hold no pointers the map owns). */
void
u64map_free(struct u64map *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* The first slot to look at for key in a table of size slots. */
static size_t
u64map_slot(uint64_t key, size_t size)
{
	key ^= key >> 29;
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (size - 1);
}

/* The slot of key, or of the empty slot where it would go. */
static size_t
u64map_probe(const struct u64map *m, uint64_t key)
{
	size_t	h = u64map_slot(key, m->size);

	while (m->slots[h].key != 0 && m->slots[h].key != key)
		h = (h + 1) & (m->size - 1);
	return h;
}

struct u64map_entry *
u64map_find(const struct u64map *m, uint64_t key)
{
	size_t	h;

	if (key == 0 || m->size == 0)
		return NULL;
	h = u64map_probe(m, key);
	return m->slots[h].key == key ? &m->slots[h] : NULL;
}

/* Double the table (or make its first): every entry re-placed. */
static void
u64map_grow(struct u64map *m)
{
	struct u64map_entry	*old = m->slots;
	size_t			 oldsize = m->size, i, h;

	m->size = oldsize ? oldsize * 2 : 1024;
	/* calloc refuses a size that overflows: out of memory, said. */
	m->slots = xcalloc(m->size, sizeof *m->slots);
	for (i = 0; i < oldsize; i++) {
		if (old[i].key == 0)
			continue;
		h = u64map_probe(m, old[i].key);
		m->slots[h] = old[i];
	}
	free(old);
}

struct u64map_entry *
u64map_insert(struct u64map *m, uint64_t key, bool *added)
{
	size_t	h;

	if (added != NULL)
		*added = false;
	if (key == 0)
		return NULL;
	if ((m->count + 1) * 2 > m->size)
		u64map_grow(m);
	h = u64map_probe(m, key);
	if (m->slots[h].key == 0) {
		m->slots[h].key = key;
		m->slots[h].value = 0;
		m->count++;
		if (added != NULL)
			*added = true;
	}
	return &m->slots[h];
}

struct u64map_entry *
u64map_next(const struct u64map *m, size_t *i)
{
	while (*i < m->size) {
		struct u64map_entry *e = &m->slots[(*i)++];

		if (e->key != 0)
			return e;
	}
	return NULL;
}
