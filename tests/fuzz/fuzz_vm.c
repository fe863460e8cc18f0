/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_vm.c - libFuzzer target for a bundle's vm file (core/verify/vm-spec.c and
 * its allow-list, core/verify/vm-allow.c): any bytes either load into a spec
 * whose every QEMU option string the allow-list accepted, or fail with a
 * "PATH..." message, without a crash, a hang or a leak. A bundle is
 * somebody else's file.
 */
#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/verify/verify.h"
#include "../../core/machine/vm-allow.h"
#include "../../lib/fileio.h"
#include "fuzz-file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vm_spec	 spec;
	struct vm_allow	 a;
	char		*cause = NULL, path[96], *msg;
	size_t		 i;
	int		 rc;

	if (fuzz_file("vm", data, size, path, sizeof path) != 0)
		return 0;
	rc = vm_spec_load(&spec, path, &cause);
	if (rc != 0) {
		if (cause == NULL || strncmp(cause, path, strlen(path)) != 0)
			abort();
		free(cause);
	} else {
		/* What was loaded passes the allow-list again, alone. */
		memset(&a, 0, sizeof a);
		for (i = 0; i + 1 < spec.nargs; i += 2) {
			msg = vm_allow_check(&a, strcmp(spec.args[i],
			    "-device") == 0 ? VM_ALLOW_DEVICE :
			    strcmp(spec.args[i], "-netdev") == 0 ?
			    VM_ALLOW_NETDEV : strcmp(spec.args[i],
			    "-object") == 0 ? VM_ALLOW_OBJECT :
			    VM_ALLOW_AUDIODEV, spec.args[i + 1], 1);
			if (msg != NULL)
				abort();
		}
		for (i = 0; i < spec.ndisks; i++)
			if ((msg = vm_allow_check(&a, VM_ALLOW_DISK,
			    spec.disks[i].device, 1)) != NULL)
				abort();
		vm_allow_free(&a);
		vm_spec_free(&spec);
	}
	return 0;
}
