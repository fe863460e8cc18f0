/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm.c - booting a kernel and its initramfs under QEMU on the machine a
 * bundle's "vm" file describes, and reading the result off the serial
 * console: the markers "@@kctui: ..." printed by the guest's /init
 * (verify-init.sh) say whether it booted, how each workload step ended
 * and which modules and drivers the kernel had at the end. Every console
 * line goes to DIR/console.log.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/text.h"
#include "../../lib/util.h"
#include "userspace.h"
#include "verify.h"

/* Console lines kept for a step that was never reached. */
#define VM_TAIL_LINES	30

/* A growable argv. */
struct vm_argv {
	char	**v;
	size_t	  n, cap;
};

/* Append a copy of s (the array stays NULL-terminated). */
static void
vm_argv_add(struct vm_argv *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap == 0 ? 32 : a->cap * 2;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

/* Free an argv. */
static void
vm_argv_free(struct vm_argv *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* Whether /dev/kvm can be opened read-write (then QEMU gets accel=kvm). */
bool
vm_kvm_usable(void)
{
	int	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* This boot of the host, which a KVM memo is for. */
#define VM_BOOT_ID	"/proc/sys/kernel/random/boot_id"

/*
 * A KVM failure remembered in path ("BOOT_ID\nWHY\n") for this boot of
 * the host: why, or NULL when there is none (or it is an earlier boot's:
 * the host may have changed). Each run of kctui verify would otherwise
 * spend its first boot finding it out again.
 */
static char *
vm_kvm_memo_read(const char *path)
{
	char	*text, *id, *nl, *why = NULL;
	size_t	 len;

	if (path == NULL || (id = file_read_line(VM_BOOT_ID)) == NULL)
		return NULL;
	if ((text = file_read_regular(path, &len)) != NULL &&
	    strlen(text) == len && (nl = strchr(text, '\n')) != NULL &&
	    (size_t)(nl - text) == strlen(id) &&
	    strncmp(text, id, strlen(id)) == 0 && nl[1] != '\0') {
		why = xstrdup(nl + 1);
		if ((nl = strchr(why, '\n')) != NULL)
			*nl = '\0';
	}
	free(text);
	free(id);
	return why;
}

/* Remember a KVM failure for this boot of the host (best effort: a
 * memo that cannot be written only costs the next run its detour). */
static void
vm_kvm_memo_write(const char *path, const char *why)
{
	char	*id, *text, *cause = NULL;

	if (path == NULL || (id = file_read_line(VM_BOOT_ID)) == NULL)
		return;
	text = xasprintf("%s\n%s\n", id, why);
	if (file_write_atomic(path, text, strlen(text), 0644, 0,
	    &cause) != 0)
		free(cause);
	free(text);
	free(id);
}

/* ------------------------------------------------------------ results */

/* Append a line to a list of strings. */
static void
vm_list_add(char ***v, size_t *n, const char *s, size_t len)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrndup(s, len);
}

/* Free a list of strings. */
static void
vm_list_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Start a result for a workload: every step not reached yet. */
void
vm_result_init(struct vm_result *res, const struct workload *w)
{
	size_t	i;

	memset(res, 0, sizeof *res);
	res->cur = -1;
	res->t_init = res->t_coldplug = -1;
	res->tail = xcalloc(VM_TAIL_LINES, sizeof *res->tail);
	if (w == NULL)
		return;
	res->steps = xcalloc(w->nsteps, sizeof *res->steps);
	for (i = 0; i < w->nsteps; i++)
		res->steps[i].name = xstrdup(w->steps[i]);
	res->nsteps = w->nsteps;
}

/* The step of that name, added at the end if the workload did not list
 * it (a step line the parser could not see, e.g. built by a loop). */
static struct vm_step *
vm_result_step(struct vm_result *res, const char *name, size_t len)
{
	struct vm_step	*s;
	size_t		 i;

	for (i = 0; i < res->nsteps; i++) {
		if (strlen(res->steps[i].name) == len &&
		    memcmp(res->steps[i].name, name, len) == 0)
			return &res->steps[i];
	}
	res->steps = xrealloc(res->steps, (res->nsteps + 1) *
	    sizeof *res->steps);
	s = &res->steps[res->nsteps++];
	memset(s, 0, sizeof *s);
	s->name = xstrndup(name, len);
	return s;
}

/* The length of the word at s (up to a blank or the end). */
static size_t
vm_word(const char *s, const char *end)
{
	const char	*p = s;

	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p - s;
}

/* The exit code at s (up to end: the line is the guest's and may end in
 * digits with no NUL after them; atoi read past it, found by
 * fuzz_console), clamped to an int. */
static int
vm_rc(const char *s, const char *end)
{
	long long	v = 0;
	bool		neg = false, any = false;

	if (s < end && *s == '-') {
		neg = true;
		s++;
	}
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		any = true;
		if (v < 1000000000LL)
			v = v * 10 + (*s - '0');
	}
	if (!any)
		return 0;	/* as atoi did */
	if (v > 1000000000LL)
		v = 1000000000LL;
	return (int)(neg ? -v : v);
}

/* "step NAME begin" / "step NAME end rc=N". */
static void
vm_mark_step(struct vm_result *res, const char *s, const char *end)
{
	struct vm_step	*st;
	size_t		 n = vm_word(s, end);
	const char	*w = s + n + (s + n < end);

	if (n == 0)
		return;
	if (end - w >= 5 && strncmp(w, "begin", 5) == 0) {
		st = vm_result_step(res, s, n);
		vm_list_free(st->log, st->nlog);
		st->log = NULL;
		st->nlog = 0;
		st->state = VM_STEP_NOT_REACHED;
		st->seconds = clock_now();	/* start, until the end */
		res->cur = st - res->steps;
	} else if (end - w >= 7 && strncmp(w, "end rc=", 7) == 0) {
		st = vm_result_step(res, s, n);
		st->rc = vm_rc(w + 7, end);
		st->state = st->rc == 0 ? VM_STEP_PASS : VM_STEP_FAIL;
		st->seconds = st->seconds > 0 ? clock_now() - st->seconds : 0;
		res->cur = -1;
	}
}

/* "driver BUS DRIVER... DEVICE": the driver may hold spaces. */
static void
vm_mark_driver(struct vm_result *res, const char *s, const char *end)
{
	struct vm_driver *d;
	const char	*last;
	size_t		 nbus = vm_word(s, end);

	while (end > s && end[-1] == ' ')
		end--;
	for (last = end; last > s && last[-1] != ' '; last--)
		;
	if (nbus == 0 || last <= s + nbus + 1 || last == end)
		return;
	res->drivers = xrealloc(res->drivers, (res->ndrivers + 1) *
	    sizeof *res->drivers);
	d = &res->drivers[res->ndrivers++];
	d->bus = xstrndup(s, nbus);
	d->driver = xstrndup(s + nbus + 1, last - 1 - (s + nbus + 1));
	d->device = xstrndup(last, end - last);
}

/* "device PATH MODALIAS": the path has no blank, the modalias may. */
static void
vm_mark_device(struct vm_result *res, const char *s, const char *end)
{
	struct vm_device *d;
	size_t		 n = vm_word(s, end);

	if (n == 0 || s + n + 1 >= end)
		return;
	res->devices = xrealloc(res->devices, (res->ndevices + 1) *
	    sizeof *res->devices);
	d = &res->devices[res->ndevices++];
	d->path = xstrndup(s, n);
	d->modalias = xstrndup(s + n + 1, end - (s + n + 1));
}

/* A marker (the text after "@@kctui: "); false if it is none we know. */
static bool
vm_mark(struct vm_result *res, const char *s, const char *end)
{
	size_t	len = end - s;

	if (len >= 5 && strncmp(s, "init ", 5) == 0)
		res->booted = true;
	else if (len >= 9 && strncmp(s, "coldplug ", 9) == 0)
		;
	else if (len >= 5 && strncmp(s, "step ", 5) == 0)
		vm_mark_step(res, s + 5, end);
	else if (len >= 7 && strncmp(s, "module ", 7) == 0) {
		if (vm_word(s + 7, end) > 0)
			vm_list_add(&res->modules, &res->nmodules, s + 7,
			    vm_word(s + 7, end));
	} else if (len >= 7 && strncmp(s, "driver ", 7) == 0)
		vm_mark_driver(res, s + 7, end);
	else if (len >= 7 && strncmp(s, "device ", 7) == 0)
		vm_mark_device(res, s + 7, end);
	else if (len >= 4 && strncmp(s, "done", 4) == 0)
		res->finished = true;
	else
		return false;
	return true;
}

/* Take one console line: a marker anywhere in it updates the result;
 * every line goes to the tail ring and to the running step's log. */
/*
 * The boot times a console line gives: the kernel's "Run /init as init
 * process" (init/main.c, the moment it execs /init) and /init's own
 * "kctui: coldplug done" through /dev/kmsg (verify-init.sh, once devices
 * have settled), each at its printk timestamp "[    1.234567] " (the
 * command line has printk.time=1): seconds since the kernel started.
 */
static void
vm_boot_times(struct vm_result *res, const char *line, size_t len)
{
	static const char *const what[2] = { "] Run /init as init process",
	    "] kctui: coldplug done" };
	double		*when[2] = { &res->t_init, &res->t_coldplug };
	const char	*m, *p;
	char		*num, *e;
	double		 t;
	int		 i;

	for (i = 0; i < 2; i++) {
		/* the console interleaves: the line may follow a marker
		 * of /init's on the same line */
		if (*when[i] >= 0 || (m = memmem(line, len, what[i],
		    strlen(what[i]))) == NULL)
			continue;
		for (p = m; p > line && p[-1] != '['; p--)
			;
		if (p == line)
			continue;
		num = xstrndup(p, (size_t)(m - p));
		t = strtod(num, &e);
		while (*e == ' ')
			e++;
		if (e != num && *e == '\0' && t >= 0 && t < 1e6)
			*when[i] = t;
		free(num);
	}
}

void
vm_result_line(struct vm_result *res, const char *line, size_t len)
{
	const char	*m, *end;
	struct vm_step	*st;
	size_t		 slot, pre;
	long		 cur;

	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	slot = res->ntail++ % VM_TAIL_LINES;
	free(res->tail[slot]);
	res->tail[slot] = xstrndup(line, len);
	end = line + len;
	vm_boot_times(res, line, len);
	/* the kernel's printk may have written before the marker */
	m = memmem(line, len, VM_MARK, sizeof VM_MARK - 1);
	pre = m != NULL ? (size_t)(m - line) : len;
	while (pre > 0 && (line[pre - 1] == ' ' || line[pre - 1] == '\r'))
		pre--;
	/* that text belongs to the step running before the marker */
	cur = res->cur;
	if (m != NULL && !vm_mark(res, m + sizeof VM_MARK - 1, end))
		pre = len;	/* not ours: the whole line is output */
	if (pre > 0 && cur >= 0 && (size_t)cur < res->nsteps) {
		st = &res->steps[cur];
		vm_list_add(&st->log, &st->nlog, line, pre);
	}
}

/*
 * The end of the console: a step that began and did not end failed
 * (rc -1: the guest died or timed out in it); one never reached gets
 * the last console lines as its log.
 */
void
vm_result_end(struct vm_result *res)
{
	struct vm_step	*st;
	size_t		 i, k, n;

	if (res->cur >= 0 && (size_t)res->cur < res->nsteps) {
		st = &res->steps[res->cur];
		st->state = VM_STEP_FAIL;
		st->rc = -1;
		st->seconds = st->seconds > 0 ? clock_now() - st->seconds : 0;
		res->cur = -1;
	}
	n = res->ntail < VM_TAIL_LINES ? res->ntail : VM_TAIL_LINES;
	for (i = 0; i < res->nsteps; i++) {
		st = &res->steps[i];
		if (st->state != VM_STEP_NOT_REACHED || st->nlog > 0)
			continue;
		for (k = res->ntail - n; k < res->ntail; k++)
			vm_list_add(&st->log, &st->nlog,
			    res->tail[k % VM_TAIL_LINES],
			    strlen(res->tail[k % VM_TAIL_LINES]));
	}
}

/* Free a result (safe on a zeroed one). */
void
vm_result_free(struct vm_result *res)
{
	size_t	i;

	for (i = 0; i < res->nsteps; i++) {
		free(res->steps[i].name);
		vm_list_free(res->steps[i].log, res->steps[i].nlog);
	}
	free(res->steps);
	vm_list_free(res->modules, res->nmodules);
	for (i = 0; i < res->ndrivers; i++) {
		free(res->drivers[i].bus);
		free(res->drivers[i].driver);
		free(res->drivers[i].device);
	}
	free(res->drivers);
	for (i = 0; i < res->ndevices; i++) {
		free(res->devices[i].path);
		free(res->devices[i].modalias);
	}
	free(res->devices);
	free(res->console);
	free(res->kvm_error);
	free(res->host_error);
	if (res->tail != NULL)
		vm_list_free(res->tail, VM_TAIL_LINES);
	memset(res, 0, sizeof *res);
	res->cur = -1;
}

/* ----------------------------------------------------------------- run */

/* Keep the last lines a helper printed, for its error. */
static void
vm_keep_line(void *arg, const char *line, size_t len)
{
	struct strbuf	*sb = arg;

	if (sb->len < 4096) {
		strbuf_add(sb, line, len);
		strbuf_addc(sb, '\n');
	}
}

/* An empty raw image DIR/NAME.img of the disk's size, with its file
 * system made on it when asked. */
static int
vm_disk(const struct vm_boot *b, const struct vm_disk *d, char **cause)
{
	const struct vm_mkfs *m = vm_mkfs_find(d->fstype);
	struct proc_opts o;
	struct proc_result r;
	struct strbuf	 msg;
	char		*img = xasprintf("%s/%s.img", b->dir, d->name);
	char		*argv[8];
	int		 fd, rc = 0, n = 0;

	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || ftruncate(fd, (off_t)d->size) != 0) {
		*cause = xasprintf("%s: %s", img, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(img);
		return -1;
	}
	close(fd);
	if (m == NULL) {
		free(img);
		return 0;
	}
	/* Said before QEMU starts, and as the host's want, not the trim's. */
	if (proc_find(m->prog, cause) != 0) {
		char *why = *cause;

		*cause = xasprintf("disk '%s' needs %s (%s): %s", d->name,
		    m->prog, d->fstype[0] == 'v' ? "apt-get install dosfstools" :
		    "apt-get install e2fsprogs", why);
		free(why);
		free(img);
		return -1;
	}
	argv[n++] = (char *)m->prog;
	if (m->prog[5] == 'e') {
		argv[n++] = (char *)"-q";
		argv[n++] = (char *)"-F";
	}
	if (strlen(d->name) <= m->label_max) {
		argv[n++] = (char *)m->label;
		argv[n++] = d->name;
	}
	argv[n++] = img;
	argv[n] = NULL;
	memset(&o, 0, sizeof o);
	strbuf_init(&msg);
	o.argv = argv;
	o.timeout = 120;
	o.line = vm_keep_line;
	o.arg = &msg;
	o.cancel = b->cancel;
	if ((rc = proc_run(&o, &r, cause)) == 0 && r.exit_code != 0) {
		*cause = xasprintf("%s %s: exit %d: %s", m->prog, img,
		    r.exit_code, msg.len > 0 ? msg.s : "");
		rc = -1;
	}
	strbuf_free(&msg);
	free(img);
	return rc;
}

/* A disk: its drive (the image made for this boot) and its device. */
static void
vm_args_disk(const struct vm_boot *b, const struct vm_disk *disk,
    struct vm_argv *a)
{
	char	*t;

	t = xasprintf("file=%s/%s.img,format=raw,if=none,id=%s", b->dir,
	    disk->name, disk->name);
	vm_argv_add(a, "-drive");
	vm_argv_add(a, t);
	free(t);
	t = xasprintf("%s,drive=%s,serial=%s", disk->device, disk->name,
	    disk->name);
	vm_argv_add(a, "-device");
	vm_argv_add(a, t);
	free(t);
}

/* The userspace step's root, after every device of the machine (the
 * slots of those stay as recorded): a virtio-blk disk whose writes QEMU
 * keeps in a temporary overlay (snapshot=on), so the cached image is
 * never changed. A path with a comma would split QEMU's option: the
 * image's name is kctui's own (userspace-root.c), its directory the
 * cache's, doubled as QEMU escapes it. */
static void
vm_args_root(const struct vm_boot *b, struct vm_argv *a)
{
	struct strbuf	 sb;
	const char	*p;

	if (b->root_disk == NULL)
		return;
	strbuf_init(&sb);
	strbuf_adds(&sb, "file=");
	for (p = b->root_disk; *p != '\0'; p++) {
		if (*p == ',')
			strbuf_addc(&sb, ',');
		strbuf_addc(&sb, *p);
	}
	strbuf_adds(&sb, ",format=raw,if=none,snapshot=on,id=" USERSPACE_SERIAL);
	vm_argv_add(a, "-drive");
	vm_argv_add(a, sb.s);
	strbuf_free(&sb);
	vm_argv_add(a, "-device");
	vm_argv_add(a, "virtio-blk-pci,drive=" USERSPACE_SERIAL ",serial="
	    USERSPACE_SERIAL);
}

/* The QEMU command line of the boot. */
static void
vm_args(const struct vm_boot *b, const char *qemu, bool kvm,
    struct vm_argv *a)
{
	const struct vm_spec *s = b->spec;
	char		*t;
	size_t		 i, d;

	vm_argv_add(a, qemu);
	t = xasprintf("%s,accel=%s", s->machine, kvm ? "kvm" : "tcg");
	vm_argv_add(a, "-machine");
	vm_argv_add(a, t);
	free(t);
	if (s->cpu != NULL) {
		vm_argv_add(a, "-cpu");
		vm_argv_add(a, s->cpu);
	}
	t = xasprintf("%d", s->smp > 0 ? s->smp : 1);
	vm_argv_add(a, "-smp");
	vm_argv_add(a, t);
	free(t);
	t = xasprintf("%d", s->memory);
	vm_argv_add(a, "-m");
	vm_argv_add(a, t);
	free(t);
	vm_argv_add(a, "-nodefaults");
	vm_argv_add(a, "-no-reboot");
	vm_argv_add(a, "-display");
	vm_argv_add(a, "none");
	vm_argv_add(a, "-serial");
	vm_argv_add(a, "stdio");
	vm_argv_add(a, "-kernel");
	vm_argv_add(a, b->kernel);
	vm_argv_add(a, "-initrd");
	vm_argv_add(a, b->initrd);
	/* printk.time=1: every kernel line timed, for the boot times
	 * (vm_boot_times), whatever CONFIG_PRINTK_TIME says; systemd of
	 * the userspace step: a fatal error reboots (ends the boot)
	 * rather than freezing until the timeout */
	t = xasprintf("%s panic=-1 printk.time=1%s", s->cmdline,
	    b->root_disk != NULL ? " systemd.crash_reboot=1" : "");
	vm_argv_add(a, "-append");
	vm_argv_add(a, t);
	free(t);
	/* The vm file's order: a disk's device after the devices above it
	 * (its bus, e.g. usb-storage,bus=xhci.0 after qemu-xhci,id=xhci),
	 * and PCI slots given as on the recorded machine. */
	for (i = 0, d = 0; i <= s->nargs; i++) {
		for (; d < s->ndisks && s->disks[d].at == i; d++)
			vm_args_disk(b, &s->disks[d], a);
		if (i < s->nargs)
			vm_argv_add(a, s->args[i]);
	}
	vm_args_root(b, a);
}

/* What a running boot's console callback needs. */
struct vm_run_ctx {
	const struct vm_boot *b;
	struct vm_result *res;
	struct atomic_file log;
	volatile sig_atomic_t kvm_failed;	/* stops QEMU */
	char		*kvm_error;
	bool		 guest_spoke;	/* a console line not QEMU's own */
	bool		 kernel_spoke;	/* a line only a guest kernel prints */
	struct strbuf	 qemu_said;	/* QEMU's own lines, the first few */
	int		 nqemu_said;
	struct strbuf	 guest_first;	/* the first lines before a kernel's */
	int		 nfirst;
	struct proc_result r;		/* how QEMU ended */
};

/* QEMU's own lines kept for a host failure's message. */
#define VM_QEMU_SAID	4

/*
 * Seconds a guest under KVM may stay silent before KVM is taken to be
 * broken. Under KVM the kernel's first console lines come within a few
 * seconds (under TCG, about 10 s on this project's machines); nested
 * under Firecracker, KVM can also spin without a word from QEMU or the
 * guest, which only this catches.
 */
#define VM_KVM_SILENCE	60.0

/* Whether a console line is QEMU's own "qemu-system-ARCH: TEXT"; then
 * *text and *n are TEXT. */
static bool
vm_qemu_message(const char *line, size_t len, const char **text, size_t *n)
{
	const char	*sp;

	if (len <= 12 || strncmp(line, "qemu-system-", 12) != 0 ||
	    (sp = memchr(line, ' ', len)) == NULL)
		return false;
	*text = sp + 1;
	*n = len - (size_t)(sp + 1 - line);
	return true;
}

/*
 * Whether a line of QEMU's says KVM failed. /dev/kvm can open and still
 * not run a guest: under nested virtualisation (a Firecracker VM here)
 * QEMU prints "KVM internal error. Suberror: 1" and "emulation failure",
 * then pauses the guest, which would otherwise wait for the timeout.
 */
static bool
vm_kvm_error(const char *line, size_t len)
{
	static const char *const prefixes[] = {
		"KVM internal error", "error: kvm run failed",
		"KVM: entry failed", "failed to initialize kvm",
		"Could not access KVM kernel module"
	};
	size_t		 i, n;

	/* "qemu-system-x86_64: failed to initialize kvm: ..." */
	(void)vm_qemu_message(line, len, &line, &len);
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		n = strlen(prefixes[i]);
		if (len >= n && strncmp(line, prefixes[i], n) == 0)
			return true;
	}
	return false;
}

