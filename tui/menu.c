/* SPDX-License-Identifier: GPL-2.0 */
/*
 * menu.c - the menu browser: a mode of the tree widget that shows one
 * menu as mconf does (build_conf() in scripts/kconfig/mconf.c): menus
 * and menuconfig entries open submenus, choices open a radio list, "if"
 * blocks without a prompt are transparent, and entries that depend on
 * the symbol above them are indented under it.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/evidence/attrib.h"
#include "../core/explain/explain.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

enum mline_kind { ML_SYM, ML_MENU, ML_CHOICE, ML_COMMENT, ML_HEADER,
    ML_TEXT };

struct mline {
	struct kc_menu		*m;
	enum mline_kind		 kind;
	bool			 invisible;
};

/* Whether an entry or something under it is a NEW option. */
static bool
menu_has_new(struct tui *t, struct kc_menu *m)
{
	struct kc_menu		*c;
	struct kc_symbol	*s = kc_menu_sym(m);

	if (s != NULL && kc_menu_prompt(m) != NULL && tui_sym_new(t, s))
		return true;
	for (c = kc_menu_child(m); c != NULL; c = kc_menu_next(c)) {
		if (menu_has_new(t, c))
			return true;
	}
	return false;
}

/* Whether a menu has nothing visible (mconf's "----"). */
static bool
menu_is_empty(struct tui *t, struct kc_menu *m)
{
	struct kc_menu *c;

	for (c = kc_menu_child(m); c != NULL; c = kc_menu_next(c)) {
		if (tui_menu_visible(t, c))
			return false;
	}
	return true;
}

/* Add a line for m. */
static struct tree_item *
menu_add(struct tree *tr, struct tree_item *parent, struct kc_menu *m,
    enum mline_kind kind, bool invisible)
{
	struct mline *ml = xcalloc(1, sizeof *ml);

	ml->m = m;
	ml->kind = kind;
	ml->invisible = invisible;
	return tree_add(tr, parent, ml, m, true);
}

/* build_conf(): the lines of m and what it shows inline. */
static void
menu_build_conf(struct tui_view *v, struct tree *tr, struct tree_item *parent,
    struct kc_menu *m)
{
	struct tui		*t = v->tui;
	struct kc_symbol	*s = kc_menu_sym(m);
	struct kc_menu		*c;
	struct tree_item	*it = parent;
	const char		*prompt = kc_menu_prompt(m);
	enum kc_menu_kind	 kind = kc_menu_kind(m);
	bool			 invisible = !tui_menu_visible(t, m);

	if (invisible && !t->show_all)
		return;
	if (m != v->menu && t->only_new && !menu_has_new(t, m))
		return;
	if (s == NULL) {
		if (prompt != NULL && m != v->menu) {
			if (kind == KC_MENU_MENU) {
				menu_add(tr, parent, m, ML_MENU, invisible);
				return;
			}
			it = menu_add(tr, parent, m, kind == KC_MENU_COMMENT ?
			    ML_COMMENT : ML_TEXT, invisible);
		}
		for (c = kc_menu_child(m); c != NULL; c = kc_menu_next(c))
			menu_build_conf(v, tr, it, c);
		return;
	}
	if (prompt == NULL) {
		/* Never shown itself; in show-all mode what depends on it
		 * appears at its level. */
		if (t->show_all)
			for (c = kc_menu_child(m); c != NULL; c = kc_menu_next(c))
				menu_build_conf(v, tr, parent, c);
		return;
	}
	if (kind == KC_MENU_CHOICE && m != v->menu) {
		menu_add(tr, parent, m, ML_CHOICE, invisible);
		return;
	}
	if (m == v->menu) {
		/* A menuconfig's own line heads its submenu. */
		if (kind != KC_MENU_CHOICE)
			it = menu_add(tr, parent, m, ML_HEADER, invisible);
	} else {
		it = menu_add(tr, parent, m, ML_SYM, invisible);
		if (kind == KC_MENU_MENU)
			return;
	}
	for (c = kc_menu_child(m); c != NULL; c = kc_menu_next(c))
		menu_build_conf(v, tr, it, c);
}

static void
menu_build(void *arg, struct tree *tr)
{
	struct tui_view *v = arg;

	menu_build_conf(v, tr, NULL, v->menu);
}

