/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parser.c - the Kconfig grammar (kconfig-language.rst), by recursive
 * descent, building menu entries, symbols and properties.
 *
 * Errors are reported with the location of the statement and the parse
 * goes on after the end of that line, as conf's yacc parser recovers, so
 * one run lists every error; the caller fails if there was any.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lexer.h"
#include "preprocess.h"

struct parser {
	struct kconfig	 *k;
	struct lexer	 *lx;
	enum token	  tok;
	const char	 *text;		/* the current token's text, owned by
					   the lexer until the next token */
	struct kc_menu	 *entry;	/* current_entry */
	struct kc_menu	 *menu;		/* current_menu */
	struct kc_menu	**last;		/* where the next entry goes */
	const char	 *sfile;	/* where the statement started */
	int		  sline;
	bool		  beyond_noted;	/* kc_rules_beyond() said once */
};

/* Remember the location of the statement that starts at this token. */
static void
parse_mark(struct parser *p)
{
	p->sfile = lexer_file(p->lx);
	p->sline = lexer_line(p->lx);
}

/* Report an error at the current statement. */
static void __attribute__((format(printf, 2, 3)))
parse_error(struct parser *p, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	kc_error(p->k, "%s:%d: %s", p->sfile, p->sline, msg);
	free(msg);
	/* A tree newer than every rule kctui has: its Kconfig may have a
	 * construct kctui does not know, which is what this error may be.
	 * Said once, after the first error. */
	if (!p->beyond_noted && kc_rules_beyond(&p->k->rules)) {
		kc_error(p->k, "note: this tree is Linux %d.%d; kctui knows "
		    "the Kconfig language up to Linux %d.%d, so this may be "
		    "a construct added since", p->k->rules.version,
		    p->k->rules.patchlevel, KC_RULES_NEWEST_VERSION,
		    KC_RULES_NEWEST_PATCHLEVEL);
		p->beyond_noted = true;
	}
}

/* A construct the tree's kernel version no longer has: an error naming
 * the construct, the tree's version and the version that removed it. */
static void
parse_version_error(struct parser *p, const char *what, const char *gone)
{
	parse_error(p, "%s is not supported by Linux %d.%d's Kconfig "
	    "(removed in %s)", what, p->k->rules.version,
	    p->k->rules.patchlevel, gone);
}

/* A construct newer than the tree's kernel version: an error naming the
 * construct, the tree's version and the version that added it. */
static void
parse_newer_error(struct parser *p, const char *what, const char *since)
{
	parse_error(p, "%s is not supported by Linux %d.%d's Kconfig "
	    "(added in %s)", what, p->k->rules.version,
	    p->k->rules.patchlevel, since);
}

/* A warning at the current statement. */
static void __attribute__((format(printf, 2, 3)))
parse_warn(struct parser *p, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	kc_warn(p->k, "%s:%d: %s", p->sfile, p->sline, msg);
	free(msg);
}

/* Move to the next token. */
static void
parse_next(struct parser *p)
{
	p->tok = lexer_next(p->lx, &p->text);
}

/* Take the current token's text and move on. */
static char *
parse_take(struct parser *p)
{
	char *s = xstrdup(p->text);

	parse_next(p);
	return s;
}

/* After an error: skip the rest of the line. */
static void
parse_recover(struct parser *p)
{
	while (p->tok != T_EOL && p->tok != T_EOF && p->tok != T_ERROR)
		parse_next(p);
	if (p->tok == T_EOL)
		parse_next(p);
}

/* A syntax error in the current statement. */
static void
parse_syntax(struct parser *p, const char *what)
{
	/* After a fatal lexer or preprocessor error, that error is the one
	 * to report, not the statement it cut short. */
	if (p->tok == T_ERROR)
		return;
	parse_error(p, "%s: unexpected %s", what, token_name(p->tok));
	parse_recover(p);
}

/* Expect the end of a line. */
static bool
parse_eol(struct parser *p, const char *what)
{
	if (p->tok == T_EOL) {
		parse_next(p);
		return true;
	}
	if (p->tok == T_EOF)
		return true;
	parse_syntax(p, what);
	return false;
}

/* Add a property to the current entry (and its symbol). */
static struct kc_prop *
parse_add_prop(struct parser *p, enum kc_prop_type type, struct kc_expr *expr,
    struct kc_expr *dep)
{
	struct kc_prop	*prop, **pp;
	struct kc_menu	*m = p->entry;

