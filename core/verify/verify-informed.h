/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-informed.h - modules a failed boot names (verify-informed.c),
 * and the options that build them: verify puts those back before it
 * bisects.
 */
#ifndef KC_VERIFY_INFORMED_H
#define KC_VERIFY_INFORMED_H

#include <stdbool.h>
#include <stddef.h>

struct evidence;
struct kbuild;

struct kbuild;
struct strmap;
struct vm_device;
struct vm_driver;

/* Module names (or request_module aliases) a boot asked for, each with
 * the console line that named it. */
struct verify_named {
	struct {
		char	*name;
		char	*why;
	}		*v;
	size_t		 n;
};

/* Add what a console log names: "modprobe: FATAL: Module X not found",
 * "unknown filesystem type 'T'" (as fs-T). */
void	verify_named_scan(struct verify_named *, const char *console);
/* Add the driver of a lost device ("bus driver device"). */
void	verify_named_lost(struct verify_named *, const char *lost);
/* fn(arg, SYMBOL) for each condition of each object of the module name
 * (an alias resolved through the evidence's modules.alias, the first
 * module in file order; aliases may be NULL); the number of objects. */
size_t	verify_named_options(const struct kbuild *,
	    const struct evidence *aliases,
	    const char *name, void (*fn)(void *, const char *), void *arg);
void	verify_named_free(struct verify_named *);

/* Which of the bundle's bound devices (want) the guest lost (lost[i]):
 * matched by path and driver, else by bus and driver (paths that moved),
 * each guest device used once. */
void	verify_match_devices(const struct vm_driver *want, size_t nwant,
	    const struct vm_driver *have, size_t nhave, bool *lost);
/* Of the lost devices, which are absent from the guest's machine
 * (absent[i]): neither its path nor its modalias (the bundle's, from
 * aliases: path -> modalias, may be empty) is among the guest's devices
 * (have: those with a modalias; bound: those with a driver), and no
 * device above it on its path lost its driver. Such a device is the
 * machine's difference, not the trim's. */
void	verify_absent_devices(const struct vm_driver *want, size_t nwant,
	    const bool *lost, const struct strmap *aliases,
	    const struct vm_device *have, size_t nhave,
	    const struct vm_driver *bound, size_t nbound, bool *absent);

#endif
