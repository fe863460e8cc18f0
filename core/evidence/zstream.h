/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zstream.h - a file read as a stream of decoded bytes, whatever its
 * encoding: plain, xz (liblzma, concatenated streams) or gzip (zlib, any
 * number of members); or bytes already in memory, so that one line
 * reader serves files and mapped caches alike. zstream_decode_file reads
 * a whole file decoded (kernel modules, .ko.xz / .ko.gz, for their loaded
 * size). zstd is recognised but not decoded: no libzstd in the build.
 */
#ifndef KC_ZSTREAM_H
#define KC_ZSTREAM_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <lzma.h>
#include <zlib.h>

enum zstream_type {
	ZSTREAM_PLAIN,
	ZSTREAM_XZ,
	ZSTREAM_GZ,
	ZSTREAM_MEM,	/* zstream_open_mem: a buffer, no fd */
	ZSTREAM_ZSTD	/* recognised, refused by zstream_open */
};

/* A stream being decoded. */
struct zstream {
	int			 fd;
	enum zstream_type	 type;
	int			 in_eof;
	int			 done;
	uint8_t			*in;	/* compressed input buffer */
	const char		*mem;	/* ZSTREAM_MEM: the bytes; xz/gz
					   with fd -1: the compressed input */
	size_t			 memlen;
	size_t			 mempos;
	lzma_stream		 xz;
	z_stream		 gz;
};

/* How the file open as fd is encoded, by its magic (not its name). */
enum zstream_type zstream_detect(int fd);
/* The same for data beginning with these len bytes. */
enum zstream_type zstream_detect_buf(const void *, size_t);
/* Start decoding fd as type (the fd stays the caller's); -1 with *cause
 * if the decoder can't start. */
int		 zstream_open(struct zstream *, int fd, enum zstream_type,
		     char **cause);
/* Read len bytes of memory as a stream (borrowed until zstream_close). */
void		 zstream_open_mem(struct zstream *, const void *, size_t);
/* Up to len decoded bytes: 0 at the end, -1 with *cause on error. */
ssize_t		 zstream_read(struct zstream *, char *buf, size_t len,
		     char **cause);
void		 zstream_close(struct zstream *);
/* Decode all of len bytes of data (plain data is copied) into a malloc'd
 * buffer, its length in *outlen; -1 with *cause on corrupt or truncated
 * data or zstd. */
int		 zstream_decode(const void *, size_t, void **out,
		     size_t *outlen, char **cause);
/* The whole of path, decoded. */
int		 zstream_decode_file(const char *path, void **out,
		     size_t *outlen, char **cause);
/* A bundle's file dir/name as text (NUL-terminated): the plain file, else
 * name.xz, else name.gz, decoded; NULL when none can be read. */
char		*zstream_bundle_text(const char *dir, const char *name);

#endif
