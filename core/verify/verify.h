/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.h - proving a trimmed configuration: build it out of tree
 * (build.c), pack an initramfs with its modules and the bundle's workload
 * (initramfs.c), boot it under QEMU on the machine the bundle was
 * recorded on (vm-spec.c, vm.c), judge each workload step from markers on
 * the serial console, and put back the trims that broke a step by delta
 * debugging (verify.c). docs/verify.md describes the loop and the files.
 *
 * Nothing here prints or touches curses: progress goes through callbacks,
 * errors through a char **cause, so the command line and the browser's
 * worker drive the same code.
 */
#ifndef KC_VERIFY_H
#define KC_VERIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../machine/machine.h"
#include "measure.h"

struct kconfig;
struct kbuild;
struct kc_symbol;
struct userspace_run;

/* ------------------------------------------------------------ build.c */

/*
 * A kernel build in an O= directory kept between runs, so that a later
 * round rebuilds only what the changed options touch.
 */
struct build {
	/* Set by the caller. */
	const char	*tree;		/* kernel source (clean for O=) */
	const char	*dir;		/* the O= directory, created */
	const char	*arch;		/* ARCH=, NULL: x86_64 */
	int		 jobs;		/* make -j, < 1: 1 */
	char *const	*envp;		/* make's environment, NULL: ours */
	bool		 no_ccache;	/* do not use ccache even if found */
	volatile sig_atomic_t *cancel;
	/* Phases: "config", "build", "install"; done/total objects for
	 * "build" (total 0 when unknown), 0/0 otherwise. */
	void		(*progress)(void *arg, const char *phase, long done,
			    long total);
	/* Every line make printed (for the log file). */
	void		(*log)(void *arg, const char *line);
	void		*arg;

	/* Results of build_kernel. */
	char		*release;	/* make kernelrelease */
	char		*bzimage;	/* DIR/arch/x86/boot/bzImage */
	char		*staging;	/* INSTALL_MOD_PATH (lib/modules/
					   RELEASE under it), NULL: no
					   modules (CONFIG_MODULES off) */
	bool		 ccache;	/* ccache was used */
	bool		 distcc;	/* distcc was (DISTCC_HOSTS set) */
	long		 objects;	/* objects compiled this round */
	double		 seconds;
	/* On a failed make: its last lines (error first), malloc'd. */
	char		*failure;
};

/* The tree can be built with O= (no .config, include/config or
 * arch/ARCH/include/generated in it, as the kernel's Makefile demands);
 * -1 with *cause naming what is in the way and what to do. */
int	 build_check_tree(const char *tree, const char *arch, char **cause);
/* Put config (a file) in DIR/.config and run the kernel's own
 * "make O=DIR olddefconfig"; -1 with *cause on failure. *changed is
 * set when conf rewrote anything but the header comment (the config
 * was not one conf accepts unchanged). */
int	 build_config(struct build *, const char *config, bool *changed,
	     char **cause);
/* make bzImage (and modules, and modules_install into DIR/staging when
 * CONFIG_MODULES is set); -1 with *cause (and b->failure) on failure. */
int	 build_kernel(struct build *, char **cause);
void	 build_free(struct build *);

/* -------------------------------------------------------- initramfs.c */

struct initramfs {
	const char	*out;		/* the cpio archive, written
					   atomically */
	const char	*staging;	/* build.staging, or NULL */
	const char	*release;	/* kernel release (modules dir) */
	const char	*busybox;	/* NULL: /bin/busybox (static) */
	const char	*kmod;		/* NULL: /bin/kmod, and its shared
					   libraries */
	const struct workload *workload;
	const char	*scratch;	/* for compiling workload helpers */
	/* Compile the bundle's own C (workload.d/NAME.c that is not one of
	 * kctui's helpers, verify_helpers): --build-bundle-helpers. */
	bool		 build_bundle_c;
	/* A kernel without loadable modules (staging NULL): its build's
	 * modules.builtin, packed as lib/modules/RELEASE/modules.builtin
	 * for /init's modprobe stand-in; NULL: none. */
	const char	*builtin;
	/* The userspace step's part of /init (userspace.h), packed as
	 * /etc/kctui/userspace, or NULL: no step. */
	const char	*userspace;
};

/* The guest helpers kctui ships (helpers-shipped.c): a bundle's
 * workload.d/NAME.c byte-identical to one is compiled as kctui's own. */
