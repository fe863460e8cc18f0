/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why a Kconfig symbol has its value, why it can't be changed,
 * what turning it off would also turn off, and what evidence says of it;
 * in sentences generated from the expression trees, as structured lines
 * that the CLI prints and the TUI's info pane shows.
 */
#ifndef KC_EXPLAIN_H
#define KC_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kconfig-parser/kconfig.h"

enum explain_kind {
	EXPLAIN_HEAD,		/* "CONFIG_E1000 — Intel(R) PRO/1000 ... (tristate)" */
	EXPLAIN_VALUE,		/* its value and the main reason */
	EXPLAIN_REASON,		/* a supporting sentence, indented under the previous */
	EXPLAIN_BLOCKER,	/* why it can't be changed (to what) */
	EXPLAIN_DEPENDENT,	/* what turning it off also turns off */
	EXPLAIN_SELECTS,	/* what it selects / implies */
	EXPLAIN_EVIDENCE,
	EXPLAIN_LOCATION	/* "Defined at drivers/net/Kconfig:12" (each definition) */
};

struct explain_line {
	enum explain_kind	 kind;
	int			 indent;	/* 0, 1, 2 ... */
	char			*text;		/* one sentence, no newline */
	const char		*file;		/* the Kconfig line it refers to, or NULL */
	int			 line;
	struct kc_symbol	*sym;		/* the symbol it mainly names (to jump to), or NULL */
};

struct explain {
	struct explain_line	*lines;
	size_t			 nlines;
	char			*config_name;	/* "c1": the file the user's
						   values are in, as named */
};

struct attrib;

/* Explain a symbol with the configuration's current values. The values
 * are left as they were (the dependents are computed on a saved copy).
 * attrib NULL: no evidence line. */
struct explain	*explain_symbol(struct kconfig *, struct kc_symbol *,
		     const struct attrib *);
/* The same, naming the configuration file (its last component) where
 * the user's values come from ("set by you in c1"); NULL: ".config".
 * The browser's help should pass the file it edits. */
struct explain	*explain_symbol_file(struct kconfig *, struct kc_symbol *,
		     const struct attrib *, const char *config_path);
void		 explain_free(struct explain *);

/* A short phrase for list views: "set by you", "default", "selected by
 * E1000E", "implied by X", "limited by D=m", "choice", "not visible:
 * needs PCI". malloc'd. */
char		*explain_brief(struct kconfig *, struct kc_symbol *);
/* Why a menu entry is not shown in a menuconfig, in a phrase: "depends
 * on A && !B" (the false conjuncts), "visible if X", "has no prompt",
 * "nothing visible inside" (a menu or choice), "not visible"; NULL when
 * it is shown. malloc'd. The browser's words for the line under the
 * cursor, its help and its search results. */
char		*explain_hidden(struct kconfig *, struct kc_menu *);

/* Why e is below want, in words, naming the symbols to change ("PCI is
 * n", "X86_32 is y", "NR_CPUS is 64, not above 512"). malloc'd; "" when
 * e already has the value. Shared with enable.c's refusals. */
char		*explain_why_low(struct kconfig *, const struct kc_expr *,
		     enum kc_tri want);

/*
 * An expression as menuconfig's help prints it, appended to sb: each
 * symbol with its value ("EXT3_FS [=n] && BLOCK [=y]"), a symbol no
 * Kconfig of this architecture defines by its name alone, a negation of
 * one symbol without parentheses ("!S390", "!X86_32 [=n]"), and the
 * parentheses precedence needs ("!(A [=y] || B [=n])", "(A || B) && C").
 * NULL is "y". The CLI's and the browser's one rendering.
 */
struct strbuf;
void		 explain_expr_values(struct kconfig *, const struct kc_expr *,
		     struct strbuf *);

/* A symbol's prompt property: "menuconfig" entries keep theirs as a
 * MENU property, as the kernel's parser does. */
#define EX_IS_PROMPT(kind) \
	((kind) == KC_PROP_PROMPT || (kind) == KC_PROP_MENU)

/* Whether the symbol has a prompt in any of its definitions. */
bool		 explain_has_prompt(const struct kc_symbol *);
/* "n", "m" or "y". */
const char	*explain_tri_name(enum kc_tri);
#endif
