/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_zstream.c - core/evidence/zstream.c's whole-buffer and whole-file decoding:
 * xz and gzip (several members) decode to the original bytes, plain data
 * is returned as is, truncated and corrupt data and zstd are errors, and
 * a file is read whole.
 */
#include <lzma.h>
#include <zlib.h>

#define UNIT_PREFIX "zstream/"
#include "unit.h"

#include "../../core/evidence/zstream.h"
#include "../../lib/fileio.h"

/* xz of data (malloc'd), as the xz tool writes it. */
static unsigned char *
make_xz(const unsigned char *data, size_t len, size_t *outlen)
{
	size_t		 cap = len + len / 2 + 4096;
	unsigned char	*out = xmalloc(cap);

	*outlen = 0;
	if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, data, len, out,
	    outlen, cap) != LZMA_OK)
		*outlen = 0;
	return out;
}

/* One gzip member of data appended to out at *outlen. */
static void
add_gz(const unsigned char *data, size_t len, unsigned char *out,
    size_t cap, size_t *outlen)
{
	z_stream gz;

	memset(&gz, 0, sizeof gz);
	deflateInit2(&gz, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	gz.next_in = (Bytef *)(uintptr_t)data;
	gz.avail_in = (uInt)len;
	gz.next_out = out + *outlen;
	gz.avail_out = (uInt)(cap - *outlen);
	deflate(&gz, Z_FINISH);
	*outlen += gz.total_out;
	deflateEnd(&gz);
}

/* Whether decoding in gives exactly want; the error, if any, in *cause. */
static int
decodes_to(const void *in, size_t inlen, const void *want, size_t wantlen,
    char **cause)
{
	void	*out;
	size_t	 outlen;
	int	 ok;

	*cause = NULL;
	if (zstream_decode(in, inlen, &out, &outlen, cause) != 0)
		return 0;
	ok = outlen == wantlen && memcmp(out, want, wantlen) == 0;
	free(out);
	return ok;
}

int
main(void)
{
	unsigned char	*data, *xz, *gz, *two, zst[] = "\x28\xb5\x2f\xfd...";
	size_t		 len = 1 << 20, xzlen, gzlen = 0, twolen = 0, i, outlen;
	char		*cause, path[] = "/tmp/kctui-test-zstream.XXXXXX";
	void		*out;
	int		 fd;

	/* Compressible but not trivial: longer than the decoders' first
	 * guess of the output size, so their buffers must grow. */
	data = xmalloc(len);
	for (i = 0; i < len; i++)
		data[i] = (unsigned char)((i * 7) ^ (i >> 9));

	xz = make_xz(data, len, &xzlen);
	check("xz-format", zstream_detect_buf(xz, xzlen) == ZSTREAM_XZ,
	    NULL);
	check("xz", xzlen != 0 && decodes_to(xz, xzlen, data, len, &cause),
	    cause);
	free(cause);
	check("xz-truncated", !decodes_to(xz, xzlen / 2, data, len, &cause) &&
	    cause != NULL, NULL);
	free(cause);

	gz = xmalloc(len + 4096);
	add_gz(data, len, gz, len + 4096, &gzlen);
	check("gz-format", zstream_detect_buf(gz, gzlen) ==
	    ZSTREAM_GZ, NULL);
	check("gz", decodes_to(gz, gzlen, data, len, &cause), cause);
	free(cause);
	check("gz-truncated", !decodes_to(gz, gzlen - 10, data, len, &cause) &&
	    cause != NULL, NULL);
	free(cause);
	gz[gzlen / 2] ^= 0xff;
	check("gz-corrupt", !decodes_to(gz, gzlen, data, len, &cause) &&
	    cause != NULL, NULL);
	free(cause);

	/* Two members decode to both halves, one after the other. */
	two = xmalloc(len + 8192);
	add_gz(data, len / 2, two, len + 8192, &twolen);
	add_gz(data + len / 2, len - len / 2, two, len + 8192, &twolen);
	check("gz-members", decodes_to(two, twolen, data, len, &cause), cause);
	free(cause);

	check("plain", zstream_detect_buf(data, len) == ZSTREAM_PLAIN &&
	    decodes_to(data, len, data, len, &cause), cause);
	free(cause);
	check("zstd-unsupported", zstream_detect_buf(zst, sizeof zst) ==
	    ZSTREAM_ZSTD && !decodes_to(zst, sizeof zst, data, 0, &cause) &&
	    cause != NULL && strstr(cause, "zstd") != NULL, cause);
	free(cause);

	/* A file: read whole and decoded. */
	cause = NULL;
	if ((fd = mkstemp(path)) >= 0) {
		fd_write_all(fd, xz, xzlen);
		close(fd);
		check("file", zstream_decode_file(path, &out, &outlen, &cause) ==
		    0 && outlen == len && memcmp(out, data, len) == 0, cause);
		free(out);
		free(cause);
		unlink(path);
	} else
		check("file", 0, "mkstemp");
	cause = NULL;
	check("file-missing", zstream_decode_file(path, &out, &outlen, &cause) !=
	    0 && cause != NULL, NULL);
	free(cause);

	free(data);
	free(xz);
	free(gz);
	free(two);
	return unit_failures != 0;
}
