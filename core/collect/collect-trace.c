/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-trace.c - kctui collect's function tracer: a private ftrace
 * instance running the function tracer while the command (or the time)
 * runs, its per-CPU raw ring buffers read as they fill and every event
 * folded into two tables keyed by address (the function, its call site);
 * then the addresses named from /proc/kallsyms into the functions file.
 * The snapshot of /proc and /sys and the bundle's writers are collect.c's
 * (collect-int.h).
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/clock.h"
#include "../../lib/util.h"
#include "collect-int.h"

#include <event-parse.h>
#include <kbuffer.h>
#include <lzma.h>
#include <tracefs.h>

/*
 * The one file-scope variable: a signal handler gets no argument, so the
 * "stop tracing" flag it sets can only live here.  Only the trace loop
 * reads it, and only while its handlers are installed.
 */
static volatile sig_atomic_t collect_signalled;

/* One more sighting of an address (0, no address, is not counted). */
static void
collect_count(struct u64map *m, uint64_t addr)
{
	struct u64map_entry *e = u64map_insert(m, addr, NULL);

	if (e != NULL)
		e->value++;
}

/* Order symbols by address, then by position in kallsyms. */
static int
ksym_cmp_addr(const void *a, const void *b)
{
	const struct ksym	*x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : (x->name > y->name);
}

/* The text of a collection's kallsyms, for the sorts below. */
struct ksym_sort {
	const char	 *text;
	struct ksym	 *syms;
};

/* Order symbol indices by name, then module (glibc's qsort_r). */
static int
ksym_cmp_name(const void *a, const void *b, void *arg)
{
	const struct ksym_sort	*s = arg;
	const struct ksym	*x = &s->syms[*(const size_t *)a];
	const struct ksym	*y = &s->syms[*(const size_t *)b];
	size_t			 n;
	int			 r;

	n = x->namelen < y->namelen ? x->namelen : y->namelen;
	r = memcmp(s->text + x->name, s->text + y->name, n);
	if (r == 0)
		r = (int)x->namelen - (int)y->namelen;
	if (r != 0)
		return r;
	n = x->modlen < y->modlen ? x->modlen : y->modlen;
	r = memcmp(s->text + x->mod, s->text + y->mod, n);
	return r != 0 ? r : (int)x->modlen - (int)y->modlen;
}

/* Parse the text symbols of kallsyms, sorted by address, aliases dropped. */
static struct ksym *
ksym_parse(const char *text, size_t len, size_t *np)
{
	struct ksym	*v = NULL, *k;
	size_t		 n = 0, cap = 0, i, j;
	const char	*p = text, *end = text + len, *eol, *q;
	char		*e;
	uint64_t	 addr;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (eol == NULL)
			eol = end;
		addr = strtoull(p, &e, 16);
		if (e == p || e + 3 > eol || e[0] != ' ' || e[2] != ' ')
			continue;
		if (strchr("tTwW", e[1]) == NULL || addr == 0)
			continue;
		q = e + 3;
		XGROW(v, cap, n + 1, 65536);
		k = &v[n];
		memset(k, 0, sizeof *k);
		k->addr = addr;
		k->name = q - text;
		while (q < eol && *q != '\t' && *q != ' ')
			q++;
		if (q - (text + k->name) > UINT16_MAX)
			continue;
		k->namelen = q - (text + k->name);
		while (q < eol && (*q == '\t' || *q == ' '))
			q++;
		if (q < eol && *q == '[' && eol[-1] == ']' &&
		    eol - q - 2 <= UINT16_MAX) {
			k->mod = q + 1 - text;
			k->modlen = eol - q - 2;
		}
		if (k->namelen > 0)
			n++;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, ksym_cmp_addr);
	for (i = j = 0; i < n; i++) {
		if (j > 0 && v[j - 1].addr == v[i].addr)
			continue;
		v[j++] = v[i];
	}
	*np = j;
	return v;
}

