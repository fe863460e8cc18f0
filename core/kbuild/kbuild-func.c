/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-func.c - the functions of the make evaluator: addprefix
 * addsuffix basename dir filter filter-out findstring firstword foreach
 * if lastword notdir patsubst sort strip subst wildcard, each on words
 * with their conds (see kbuild-expand.c).
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild-int.h"

/* Whether word w matches make pattern pat; the stem in *stem, *slen. */
static bool
pat_match(const char *pat, const char *w, const char **stem, size_t *slen)
{
	const char	*pc = strchr(pat, '%');
	size_t		 pre, suf, wl = strlen(w);

	if (pc == NULL) {
		*stem = w;
		*slen = 0;
		return strcmp(pat, w) == 0;
	}
	pre = (size_t)(pc - pat);
	suf = strlen(pc + 1);
	if (wl < pre + suf || strncmp(w, pat, pre) != 0 ||
	    strcmp(w + wl - suf, pc + 1) != 0)
		return false;
	*stem = w + pre;
	*slen = wl - pre - suf;
	return true;
}

/* The replacement rep with its first '%' made the stem. */
static char *
pat_apply(struct arena *a, const char *rep, const char *stem, size_t slen)
{
	const char	*pc = strchr(rep, '%');
	size_t		 rl = strlen(rep), pre;
	char		*r;

	if (pc == NULL)
		return arena_strdup(a, rep);
	pre = (size_t)(pc - rep);
	r = arena_alloc(a, rl + slen);
	memcpy(r, rep, pre);
	memcpy(r + pre, stem, slen);
	memcpy(r + pre + slen, pc + 1, rl - pre - 1);
	return r;
}

/* patsubst of every word of in into out; from "m" to y ends "could be m". */
void
kb_patsubst(struct parse *p, const char *pat, const char *rep,
    const struct cwv *in, struct cwv *out)
{
	const char	*stem;
	size_t		 i, slen;
	struct cw	 like;

	for (i = 0; i < in->n; i++) {
		like = in->v[i];
		if (like.cfg && strcmp(pat, "m") == 0)
			like.cfg = 0;
		if (pat_match(pat, in->v[i].s, &stem, &slen))
			kb_emit_split(p, out, pat_apply(&p->a, rep, stem, slen),
			    &like);
		else
			kb_emit(p, out, like.s, strlen(like.s), &like);
	}
}

/* $(subst from,to,text) */
static void
fn_subst(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3], *hit, *q;
	size_t		 al[3], i, fl;
	struct scal	 from, to;
	struct cwv	 t = { 0 };
	struct strbuf	 b;
	struct cw	 like;

	if (kb_split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	kb_scalar(p, a[0], al[0], &from);
	kb_scalar(p, a[1], al[1], &to);
	kb_expand(p, a[2], al[2], &t);
	fl = strlen(from.s);
	strbuf_init(&b);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (like.cfg && strcmp(from.s, "m") == 0)
			like.cfg = 0;
		if (fl == 0 || strstr(like.s, from.s) == NULL) {
			kb_emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		strbuf_reset(&b);
		for (q = like.s; (hit = strstr(q, from.s)) != NULL;
		    q = hit + fl) {
			strbuf_add(&b, q, (size_t)(hit - q));
			strbuf_adds(&b, to.s);
		}
		strbuf_adds(&b, q);
		like.conds = kb_conds_cat(&p->a, like.conds, like.nconds,
		    to.conds, to.nconds, &like.nconds, &like.unk);
		like.unk |= to.unk;
		like.cfg = like.cfg ? strcmp(from.s, "m") != 0 : to.cfg;
		kb_emit_split(p, out, b.s, &like);
	}
	strbuf_free(&b);
}

