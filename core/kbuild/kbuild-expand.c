/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-expand.c - the values of the make evaluator: words that carry
 * the conds for them to be there (struct cw), variables, and the
 * expansion of references, $(name), $(name:a=b) and $(function args)
 * (the functions are in kbuild-func.c). See kbuild.c for the model.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild-int.h"

/* ------------------------------------------------------------ words */

/* Append a zeroed word to v. */
struct cw *
kb_cwv_add(struct arena *a, struct cwv *v)
{
	struct cw	*nv;
	size_t		 ncap;

	if (v->n == v->cap) {
		ncap = v->cap ? v->cap * 2 : 8;
		nv = arena_alloc(a, ncap * sizeof *nv);
		if (v->n)
			memcpy(nv, v->v, v->n * sizeof *nv);
		v->v = nv;
		v->cap = ncap;
	}
	nv = &v->v[v->n++];
	memset(nv, 0, sizeof *nv);
	return nv;
}

/*
 * Conds x followed by y; a symbol of y already in x moves to the end. At
 * most KB_MAX_CONDS are kept, the innermost; dropping some sets *unk.
 */
const char **
kb_conds_cat(struct arena *a, const char **x, int nx, const char **y, int ny,
    int *n, unsigned char *unk)
{
	const char	**v;
	int		  i, j, k, m;

	if (ny == 0) {
		*n = nx;
		return x;
	}
	if (nx == 0) {
		*n = ny;
		return y;
	}
	v = arena_alloc(a, (size_t)(nx + ny) * sizeof *v);
	memcpy(v, x, (size_t)nx * sizeof *v);
	m = nx;
	for (j = 0; j < ny; j++) {
		for (i = 0; i < m; i++) {
			if (v[i] == y[j])
				break;
		}
		if (i < m) {
			for (k = i; k + 1 < m; k++)
				v[k] = v[k + 1];
			m--;
		}
		v[m++] = y[j];
	}
	if (m > KB_MAX_CONDS) {
		v += m - KB_MAX_CONDS;
		m = KB_MAX_CONDS;
		*unk = 1;
	}
	*n = m;
	return v;
}

/* Whether s[0..len) is a symbol name (CONFIG_ stripped). */
static bool
sym_name(const char *s, size_t len)
{
	size_t	i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	}
	return true;
}

/* Whether s[0..len) ends with suffix. */
bool
kb_ends_with(const char *s, size_t len, const char *suffix)
{
	size_t	n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Index just past the reference at s[i] ("$(" or "${"), or SIZE_MAX. */
size_t
kb_ref_end(const char *s, size_t i, size_t len)
{
	char	open = s[i + 1], close = open == '(' ? ')' : '}';
	size_t	j;
	int	depth = 0;

	for (j = i + 1; j < len; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && --depth == 0)
			return j + 1;
	}
	return SIZE_MAX;
}

/* Whether s[i] starts a "$(" or "${" reference. */
bool
kb_is_ref(const char *s, size_t i, size_t len)
{
	return s[i] == '$' && i + 1 < len && (s[i + 1] == '(' ||
	    s[i + 1] == '{');
}

/* Trim whitespace from both ends of *s, *len. */
void
kb_trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* ------------------------------------------------------------ variables */

/* A variable of this Makefile (created, from the inherited one, if new). */
struct var *
kb_var_local(struct parse *p, const char *name, size_t len)
{
	struct var		*v, *iv;

	if ((v = strmap_get(&p->vars, name, len)) != NULL)
		return v;
	v = arena_alloc(&p->a, sizeof *v);
	v->name = arena_strndup(&p->a, name, len);
	if (p->inherit != NULL &&
	    (iv = strmap_get(p->inherit, name, len)) != NULL) {
		v->val.n = v->val.cap = iv->val.n;
		v->val.v = arena_alloc(&p->a, (iv->val.n + 1) *
		    sizeof *v->val.v);
		if (iv->val.n > 0)
			memcpy(v->val.v, iv->val.v, iv->val.n *
			    sizeof *v->val.v);
		v->exported = iv->exported;
		v->fixed = iv->fixed;
		v->opaque = iv->opaque;
		v->broken = iv->broken;
	}
	strmap_set(&p->vars, v->name, len, v);
	return v;
}

