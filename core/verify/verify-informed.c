/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-informed.c - what a failed boot says it missed, before any
 * bisection: modules the guest asked for and could not load (kmod's
 * "modprobe: FATAL: Module X not found", for a name or one of the
 * kernel's request_module aliases such as fs-vfat, crypto-xts(aes),
 * net-pf-38; busybox's "modprobe: module X not found in modules.dep"),
 * a file system the kernel did not know ("unknown filesystem
 * type 'vfat'"), and drivers the bundle had bound that the guest lost;
 * each named module mapped, through the bundle's modules.alias and the
 * Kbuild index, to the options that build it. Putting those back costs
 * one probe; bisecting for them costs a build per halving.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "../kbuild/kbuild.h"
#include "verify.h"
#include "verify-informed.h"

/* Add a copy of s[0..n) to the list unless there. */
static void
informed_add(struct verify_named *nm, const char *s, size_t n,
    const char *why, size_t wn)
{
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i < nm->n; i++)
		if (strlen(nm->v[i].name) == n &&
		    strncmp(nm->v[i].name, s, n) == 0)
			return;
	nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof *nm->v);
	nm->v[nm->n].name = xstrndup(s, n);
	nm->v[nm->n].why = xstrndup(why, wn);
	nm->n++;
}

/* The text between prefix and the first of stop after it, in line. */
static bool
informed_between(const char *line, size_t len, const char *prefix,
    const char *stop, const char **s, size_t *n)
{
	const char	*p = memmem(line, len, prefix, strlen(prefix)), *e;

	if (p == NULL)
		return false;
	p += strlen(prefix);
	for (e = p; e < line + len && strchr(stop, *e) == NULL; e++)
		;
	*s = p;
	*n = (size_t)(e - p);
	return *n > 0;
}

/* Scan a console log (see verify-informed.h). */
void
verify_named_scan(struct verify_named *nm, const char *console)
{
	const char	*line, *end, *s;
	char		*fs;
	size_t		 len, n;

	for (line = console; line != NULL && *line != '\0'; line = end) {
		end = strchr(line, '\n');
		len = end != NULL ? (size_t)(end - line) : strlen(line);
		/* kmod's, then busybox's (a workload's bare "modprobe" is
		 * busybox's applet in the guest) */
		if (informed_between(line, len, "modprobe: FATAL: Module ",
		    " \r", &s, &n) || informed_between(line, len,
		    "modprobe: module ", " \r", &s, &n))
			informed_add(nm, s, n, line, len);
		else if (informed_between(line, len,
		    "unknown filesystem type '", "'\r", &s, &n)) {
			/* The kernel asks for "fs-TYPE" (request_module). */
			fs = xasprintf("fs-%.*s", (int)n, s);
			informed_add(nm, fs, strlen(fs), line, len);
			free(fs);
		}
		end = end != NULL ? end + 1 : NULL;
	}
}

/* A lost driver "bus driver device" (verify's lost list): its driver. */
void
verify_named_lost(struct verify_named *nm, const char *lost)
{
	const char	*d, *e;
	char		*why;

	if ((d = strchr(lost, ' ')) == NULL)
		return;
	d++;
	e = strchr(d, ' ');
	why = xasprintf("devices: %s lost its driver", lost);
	informed_add(nm, d, e != NULL ? (size_t)(e - d) : strlen(d), why,
	    strlen(why));
	free(why);
}

/* Call fn for every symbol that builds module (or the module an alias
 * of that name resolves to). The number of objects found. */
size_t
verify_named_options(const struct kbuild *kb, const struct evidence *aliases,
    const char *name, void (*fn)(void *, const char *), void *arg)
{
	const struct kbuild_obj *const *objs;
	const char *const	*mods;
	size_t			 n, i;
	int			 c;

	if ((n = kbuild_module(kb, name, &objs)) == 0 && aliases != NULL &&
	    evidence_alias_modules(aliases, name, &mods) > 0)
		n = kbuild_module(kb, mods[0], &objs);
	for (i = 0; i < n; i++)
		for (c = 0; c < objs[i]->nconds; c++)
			fn(arg, objs[i]->conds[c]);
	return n;
}

