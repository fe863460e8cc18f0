/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-devices.c - the devices check of a boot: what the guest had
 * loaded and bound at the end against the bundle's modules, drivers and
 * modalias files; a device the recorded machine had bound and this kernel
 * left without its driver is lost, one the machine does not have at all
 * is absent, and the devices with no twin are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/strmap.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "../evidence/zstream.h"
#include "verify-informed.h"
#include "verify-int.h"
#include "verify.h"

/* Lines of a bundle file (plain, .xz or .gz), or NULL when absent. */
char *
verify_bundle_file(const struct verify *v, const char *name)
{
	return zstream_bundle_text(v->bundle, name);
}

/* Add s to a list. */
static void
verify_list_add(char ***list, size_t *n, char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = s;
}

/* Read a bundle file with the evidence's reader for it (the one that
 * reads it for kctui evidence and the twin: the same lines refused);
 * whether the bundle has the file. */
static bool
verify_read(const struct verify *v, struct evidence *ev, const char *name,
    int (*reader)(struct evidence *, int, const char *, size_t))
{
	char	*text = verify_bundle_file(v, name);

	if (text == NULL)
		return false;
	(void)reader(ev, -1, text, strlen(text));
	free(text);
	return true;
}

/* Whether a bound device of the bundle has no twin (left out). */
static bool
verify_is_nontwin(const struct verify *v, const char *bus,
    const char *drv, const char *dev)
{
	size_t	i;

	for (i = 0; i < v->nnontwin; i++) {
		if (strcmp(v->nontwin[i].path, dev) == 0 &&
		    strcmp(v->nontwin[i].bus, bus) == 0 &&
		    strcmp(v->nontwin[i].driver, drv) == 0)
			return true;
	}
	return false;
}

/* A twin gives some devices with another, maybe fewer times than the
 * bundle bound them: such a device is there when any guest device of
 * its bus is bound to its driver. */
static void
verify_match_loose(const struct verify *v, const struct vm_driver *want,
    size_t nwant, const struct vm_result *r, bool *lost)
{
	size_t	i, j, k;

	for (i = 0; i < nwant; i++) {
		if (!lost[i])
			continue;
		for (j = 0; j < v->nloose; j++) {
			if (strcmp(v->loose[j].device, want[i].device) != 0 ||
			    strcmp(v->loose[j].driver, want[i].driver) != 0)
				continue;
			for (k = 0; k < r->ndrivers; k++) {
				if (strcmp(r->drivers[k].bus, want[i].bus) == 0 &&
				    strcmp(r->drivers[k].driver,
				    want[i].driver) == 0)
					lost[i] = false;
			}
			break;
		}
	}
}

/* Compare the guest's modules and bound drivers with the bundle's: a
 * device the recorded machine had bound and this kernel left without
 * its driver is a lost device (the "devices" check); one this machine
 * does not have at all is absent, its difference, reported apart. */
void
verify_compare(struct verify *v, const struct vm_result *r)
{
	const struct ev_binding	*bd;
	struct vm_driver	*want = NULL;
	struct evidence		*ev;
	const char		*name;
	size_t			 i, j, nwant = 0;
	bool			*lost, *absent;
	char			*s;

	for (i = 0; i < v->nlost; i++)
		free(v->lost[i]);
	for (i = 0; i < v->nabsent; i++)
		free(v->absent[i]);
	for (i = 0; i < v->nmissing; i++)
		free(v->missing[i]);
	v->nlost = v->nabsent = v->nmissing = 0;
	if (!r->finished)
		return;
	ev = evidence_new();
	if (verify_read(v, ev, "modules", evidence_read_modules)) {
		for (i = 0; i < evidence_count(ev, EV_MODULE); i++) {
			name = evidence_item(ev, EV_MODULE, i)->name;
			for (j = 0; j < r->nmodules; j++)
				if (strcmp(r->modules[j], name) == 0)
					break;
			if (j == r->nmodules)
				verify_list_add(&v->missing, &v->nmissing,
				    xstrdup(name));
		}
	}
	if (!verify_read(v, ev, "drivers", evidence_read_drivers)) {
		evidence_free(ev);
		return;
	}
	v->has_drivers = true;
	(void)verify_read(v, ev, "modalias", evidence_read_modalias);
	for (i = 0; (bd = evidence_binding(ev, i)) != NULL; i++) {
		if (verify_is_nontwin(v, bd->bus, bd->driver, bd->device))
			continue;
		want = xrealloc(want, (nwant + 1) * sizeof *want);
		/* read only: the evidence's strings */
		want[nwant].bus = (char *)bd->bus;
		want[nwant].driver = (char *)bd->driver;
		want[nwant].device = (char *)bd->device;
		nwant++;
	}
	lost = xcalloc(nwant + 1, sizeof *lost);
	absent = xcalloc(nwant + 1, sizeof *absent);
	verify_match_devices(want, nwant, r->drivers, r->ndrivers, lost);
	verify_match_loose(v, want, nwant, r, lost);
	verify_absent_devices(want, nwant, lost, evidence_device_aliases(ev),
	    r->devices, r->ndevices, r->drivers, r->ndrivers, absent);
	for (i = 0; i < nwant; i++) {
		if (!lost[i])
			continue;
		s = xasprintf("%s %s %s", want[i].bus, want[i].driver,
		    want[i].device);
		if (absent[i])
			verify_list_add(&v->absent, &v->nabsent, s);
		else
			verify_list_add(&v->lost, &v->nlost, s);
	}
	free(absent);
	free(lost);
	free(want);
	evidence_free(ev);
}