/* The symbol containing addr (the last one at or below it), or NULL. */
static struct ksym *
ksym_find(struct ksym *v, size_t n, uint64_t addr)
{
	size_t	lo = 0, hi = n, mid;

	if (n == 0 || addr < v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &v[lo];
}

/*
 * functions: each distinct function of the trace, "name [module] count",
 * sorted by name. A function's count is the number of events naming it,
 * as the traced function or as its caller (parent_ip), so that callers
 * the tracer can't see (notrace, entry code) are listed too.
 */
int
collect_functions(struct collect *c, char **cause)
{
	struct ksym		*syms, *k;
	struct ksym_sort	 ks;
	struct u64map		*tables[2] = { &c->ips, &c->parents };
	struct u64map_entry	*e;
	size_t			 nsyms, i, t, n, *idx;
	uint64_t		 unresolved = 0, count;
	struct out		 o;
	char			 num[32];

	syms = ksym_parse(c->kallsyms.s, c->kallsyms.len, &nsyms);
	for (t = 0; t < 2; t++) {
		i = 0;
		while ((e = u64map_next(tables[t], &i)) != NULL) {
			k = ksym_find(syms, nsyms, e->key);
			if (k == NULL)
				unresolved += e->value;
			else
				k->count += e->value;
		}
	}
	if (unresolved > 0)
		collect_note(c, "%llu trace addresses not in kallsyms",
		    (unsigned long long)unresolved);

	idx = xmalloc((nsyms + 1) * sizeof *idx);
	for (i = n = 0; i < nsyms; i++) {
		if (syms[i].count != 0)
			idx[n++] = i;
	}
	ks.text = c->kallsyms.s;
	ks.syms = syms;
	if (n > 0)
		qsort_r(idx, n, sizeof *idx, ksym_cmp_name, &ks);

	if (out_open(&o, c->outdir, "functions", false, 0644, cause) != 0) {
		free(idx);
		free(syms);
		return -1;
	}
	for (i = 0; i < n; i = t) {
		/* Static functions of the same name in the same module. */
		count = 0;
		for (t = i; t < n &&
		    ksym_cmp_name(&idx[i], &idx[t], &ks) == 0; t++)
			count += syms[idx[t]].count;
		k = &syms[idx[i]];
		out_add(&o, c->kallsyms.s + k->name, k->namelen);
		if (k->modlen != 0) {
			out_add(&o, " [", 2);
			out_add(&o, c->kallsyms.s + k->mod, k->modlen);
			out_add(&o, "]", 1);
		}
		snprintf(num, sizeof num, " %llu\n",
		    (unsigned long long)count);
		out_adds(&o, num);
	}
	free(idx);
	free(syms);
	return out_close(&o, cause);
}

/* The state of one trace. */
struct trace {
	struct collect		 *c;
	const char		 *dir;		/* tracing directory */
	struct tracefs_instance	 *inst;
	struct tep_handle	 *tep;
	struct kbuffer		 *kbuf;
	struct tep_format_field	 *type_field;
	struct tep_format_field	 *ip_field;
	struct tep_format_field	 *parent_field;
	int			  function_id;
	struct tracefs_cpu	**cpus;
	int			  ncpus;
	void			 *page;
	size_t			  page_size;
	pid_t			  child;
	int			  go;		/* lets the child exec */
	int			  res;		/* exec's errno, or EOF */
	struct sigaction	  oldint, oldterm;
	bool			  handlers;
};

/* Signal handler: only ask the trace loop to stop. */
static void
trace_signal(int sig)
{
	(void)sig;
	collect_signalled = 1;
}

/* Install the SIGINT/SIGTERM handlers. */
static void
trace_handlers(struct trace *t)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = trace_signal;
	sigemptyset(&sa.sa_mask);
	collect_signalled = 0;
	sigaction(SIGINT, &sa, &t->oldint);
	sigaction(SIGTERM, &sa, &t->oldterm);
	t->handlers = true;
}

/* Fold the events of one ring-buffer page into the tables. */
static void
trace_page(struct trace *t, void *page)
{
	struct collect		*c = t->c;
	unsigned long long	 ts, type, ip, parent;
	void			*data;
	int			 missed;

	if (kbuffer_load_subbuffer(t->kbuf, page) < 0)
		return;
	missed = kbuffer_missed_events(t->kbuf);
	if (missed > 0)
		c->missed += missed;
	for (data = kbuffer_read_event(t->kbuf, &ts); data != NULL;
	    data = kbuffer_next_event(t->kbuf, &ts)) {
		if (tep_read_number_field(t->type_field, data, &type) != 0 ||
		    (int)type != t->function_id)
			continue;
		if (tep_read_number_field(t->ip_field, data, &ip) != 0)
			continue;
		c->events++;
		collect_count(&c->ips, ip);
		if (tep_read_number_field(t->parent_field, data,
		    &parent) == 0)
			collect_count(&c->parents, parent);
	}
}

