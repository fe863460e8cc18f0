/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strmap.c - the string-keyed hash table (see strmap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

/* Start an empty map; the first insertion allocates. */
void
strmap_init(struct strmap *m)
{
	m->slots = NULL;
	m->size = 0;
	m->count = 0;
}

/* Free the slots (never the keys or values: the map borrows them). */
void
strmap_free(struct strmap *m)
{
	free(m->slots);
	strmap_init(m);
}

/* The slot of key (s, n) with hash h: its own if present, else the empty
 * slot where it would go. The table is never full (load <= 1/2). */
static struct strmap_entry *
strmap_probe(const struct strmap *m, const char *s, size_t n, uint32_t h)
{
	size_t			 mask = m->size - 1, i = h & mask;
	struct strmap_entry	*e;

	for (;; i = (i + 1) & mask) {
		e = &m->slots[i];
		if (e->key == NULL)
			return e;
		if (e->hash == h && e->len == n && memcmp(e->key, s, n) == 0)
			return e;
	}
}

/* Rehash into a table of size slots (a power of two above 2 * count). */
static void
strmap_resize(struct strmap *m, size_t size)
{
	struct strmap_entry	*old = m->slots, *e;
	size_t			 oldsize = m->size, i;

	m->slots = xcalloc(size, sizeof *m->slots);
	m->size = size;
	for (i = 0; i < oldsize; i++) {
		if (old[i].key == NULL)
			continue;
		e = strmap_probe(m, old[i].key, old[i].len, old[i].hash);
		*e = old[i];
	}
	free(old);
}

/* Make room for n keys in all without growing while they go in. */
void
strmap_reserve(struct strmap *m, size_t n)
{
	size_t size = 16;

	while (size < 2 * n + 2)
		size *= 2;
	if (size > m->size)
		strmap_resize(m, size);
}

/* The entry of key (s, n), or NULL. */
struct strmap_entry *
strmap_find(const struct strmap *m, const char *s, size_t n)
{
	struct strmap_entry *e;

	if (m->count == 0)
		return NULL;
	e = strmap_probe(m, s, n, hash_str(s, n));
	return e->key != NULL ? e : NULL;
}

/* The value of key (s, n), or NULL. */
void *
strmap_get(const struct strmap *m, const char *s, size_t n)
{
	struct strmap_entry *e = strmap_find(m, s, n);

	return e != NULL ? e->value : NULL;
}

/* Find or add key (s, n); the key pointer is kept, not copied. */
struct strmap_entry *
strmap_insert(struct strmap *m, const char *s, size_t n, bool *added)
{
	uint32_t		 h = hash_str(s, n);
	struct strmap_entry	*e;

	if (2 * (m->count + 1) > m->size)
		strmap_resize(m, m->size ? 2 * m->size : 16);
	e = strmap_probe(m, s, n, h);
	if (added != NULL)
		*added = e->key == NULL;
	if (e->key == NULL) {
		e->key = s;
		e->len = (uint32_t)n;
		e->hash = h;
		e->value = NULL;
		m->count++;
	}
	return e;
}

/* Set key (s, n) to value. */
void
strmap_set(struct strmap *m, const char *s, size_t n, void *value)
{
	strmap_insert(m, s, n, NULL)->value = value;
}

/* The next occupied entry from slot *i on, or NULL at the end. */
struct strmap_entry *
strmap_next(const struct strmap *m, size_t *i)
{
	for (; *i < m->size; (*i)++) {
		if (m->slots[*i].key != NULL)
			return &m->slots[(*i)++];
	}
	return NULL;
}
