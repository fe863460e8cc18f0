/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-make.c - the statements of the make evaluator: lines,
 * assignments (with the conds of their name and of the conditionals
 * around them), include, and conditionals, of which both branches are
 * read (see kbuild.c).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild-int.h"

/* The result of evaluating a conditional. */
struct cres {
	const char	**conds;
	int		  nconds;
	bool		  unk, dead, deftrue;
};

/*
 * Count a line we don't understand (-DKBUILD_DEBUG: print where). In the
 * top Makefile, read only for a few variables, only assignments of those
 * count (always: their caller passes always).
 */
static void
skip_count(struct parse *p, bool always)
{
	if (p->top && !always)
		return;
	p->kb->st.skipped_lines++;
#ifdef KBUILD_DEBUG
	fprintf(stderr, "kbuild: skipped %s:%d\n", p->file ? p->file : "?",
	    p->lineno);
#endif
}

/* Count a line we don't understand. */
static void
skip_line(struct parse *p)
{
	skip_count(p, false);
}

/* The conds, unknown and dead state of the current line. */
static void
line_ctx(struct parse *p, const char ***conds, int *n, bool *unk,
    bool *dead)
{
	unsigned char	u = 0;
	int		i;

	*conds = NULL;
	*n = 0;
	*dead = p->over > 0;
	for (i = 0; i < p->nfr; i++) {
		*conds = kb_conds_cat(&p->a, *conds, *n, p->fr[i].conds,
		    p->fr[i].nconds, n, &u);
		u |= p->fr[i].unk;
		*dead |= p->fr[i].dead;
	}
	*unk = u;
}

/* Whether the key (raw left-hand side) is a flags or build-rule variable. */
static bool
ignored_key(const char *s, size_t len)
{
	static const char *const pfx[] = {
		"ccflags-", "asflags-", "ldflags-", "cflags-", "aflags-",
		"subdir-ccflags-", "subdir-asflags-", "rustflags-",
		"CFLAGS_", "AFLAGS_", "LDFLAGS_", "CPPFLAGS_", "RUSTFLAGS_",
		"KASAN_", "KCSAN_", "KMSAN_", "UBSAN_", "KCOV_", "GCOV_",
		"OBJECT_FILES_", "OBJTOOL_", "cmd_", "quiet_cmd_",
		"always-", "extra-", "targets", "hostprogs", "userprogs",
		"userccflags", "userldflags", "clean-files", "clean-dirs",
		"HOSTCFLAGS", "HOSTLDLIBS", "HOSTLDFLAGS", "HOSTCXXFLAGS",
		"PHONY",
	};
	size_t	i, l;

	for (i = 0; i < sizeof pfx / sizeof pfx[0]; i++) {
		l = strlen(pfx[i]);
		if (len >= l && memcmp(s, pfx[i], l) == 0)
			return true;
	}
	for (i = 0; i + 5 <= len && s[i] != '$'; i++) {	/* CFLAGS-y */
		if (strncasecmp(s + i, "flags", 5) == 0)
			return true;
	}
	return false;
}

/* Remove the words of kind from v (all of them for K_PLAIN). */
static void
var_clear(struct var *v, int kind)
{
	size_t	i, n = 0;

	if (kind == K_PLAIN) {
		v->val.n = 0;
		v->broken = false;
		return;
	}
	for (i = 0; i < v->val.n; i++) {
		if (v->val.v[i].kind != kind)
			v->val.v[n++] = v->val.v[i];
	}
	v->val.n = n;
}

/*
 * A conditional "=" or ":=" of kind: the earlier words it replaces (those
 * of its kind; of obj-y and obj-m for obj-$(CONFIG_X)) are there only
 * when its condition is false, which we can't write: unknown.
 */
static void
var_mark(struct var *v, int kind)
{
	size_t	i;
	int	k;

	for (i = 0; i < v->val.n; i++) {
		k = v->val.v[i].kind;
		if (k == kind || kind == K_PLAIN || (kind == K_MAYBE &&
		    (k == K_Y || k == K_M)))
			v->val.v[i].unk = 1;
	}
}

enum { ASSIGN_NONE, ASSIGN_DONE, ASSIGN_RULE };

/*
 * Find the assignment operator of a line: *op is '=', ':' (:=, ::=,
 * :::=), '+', '?' or '!', the left-hand side is s[0..*llen), the value
 * starts at *rhs. ASSIGN_RULE for a rule line, ASSIGN_NONE for neither.
 */
