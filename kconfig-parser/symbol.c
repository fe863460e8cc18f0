/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbol.c - the symbol table and value computation.
 *
 * Values are computed lazily and memoised per generation, with the same
 * rules as the kernel's scripts/kconfig: visibility from prompts, the user
 * value where visible, else the first active default, raised by selects
 * (rev_dep) and implies, limited by dependencies, and m promoted to y for
 * bool symbols or when MODULES is off.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The kernel's FNV-1 hash over the name, modulo its table size: walks in
 * this order reproduce conf's for_all_symbols() order. */
static unsigned
sym_hash(const char *s)
{
	unsigned h = 2166136261U;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned)(int)*s) * 0x01000193;
	return h % SYM_HASHSIZE;
}

/* Return one of the constants y, m, n for a one-letter name. */
static struct kc_symbol *
sym_constant(struct kconfig *k, const char *name)
{
	if (name[0] != '\0' && name[1] == '\0') {
		switch (name[0]) {
		case 'y':
			return &k->sym_yes;
		case 'm':
			return &k->sym_mod;
		case 'n':
			return &k->sym_no;
		}
	}
	return NULL;
}

/* Find or create a symbol. flags selects the namespace: 0 for ordinary
 * symbols, SYM_CONST for quoted constants, SYM_CHOICE for named choices;
 * a NULL name always creates a new (unnamed choice) symbol. */
struct kc_symbol *
sym_lookup(struct kconfig *k, const char *name, int flags)
{
	struct kc_symbol	*sym;
	unsigned		 h = 0;

	if (name != NULL) {
		if ((sym = sym_constant(k, name)) != NULL)
			return sym;
		h = sym_hash(name);
		for (sym = k->hash[h]; sym != NULL; sym = sym->hnext) {
			if (sym->name == NULL || strcmp(sym->name, name) != 0)
				continue;
			if (flags ? (sym->flags & flags) :
			    !(sym->flags & (SYM_CONST | SYM_CHOICE)))
				return sym;
		}
	}
	sym = arena_alloc(&k->arena, sizeof *sym);
	sym->name = name != NULL ? kc_intern(k, name) : NULL;
	sym->type = KC_UNKNOWN;
	sym->flags = flags;
	sym->curr_str = "";
	sym->hnext = k->hash[h];
	k->hash[h] = sym;
	XGROW(k->syms, k->asyms, k->nsyms + 1, 4096);
	sym->order = (uint32_t)k->nsyms;
	k->syms[k->nsyms++] = sym;
	return sym;
}

/* Find an existing non-constant symbol by name. */
struct kc_symbol *
sym_find(struct kconfig *k, const char *name)
{
	struct kc_symbol *sym;

	if (name == NULL)
		return NULL;
	if ((sym = sym_constant(k, name)) != NULL)
		return sym;
	for (sym = k->hash[sym_hash(name)]; sym != NULL; sym = sym->hnext) {
		if (sym->name != NULL && strcmp(sym->name, name) == 0 &&
		    !(sym->flags & SYM_CONST))
			return sym;
	}
	return NULL;
}

/* Fill k->korder as a table of size buckets (every symbol added at the
 * head of its bucket in creation order, unnamed ones in bucket 0) is
 * walked; returns the count. */
static int
sym_order_buckets(struct kconfig *k, unsigned size)
{
	int		*head, *next, i, j = 0;
	unsigned	 b, h;
	const char	*c;

	head = xmalloc(size * sizeof *head);
	next = xmalloc(((size_t)k->nsyms + 1) * sizeof *next);
	for (b = 0; b < size; b++)
		head[b] = -1;
	for (i = 0; i < k->nsyms; i++) {
		h = 2166136261U;
		if (k->syms[i]->name != NULL) {
			for (c = k->syms[i]->name; *c != '\0'; c++)
				h = (h ^ (unsigned)(int)*c) * 0x01000193;
		} else
			h = 0;
		b = h % size;
		next[i] = head[b];
		head[b] = i;
	}
	for (b = 0; b < size; b++) {
		for (i = head[b]; i >= 0; i = next[i])
			k->korder[j++] = k->syms[i];
	}
	free(next);
	free(head);
	return j;
}

/* Every symbol in the order the kernel's hash walk visits them. Symbols
 * created later (none are, after parsing) invalidate the cache. */