	prop = arena_alloc(&p->k->arena, sizeof *prop);
	prop->type = type;
	prop->file = p->sfile;
	prop->line = p->sline;
	prop->menu = m;
	prop->expr = expr;
	prop->visible.expr = dep;
	prop->own_if = dep;
	if (m->sym != NULL) {
		for (pp = &m->sym->prop; *pp != NULL; pp = &(*pp)->next)
			;
		*pp = prop;
	}
	return prop;
}

/* Add a prompt; prompts of symbols also get the "visible if" of every
 * enclosing menu. */
static void
parse_add_prompt(struct parser *p, enum kc_prop_type type, const char *text,
    struct kc_expr *dep)
{
	struct kc_prop	*prop = parse_add_prop(p, type, NULL, dep);
	struct kc_menu	*m;
	char		*res = NULL, *cause = NULL;

	if (pp_has_future(text)) {
		if ((res = pp_resolve(p->k->pp, text, &cause)) == NULL) {
			kc_error(p->k, "%s", cause);
			free(cause);
		} else
			text = res;
	}

	if (isspace((unsigned char)*text)) {
		kc_warn(p->k, "%s:%d:warning: leading whitespace ignored",
		    prop->file, prop->line);
		while (isspace((unsigned char)*text))
			text++;
	}
	if (p->entry->prompt != NULL)
		kc_warn(p->k, "%s:%d:warning: prompt redefined", prop->file,
		    prop->line);
	if (type == P_PROMPT) {
		for (m = p->entry->parent; m != NULL; m = m->parent) {
			if (m->visibility != NULL)
				prop->visible.expr = expr_alloc_and(p->k,
				    prop->visible.expr,
				    expr_copy(p->k, m->visibility));
		}
	}
	p->entry->prompt = prop;
	prop->text = arena_strdup(&p->k->arena, text);
	free(res);
}

/* Start a new menu entry (config, menu, comment, choice, if). */
static void
parse_add_entry(struct parser *p, struct kc_symbol *sym)
{
	struct kc_menu *m = arena_alloc(&p->k->arena, sizeof *m);

	m->sym = sym;
	m->parent = p->menu;
	m->file = p->sfile;
	m->line = p->sline;
	*p->last = m;
	p->last = &m->next;
	p->entry = m;
	if (sym != NULL) {
		if (sym->menu == NULL)
			sym->menu = m;
		parse_add_prop(p, P_SYMBOL, expr_alloc_symbol(p->k, sym), NULL);
	}
}

/* Make the current entry the parent of the entries that follow. */
static struct kc_menu *
parse_begin_menu(struct parser *p)
{
	p->last = &p->entry->list;
	p->menu = p->entry;
	return p->menu;
}

/* Close the current menu. */
static void
parse_end_menu(struct parser *p)
{
	p->last = &p->menu->next;
	p->menu = p->menu->parent;
}

/* Give the current entry's symbol a type. */
static void
parse_set_type(struct parser *p, enum kc_type type)
{
	struct kc_symbol *sym = p->entry->sym;

	if (sym->type == type)
		return;
	if (sym->type == KC_UNKNOWN) {
		sym->type = type;
		return;
	}
	kc_warn(p->k, "%s:%d:warning: ignoring type redefinition of '%s' from "
	    "'%s' to '%s'", p->entry->file, p->entry->line,
	    sym->name ? sym->name : "<choice>", sym_type_name(sym->type),
	    sym_type_name(type));
}

static struct kc_expr *parse_expr(struct parser *);

/*
 * The symbol a word names. A word holding the placeholder of a $(shell)
 * command still running gets a pending symbol, replaced by the real one
 * when the parse ends (parse_resolve_pending), so probes run in parallel
 * with parsing; where the name is needed now (a definition), we wait.
 */