/* Whether a console line can only come from a guest's kernel or its
 * /init: QEMU prints other lines on the same stdout (its -cpu help or
 * -device help lists, its warnings), and exits 0 after a list. */
static bool
vm_kernel_line(const char *line, size_t len)
{
	static const char *const marks[] = {
		"Linux version ", "@@kctui:", "Kernel panic",
		"Kernel command line:",
	};
	size_t	i, n, j;

	for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		n = strlen(marks[i]);
		for (j = 0; j + n <= len; j++)
			if (memcmp(line + j, marks[i], n) == 0)
				return true;
	}
	return false;
}

/* A console line: made visible text first (the guest controls it: an
 * escape sequence must reach neither the terminal nor the report,
 * lib/text.h), then into console.log, through the parser, and progress
 * when a step starts or the guest is done. */
static void
vm_console_line(void *arg, const char *raw, size_t rawlen)
{
	struct vm_run_ctx *c = arg;
	long		 cur = c->res->cur;
	bool		 finished = c->res->finished;
	const char	*text, *line;
	size_t		 n, len;
	char		*ev, *vis = NULL;

	if (text_is_visible(raw, rawlen, 0)) {
		line = raw;
		len = rawlen;
	} else {
		vis = text_visible(raw, rawlen, 0);
		line = vis;
		len = strlen(vis);
	}
	if (!c->kernel_spoke && vm_kernel_line(line, len))
		c->kernel_spoke = true;
	atomic_write(&c->log, line, len);
	atomic_write(&c->log, "\n", 1);
	if (c->res->kvm && !c->kvm_failed && vm_kvm_error(line, len)) {
		c->kvm_error = xstrndup(line, len);
		c->kvm_failed = 1;
	}
	if (!vm_qemu_message(line, len, &text, &n)) {
		c->guest_spoke = true;
		if (!c->kernel_spoke && c->nfirst++ < VM_QEMU_SAID)
			strbuf_addf(&c->guest_first, "%s%.*s",
			    c->guest_first.len ? "; " : "", (int)len, line);
	}
	else if (!c->guest_spoke && c->nqemu_said++ < VM_QEMU_SAID)
		strbuf_addf(&c->qemu_said, "%s%.*s", c->qemu_said.len ? "; " :
		    "", (int)n, text);
	vm_result_line(c->res, line, len);
	free(vis);
	if (c->b->progress == NULL)
		return;
	if (c->res->cur >= 0 && c->res->cur != cur) {
		ev = xasprintf("step %s", c->res->steps[c->res->cur].name);
		c->b->progress(c->b->arg, ev);
		free(ev);
	}
	if (c->res->finished && !finished)
		c->b->progress(c->b->arg, "done");
}

