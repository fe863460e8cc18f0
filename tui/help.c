/* SPDX-License-Identifier: GPL-2.0 */
/*
 * help.c - the help screen of an option: its help text, then what mconf's
 * "Symbol:" screen says (type, prompt, where it is defined, depends on,
 * selects, selected by, implied by), then the evidence. Sections are a
 * table so that more (the explanation of a value, the plan to enable an
 * option) slot in without touching the others. Shown in a pager
 * (pager.c).
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

static void	help_expr_terms(struct tui *, const struct kc_expr *,
		    struct strbuf *);

static const char *
help_type(enum kc_type t)
{
	switch (t) {
	case KC_BOOL: return "bool";
	case KC_TRISTATE: return "tristate";
	case KC_INT: return "int";
	case KC_HEX: return "hex";
	case KC_STRING: return "string";
	default: return "unknown";
	}
}

/* "Depends on: A [=y] && B [=m]"; for selects and implies, as mconf,
 * the value they give and one line per symbol that gives it. */
static void
help_expr(struct tui *t, struct strbuf *sb, const char *label,
    const struct kc_expr *e)
{
	if (e == NULL)
		return;
	if (strcmp(label, "Selected by") != 0 &&
	    strcmp(label, "Implied by") != 0) {
		strbuf_addf(sb, "  %s: ", label);
		explain_expr_values(t->k, e, sb);
		strbuf_addc(sb, '\n');
		return;
	}
	strbuf_addf(sb, "  %s [%c]:\n", label, "nmy"[kc_expr_eval(t->k, e)]);
	help_expr_terms(t, e, sb);
}

/* The terms of a top-level ||, one line each ("  - A [=y] && B [=n]"). */
static void
help_expr_terms(struct tui *t, const struct kc_expr *e, struct strbuf *sb)
{
	if (kc_expr_op(e) == KC_EXPR_OR) {
		help_expr_terms(t, kc_expr_left(e), sb);
		help_expr_terms(t, kc_expr_right(e), sb);
		return;
	}
	strbuf_adds(sb, "  - ");
	explain_expr_values(t->k, e, sb);
	strbuf_addc(sb, '\n');
}

char *
help_wrap(const char *text, int width, int indent)
{
	struct strbuf	 sb;
	const char	*p = text, *brk, *q;
	int		 col, first = 1, lead;

	strbuf_init(&sb);
	/* The text's own leading blanks stay on its first line. */
	for (lead = 0; p[lead] == ' '; lead++)
		;
	while (*p != '\0') {
		int avail = width - (first ? 0 : indent);

		if (!first)
			strbuf_addf(&sb, "%*s", indent, "");
		/* Cut at the last blank that fits (cells, not bytes). */
		brk = NULL;
		for (q = p, col = 0; *q != '\0'; q++) {
			if ((*q & 0xc0) != 0x80) {
				if (col == avail)
					break;
				col++;
			}
			if (*q == ' ' && q > p + (first ? lead : 0))
				brk = q;
		}
		if (*q == '\0' || brk == NULL)
			brk = q;
		strbuf_add(&sb, p, (size_t)(brk - p));
		strbuf_addc(&sb, '\n');
		p = brk;
		while (*p == ' ')
			p++;
		first = 0;
	}
	if (sb.len == 0)
		strbuf_addc(&sb, '\n');
	return strbuf_detach(&sb);
}

/* Wrap each line of text (lines end in \n) to width cells; a line's
 * continuation is indented 4 more than its own leading blanks
 * (malloc'd). */
char *
help_wrap_lines(const char *text, int width)
{
	struct strbuf	 sb;
	const char	*p = text, *nl;
	char		*line, *w;
	int		 lead;

	strbuf_init(&sb);
	while (*p != '\0') {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		line = xstrndup(p, (size_t)(nl - p));
		for (lead = 0; line[lead] == ' '; lead++)
			;
		w = help_wrap(line, width, lead + 4 < width / 2 ? lead + 4 :
		    lead);
		strbuf_adds(&sb, w);
		free(w);
		free(line);
		p = *nl == '\n' ? nl + 1 : nl;
	}
	if (sb.len == 0)
		strbuf_addc(&sb, '\n');
	return strbuf_detach(&sb);
}