static struct kc_symbol *
parse_lookup(struct parser *p, const char *name, int flags, bool defer)
{
	struct kc_symbol	*sym;
	char			*res, *cause = NULL;
	int			 i;

	if (!pp_has_future(name))
		return sym_lookup(p->k, name, flags);
	if (defer) {
		for (i = 0; i < p->k->npending; i++) {
			sym = p->k->pending[i];
			if (strcmp(sym->name, name) == 0 &&
			    (sym->flags & ~SYM_PENDING) == flags)
				return sym;
		}
		sym = sym_lookup(p->k, NULL, 0);
		sym->name = kc_intern(p->k, name);
		sym->flags = SYM_PENDING | flags;
		p->k->pending = xrealloc(p->k->pending,
		    (size_t)(p->k->npending + 1) * sizeof *p->k->pending);
		p->k->pending[p->k->npending++] = sym;
		return sym;
	}
	if ((res = pp_resolve(p->k->pp, name, &cause)) == NULL) {
		kc_error(p->k, "%s", cause);
		free(cause);
		return sym_lookup(p->k, name, flags);
	}
	sym = sym_lookup(p->k, res, flags);
	free(res);
	return sym;
}

/* symbol: a word (an ordinary symbol) or a quoted string (a constant). */
static struct kc_symbol *
parse_symbol(struct parser *p)
{
	struct kc_symbol	*sym;
	int			 flags;

	if (p->tok != T_WORD && p->tok != T_WORD_QUOTE)
		return NULL;
	flags = p->tok == T_WORD_QUOTE ? SYM_CONST : 0;
	sym = parse_lookup(p, p->text, flags, true);
	parse_next(p);
	return sym;
}

/* primary: symbol [op symbol] | '(' expr ')' | '!' primary */
static struct kc_expr *
parse_primary(struct parser *p)
{
	struct kc_symbol	*s1, *s2;
	struct kc_expr		*e;
	enum kc_expr_type	 type;

	switch (p->tok) {
	case T_OPEN_PAREN:
		parse_next(p);
		if ((e = parse_expr(p)) == NULL)
			return NULL;
		if (p->tok != T_CLOSE_PAREN)
			return NULL;
		parse_next(p);
		return e;
	case T_NOT:
		parse_next(p);
		if ((e = parse_primary(p)) == NULL)
			return NULL;
		return expr_alloc_one(p->k, E_NOT, e);
	case T_WORD:
	case T_WORD_QUOTE:
		s1 = parse_symbol(p);
		switch (p->tok) {
		case T_EQUAL:
			type = E_EQUAL;
			break;
		case T_UNEQUAL:
			type = E_UNEQUAL;
			break;
		case T_LESS:
			type = E_LTH;
			break;
		case T_LESS_EQUAL:
			type = E_LEQ;
			break;
		case T_GREATER:
			type = E_GTH;
			break;
		case T_GREATER_EQUAL:
			type = E_GEQ;
			break;
		default:
			return expr_alloc_symbol(p->k, s1);
		}
		parse_next(p);
		if ((s2 = parse_symbol(p)) == NULL)
			return NULL;
		return expr_alloc_comp(p->k, type, s1, s2);
	default:
		return NULL;
	}
}

/* and: primary ('&&' primary)* */
static struct kc_expr *
parse_and(struct parser *p)
{
	struct kc_expr *e, *r;

	if ((e = parse_primary(p)) == NULL)
		return NULL;
	while (p->tok == T_AND) {
		parse_next(p);
		if ((r = parse_primary(p)) == NULL)
			return NULL;
		e = expr_alloc_two(p->k, E_AND, e, r);
	}
	return e;
}

/* expr: and ('||' and)* */
static struct kc_expr *
parse_expr(struct parser *p)
{
	struct kc_expr *e, *r;

	if ((e = parse_and(p)) == NULL)
		return NULL;
	while (p->tok == T_OR) {
		parse_next(p);
		if ((r = parse_and(p)) == NULL)
			return NULL;
		e = expr_alloc_two(p->k, E_OR, e, r);
	}
	return e;
}

/* [ 'if' expr ]; *ok is cleared on a syntax error. */
static struct kc_expr *
parse_if_expr(struct parser *p, bool *ok)
{
	struct kc_expr *e;

	*ok = true;
	if (p->tok != T_IF)
		return NULL;
	parse_next(p);
	if ((e = parse_expr(p)) == NULL)
		*ok = false;
	return e;
}