struct kc_symbol **
sym_kernel_order(struct kconfig *k, int *n)
{
	struct kc_symbol	*sym;
	int			 i, j = 0;

	if (k->korder == NULL || k->nkorder != k->nsyms) {
		free(k->korder);
		k->korder = xmalloc((k->nsyms + 1) * sizeof *k->korder);
		if (k->rules.hash_size != SYM_HASHSIZE)
			j = sym_order_buckets(k, k->rules.hash_size);
		else {
			for (i = 0; i < SYM_HASHSIZE; i++) {
				for (sym = k->hash[i]; sym != NULL;
				    sym = sym->hnext)
					k->korder[j++] = sym;
			}
		}
		k->nkorder = j;
	}
	*n = k->nkorder;
	return k->korder;
}

/* The type as the user sees it: tristate becomes bool without modules,
 * and for a choice value while its choice is y. */
enum kc_type
sym_get_type(struct kconfig *k, struct kc_symbol *sym)
{
	if (sym->type == KC_TRISTATE) {
		if (k->rules.tristate_choice && sym_is_choice_value(sym) &&
		    sym->visible == KC_YES)
			return KC_BOOL;
		if (k->modules_val == KC_NO)
			return KC_BOOL;
	}
	return sym->type;
}

/* Name of a type, as conf prints it. */
const char *
sym_type_name(enum kc_type type)
{
	switch (type) {
	case KC_BOOL:
		return "bool";
	case KC_TRISTATE:
		return "tristate";
	case KC_INT:
		return "integer";
	case KC_HEX:
		return "hex";
	case KC_STRING:
		return "string";
	case KC_UNKNOWN:
		return "unknown";
	}
	return "???";
}

/* Name of a property type, as conf prints it. */
const char *
prop_type_name(enum kc_prop_type type)
{
	static const char *names[] = {
		"unknown", "prompt", "comment", "menu", "default", "choice",
		"select", "imply", "range", "symbol"
	};

	if ((unsigned)type < sizeof names / sizeof names[0])
		return names[type];
	return "unknown";
}

/* The symbol a default/select/choice property names. */
struct kc_symbol *
prop_get_symbol(struct kc_prop *prop)
{
	if (prop->expr != NULL && prop->expr->type == E_SYMBOL)
		return prop->expr->left.sym;
	return NULL;
}

/* The first property of a type whose condition is not n. */
static struct kc_prop *
sym_get_active_prop(struct kconfig *k, struct kc_symbol *sym,
    enum kc_prop_type type)
{
	struct kc_prop *prop;

	for (prop = sym->prop; prop != NULL; prop = prop->next) {
		if (prop->type != type)
			continue;
		prop->visible.tri = expr_calc_value(k, prop->visible.expr);
		if (prop->visible.tri != KC_NO)
			return prop;
	}
	return NULL;
}

/* Value of a range bound, in the base of the bound's own type. */
static long long
sym_get_range_val(struct kconfig *k, struct kc_symbol *sym, int base)
{
	sym_calc_value(k, sym);
	if (sym->type == KC_INT)
		base = 10;
	else if (sym->type == KC_HEX)
		base = 16;
	return strtoll(sym->curr_str, NULL, base);
}

/* Clamp an int/hex value into its active range. */
static void
sym_validate_range(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_prop		*prop;
	struct kc_symbol	*bound;
	int			 base;
	long long		 val;

	if (sym->type == KC_INT)
		base = 10;
	else if (sym->type == KC_HEX)
		base = 16;
	else
		return;
	if ((prop = sym_get_active_prop(k, sym, P_RANGE)) == NULL)
		return;
	val = strtoll(sym->curr_str, NULL, base);
	bound = prop->expr->left.sym;
	if (val >= sym_get_range_val(k, bound, base)) {
		bound = prop->expr->right.sym;
		if (val <= sym_get_range_val(k, bound, base))
			return;
	}
	sym->curr_str = bound->curr_str;
}

/* Visibility (the best of its prompts) and the values of its direct,
 * reverse and implied dependencies. */