/* Why it has its value, what blocks it, what depends on it: the plain
 * language of core/explain/explain.c (kctui explain), wrapped to the screen. */
static void
help_section_explain(struct tui *t, struct kc_menu *m, struct strbuf *sb)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	struct explain		*ex;
	size_t			 i;
	char			*line, *w;
	int			 width = t->width - 2 > 20 ? t->width - 2 : 20;

	if (s == NULL || kc_sym_name(s) == NULL)
		return;
	ex = explain_symbol_file(t->k, s, t->a, t->config_path);
	for (i = 0; i < ex->nlines; i++) {
		line = xasprintf("%*s%s", 2 * ex->lines[i].indent, "",
		    ex->lines[i].text);
		w = help_wrap(line, width, 2 * ex->lines[i].indent + 4);
		strbuf_adds(sb, w);
		free(w);
		free(line);
	}
	explain_free(ex);
	/* Off: say how to get it (not for what is on already). */
	if ((kc_sym_type(s) == KC_BOOL || kc_sym_type(s) == KC_TRISTATE) &&
	    kc_sym_index(s) >= 0 && t->snap->tri[kc_sym_index(s)] == 0)
		strbuf_adds(sb, "(E: how to turn it on)\n");
	strbuf_addc(sb, '\n');
}

/* The help text itself. */
static void
help_section_text(struct tui *t, struct kc_menu *m, struct strbuf *sb)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	const char		*h = kc_menu_help(m);

	(void)t;
	strbuf_adds(sb, "Help:\n");
	if (h == NULL && s != NULL)
		h = kc_sym_help(s);
	if (h == NULL) {
		strbuf_adds(sb, "There is no help available for this "
		    "option.\n");
		return;
	}
	strbuf_adds(sb, h);
	if (*h != '\0' && h[strlen(h) - 1] != '\n')
		strbuf_addc(sb, '\n');
}

/* mconf's symbol information. */
static void
help_section_symbol(struct tui *t, struct kc_menu *m, struct strbuf *sb)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	struct kc_prop_info	 pi;
	char			*loc, *e;
	int			 i;

	strbuf_addc(sb, '\n');
	if (s != NULL && kc_sym_name(s) != NULL) {
		strbuf_addf(sb, "Symbol: %s [=%s]\n", kc_sym_name(s),
		    kc_sym_string(t->k, s));
		strbuf_addf(sb, "Type  : %s\n", help_type(kc_sym_type(s)));
	} else if (s != NULL)
		strbuf_addf(sb, "Choice [%s]\n", help_type(kc_sym_type(s)));
	for (i = 0; s != NULL && kc_sym_prop(s, i, &pi); i++) {
		if (pi.kind == KC_PROP_PROMPT && pi.text != NULL)
			strbuf_addf(sb, "Prompt: %s\n", pi.text);
	}
	if (s == NULL && kc_menu_prompt(m) != NULL)
		strbuf_addf(sb, "%s: %s\n", kc_menu_kind(m) == KC_MENU_MENU ?
		    "Menu" : "Comment", kc_menu_prompt(m));
	loc = menu_location(t, m);
	strbuf_addf(sb, "  Location: %s\n", loc);
	free(loc);
	if (kc_menu_file(m) != NULL)
		strbuf_addf(sb, "  Defined at %s:%d\n", kc_menu_file(m),
		    kc_menu_line(m));
	if (s != NULL) {
		help_expr(t, sb, "Depends on", kc_sym_depends(s));
		for (i = 0; kc_sym_prop(s, i, &pi); i++) {
			if ((pi.kind != KC_PROP_SELECT &&
			    pi.kind != KC_PROP_IMPLY) || pi.target == NULL)
				continue;
			strbuf_addf(sb, "  %s %s [=%s]", pi.kind ==
			    KC_PROP_SELECT ? "Selects" : "Implies",
			    kc_sym_name(pi.target),
			    kc_sym_string(t->k, pi.target));
			if (pi.own_cond != NULL) {
				strbuf_adds(sb, " if ");
				explain_expr_values(t->k, pi.own_cond, sb);
			}
			strbuf_addc(sb, '\n');
		}
		help_expr(t, sb, "Selected by", kc_sym_selected_by(s));
		help_expr(t, sb, "Implied by", kc_sym_implied_by(s));
	} else {
		help_expr(t, sb, "Depends on", kc_menu_depends(m));
		help_expr(t, sb, "Visible if", kc_menu_visible_if(m));
	}
	if ((e = menu_invisible_reason(t, m)) != NULL) {
		strbuf_addf(sb, "  Invisible: %s\n", e);
		free(e);
	}
}