/* "help" EOL text */
static void
parse_help(struct parser *p)
{
	struct kc_menu	*m = p->entry;
	const char	*name;
	bool		 again, blank;

	parse_next(p);			/* help */
	if (p->tok != T_EOL) {
		parse_syntax(p, "help");
		return;
	}
	lexer_start_help(p->lx);
	parse_next(p);
	if (p->tok != T_HELPTEXT) {
		parse_syntax(p, "help");
		return;
	}
	name = m->sym && m->sym->name ? m->sym->name : "<choice>";
	again = m->help != NULL;
	blank = p->text[strspn(p->text, " \f\n\r\t\v")] == '\0';
	m->help = arena_strdup(&p->k->arena, p->text);
	if (!p->k->rules.strict_help) {
		if (again)
			parse_warn(p, "warning: '%s' defined with more than one "
			    "help text -- only the last one will be used", name);
		if (blank)
			parse_warn(p, "warning: '%s' defined with blank help "
			    "text", name);
		parse_next(p);
		return;
	}
	/* 6.13: errors, which conf reports where the next statement
	 * starts (the parser's lookahead). */
	parse_next(p);
	parse_mark(p);
	if (again)
		parse_error(p, "'%s' defined with more than one help text",
		    name);
	if (blank)
		parse_error(p, "'%s' defined with blank help text", name);
}

/* "depends on" expr ["if" expr] EOL; "depends on X if Y" (7.0) is
 * X || (Y = n), with Y = n built as the kernel builds it. */
static void
parse_depends(struct parser *p)
{
	struct kc_expr	*e, *cond;
	bool		 ok;

	parse_next(p);
	if (p->tok != T_ON) {
		parse_syntax(p, "depends");
		return;
	}
	parse_next(p);
	if ((e = parse_expr(p)) == NULL) {
		parse_syntax(p, "depends on");
		return;
	}
	if (p->tok == T_IF && !p->k->rules.depends_if) {
		parse_newer_error(p, "'depends on ... if' (a conditional "
		    "dependency)", "7.0");
		parse_recover(p);
		return;
	}
	cond = parse_if_expr(p, &ok);
	if (!ok) {
		parse_syntax(p, "depends on");
		return;
	}
	if (!parse_eol(p, "depends on"))
		return;
	if (cond != NULL)
		e = expr_alloc_two(p->k, E_OR, e,
		    expr_alloc_is_no(p->k, cond, false));
	p->entry->dep = expr_alloc_and(p->k, p->entry->dep, e);
}

/* A type keyword as a symbol type, or KC_UNKNOWN. */
static enum kc_type
parse_type_token(enum token t)
{
	switch (t) {
	case T_BOOL:
		return KC_BOOL;
	case T_TRISTATE:
		return KC_TRISTATE;
	case T_INT:
		return KC_INT;
	case T_HEX:
		return KC_HEX;
	case T_STRING:
		return KC_STRING;
	default:
		return KC_UNKNOWN;
	}
}

/* type [prompt [if expr]] EOL */
static bool
parse_type_option(struct parser *p, bool logic_only)
{
	enum kc_type	 type = parse_type_token(p->tok);
	struct kc_expr	*dep;
	char		*prompt;
	bool		 ok;

	if (logic_only && type != KC_BOOL && type != KC_TRISTATE)
		return false;
	parse_next(p);
	if (p->tok == T_WORD_QUOTE) {
		prompt = parse_take(p);
		dep = parse_if_expr(p, &ok);
		if (!ok) {
			free(prompt);
			parse_syntax(p, "prompt");
			return true;
		}
		parse_add_prompt(p, P_PROMPT, prompt, dep);
		free(prompt);
	}
	if (parse_eol(p, sym_type_name(type)))
		parse_set_type(p, type);
	return true;
}

/* prompt "text" [if expr] EOL */
static void
parse_prompt_option(struct parser *p)
{
	struct kc_expr	*dep;
	char		*prompt;
	bool		 ok;

	parse_next(p);
	if (p->tok != T_WORD_QUOTE) {
		parse_syntax(p, "prompt");
		return;
	}
	prompt = parse_take(p);
	dep = parse_if_expr(p, &ok);
	if (!ok) {
		free(prompt);
		parse_syntax(p, "prompt");
		return;
	}
	if (parse_eol(p, "prompt"))
		parse_add_prompt(p, P_PROMPT, prompt, dep);
	free(prompt);
}

/* The options of a config/menuconfig entry. Returns at the first token
 * that is not one. */