void
sym_calc_visibility(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_prop		*prop;
	struct kc_symbol	*cs = NULL;
	enum kc_tri		 tri = KC_NO;

	/* A transitional symbol is always visible, and keeps its
	 * dependencies' values as they were (it has none). */
	if (sym->flags & SYM_TRANS) {
		sym->visible = KC_YES;
		return;
	}
	if (sym_is_choice_value(sym) && k->rules.tristate_choice)
		cs = sym->choice;
	for (prop = sym->prop; prop != NULL; prop = prop->next) {
		if (prop->text == NULL)
			continue;
		prop->visible.tri = expr_calc_value(k, prop->visible.expr);
		/* A tristate value visible as m is hidden while its choice
		 * is y: only one value can be chosen then. */
		if (cs != NULL && sym->type == KC_TRISTATE &&
		    prop->visible.tri == KC_MOD && cs->curr_tri == KC_YES)
			prop->visible.tri = KC_NO;
		tri = EXPR_OR(tri, prop->visible.tri);
	}
	if (tri == KC_MOD && (sym->type != KC_TRISTATE ||
	    k->modules_val == KC_NO))
		tri = KC_YES;
	sym->visible = tri;
	if (sym_is_choice_value(sym))
		return;

	tri = sym->dir_dep.expr ? expr_calc_value(k, sym->dir_dep.expr) :
	    KC_YES;
	if (tri == KC_MOD && sym_get_type(k, sym) == KC_BOOL)
		tri = KC_YES;
	sym->dir_dep.tri = tri;

	tri = sym->rev_dep.expr ? expr_calc_value(k, sym->rev_dep.expr) :
	    KC_NO;
	if (tri == KC_MOD && sym_get_type(k, sym) == KC_BOOL)
		tri = KC_YES;
	sym->rev_dep.tri = tri;

	tri = sym->implied.expr ? expr_calc_value(k, sym->implied.expr) :
	    KC_NO;
	if (tri == KC_MOD && sym_get_type(k, sym) == KC_BOOL)
		tri = KC_YES;
	sym->implied.tri = tri;
}

/* The value a choice takes by default: its first default naming a visible
 * symbol, else its first visible value. */
struct kc_symbol *
sym_choice_default(struct kconfig *k, struct kc_symbol *cs)
{
	struct kc_prop		*prop;
	struct kc_symbol	*ds;
	int			 i;

	for (prop = cs->prop; prop != NULL; prop = prop->next) {
		if (prop->type != P_DEFAULT)
			continue;
		prop->visible.tri = expr_calc_value(k, prop->visible.expr);
		if (prop->visible.tri == KC_NO)
			continue;
		ds = prop_get_symbol(prop);
		if (ds != NULL && ds->visible != KC_NO)
			return ds;
	}
	for (i = 0; i < cs->nvalues; i++) {
		if (cs->values[i]->visible != KC_NO)
			return cs->values[i];
	}
	return NULL;
}

/* Which value a choice in y mode selects. */
static struct kc_symbol *
sym_calc_choice(struct kconfig *k, struct kc_symbol *cs)
{
	struct kc_symbol	*ds;
	int			 flags = cs->flags, i;

	/* The choice only keeps its user value when every visible value
	 * has one too. */
	for (i = 0; i < cs->nvalues; i++) {
		ds = cs->values[i];
		sym_calc_visibility(k, ds);
		if (ds->visible != KC_NO)
			flags &= ds->flags;
	}
	cs->flags &= flags | ~SYM_DEF_USER;

	ds = cs->user_sel;
	if (ds != NULL && ds->visible != KC_NO)
		return ds;
	ds = sym_choice_default(k, cs);
	if (ds == NULL)
		cs->curr_tri = KC_NO;
	return ds;
}

/* A choice's values by priority (6.11): the highest first, ties in the
 * order of the Kconfig; into order[], which has room for them all. */
static void
sym_choice_by_priority(struct kc_symbol *cs, struct kc_symbol **order)
{
	struct kc_symbol	*sym;
	int			 i, j;

	for (i = 0; i < cs->nvalues; i++) {
		sym = cs->values[i];
		for (j = i; j > 0 && order[j - 1]->prio < sym->prio; j--)
			order[j] = order[j - 1];
		order[j] = sym;
	}
}

/* The values of a choice, computed together from their user values
 * (6.11): the visible value with a user y of the highest priority, else
 * the default unless the user said n to it, else the first visible value
 * without a user value, else the visible value of the lowest priority.
 * It is y, every other visible value n, and all of them are valid. */
