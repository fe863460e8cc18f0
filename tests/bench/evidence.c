/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.c - benchmarks of the evidence side (issue 4's targets):
 *
 *   bench_evidence TREE BUNDLE
 *
 * trace ingest: the bundle's trace.xz decompressed once into memory, then
 * parsed by evidence_read_trace (median of 3), in MB/s of text;
 * index build: the Kbuild index and the source index of TREE, cold (a new,
 * empty cache) and warm (that cache), median of 3 each.
 */
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../core/evidence/evidence.h"
#include "kbuild/kbuild.h"
#include "../../core/srcindex/srcindex.h"
#include "../../lib/clock.h"

/* Median of three. */
static double
median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* Decompress an .xz file into memory. */
static char *
read_xz(const char *path, size_t *len)
{
	lzma_stream	 s = LZMA_STREAM_INIT;
	FILE		*f = fopen(path, "rb");
	unsigned char	 in[1 << 16];
	char		*out = NULL;
	size_t		 cap = 0, n;
	lzma_ret	 r = LZMA_OK;

	if (f == NULL || lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK)
		return NULL;
	*len = 0;
	while (r == LZMA_OK) {
		if (s.avail_in == 0 && !feof(f)) {
			n = fread(in, 1, sizeof in, f);
			s.next_in = in;
			s.avail_in = n;
		}
		if (cap - *len < (1 << 20)) {
			cap = cap ? cap * 2 : (64 << 20);
			out = realloc(out, cap);
			if (out == NULL)
				abort();
		}
		s.next_out = (unsigned char *)out + *len;
		s.avail_out = cap - *len;
		r = lzma_code(&s, feof(f) && s.avail_in == 0 ? LZMA_FINISH :
		    LZMA_RUN);
		*len = cap - s.avail_out;
	}
	lzma_end(&s);
	fclose(f);
	return r == LZMA_STREAM_END ? out : NULL;
}

/* One cold or warm index build; seconds. */
static double
build_index(const char *tree, const char *cache, double *kb_s)
{
	struct kbuild	*kb;
	struct srcindex	*si;
	char		*cause = NULL;
	double		 t0 = clock_now(), t1;

	kb = kbuild_scan(tree, "x86", &cause);
	t1 = clock_now();
	si = srcindex_build(tree, cache, 2, &cause);
	if (kb == NULL || si == NULL) {
		fprintf(stderr, "bench_evidence: %s\n", cause);
		exit(1);
	}
	*kb_s = t1 - t0;
	t1 = clock_now() - t0;
	srcindex_free(si);
	kbuild_free(kb);
	return t1;
}

int
main(int argc, char **argv)
{
	char		 path[4096], cache[] = "/tmp/kctui-bench-srcix.XXXXXX";
	char		*text;
	size_t		 len;
	double		 t[3], kb[3], cold, warm;
	int		 i, fd;

	if (argc != 3) {
		fprintf(stderr, "usage: bench_evidence TREE BUNDLE\n");
		return 1;
	}
	snprintf(path, sizeof path, "%s/trace.xz", argv[2]);
	if ((text = read_xz(path, &len)) == NULL) {
		fprintf(stderr, "bench_evidence: can't read %s\n", path);
		return 1;
	}
	for (i = 0; i < 3; i++) {
		struct evidence *ev = evidence_new();
		double		 t0 = clock_now();

		evidence_read_trace(ev, 0, text, len);
		t[i] = clock_now() - t0;
		evidence_free(ev);
	}
	free(text);
	printf("trace ingest: %.0f MB of text in %.2f s, %.0f MB/s "
	    "(target >= 100)\n", (double)len / 1e6, median3(t[0], t[1], t[2]),
	    (double)len / 1e6 / median3(t[0], t[1], t[2]));

	if ((fd = mkstemp(cache)) < 0)
		return 1;
	close(fd);
	for (i = 0; i < 3; i++) {
		unlink(cache);
		t[i] = build_index(argv[1], cache, &kb[i]);
	}
	cold = median3(t[0], t[1], t[2]);
	printf("index build cold: %.2f s (Kbuild %.2f s, sources %.2f s) "
	    "(target <= 20 s)\n", cold, median3(kb[0], kb[1], kb[2]),
	    cold - median3(kb[0], kb[1], kb[2]));
	for (i = 0; i < 3; i++)
		t[i] = build_index(argv[1], cache, &kb[i]);
	warm = median3(t[0], t[1], t[2]);
	printf("index build warm: %.3f s (Kbuild %.3f s, sources from cache "
	    "%.3f s) (target <= 0.3 s)\n", warm, median3(kb[0], kb[1], kb[2]),
	    warm - median3(kb[0], kb[1], kb[2]));
	unlink(cache);
	return 0;
}
