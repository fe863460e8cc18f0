/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lexer.c - Kconfig tokens, with macro expansion where the kernel's lexer
 * does it: in words containing '$', in quoted strings, never in help text
 * or on the right of an assignment (the preprocessor expands that).
 *
 * Each source file is read whole into memory; a stack of them follows
 * "source". Tokens come from one function; a second stage, as in conf,
 * drops redundant ends of line, remembers where each statement started and
 * switches to assignment-value mode after "NAME =".
 */
#include <sys/stat.h>

#include <ctype.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "../lib/strmap.h"
#include "internal.h"
#include "lexer.h"
#include "preprocess.h"

struct lex_file {
	struct lex_file	*parent;
	const char	*name;		/* interned, as given */
	char		*buf;
	size_t		 len;
	size_t		 pos;
	int		 line;
	int		 include_line;	/* where the parent sourced us */
};

/* Where a file was first read from (the top file: no parent). */
struct lex_site {
	const char	*parent;
	int		 line;
};

enum lex_state { S_INITIAL, S_ASSIGN_VAL, S_HELP };

struct lexer {
	struct kconfig	*k;
	struct lex_file	*file;
	enum lex_state	 state;
	struct strbuf	 text;
	enum token	 prev, prev_prev;
	const char	*stmt_file;
	int		 stmt_line;
	bool		 fatal;
	/* Every file read, by interned name -> index + 1 into sites (7.1's
	 * repeated inclusion check, kc_rules.unique_source). */
	struct strmap	 seen;
	struct lex_site	*sites;
	size_t		 nsites, asites;
};

#define KW(s, t)	{ s, sizeof s - 1, t }
static const struct {
	const char	*name;
	size_t		 len;
	enum token	 token;
} keywords[] = {
	/* Sorted by name; lexer_keyword() compares the first letter first. */
	KW("bool", T_BOOL), KW("choice", T_CHOICE), KW("comment", T_COMMENT),
	KW("config", T_CONFIG), KW("def_bool", T_DEF_BOOL),
	KW("def_tristate", T_DEF_TRISTATE), KW("default", T_DEFAULT),
	KW("depends", T_DEPENDS), KW("endchoice", T_ENDCHOICE),
	KW("endif", T_ENDIF), KW("endmenu", T_ENDMENU), KW("help", T_HELP),
	KW("hex", T_HEX), KW("if", T_IF), KW("imply", T_IMPLY),
	KW("int", T_INT), KW("mainmenu", T_MAINMENU), KW("menu", T_MENU),
	KW("menuconfig", T_MENUCONFIG), KW("modules", T_MODULES),
	KW("on", T_ON), KW("optional", T_OPTIONAL), KW("prompt", T_PROMPT),
	KW("range", T_RANGE), KW("select", T_SELECT), KW("source", T_SOURCE),
	KW("string", T_STRING), KW("transitional", T_TRANSITIONAL),
	KW("tristate", T_TRISTATE),
	KW("visible", T_VISIBLE),
};

/* A printable name for a token, for syntax errors. */
const char *
token_name(enum token t)
{
	size_t i;

	for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
		if (keywords[i].token == t)
			return keywords[i].name;
	}
	switch (t) {
	case T_EOF:
		return "end of file";
	case T_EOL:
		return "end of line";
	case T_WORD:
		return "word";
	case T_WORD_QUOTE:
		return "string";
	case T_ASSIGN_VAL:
		return "value";
	case T_HELPTEXT:
		return "help text";
	case T_OR:
		return "'||'";
	case T_AND:
		return "'&&'";
	case T_EQUAL:
		return "'='";
	case T_UNEQUAL:
		return "'!='";
	case T_LESS:
		return "'<'";
	case T_LESS_EQUAL:
		return "'<='";
	case T_GREATER:
		return "'>'";
	case T_GREATER_EQUAL:
		return "'>='";
	case T_NOT:
		return "'!'";
	case T_OPEN_PAREN:
		return "'('";
	case T_CLOSE_PAREN:
		return "')'";
	case T_COLON_EQUAL:
		return "':='";
	case T_PLUS_EQUAL:
		return "'+='";
	default:
		return "token";
	}
}

/* Start a lexer with no input. */
struct lexer *
lexer_new(struct kconfig *k)
{
	struct lexer *lx = xcalloc(1, sizeof *lx);

	lx->k = k;
	lx->prev = lx->prev_prev = T_EOL;
	strbuf_init(&lx->text);
	strmap_init(&lx->seen);
	return lx;
}