const char *
menu_verdict_mark(struct tui *t, int verdict)
{
	static const char *utf8[] = { "\u25cf", "\u25d0", "\u25cb", "\u00b7" };
	static const char *ascii[] = { "U", "p", "-", "." };

	if (verdict < 0 || verdict > 3)
		return " ";
	return t->ascii ? ascii[verdict] : utf8[verdict];
}

const char *
menu_trim_mark(struct tui *t)
{
	return t->ascii ? "T" : "\u2702";
}

static int
menu_verdict_el(int verdict)
{
	switch (verdict) {
	case V_USED: return EL_EV_USED;
	case V_PLAUSIBLE: return EL_EV_PLAUSIBLE;
	case V_NONE: return EL_EV_NONE;
	default: return EL_EV_NOCODE;
	}
}

/*
 * The two mark cells of a symbol's line (with evidence only): its
 * evidence, then the suggestion beside it: a candidate with some
 * evidence (◐ a traced function) shows both. Blanks in el otherwise.
 */
void
menu_marks(struct tui *t, const struct kc_symbol *s, int el, struct row *r)
{
	int verdict = -1;

	if (t->a == NULL)
		return;
	if (s != NULL && kc_sym_index(s) >= 0 &&
	    t->snap->verdict[kc_sym_index(s)] != WS_NO_VERDICT)
		verdict = t->snap->verdict[kc_sym_index(s)];
	if (verdict >= 0)
		row_add(r, menu_verdict_el(verdict), menu_verdict_mark(t,
		    verdict));
	else
		row_add(r, el, " ");
	if (s != NULL && review_is_candidate(t, s))
		row_add(r, EL_TRIM, review_mark(t, s));
	else
		row_add(r, el, " ");
}

char *
menu_evidence_text(struct tui *t, const struct kc_symbol *s)
{
	const struct attrib_sym	*as;
	const char		*name = kc_sym_name(s);
	size_t			 i;
	const struct ev_item	*it;
	enum ev_kind		 order[] = { EV_MODULE, EV_DRIVER, EV_DEVICE,
				    EV_MOUNT, EV_FS, EV_CRYPTO };
	size_t			 k;

	if (t->a == NULL || name == NULL ||
	    (as = attrib_find(t->a, name)) == NULL || as->nrefs == 0)
		return NULL;
	/* Modules and bound drivers say most; traced functions are
	 * counted; the rest by name. */
	for (k = 0; k < sizeof order / sizeof order[0]; k++) {
		for (i = 0; i < as->nrefs; i++) {
			it = as->refs[i].item;
			if (it->kind != order[k])
				continue;
			switch (it->kind) {
			case EV_MODULE:
				return xasprintf("module %s loaded", it->name);
			case EV_DRIVER:
				return xasprintf("driver %s bound", it->name);
			case EV_DEVICE:
				if (as->ntraces > 0)
					goto traces;
				return xasprintf("device %s present",
				    it->name);
			case EV_MOUNT:
				return xasprintf("%s mounted on %s", it->name,
				    it->detail != NULL ? it->detail : "?");
			case EV_FS:
				if (as->ntraces > 0)
					goto traces;
				return xasprintf("filesystem %s registered",
				    it->name);
			case EV_CRYPTO:
				return xasprintf("crypto %s", it->name);
			default:
				break;
			}
		}
		if (k == 0 && as->ntraces > 0)
			break;
	}
traces:
	if (as->ntraces > 0)
		return xasprintf("%zu function%s traced", as->ntraces,
		    as->ntraces == 1 ? "" : "s");
	return NULL;
}

