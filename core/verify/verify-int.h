/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-int.h - the state of one verify run, shared by the probe loop
 * (verify.c), the fill-back (verify-fillback.c), the devices check
 * (verify-devices.c) and the report (verify-report.c).
 */
#ifndef KC_VERIFY_INT_H
#define KC_VERIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify.h"

struct kc_values;

/* A probe's verdict, remembered by the hash of its configuration. */
struct verify_memo {
	uint64_t	 hash;
	bool		 pass;
	char		*step;
};

struct verify_state {
	struct verify	*v;
	struct kc_values *base;		/* the untrimmed values */
	struct verify_memo *memo;
	size_t		 nmemo;
	size_t		*order;		/* trims in subsystem order */
	struct build	 b;
	char		*bootdir;
	char		*kvm_memo;	/* work/kvm-failed (vm.c) */
	char		*initrd;
	char		*probe_config;	/* the config file of a probe */
	double		 probe_t0;	/* when the current probe began */
	/* The estimate the next probe announces: the fewest probes after
	 * it for the current failure (-1: none), set by whoever asks for
	 * it; and the later probes' times, for the time left. */
	int		 left;
	double		 later_sum;
	int		 nlater;
	char		*base_config;	/* the untrimmed config, plain */
	bool		 booting_baseline;	/* verify_boot of the baseline
						   (userspace.c's verdict) */
	/* int, hex and string values the trimmed config changes: every
	 * probe takes them (they are not trims to search over). */
	struct kc_symbol **strsyms;
	char		**strvals;
	size_t		 nstr;
	/* bool/tristate values the trimmed config raises (a choice's other
	 * value selected, an option turned on): every probe takes them. */
	struct kc_symbol **raise;
	unsigned char	*raise_to;
	size_t		 nraise;
	/* The last passing probe's boot (the report's steps, its times),
	 * and the hash of the config the build directory holds now. */
	struct vm_result pass;
	bool		 has_pass;
	uint64_t	 built_hash, pass_hash;
	/* The baseline, booted again for its times (NULL: none), and the
	 * boot times, /init and coldplug, of each kernel's timed boots. */
	char		*base_kernel, *base_root, *base_release;
	double		 times[2][2][VERIFY_BOOT_RUNS_MAX];
	int		 ntimes[2];
};

/* verify-boottime.c: boot the baseline and the final trimmed kernel
 * again, interleaved, until each has v->boot_runs timed boots, and put
 * the medians in the measured table. */
void	 verify_boot_times(struct verify_state *);
/* The boot times of one boot of the baseline (0) or the trim (1). */
void	 verify_boot_time_add(struct verify_state *, int which,
	     const struct vm_result *);

/* verify.c: tell the caller; build, boot and judge the probe of the
 * trims want says (1 passed, 0 failed at *step, -1 with *cause). */
void	 verify_emit(struct verify *, struct verify_event *);
void	 verify_note(struct verify *, const char *detail);
int	 verify_try(struct verify_state *, const bool *want, char **step,
	     char **cause);

/* verify.c: boot a kernel (its modules staged, or NULL) on the bundle's
 * machine with the workload into *r (0, or -1 with *cause: the host's
 * failure); the first failing step of a boot, or NULL; each step's end
 * told. */
int	 verify_boot(struct verify_state *, const char *kernel,
	     const char *initrd, const char *staging, const char *release,
	     struct vm_result *, char **cause);
const char *verify_first_failure(const struct verify *,
	     const struct vm_result *);
void	 verify_emit_steps(struct verify *, const struct vm_result *);

/* verify-baseline.c: the baseline booted first (0, or -1 with *cause:
 * the machine, the workload or the host is wrong); the trimmed kernel's
 * measures beside the baseline's. */
int	 verify_baseline(struct verify_state *, char **cause);
void	 verify_measure_trimmed(struct verify_state *);

/* verify-fillback.c: keep the trims of devices with no twin before the
 * first probe; put back what a failed step needs (0, -1 with *cause). */
void	 verify_keep_nontwin(struct verify_state *);
int	 verify_fill_back(struct verify_state *, const char *first_step,
	     char **cause);

/* verify-devices.c: a bundle file's text (plain, .xz or .gz; NULL when
 * it has none), and the compare of what the guest had loaded and bound at
 * the end with the bundle's modules and drivers files (when it has
 * them) into v's missing, lost and absent lists. */
char	*verify_bundle_file(const struct verify *, const char *name);
void	 verify_compare(struct verify *, const struct vm_result *);
#endif