/* Free the lexer and any files still open. */
void
lexer_free(struct lexer *lx)
{
	struct lex_file *f, *p;

	for (f = lx->file; f != NULL; f = p) {
		p = f->parent;
		free(f->buf);
		free(f);
	}
	strbuf_free(&lx->text);
	strmap_free(&lx->seen);
	free(lx->sites);
	free(lx);
}

/* Remember a file for auto.conf.cmd. */
static void
lexer_record_file(struct kconfig *k, const char *name)
{
	/* A file sourced twice is listed twice; it does no harm to a
	 * dependency list, and avoids a search per file. */
	XGROW(k->files, k->afiles, k->nfiles + 1, 256);
	k->files[k->nfiles++] = name;
}

/* Open name as conf does: as given, else below $srctree. */
static char *
lexer_open(struct lexer *lx, const char *name, size_t *lenp)
{
	const char	*srctree;
	char		*path, *buf;

	if ((buf = file_read_regular(name, lenp)) != NULL || name[0] == '/')
		return buf;
	srctree = pp_getenv(lx->k->pp, "srctree");
	if (srctree == NULL)
		return NULL;
	path = xasprintf("%s/%s", srctree, name);
	buf = file_read_regular(path, lenp);
	free(path);
	return buf;
}

/* Put a new file on top of the stack. */
static void
lexer_push(struct lexer *lx, const char *name, char *buf, size_t len)
{
	struct lex_file *f = xcalloc(1, sizeof *f);

	f->name = kc_intern(lx->k, name);
	f->buf = buf;
	f->len = len;
	f->line = 1;
	f->parent = lx->file;
	if (lx->file != NULL)
		f->include_line = lx->stmt_line;
	lx->file = f;
	lexer_record_file(lx->k, f->name);
	XGROW(lx->sites, lx->asites, lx->nsites + 1, 64);
	lx->sites[lx->nsites].parent = f->parent != NULL ? f->parent->name :
	    NULL;
	lx->sites[lx->nsites].line = f->include_line;
	lx->nsites++;
	strmap_set(&lx->seen, f->name, strlen(f->name),
	    (void *)(uintptr_t)lx->nsites);
}

/*
 * 7.1: a file may be read once. conf checks after opening the file and
 * after the recursion check, and names where it was first sourced.
 */
static bool
lexer_repeated(struct lexer *lx, const char *name)
{
	struct kconfig		*k = lx->k;
	const struct lex_site	*first;
	uintptr_t		 i;

	if (!k->rules.unique_source ||
	    (i = (uintptr_t)strmap_get(&lx->seen, name, strlen(name))) == 0)
		return false;
	first = &lx->sites[i - 1];
	kc_error(k, "%s:%d: error: repeated inclusion of %s (an error since "
	    "Linux 7.1; this tree is %d.%d)", lx->stmt_file, lx->stmt_line,
	    name, k->rules.version, k->rules.patchlevel);
	if (first->parent != NULL)
		kc_error(k, "%s:%d: note: location of first inclusion of %s",
		    first->parent, first->line, name);
	else
		kc_error(k, "note: %s is the top Kconfig file", name);
	lx->fatal = true;
	return true;
}

/* Open a sourced file, refusing recursive inclusion. */
int
lexer_push_file(struct lexer *lx, const char *name)
{
	struct kconfig	*k = lx->k;
	struct lex_file	*f;
	char		*buf;
	size_t		 len;

	for (f = lx->file; f != NULL; f = f->parent) {
		if (strcmp(f->name, name) != 0)
			continue;
		kc_error(k, "%s:%d: recursive inclusion of \"%s\"",
		    lx->stmt_file, lx->stmt_line, name);
		for (f = lx->file; f != NULL; f = f->parent) {
			if (f->parent != NULL)
				kc_error(k, "  %s included from %s:%d",
				    f->name, f->parent->name, f->include_line);
		}
		lx->fatal = true;
		return -1;
	}
	if ((buf = lexer_open(lx, name, &len)) == NULL) {
		if (lx->file == NULL)
			kc_error(k, "can't find file %s: %s", name,
			    strerror(errno));
		else
			kc_error(k, "%s:%d: can't open file \"%s\": %s",
			    lx->stmt_file, lx->stmt_line, name, strerror(errno));
		lx->fatal = true;
		return -1;
	}
	if (lexer_repeated(lx, name)) {
		free(buf);
		return -1;
	}
	lexer_push(lx, name, buf, len);
	return 0;
}