struct verify_helper {
	const char	*name;		/* "tcploop.c" */
	const char	*text;
	size_t		 len;
};
extern const struct verify_helper verify_helpers[];
extern const size_t verify_nhelpers;

/* The C files of the helpers directory dir that are the bundle's own
 * (not kctui's helpers), as "DIR/a.c DIR/b.c" (malloc'd), or NULL when
 * there is none: what --build-bundle-helpers would compile on this host.
 * Links are listed too (building refuses them). */
char	*initramfs_bundle_c(const char *dir);

/* Write an uncompressed newc initramfs: busybox's applets, kmod as
 * modprobe & co, the staged modules, /init (verify-init.sh), the
 * workload as /etc/kctui/workload and its helpers in /usr/local/bin;
 * -1 with *cause. */
int	 initramfs_build(const struct initramfs *, char **cause);

/* ----------------------------------------------------------------- vm.c */

/* Markers the guest's init prints on the serial console, one a line. */
#define VM_MARK	"@@kctui: "

enum vm_step_state {
	VM_STEP_NOT_REACHED,
	VM_STEP_PASS,
	VM_STEP_FAIL,
};

struct vm_step {
	char		*name;
	enum vm_step_state state;
	int		 rc;
	double		 seconds;
	/* Console lines between its begin and end markers (markers
	 * excluded), or for a step never reached the last console lines. */
	char	       **log;
	size_t		 nlog;
};

/* A bound device of the bundle its twin machine cannot give again. */
struct verify_nontwin {
	char		*bus, *driver, *path;
	char		*module;	/* NULL: built in */
	char		*ids;		/* "8086:24fd", or NULL */
	char		*why;
};

/* A device the guest has, bound or not ("device PATH MODALIAS"). */
struct vm_device {
	char		*path;		/* under /sys/devices */
	char		*modalias;
};

struct vm_result {
	bool		 booted;	/* the guest's /init ran */
	bool		 finished;	/* it reached the end */
	bool		 timed_out;
	bool		 kvm;
	char		*kvm_error;	/* QEMU's line when KVM failed and the
					   boot was run again under TCG */
	char		*host_error;	/* QEMU failed before the guest said
					   anything (under TCG too): what it
					   said; the host's failure, not the
					   kernel's */
	struct vm_step	*steps;		/* the workload's, in its order */
	size_t		 nsteps;
	char	       **modules;	/* loaded at the end */
	size_t		 nmodules;
	struct vm_driver *drivers;	/* bound at the end */
	size_t		 ndrivers;
	struct vm_device *devices;	/* every device with a modalias */
	size_t		 ndevices;
	char		*console;	/* path of the whole console log */
	double		 seconds;
	/* Seconds from the kernel's start to /init and to the end of
	 * coldplug, at their printk timestamps; -1: not seen. */
	double		 t_init, t_coldplug;
	/* Parser state. */
	long		 cur;		/* step being run, -1 */
	char	       **tail;		/* last console lines (ring) */
	size_t		 ntail;		/* lines seen: the next goes to
					   tail[ntail % its size] */
};

struct vm_boot {
	const struct vm_spec *spec;
	const struct workload *workload;
	const char	*qemu;		/* NULL: qemu-system-ARCH */
	const char	*kernel;
	const char	*initrd;
	const char	*dir;		/* disk images, console.log */
	/* The userspace step's root (userspace.h): attached last, as a
	 * virtio-blk disk with the serial USERSPACE_SERIAL, snapshot=on
	 * (the image is never written); NULL: none. */
	const char	*root_disk;
	double		 timeout;	/* seconds, 0: 600 */
	bool		 no_kvm;	/* TCG even if /dev/kvm works */
	bool		 assume_kvm;	/* tests: accel=kvm without opening
					   /dev/kvm */
	double		 kvm_silence;	/* seconds a guest under KVM may print
					   nothing before TCG is tried; 0: 60 */
	const char	*kvm_memo;	/* where a KVM failure is remembered
					   for this boot of the host, or NULL */
	volatile sig_atomic_t *cancel;
	/* "boot", then "step NAME" as each starts, "done". */
	void		(*progress)(void *arg, const char *event);
	void		*arg;
};

/* Boot and run the workload; 0 with *res filled (whether or not the
 * steps passed; a timeout sets res->timed_out), -1 with *cause when QEMU
 * is missing or could not run, a disk could not be made, or b->cancel
 * stopped it ("cancelled"). *res is always to be freed. */
