/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zstream.h - a file read as a stream of decoded bytes, whatever its
 * encoding: plain, xz (liblzma, concatenated streams) or gzip (zlib, any
 * number of members); or bytes already in memory, so that one line
 * reader serves files and mapped caches alike.
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
	ZSTREAM_MEM	/* zstream_open_mem: a buffer, no fd */
};

/* A stream being decoded. */
struct zstream {
	int			 fd;
	enum zstream_type	 type;
	int			 in_eof;
	int			 done;
	uint8_t			*in;	/* compressed input buffer */
	const char		*mem;	/* ZSTREAM_MEM: the bytes */
	size_t			 memlen;
	size_t			 mempos;
	lzma_stream		 xz;
	z_stream		 gz;
};

/* How the file open as fd is encoded, by its magic (not its name). */
enum zstream_type zstream_detect(int fd);
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

#endif