/* The value column as mconf shows it ("[*]", "<M>", "(42)"). */
static void
menu_draw_value(struct tui *t, struct tui_view *v, struct kc_menu *m,
    struct row *r, int el, int indent)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	int			 i = kc_sym_index(s), tri, vis, rev, pad;
	enum kc_type		 type = kc_sym_type(s);
	const char		*val;
	char			 ch;
	bool			 changeable;

	tri = tui_sym_tri(t, s);
	vis = t->snap->vis[i];
	rev = t->snap->rev[i];
	changeable = vis > rev;
	ch = tri == 2 ? '*' : tri == 1 ? 'M' : ' ';
	if (kc_sym_is_choice_value(s) && v->menu != NULL &&
	    kc_menu_kind(v->menu) == KC_MENU_CHOICE) {
		struct kc_symbol *cs = kc_sym_choice(s);
		int ci = kc_sym_index(cs);

		if (t->snap->tri[ci] == 2)
			row_addf(r, el, "(%c)",
			    t->snap->choice_sel[ci] == i ? 'X' : ' ');
		else
			row_addf(r, el, "<%c>", ch);
		row_addf(r, el, "%*c", indent + 1, ' ');
		return;
	}
	switch (type) {
	case KC_BOOL:
		if (kc_sym_is_choice(s) || changeable)
			row_addf(r, el, "[%c]", tri == 0 ? ' ' : '*');
		else
			row_addf(r, el, "-%c-", tri == 0 ? ' ' : '*');
		break;
	case KC_TRISTATE:
		if (changeable)
			row_addf(r, el, rev == 1 ? "{%c}" : "<%c>", ch);
		else
			row_addf(r, el, "-%c-", ch);
		break;
	case KC_INT:
	case KC_HEX:
	case KC_STRING:
		val = tui_sym_str(t, s);
		row_addf(r, el, "(%s)", val);
		pad = indent - (2 + (int)strlen(val)) + 4;
		row_addf(r, el, "%*c", pad > 0 ? pad : 1, ' ');
		return;
	default:
		row_add(r, el, "   ");
		break;
	}
	row_addf(r, el, "%*c", indent + 1, ' ');
}

static void
menu_draw(void *arg, struct tree *tr, const struct tree_line *l,
    bool selected, struct row *r, int width)
{
	struct tui_view		*v = arg;
	struct tui		*t = v->tui;
	struct mline		*ml = l->data;
	struct kc_menu		*m = ml->m;
	struct kc_symbol	*s = kc_menu_sym(m);
	const char		*prompt = kc_menu_prompt(m);
	int			 el = ml->invisible ? EL_INVISIBLE : EL_NORMAL;
	int			 indent = 2 * l->depth, start;
	char			*ev = NULL;

	(void)tr;
	if (prompt == NULL)
		prompt = "";
	menu_marks(t, s, el, r);
	start = r->n;
	switch (ml->kind) {
	case ML_MENU:
		row_addf(r, el, "   %*c%s", indent + 1, ' ', prompt);
		row_add(r, EL_ARROW, menu_is_empty(t, m) ? "  ----" :
		    "  --->");
		break;
	case ML_COMMENT:
		row_addf(r, ml->invisible ? el : EL_COMMENT, "   %*c*** %s ***",
		    indent + 1, ' ', prompt);
		break;
	case ML_TEXT:
	case ML_HEADER:
		row_addf(r, el, "---%*c%s", indent + 1, ' ', prompt);
		break;
	case ML_CHOICE: {
		int ci = kc_sym_index(s), sel = t->snap->choice_sel[ci];

		if (t->snap->vis[ci] > 0 && t->snap->vis[ci] >
		    t->snap->rev[ci] && kc_sym_type(s) == KC_TRISTATE)
			menu_draw_value(t, v, m, r, el, indent);
		else
			row_addf(r, el, "   %*c", indent + 1, ' ');
		row_add(r, el, prompt);
		if (t->snap->tri[ci] == 2 && sel >= 0) {
			struct kc_symbol *ss = kconfig_symbol(t->k, sel);
			struct kc_menu *sm = kc_sym_menu(ss);

			row_addf(r, el, " (%s)", sm != NULL &&
			    kc_menu_prompt(sm) != NULL ? kc_menu_prompt(sm) :
			    kc_sym_name(ss));
		}
		row_add(r, EL_ARROW, "  --->");
		break;
	}
	case ML_SYM:
		menu_draw_value(t, v, m, r, el, indent);
		row_add(r, el, prompt);
		if (kc_menu_kind(m) == KC_MENU_MENU)
			row_add(r, EL_ARROW, menu_is_empty(t, m) ? "  ----" :
			    "  --->");
		break;
	}
	if (s != NULL && kc_sym_name(s) != NULL && t->show_name &&
	    ml->kind != ML_HEADER)
		row_addf(r, EL_NAME, " (%s)", kc_sym_name(s));
	if (s != NULL && (ml->kind == ML_SYM || ml->kind == ML_CHOICE) &&
	    tui_sym_new(t, s))
		row_add(r, EL_NEW, " (NEW)");
	/* The strongest evidence, right-aligned where it fits. */
	if (s != NULL && (ev = menu_evidence_text(t, s)) != NULL) {
		int len = (int)strlen(ev);

		if (r->n + 2 + len <= width) {
			row_fit(r, el, width - len);
			row_add(r, EL_EV_ITEM, ev);
		}
		free(ev);
	}
	if (selected)
		row_paint(r, EL_SELECTED, start, width);
	(void)start;
}

