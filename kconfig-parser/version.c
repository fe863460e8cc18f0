/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.c - the version-dependent rules table (see version.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

/* At least version.patchlevel? */
static bool
kc_rules_since(int v, int p, int want_v, int want_p)
{
	return v > want_v || (v == want_v && p >= want_p);
}

/* Fill the table for one kernel version. */
void
kc_rules_for(struct kc_rules *r, int v, int p)
{
	memset(r, 0, sizeof *r);
	r->version = v;
	r->patchlevel = p;
	r->strict_config_read = kc_rules_since(v, p, 6, 8);
	r->keep_user_values = kc_rules_since(v, p, 6, 8);
	r->number_zero = kc_rules_since(v, p, 6, 8);
	r->named_choice = !kc_rules_since(v, p, 6, 9);
	r->choice_type_from_values = !kc_rules_since(v, p, 6, 9);
	r->optional_choice = !kc_rules_since(v, p, 6, 10);
	r->strict_choice_values = kc_rules_since(v, p, 6, 10);
	r->tristate_choice = !kc_rules_since(v, p, 6, 11);
	r->choice_priority = kc_rules_since(v, p, 6, 11);
	r->choice_prompt_required = kc_rules_since(v, p, 6, 9);
	r->choice_bool_prompt = !kc_rules_since(v, p, 6, 13);
	r->strict_help = kc_rules_since(v, p, 6, 13);
	r->transitional = kc_rules_since(v, p, 6, 18);
	r->depends_if = kc_rules_since(v, p, 7, 0);
	r->unique_source = kc_rules_since(v, p, 7, 1);
	r->choice_prompt_one_entry = kc_rules_since(v, p, 7, 1);
	r->hash_size = kc_rules_since(v, p, 6, 9) ? 16384 : 9973;
}

/* Newer than KC_RULES_NEWEST_*? */
bool
kc_rules_beyond(const struct kc_rules *r)
{
	return !kc_rules_since(KC_RULES_NEWEST_VERSION,
	    KC_RULES_NEWEST_PATCHLEVEL, r->version, r->patchlevel);
}

/* Read "VERSION = 6" and "PATCHLEVEL = 12" from a top Makefile. */
int
kc_rules_read_makefile(const char *path, int *version, int *patchlevel)
{
	FILE	*f;
	char	 line[256];
	int	 v = -1, p = -1, n, i;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	for (i = 0; i < 20 && fgets(line, sizeof line, f) != NULL; i++) {
		if (sscanf(line, "VERSION = %d", &n) == 1)
			v = n;
		else if (sscanf(line, "PATCHLEVEL = %d", &n) == 1)
			p = n;
	}
	fclose(f);
	if (v < 0 || p < 0)
		return -1;
	*version = v;
	*patchlevel = p;
	return 0;
}