static int
find_op(const char *s, size_t len, char *op, size_t *llen, const char **rhs)
{
	size_t	i, e, k;

	for (i = 0; i < len; i++) {
		if (kb_is_ref(s, i, len)) {
			if ((e = kb_ref_end(s, i, len)) == SIZE_MAX)
				return ASSIGN_NONE;
			i = e - 1;
			continue;
		}
		if (s[i] == '=') {
			*op = '=';
			*llen = i;
			if (i > 0 && strchr("+?!", s[i - 1]) != NULL) {
				*op = s[i - 1];
				*llen = i - 1;
			}
			*rhs = s + i + 1;
			return ASSIGN_DONE;
		}
		if (s[i] == ':') {
			for (k = i; k < len && k < i + 3 && s[k] == ':'; k++)
				;
			if (k < len && s[k] == '=') {
				*op = ':';
				*llen = i;
				*rhs = s + k + 1;
				return ASSIGN_DONE;
			}
			return ASSIGN_RULE;
		}
	}
	return ASSIGN_NONE;
}

/*
 * An assignment line "lhs op rhs". obj-$(CONFIG_X) expands to obj-y with
 * the word's conds and "could be m": the key is "obj-", the kind K_MAYBE.
 * Returns ASSIGN_RULE for a rule line, ASSIGN_NONE for neither.
 */
static int
do_assign(struct parse *p, const char *s, size_t len, bool exported)
{
	const char	*lhs, *rhs = NULL, *name, **lc, *dash;
	size_t		 i, llen = 0, rlen, nlen, klen, j;
	struct cwv	 alts = { 0 }, val = { 0 };
	struct var	*v;
	struct cw	*w, *x;
	bool		 lunk, dead, relevant, rbroken;
	int		 nlc, kind;
	char		 op = 0;

	switch (find_op(s, len, &op, &llen, &rhs)) {
	case ASSIGN_NONE:
		return ASSIGN_NONE;
	case ASSIGN_RULE:
		return ASSIGN_RULE;
	}
	lhs = s;
	rlen = len - (size_t)(rhs - s);
	kb_trim(&lhs, &llen);
	if (llen == 0 || ignored_key(lhs, llen))
		return ASSIGN_DONE;
	p->broken = p->opaque = false;
	kb_expand(p, lhs, llen, &alts);
	if (p->broken || p->opaque) {
		skip_line(p);
		return ASSIGN_DONE;
	}
	line_ctx(p, &lc, &nlc, &lunk, &dead);
	relevant = false;
	rbroken = false;
	if (op != '!') {
		p->broken = p->opaque = false;
		kb_expand(p, rhs, rlen, &val);
		rbroken = p->broken || p->opaque;
	}
	for (i = 0; i < alts.n; i++) {
		name = alts.v[i].s;
		nlen = strlen(name);
		klen = nlen;
		kind = K_PLAIN;
		if (kb_ends_with(name, nlen, "-y")) {
			kind = alts.v[i].cfg ? K_MAYBE : K_Y;
			klen = nlen - 1;
		} else if (kb_ends_with(name, nlen, "-m")) {
			kind = K_M;
			klen = nlen - 1;
		} else if (kb_ends_with(name, nlen, "-objs")) {
			kind = K_OBJS;
			klen = nlen - 4;
		} else if (kb_ends_with(name, nlen, "-") ||
		    kb_ends_with(name, nlen, "-n"))
			continue;
		else if (alts.v[i].cfg && (dash = strrchr(name, '-')) != NULL &&
		    dash[1] == 'y' && strspn(dash + 1, "y") == strlen(dash + 1)) {
			/* foo-$(CONFIG_A)$(CONFIG_B): an OR, not written */
			kind = K_MAYBE;
			klen = (size_t)(dash - name) + 1;
			alts.v[i].nconds = 0;
			alts.v[i].unk = 1;
		}
		if (kind != K_PLAIN)
			relevant = true;
		v = kb_var_local(p, name, klen);
		if (v->fixed)
			continue;
		if (op == '!') {
			v->broken = true;
			continue;
		}
		if (exported)
			v->exported = true;
		if ((op == '=' || op == ':') && nlc == 0 && !lunk &&
		    alts.v[i].nconds == 0 && !alts.v[i].unk)
			var_clear(v, kind);
		else if ((op == '=' || op == ':') && !p->top)
			var_mark(v, kind);
		if (op == '?' && v->val.n > 0)
			continue;
		if (rbroken)
			v->broken = true;
		for (j = 0; j < val.n; j++) {
			x = &val.v[j];
			if (x->cfg && kind != K_PLAIN) {
				/* obj-y += $(CONFIG_NAME).o: a string value */
				rbroken = true;
				continue;
			}
			w = kb_cwv_add(&p->a, &v->val);
			*w = *x;
			w->conds = kb_conds_cat(&p->a, lc, nlc, x->conds,
			    x->nconds, &w->nconds, &w->unk);
			w->conds = kb_conds_cat(&p->a, w->conds, w->nconds,
			    alts.v[i].conds, alts.v[i].nconds, &w->nconds,
			    &w->unk);
			w->unk |= alts.v[i].unk | (p->top ? 0 : lunk);
			w->kind = (unsigned char)kind;
		}
	}
	if (relevant && (rbroken || op == '!'))
		skip_count(p, true);
	return ASSIGN_DONE;
}