/* $(patsubst pattern,replacement,text) */
static void
fn_patsubst(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3];
	size_t		 al[3];
	struct scal	 pat, rep;
	struct cwv	 t = { 0 };

	if (kb_split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	kb_scalar(p, a[0], al[0], &pat);
	kb_scalar(p, a[1], al[1], &rep);
	kb_expand(p, a[2], al[2], &t);
	kb_patsubst(p, pat.s, rep.s, &t, out);
}

/* $(addprefix p,names) and $(addsuffix s,names) */
static void
fn_addfix(struct parse *p, const char *s, size_t len, struct cwv *out,
    bool prefix)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct scal	 fix;
	struct cwv	 t = { 0 };
	struct cw	 like;
	char		*w;

	if (kb_split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	kb_scalar(p, a[0], al[0], &fix);
	kb_expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		like.conds = kb_conds_cat(&p->a, fix.conds, fix.nconds,
		    like.conds, like.nconds, &like.nconds, &like.unk);
		like.unk |= fix.unk;
		like.cfg = 0;
		w = arena_alloc(&p->a, strlen(fix.s) + strlen(like.s) + 1);
		strcpy(w, prefix ? fix.s : like.s);
		strcat(w, prefix ? like.s : fix.s);
		kb_emit_split(p, out, w, &like);
	}
}

/* $(addprefix prefix,names) */
static void
fn_addprefix(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_addfix(p, s, len, out, true);
}

/* $(addsuffix suffix,names) */
static void
fn_addsuffix(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_addfix(p, s, len, out, false);
}

/* $(strip text) */
static void
fn_strip(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	kb_expand(p, s, len, out);
}

/* Order words by text. */
static int
cw_cmp(const void *x, const void *y)
{
	return strcmp(((const struct cw *)x)->s, ((const struct cw *)y)->s);
}

/* $(sort list): sorted, duplicates removed. */
static void
fn_sort(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };
	size_t		i;

	kb_expand(p, s, len, &t);
	if (t.n > 1)
		qsort(t.v, t.n, sizeof *t.v, cw_cmp);
	for (i = 0; i < t.n; i++) {
		if (i == 0 || strcmp(t.v[i].s, t.v[i - 1].s) != 0)
			kb_emit(p, out, t.v[i].s, strlen(t.v[i].s), &t.v[i]);
	}
}

/* $(notdir), $(dir), $(basename) of each word (how: 'n', 'd', 'b'). */
static void
fn_pathpart(struct parse *p, const char *s, size_t len, struct cwv *out,
    int how)
{
	struct cwv	 t = { 0 };
	const char	*w, *sl, *dot;
	size_t		 i;

	kb_expand(p, s, len, &t);
	for (i = 0; i < t.n; i++) {
		w = t.v[i].s;
		sl = strrchr(w, '/');
		if (how == 'n')
			kb_emit(p, out, sl ? sl + 1 : w,
			    strlen(sl ? sl + 1 : w), &t.v[i]);
		else if (how == 'd') {
			if (sl != NULL)
				kb_emit(p, out, w, (size_t)(sl - w) + 1,
				    &t.v[i]);
			else
				kb_emit(p, out, "./", 2, &t.v[i]);
		} else {
			dot = strrchr(w, '.');
			if (dot != NULL && (sl == NULL || dot > sl))
				kb_emit(p, out, w, (size_t)(dot - w), &t.v[i]);
			else
				kb_emit(p, out, w, strlen(w), &t.v[i]);
		}
	}
}

/* $(notdir names) */
static void
fn_notdir(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'n');
}

/* $(dir names) */
static void
fn_dir(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'd');
}

/* $(basename names) */
static void
fn_basename(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_pathpart(p, s, len, out, 'b');
}

/* $(firstword names) */
static void
fn_firstword(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };

	kb_expand(p, s, len, &t);
	if (t.n > 0)
		kb_emit(p, out, t.v[0].s, strlen(t.v[0].s), &t.v[0]);
}

/* $(lastword names) */
static void
fn_lastword(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	t = { 0 };

	kb_expand(p, s, len, &t);
	if (t.n > 0)
		kb_emit(p, out, t.v[t.n - 1].s, strlen(t.v[t.n - 1].s),
		    &t.v[t.n - 1]);
}

