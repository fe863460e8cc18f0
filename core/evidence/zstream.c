/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zstream.c - decoded byte streams over plain, xz and gzip files (see
 * zstream.h). Compressed input is read a fixed buffer at a time and
 * decoded straight into the caller's buffer, so a file of gigabytes costs
 * two buffers of memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zstream.h"
#include "../../lib/beneath.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"

#define ZSTREAM_INSIZE	(256 * 1024)	/* compressed bytes per read */

/* Recognise xz, gzip and zstd by their magic: names lie ("trace" may be
 * xz). */
enum zstream_type
zstream_detect_buf(const void *buf, size_t n)
{
	const unsigned char *magic = buf;

	if (n >= 6 && memcmp(magic, "\xfd" "7zXZ\0", 6) == 0)
		return ZSTREAM_XZ;
	if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		return ZSTREAM_GZ;
	if (n >= 4 && memcmp(magic, "\x28\xb5\x2f\xfd", 4) == 0)
		return ZSTREAM_ZSTD;
	return ZSTREAM_PLAIN;
}

/* The same for an open file, read at offset 0 without moving it. */
enum zstream_type
zstream_detect(int fd)
{
	unsigned char	magic[6];
	ssize_t		n;

	n = pread(fd, magic, sizeof magic, 0);
	return zstream_detect_buf(magic, n > 0 ? (size_t)n : 0);
}

/* Refill the compressed input buffer only once the decoder has used it
 * all, so no input is ever lost; -1 on a read error. */
static int
zstream_fill(struct zstream *s, const uint8_t **next, size_t *avail,
    char **cause)
{
	ssize_t	n;

	if (*avail != 0 || s->in_eof)
		return 0;
	if (s->fd < 0) {
		/* compressed bytes in memory: all of them at once */
		*next = (const uint8_t *)s->mem;
		*avail = s->memlen;
		s->in_eof = 1;
		return 0;
	}
	do
		n = read(s->fd, s->in, ZSTREAM_INSIZE);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*cause = xstrdup(strerror(errno));
		return -1;
	}
	if (n == 0)
		s->in_eof = 1;
	*next = s->in;
	*avail = (size_t)n;
	return 0;
}

/* Set up the decoder now so that a broken library is reported once, as
 * the file's warning, rather than as a read error later. */
int
zstream_open(struct zstream *s, int fd, enum zstream_type type, char **cause)
{
	lzma_stream	init = LZMA_STREAM_INIT;

	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->type = type;
	if (type == ZSTREAM_PLAIN || type == ZSTREAM_MEM)
		return 0;
	if (type == ZSTREAM_ZSTD) {
		*cause = xstrdup("zstd data: not supported (built without "
		    "libzstd)");
		s->type = ZSTREAM_PLAIN;
		return -1;
	}
	if (fd >= 0)
		s->in = xmalloc(ZSTREAM_INSIZE);
	if (type == ZSTREAM_XZ) {
		s->xz = init;
		if (lzma_stream_decoder(&s->xz, UINT64_MAX,
		    LZMA_CONCATENATED) == LZMA_OK)
			return 0;
		*cause = xstrdup("xz decoder failed to start");
	} else {
		if (inflateInit2(&s->gz, 16 + MAX_WBITS) == Z_OK)
			return 0;
		*cause = xstrdup("gzip decoder failed to start");
	}
	free(s->in);
	s->in = NULL;
	s->type = ZSTREAM_PLAIN;
	return -1;
}

/* A cache's text goes through the same reader as the file it replaces,
 * so the result and the warnings cannot differ. */
void
zstream_open_mem(struct zstream *s, const void *buf, size_t len)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->type = ZSTREAM_MEM;
	s->mem = buf;
	s->memlen = len;
}

/* Release the decoder (the fd is the caller's). */
void
zstream_close(struct zstream *s)
{
	if (s->type == ZSTREAM_XZ)
		lzma_end(&s->xz);
	if (s->type == ZSTREAM_GZ)
		inflateEnd(&s->gz);
	free(s->in);
	s->in = NULL;
}

/* Decode xz into buf: only returns short at the end of the stream, so the
 * caller's buffer fills in big steps. */
static ssize_t
zstream_read_xz(struct zstream *s, char *buf, size_t len, char **cause)
{
	lzma_ret	ret;

	s->xz.next_out = (uint8_t *)buf;
	s->xz.avail_out = len;
	while (s->xz.avail_out == len && !s->done) {
		if (zstream_fill(s, &s->xz.next_in, &s->xz.avail_in,
		    cause) != 0)
			return -1;
		ret = lzma_code(&s->xz, s->in_eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END)
			s->done = 1;
		else if (ret == LZMA_BUF_ERROR && s->in_eof) {
			*cause = xstrdup("xz: truncated data");
			return -1;
		} else if (ret == LZMA_FORMAT_ERROR) {
			*cause = xstrdup("xz: not xz data");
			return -1;
		} else if (ret == LZMA_DATA_ERROR) {
			*cause = xstrdup("xz: corrupt data");
			return -1;
		} else if (ret != LZMA_OK) {
			*cause = xasprintf("xz: decoder error %d", (int)ret);
			return -1;
		}
	}
	return (ssize_t)(len - s->xz.avail_out);
}