/* include / -include / sinclude of files from the tree top. */
static void
do_include(struct parse *p, const char *s, size_t len, bool must)
{
	struct cwv	 files = { 0 };
	const char	*path;
	char		*text;
	const char	*file;
	size_t		 i, n;
	int		 nfr, base, lineno;

	if (p->kb->treefd < 0 || p->incdepth >= KB_MAX_INCLUDE) {
		if (must)
			skip_line(p);
		return;
	}
	p->broken = p->opaque = false;
	kb_expand(p, s, len, &files);
	if ((p->broken || p->opaque) && must)
		skip_line(p);
	for (i = 0; i < files.n; i++) {
		path = kb_path_norm(&p->a, p->kb, files.v[i].s,
		    strlen(files.v[i].s));
		if (path != NULL && (strncmp(path, "scripts/", 8) == 0 ||
		    strncmp(path, "include/config/", 15) == 0))
			continue;	/* kbuild's own, or the .config */
		if (path == NULL ||
		    (text = kb_tree_read(p->kb, path, &n)) == NULL) {
			if (must)
				skip_line(p);
			continue;
		}
		p->kb->st.makefiles++;
		nfr = p->nfr;
		base = p->base;
		file = p->file;
		lineno = p->lineno;
		p->base = nfr;
		p->file = path;
		p->incdepth++;
		kb_parse_text(p, text, n);
		p->incdepth--;
		p->nfr = nfr;
		p->base = base;
		p->file = file;
		p->lineno = lineno;
		free(text);
	}
}

/* The definite words of v joined, or NULL if some word is conditional. */
static const char *
definite_text(struct parse *p, const struct cwv *v)
{
	struct strbuf	 b;
	size_t		 i;
	char		*r;

	for (i = 0; i < v->n; i++) {
		if (v->v[i].nconds || v->v[i].unk || v->v[i].cfg)
			return NULL;
	}
	strbuf_init(&b);
	for (i = 0; i < v->n; i++) {
		if (i > 0)
			strbuf_addc(&b, ' ');
		strbuf_adds(&b, v->v[i].s);
	}
	r = arena_strndup(&p->a, b.s ? b.s : "", b.len);
	strbuf_free(&b);
	return r;
}

/* Whether a $(CONFIG_..) word w ("y", "yy", ...) can equal lit. */
static bool
cfg_can_equal(const struct cw *w, const char *lit)
{
	size_t	i;

	if (!w->cfg)
		return strcmp(w->s, lit) == 0;
	if (strlen(w->s) == 1)		/* one symbol: any value */
		return lit[0] != '\0';
	if (strlen(lit) != strlen(w->s))
		return false;
	for (i = 0; lit[i] != '\0'; i++) {
		if (lit[i] != 'y' && lit[i] != 'm')
			return false;
	}
	return true;
}

