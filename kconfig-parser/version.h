/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - every way the Kconfig language and conf's behaviour differ
 * between the kernel versions kctui follows, in one table.
 *
 * The tree's version (VERSION and PATCHLEVEL of its top Makefile) picks
 * the rules; the engine tests these flags, never a version number, so a
 * reader finds every version-dependent behaviour here.  Trees whose
 * version cannot be read get the 6.1 rules (the first kctui followed).
 * Verified against conf of 6.1, 6.12, 6.13, 6.18, 7.0 and 7.1; the versions in
 * between are where the kernel's history puts each change.
 */
#ifndef KC_VERSION_H
#define KC_VERSION_H

#include <stdbool.h>

struct kc_rules {
	int	 version;		/* 6 */
	int	 patchlevel;		/* 12 */

	/* 6.8: config reading is exact ("# " then CONFIG_, then exactly
	 * "is not set"; any other line is "unexpected data"). */
	bool	 strict_config_read;
	/* 6.8: a user value out of range, or of an invisible symbol,
	 * keeps its user flag after conf_read (no reset pass). */
	bool	 keep_user_values;
	/* 6.8: int/hex without a default are 0 / 0x0, not empty. */
	bool	 number_zero;
	/* before 6.9: "choice NAME". */
	bool	 named_choice;
	/* before 6.9: a choice takes its type from its first typed value
	 * (6.9 on: every choice is bool). */
	bool	 choice_type_from_values;
	/* before 6.10: "optional" in a choice. */
	bool	 optional_choice;
	/* 6.10: a choice value without a prompt, or with a default, or
	 * prompted outside its choice, is an error (was a warning). */
	bool	 strict_choice_values;
	/* before 6.11: tristate choices (a choice has a mode y/m/n and
	 * values may be m). */
	bool	 tristate_choice;
	/* 6.11: a choice is computed from its values' user values in
	 * priority order (the value read last first), not from a
	 * selection stored on the choice (sym_calc_choice of 6.11). */
	bool	 choice_priority;
	/* 6.9: a choice without a prompt is an error at its "choice" line
	 * (was a warning from menu_finalize). */
	bool	 choice_prompt_required;
	/* before 6.13: bool "text" may title a choice as prompt "text"
	 * does (6.13: only prompt; bool there is a syntax error). */
	bool	 choice_bool_prompt;
	/* 6.13: a menuconfig without a prompt, a second help text and a
	 * blank help text are errors (were warnings). */
	bool	 strict_help;
	/* 6.18: the "transitional" attribute: a symbol with no prompt and
	 * nothing but help, read from an old .config and never written; a
	 * symbol without a user value whose default is such a symbol with
	 * a user value takes the value it computed as its user value (so
	 * conf does not ask for it). */
	bool	 transitional;
	/* 7.0: "depends on X if Y", meaning X || (Y = n). */
	bool	 depends_if;
	/* 7.1: a Kconfig file sourced a second time is an error (was read
	 * again). */
	bool	 unique_source;
	/* 7.1: a choice value's prompt in any other entry is an error (was
	 * one only outside its choice group). */
	bool	 choice_prompt_one_entry;
	/* 6.9: the symbol table has 16384 buckets (generic hashtable),
	 * not 9973: the order conf walks all symbols in. */
	unsigned hash_size;
};

/* The newest kernel whose Kconfig and conf the rules follow. */
#define KC_RULES_NEWEST_VERSION		7
#define KC_RULES_NEWEST_PATCHLEVEL	1

/* Whether the rules are for a tree newer than that (syntax errors then
 * say so). */
bool	kc_rules_beyond(const struct kc_rules *);
/* The rules of version.patchlevel. */
void	kc_rules_for(struct kc_rules *, int version, int patchlevel);
/* VERSION and PATCHLEVEL of a kernel Makefile; -1 if unreadable. */
int	kc_rules_read_makefile(const char *path, int *version,
	    int *patchlevel);

#endif