int	 vm_run(const struct vm_boot *, struct vm_result *, char **cause);
/* For tests: start a result for a workload, feed it console lines. */
void	 vm_result_init(struct vm_result *, const struct workload *);
void	 vm_result_line(struct vm_result *, const char *line, size_t len);
/* The console ended: a step begun and not ended failed (rc -1), a step
 * never reached gets the last console lines as its log (vm_run calls
 * it). */
void	 vm_result_end(struct vm_result *);
void	 vm_result_free(struct vm_result *);
/* Whether /dev/kvm can be opened read-write. */
bool	 vm_kvm_usable(void);

/* ------------------------------------------------------------- verify.c */

/* Timed boots of a kernel at most (--boot-runs). */
#define VERIFY_BOOT_RUNS_MAX 9

/* The probes verify makes at most, the first included, unless told. */
#define VERIFY_MAX_PROBES 10

/* One option the trimmed config turns off (or from y to m). */
struct verify_trim {
	struct kc_symbol *sym;
	const char	*name;		/* without CONFIG_ */
	char		*subsys;	/* its Kconfig file's directory */
	int		 from, to;	/* enum kc_tri */
	bool		 tried;		/* from --try, not the trimmed config */
	bool		 kept;		/* put back by the loop */
	char		*step;		/* the step it is needed for */
};

/* What the loop reports while it runs. */
enum verify_ev {
	VEV_PROBE,	/* a new build and boot: n trimmed, of ntrims */
	VEV_PHASE,	/* phase: config, build, install, initramfs, boot;
			   seconds since the probe began */
	VEV_BUILD,	/* done/total objects */
	VEV_STEP,	/* name started (state NULL) or ended (state) */
	VEV_VERDICT,	/* the probe passed (state "pass") or not ("fail",
			   name = the first failing step) */
	VEV_KEEP,	/* name put back, needed for step state */
	VEV_NOTE,	/* a remark (detail) */
};

struct verify_event {
	enum verify_ev	 kind;
	int		 probe;		/* 1, 2, ... (builds and boots) */
	size_t		 n, ntrims;
	const char	*phase;
	long		 done, total;
	const char	*name;
	const char	*state;
	int		 rc;
	double		 seconds;
	const char	*detail;
	/* VEV_PROBE: the fewest probes still to come after this one for
	 * the failure being searched (-1: not known, e.g. the first), and
	 * the time they take at the later probes' mean (0: not known). */
	int		 left;
	double		 eta;
	/* VEV_STEP end of a failed step: its console lines. */
	char	       **log;
	size_t		 nlog;
};

struct verify {
	/* Set by the caller. */
	struct kconfig	*k;		/* the tree, parsed */
	const char	*tree;
	const char	*arch;		/* NULL: x86_64 */
	const char	*base;		/* the untrimmed config */
	const char	*trimmed;	/* the trimmed config */
	char	       **try_syms;	/* --try: more to trim if harmless */
	size_t		 ntry;
	const struct vm_spec *spec;
	const struct workload *workload;
	const char	*bundle;	/* its modules and drivers files */
	/* The tree's Kbuild index (NULL: no informed fill-back): maps the
	 * modules a failed boot names to the options that build them. */
	const struct kbuild *kb;
	const char	*work;		/* build dir, boots, probes (kept) */
	int		 jobs;
	double		 timeout;	/* per boot */
	bool		 no_kvm;
	char		*kvm_error;	/* set: KVM failed once, TCG since */
	bool		 no_fill_back;	/* judge the trimmed config only */
	/* Probes in all, the first included (verify-search.c): 0,
	 * VERIFY_MAX_PROBES; < 0, no bound. */
	int		 max_probes;
	/* Boots of each kernel timed for the boot-time rows, interleaved
	 * (baseline, trim, baseline, ...; the median is reported): 0, 1. */
	int		 boot_runs;
	/* A second config for the measured table's last column (y+m and
	 * what needs no build), or NULL. */
	const char	*compare;
	/* The baseline boot before any build: the kernel the bundle was
	 * recorded on, unpacked (ROOT/boot/vmlinuz-REL and
	 * ROOT/lib/modules/REL), or NULL: the distribution package of the
	 * bundle's uname -r, downloaded with apt-get. no_baseline: none. */
	const char	*base_kernel;
	bool		 no_baseline;
	/* Boot the baseline, report its steps, and stop: nothing built
	 * (checks a bundle's machine and workload, or a twin). */
	bool		 build_bundle_c;	/* --build-bundle-helpers */
	bool		 baseline_only;
	/* The machine is a twin made from the evidence (core/twin), not
	 * the bundle's own vm: what it says of itself for the report
	 * (NULL: the bundle's vm). Its bound devices that have no twin are
	 * left out of the devices check, the trims that build their
	 * modules are put back before the first probe ("not verifiable
	 * under QEMU: kept"), and the report lists them; the devices it
	 * gives with another (a keyboard's two HID interfaces as one QEMU
	 * keyboard) are matched by bus and driver alone. */
	const char	*twin;
	const struct verify_nontwin *nontwin;
	size_t		 nnontwin;
	const struct vm_driver *loose;
	size_t		 nloose;
	/* Build the probes exactly as configured, with the config's debug
	 * information (DWARF, BTF) and module versions; by default both
	 * are off in what is built (verify_build_variant()). */
	bool		 as_is;
	const char	*qemu;
	/* The distribution userspace step (userspace.h): after the
	 * workload, boot a cached Debian root with systemd and judge it;
	 * why it is on or off, for the report ("the bundle's mounts show
	 * systemd ran: ..."); the kctui cache (NULL: $KCTUI_CACHE, ...). */
	bool		 userspace;
	const char	*userspace_why;
	const char	*cache;
	struct userspace_run *us;	/* its state (userspace.c, owned) */
	volatile sig_atomic_t *cancel;
	void		(*event)(void *arg, const struct verify_event *);
	void		(*log)(void *arg, const char *line);
	void		*arg;