/* ifeq/ifneq of the expansions of a and b. */
static void
eval_eq(struct parse *p, const char *a, size_t al, const char *b, size_t bl,
    bool neg, struct cres *r)
{
	struct cwv	 va = { 0 }, vb = { 0 }, *one;
	const char	*ta, *tb, *lit;
	bool		 saved = p->broken, savedo = p->opaque, broken, opaque;

	kb_trim(&a, &al);
	kb_trim(&b, &bl);
	p->broken = p->opaque = false;
	kb_expand(p, a, al, &va);
	kb_expand(p, b, bl, &vb);
	broken = p->broken;
	opaque = p->opaque;
	p->broken = saved;
	p->opaque = savedo;
	if (broken || opaque) {
		if (broken)		/* ifeq ($(ARCH),arm) is not odd */
			skip_line(p);
		r->unk = true;
		return;
	}
	ta = definite_text(p, &va);
	tb = definite_text(p, &vb);
	if (ta != NULL && tb != NULL) {
		if ((strcmp(ta, tb) == 0) != neg)
			r->deftrue = true;
		else
			r->dead = true;
		return;
	}
	if (ta == NULL && tb == NULL) {
		r->unk = true;
		return;
	}
	one = ta == NULL ? &va : &vb;
	lit = ta == NULL ? tb : ta;
	if (one->n != 1) {
		r->unk = true;	/* an OR of several words */
		return;
	}
	/* one word, there iff its conds hold, against a definite text */
	if (lit[0] == '\0' || !cfg_can_equal(&one->v[0], lit)) {
		if (lit[0] == '\0' && neg) {		/* ifneq (X,) */
			r->conds = one->v[0].conds;
			r->nconds = one->v[0].nconds;
			r->unk = one->v[0].unk;
		} else if (lit[0] == '\0')		/* ifeq (X,) */
			r->unk = true;
		else if (neg)				/* never equal */
			r->deftrue = true;
		else
			r->dead = true;
		return;
	}
	if (neg) {
		r->unk = true;
		return;
	}
	r->conds = one->v[0].conds;
	r->nconds = one->v[0].nconds;
	r->unk = one->v[0].unk;
}

/* Evaluate "ifdef x", "ifndef x", "ifeq (a,b)", "ifneq "a" "b"". */
static void
eval_cond(struct parse *p, const char *word, const char *s, size_t len,
    struct cres *r)
{
	const char	*a[2], *q1, *q2;
	size_t		 al[2], e, i;
	struct cwv	 names = { 0 }, val = { 0 };
	bool		 neg, saved, savedo, unsure;

	memset(r, 0, sizeof *r);
	kb_trim(&s, &len);
	if (strcmp(word, "ifdef") == 0 || strcmp(word, "ifndef") == 0) {
		neg = word[2] == 'n';
		saved = p->broken;
		savedo = p->opaque;
		p->broken = p->opaque = false;
		kb_expand(p, s, len, &names);
		if (p->broken || p->opaque || names.n != 1) {
			p->broken = saved;
			p->opaque = savedo;
			skip_line(p);
			r->unk = true;
			return;
		}
		kb_var_words(p, names.v[0].s, strlen(names.v[0].s), &val);
		unsure = p->broken || p->opaque;
		p->broken = saved;
		p->opaque = savedo;
		if (unsure) {
			r->unk = true;
			return;
		}
		if (val.n == 0) {
			r->deftrue = neg;
			r->dead = !neg;
		} else if (definite_text(p, &val) != NULL) {
			r->deftrue = !neg;
			r->dead = neg;
		} else if (val.n == 1 && !neg) {
			r->conds = val.v[0].conds;
			r->nconds = val.v[0].nconds;
			r->unk = val.v[0].unk;
		} else
			r->unk = true;
		return;
	}
	neg = strcmp(word, "ifneq") == 0;
	if (len > 0 && s[0] == '(') {
		if ((e = kb_ref_end(s - 1, 0, len + 1)) == SIZE_MAX ||
		    kb_split_args(s + 1, e - 3, 2, a, al) != 2) {
			skip_line(p);
			r->unk = true;
			return;
		}
		eval_eq(p, a[0], al[0], a[1], al[1], neg, r);
		return;
	}
	if (len > 0 && (s[0] == '"' || s[0] == '\'')) {
		q1 = memchr(s + 1, s[0], len - 1);
		if (q1 != NULL) {
			i = (size_t)(q1 - s) + 1;
			while (i < len && isspace((unsigned char)s[i]))
				i++;
			if (i < len && (s[i] == '"' || s[i] == '\'') &&
			    (q2 = memchr(s + i + 1, s[i], len - i - 1)) !=
			    NULL) {
				eval_eq(p, s + 1, (size_t)(q1 - s) - 1,
				    s + i + 1, (size_t)(q2 - s) - i - 1, neg, r);
				return;
			}
		}
	}
	skip_line(p);
	r->unk = true;
}

/* The directive word at the start of s, if it is a conditional. */
static const char *
cond_word(const char *s, size_t len, size_t *wl)
{
	static const char *const words[] = { "ifdef", "ifndef", "ifeq",
	    "ifneq" };
	size_t	i, l;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		l = strlen(words[i]);
		if (len >= l && memcmp(s, words[i], l) == 0 && (len == l ||
		    isspace((unsigned char)s[l]) || (s[l] == '(' && i >= 2))) {
			*wl = l;
			return words[i];
		}
	}
	return NULL;
}