/* While QEMU runs: a guest under KVM silent for too long means KVM
 * does not work here. */
static void
vm_tick(void *arg, double seconds)
{
	struct vm_run_ctx *c = arg;
	double		 limit = c->b->kvm_silence > 0 ? c->b->kvm_silence :
			    VM_KVM_SILENCE;

	if (c->res->kvm && !c->kvm_failed && !c->guest_spoke &&
	    seconds > limit) {
		c->kvm_error = xasprintf("no console output in %.0f s under "
		    "KVM", limit);
		c->kvm_failed = 1;
	}
}

/* The QEMU package to name when the program is missing. */
static const char *
vm_qemu_package(const char *arch)
{
	if (strcmp(arch, "x86_64") == 0 || strcmp(arch, "i386") == 0)
		return "qemu-system-x86";
	if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm") == 0)
		return "qemu-system-arm";
	return "qemu-system-misc";
}

/* Run QEMU with the console going to c; 0 with c->res filled. */
static int
vm_run_qemu(struct vm_run_ctx *c, char *const *argv, char **cause)
{
	const struct vm_boot *b = c->b;
	struct proc_opts o;
	struct proc_result *r = &c->r;
	char		*path = xasprintf("%s/console.log", b->dir);
	int		 rc;

	if (atomic_open(&c->log, path, 0666, 0, cause) != 0) {
		free(path);
		return -1;
	}
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.timeout = b->timeout > 0 ? b->timeout : 600;
	o.line = vm_console_line;
	o.arg = c;
	o.cancel = b->cancel;
	o.stop = &c->kvm_failed;
	o.tick = vm_tick;
	if (b->progress != NULL)
		b->progress(b->arg, "boot");
	rc = proc_run(&o, r, cause);
	vm_result_end(c->res);
	if (rc != 0) {
		atomic_abort(&c->log);
		free(path);
		return -1;
	}
	if (atomic_commit(&c->log, cause) != 0) {
		free(path);
		return -1;
	}
	c->res->console = path;
	c->res->timed_out = r->timed_out;
	c->res->seconds = r->seconds;
	if (r->cancelled) {
		*cause = xstrdup("cancelled");
		return -1;
	}
	return 0;
}