/* A variable of this Makefile or inherited, or NULL. */
static const struct var *
var_find(const struct parse *p, const char *name, size_t len)
{
	const struct var	*v;

	if ((v = strmap_get(&p->vars, name, len)) != NULL)
		return v;
	return p->inherit != NULL ? strmap_get(p->inherit, name, len) : NULL;
}

/* Set a fixed variable to one word (or to nothing, or to unknown). */
void
kb_var_fix(struct parse *p, const char *name, const char *value, bool opaque)
{
	struct var	*v = kb_var_local(p, name, strlen(name));
	struct cw	*w;

	v->val.n = 0;
	v->val.cap = 0;
	v->val.v = NULL;
	if (value != NULL && value[0] != '\0') {
		w = kb_cwv_add(&p->a, &v->val);
		w->s = value;
	}
	v->fixed = true;
	v->opaque = opaque;
}

/*
 * Append the words of variable name to out: $(CONFIG_X) is "y" with conds
 * [X]; name-y, name-m and name-objs read the words of that kind of the
 * variable "name-". Undefined is empty; unknown marks the line broken.
 */
void
kb_var_words(struct parse *p, const char *name, size_t len, struct cwv *out)
{
	const struct var	*v;
	const char		*sym;
	struct cw		*w;
	size_t			 i, klen = 0;
	int			 want = 0;	/* 1 -y, 2 -m, 3 -objs */

	if (len > 7 && memcmp(name, "CONFIG_", 7) == 0 &&
	    sym_name(name + 7, len - 7)) {
		sym = intern_str(&p->kb->in, name + 7, len - 7);
		w = kb_cwv_add(&p->a, out);
		w->s = "y";
		w->cfg = 1;
		w->conds = arena_alloc(&p->a, sizeof *w->conds);
		w->conds[0] = sym;
		w->nconds = 1;
		return;
	}
	if (kb_ends_with(name, len, "-y")) {
		want = 1;
		klen = len - 1;
	} else if (kb_ends_with(name, len, "-m")) {
		want = 2;
		klen = len - 1;
	} else if (kb_ends_with(name, len, "-objs")) {
		want = 3;
		klen = len - 4;
	}
	v = want ? var_find(p, name, klen) : NULL;
	if (v == NULL) {
		v = var_find(p, name, len);
		want = 0;
	}
	if (v == NULL)
		return;
	if (v->opaque)
		p->opaque = true;
	if (v->broken)
		p->broken = true;
	for (i = 0; i < v->val.n; i++) {
		const struct cw	*x = &v->val.v[i];

		if (want == 1 && x->kind != K_Y && x->kind != K_MAYBE)
			continue;
		if (want == 2 && x->kind != K_M && x->kind != K_MAYBE)
			continue;
		if (want == 3 && x->kind != K_OBJS)
			continue;
		if (out->n >= KB_MAX_WORDS) {
			p->broken = true;
			return;
		}
		w = kb_cwv_add(&p->a, out);
		*w = *x;
		w->kind = 0;
	}
}

/* ------------------------------------------------------------ expansion */

/* Append a copy of s[0..len) to out with the attributes of like. */
void
kb_emit(struct parse *p, struct cwv *out, const char *s, size_t len,
    const struct cw *like)
{
	struct cw	*w;

	if (len == 0)
		return;
	if (out->n >= KB_MAX_WORDS || --p->budget < 0) {
		p->broken = true;
		return;
	}
	w = kb_cwv_add(&p->a, out);
	if (like != NULL)
		*w = *like;
	w->kind = 0;
	w->s = arena_strndup(&p->a, s, len);
}

/* Append the whitespace-separated words of s as kb_emit() does. */
void
kb_emit_split(struct parse *p, struct cwv *out, const char *s,
    const struct cw *like)
{
	size_t	i = 0, j;

	while (s[i] != '\0') {
		while (isspace((unsigned char)s[i]))
			i++;
		for (j = i; s[j] != '\0' && !isspace((unsigned char)s[j]); j++)
			;
		kb_emit(p, out, s + i, j - i, like);
		i = j;
	}
}