/* Free the list. */
void
verify_named_free(struct verify_named *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++) {
		free(nm->v[i].name);
		free(nm->v[i].why);
	}
	free(nm->v);
	memset(nm, 0, sizeof *nm);
}

/*
 * Match the bundle's bound devices with the guest's (see
 * verify-informed.h): first by path and driver, then what is left by bus
 * and driver. A device's path holds its place on its bus, and places
 * move with the machine (QEMU's default parallel port at pnp0/00:02 moved
 * every later ISA device up by one under -nodefaults); what it is does
 * not.
 */
void
verify_match_devices(const struct vm_driver *want, size_t nwant,
    const struct vm_driver *have, size_t nhave, bool *lost)
{
	bool	*used = xcalloc(nhave + 1, sizeof *used);
	size_t	 i, j;

	for (i = 0; i < nwant; i++) {
		lost[i] = true;
		for (j = 0; j < nhave; j++) {
			if (used[j] || strcmp(have[j].device,
			    want[i].device) != 0 || strcmp(have[j].driver,
			    want[i].driver) != 0)
				continue;
			used[j] = true;
			lost[i] = false;
			break;
		}
	}
	for (i = 0; i < nwant; i++) {
		for (j = 0; lost[i] && j < nhave; j++) {
			if (used[j] || strcmp(have[j].bus, want[i].bus) != 0 ||
			    strcmp(have[j].driver, want[i].driver) != 0)
				continue;
			used[j] = true;
			lost[i] = false;
		}
	}
	free(used);
}

/* Whether the guest has a device at path (bound, or with a modalias),
 * or one with this modalias. */
static bool
verify_absent_here(const struct vm_device *have, size_t nhave,
    const struct vm_driver *bound, size_t nbound, const char *path,
    const char *alias)
{
	size_t	i;

	for (i = 0; i < nbound; i++) {
		if (strcmp(bound[i].device, path) == 0)
			return true;
	}
	for (i = 0; i < nhave; i++) {
		if (strcmp(have[i].path, path) == 0 || (alias != NULL &&
		    strcmp(have[i].modalias, alias) == 0))
			return true;
	}
	return false;
}

/*
 * Split the lost devices (see verify-informed.h). A device the guest
 * has without a driver lost it to the trim. One the guest does not have
 * is absent when the device above it is there and bound (its driver
 * would have made it: the hardware is missing, as for a recorder's
 * device the vm file cannot describe) or when nothing above it was
 * bound in the bundle (firmware-enumerated devices: PCI, ACPI, pnp);
 * under a parent that lost its own driver it is lost with it.
 */
void
verify_absent_devices(const struct vm_driver *want, size_t nwant,
    const bool *lost, const struct strmap *aliases,
    const struct vm_device *have, size_t nhave,
    const struct vm_driver *bound, size_t nbound, bool *absent)
{
	size_t	*order = xcalloc(nwant + 1, sizeof *order);
	size_t	 i, j, k, len;
	const char *dev, *alias;

	for (i = 0; i < nwant; i++) {
		order[i] = i;
		absent[i] = false;
	}
	/* No device lines (an older guest /init): nothing can be told. */
	if (nhave == 0) {
		free(order);
		return;
	}
	/* parents first: by path length (insertion sort, a few hundred) */
	for (i = 1; i < nwant; i++) {
		size_t	o = order[i], lo = strlen(want[o].device);

		for (j = i; j > 0 && strlen(want[order[j - 1]].device) > lo; j--)
			order[j] = order[j - 1];
		order[j] = o;
	}
	for (k = 0; k < nwant; k++) {
		i = order[k];
		if (!lost[i])
			continue;
		dev = want[i].device;
		alias = strmap_get(aliases, dev, strlen(dev));
		if (verify_absent_here(have, nhave, bound, nbound, dev, alias))
			continue;
		absent[i] = true;
		/* the nearest bound device above it in the bundle */
		for (len = strlen(dev); len > 0; len--) {
			if (dev[len - 1] != '/')
				continue;
			for (j = 0; j < nwant; j++) {
				if (strlen(want[j].device) == len - 1 &&
				    strncmp(want[j].device, dev, len - 1) == 0)
					break;
			}
			if (j < nwant) {
				absent[i] = !lost[j] || absent[j];
				break;
			}
		}
	}
	free(order);
}