	/* Results. */
	struct verify_trim *trims;
	size_t		 ntrims;
	int		 probes;	/* builds and boots done */
	int		 cached;	/* probes answered from earlier ones */
	bool		 passed;	/* the final config passed */
	/* The probes were built with debug information switched off (the
	 * config had it, v->as_is was not asked). */
	bool		 built_without_debug;
	/* Likewise for MODVERSIONS (symbol CRCs). */
	bool		 built_without_modversions;
	char		*final;		/* the final config (text) */
	struct vm_result result;	/* the final config's boot */
	long		 bzimage_bytes, modules_bytes;
	/* What the trim bought, measured without a boot (measure.h): the
	 * baseline (the bundle's kernel package), the final trimmed build,
	 * the tree's `make localmodconfig` of the same config with the
	 * bundle's modules (y+m only), the --compare config (y+m only);
	 * -1 figures where not known. Boot times: verify-boottime.c. */
	struct measure	 measured[4];
	int		 nmeasured;	/* 3, 4 with --compare */
	bool		 has_measured;
	char	       **lost;		/* "bus driver device" bound in the
					   bundle, not in the guest */
	size_t		 nlost;
	char	       **absent;	/* "bus driver device" bound in the
					   bundle, a device this machine does
					   not have: its difference, not the
					   trim's */
	size_t		 nabsent;
	bool		 has_drivers;	/* the bundle has a drivers file:
					   "devices" is judged */
	char	       **missing;	/* modules loaded in the bundle, not
					   in the guest */
	size_t		 nmissing;
	double		 seconds;
	double		 first_probe, later_probe_max;	/* seconds */
	char		*failure;	/* the last probe's first failing
					   step */
	int		 informed;	/* put back because a boot named them
					   (the rest by bisection) */
	int		 culprits;	/* found option by option */
	int		 batches;	/* put back whole, for the budget */
	bool		 budget_hit;	/* the probe budget cut the search */
	char		*baseline;	/* what the baseline was and did, or
					   why there was none (the report) */
	char		*build_error;	/* its build's error, if the build
					   failed */
};

/* Build, boot and judge the trimmed config; fill back what a step needs.
 * 0 when the loop ran (v->passed tells the verdict), -1 with *cause when
 * it could not (bad input, build failure of a probe that conf accepted,
 * QEMU missing, cancelled). */
int	 verify_run(struct verify *, char **cause);
/* The report (markdown) of a finished run. */
char	*verify_report(const struct verify *);
/* The measured table as TSV and YAML beside the report: REPORT without
 * its .md, plus .tsv and .yaml; -1 with *cause. Nothing when there is no
 * table. */
int	 verify_write_measured(const struct verify *, const char *report,
	     char **cause);
void	 verify_free(struct verify *);

/* The guest's /init (core/verify/verify-init.sh, made into a string by the
 * Makefile). */
extern const char verify_init_sh[];

#endif