/* Whether QEMU exited 0 after printing lines, none of a guest kernel. */
static bool
vm_listed_and_left(const struct vm_run_ctx *c)
{
	return c->r.exit_code == 0 && c->r.signal == 0 && !c->kernel_spoke &&
	    (c->qemu_said.len != 0 || c->guest_first.len != 0);
}

/*
 * Whether QEMU itself failed: it exited with an error or a signal (an
 * assertion, an option it refused, a device or bus it does not know)
 * before the guest printed a line. A guest that panics exits 0 under
 * -no-reboot, and a guest that hangs times out: those are the kernel's.
 * Then the reason, for the message (malloc'd); else NULL.
 */
static char *
vm_host_failure(const struct vm_run_ctx *c)
{
	if (c->r.timed_out || c->r.cancelled || c->r.stopped)
		return NULL;
	/* QEMU ending well, having printed lines but none a guest kernel
	 * prints, did not boot one: it printed a list it was asked for
	 * (-cpu help); the machine given is the host's fault, not the
	 * kernel's. A silent exit 0 stays the kernel's: a trimmed kernel
	 * with no serial console runs /init and powers off unheard. */
	if (vm_listed_and_left(c))
		return xasprintf("QEMU exited with status 0 before the guest "
		    "printed anything%s%s", c->qemu_said.len != 0 ? "; it "
		    "said: " : c->guest_first.len != 0 ? "; it printed: " : "",
		    c->qemu_said.len != 0 ? c->qemu_said.s :
		    c->guest_first.len != 0 ? c->guest_first.s : "");
	if (c->guest_spoke || c->r.exit_code == 0)
		return NULL;
	if (c->qemu_said.len != 0)
		return xstrdup(c->qemu_said.s);
	if (c->r.signal != 0)
		return xasprintf("QEMU was killed by signal %d before the "
		    "guest printed anything", c->r.signal);
	return xasprintf("QEMU exited with status %d before the guest "
	    "printed anything", c->r.exit_code);
}

