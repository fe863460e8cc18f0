/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_kbuild.c - libFuzzer target for the Kbuild Makefile reader: any
 * text, read as the Makefile of a directory (then again as a directory it
 * names, to exercise the inherited conds), must be indexed without a
 * crash, a hang or a leak. kbuild_new_empty has no tree, so include and
 * $(wildcard) read no files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/kbuild.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct kbuild_obj *const	*objs;
	const struct kbuild_obj		*o;
	struct kbuild_stats		 st;
	struct kbuild			*kb = kbuild_new_empty();
	const char			*text = (const char *)data;
	size_t				 i;

	kbuild_parse_text(kb, "drivers/x", text, size);
	kbuild_parse_text(kb, "drivers/x/sub", text, size);
	kbuild_get_stats(kb, &st);
	o = kbuild_source(kb, "drivers/x/foo.c");
	if (o != NULL && o->nconds > 0)
		kbuild_symbol_objs(kb, o->conds[o->nconds - 1], &objs);
	kbuild_module(kb, "foo", &objs);
	for (i = 0; i < kbuild_nobjs(kb); i++) {
		o = kbuild_obj_at(kb, i);
		if (o->module != NULL)
			kbuild_module(kb, o->module, &objs);
	}
	kbuild_free(kb);
	return 0;
}
