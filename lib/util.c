/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.c - allocation, string buffers, arenas, interning and hashing.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/*
 * GCC 12 with -fsanitize=undefined reports "null format string" on the
 * vsnprintf(NULL, 0, ...) size probes below (a false positive of its
 * instrumentation); the sanitizer builds use -Werror too, so silence it.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* Abort on allocation failure; the callers have no way to unwind. */
static void
oom(void)
{
	fputs("kctui: out of memory\n", stderr);
	abort();
}

/* Allocate size bytes or die. */
void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

/* Allocate a zeroed array or die. */
void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

/* Resize or die. */
void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		oom();
	return p;
}

/* Room for need elements (see util.h): cap doubles from first. */
void *
xgrow(void *p, size_t *cap, size_t need, size_t first, size_t size)
{
	size_t	c = *cap;

	if (need <= c)
		return p;
	if (c == 0)
		c = first > 0 ? first : 1;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	if (size != 0 && c > SIZE_MAX / size)
		oom();
	p = xrealloc(p, c * size);
	*cap = c;
	return p;
}

/* Duplicate a string or die. */
char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* Duplicate at most n bytes of a string or die. */
char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* printf into a new allocation. */
char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 aq;
	int	 n;
	char	*p;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom();
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

/* printf into a new allocation. */
char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

/* Start an empty buffer; no allocation until something is added. */
void
strbuf_init(struct strbuf *sb)
{
	sb->s = NULL;
	sb->len = 0;
	sb->cap = 0;
}

/* Make room for n more bytes plus the terminator. */
static void
strbuf_grow(struct strbuf *sb, size_t n)
{
	size_t need = sb->len + n + 1;

	if (need <= sb->cap)
		return;
	if (sb->cap == 0)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->s = xrealloc(sb->s, sb->cap);
}

/* Append n bytes. */
void
strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

/* Append a C string. */
void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

/* Append one character. */
void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->s[sb->len++] = c;
	sb->s[sb->len] = '\0';
}

/* Append formatted text. */
void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list	ap, aq;
	int	n;

	va_start(ap, fmt);
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom();
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	va_end(ap);
}

/* Empty the buffer but keep its storage. */
void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->s != NULL)
		sb->s[0] = '\0';
}

/* Hand the string to the caller (never NULL) and empty the buffer. */
char *
strbuf_detach(struct strbuf *sb)
{
	char *s = sb->s;

	if (s == NULL)
		s = xstrdup("");
	strbuf_init(sb);
	return s;
}

/* Release the buffer. */
void
strbuf_free(struct strbuf *sb)
{
	free(sb->s);
	strbuf_init(sb);
}

struct arena_chunk {
	struct arena_chunk	*next;
	size_t			 pad;	/* keeps data 16-aligned */
	unsigned char		 data[];
};

#define ARENA_CHUNK	(256 * 1024)

/* Start an empty arena. */
void
arena_init(struct arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->cap = 0;
}

