/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm-allow.h - the allow-list a bundle's vm file is checked against
 * before anything reaches QEMU (vm-allow.c; docs/evidence.md).
 */
#ifndef KC_VM_ALLOW_H
#define KC_VM_ALLOW_H

#include <stdbool.h>
#include <stddef.h>

enum vm_allow_directive {
	VM_ALLOW_MACHINE,
	VM_ALLOW_CPU,
	VM_ALLOW_DEVICE,
	VM_ALLOW_DISK,		/* the DEVICE of a disk line */
	VM_ALLOW_NETDEV,
	VM_ALLOW_OBJECT,
	VM_ALLOW_AUDIODEV,
};

/* The ids a file declares and the references to them, checked at the
 * end (QEMU creates backends before devices, so order is free). */
struct vm_allow {
	struct vm_allow_id {
		char	*id;
		int	 kind;
		int	 lineno;
	}		*ids;
	size_t		 nids;
	struct vm_allow_ref {
		char	*id;
		char	*key;
		int	 kind;
		int	 lineno;
	}		*refs;
	size_t		 nrefs;
};

/* Check one directive's QEMU option string: NULL when allowed, else a
 * malloc'd message (without file:line). */
char	*vm_allow_check(struct vm_allow *, enum vm_allow_directive,
	    const char *opts, int lineno);
/* After the last line: every netdev=, rng=, audiodev= names an id of its
 * kind; else a message, and the referring line in *lineno. */
char	*vm_allow_finish(struct vm_allow *, int *lineno);
void	 vm_allow_free(struct vm_allow *);
/* The i-th device of the allow-list, or NULL past the end; *disk: given
 * with 'disk' (else with 'device'). */
const char *vm_allow_device_at(size_t i, bool *disk);

#endif