static void
parse_config_options(struct parser *p)
{
	struct kc_symbol	*sym;
	struct kc_expr		*e, *dep, *e2;
	struct kc_symbol	*s1, *s2;
	enum kc_type		 type;
	enum kc_prop_type	 ptype;
	bool			 ok;

	for (;;) {
		parse_mark(p);
		switch (p->tok) {
		case T_BOOL:
		case T_TRISTATE:
		case T_INT:
		case T_HEX:
		case T_STRING:
			parse_type_option(p, false);
			break;
		case T_PROMPT:
			parse_prompt_option(p);
			break;
		case T_DEFAULT:
		case T_DEF_BOOL:
		case T_DEF_TRISTATE:
			type = p->tok == T_DEF_BOOL ? KC_BOOL :
			    p->tok == T_DEF_TRISTATE ? KC_TRISTATE : KC_UNKNOWN;
			parse_next(p);
			if ((e = parse_expr(p)) == NULL) {
				parse_syntax(p, "default");
				break;
			}
			dep = parse_if_expr(p, &ok);
			if (!ok) {
				parse_syntax(p, "default");
				break;
			}
			if (!parse_eol(p, "default"))
				break;
			parse_add_prop(p, P_DEFAULT, e, dep);
			if (type != KC_UNKNOWN)
				parse_set_type(p, type);
			break;
		case T_SELECT:
		case T_IMPLY:
			ptype = p->tok == T_SELECT ? P_SELECT : P_IMPLY;
			parse_next(p);
			if (p->tok != T_WORD) {
				parse_syntax(p, prop_type_name(ptype));
				break;
			}
			sym = parse_lookup(p, p->text, 0, true);
			parse_next(p);
			dep = parse_if_expr(p, &ok);
			if (!ok) {
				parse_syntax(p, prop_type_name(ptype));
				break;
			}
			if (parse_eol(p, prop_type_name(ptype)))
				parse_add_prop(p, ptype,
				    expr_alloc_symbol(p->k, sym), dep);
			break;
		case T_RANGE:
			parse_next(p);
			if ((s1 = parse_symbol(p)) == NULL ||
			    (s2 = parse_symbol(p)) == NULL) {
				parse_syntax(p, "range");
				break;
			}
			dep = parse_if_expr(p, &ok);
			if (!ok) {
				parse_syntax(p, "range");
				break;
			}
			e2 = expr_alloc_comp(p->k, E_RANGE, s1, s2);
			if (parse_eol(p, "range"))
				parse_add_prop(p, P_RANGE, e2, dep);
			break;
		case T_MODULES:
			parse_next(p);
			if (!parse_eol(p, "modules"))
				break;
			if (p->k->modules_sym != NULL)
				parse_error(p, "symbol '%s' redefines option "
				    "'modules' already defined by symbol '%s'",
				    p->entry->sym->name,
				    p->k->modules_sym->name);
			p->k->modules_sym = p->entry->sym;
			break;
		case T_DEPENDS:
			parse_depends(p);
			break;
		case T_HELP:
			parse_help(p);
			break;
		case T_TRANSITIONAL:	/* a keyword from 6.18 on */
			parse_next(p);
			if (parse_eol(p, "transitional"))
				p->entry->sym->flags |= SYM_TRANS;
			break;
		case T_WORD:
			/* Before 6.18 "transitional" is a word, and conf
			 * an unknown statement there. */
			if (strcmp(p->text, "transitional") != 0)
				return;
			parse_newer_error(p, "the 'transitional' attribute",
			    "6.18");
			parse_recover(p);
			break;
		default:
			return;
		}
		if (p->tok == T_ERROR)
			return;
	}
}

/* config NAME / menuconfig NAME, with its options. */
static void
parse_config(struct parser *p)
{
	bool			 menuconfig = p->tok == T_MENUCONFIG;
	struct kc_symbol	*sym;

	parse_next(p);
	if (p->tok != T_WORD) {
		parse_syntax(p, menuconfig ? "menuconfig" : "config");
		return;
	}
	sym = parse_lookup(p, p->text, 0, false);
	parse_next(p);
	if (p->tok != T_EOL && p->tok != T_EOF) {
		parse_syntax(p, menuconfig ? "menuconfig" : "config");
		return;
	}
	sym->flags |= SYM_OPTIONAL;
	parse_add_entry(p, sym);
	parse_eol(p, "config");
	parse_config_options(p);
	if (menuconfig) {
		if (p->entry->prompt != NULL)
			p->entry->prompt->type = P_MENU;
		else if (p->k->rules.strict_help)
			parse_error(p, "menuconfig statement without prompt");
		else
			parse_warn(p, "warning: menuconfig statement without "
			    "prompt");
	}
}