/* Read what the ring buffers hold, at most max pages per CPU (0: all);
 * returns the number of pages read. */
static size_t
trace_read(struct trace *t, size_t max)
{
	size_t	total = 0, n;
	int	cpu, r;

	for (cpu = 0; cpu < t->ncpus; cpu++) {
		if (t->cpus[cpu] == NULL)
			continue;
		for (n = 0; max == 0 || n < max; n++) {
			r = tracefs_cpu_read(t->cpus[cpu], t->page, true);
			if (r <= 0)
				break;
			trace_page(t, t->page);
		}
		total += n;
	}
	return total;
}

/* Remove instances of collectors that died without cleaning up. */
static void
trace_reap(struct trace *t)
{
	struct tracefs_instance	*inst;
	DIR			*d;
	struct dirent		*de;
	char			*path, *end;
	long			 pid;

	path = xasprintf("%s/instances", t->dir);
	d = opendir(path);
	free(path);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "kctui-", 6) != 0)
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (*end != '\0' || pid <= 0 || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(t->dir, de->d_name);
		if (inst == NULL)
			continue;
		tracefs_tracer_clear(inst);
		if (tracefs_instance_destroy(inst) == 0)
			collect_note(t->c, "removed stale ftrace instance %s",
			    de->d_name);
		tracefs_instance_free(inst);
	}
	closedir(d);
}

/* Read the format of the function event; 0 or -1 after a note. */
static int
trace_setup_events(struct trace *t)
{
	struct collect		*c = t->c;
	const char		*systems[] = { "ftrace", NULL };
	struct tep_event	*ev;

	t->tep = tracefs_local_events_system(t->dir, systems);
	if (t->tep == NULL) {
		collect_note(c, "cannot read ftrace event formats: no trace");
		return -1;
	}
	ev = tep_find_event_by_name(t->tep, "ftrace", "function");
	if (ev == NULL ||
	    (t->type_field = tep_find_common_field(ev, "common_type")) ==
	    NULL ||
	    (t->ip_field = tep_find_field(ev, "ip")) == NULL ||
	    (t->parent_field = tep_find_field(ev, "parent_ip")) == NULL) {
		collect_note(c, "no ftrace/function event: no trace");
		return -1;
	}
	t->function_id = ev->id;
	t->kbuf = tep_kbuffer(t->tep);
	if (t->kbuf == NULL) {
		collect_note(c, "cannot parse ring buffer pages: no trace");
		return -1;
	}
	return 0;
}

/* Set up the instance, the tracer and the readers; 0 or -1 after a note. */
static int
trace_setup_instance(struct trace *t)
{
	struct collect		*c = t->c;
	char			 name[64], pid[32];
	size_t			 kb;
	int			 cpu;

	trace_reap(t);
	snprintf(name, sizeof name, "kctui-%ld", (long)getpid());
	t->inst = tracefs_instance_create(name);
	if (t->inst == NULL) {
		collect_note(c, "cannot create ftrace instance %s: %s: "
		    "no trace", name, strerror(errno));
		return -1;
	}
	tracefs_trace_off(t->inst);

	kb = c->opt->buffer_kb ? c->opt->buffer_kb : COLLECT_DEFAULT_KB;
	if (tracefs_instance_set_buffer_size(t->inst, kb, -1) != 0)
		collect_note(c, "cannot set the ring buffer to %zu kB: %s",
		    kb, strerror(errno));
	if (tracefs_tracer_set(t->inst, TRACEFS_TRACER_FUNCTION) != 0) {
		collect_note(c, "cannot set the function tracer: %s%s: "
		    "no trace", strerror(errno), errno == EPERM ?
		    " (the kernel does not allow it)" : "");
		return -1;
	}
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (tracefs_instance_file_write(t->inst, "set_ftrace_notrace_pid",
	    pid) <= 0)
		collect_note(c, "cannot exclude the collector from the trace");

	t->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (t->ncpus < 1)
		t->ncpus = 1;
	t->cpus = xcalloc(t->ncpus, sizeof *t->cpus);
	for (cpu = 0; cpu < t->ncpus; cpu++) {
		t->cpus[cpu] = tracefs_cpu_open(t->inst, cpu, true);
		if (t->cpus[cpu] != NULL &&
		    (size_t)tracefs_cpu_read_size(t->cpus[cpu]) > t->page_size)
			t->page_size = tracefs_cpu_read_size(t->cpus[cpu]);
	}
	if (t->page_size == 0) {
		collect_note(c, "cannot open the ring buffers: no trace");
		return -1;
	}
	t->page = xmalloc(t->page_size);
	return 0;
}