static struct kc_symbol *
sym_calc_choice_prio(struct kconfig *k, struct kc_symbol *cs)
{
	struct kc_symbol	*res = NULL, *sym, *stack[64], **order;
	int			 i, n = cs->nvalues;
	enum kc_tri		 val;

	order = n <= 64 ? stack : xmalloc((size_t)n * sizeof *order);
	sym_choice_by_priority(cs, order);
	/* Every value's visibility first: the search below stops at the
	 * first chosen value, and the loops after it read them all. */
	for (i = 0; i < n; i++)
		sym_calc_visibility(k, cs->values[i]);
	for (i = 0; i < n; i++) {
		sym = order[i];
		if (sym->visible == KC_NO)
			continue;
		if (sym_has_value(sym) && sym->user_tri == KC_YES) {
			res = sym;
			break;
		}
	}
	if (res == NULL) {
		res = sym_choice_default(k, cs);
		if (res != NULL && sym_has_value(res) &&
		    res->user_tri == KC_NO)
			res = NULL;
	}
	for (i = 0; res == NULL && i < n; i++) {
		sym = cs->values[i];
		if (sym->visible != KC_NO && !sym_has_value(sym))
			res = sym;
	}
	for (i = n - 1; res == NULL && i >= 0; i--) {
		if (order[i]->visible != KC_NO)
			res = order[i];
	}
	if (order != stack)
		free(order);
	for (i = 0; i < n; i++) {
		sym = cs->values[i];
		if (sym->visible == KC_NO)
			continue;
		val = sym == res ? KC_YES : KC_NO;
		sym->curr_tri = val;
		sym->valid_gen = k->gen;
		sym->flags |= SYM_WRITE;
	}
	cs->choice_sel = res;
	return res;
}

/* The "unmet direct dependencies" warning conf prints when a select
 * forces a symbol above what its dependencies allow. */
static void
sym_warn_unmet_dep(struct kconfig *k, struct kc_symbol *sym)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addf(&sb, "WARNING: unmet direct dependencies detected for %s",
	    sym->name);
	kc_warn(k, "%s", sb.s);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "  Depends on [%c]: ",
	    sym->dir_dep.tri == KC_MOD ? 'm' : 'n');
	expr_print(sym->dir_dep.expr, &sb, 0);
	kc_warn(k, "%s", sb.s);
	strbuf_free(&sb);
	k->dep_warnings++;
}

/*
 * A symbol without a user value whose value came from a default naming a
 * transitional symbol that has one (read from an old .config) takes that
 * value as its own user value, as conf does (6.18), so it is not new.
 */
static void
sym_take_transitional(struct kconfig *k, struct kc_symbol *sym,
    struct kc_prop *prop, enum kc_tri tri, const char *str)
{
	struct kc_symbol *ds;

	if (prop == NULL || sym_has_value(sym))
		return;
	ds = prop_get_symbol(prop);
	if (ds == NULL || !(ds->flags & SYM_TRANS) || !sym_has_value(ds))
		return;
	journal_note(k, sym);
	sym->user_tri = tri;
	if (sym->type != KC_BOOL && sym->type != KC_TRISTATE)
		sym->user_str = str;
	sym->flags |= SYM_DEF_USER;
}