/* Whether the rest of the context (all frames but the top) is dead. */
static bool
outer_dead(const struct parse *p, int upto)
{
	int	i;

	if (p->over > 0)
		return true;
	for (i = 0; i < upto; i++) {
		if (p->fr[i].dead)
			return true;
	}
	return false;
}

/* A conditional directive line: word, then s (the rest). */
static void
do_cond(struct parse *p, const char *word, const char *s, size_t len)
{
	struct frame	*f;
	struct cres	 r;
	const char	*w2;
	size_t		 wl;
	bool		 base_unk;

	if (word[0] == 'i') {
		if (p->nfr == KB_MAX_IFS || p->over > 0) {
			p->over++;
			return;
		}
		f = &p->fr[p->nfr];
		memset(f, 0, sizeof *f);
		if (outer_dead(p, p->nfr))
			f->dead = true;
		else {
			eval_cond(p, word, s, len, &r);
			f->conds = r.conds;
			f->nconds = r.nconds;
			f->unk = r.unk;
			f->dead = r.dead;
			f->seen_true = r.deftrue;
			f->all_false = r.dead;
		}
		p->nfr++;
		return;
	}
	if (strcmp(word, "endif") == 0) {
		if (p->over > 0)
			p->over--;
		else if (p->nfr > p->base)
			p->nfr--;
		else
			skip_line(p);
		return;
	}
	/* else [ifxxx ...] */
	if (p->over > 0)
		return;
	if (p->nfr <= p->base) {
		skip_line(p);
		return;
	}
	f = &p->fr[p->nfr - 1];
	base_unk = !f->all_false;
	f->conds = NULL;
	f->nconds = 0;
	if (f->seen_true) {
		f->dead = true;
		f->unk = false;
		return;
	}
	f->dead = false;
	f->unk = base_unk;
	kb_trim(&s, &len);
	if (len == 0 || (w2 = cond_word(s, len, &wl)) == NULL) {
		if (len > 0)
			skip_line(p);
		f->all_false = false;
		return;
	}
	if (outer_dead(p, p->nfr - 1))
		return;
	eval_cond(p, w2, s + wl, len - wl, &r);
	f->conds = r.conds;
	f->nconds = r.nconds;
	f->unk = base_unk || r.unk;
	f->dead = r.dead;
	if (!base_unk && r.deftrue)
		f->seen_true = true;
	f->all_false = f->all_false && r.dead;
}

/* Whether s (len) starts with the word w. */
static bool
word_is(const char *s, size_t len, const char *w)
{
	size_t	l = strlen(w);

	return len >= l && memcmp(s, w, l) == 0 && (len == l ||
	    isspace((unsigned char)s[l]));
}

/* One logical line (continuations joined); tab: it started with a tab. */
static void
parse_line(struct parse *p, char *s, size_t len, bool tab, bool *in_rule,
    int *in_define)
{
	const char	*w, **lc;
	size_t		 i, wl;
	bool		 unk, dead;
	int		 nlc, r;

	if (tab && *in_rule && *in_define == 0)
		return;				/* a recipe */
	for (i = 0; i < len; i++) {
		if (s[i] == '#' && (i == 0 || s[i - 1] != '\\')) {
			len = i;
			break;
		}
	}
	kb_trim((const char **)&s, &len);
	if (len == 0)
		return;
	if (*in_define > 0) {
		if (word_is(s, len, "endef"))
			(*in_define)--;
		else if (word_is(s, len, "define"))
			(*in_define)++;
		return;
	}
	if ((w = cond_word(s, len, &wl)) != NULL) {
		do_cond(p, w, s + wl, len - wl);
		return;
	}
	if (word_is(s, len, "else")) {
		do_cond(p, "else", s + 4, len - 4);
		return;
	}
	if (word_is(s, len, "endif")) {
		do_cond(p, "endif", s + 5, len - 5);
		return;
	}
	if (word_is(s, len, "define") || word_is(s, len, "override define") ||
	    word_is(s, len, "export define")) {
		(*in_define)++;
		return;
	}
	line_ctx(p, &lc, &nlc, &unk, &dead);
	if (dead) {
		char		 op;
		const char	*rhs;

		*in_rule = find_op(s, len, &op, &wl, &rhs) == ASSIGN_RULE;
		return;
	}
	*in_rule = false;
	if (word_is(s, len, "include") || word_is(s, len, "-include") ||
	    word_is(s, len, "sinclude")) {
		wl = s[0] == 'i' ? 7 : 8;
		do_include(p, s + wl, len - wl, s[0] == 'i');
		return;
	}
	if (word_is(s, len, "override") || word_is(s, len, "private")) {
		wl = s[0] == 'o' ? 8 : 7;
		s += wl;
		len -= wl;
	} else if (word_is(s, len, "export")) {
		if (do_assign(p, s + 6, len - 6, true) == ASSIGN_NONE) {
			struct cwv	names = { 0 };

			p->broken = false;
			kb_expand(p, s + 6, len - 6, &names);
			for (i = 0; i < names.n; i++)
				kb_var_local(p, names.v[i].s,
				    strlen(names.v[i].s))->exported = true;
		}
		return;
	} else if (word_is(s, len, "unexport") || word_is(s, len, "undefine")
	    || word_is(s, len, "vpath") || word_is(s, len, "endef"))
		return;
	r = do_assign(p, s, len, false);
	if (r == ASSIGN_RULE)
		*in_rule = true;
	else if (r == ASSIGN_NONE)
		skip_line(p);	/* $(eval ...), junk */
}

