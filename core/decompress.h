/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decompress.h - a whole compressed file decoded into memory: kernel
 * modules (.ko.xz, .ko.gz) for their loaded size. The format is told by
 * the data's magic, not the name: xz (liblzma), gzip (zlib), else plain.
 *
 * core/evidence.c has its own streaming decoder for bundle files (line by
 * line, in a fixed buffer); the two could share this file's decoders once
 * evidence.c takes a whole-buffer path too.
 */
#ifndef KC_DECOMPRESS_H
#define KC_DECOMPRESS_H

#include <stddef.h>

enum decompress_format {
	DECOMPRESS_PLAIN, DECOMPRESS_XZ, DECOMPRESS_GZIP, DECOMPRESS_ZSTD
};

/* The format of data beginning with these len bytes (its magic). */
enum decompress_format decompress_format_of(const void *data, size_t len);

/*
 * Decode len bytes of data (any format above) into a malloc'd buffer,
 * its length in *outlen (plain data is copied). -1 with *cause on corrupt
 * data or a format this build can't decode (zstd: no libzstd).
 */
int	 decompress_buffer(const void *data, size_t len, void **out,
	     size_t *outlen, char **cause);
/* The whole of path, decoded: decompress_buffer() of its content. */
int	 decompress_file(const char *path, void **out, size_t *outlen,
	     char **cause);

#endif