/*
 * Fork the command, held before exec until trace_release(). It is forked
 * before the ring buffers are opened so that it can't inherit them (an
 * instance can't be removed while anyone holds its files open, and the
 * command's own children may outlive it). -1 with *cause if fork fails.
 */
static int
trace_spawn(struct trace *t, char **cause)
{
	char *const	*argv = t->c->opt->command;
	int		 go[2], res[2], err;
	char		 byte;
	ssize_t		 n;

	if (socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, go) != 0) {
		*cause = xasprintf("socketpair: %s", strerror(errno));
		return -1;
	}
	if (pipe2(res, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	t->child = fork();
	if (t->child < 0) {
		*cause = xasprintf("fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(res[0]);
		close(res[1]);
		t->child = 0;
		return -1;
	}
	if (t->child == 0) {
		close(go[1]);
		close(res[0]);
		do
			n = read(go[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);	/* the trace did not start */
		sigaction(SIGINT, &t->oldint, NULL);
		sigaction(SIGTERM, &t->oldterm, NULL);
		execvp(argv[0], argv);
		err = errno;
		if (write(res[1], &err, sizeof err) < 0)
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(res[1]);
	t->go = go[1];
	t->res = res[0];
	return 0;
}

/* Let the command run; -1 with *cause if exec failed. */
static int
trace_release(struct trace *t, char **cause)
{
	int	err;
	ssize_t	n;

	n = send(t->go, "g", 1, MSG_NOSIGNAL);
	close(t->go);
	t->go = -1;
	if (n != 1) {
		*cause = xasprintf("%s: did not start",
		    t->c->opt->command[0]);
		return -1;
	}
	do
		n = read(t->res, &err, sizeof err);
	while (n < 0 && errno == EINTR);
	close(t->res);
	t->res = -1;
	if (n == sizeof err) {
		waitpid(t->child, NULL, 0);
		t->child = 0;
		*cause = xasprintf("%s: %s", t->c->opt->command[0],
		    strerror(err));
		return -1;
	}
	return 0;
}

/* Stop the command if it still runs (we were told to stop, or the trace
 * could not start) and reap it. */
static void
trace_reap_child(struct trace *t)
{
	int	i;

	if (t->go >= 0) {
		close(t->go);	/* never released: it exits by itself */
		t->go = -1;
	}
	if (t->res >= 0) {
		close(t->res);
		t->res = -1;
	}
	if (t->child <= 0)
		return;
	kill(t->child, SIGTERM);
	for (i = 0; i < 200; i++) {
		if (waitpid(t->child, NULL, WNOHANG) != 0)
			break;
		usleep(10000);
	}
	if (i == 200) {
		kill(t->child, SIGKILL);
		waitpid(t->child, NULL, 0);
	}
	t->child = 0;
}

/* The tracing loop: until the time is up, the command exits or a signal. */
static void
trace_loop(struct trace *t)
{
	struct collect	*c = t->c;
	double		 start = clock_now(), last = start, now;
	struct timespec	 nap = { 0, 20 * 1000 * 1000 };
	int		 seconds = c->opt->trace_seconds, status;

	for (;;) {
		if (trace_read(t, 256) == 0)
			nanosleep(&nap, NULL);
		now = clock_now();
		if (now - last >= 1.0) {
			collect_progress(c, "%llu events, %zu distinct "
			    "functions", (unsigned long long)c->events,
			    c->ips.count);
			last = now;
		}
		if (collect_signalled)
			break;
		if (t->child > 0) {
			if (waitpid(t->child, &status, WNOHANG) == t->child) {
				t->child = 0;
				break;
			}
		} else if (seconds > 0 && now - start >= seconds)
			break;
	}
}

/* Record per-CPU stats, and note overruns. */
static void
trace_stats(struct trace *t)
{
	struct collect	*c = t->c;
	char		 path[64], *s, *p;
	int		 cpu, len;
	unsigned long long overrun, total = 0;

	for (cpu = 0; cpu < t->ncpus; cpu++) {
		snprintf(path, sizeof path, "per_cpu/cpu%d/stats", cpu);
		s = tracefs_instance_file_read(t->inst, path, &len);
		if (s == NULL)
			continue;
		strbuf_addf(&c->stats, "cpu%d\n", cpu);
		strbuf_add(&c->stats, s, len);
		if (len > 0 && s[len - 1] != '\n')
			strbuf_addc(&c->stats, '\n');
		p = strstr(s, "overrun: ");
		if (p != NULL) {
			overrun = strtoull(p + 9, NULL, 10);
			total += overrun;
		}
		free(s);
	}
	if (total > 0 || c->missed > 0)
		collect_note(c, "%llu events lost (ring buffer overrun; "
		    "a larger buffer_kb may help)",
		    total > c->missed ? total : (unsigned long long)c->missed);
}

/* Tear everything down, whatever state it is in. */
static void
trace_cleanup(struct trace *t)
{
	int	cpu, i;

	trace_reap_child(t);
	if (t->inst != NULL) {
		tracefs_trace_off(t->inst);
		tracefs_tracer_clear(t->inst);
	}
	for (cpu = 0; t->cpus != NULL && cpu < t->ncpus; cpu++)
		tracefs_cpu_close(t->cpus[cpu]);
	free(t->cpus);
	free(t->page);
	if (t->inst != NULL) {
		/* EBUSY while a file of it is still open somewhere. */
		for (i = 0; tracefs_instance_destroy(t->inst) != 0; i++) {
			if (errno != EBUSY || i == 50) {
				collect_note(t->c, "cannot remove ftrace "
				    "instance %s: %s",
				    tracefs_instance_get_name(t->inst),
				    strerror(errno));
				break;
			}
			usleep(20000);
		}
		tracefs_instance_free(t->inst);
	}
	if (t->kbuf != NULL)
		kbuffer_free(t->kbuf);	/* tep_kbuffer() made it for us */
	if (t->tep != NULL)
		tep_free(t->tep);
	if (t->handlers) {
		sigaction(SIGINT, &t->oldint, NULL);
		sigaction(SIGTERM, &t->oldterm, NULL);
	}
	memset(t, 0, sizeof *t);
	t->go = t->res = -1;
}

/*
 * Trace, if we can. Returns -1 with *cause only when the command can't be
 * run; everything else that prevents tracing is a note.
 */
int
collect_trace(struct collect *c, char **cause)
{
	struct trace	t;
	int		ret = 0;

	if (c->opt->no_trace)
		return 0;
	if (geteuid() != 0) {
		collect_note(c, "not root: no trace");
		return 0;
	}
	memset(&t, 0, sizeof t);
	t.c = c;
	t.dir = tracefs_tracing_dir();
	if (t.dir == NULL) {
		collect_note(c, "tracefs not mounted: no trace");
		return 0;
	}

	t.go = t.res = -1;

	trace_handlers(&t);
	if (trace_setup_events(&t) != 0)
		goto out;
	if (c->opt->command != NULL && c->opt->command[0] != NULL &&
	    trace_spawn(&t, cause) != 0) {
		ret = -1;
		goto out;
	}
	if (trace_setup_instance(&t) != 0)
		goto out;
	if (tracefs_trace_on(t.inst) != 0) {
		collect_note(c, "cannot turn tracing on: no trace");
		goto out;
	}
	if (t.child > 0 && trace_release(&t, cause) != 0) {
		ret = -1;
		goto out;
	}
	trace_loop(&t);
	tracefs_trace_off(t.inst);
	trace_reap_child(&t);
	trace_read(&t, 0);
	trace_stats(&t);
	c->traced = true;
	collect_progress(c, "%llu events, %zu distinct functions",
	    (unsigned long long)c->events, c->ips.count);
out:
	trace_cleanup(&t);
	return ret;
}