/* Read a Makefile's text line by line. */
void
kb_parse_text(struct parse *p, const char *text, size_t len)
{
	struct strbuf	 line;
	size_t		 i = 0, j, e, nb, k;
	bool		 tab, in_rule = false;
	int		 in_define = 0, lines;

	strbuf_init(&line);
	p->lineno = 0;
	while (i < len) {
		strbuf_reset(&line);
		tab = text[i] == '\t';
		p->lineno++;
		lines = 0;
		for (;;) {
			for (j = i; j < len && text[j] != '\n'; j++)
				;
			lines++;
			e = j;
			if (e > i && text[e - 1] == '\r')
				e--;
			for (nb = 0; e - nb > i && text[e - 1 - nb] == '\\';
			    nb++)
				;
			if (nb % 2 == 1 && j < len) {
				strbuf_add(&line, text + i, e - 1 - i);
				strbuf_addc(&line, ' ');
				for (i = j + 1; i < len && (text[i] == ' ' ||
				    text[i] == '\t'); i++)
					;
				continue;
			}
			strbuf_add(&line, text + i, e - i);
			i = j < len ? j + 1 : j;
			break;
		}
		for (k = 0; k < line.len; k++) {
			if (line.s[k] == '\0')
				line.s[k] = ' ';
		}
		if (line.len > 0)
			parse_line(p, line.s, line.len, tab, &in_rule,
			    &in_define);
		p->lineno += lines - 1;
	}
	strbuf_free(&line);
}

/* Start reading a Makefile of directory dir. */
void
kb_parse_init(struct parse *p, struct kbuild *kb, const char *dir, bool top,
    int group)
{
	memset(p, 0, sizeof *p);
	p->kb = kb;
	arena_init(&p->a);
	p->dir = dir;
	p->top = top;
	p->budget = KB_BUDGET;
	if (group < kb->ngroups)
		p->inherit = kb->gvars[group];
	kb_var_fix(p, "srctree", ".", false);
	kb_var_fix(p, "objtree", ".", false);
	kb_var_fix(p, "src", dir[0] ? dir : ".", false);
	kb_var_fix(p, "obj", dir[0] ? dir : ".", false);
	kb_var_fix(p, "KBUILD_EXTMOD", NULL, false);
	/*
	 * Read as the final make invocation does: from 6.5 the top Makefile
	 * recurses ("need-sub-make") until --no-print-directory is in
	 * MAKEFLAGS, and the rest of it (core-y, libs-y, ARCH_LIB...) is in
	 * the else branch of that test.  With MAKEFLAGS empty, lib/ and
	 * arch/x86/lib/ were never reached on 6.12.
	 */
	kb_var_fix(p, "MAKEFLAGS", "--no-print-directory", false);
	kb_var_fix(p, "ARCH", NULL, true);
	if (group < kb->ngroups && kb->garch[group] != NULL)
		kb_var_fix(p, "SRCARCH", kb->garch[group], false);
	else
		kb_var_fix(p, "SRCARCH", NULL, true);
}

/* Free what reading a Makefile needed. */
void
kb_parse_done(struct parse *p)
{
	strmap_free(&p->vars);
	arena_free(&p->a);
}