/* Expand s into one scalar. */
void
kb_scalar(struct parse *p, const char *s, size_t len, struct scal *sc)
{
	struct cwv	 v = { 0 };
	struct strbuf	 b;
	size_t		 i;

	memset(sc, 0, sizeof *sc);
	kb_expand(p, s, len, &v);
	strbuf_init(&b);
	for (i = 0; i < v.n; i++) {
		if (i > 0)
			strbuf_addc(&b, ' ');
		strbuf_adds(&b, v.v[i].s);
		sc->conds = kb_conds_cat(&p->a, sc->conds, sc->nconds,
		    v.v[i].conds, v.v[i].nconds, &sc->nconds, &sc->unk);
		sc->unk |= v.v[i].unk;
		sc->cfg |= v.v[i].cfg;
	}
	sc->s = arena_strndup(&p->a, b.s ? b.s : "", b.len);
	strbuf_free(&b);
}

/* Split s at commas outside parentheses into at most max arguments. */
int
kb_split_args(const char *s, size_t len, int max, const char **a, size_t *al)
{
	size_t	i, e, start = 0;
	int	n = 0, depth = 0;

	for (i = 0; i < len; i++) {
		if (kb_is_ref(s, i, len)) {
			if ((e = kb_ref_end(s, i, len)) == SIZE_MAX)
				break;
			i = e - 1;
		} else if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth > 0)
			depth--;
		else if (s[i] == ',' && depth == 0 && n < max - 1) {
			a[n] = s + start;
			al[n++] = i - start;
			start = i + 1;
		}
	}
	a[n] = s + start;
	al[n] = len - start;
	return n + 1;
}

/* A variable reference $(name) or $(name:from=to), inner text s. */
static void
eval_var(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 names = { 0 }, val;
	struct scal	 from, to;
	size_t		 i, j, e, colon = SIZE_MAX, eq = SIZE_MAX;
	char		*pat, *rep;
	struct cw	*w;

	for (i = 0; i < len; i++) {
		if (kb_is_ref(s, i, len)) {
			if ((e = kb_ref_end(s, i, len)) == SIZE_MAX)
				break;
			i = e - 1;
		} else if (s[i] == ':' && colon == SIZE_MAX)
			colon = i;
		else if (s[i] == '=' && colon != SIZE_MAX) {
			eq = i;
			break;
		}
	}
	if (eq == SIZE_MAX)
		colon = SIZE_MAX;
	kb_expand(p, s, colon == SIZE_MAX ? len : colon, &names);
	for (i = 0; i < names.n; i++) {
		memset(&val, 0, sizeof val);
		kb_var_words(p, names.v[i].s, strlen(names.v[i].s), &val);
		for (j = 0; j < val.n; j++) {
			w = &val.v[j];
			w->conds = kb_conds_cat(&p->a, names.v[i].conds,
			    names.v[i].nconds, w->conds, w->nconds,
			    &w->nconds, &w->unk);
			w->unk |= names.v[i].unk;
		}
		if (colon == SIZE_MAX) {
			for (j = 0; j < val.n; j++)
				kb_emit(p, out, val.v[j].s, strlen(val.v[j].s),
				    &val.v[j]);
			continue;
		}
		kb_scalar(p, s + colon + 1, eq - colon - 1, &from);
		kb_scalar(p, s + eq + 1, len - eq - 1, &to);
		if (strchr(from.s, '%') != NULL) {
			pat = (char *)from.s;
			rep = (char *)to.s;
		} else {
			pat = arena_alloc(&p->a, strlen(from.s) + 2);
			rep = arena_alloc(&p->a, strlen(to.s) + 2);
			pat[0] = rep[0] = '%';
			strcpy(pat + 1, from.s);
			strcpy(rep + 1, to.s);
		}
		if (strcmp(from.s, "m") == 0) {
			for (j = 0; j < val.n; j++)
				val.v[j].cfg = 0;
		}
		kb_patsubst(p, pat, rep, &val, out);
	}
}