/* depends on / visible if, for menus and comments. */
static void
parse_menu_options(struct parser *p, bool visible)
{
	struct kc_expr	*e;
	bool		 ok;

	for (;;) {
		parse_mark(p);
		if (p->tok == T_DEPENDS)
			parse_depends(p);
		else if (visible && p->tok == T_VISIBLE) {
			parse_next(p);
			e = parse_if_expr(p, &ok);
			if (!ok) {
				parse_syntax(p, "visible");
				continue;
			}
			if (parse_eol(p, "visible"))
				p->entry->visibility = expr_alloc_and(p->k,
				    p->entry->visibility, e);
		} else
			return;
		if (p->tok == T_ERROR)
			return;
	}
}

static void parse_stmt_list(struct parser *, bool in_choice);

/* The end of a block: endmenu, endchoice or endif, matching what opened
 * it, in the same file. */
static void
parse_block_end(struct parser *p, struct kc_menu *block, const char *expect)
{
	const char	*got;
	const char	*file;
	int		 line;

	if (p->tok == T_EOF || p->tok == T_ERROR) {
		if (p->tok == T_EOF)
			kc_error(p->k, "%s:%d: missing end statement for this "
			    "entry (expected 'end%s')", block->file,
			    block->line, expect);
		if (p->menu == block)
			parse_end_menu(p);
		return;
	}
	got = p->tok == T_ENDMENU ? "menu" : p->tok == T_ENDCHOICE ?
	    "choice" : "if";
	file = lexer_file(p->lx);
	line = lexer_line(p->lx);
	parse_next(p);
	if (!parse_eol(p, got))
		return;
	if (strcmp(got, expect) != 0) {
		kc_error(p->k, "%s:%d: unexpected 'end%s' within %s block",
		    file, line, got, expect);
		return;
	}
	if (p->menu->file != file) {
		kc_error(p->k, "%s:%d: 'end%s' in different file than '%s'",
		    file, line, got, expect);
		kc_error(p->k, "%s:%d: location of the '%s'", p->menu->file,
		    p->menu->line, expect);
		return;
	}
	parse_end_menu(p);
}

/* choice [NAME] ... endchoice */
static void
parse_choice(struct parser *p)
{
	struct kc_symbol	*sym;
	struct kc_menu		*block;
	struct kc_expr		*dep;
	bool			 ok;

	parse_next(p);
	if (p->tok == T_WORD && !p->k->rules.named_choice) {
		parse_version_error(p, "named choice", "6.9");
		parse_next(p);
	}
	if (p->tok == T_WORD) {
		sym = parse_lookup(p, p->text, SYM_CHOICE, false);
		parse_next(p);
	} else
		sym = sym_lookup(p->k, NULL, SYM_CHOICE);
	sym->flags |= SYM_CHOICE | SYM_NO_WRITE;
	parse_add_entry(p, sym);
	parse_add_prop(p, P_CHOICE, NULL, NULL);
	if (!p->k->rules.choice_type_from_values)
		sym->type = KC_BOOL;	/* every choice is bool from 6.9 */
	if (!parse_eol(p, "choice"))
		return;
	for (;;) {
		parse_mark(p);
		switch (p->tok) {
		case T_PROMPT:
			parse_prompt_option(p);
			continue;
		case T_TRISTATE:
			if (!p->k->rules.tristate_choice) {
				parse_version_error(p, "tristate choice",
				    "6.11");
				parse_recover(p);
				continue;
			}
			/* FALLTHROUGH */
		case T_BOOL:
			if (p->tok == T_BOOL && !p->k->rules.choice_bool_prompt) {
				parse_version_error(p, "'bool' in a choice "
				    "(title it with 'prompt')", "6.13");
				parse_recover(p);
				continue;
			}
			parse_type_option(p, true);
			continue;
		case T_OPTIONAL:
			if (!p->k->rules.optional_choice) {
				parse_version_error(p, "optional choice",
				    "6.10");
				parse_recover(p);
				continue;
			}
			parse_next(p);
			if (parse_eol(p, "optional"))
				p->entry->sym->flags |= SYM_OPTIONAL;
			continue;
		case T_DEFAULT:
			parse_next(p);
			if (p->tok != T_WORD) {
				parse_syntax(p, "default");
				continue;
			}
			sym = parse_lookup(p, p->text, 0, true);
			parse_next(p);
			dep = parse_if_expr(p, &ok);
			if (!ok) {
				parse_syntax(p, "default");
				continue;
			}
			if (parse_eol(p, "default"))
				parse_add_prop(p, P_DEFAULT,
				    expr_alloc_symbol(p->k, sym), dep);
			continue;
		case T_DEPENDS:
			parse_depends(p);
			continue;
		case T_HELP:
			parse_help(p);
			continue;
		default:
			break;
		}
		break;
	}
	if (p->entry->prompt == NULL && p->k->rules.choice_prompt_required)
		kc_error(p->k, "%s:%d: error: choice must have a prompt",
		    p->entry->file, p->entry->line);
	block = parse_begin_menu(p);
	parse_stmt_list(p, true);
	parse_block_end(p, block, "choice");
}