/* Compute a symbol's value for the current generation. */
void
sym_calc_value(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_prop		*prop = NULL;
	struct kc_symbol	*ds;
	enum kc_tri		 tri = KC_NO;
	const char		*str = "";
	int			 i;

	if (sym == NULL || sym_is_valid(k, sym))
		return;
	/* y, m and n never change. */
	if (sym == &k->sym_yes || sym == &k->sym_mod || sym == &k->sym_no)
		return;
	if (sym_is_choice_value(sym) && (sym->flags & SYM_NEED_SET_CHOICE)) {
		journal_note(k, sym);
		sym->flags &= ~SYM_NEED_SET_CHOICE;
		sym_calc_value(k, sym->choice);
	}
	sym->valid_gen = k->gen;

	switch (sym->type) {
	case KC_INT:
	case KC_HEX:
	case KC_STRING:
	case KC_BOOL:
	case KC_TRISTATE:
		break;
	default:
		sym->curr_str = sym->name != NULL ? sym->name : "";
		sym->curr_tri = KC_NO;
		return;
	}
	if (sym->type == KC_BOOL || sym->type == KC_TRISTATE)
		str = "n";	/* what conf leaves in curr.val */
	else if (sym->type == KC_INT && k->rules.number_zero)
		str = "0";
	else if (sym->type == KC_HEX && k->rules.number_zero)
		str = "0x0";
	sym->flags &= ~SYM_WRITE;
	sym_calc_visibility(k, sym);
	if (sym->visible != KC_NO)
		sym->flags |= SYM_WRITE;

	/* The value seen by a recursive reference while computing. */
	sym->curr_tri = KC_NO;
	sym->curr_str = str;
	sym->choice_sel = NULL;

	switch (sym_get_type(k, sym)) {
	case KC_BOOL:
	case KC_TRISTATE:
		if (k->rules.choice_priority && sym_is_choice_value(sym)) {
			sym_calc_choice_prio(k, sym->choice);
			tri = sym->curr_tri;
		} else if (sym_is_choice_value(sym) &&
		    sym->visible == KC_YES) {
			tri = sym->choice->choice_sel == sym ? KC_YES : KC_NO;
		} else {
			if (sym->visible != KC_NO && sym_has_value(sym)) {
				tri = EXPR_AND(sym->user_tri, sym->visible);
				goto calc_newval;
			}
			if (sym->rev_dep.tri != KC_NO)
				sym->flags |= SYM_WRITE;
			if (!sym_is_choice(sym)) {
				prop = sym_get_active_prop(k, sym, P_DEFAULT);
				if (prop != NULL) {
					tri = EXPR_AND(expr_calc_value(k,
					    prop->expr), prop->visible.tri);
					if (tri != KC_NO)
						sym->flags |= SYM_WRITE;
				}
				if (sym->implied.tri != KC_NO) {
					sym->flags |= SYM_WRITE;
					tri = EXPR_OR(tri, sym->implied.tri);
					tri = EXPR_AND(tri, sym->dir_dep.tri);
				}
			}
		calc_newval:
			if (sym->dir_dep.tri < sym->rev_dep.tri)
				sym_warn_unmet_dep(k, sym);
			tri = EXPR_OR(tri, sym->rev_dep.tri);
		}
		if (tri == KC_MOD && sym_get_type(k, sym) == KC_BOOL)
			tri = KC_YES;
		break;
	case KC_STRING:
	case KC_HEX:
	case KC_INT:
		if (sym->visible != KC_NO && sym_has_value(sym)) {
			str = sym->user_str;
			break;
		}
		prop = sym_get_active_prop(k, sym, P_DEFAULT);
		if (prop != NULL && (ds = prop_get_symbol(prop)) != NULL) {
			sym->flags |= SYM_WRITE;
			sym_calc_value(k, ds);
			str = ds->curr_str;
		}
		break;
	default:
		break;
	}

	sym_take_transitional(k, sym, prop, tri, str);
	sym->curr_tri = tri;
	sym->curr_str = str;
	if (sym_is_choice(sym) && tri == KC_YES &&
	    !k->rules.choice_priority)
		sym->choice_sel = sym_calc_choice(k, sym);
	sym_validate_range(k, sym);

	if (sym == k->modules_sym)
		k->modules_val = sym->curr_tri;

	if (sym_is_choice(sym) && (sym->flags & SYM_WRITE) &&
	    !k->rules.choice_priority) {
		for (i = 0; i < sym->nvalues; i++) {
			if (sym->values[i]->visible != KC_NO)
				sym->values[i]->flags |= SYM_WRITE;
		}
	}
	if (sym->flags & (SYM_NO_WRITE | SYM_TRANS))
		sym->flags &= ~SYM_WRITE;
	if (sym->flags & SYM_NEED_SET_CHOICE)
		sym_set_all_choice_values(k, sym);
}

/* Give the values of a choice without a user value an explicit n, and
 * mark the choice as set, so its value is recomputed from them. */
void
sym_set_all_choice_values(struct kconfig *k, struct kc_symbol *cs)
{
	int i;

	for (i = 0; i < cs->nvalues; i++) {
		if (!sym_has_value(cs->values[i])) {
			journal_note(k, cs->values[i]);
			cs->values[i]->user_tri = KC_NO;
		}
	}
	journal_note(k, cs);
	cs->flags |= SYM_DEF_USER;
	cs->flags &= ~SYM_NEED_SET_CHOICE;
	cs->valid_gen = 0;
	k->g_unwalked = true;	/* readers not invalidated: graph.c */
}

/* Invalidate every value and recompute MODULES first, as everything
 * tristate depends on it. */
