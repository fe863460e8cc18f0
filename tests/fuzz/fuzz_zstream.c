/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_zstream.c - libFuzzer target for core/zstream.c, the reader of a
 * bundle's compressed files (xz, gzip, plain by their magic): any bytes
 * either decode or fail with a message; a decoded buffer has the length
 * said. No crash, hang or leak (a bomb is bounded by libFuzzer's RSS
 * limit, which a real xz of a million lines stays far below).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/evidence/zstream.h"
#include "../../lib/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void	*out = NULL;
	size_t	 len = 0;
	char	*cause = NULL;

	if (zstream_decode(data, size, &out, &len, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return 0;
	}
	/* the whole of it is readable */
	if (len > 0 && ((volatile const char *)out)[len - 1] == '\1')
		((volatile char *)out)[0] = 0;
	free(out);
	return 0;
}
