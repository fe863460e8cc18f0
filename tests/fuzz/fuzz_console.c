/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_console.c - libFuzzer target for the guest console parser
 * (core/verify/vm.c: vm_result_line, vm_result_end), whose input the
 * guest controls: the bytes are console lines. With the first byte even
 * they are made visible first, as vm.c does with every line QEMU gives
 * (lib/text.h), and then nothing the parser keeps (step logs, the tail,
 * modules, drivers, devices) may hold a control character; with it odd
 * they go to the parser raw. No crash, hang or leak either way.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/verify/verify.h"
#include "../../lib/text.h"
#include "../../lib/util.h"
#include "fuzz-file.h"

/* The workload every input runs: three steps. */
static struct workload *
fuzz_workload(void)
{
	static struct workload	 w;
	static int		 loaded;
	static const char	 text[] = "step a true\nstep b-1 true\n"
				    "step c.2 false\n";
	char			 path[96], *cause = NULL;

	if (!loaded) {
		if (fuzz_file("workload", text, sizeof text - 1, path,
		    sizeof path) != 0 || workload_load(&w, path, &cause) != 0)
			abort();
		loaded = 1;
	}
	return &w;
}

/* Abort when s is not visible text. */
static void
fuzz_visible(const char *s)
{
	if (s != NULL && !text_is_visible(s, strlen(s), 0))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vm_result r;
	const char	*p = (const char *)data, *end, *nl;
	char		*vis;
	size_t		 i, j;
	bool		 raw;

	if (size == 0)
		return 0;
	raw = data[0] & 1;
	p++;
	end = (const char *)data + size;
	vm_result_init(&r, fuzz_workload());
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (raw)
			vm_result_line(&r, p, (size_t)(nl - p));
		else {
			vis = text_visible(p, (size_t)(nl - p), 0);
			vm_result_line(&r, vis, strlen(vis));
			free(vis);
		}
		p = nl + 1;
	}
	vm_result_end(&r);
	if (r.nsteps < 3 || r.cur != -1)
		abort();
	for (i = 0; i < r.nsteps; i++) {
		if (r.steps[i].state == VM_STEP_PASS && r.steps[i].rc != 0)
			abort();
		for (j = 0; !raw && j < r.steps[i].nlog; j++)
			fuzz_visible(r.steps[i].log[j]);
	}
	for (i = 0; !raw && i < r.nmodules; i++)
		fuzz_visible(r.modules[i]);
	for (i = 0; !raw && i < r.ndrivers; i++) {
		fuzz_visible(r.drivers[i].bus);
		fuzz_visible(r.drivers[i].driver);
		fuzz_visible(r.drivers[i].device);
	}
	vm_result_free(&r);
	return 0;
}