void
sym_clear_all_valid(struct kconfig *k)
{
	if (++k->gen == 0)
		k->gen = 1;
	k->g_unwalked = false;
	k->changed = true;
	sym_calc_value(k, k->modules_sym);
}

/* Whether val is a value the user could give sym now. */
bool
sym_tristate_within_range(struct kconfig *k, struct kc_symbol *sym,
    enum kc_tri val)
{
	enum kc_type type = sym_get_type(k, sym);

	if (sym->visible == KC_NO)
		return false;
	if (type != KC_BOOL && type != KC_TRISTATE)
		return false;
	if (type == KC_BOOL && val == KC_MOD)
		return false;
	if (sym->visible <= sym->rev_dep.tri)
		return false;
	if (k->rules.tristate_choice && sym_is_choice_value(sym) &&
	    sym->visible == KC_YES)
		return val == KC_YES;
	return val >= sym->rev_dep.tri && val <= sym->visible;
}

/* Choose sym in its choice (6.11, choice_set_value()): every visible
 * value gets a user value, y for sym and n for the others, and a new
 * priority above every older one, in Kconfig order (so were all of them
 * n, the first would be the one of least priority). */
static void
sym_choice_set_value(struct kconfig *k, struct kc_symbol *cs,
    struct kc_symbol *sym)
{
	struct kc_symbol	*v;
	bool			 changed = false;
	int			 i;

	for (i = 0; i < cs->nvalues; i++) {
		v = cs->values[i];
		if (v->visible == KC_NO)
			continue;
		if (v->curr_tri != (v == sym ? KC_YES : KC_NO))
			changed = true;
		journal_note(k, v);
		v->user_tri = v == sym ? KC_YES : KC_NO;
		v->flags |= SYM_DEF_USER;
		v->prio = ++k->prio_next;
	}
	if (changed)
		graph_invalidate(k, sym);	/* its choice and siblings too */
}

/* Set a bool/tristate user value, as the user would in a config tool. */
bool
sym_set_tristate_value(struct kconfig *k, struct kc_symbol *sym,
    enum kc_tri val)
{
	enum kc_tri	old;
	int		i;

	sym_calc_value(k, sym);
	old = sym->curr_tri;
	if (k->rules.choice_priority && sym_is_choice_value(sym) &&
	    val == KC_YES && sym->visible != KC_NO) {
		sym_choice_set_value(k, sym->choice, sym);
		return true;
	}
	if (old != val && !sym_tristate_within_range(k, sym, val))
		return false;
	journal_note(k, sym);
	sym->flags |= SYM_DEF_USER;
	/* Choosing a value also settles its choice and its siblings. */
	if (sym_is_choice_value(sym) && val == KC_YES) {
		struct kc_symbol *cs = sym->choice;

		journal_note(k, cs);
		cs->user_sel = sym;
		cs->flags |= SYM_DEF_USER;
		for (i = 0; i < cs->nvalues; i++) {
			if (cs->values[i]->visible != KC_NO) {
				journal_note(k, cs->values[i]);
				cs->values[i]->flags |= SYM_DEF_USER;
			}
		}
	}
	sym->user_tri = val;
	if (old != val)
		graph_invalidate(k, sym);
	return true;
}

/* Whether str is a syntactically valid value for sym's type. */
bool
sym_string_valid(struct kc_symbol *sym, const char *str)
{
	unsigned char ch;

	switch (sym->type) {
	case KC_STRING:
		return true;
	case KC_INT:
		ch = (unsigned char)*str++;
		if (ch == '-')
			ch = (unsigned char)*str++;
		if (!isdigit(ch))
			return false;
		if (ch == '0' && *str != '\0')
			return false;
		while ((ch = (unsigned char)*str++) != '\0') {
			if (!isdigit(ch))
				return false;
		}
		return true;
	case KC_HEX:
		if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X'))
			str += 2;
		ch = (unsigned char)*str++;
		do {
			if (!isxdigit(ch))
				return false;
		} while ((ch = (unsigned char)*str++) != '\0');
		return true;
	case KC_BOOL:
	case KC_TRISTATE:
		return strchr("yYmMnN", str[0]) != NULL && str[0] != '\0';
	default:
		return false;
	}
}

