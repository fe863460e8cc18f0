/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-builtin.c - modules built in (`kctui export --builtin`): every
 * module the trim kept becomes y, and when no module is left, loadable
 * module support goes too (MODULES=n): one image, nothing to load. `make
 * localyesconfig` does the first half without a trim. Done by the engine,
 * as a user would in menuconfig, so the result is what conf accepts.
 */
#include <stdlib.h>
#include <string.h>

#include "../../kconfig-parser/kconfig.h"
#include "../../lib/util.h"
#include "export.h"

/* At most this many of the modules left are named (the report says how
 * many in all). */
#define BUILTIN_NAMES	8

/* Whether a symbol is a named tristate that is m now. */
static bool
builtin_is_m(struct kconfig *k, struct kc_symbol *s)
{
	return kc_sym_name(s) != NULL && kc_sym_type(s) == KC_TRISTATE &&
	    kc_sym_tristate(k, s) == KC_MOD;
}

/*
 * Make every m option of k y, in passes: a module limited to m by a
 * dependency that is m itself can be y once that one is, and a
 * promptless one selected by a module follows its selector. Then, with no
 * m left, MODULES=n. What stays m (a "depends on m", a selector that
 * could not be y) is counted and named in b->left, and keeps MODULES.
 */
void
export_builtin(struct kconfig *k, struct export_builtin *b)
{
	struct kc_symbol	*s, *mods;
	struct strbuf		 sb;
	bool			 inc = kconfig_incremental(k), progress;
	int			 i, n = kconfig_nsymbols(k);

	memset(b, 0, sizeof *b);
	/* Each set recomputes only what reads the symbol. */
	kconfig_set_incremental(k, true);
	do {
		progress = false;
		for (i = 0; i < n; i++) {
			s = kconfig_symbol(k, i);
			if (!builtin_is_m(k, s) || kc_sym_visible(k, s) ==
			    KC_NO || !kc_sym_set_tristate(k, s, KC_YES))
				continue;
			b->made_y++;
			progress = true;
		}
	} while (progress);
	kconfig_set_incremental(k, inc);
	kconfig_recalc(k);
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		s = kconfig_symbol(k, i);
		if (!builtin_is_m(k, s) || !kc_sym_is_written(k, s))
			continue;
		if (b->nleft++ < BUILTIN_NAMES)
			strbuf_addf(&sb, "%sCONFIG_%s", sb.len ? ", " : "",
			    kc_sym_name(s));
	}
	if (b->nleft > BUILTIN_NAMES)
		strbuf_addf(&sb, ", ... (%zu in all)", b->nleft);
	b->left = b->nleft != 0 ? strbuf_detach(&sb) : NULL;
	if (b->left == NULL)
		strbuf_free(&sb);
	if (b->nleft == 0 && (mods = kconfig_find(k, "MODULES")) != NULL &&
	    kc_sym_tristate(k, mods) != KC_NO) {
		b->modules_off = kc_sym_set_tristate(k, mods, KC_NO);
		kconfig_recalc(k);
	}
}