/* proc_run's line callback: keep every line. */
static void
vm_help_line(void *arg, const char *line, size_t len)
{
	struct strbuf	*sb = arg;

	strbuf_add(sb, line, len);
	strbuf_addc(sb, '\n');
}

/*
 * The vm file's CPU model is one of QEMU's: "x86 NAME" in its -cpu help
 * (as the twin takes devices from -device help). The allow-list cannot
 * know the models of the QEMU used; a model QEMU does not have would fail
 * before the guest prints. A program that prints no "Available CPUs:"
 * list (a test's fake QEMU) is not judged. -1 with *cause naming the
 * vm file.
 */
static int
vm_cpu_check(const struct vm_boot *b, const char *qemu, char **cause)
{
	struct proc_opts	 po;
	struct proc_result	 res;
	struct strbuf		 sb;
	const char		*cpu = b->spec->cpu, *p;
	char			*argv[4], *model;
	size_t			 n;
	int			 rc = 0;

	argv[0] = (char *)qemu;
	argv[1] = (char *)"-cpu";
	argv[2] = (char *)"help";
	argv[3] = NULL;
	memset(&po, 0, sizeof po);
	po.argv = argv;
	po.timeout = 30;
	po.line = vm_help_line;
	strbuf_init(&sb);
	po.arg = &sb;
	if (proc_run(&po, &res, cause) != 0) {
		strbuf_free(&sb);
		return -1;
	}
	if (res.exit_code != 0 || sb.s == NULL ||
	    strncmp(sb.s, "Available CPUs:", 15) != 0) {
		strbuf_free(&sb);
		return 0;
	}
	n = strcspn(cpu, ",");
	model = xstrndup(cpu, n);
	for (p = sb.s; (p = strchr(p, '\n')) != NULL; ) {
		p++;
		/* "x86 NAME   description", the list ending at a blank line */
		if (*p == '\n' || *p == '\0') {
			rc = -1;
			break;
		}
		if ((p = strchr(p, ' ')) == NULL)
			break;
		p++;
		if (strncmp(p, model, n) == 0 && (p[n] == ' ' ||
		    p[n] == '\n' || p[n] == '\0'))
			break;
	}
	if (p == NULL || rc != 0) {
		*cause = xasprintf("%s: cpu '%s' is not a CPU model of %s (its "
		    "-cpu help lists them)", b->spec->path, model, qemu);
		rc = -1;
	}
	free(model);
	strbuf_free(&sb);
	return rc;
}

