/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - record an evidence bundle (docs/evidence.md) on the running
 * machine: /proc and sysfs listings, and, when root with tracefs, the
 * function tracer for N seconds or while a command runs.
 */
#ifndef KC_COLLECT_H
#define KC_COLLECT_H

#include <stdbool.h>

struct collect_options {
	const char	 *outdir;	/* created if missing */
	int		  trace_seconds;	/* when no command */
	char *const	 *command;	/* argv to run and trace, or NULL */
	bool		  no_trace;
	/* outdir not empty: replace what it holds (a fresh directory
	 * written beside it, then swapped in); else refused. */
	bool		  force;
	size_t		  buffer_kb;	/* per-CPU ring buffer, 0: default */
	/* Only what changes while the system runs (collect --append,
	 * core/collect-append.c): no kallsyms, modules.alias, ranges or
	 * config, which belong to the kernel and were taken once. */
	bool		  snapshot;
	/* Progress ("events seen, distinct functions"), a line each call
	 * without newline; NULL for none. */
	void		(*progress)(void *, const char *);
	/* What was skipped and why (not root, no tracefs...). */
	void		(*note)(void *, const char *);
	void		 *arg;
};

/* 0, or -1 with *cause (output directory unusable, command not found:
 * "NAME: not found"). */
int	collect_run(const struct collect_options *, char **cause);
/* /proc/mounts text as the bundle's mounts file has it: mount points
 * other than the system's as "/private", sources other than a device's
 * kernel name or a pseudo file system's as "none" or "/dev/block",
 * option values other than numbers left out (malloc'd). */
char	*collect_mounts_text(const char *text);
/* A kernel config as the bundle's config.xz has it: the values that can
 * name the machine, its owner or their files (CONFIG_CMDLINE,
 * CONFIG_DEFAULT_HOSTNAME, CONFIG_INITRAMFS_SOURCE, absolute paths of
 * keys and firmware) set back to the kernel's defaults, each said in a
 * comment (malloc'd). */
char	*collect_config_redact(const char *text, size_t len);
/* /proc/kallsyms text with every address made relative to _stext's (the
 * KASLR base not given away); unchanged without _stext or with all
 * addresses 0 (malloc'd). */
char	*collect_kallsyms_relative(const char *text, size_t len);
#endif