static const char *
menu_text(void *arg, void *data)
{
	struct mline *ml = data;

	(void)arg;
	if (ml->kind == ML_HEADER || ml->kind == ML_TEXT)
		return NULL;
	return kc_menu_prompt(ml->m);
}

static const struct tree_ops menu_tree_ops = {
	menu_build, menu_draw, menu_text, free
};

/* The entry that shows m's line: the nearest menu, menuconfig, choice
 * or the root above it. */
static struct kc_menu *
menu_container(struct kc_menu *m)
{
	struct kc_menu *p;

	for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p)) {
		enum kc_menu_kind k = kc_menu_kind(p);

		if (kc_menu_parent(p) == NULL || k == KC_MENU_MENU ||
		    k == KC_MENU_CHOICE)
			return p;
	}
	return NULL;
}

char *
menu_location(struct tui *t, struct kc_menu *m)
{
	struct kc_menu	*chain[64], *p;
	struct strbuf	 sb;
	int		 n = 0, i;

	(void)t;
	for (p = menu_container(m); p != NULL && kc_menu_parent(p) != NULL &&
	    n < 64; p = menu_container(p))
		chain[n++] = p;
	strbuf_init(&sb);
	strbuf_adds(&sb, "Main menu");
	for (i = n - 1; i >= 0; i--) {
		strbuf_adds(&sb, t->ascii ? " > " : " \u203a ");
		strbuf_adds(&sb, kc_menu_prompt(chain[i]) != NULL ?
		    kc_menu_prompt(chain[i]) : "?");
	}
	return strbuf_detach(&sb);
}

static char *
menu_title(struct tui *t, struct tui_view *v)
{
	struct kc_menu *p;

	if (kc_menu_parent(v->menu) == NULL)
		return xstrdup("Main menu");
	p = v->menu;
	{
		char *loc = menu_location(t, p), *s;

		s = xasprintf("%s%s%s", loc, t->ascii ? " > " : " \u203a ",
		    kc_menu_prompt(p) != NULL ? kc_menu_prompt(p) : "?");
		free(loc);
		return s;
	}
}

/* Why m is not shown, in a phrase (core/explain: the same words as
 * explain's), or NULL when it is: the interface's snapshot says whether,
 * and only then the engine is asked why (the line under the cursor). */
char *
menu_invisible_reason(struct tui *t, struct kc_menu *m)
{
	if (tui_menu_visible(t, m))
		return NULL;
	return explain_hidden(t->k, m);
}

static void
menu_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	struct mline		*ml = tree_current_data(v->tree);
	struct kc_symbol	*s;
	char			*why, *ev;
	int			 vd;

	(void)width;
	if (ml == NULL)
		return;
	s = kc_menu_sym(ml->m);
	if (s != NULL && kc_sym_name(s) != NULL)
		row_addf(r, EL_NAME, "CONFIG_%s", kc_sym_name(s));
	else if (kc_menu_kind(ml->m) == KC_MENU_MENU)
		row_add(r, EL_NAME, "menu");
	else if (kc_menu_kind(ml->m) == KC_MENU_COMMENT)
		row_add(r, EL_NAME, "comment");
	if ((why = menu_invisible_reason(t, ml->m)) != NULL) {
		row_addf(r, EL_INVISIBLE, "  invisible: %s", why);
		free(why);
	} else if (s != NULL && kc_sym_name(s) != NULL &&
	    ml->kind != ML_HEADER) {
		/* Why it has its value, in a phrase (core/explain/explain.c). */
		why = explain_brief(t->k, s);
		if (why != NULL && *why != '\0')
			row_addf(r, EL_STATUS, "  %s", why);
		free(why);
	}
	vd = s != NULL && t->a != NULL && kc_sym_index(s) >= 0 ?
	    t->snap->verdict[kc_sym_index(s)] : WS_NO_VERDICT;
	if (s != NULL && review_is_candidate(t, s))
		row_add(r, EL_TRIM, "  suggested trim (t)");
	if (vd != WS_NO_VERDICT && (ev = menu_evidence_text(t, s)) != NULL) {
		row_addf(r, menu_verdict_el(vd), "  %s: %s",
		    verdict_name((enum verdict)vd), ev);
		free(ev);
	} else if (vd != WS_NO_VERDICT)
		row_addf(r, menu_verdict_el(vd), "  %s",
		    verdict_name((enum verdict)vd));
	/* Used on the recorded machine, off here. */
	if (vd == V_USED && tui_sym_tri(t, s) == 0)
		row_add(r, EL_ERROR, " (off here)");
	if (kc_menu_file(ml->m) != NULL)
		row_addf(r, EL_STATUS, "  %s:%d", kc_menu_file(ml->m),
		    kc_menu_line(ml->m));
}