/* What the evidence says. */
static void
help_section_evidence(struct tui *t, struct kc_menu *m, struct strbuf *sb)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	const struct attrib_sym	*as;
	char			 buf[512];
	size_t			 i;

	if (t->a == NULL || s == NULL || kc_sym_name(s) == NULL)
		return;
	strbuf_addf(sb, "\nEvidence: %s", verdict_name(attrib_verdict(t->a,
	    kc_sym_name(s))));
	/* Used on the recorded machine, but off here: say it. */
	if (kc_sym_index(s) >= 0 && (kc_sym_type(s) == KC_BOOL ||
	    kc_sym_type(s) == KC_TRISTATE) &&
	    t->snap->tri[kc_sym_index(s)] == 0 &&
	    attrib_verdict(t->a, kc_sym_name(s)) == V_USED)
		strbuf_adds(sb, " on the recorded machine, but it is off in "
		    "this configuration");
	strbuf_addc(sb, '\n');
	if ((as = attrib_find(t->a, kc_sym_name(s))) == NULL)
		return;
	/* All of them, however many (the pager scrolls, / finds). */
	if (as->nrefs > 20)
		strbuf_addf(sb, "  (%zu items; / finds one)\n", as->nrefs);
	for (i = 0; i < as->nrefs; i++) {
		attrib_ref_format(&as->refs[i], buf, sizeof buf);
		strbuf_addf(sb, "  %s%s\n", buf, as->refs[i].direct ? "" :
		    " (directory)");
	}
}

/* The sections, in order. */
static void (*const help_sections[])(struct tui *, struct kc_menu *,
    struct strbuf *) = {
	help_section_explain,
	help_section_text,
	help_section_symbol,
	help_section_evidence,
};

char *
help_text(struct tui *t, struct kc_menu *m)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; i < sizeof help_sections / sizeof help_sections[0]; i++)
		help_sections[i](t, m, &sb);
	return strbuf_detach(&sb);
}

/* The section titles. */
static bool
help_heading(const char *s)
{
	return strncmp(s, "Symbol:", 7) == 0 ||
	    strncmp(s, "Evidence:", 9) == 0 || strcmp(s, "Help:") == 0 ||
	    (strncmp(s, "CONFIG_", 7) == 0 && strstr(s, " \u2014 ") != NULL);
}

/* Enter and q close it (Esc too, as every view); E opens the plan, ?
 * the key list; the value keys do nothing. */
static int
help_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	switch (act) {
	case A_ENTER:
	case A_QUIT:
		tui_pop(t);
		return R_ALL;
	case A_HELP:
		help_keys_open(t);
		return R_ALL;
	case A_ENABLE:
		if (kc_menu_sym(v->menu) != NULL)
			plan_open(t, kc_menu_sym(v->menu));
		return R_ALL;
	case A_SET_Y:
	case A_SET_M:
	case A_SET_N:
	case A_CYCLE:
	case A_ACCEPT:
	case A_REJECT:
		return R_NONE;
	default:
		return -1;
	}
}