/*
 * $(if cond,then,else): definite conditions choose; one conditional word
 * gives its conds to the then-words, and the else-words become unknown.
 */
static void
fn_if(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3], **cc = NULL;
	size_t		 al[3], i;
	struct cwv	 c = { 0 }, t = { 0 }, e = { 0 };
	bool		 saved = p->broken, savedo = p->opaque, cbroken;
	bool		 definite = true;
	int		 n, nc = 0;
	unsigned char	 tunk = 0, eunk = 1;
	struct cw	 like;

	if ((n = kb_split_args(s, len, 3, a, al)) < 2) {
		p->broken = true;
		return;
	}
	p->broken = p->opaque = false;
	kb_expand(p, a[0], al[0], &c);
	cbroken = p->broken || p->opaque;
	p->broken |= saved;
	p->opaque |= savedo;
	for (i = 0; i < c.n; i++) {
		if (c.v[i].nconds || c.v[i].unk || c.v[i].cfg)
			definite = false;
	}
	if (!cbroken && c.n == 0) {
		if (n == 3)
			kb_expand(p, a[2], al[2], out);
		return;
	}
	if (!cbroken && definite) {
		kb_expand(p, a[1], al[1], out);
		return;
	}
	if (!cbroken && c.n == 1) {
		cc = c.v[0].conds;
		nc = c.v[0].nconds;
		tunk = c.v[0].unk;
	} else
		tunk = 1;
	kb_expand(p, a[1], al[1], &t);
	if (n == 3)
		kb_expand(p, a[2], al[2], &e);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		like.conds = kb_conds_cat(&p->a, cc, nc, like.conds,
		    like.nconds, &like.nconds, &like.unk);
		like.unk |= tunk;
		kb_emit(p, out, like.s, strlen(like.s), &like);
	}
	for (i = 0; i < e.n; i++) {
		like = e.v[i];
		like.unk |= eunk;
		kb_emit(p, out, like.s, strlen(like.s), &like);
	}
}

/* Whether w matches one of the words of pats. */
static bool
pats_match(const struct cwv *pats, const char *w)
{
	const char	*stem;
	size_t		 i, slen;

	for (i = 0; i < pats->n; i++) {
		if (pat_match(pats->v[i].s, w, &stem, &slen))
			return true;
	}
	return false;
}

/*
 * $(filter pats,text) and $(filter-out ...): a $(CONFIG_X) word is
 * matched as both of its values, y and m.
 */
static void
fn_filters(struct parse *p, const char *s, size_t len, struct cwv *out,
    bool keep)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct cwv	 pats = { 0 }, t = { 0 };
	struct cw	 like;
	bool		 y, m;

	if (kb_split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	kb_expand(p, a[0], al[0], &pats);
	kb_expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (!like.cfg) {
			if (pats_match(&pats, like.s) == keep)
				kb_emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		y = pats_match(&pats, "y");
		m = pats_match(&pats, "m");
		if (!keep) {
			if (!(y && m))
				kb_emit(p, out, like.s, strlen(like.s), &like);
			continue;
		}
		like.cfg = y && m;
		if (y)
			kb_emit(p, out, "y", 1, &like);
		else if (m)
			kb_emit(p, out, "m", 1, &like);
	}
}

/* $(filter pattern...,text) */
static void
fn_filter(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_filters(p, s, len, out, true);
}

/* $(filter-out pattern...,text) */
static void
fn_filter_out(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	fn_filters(p, s, len, out, false);
}