/* Put an in-memory file on top of the stack. */
void
lexer_push_buffer(struct lexer *lx, const char *name, const char *buf,
    size_t len)
{
	lexer_push(lx, name, xstrndup(buf, len), len);
}

/* Switch to help mode. */
void
lexer_start_help(struct lexer *lx)
{
	lx->state = S_HELP;
}

/* The file of the current statement. */
const char *
lexer_file(struct lexer *lx)
{
	return lx->stmt_file != NULL ? lx->stmt_file : "<none>";
}

/* The line of the current statement. */
int
lexer_line(struct lexer *lx)
{
	return lx->stmt_line;
}

/* Characters of a Kconfig word: [A-Za-z0-9_-]. A table, as this is the
 * lexer's inner loop. */
static const unsigned char word_chars[256] = {
	['-'] = 1, ['_'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
	['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
	['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
	['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
	['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
	['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
	['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
};

/* A character of a word token (the table above). */
static bool
is_word_char(int c)
{
	return word_chars[(unsigned char)c] != 0;
}

/* Copy of the rest of the current line, for the preprocessor, which works
 * on NUL-terminated text that ends where the line does. */
static char *
lexer_rest_of_line(struct lex_file *f)
{
	const char *s = f->buf + f->pos, *e = memchr(s, '\n', f->len - f->pos);

	return xstrndup(s, e != NULL ? (size_t)(e - s) : f->len - f->pos);
}

/* A preprocessor error ends the parse, as in conf. */
static enum token
lexer_pp_error(struct lexer *lx, char *cause)
{
	kc_error(lx->k, "%s", cause);
	free(cause);
	lx->fatal = true;
	return T_ERROR;
}

/* Lex a quoted string; the opening quote has been consumed. */
static enum token
lexer_string(struct lexer *lx, struct lex_file *f, char quote)
{
	char	*rest, *res, *cause = NULL;
	const char *p;
	char	 c;

	strbuf_reset(&lx->text);
	strbuf_adds(&lx->text, "");
	while (f->pos < f->len) {
		c = f->buf[f->pos];
		if (c == '$') {
			f->pos++;
			rest = lexer_rest_of_line(f);
			p = rest;
			pp_set_location(lx->k->pp, f->name, f->line);
			res = pp_expand_dollar(lx->k->pp, &p, &cause);
			if (res == NULL) {
				free(rest);
				return lexer_pp_error(lx, cause);
			}
			f->pos += (size_t)(p - rest);
			strbuf_adds(&lx->text, res);
			free(res);
			free(rest);
		} else if (c == '\\') {
			f->pos++;
			if (f->pos < f->len && f->buf[f->pos] != '\n')
				strbuf_addc(&lx->text, f->buf[f->pos++]);
		} else if (c == quote) {
			f->pos++;
			return T_WORD_QUOTE;
		} else if (c == '\n') {
			kc_warn(lx->k, "%s:%d:warning: multi-line strings not "
			    "supported", lexer_file(lx), lexer_line(lx));
			return T_WORD_QUOTE;
		} else {
			size_t s = f->pos;

			while (f->pos < f->len && f->buf[f->pos] != '$' &&
			    f->buf[f->pos] != '\\' && f->buf[f->pos] != quote &&
			    f->buf[f->pos] != '\n')
				f->pos++;
			strbuf_add(&lx->text, f->buf + s, f->pos - s);
		}
	}
	return T_WORD_QUOTE;
}

/* Columns of leading blanks, tabs to multiples of 8. */
static int
lexer_indent(const char *s, size_t n)
{
	size_t	i;
	int	ts = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\t')
			ts = (ts & ~7) + 8;
		else
			ts++;
	}
	return ts;
}

/*
 * Help text: lines indented at least as much as its first line, with that
 * indentation removed; it ends at a line indented less, or at a blank line
 * followed by an unindented one.
 */
static enum token
lexer_help(struct lexer *lx, struct lex_file *f)
{
	int	 first_ts = 0, last_ts = 0, ts;
	size_t	 s, e;
	char	*nl;

	strbuf_reset(&lx->text);
	strbuf_adds(&lx->text, "");
	while (f->pos < f->len) {
		/* leading blanks */
		s = f->pos;
		while (f->pos < f->len && (f->buf[f->pos] == ' ' ||
		    f->buf[f->pos] == '\t'))
			f->pos++;
		if (f->pos > s && f->pos < f->len && f->buf[f->pos] != '\n') {
			ts = lexer_indent(f->buf + s, f->pos - s);
			last_ts = ts;
			if (first_ts) {
				if (ts < first_ts)
					goto done;
				ts -= first_ts;
				if (ts > 0)
					strbuf_addf(&lx->text, "%*s", ts, "");
			}
		}
		if (f->pos >= f->len)
			break;
		if (f->buf[f->pos] == '\n') {
			f->pos++;
			f->line++;
			if (f->pos < f->len && f->buf[f->pos] != ' ' &&
			    f->buf[f->pos] != '\t' && f->buf[f->pos] != '\n')
				goto done;
			strbuf_addc(&lx->text, '\n');
			continue;
		}
		/* text up to the end of line, trailing blanks removed */
		nl = memchr(f->buf + f->pos, '\n', f->len - f->pos);
		e = nl != NULL ? (size_t)(nl - f->buf) : f->len;
		s = f->pos;
		f->pos = e;
		while (e > s && (f->buf[e - 1] == ' ' || f->buf[e - 1] == '\t'))
			e--;
		strbuf_add(&lx->text, f->buf + s, e - s);
		if (!first_ts)
			first_ts = last_ts;
	}
done:
	lx->state = S_INITIAL;
	return T_HELPTEXT;
}

/* Value of an assignment: the rest of the line after leading blanks. */
static enum token
lexer_assign_val(struct lexer *lx, struct lex_file *f)
{
	size_t s;

	while (f->pos < f->len && (f->buf[f->pos] == ' ' ||
	    f->buf[f->pos] == '\t'))
		f->pos++;
	if (f->pos >= f->len || f->buf[f->pos] == '\n') {
		if (f->pos < f->len) {
			f->pos++;
			f->line++;
		}
		lx->state = S_INITIAL;
		return T_EOL;
	}
	s = f->pos;
	while (f->pos < f->len && f->buf[f->pos] != '\n')
		f->pos++;
	strbuf_reset(&lx->text);
	strbuf_add(&lx->text, f->buf + s, f->pos - s);
	return T_ASSIGN_VAL;
}

/* A word with '$' in it: expand up to the end of the token. */
static enum token
lexer_expand_word(struct lexer *lx, struct lex_file *f, bool *skip)
{
	char		*rest, *res, *cause = NULL;
	const char	*p;

	rest = lexer_rest_of_line(f);
	p = rest;
	pp_set_location(lx->k->pp, f->name, f->line);
	res = pp_expand_token(lx->k->pp, &p, &cause);
	if (res == NULL) {
		free(rest);
		return lexer_pp_error(lx, cause);
	}
	f->pos += (size_t)(p - rest);
	free(rest);
	strbuf_reset(&lx->text);
	strbuf_adds(&lx->text, res);
	*skip = res[0] == '\0';
	free(res);
	return T_WORD;
}

/* The keyword a word is, or T_EOF. Words are mostly symbol names, so
 * reject on the first letter and the length before comparing. */
static enum token
lexer_keyword(const char *w, size_t n)
{
	size_t i;

	if (n < 2 || n > 12 || !islower((unsigned char)w[0]))
		return T_EOF;
	for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
		if (keywords[i].name[0] == w[0] && keywords[i].len == n &&
		    memcmp(keywords[i].name, w, n) == 0)
			return keywords[i].token;
	}
	return T_EOF;
}

/*
 * The first stage: one token from the current file. Long on purpose: it
 * is the scanner's one switch over the next character (operators, quotes,
 * words, macros, line ends), which reads best as a single table of cases.
 */
static enum token
lexer_scan(struct lexer *lx)
{
	struct lex_file	*f;
	size_t		 s;
	bool		 dollar, skip;
	enum token	 t;
	char		 c;

again:
	if ((f = lx->file) == NULL)
		return T_EOF;
	if (lx->state == S_HELP)
		return lexer_help(lx, f);
	if (f->pos >= f->len) {
		/* End of a file ends its statement. */
		lx->state = S_INITIAL;
		if (lx->prev != T_EOL && lx->prev != T_HELPTEXT)
			kc_warn(lx->k, "%s:%d:warning: no new line at end of "
			    "file", f->name, f->line);
		lx->file = f->parent;
		free(f->buf);
		free(f);
		if (lx->file == NULL && lx->prev == T_EOL)
			return T_EOF;
		return T_EOL;
	}
	if (lx->state == S_ASSIGN_VAL)
		return lexer_assign_val(lx, f);

	c = f->buf[f->pos];
	switch (c) {
	case '#':
		while (f->pos < f->len && f->buf[f->pos] != '\n')
			f->pos++;
		goto again;
	case ' ':
	case '\t':
		f->pos++;
		goto again;
	case '\\':
		if (f->pos + 1 < f->len && f->buf[f->pos + 1] == '\n') {
			f->pos += 2;
			f->line++;
			goto again;
		}
		break;
	case '\n':
		f->pos++;
		f->line++;
		return T_EOL;
	case '"':
	case '\'':
		f->pos++;
		return lexer_string(lx, f, c);
	case '|':
	case '&':
		if (f->pos + 1 < f->len && f->buf[f->pos + 1] == c) {
			f->pos += 2;
			return c == '|' ? T_OR : T_AND;
		}
		break;
	case '=':
		f->pos++;
		return T_EQUAL;
	case '!':
		if (f->pos + 1 < f->len && f->buf[f->pos + 1] == '=') {
			f->pos += 2;
			return T_UNEQUAL;
		}
		f->pos++;
		return T_NOT;
	case '<':
	case '>':
		f->pos++;
		if (f->pos < f->len && f->buf[f->pos] == '=') {
			f->pos++;
			return c == '<' ? T_LESS_EQUAL : T_GREATER_EQUAL;
		}
		return c == '<' ? T_LESS : T_GREATER;
	case '(':
		f->pos++;
		return T_OPEN_PAREN;
	case ')':
		f->pos++;
		return T_CLOSE_PAREN;
	case ':':
	case '+':
		if (f->pos + 1 < f->len && f->buf[f->pos + 1] == '=') {
			f->pos += 2;
			return c == ':' ? T_COLON_EQUAL : T_PLUS_EQUAL;
		}
		break;
	default:
		break;
	}

	if (is_word_char((unsigned char)c) || c == '$') {
		s = f->pos;
		dollar = false;
		while (f->pos < f->len && (is_word_char((unsigned char)
		    f->buf[f->pos]) || f->buf[f->pos] == '$')) {
			if (f->buf[f->pos] == '$')
				dollar = true;
			f->pos++;
		}
		if (dollar) {
			f->pos = s;
			t = lexer_expand_word(lx, f, &skip);
			if (t == T_WORD && skip)
				goto again;
			return t;
		}
		/* "transitional" is a keyword from 6.18 on, a word before. */
		if ((t = lexer_keyword(f->buf + s, f->pos - s)) != T_EOF &&
		    (t != T_TRANSITIONAL || lx->k->rules.transitional))
			return t;
		strbuf_reset(&lx->text);
		strbuf_add(&lx->text, f->buf + s, f->pos - s);
		return T_WORD;
	}

	kc_warn(lx->k, "%s:%d:warning: ignoring unsupported character '%c'",
	    f->name, f->line, c);
	f->pos++;
	goto again;
}

/* The second stage: what the parser sees. */
enum token
lexer_next(struct lexer *lx, const char **text)
{
	enum token t;

	if (lx->fatal)
		return T_ERROR;
	for (;;) {
		t = lexer_scan(lx);
		if (lx->fatal)
			return T_ERROR;
		if (lx->prev != T_EOL && lx->prev != T_HELPTEXT)
			break;
		if (t != T_EOL)
			break;
	}
	if (lx->prev == T_EOL || lx->prev == T_HELPTEXT) {
		/* First token of a statement: its location is the one
		 * messages about the statement give. */
		if (lx->file != NULL) {
			lx->stmt_file = lx->file->name;
			lx->stmt_line = lx->file->line;
		}
	}
	if (lx->prev_prev == T_EOL && lx->prev == T_WORD &&
	    (t == T_EQUAL || t == T_COLON_EQUAL || t == T_PLUS_EQUAL))
		lx->state = S_ASSIGN_VAL;
	lx->prev_prev = lx->prev;
	lx->prev = t;
	*text = lx->text.s != NULL ? lx->text.s : "";
	return t;
}