/* How many lines, and the keys. */
static void
help_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	(void)t;
	(void)width;
	row_addf(r, EL_STATUS, "%d lines; arrows, Space/PgDn scroll, E how to "
	    "turn it on, ? keys, Enter/Esc/q close", tree_count(v->tree));
}

static const struct pager_ops help_pager_ops = {
	help_heading, help_action, help_info, NULL
};

void
help_open(struct tui *t, struct kc_menu *m)
{
	struct kc_symbol	*s = kc_menu_sym(m);
	char			*title, *text, *wrapped;

	if (s != NULL && kc_sym_name(s) != NULL)
		title = xasprintf("Help: %s", kc_sym_name(s));
	else
		title = xasprintf("Help: %s", kc_menu_prompt(m) != NULL ?
		    kc_menu_prompt(m) : "");
	/* Long lines (Selected by: ... of 40 symbols) wrap. */
	text = help_text(t, m);
	wrapped = help_wrap_lines(text, t->width > 20 ? t->width : 20);
	free(text);
	pager_open(t, &help_pager_ops, m, title, wrapped, NULL);
}

/* The key list's headings: its first line. */
static bool
keys_heading(const char *s)
{
	return strncmp(s, "Keys ", 5) == 0;
}

/* The key list closes with the keys that open or close things. */
static int
keys_list_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	(void)v;
	switch (act) {
	case A_ENTER:
	case A_HELP:
	case A_KEYS:
	case A_QUIT:
		tui_pop(t);
		return R_ALL;
	default:
		return -1;
	}
}

/* Its info line. */
static void
keys_list_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	(void)t;
	(void)v;
	(void)width;
	row_add(r, EL_STATUS, "Space/PgDn pages; q, Esc or Enter closes");
}

static const struct pager_ops keys_pager_ops = {
	keys_heading, keys_list_action, keys_list_info, NULL
};

bool
help_is_keys(struct tui_view *v)
{
	return pager_kind(v) == &keys_pager_ops;
}

/* F1, or ? where there is no option help: the key list (keys.c). */
void
help_keys_open(struct tui *t)
{
	char *text = keys_text(), *all, *wrapped;

	/* The signals the terminal sends (cbreak mode), then the prompts'
	 * editing keys; every line wrapped to the screen, none cut. */
	all = xasprintf("%s\n  C-c              ask to quit (C-c again: quit "
	    "without writing)\n  C-z              suspend (the shell's fg "
	    "resumes)\n  In prompts:      Left, Right, Home/C-a, End/C-e, "
	    "Backspace, Del/C-d, C-u, C-k, C-w edit the line; every write "
	    "waits for a y to a question naming the file\n", text);
	wrapped = help_wrap_lines(all, t->width > 20 ? t->width - 1 : 80);
	free(all);
	free(text);
	pager_open(t, &keys_pager_ops, NULL, xstrdup("Keys"), wrapped, NULL);
}

/* A text's heading: its first line (ends with ':'). */
static bool
text_heading(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && s[n - 1] == ':' && s[0] != ' ';
}

/* Enter and q close it; the rest as every view. */
static int
text_action(struct tui *t, struct tui_view *v, enum tui_action act)
{
	(void)v;
	if (act == A_ENTER || act == A_QUIT) {
		tui_pop(t);
		return R_ALL;
	}
	return -1;
}

static void
text_info(struct tui *t, struct tui_view *v, struct row *r, int width)
{
	(void)t;
	(void)width;
	row_addf(r, EL_STATUS, "%d lines; Space/PgDn pages; q, Esc or Enter "
	    "closes", tree_count(v->tree));
}

static const struct pager_ops text_pager_ops = {
	text_heading, text_action, text_info, NULL
};

/* A text in a pager, wrapped to the screen (title and text malloc'd,
 * taken over). */
void
help_text_open(struct tui *t, char *title, char *text)
{
	char *w = help_wrap_lines(text, t->width > 20 ? t->width : 20);

	free(text);
	pager_open(t, &text_pager_ops, NULL, title, w, NULL);
}