/* Whether str is valid and inside sym's active range. */
bool
sym_string_within_range(struct kconfig *k, struct kc_symbol *sym,
    const char *str)
{
	struct kc_prop	*prop;
	long long	 val;
	int		 base;

	switch (sym->type) {
	case KC_STRING:
		return sym_string_valid(sym, str);
	case KC_INT:
	case KC_HEX:
		if (!sym_string_valid(sym, str))
			return false;
		if ((prop = sym_get_active_prop(k, sym, P_RANGE)) == NULL)
			return true;
		base = sym->type == KC_INT ? 10 : 16;
		val = strtoll(str, NULL, base);
		return val >= sym_get_range_val(k, prop->expr->left.sym,
		    base) && val <= sym_get_range_val(k,
		    prop->expr->right.sym, base);
	case KC_BOOL:
	case KC_TRISTATE:
		switch (str[0]) {
		case 'y': case 'Y':
			return sym_tristate_within_range(k, sym, KC_YES);
		case 'm': case 'M':
			return sym_tristate_within_range(k, sym, KC_MOD);
		case 'n': case 'N':
			return sym_tristate_within_range(k, sym, KC_NO);
		}
		return false;
	default:
		return false;
	}
}

/* Set any symbol from a string, as typed by a user. */
bool
sym_set_string_value(struct kconfig *k, struct kc_symbol *sym,
    const char *val)
{
	const char *nv;

	switch (sym->type) {
	case KC_BOOL:
	case KC_TRISTATE:
		switch (val[0]) {
		case 'y': case 'Y':
			return sym_set_tristate_value(k, sym, KC_YES);
		case 'm': case 'M':
			return sym_set_tristate_value(k, sym, KC_MOD);
		case 'n': case 'N':
			return sym_set_tristate_value(k, sym, KC_NO);
		}
		return false;
	default:
		break;
	}
	if (!sym_string_within_range(k, sym, val))
		return false;
	journal_note(k, sym);
	sym->flags |= SYM_DEF_USER;
	if (sym->type == KC_HEX && (val[0] != '0' ||
	    (val[1] != 'x' && val[1] != 'X'))) {
		char *tmp = xasprintf("0x%s", val);

		nv = kc_intern(k, tmp);
		free(tmp);
	} else
		nv = kc_intern(k, val);
	if (sym->user_str != NULL && strcmp(sym->user_str, nv) == 0)
		return true;
	sym->user_str = nv;
	graph_invalidate(k, sym);
	return true;
}

/* The value sym would have without a user value (savedefconfig). */
const char *
sym_get_string_default(struct kconfig *k, struct kc_symbol *sym)
{
	struct kc_prop		*prop;
	struct kc_symbol	*ds;
	const char		*str = "";
	enum kc_tri		 val = KC_NO;

	sym_calc_visibility(k, sym);
	sym_calc_value(k, k->modules_sym);
	prop = sym_get_active_prop(k, sym, P_DEFAULT);
	if (prop != NULL) {
		switch (sym->type) {
		case KC_BOOL:
		case KC_TRISTATE:
			val = EXPR_AND(expr_calc_value(k, prop->expr),
			    prop->visible.tri);
			break;
		default:
			if ((ds = prop_get_symbol(prop)) != NULL) {
				sym_calc_value(k, ds);
				str = ds->curr_str;
			}
			break;
		}
	}
	val = EXPR_OR(val, sym->rev_dep.tri);
	if (val == KC_MOD && !sym_is_choice_value(sym) &&
	    k->modules_sym->curr_tri == KC_NO)
		val = KC_YES;
	if (sym->type == KC_BOOL && val == KC_MOD)
		val = KC_YES;
	if (val < sym->implied.tri)
		val = sym->implied.tri;
	switch (sym->type) {
	case KC_BOOL:
	case KC_TRISTATE:
		return val == KC_NO ? "n" : val == KC_MOD ? "m" : "y";
	case KC_INT:
		return *str == '\0' && k->rules.number_zero ? "0" : str;
	case KC_HEX:
		return *str == '\0' && k->rules.number_zero ? "0x0" : str;
	case KC_STRING:
		return str;
	default:
		return "";
	}
}

/* The value as conf writes it. */
const char *
sym_get_string_value(struct kc_symbol *sym)
{
	switch (sym->type) {
	case KC_BOOL:
	case KC_TRISTATE:
		return sym->curr_tri == KC_NO ? "n" :
		    sym->curr_tri == KC_MOD ? "m" : "y";
	default:
		return sym->curr_str != NULL ? sym->curr_str : "";
	}
}
