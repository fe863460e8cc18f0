/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-dat.c - a bundle's trace.dat (trace-cmd's binary format, v6 or
 * v7, compressed or not) read through libtracecmd into the same items as
 * a text trace.
 */
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "evidence-int.h"

/* What the trace.dat callback needs. */
struct dat_state {
	struct ev_ctx			*c;
	struct tep_handle		*tep;
	int				 fn_id;
	int				 fg_id;
	struct tep_format_field		*ip;
	struct tep_format_field		*parent_ip;
	struct tep_format_field		*func;
};

/* Add the function at an address. */
static void
dat_func(struct dat_state *d, unsigned long long addr)
{
	const char	*name;

	if (addr == 0 || (name = tep_find_function(d->tep, addr)) == NULL)
		return;
	ev_trace_add(d->c, name, strlen(name), NULL, 0);
}

/* One trace.dat record: function and funcgraph_entry events count. */
static int
dat_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct dat_state	*d = arg;
	unsigned long long	 v;
	int			 type;

	(void)h;
	(void)cpu;
	if (r->missed_events > 0)
		d->c->lost += (uint64_t)r->missed_events;
	type = tep_data_type(d->tep, r);
	if (type < 0)
		return 0;
	if (d->ip != NULL && type == d->fn_id) {
		d->c->events++;
		if (tep_read_number_field(d->ip, r->data, &v) == 0)
			dat_func(d, v);
		if (d->parent_ip != NULL &&
		    tep_read_number_field(d->parent_ip, r->data, &v) == 0)
			dat_func(d, v);
	} else if (d->func != NULL && type == d->fg_id) {
		d->c->events++;
		if (tep_read_number_field(d->func, r->data, &v) == 0)
			dat_func(d, v);
	}
	return 0;
}

/*
 * Read a trace-cmd trace.dat file: the function tracer's ip and parent_ip
 * (or function_graph's func) of every record, named with the kallsyms
 * trace-cmd stored in the file, as a text trace's lines would be.
 */
void
ev_dat_read(struct ev_ctx *c, int fd, const char *path,
    const struct ev_warn *w)
{
	struct tracecmd_input	*h;
	struct tep_event	*e;
	struct dat_state	 d;
	char			*self;

	/* the file the caller opened below the bundle, following no link:
	 * its /proc/self/fd name is that very file, whatever the bundle
	 * holds under its name now */
	self = xasprintf("/proc/self/fd/%d", fd);
	h = tracecmd_open(self, TRACECMD_FL_LOAD_NO_PLUGINS);
	free(self);
	if (h == NULL) {
		ev_warnf(w, "%s: not a readable trace-cmd file, skipped", path);
		return;
	}
	memset(&d, 0, sizeof d);
	d.c = c;
	d.tep = tracecmd_get_tep(h);
	d.fn_id = d.fg_id = -1;
	if ((e = tep_find_event_by_name(d.tep, "ftrace", "function")) != NULL) {
		d.fn_id = e->id;
		d.ip = tep_find_field(e, "ip");
		d.parent_ip = tep_find_field(e, "parent_ip");
	}
	e = tep_find_event_by_name(d.tep, "ftrace", "funcgraph_entry");
	if (e != NULL) {
		d.fg_id = e->id;
		d.func = tep_find_field(e, "func");
	}
	if (d.ip != NULL || d.func != NULL)
		tracecmd_iterate_events(h, NULL, 0, dat_record, &d);
	tracecmd_close(h);
}

