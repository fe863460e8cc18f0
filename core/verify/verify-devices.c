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

/* The bundle's modalias file as path -> modalias in m; keys and values
 * point into the returned text, which outlives the map (NULL: the bundle
 * has none, m empty). */
static char *
verify_bundle_aliases(struct verify *v, struct strmap *m)
{
	char	*text, *line, *save = NULL, *sp;

	strmap_init(m);
	if ((text = verify_bundle_file(v, "modalias")) == NULL)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((sp = strchr(line, ' ')) == NULL || sp[1] == '\0')
			continue;
		*sp = '\0';
		if (strmap_get(m, line, sp - line) == NULL)
			strmap_set(m, line, sp - line, sp + 1);
	}
	return text;
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
	struct vm_driver	*want = NULL;
	char			*text, *line, *save = NULL;
	struct strmap		 aliases;
	size_t			 i, nwant = 0;
	bool			*lost, *absent;
	char			*s, *atext;

	for (i = 0; i < v->nlost; i++)
		free(v->lost[i]);
	for (i = 0; i < v->nabsent; i++)
		free(v->absent[i]);
	for (i = 0; i < v->nmissing; i++)
		free(v->missing[i]);
	v->nlost = v->nabsent = v->nmissing = 0;
	if (!r->finished)
		return;
	if ((text = verify_bundle_file(v, "modules")) != NULL) {
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			char name[256];

			if (sscanf(line, "%255s", name) != 1 ||
			    strcmp(name, "Module") == 0)
				continue;
			for (i = 0; i < r->nmodules; i++)
				if (strcmp(r->modules[i], name) == 0)
					break;
			if (i == r->nmodules)
				verify_list_add(&v->missing, &v->nmissing,
				    xstrdup(name));
		}
		free(text);
	}
	if ((text = verify_bundle_file(v, "drivers")) != NULL) {
		v->has_drivers = true;
		save = NULL;
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			char *bus, *drv, *dev;

			if (vm_driver_split(line, &bus, &drv, &dev) != 0 ||
			    verify_is_nontwin(v, bus, drv, dev))
				continue;
			want = xrealloc(want, (nwant + 1) * sizeof *want);
			want[nwant].bus = bus;
			want[nwant].driver = drv;
			want[nwant].device = dev;
			nwant++;
		}
		lost = xcalloc(nwant + 1, sizeof *lost);
		absent = xcalloc(nwant + 1, sizeof *absent);
		verify_match_devices(want, nwant, r->drivers, r->ndrivers,
		    lost);
		verify_match_loose(v, want, nwant, r, lost);
		atext = verify_bundle_aliases(v, &aliases);
		verify_absent_devices(want, nwant, lost, &aliases, r->devices,
		    r->ndevices, r->drivers, r->ndrivers, absent);
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
		strmap_free(&aliases);
		free(atext);
		free(absent);
		free(lost);
		free(want);
		free(text);
	}
}

