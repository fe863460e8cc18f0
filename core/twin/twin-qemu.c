/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin-qemu.c - which devices the QEMU that will run the twin has: the
 * table names devices of several QEMU versions (igb came in 8.0), and a
 * twin must not ask for one its QEMU lacks, or the boot fails as the
 * host's failure before the guest says anything.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "twin.h"

/* proc_run's line callback: keep every line. */
static void
twin_qemu_line(void *arg, const char *line, size_t len)
{
	struct strbuf	*sb = arg;

	strbuf_add(sb, line, len);
	strbuf_addc(sb, '\n');
}

/* The text of "QEMU -device help" (twin.h). */
char *
twin_qemu_devices(const char *qemu, char **cause)
{
	struct proc_opts	 po;
	struct proc_result	 res;
	struct strbuf		 sb;
	char			*argv[4];

	argv[0] = (char *)(qemu != NULL ? qemu : "qemu-system-x86_64");
	argv[1] = (char *)"-device";
	argv[2] = (char *)"help";
	argv[3] = NULL;
	memset(&po, 0, sizeof po);
	po.argv = argv;
	po.timeout = 30;
	po.line = twin_qemu_line;
	strbuf_init(&sb);
	po.arg = &sb;
	if (proc_run(&po, &res, cause) != 0) {
		strbuf_free(&sb);
		return NULL;
	}
	if (res.exit_code != 0 || !twin_qemu_has(sb.s, "virtio-net-pci")) {
		*cause = xasprintf("%s -device help: exit %d, no device list",
		    argv[0], res.exit_code);
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* Whether the help text lists the device: a line 'name "DEVICE"'. */
bool
twin_qemu_has(const char *help, const char *device)
{
	const char	*p;
	size_t		 n = strlen(device);

	for (p = help; p != NULL && (p = strstr(p, "name \"")) != NULL;
	    p++) {
		p += 6;
		if (strncmp(p, device, n) == 0 && p[n] == '"')
			return true;
	}
	return false;
}