/* $(findstring find,in): find, with the conds of the first word having it. */
static void
fn_findstring(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[2];
	size_t		 al[2], i;
	struct scal	 f;
	struct cwv	 t = { 0 };
	struct cw	 like;

	if (kb_split_args(s, len, 2, a, al) < 2) {
		p->broken = true;
		return;
	}
	kb_scalar(p, a[0], al[0], &f);
	kb_expand(p, a[1], al[1], &t);
	for (i = 0; i < t.n; i++) {
		like = t.v[i];
		if (like.cfg ? strcmp(f.s, "y") == 0 || strcmp(f.s, "m") == 0 :
		    strstr(like.s, f.s) != NULL) {
			like.cfg = 0;
			kb_emit(p, out, f.s, strlen(f.s), &like);
			return;
		}
	}
}

/* $(foreach var,list,text) */
static void
fn_foreach(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	const char	*a[3];
	size_t		 al[3], i;
	struct scal	 name;
	struct cwv	 list = { 0 };
	struct var	*v, saved;

	if (kb_split_args(s, len, 3, a, al) < 3) {
		p->broken = true;
		return;
	}
	kb_scalar(p, a[0], al[0], &name);
	kb_expand(p, a[1], al[1], &list);
	if (name.s[0] == '\0')
		return;
	v = kb_var_local(p, name.s, strlen(name.s));
	saved = *v;
	v->fixed = v->opaque = v->broken = false;
	for (i = 0; i < list.n && p->budget > 0; i++) {
		v->val.v = &list.v[i];
		v->val.n = v->val.cap = 1;
		kb_expand(p, a[2], al[2], out);
	}
	*v = saved;
}

/* $(wildcard pattern...), relative to the tree top. */
static void
fn_wildcard(struct parse *p, const char *s, size_t len, struct cwv *out)
{
	struct cwv	 t = { 0 };
	glob_t		 g;
	size_t		 i, j, tl;
	char		*pat, *rel;

	if (p->kb->srctree == NULL) {
		p->broken = true;
		return;
	}
	tl = strlen(p->kb->srctree);
	kb_expand(p, s, len, &t);
	for (i = 0; i < t.n; i++) {
		rel = kb_path_norm(&p->a, p->kb, t.v[i].s, strlen(t.v[i].s));
		if (rel == NULL || rel[0] == '\0')
			continue;
		pat = xasprintf("%s/%s", p->kb->srctree, rel);
		if (glob(pat, GLOB_NOSORT, NULL, &g) == 0) {
			kbdeps_glob(p->kb->rec, rel, g.gl_pathv, g.gl_pathc);
			for (j = 0; j < g.gl_pathc; j++) {
				if (strlen(g.gl_pathv[j]) > tl + 1)
					kb_emit(p, out, g.gl_pathv[j] + tl + 1,
					    strlen(g.gl_pathv[j] + tl + 1),
					    &t.v[i]);
			}
			globfree(&g);
		} else
			kbdeps_glob(p->kb->rec, rel, NULL, 0);
		free(pat);
	}
}

static const struct kb_func kb_funcs[] = {
	{ "addprefix", fn_addprefix },
	{ "addsuffix", fn_addsuffix },
	{ "basename", fn_basename },
	{ "dir", fn_dir },
	{ "filter", fn_filter },
	{ "filter-out", fn_filter_out },
	{ "findstring", fn_findstring },
	{ "firstword", fn_firstword },
	{ "foreach", fn_foreach },
	{ "if", fn_if },
	{ "lastword", fn_lastword },
	{ "notdir", fn_notdir },
	{ "patsubst", fn_patsubst },
	{ "sort", fn_sort },
	{ "strip", fn_strip },
	{ "subst", fn_subst },
	{ "wildcard", fn_wildcard },
};

/* The function $(name ...) of name[0..len), or NULL for one we don't
 * evaluate ($(call), $(shell), $(eval), ...). */
const struct kb_func *
kb_func_find(const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < sizeof kb_funcs / sizeof kb_funcs[0]; i++) {
		if (strlen(kb_funcs[i].name) == len &&
		    memcmp(kb_funcs[i].name, name, len) == 0)
			return &kb_funcs[i];
	}
	return NULL;
}