/* Set a bool/tristate as the user asked; false when not possible. */
static bool
menu_set(struct tui *t, struct kc_symbol *s, int val)
{
	int	i = kc_sym_index(s);
	uint8_t	want = val == 0 ? WS_SET_N : val == 1 ? WS_SET_M : WS_SET_Y;

	if (!(t->snap->flags[i] & want)) {
		tui_message(t, EL_ERROR, "%s cannot be %c here",
		    kc_sym_name(s) != NULL ? kc_sym_name(s) : "this choice",
		    "nmy"[val]);
		return false;
	}
	if (!kc_sym_set_tristate(t->k, s, (enum kc_tri)val)) {
		tui_message(t, EL_ERROR, "%s: value %c refused",
		    kc_sym_name(s), "nmy"[val]);
		return false;
	}
	/* Show the new value at once; the worker brings the rest. */
	t->snap->tri[i] = (uint8_t)val;
	if (kc_sym_is_choice_value(s) && val == 2) {
		int ci = kc_sym_index(kc_sym_choice(s));
		t->snap->choice_sel[ci] = i;
	}
	tui_changed(t);
	return true;
}

/* Space: n -> m -> y -> n, skipping what is not settable. */
static bool
menu_cycle(struct tui *t, struct kc_symbol *s)
{
	int i = kc_sym_index(s), cur = tui_sym_tri(t, s), n, val;
	uint8_t f = t->snap->flags[i];

	for (n = 1; n <= 3; n++) {
		val = (cur + n) % 3;
		if (f & (val == 0 ? WS_SET_N : val == 1 ? WS_SET_M : WS_SET_Y))
			return menu_set(t, s, val);
	}
	tui_message(t, EL_ERROR, "%s cannot be changed here", kc_sym_name(s));
	return false;
}

/* The value typed for a string/int/hex symbol (arg). */
static void
menu_edit_done(struct tui *t, const char *text, void *arg)
{
	struct kc_symbol	*s = arg;
	struct kc_prop_info	 pi;
	int			 i;

	if (s == NULL || text == NULL)
		return;
	if (!kc_sym_set_string(t->k, s, text)) {
		for (i = 0; kc_sym_prop(s, i, &pi); i++) {
			if (pi.kind == KC_PROP_RANGE &&
			    kc_expr_eval(t->k, pi.cond) != KC_NO) {
				tui_message(t, EL_ERROR, "%s: %s is not in the "
				    "range %s..%s", kc_sym_name(s), text,
				    kc_sym_string(t->k, kc_expr_sym(pi.expr)),
				    kc_sym_string(t->k, kc_expr_sym2(pi.expr)));
				return;
			}
		}
		tui_message(t, EL_ERROR, "%s: invalid %s value: %s",
		    kc_sym_name(s), kc_sym_type(s) == KC_HEX ? "hex" :
		    kc_sym_type(s) == KC_INT ? "int" : "string", text);
		return;
	}
	free(t->snap->str[kc_sym_index(s)]);
	t->snap->str[kc_sym_index(s)] = xstrdup(text);
	tui_changed(t);
}

