/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lexer.h - Kconfig tokens (internal to kconfig-parser).
 */
#ifndef KC_LEXER_H
#define KC_LEXER_H

#include <stddef.h>

struct kconfig;

enum token {
	T_EOF, T_EOL, T_WORD, T_WORD_QUOTE, T_ASSIGN_VAL, T_HELPTEXT,
	T_BOOL, T_CHOICE, T_COMMENT, T_CONFIG, T_DEF_BOOL, T_DEF_TRISTATE,
	T_DEFAULT, T_DEPENDS, T_ENDCHOICE, T_ENDIF, T_ENDMENU, T_HELP, T_HEX,
	T_IF, T_IMPLY, T_INT, T_MAINMENU, T_MENU, T_MENUCONFIG, T_MODULES,
	T_ON, T_OPTIONAL, T_PROMPT, T_RANGE, T_SELECT, T_SOURCE, T_STRING,
	T_TRANSITIONAL, T_TRISTATE, T_VISIBLE,
	T_OR, T_AND, T_EQUAL, T_UNEQUAL, T_LESS, T_LESS_EQUAL, T_GREATER,
	T_GREATER_EQUAL, T_NOT, T_OPEN_PAREN, T_CLOSE_PAREN, T_COLON_EQUAL,
	T_PLUS_EQUAL,
	T_ERROR		/* fatal: the parse stops */
};

struct lexer;

struct lexer	*lexer_new(struct kconfig *);
void		 lexer_free(struct lexer *);
/* Open a file on top of the stack ("source"); -1 with the error already
 * reported through kc_error. */
int		 lexer_push_file(struct lexer *, const char *name);
void		 lexer_push_buffer(struct lexer *, const char *name,
		     const char *buf, size_t len);
/* Next token; *text is its string (owned by the lexer until the next
 * call) for words, strings, assignment values and help text. */
enum token	 lexer_next(struct lexer *, const char **text);
/* Switch to help-text mode (after "help" and its end of line). */
void		 lexer_start_help(struct lexer *);
/* Where the current statement started. */
const char	*lexer_file(struct lexer *);
int		 lexer_line(struct lexer *);
const char	*token_name(enum token);
#endif