/* if expr ... endif */
static void
parse_if(struct parser *p, bool in_choice)
{
	struct kc_menu	*block;
	struct kc_expr	*e;

	parse_next(p);
	if ((e = parse_expr(p)) == NULL) {
		parse_syntax(p, "if");
		return;
	}
	if (!parse_eol(p, "if"))
		return;
	parse_add_entry(p, NULL);
	p->entry->dep = expr_alloc_and(p->k, p->entry->dep, e);
	block = parse_begin_menu(p);
	parse_stmt_list(p, in_choice);
	parse_block_end(p, block, "if");
}

/* menu "text" ... endmenu */
static void
parse_menu(struct parser *p)
{
	struct kc_menu	*block;
	char		*text;

	parse_next(p);
	if (p->tok != T_WORD_QUOTE) {
		parse_syntax(p, "menu");
		return;
	}
	text = parse_take(p);
	if (!parse_eol(p, "menu")) {
		free(text);
		return;
	}
	parse_add_entry(p, NULL);
	parse_add_prompt(p, P_MENU, text, NULL);
	free(text);
	parse_menu_options(p, true);
	block = parse_begin_menu(p);
	parse_stmt_list(p, false);
	parse_block_end(p, block, "menu");
}

/* comment "text" [depends on ...] */
static void
parse_comment(struct parser *p)
{
	char *text;

	parse_next(p);
	if (p->tok != T_WORD_QUOTE) {
		parse_syntax(p, "comment");
		return;
	}
	text = parse_take(p);
	if (!parse_eol(p, "comment")) {
		free(text);
		return;
	}
	parse_add_entry(p, NULL);
	parse_add_prompt(p, P_COMMENT, text, NULL);
	free(text);
	parse_menu_options(p, false);
}

/* source "file": the file's statements come next. */
static void
parse_source(struct parser *p)
{
	char	*name, *resolved, *cause = NULL;

	parse_next(p);
	if (p->tok != T_WORD_QUOTE) {
		parse_syntax(p, "source");
		return;
	}
	name = xstrdup(p->text);
	parse_next(p);
	if (p->tok != T_EOL && p->tok != T_EOF) {
		free(name);
		parse_syntax(p, "source");
		return;
	}
	if (pp_has_future(name)) {
		resolved = pp_resolve(p->k->pp, name, &cause);
		free(name);
		if (resolved == NULL) {
			kc_error(p->k, "%s", cause);
			free(cause);
			p->tok = T_ERROR;
			return;
		}
		name = resolved;
	}
	/* The next token must come from the new file. */
	if (lexer_push_file(p->lx, name) != 0) {
		free(name);
		p->tok = T_ERROR;
		return;
	}
	free(name);
	parse_next(p);
}