/* Enter on a line. */
static int
menu_enter(struct tui *t, struct mline *ml, enum tui_action act)
{
	struct kc_symbol	*s = kc_menu_sym(ml->m);
	enum kc_type		 type;

	if (ml->kind == ML_MENU || ml->kind == ML_CHOICE ||
	    (ml->kind == ML_SYM && kc_menu_kind(ml->m) == KC_MENU_MENU)) {
		menu_open(t, ml->m);
		return R_ALL;
	}
	if (act == A_OPEN || s == NULL || ml->kind == ML_HEADER)
		return R_NONE;
	if (ml->invisible) {
		tui_message(t, EL_ERROR, "not visible: cannot be changed");
		return R_LINES;
	}
	type = kc_sym_type(s);
	if (type == KC_INT || type == KC_HEX || type == KC_STRING) {
		char *p = xasprintf("%s (%s): ", kc_menu_prompt(ml->m),
		    type == KC_INT ? "int" : type == KC_HEX ? "hex" : "string");

		tui_ask(t, p, tui_sym_str(t, s), menu_edit_done, s);
		free(p);
		return R_LINES;
	}
	if (type == KC_BOOL || type == KC_TRISTATE) {
		if (kc_sym_is_choice_value(s))
			menu_set(t, s, 2);
		else
			menu_cycle(t, s);
		/* Enter in a choice's radio list picks and closes it, as
		 * mconf's; y and Space pick and stay. */
		if (act == A_ENTER && kc_sym_is_choice_value(s) &&
		    t->view->menu != NULL && kc_menu_kind(t->view->menu) ==
		    KC_MENU_CHOICE && t->view->prev != NULL) {
			tui_pop(t);
			return R_ALL;
		}
		return R_REBUILD;
	}
	return R_NONE;
}

static int
menu_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	struct mline		*ml = tree_current_data(v->tree);
	struct kc_symbol	*s;
	int			 val;

	if (ml == NULL)
		return -1;
	s = kc_menu_sym(ml->m);
	switch (act) {
	case A_ENTER:
	case A_OPEN:
		return menu_enter(t, ml, act);
	case A_SET_Y:
	case A_SET_M:
	case A_SET_N:
	case A_CYCLE:
		if (s == NULL || ml->kind == ML_HEADER ||
		    (kc_sym_type(s) != KC_BOOL &&
		    kc_sym_type(s) != KC_TRISTATE)) {
			if (act == A_CYCLE && s != NULL &&
			    ml->kind != ML_HEADER)
				return menu_enter(t, ml, A_ENTER);
			return R_NONE;
		}
		if (ml->invisible) {
			tui_message(t, EL_ERROR, "not visible: cannot be "
			    "changed");
			return R_LINES;
		}
		if (act == A_CYCLE) {
			if (kc_sym_is_choice_value(s))
				menu_set(t, s, 2);
			else
				menu_cycle(t, s);
			return R_REBUILD;
		}
		val = act == A_SET_Y ? 2 : act == A_SET_M ? 1 : 0;
		menu_set(t, s, val);
		return R_REBUILD;
	case A_HELP:
		help_open(t, ml->m);
		return R_ALL;
	case A_TRIM:
		/* On a candidate's line: the review at it (else where it
		 * was left). */
		return review_open_at(t, s);
	case A_ENABLE:
		if (s == NULL || ml->kind == ML_HEADER)
			return R_NONE;
		plan_open(t, s);
		return R_ALL;
	default:
		return -1;
	}
}

const struct tui_view_ops tui_menu_ops = {
	"menu", &menu_tree_ops, menu_title, menu_action, menu_info, NULL,
	NULL
};

struct tui_view *
menu_open(struct tui *t, struct kc_menu *m)
{
	return tui_push(t, &tui_menu_ops, m, NULL);
}

bool
menu_jump(struct tui *t, struct kc_menu *m)
{
	struct kc_menu	*chain[64], *p;
	int		 n = 0, i;

	for (p = menu_container(m); p != NULL && n < 64; p = menu_container(p))
		chain[n++] = p;
	/* Back to the main menu, then down the chain. */
	while (t->view != NULL && t->view->prev != NULL)
		tui_pop(t);
	if (!tui_menu_visible(t, m) && !t->show_all) {
		/* On for this jump only: off again at the main menu. */
		t->show_all = true;
		t->show_all_auto = true;
		tui_message(t, EL_STATUS, "show-all on: the option is "
		    "invisible (off again at the main menu)");
	}
	/* Each parent's cursor on the entry leading down: going back
	 * from the jump retraces it (not each menu's first line). */
	for (i = n - 2; i >= 0; i--) {
		tree_select_key(t->view->tree, chain[i]);
		menu_open(t, chain[i]);
	}
	return tree_select_key(t->view->tree, m);
}
