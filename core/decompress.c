/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decompress.c - whole compressed files into memory (see decompress.h).
 *
 * The Makefile defines HAVE_<PKG> for the libraries pkg-config knows (as
 * core/evidence.c does, a bare compile line with the headers present still
 * gets them). zstd is recognised but not decoded: libzstd is not among the
 * build's libraries (Debian's libzstd-dev is not a dependency), so a
 * .ko.zst reads as an error and its caller goes without.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(HAVE_LIBLZMA)
#define DC_LZMA 1
#elif defined(__has_include)
#if __has_include(<lzma.h>)
#define DC_LZMA 1
#endif
#endif
#if defined(HAVE_ZLIB)
#define DC_ZLIB 1
#elif defined(__has_include)
#if __has_include(<zlib.h>)
#define DC_ZLIB 1
#endif
#endif

#ifdef DC_LZMA
#include <lzma.h>
#endif
#ifdef DC_ZLIB
#include <zlib.h>
#endif

#include "../lib/fileio.h"
#include "../lib/util.h"
#include "decompress.h"

/* Magic numbers are what the kernel's own module loader and kmod go by:
 * a module renamed without its suffix still decodes. */
enum decompress_format
decompress_format_of(const void *data, size_t len)
{
	const unsigned char *p = data;

	if (len >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return DECOMPRESS_XZ;
	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return DECOMPRESS_GZIP;
	if (len >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return DECOMPRESS_ZSTD;
	return DECOMPRESS_PLAIN;
}

/* Room for more output: the buffer doubles, so decoding stays linear
 * whatever the compression ratio. */
static unsigned char *
decompress_grow(unsigned char *buf, size_t *cap)
{
	*cap *= 2;
	return xrealloc(buf, *cap);
}

#ifdef DC_LZMA
/* xz, every concatenated stream of it. */
static int
decompress_xz(const void *data, size_t len, void **out, size_t *outlen,
    char **cause)
{
	lzma_stream	 xz = LZMA_STREAM_INIT;
	unsigned char	*buf;
	size_t		 cap = len * 4 + 4096;
	lzma_ret	 ret;

	if (lzma_stream_decoder(&xz, UINT64_MAX, LZMA_CONCATENATED) !=
	    LZMA_OK) {
		*cause = xstrdup("xz decoder failed to start");
		return -1;
	}
	buf = xmalloc(cap);
	xz.next_in = data;
	xz.avail_in = len;
	xz.next_out = buf;
	xz.avail_out = cap;
	for (;;) {
		ret = lzma_code(&xz, LZMA_FINISH);
		if (ret == LZMA_STREAM_END)
			break;
		if ((ret == LZMA_OK || ret == LZMA_BUF_ERROR) &&
		    xz.avail_out == 0) {
			buf = decompress_grow(buf, &cap);
			xz.next_out = buf + xz.total_out;
			xz.avail_out = cap - xz.total_out;
			continue;
		}
		if (ret == LZMA_OK)
			continue;	/* progress; a stall is LZMA_BUF_ERROR */
		*cause = xstrdup(ret == LZMA_FORMAT_ERROR ? "xz: not xz data" :
		    ret == LZMA_DATA_ERROR ? "xz: corrupt data" :
		    ret == LZMA_BUF_ERROR ? "xz: truncated data" :
		    "xz: decoder error");
		lzma_end(&xz);
		free(buf);
		return -1;
	}
	*outlen = xz.total_out;
	*out = buf;
	lzma_end(&xz);
	return 0;
}
#endif

#ifdef DC_ZLIB
/* gzip, every member of it. */
static int
decompress_gz(const void *data, size_t len, void **out, size_t *outlen,
    char **cause)
{
	z_stream	 gz;
	unsigned char	*buf;
	size_t		 cap = len * 4 + 4096, done = 0;
	int		 ret;

	if (len > UINT_MAX) {
		*cause = xstrdup("gzip: file too large");
		return -1;
	}
	memset(&gz, 0, sizeof gz);
	if (inflateInit2(&gz, 16 + MAX_WBITS) != Z_OK) {
		*cause = xstrdup("gzip decoder failed to start");
		return -1;
	}
	buf = xmalloc(cap);
	gz.next_in = (Bytef *)(uintptr_t)data;
	gz.avail_in = (uInt)len;
	for (;;) {
		if (cap - done == 0)
			buf = decompress_grow(buf, &cap);
		gz.next_out = buf + done;
		gz.avail_out = cap - done > UINT_MAX ? UINT_MAX :
		    (uInt)(cap - done);
		ret = inflate(&gz, Z_FINISH);
		done = (size_t)(gz.next_out - buf);
		if (ret == Z_STREAM_END) {
			if (gz.avail_in == 0)
				break;
			inflateReset(&gz);	/* another member follows */
			continue;
		}
		if (ret == Z_OK || (ret == Z_BUF_ERROR && gz.avail_out == 0))
			continue;	/* progress, or only out of room */
		*cause = xasprintf("gzip: %s", ret == Z_BUF_ERROR ?
		    "truncated data" : gz.msg != NULL ? gz.msg :
		    "corrupt data");
		inflateEnd(&gz);
		free(buf);
		return -1;
	}
	inflateEnd(&gz);
	*out = buf;
	*outlen = done;
	return 0;
}
#endif

/* One entry point whatever the format, so that callers need not know
 * which libraries this build has. */
int
decompress_buffer(const void *data, size_t len, void **out, size_t *outlen,
    char **cause)
{
	*out = NULL;
	*outlen = 0;
	switch (decompress_format_of(data, len)) {
	case DECOMPRESS_XZ:
#ifdef DC_LZMA
		return decompress_xz(data, len, out, outlen, cause);
#else
		*cause = xstrdup("xz not supported in this build");
		return -1;
#endif
	case DECOMPRESS_GZIP:
#ifdef DC_ZLIB
		return decompress_gz(data, len, out, outlen, cause);
#else
		*cause = xstrdup("gzip not supported in this build");
		return -1;
#endif
	case DECOMPRESS_ZSTD:
		*cause = xstrdup("zstd not supported in this build (no "
		    "libzstd)");
		return -1;
	default:
		*out = xmalloc(len + 1);
		memcpy(*out, data, len);
		((char *)*out)[len] = '\0';
		*outlen = len;
		return 0;
	}
}

/* Read and decode a file; a plain one is returned as read (no copy). */
int
decompress_file(const char *path, void **out, size_t *outlen, char **cause)
{
	char	*raw;
	size_t	 len;
	int	 r;

	*out = NULL;
	*outlen = 0;
	if ((raw = file_read_all(path, &len)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (decompress_format_of(raw, len) == DECOMPRESS_PLAIN) {
		*out = raw;
		*outlen = len;
		return 0;
	}
	r = decompress_buffer(raw, len, out, outlen, cause);
	free(raw);
	if (r != 0) {
		raw = *cause;
		*cause = xasprintf("%s: %s", path, raw);
		free(raw);
	}
	return r;
}