/* Allocate zeroed, 16-byte aligned memory that lives as long as the arena. */
void *
arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk	*c;
	size_t			 cap;
	void			*p;

	size = (size + 15) & ~(size_t)15;
	if (a->head == NULL || a->used + size > a->cap) {
		cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		c = xmalloc(sizeof *c + cap);
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	p = a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

/* Copy n bytes of a string into the arena. */
char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Copy a string into the arena. */
char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* Free every chunk. */
void
arena_free(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	arena_init(a);
}

/* FNV-1a: short keys, good enough spread, no state. */
uint32_t
hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t	 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* FNV-1a, 64 bits, continuing from h: for identities built of several
 * pieces (paths, sizes, times) fed one after another. */
uint64_t
hash_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char	*s = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * A fast checksum of a whole buffer: 64-bit words through a multiply-mix,
 * the tail through FNV-1a. The caches check megabytes with it on every warm
 * start, where a byte-at-a-time hash would cost more than reading them.
 */
uint64_t
hash_buf64(const void *buf, size_t n)
{
	const char	*p = buf;
	uint64_t	 h = 0x9e3779b97f4a7c15ull ^ n, w;
	size_t		 i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	return hash_fnv64(h, p + i, n - i);
}

/* Start an intern table whose strings live in arena a. */
void
intern_init(struct intern *t, struct arena *a)
{
	t->arena = a;
	t->size = 1024;
	t->count = 0;
	t->slots = xcalloc(t->size, sizeof *t->slots);
	t->hashes = xcalloc(t->size, sizeof *t->hashes);
}

/* Double the table when it is half full. */
static void
intern_grow(struct intern *t)
{
	const char	**slots = t->slots;
	uint32_t	 *hashes = t->hashes;
	size_t		  size = t->size, i, j;

	t->size *= 2;
	t->slots = xcalloc(t->size, sizeof *t->slots);
	t->hashes = xcalloc(t->size, sizeof *t->hashes);
	for (i = 0; i < size; i++) {
		if (slots[i] == NULL)
			continue;
		j = hashes[i] & (t->size - 1);
		while (t->slots[j] != NULL)
			j = (j + 1) & (t->size - 1);
		t->slots[j] = slots[i];
		t->hashes[j] = hashes[i];
	}
	free(slots);
	free(hashes);
}

/* Return the unique copy of the n-byte string s. */
const char *
intern_str(struct intern *t, const char *s, size_t n)
{
	uint32_t h = hash_str(s, n);
	size_t	 i;

	if (t->count * 2 >= t->size)
		intern_grow(t);
	i = h & (t->size - 1);
	while (t->slots[i] != NULL) {
		if (t->hashes[i] == h && strncmp(t->slots[i], s, n) == 0 &&
		    t->slots[i][n] == '\0')
			return t->slots[i];
		i = (i + 1) & (t->size - 1);
	}
	t->slots[i] = arena_strndup(t->arena, s, n);
	t->hashes[i] = h;
	t->count++;
	return t->slots[i];
}

/* Free the table (the strings go with the arena). */
void
intern_free(struct intern *t)
{
	free(t->slots);
	free(t->hashes);
	t->slots = NULL;
	t->hashes = NULL;
}

/* A module name made canonical in place ('-' as '_'). */
char *
modname_canon(char *s)
{
	char	*p;

	for (p = s; *p != '\0'; p++)
		*p = modname_char(*p);
	return s;
}

/* The first len bytes of a module name, canonical (malloc'd). */
char *
modname_dup(const char *s, size_t len)
{
	return modname_canon(xstrndup(s, len));
}

/* Whether the first n bytes of two module names are the same name
 * ('-' and '_' alike); a shorter name is not the same. */
bool
modname_eqn(const char *a, const char *b, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (modname_char(a[i]) != modname_char(b[i]))
			return false;
		if (a[i] == '\0')
			return true;
	}
	return true;
}

/* Whether two module names are the same ('-' and '_' alike). */
bool
modname_eq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (modname_char(*a) != modname_char(*b))
			return false;
	return *a == *b;
}

/* The value of NAME in a NULL-terminated environment, or NULL. */
const char *
envp_get(char *const *envp, const char *name)
{
	size_t	n = strlen(name);

	for (; envp != NULL && *envp != NULL; envp++) {
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	}
	return NULL;
}

/* Set or replace NAME in a malloc'd environment array (see util.h). */
char **
envp_set(char **envp, const char *name, const char *value)
{
	size_t	n, len = strlen(name);

	for (n = 0; envp[n] != NULL; n++) {
		if (strncmp(envp[n], name, len) == 0 && envp[n][len] == '=') {
			free(envp[n]);
			envp[n] = xasprintf("%s=%s", name, value);
			return envp;
		}
	}
	envp = xrealloc(envp, (n + 2) * sizeof *envp);
	envp[n] = xasprintf("%s=%s", name, value);
	envp[n + 1] = NULL;
	return envp;
}

/* Free a NULL-terminated array of malloc'd strings. */
void
strv_free(char **v)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}