/* NAME =|:=|+= value */
static void
parse_assignment(struct parser *p, char *name)
{
	enum pp_flavor	 flavor;
	char		*cause = NULL;
	const char	*value = "";

	flavor = p->tok == T_EQUAL ? PP_RECURSIVE : p->tok == T_COLON_EQUAL ?
	    PP_SIMPLE : PP_APPEND;
	parse_next(p);
	if (p->tok == T_ASSIGN_VAL) {
		value = p->text;
		pp_set_location(p->k->pp, lexer_file(p->lx), lexer_line(p->lx));
		if (pp_assign(p->k->pp, name, value, flavor, &cause) != 0) {
			kc_error(p->k, "%s", cause);
			free(cause);
			p->tok = T_ERROR;
			return;
		}
		parse_next(p);
	} else if (pp_assign(p->k->pp, name, "", flavor, &cause) != 0) {
		kc_error(p->k, "%s", cause);
		free(cause);
		p->tok = T_ERROR;
		return;
	}
	parse_eol(p, "assignment");
}

/* Statements until the end of a block or of the input. */
static void
parse_stmt_list(struct parser *p, bool in_choice)
{
	char *word;

	for (;;) {
		parse_mark(p);
		switch (p->tok) {
		case T_EOF:
		case T_ERROR:
		case T_ENDMENU:
		case T_ENDCHOICE:
		case T_ENDIF:
			return;
		case T_EOL:
			parse_next(p);
			continue;
		case T_CONFIG:
			parse_config(p);
			continue;
		case T_COMMENT:
			parse_comment(p);
			continue;
		case T_IF:
			parse_if(p, in_choice);
			continue;
		default:
			break;
		}
		if (in_choice) {
			parse_error(p, "invalid statement in a choice block: "
			    "%s", token_name(p->tok));
			parse_recover(p);
			continue;
		}
		switch (p->tok) {
		case T_MENUCONFIG:
			parse_config(p);
			break;
		case T_CHOICE:
			parse_choice(p);
			break;
		case T_MENU:
			parse_menu(p);
			break;
		case T_SOURCE:
			parse_source(p);
			break;
		case T_WORD:
			word = parse_take(p);
			if (p->tok == T_EQUAL || p->tok == T_COLON_EQUAL ||
			    p->tok == T_PLUS_EQUAL)
				parse_assignment(p, word);
			else {
				parse_error(p, "unknown statement \"%s\"", word);
				parse_recover(p);
			}
			free(word);
			break;
		default:
			parse_error(p, "invalid statement: unexpected %s",
			    token_name(p->tok));
			parse_recover(p);
			break;
		}
	}
}

/* The whole input: [mainmenu "text"] statements. */
static void
parse_input(struct parser *p)
{
	char *text;

	parse_next(p);
	parse_mark(p);
	if (p->tok == T_MAINMENU) {
		parse_next(p);
		if (p->tok != T_WORD_QUOTE)
			parse_syntax(p, "mainmenu");
		else {
			text = parse_take(p);
			if (parse_eol(p, "mainmenu"))
				parse_add_prompt(p, P_MENU, text, NULL);
			free(text);
		}
	}
	for (;;) {
		parse_stmt_list(p, false);
		if (p->tok == T_EOF || p->tok == T_ERROR)
			break;
		/* An end without a block. */
		parse_mark(p);
		parse_error(p, "invalid statement: '%s' without a block",
		    token_name(p->tok));
		parse_recover(p);
	}
}

/* Parse from the lexer's current input; 0 or -1. */
static int
parse_run(struct kconfig *k, struct lexer *lx)
{
	struct parser	 p;
	char		*cause = NULL;
	int		 errors = k->errors;

	memset(&p, 0, sizeof p);
	p.k = k;
	p.lx = lx;
	p.entry = p.menu = &k->root;
	p.last = &k->root.list;
	parse_input(&p);
	if (pp_wait_all(k->pp, &cause) != 0) {
		kc_error(k, "%s", cause);
		free(cause);
	}
	sym_resolve_pending(k);
	return k->errors != errors ? -1 : 0;
}

/* Parse a Kconfig file and everything it sources. */
int
parse_file(struct kconfig *k, const char *name)
{
	struct lexer	*lx = lexer_new(k);
	int		 ret = -1;

	if (lexer_push_file(lx, name) == 0)
		ret = parse_run(k, lx);
	lexer_free(lx);
	return ret;
}

/* Parse Kconfig text from memory. */
int
parse_buffer(struct kconfig *k, const char *name, const char *buf, size_t len)
{
	struct lexer	*lx = lexer_new(k);
	int		 ret;

	lexer_push_buffer(lx, name, buf, len);
	ret = parse_run(k, lx);
	lexer_free(lx);
	return ret;
}
