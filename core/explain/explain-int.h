/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain-int.h - what explain.c (the sentences) and explain-expr.c (a
 * false condition in words, the symbol to blame) share.
 */
#ifndef KC_EXPLAIN_INT_H
#define KC_EXPLAIN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kconfig-parser/kconfig.h"

/* Most symbols named in one list sentence before "and N more". */
#define EX_LIST_MAX	8
/* Most dependents listed one per line. */
#define EX_DEPENDENTS_MAX 12
/* Longest expression quoted verbatim in a sentence. */
#define EX_QUOTE_MAX	72
/* Cost of a symbol nobody can set (no prompt): prefer anything else. */
#define EX_COST_FIXED	50


/* explain.c: a symbol's name for sentences, its value as text, and
 * whether it is defined for this architecture (has a type). */
const char	*ex_name(const struct kc_symbol *);
const char	*ex_value(struct kconfig *, struct kc_symbol *);
bool		 ex_is_defined(const struct kc_symbol *);

/* explain-expr.c: the operands of nested ops of one kind (a && b && c)
 * appended to *v (grown with xrealloc, *n counting); the symbol to
 * blame for e being below want (*neg: it must be n), or NULL; the
 * first symbol a false condition names (to jump to). */
void		 ex_flatten(const struct kc_expr *, enum kc_expr_op,
		     const struct kc_expr ***v, size_t *n);
struct kc_symbol *ex_culprit(struct kconfig *, const struct kc_expr *,
		     enum kc_tri want, bool low, bool *neg);
struct kc_symbol *ex_first_culprit(struct kconfig *, const struct kc_expr *,
		     enum kc_tri want, bool low);
#endif
