/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_twin.c - libFuzzer target for the twin machine (core/twin) over a
 * bundle somebody else recorded: the input is cut at NUL bytes into the
 * bundle's drivers, modalias, modules, mounts, cpuinfo, meminfo, disks
 * and sockstat6 files.
 * Whatever they hold, twin_make either fails with a message or gives a vm
 * file that vm_spec_load accepts (every line inside the allow-list: the
 * twin never generates what a bundle's own vm could not say) and a
 * workload that workload_load accepts; no crash, hang or leak.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/evidence/evidence.h"
#include "../../core/twin/twin.h"
#include "../../core/verify/verify.h"
#include "../../lib/fileio.h"
#include "fuzz-file.h"
#include "../../lib/util.h"

/* The bundle's files, in the order the input gives them. */
static const char *const names[] = { "drivers", "modalias", "modules",
	"mounts", "cpuinfo", "meminfo", "disks", "sockstat6" };
#define NNAMES (sizeof names / sizeof names[0])

/* This process's bundle directory, made once. */
static const char *
fuzz_dir(void)
{
	static char	dir[64];

	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "/tmp/kctui-fuzz-twin.%d",
		    (int)getpid());
		mkdir(dir, 0700);
	}
	return dir;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*dir = fuzz_dir(), *p = (const char *)data;
	const char	*end = p + size, *nul;
	struct evidence	*ev;
	struct twin_opts o;
	struct twin	 t;
	struct vm_spec	 spec;
	struct workload	 wl;
	char		*cause = NULL, *path, mpath[96];
	size_t		 i;

	for (i = 0; i < NNAMES; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		unlink(path);
		if (p <= end) {
			nul = memchr(p, '\0', end - p);
			if (nul == NULL)
				nul = end;
			(void)file_write_atomic(path, p, nul - p, 0600, 0,
			    &cause);
			free(cause);
			cause = NULL;
			p = nul + 1;
		}
		free(path);
	}
	ev = evidence_new();
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
		free(cause);
		evidence_free(ev);
		return 0;
	}
	memset(&o, 0, sizeof o);
	o.host_mib = 16384;
	o.host_cpus = 4;
	if (twin_make(ev, &o, &t, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		evidence_free(ev);
		return 0;
	}
	/* The vm it wrote loads, through the allow-list. */
	if (fuzz_file("vm", t.vm, strlen(t.vm), mpath, sizeof mpath) == 0) {
		if (vm_spec_load(&spec, mpath, &cause) != 0) {
			fprintf(stderr, "twin vm refused: %s\n%s", cause, t.vm);
			abort();
		}
		vm_spec_free(&spec);
	}
	if (fuzz_file("workload", t.workload, strlen(t.workload), mpath,
	    sizeof mpath) == 0) {
		if (workload_load(&wl, mpath, &cause) != 0) {
			fprintf(stderr, "twin workload refused: %s\n%s", cause,
			    t.workload);
			abort();
		}
		workload_free(&wl);
	}
	twin_free(&t);
	evidence_free(ev);
	return 0;
}