/* Boot and run the workload; 0 with *res filled whatever the steps did,
 * -1 with *cause when QEMU or a disk could not be set up (see verify.h).
 * QEMU failing before the guest printed anything is the host's failure
 * (res->host_error), tried again under TCG first when it ran under KVM:
 * whatever QEMU says (three KVM failures were seen here with three
 * texts), KVM is the likeliest cause. */
int
vm_run(const struct vm_boot *b, struct vm_result *res, char **cause)
{
	struct vm_run_ctx c;
	struct vm_argv	 a;
	char		*qemu, *host;
	size_t		 i;
	int		 rc = 0;
	bool		 kvm;

	vm_result_init(res, b->workload);
	qemu = b->qemu != NULL ? xstrdup(b->qemu) :
	    xasprintf("qemu-system-%s", b->spec->arch);
	if (!proc_have(qemu)) {
		*cause = xasprintf("%s: not found (apt-get install %s)", qemu,
		    vm_qemu_package(b->spec->arch));
		free(qemu);
		return -1;
	}
	if ((b->spec->cpu != NULL && vm_cpu_check(b, qemu, cause) != 0) ||
	    path_mkdir_p(b->dir, 0777, cause) != 0) {
		free(qemu);
		return -1;
	}
	kvm = !b->no_kvm && (b->assume_kvm || vm_kvm_usable());
	if (kvm && (res->kvm_error = vm_kvm_memo_read(b->kvm_memo)) != NULL)
		kvm = false;
	for (;;) {
		for (i = 0; rc == 0 && i < b->spec->ndisks; i++)
			rc = vm_disk(b, &b->spec->disks[i], cause);
		if (rc != 0)
			break;
		res->kvm = kvm;
		memset(&a, 0, sizeof a);
		vm_args(b, qemu, res->kvm, &a);
		memset(&c, 0, sizeof c);
		c.b = b;
		c.res = res;
		strbuf_init(&c.qemu_said);
		strbuf_init(&c.guest_first);
		rc = vm_run_qemu(&c, a.v, cause);
		vm_argv_free(&a);
		host = rc == 0 ? vm_host_failure(&c) : NULL;
		strbuf_free(&c.qemu_said);
		strbuf_free(&c.guest_first);
		/* a list printed is no KVM failure: not tried again */
		if (host != NULL && (!kvm || vm_listed_and_left(&c))) {
			res->host_error = host;
			free(c.kvm_error);
			break;
		}
		if (host != NULL && c.kvm_error == NULL) {
			c.kvm_error = host;
			c.kvm_failed = 1;
		} else
			free(host);
		if (rc != 0 || !c.kvm_failed) {
			free(c.kvm_error);
			break;
		}
		/* KVM is there but cannot run the guest: the same boot
		 * under TCG, on fresh disks, saying why. */
		vm_result_free(res);
		vm_result_init(res, b->workload);
		res->kvm_error = c.kvm_error;
		vm_kvm_memo_write(b->kvm_memo, c.kvm_error);
		kvm = false;
		if (b->progress != NULL)
			b->progress(b->arg, "kvm-failed");
	}
	free(qemu);
	return rc;
}