/* zstream_fill through zlib's own input pointer types. */
static int
zstream_fill_gz(struct zstream *s, char **cause)
{
	const uint8_t	*next = s->gz.next_in;
	size_t		 avail = s->gz.avail_in;

	if (zstream_fill(s, &next, &avail, cause) != 0)
		return -1;
	s->gz.next_in = (Bytef *)next;
	s->gz.avail_in = (uInt)avail;
	return 0;
}

/* Decode gzip into buf; a member's end is only the end of the data when
 * no other member follows (gzip -c a b > c makes two). */
static ssize_t
zstream_read_gz(struct zstream *s, char *buf, size_t len, char **cause)
{
	int	ret;

	s->gz.next_out = (Bytef *)buf;
	s->gz.avail_out = (uInt)len;
	while (s->gz.avail_out == len && !s->done) {
		if (zstream_fill_gz(s, cause) != 0)
			return -1;
		if (s->gz.avail_in == 0 && s->in_eof) {
			*cause = xstrdup("gzip: truncated data");
			return -1;
		}
		ret = inflate(&s->gz, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			if (zstream_fill_gz(s, cause) != 0)
				return -1;
			if (s->gz.avail_in == 0)
				s->done = 1;	/* another member follows? */
			else
				inflateReset(&s->gz);
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			*cause = xasprintf("gzip: %s", s->gz.msg != NULL ?
			    s->gz.msg : "corrupt data");
			return -1;
		}
	}
	return (ssize_t)(len - s->gz.avail_out);
}

/* Read the next decoded bytes, whichever the encoding. */
ssize_t
zstream_read(struct zstream *s, char *buf, size_t len, char **cause)
{
	ssize_t	n;

	switch (s->type) {
	case ZSTREAM_XZ:
		return zstream_read_xz(s, buf, len, cause);
	case ZSTREAM_GZ:
		return zstream_read_gz(s, buf, len, cause);
	case ZSTREAM_MEM:
		if (len > s->memlen - s->mempos)
			len = s->memlen - s->mempos;
		if (len == 0)
			return 0;
		memcpy(buf, s->mem + s->mempos, len);
		s->mempos += len;
		return (ssize_t)len;
	case ZSTREAM_PLAIN:
	case ZSTREAM_ZSTD:	/* never open (zstream_open refuses it) */
		break;
	}
	do
		n = read(s->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		*cause = xstrdup(strerror(errno));
	return n;
}

/* Decode a whole buffer: the decoders read it as their input at once (a
 * stream with fd -1), the output grows by doubling. */
int
zstream_decode(const void *data, size_t len, void **out, size_t *outlen,
    char **cause)
{
	struct zstream		 s;
	enum zstream_type	 type = zstream_detect_buf(data, len);
	char			*buf;
	size_t			 cap, n = 0;
	ssize_t			 r;

	if (type == ZSTREAM_PLAIN)
		type = ZSTREAM_MEM;
	if (zstream_open(&s, -1, type, cause) != 0)
		return -1;
	s.mem = data;
	s.memlen = len;
	cap = len * 4 + 4096;
	buf = xmalloc(cap);
	for (;;) {
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
		r = zstream_read(&s, buf + n, cap - n, cause);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	zstream_close(&s);
	if (r < 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = n;
	return 0;
}

/* Read path whole, then decode it. */
int
zstream_decode_file(const char *path, void **out, size_t *outlen,
    char **cause)
{
	char	*raw;
	size_t	 len;
	int	 rc;

	if ((raw = file_read_all(path, &len)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	rc = zstream_decode(raw, len, out, outlen, cause);
	free(raw);
	return rc;
}

/* A bundle's file as text (zstream.h): plain, .xz or .gz. */
char *
zstream_bundle_text(const char *dir, const char *name)
{
	static const char *const ext[] = { "", ".xz", ".gz" };
	char	*path, *raw, *cause = NULL;
	void	*buf = NULL;
	size_t	 len, rawlen, i;
	int	 rc;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		/* below the bundle, following no link (lib/beneath.h) */
		path = xasprintf("%s%s", name, ext[i]);
		raw = beneath_read(dir, path, &rawlen, &cause);
		free(path);
		rc = raw == NULL ? -1 : zstream_decode(raw, rawlen, &buf, &len,
		    &cause);
		free(raw);
		if (rc == 0) {
			buf = xrealloc(buf, len + 1);
			((char *)buf)[len] = '\0';
			return buf;
		}
		free(cause);
		cause = NULL;
	}
	return NULL;
}
