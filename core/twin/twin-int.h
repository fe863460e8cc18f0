/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin-int.h - what the twin's files share while one twin is made:
 * twin.c reads the bundle and decides each device's twin, twin-vm.c
 * writes the vm file, twin-workload.c the workload.
 */
#ifndef KC_TWIN_INT_H
#define KC_TWIN_INT_H

#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "../machine/vm-allow.h"
#include "twin.h"

/* A NIC of the twin, for the workload's network steps. */
struct twin_nic {
	const char	*driver;	/* as nic DRIVER finds it */
	int		 subnet;	/* 10.0.SUBNET.0/24 */
};

struct twin_ctx {
	const struct evidence	*ev;
	const struct twin_opts	*o;
	struct twin		*t;
	unsigned		 machine;	/* TWIN_Q35 or TWIN_PC */
	const char		*machine_why;
	const struct twin_rule	**rule;		/* per device, or NULL */
	char			*cpu, *cpu_why;
	int			 smp, memory;
	char			*smp_why, *memory_why;
	/* The vm text, and the allow-list check of every line. */
	struct strbuf		 vm;
	struct vm_allow		 allow;
	int			 lineno;
	char			*refused;	/* first refused line */
	/* Where the file systems' disks go. */
	const char		*primary;	/* storage driver, or NULL */
	struct twin_nic		*nics;
	size_t			 nnics;
	int			 nids;		/* ids handed out */
	char			*usb_bus;	/* "usb1.0", or NULL */
	bool			 has_lpc;
	/* Devices allocated (t->devices grows by doubling). */
	size_t			 devices_cap;
	/* Strings of the maps below, freed with the context. */
	struct arena		 scratch;
	/* twin_qemu_has by device name: (void *)2 yes, (void *)1 no. */
	struct strmap		 qemu_has;
	/* The bundle's workload.d, and what it has. */
	char			*helpers;
	bool			 tcploop, afalg;
};

/* twin.c: the first bundle file of that name (plain, .xz or .gz) among
 * the evidence's bundles, decoded, or NULL. */
char	*twin_bundle_text(const struct twin_ctx *, const char *name);

/* twin-vm.c */
void	 twin_vm_write(struct twin_ctx *);

/* twin-workload.c */
void	 twin_workload_write(struct twin_ctx *);

/* Append "# TEXT" to sb, wrapped at 72 columns. */
void	 twin_comment(struct strbuf *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));

#endif