/* The value of one reference (the text inside "$(" ")"). */
static void
eval_ref(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const struct kb_func	*fn;
	size_t			 k;

	if (--p->budget < 0 || p->depth >= KB_MAX_DEPTH) {
		p->broken = true;
		return;
	}
	p->depth++;
	for (k = 0; k < len && (islower((unsigned char)s[k]) || s[k] == '-');
	    k++)
		;
	if (k > 0 && k < len && (s[k] == ' ' || s[k] == '\t')) {
		if ((fn = kb_func_find(s, k)) != NULL)
			fn->fn(p, s + k + 1, len - k - 1, out);
		else
			p->broken = true;	/* call, shell, eval, ... */
	} else
		eval_var(p, s, len, out);
	p->depth--;
}

/* Append text to every word of cur. */
static void
cat_literal(struct parse *p, struct cwv *cur, const char *s, size_t len)
{
	size_t	i, l;
	char	*t;

	for (i = 0; i < cur->n; i++) {
		l = strlen(cur->v[i].s);
		t = arena_alloc(&p->a, l + len + 1);
		memcpy(t, cur->v[i].s, l);
		memcpy(t + l, s, len);
		cur->v[i].s = t;
	}
}

/*
 * Expand one word (no whitespace outside references): a reference with
 * several words gives one word per value, the rest of the word around
 * each ("foo_$(BITS).o" -> foo_32.o foo_64.o).
 */
static void
expand_word(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 cur = { 0 }, next, r;
	struct cw	*w;
	size_t		 i = 0, j, x, y, la;

	w = kb_cwv_add(&p->a, &cur);
	w->s = "";
	while (i < len) {
		if (s[i] != '$') {
			for (j = i; j < len && s[j] != '$'; j++)
				;
			cat_literal(p, &cur, s + i, j - i);
			i = j;
			continue;
		}
		if (i + 1 == len) {
			cat_literal(p, &cur, "$", 1);
			break;
		}
		if (s[i + 1] == '$') {
			cat_literal(p, &cur, "$", 1);
			i += 2;
			continue;
		}
		memset(&r, 0, sizeof r);
		if (s[i + 1] == '(' || s[i + 1] == '{') {
			if ((j = kb_ref_end(s, i, len)) == SIZE_MAX) {
				p->broken = true;
				break;
			}
			eval_ref(p, s + i + 2, j - i - 3, &r);
		} else {
			j = i + 2;
			eval_ref(p, s + i + 1, 1, &r);
		}
		i = j;
		if (r.n == 0)
			continue;
		memset(&next, 0, sizeof next);
		for (x = 0; x < cur.n; x++) {
			for (y = 0; y < r.n; y++) {
				if (next.n >= KB_MAX_WORDS || --p->budget < 0) {
					p->broken = true;
					break;
				}
				w = kb_cwv_add(&p->a, &next);
				*w = cur.v[x];
				w->conds = kb_conds_cat(&p->a, cur.v[x].conds,
				    cur.v[x].nconds, r.v[y].conds,
				    r.v[y].nconds, &w->nconds, &w->unk);
				w->unk |= r.v[y].unk;
				w->cfg |= r.v[y].cfg;
				la = strlen(cur.v[x].s);
				w->s = arena_alloc(&p->a, la +
				    strlen(r.v[y].s) + 1);
				memcpy((char *)w->s, cur.v[x].s, la);
				strcpy((char *)w->s + la, r.v[y].s);
			}
		}
		cur = next;
	}
	for (x = 0; x < cur.n; x++)
		kb_emit(p, out, cur.v[x].s, strlen(cur.v[x].s), &cur.v[x]);
}

/* Expand s into its words, appended to out. */
void
kb_expand(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	size_t	i = 0, j, e;

	if (--p->budget < 0) {
		p->broken = true;
		return;
	}
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i == len)
			break;
		for (j = i; j < len && !isspace((unsigned char)s[j]); ) {
			if (kb_is_ref(s, j, len)) {
				e = kb_ref_end(s, j, len);
				j = e == SIZE_MAX ? len : e;
			} else if (s[j] == '$' && j + 1 < len)
				j += 2;
			else
				j++;
		}
		expand_word(p, s + i, j - i, out);
		i = j;
	}
}
