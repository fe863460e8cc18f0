/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measure.h - what a trim bought, measured on the kernels themselves
 * without a boot: the image's bytes, vmlinux's text, data and bss (its
 * ELF sections, as binutils' size counts them), the system calls
 * compiled in (the syscall table's entries that are not sys_ni_syscall
 * nor a weak COND_SYSCALL stub), the modules and their bytes, the y+m
 * count of the config. For verify's report, one column a kernel.
 */
#ifndef KC_VERIFY_MEASURE_H
#define KC_VERIFY_MEASURE_H

#include <stdbool.h>

struct strbuf;

/* One kernel's figures; -1: not known (the report says why not). */
struct measure {
	const char	*label;		/* column heading */
	long long	 bzimage;	/* bytes */
	long long	 text, data, bss;	/* vmlinux, bytes */
	long		 syscalls;	/* compiled in */
	const char	*syscalls_from;	/* "vmlinux", "System.map" */
	long		 modules;	/* .ko files */
	long long	 modules_bytes;	/* their bytes on disk */
	long		 ym;		/* y/m options of its config */
	/* Seconds from the kernel's start to /init and to the end of
	 * coldplug (printk timestamps), the median of boot_runs boots;
	 * -1: not booted or not seen. */
	double		 boot_init, boot_coldplug;
	int		 boot_runs;
	const char	*accel;		/* "kvm", "tcg" */
};

/* Every figure unknown, the column named label. */
void	measure_init(struct measure *, const char *label);
/*
 * An ELF file's text (allocated, not writable: code and read-only
 * data), data (allocated, writable, in the file) and bss (allocated,
 * not in the file), as `size` prints them; -1 with *cause.
 */
int	measure_elf_sizes(const char *path, long long *text, long long *data,
	    long long *bss, char **cause);
/*
 * The system calls an ELF (vmlinux) has compiled in: the entries of its
 * sys_call_table whose target is a function symbol neither named
 * *sys_ni_syscall nor weak (x86's COND_SYSCALL stubs, left when the
 * option of a call is off); -1 with *cause (no table, no symbols).
 */
long	measure_syscalls(const char *path, char **cause);
/*
 * The same from a System.map (a distribution kernel ships no vmlinux):
 * its global text symbols __x64_sys_* (W, weak: the stubs, not counted),
 * but sys_ni_syscall; -1 when the file cannot be read or has none.
 */
long	measure_syscalls_map(const char *path);
/* The same of a System.map's or /proc/kallsyms' text (a bundle's
 * kallsyms); -1 when it has no __x64_sys_ symbol at all (Debian's
 * System.map is a placeholder). Every wrapper counts, those only the
 * 32-bit tables use too: an upper bound of the 64-bit table's count. */
long	measure_syscalls_map_text(const char *text);
/* The modules (.ko, .ko.xz, .ko.gz, .ko.zst files) under dir and their
 * bytes on disk; -1 in *n when dir cannot be read. */
void	measure_modules(const char *dir, long *n, long long *bytes);
/* The y/m option lines of a config text. */
long	measure_ym_text(const char *config);
/* The table of n columns (markdown), each row a figure, "-" where
 * unknown. */
void	measure_table(struct strbuf *, const struct measure *, int n);
/* The same as TSV: a header line "figure" and the labels, then a line a
 * row, its key (bzimage_bytes, ...) and the values, "-" where unknown. */
void	measure_tsv(struct strbuf *, const struct measure *, int n);
/* The same as YAML (libyaml): "columns", a mapping a column (label and
 * the keys, null where unknown); NULL with *cause on an emitter error. */
char	*measure_yaml(const struct measure *, int n, char **cause);
/* The median of n values (n >= 1; sorted in place). */
double	measure_median(double *, int n);
#endif
