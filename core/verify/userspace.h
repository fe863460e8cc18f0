/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace.h - verify's distribution userspace step (issue 34): after
 * the workload, the guest's /init hands the machine to a small Debian
 * root (systemd, udev, kmod) on a disk of its own, and a unit in that
 * root reports `systemctl is-system-running --wait`, the failed units
 * with their journal lines and `systemd-analyze time` on the serial
 * console. The root is made once per release and architecture by
 * mmdebstrap and cached (userspace-root.c); the console is judged
 * against the baseline's (userspace-judge.c); the hooks into the probe
 * loop and the report are userspace.c; the guest's scripts are
 * userspace-guest.c. docs/verify.md, "The distribution's userspace".
 */
#ifndef KC_VERIFY_USERSPACE_H
#define KC_VERIFY_USERSPACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct verify;
struct verify_state;
struct vm_result;

/* The step's name in the workload's list of steps, and the serial the
 * root's disk has (verify-init.sh's `disk SERIAL` finds it). */
#define USERSPACE_STEP		"userspace"
#define USERSPACE_SERIAL	"kctui-root"

/* ------------------------------------------------- userspace-guest.c */

/* Sourced by the initramfs's /init after the workload (packed as
 * /etc/kctui/userspace): mounts the root, moves the kernel's modules
 * onto a tmpfs in it and switch_roots into systemd. */
extern const char userspace_init_sh[];
/* mmdebstrap's --customize-hook ("$1" is the root): the check unit and
 * its script, a machine-id, firstboot masked. */
extern const char userspace_hook_sh[];

/* ------------------------------------------------- userspace-judge.c */

/* What one boot's check said (the userspace step's console lines). */
struct userspace_boot {
	bool		 seen;		/* the check reported a state */
	char		*state;		/* "running", "degraded", ... */
	char	       **failed;	/* failed units, in their order */
	size_t		 nfailed;
	/* The console lines about each failed unit: systemd's own
	 * ("[FAILED] Failed to start X ...") and its journal's ("X: ..."),
	 * escape sequences (already shown as \x1b text) taken out. */
	char	       **quote;
	size_t		 nquote;
	/* systemd-analyze time, seconds (-1: not said): from the kernel's
	 * start to systemd's (it includes kctui's /init: coldplug and the
	 * workload), systemd's own, the sum; and the uptime at which
	 * /init handed over. */
	double		 kernel, userspace, total, handover;
	char		*time_line;	/* "Startup finished in ..." */
};

/* Read a userspace step's console lines into *b (initialised here). */
void	 userspace_boot_parse(struct userspace_boot *, char *const *lines,
	     size_t n);
void	 userspace_boot_free(struct userspace_boot *);
/* A systemd time span ("1min 2.345s", "850ms", "1.2s") in seconds, or
 * -1. */
double	 userspace_span(const char *s, size_t n);
/*
 * The verdict of a boot against the baseline's (base NULL: none):
 * running passes; degraded passes when every failed unit failed on the
 * baseline too; anything else fails. On a failure *why is the summary
 * (malloc'd) and the units that failed and not on the baseline are in
 * *newly (malloc'd array of borrowed strings). true: passed.
 */
bool	 userspace_judge(const struct userspace_boot *base,
	     const struct userspace_boot *b, char **why, const char ***newly,
	     size_t *nnewly);

/* -------------------------------------------------- userspace-root.c */

struct userspace_root {
	const char	*cache;		/* NULL: $KCTUI_CACHE, else
					   $XDG_CACHE_HOME/kctui, else
					   ~/.cache/kctui */
	const char	*suite;		/* bookworm, trixie, ... */
	const char	*arch;		/* Debian's: amd64 */
	volatile sig_atomic_t *cancel;
	/* Every line mmdebstrap and e2fsprogs print (for the log). */
	void		(*log)(void *arg, const char *line);
	void		*arg;

	/* Results. */
	char		*image;		/* the cached root (ext4, raw) */
	bool		 built;		/* made by this call */
	double		 seconds;	/* its making, when built */
	long long	 bytes;		/* its allocated bytes on disk */
};

/* The Debian release whose userspace goes with a bundle's kernel (its
 * uname file's text: "... Debian 6.1.192-3 ..."), else the host's
 * (/etc/os-release), else bookworm (malloc'd). */
char	*userspace_suite(const char *uname_text);
/* The cache's root for r->suite and r->arch, made with mmdebstrap when
 * it is not there yet (under a lock, written to a temporary name and
 * renamed: never a half-made root, never remade by surprise); -1 with
 * *cause (mmdebstrap missing: how to get it). */
int	 userspace_root_get(struct userspace_root *, char **cause);
void	 userspace_root_free(struct userspace_root *);

/* ------------------------------------------------------- userspace.c */

/* The run's userspace state (struct verify's us). */
struct userspace_run {
	struct userspace_root root;
	char		*suite;
	struct userspace_boot base;	/* the baseline's check */
	bool		 has_base;
	struct userspace_boot last;	/* the last probe's */
	bool		 has_last;
	double		 base_step, last_step;	/* the step's seconds */
	int		 caught;	/* probes the step alone failed */
};

/* Debian's name of a machine's architecture (x86_64: amd64). */
const char *userspace_debian_arch(const char *arch);
/* Before the baseline: the root from the cache (made when missing);
 * nothing when the step is off. -1 with *cause. */
int	 userspace_prepare(struct verify_state *, char **cause);
/* The root's image when the step is on, else NULL. */
const char *userspace_image(const struct verify *);
/* After a boot: its check read, judged against the baseline's, the
 * step's state and console lines set to the verdict (a degraded system
 * whose failed units all failed on the baseline passes; a new failed
 * unit fails the step with its lines). baseline: this was the
 * baseline's boot. */
void	 userspace_after_boot(struct verify_state *, struct vm_result *,
	     bool baseline);
/* The measured table's rows of the step: `systemd-analyze time` of the
 * baseline's and the trim's boots, and the step's wall time (ncol: the
 * table's columns, baseline first, trimmed second). */
void	 userspace_measure_rows(const struct verify *, struct strbuf *,
	     int ncol);
/* The report's section (why the step was off, when it was). */
void	 userspace_report(const struct verify *, struct strbuf *);
void	 userspace_free(struct verify *);

#endif
