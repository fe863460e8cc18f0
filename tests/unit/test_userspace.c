/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_userspace.c - verify's userspace step judged (core/verify/
 * userspace-judge.c) on consoles recorded from real boots of the Debian
 * root (tests/fixtures/userspace/README says how each was made): each
 * console is read line by line through vm.c's own parser, as a boot's
 * is, and the userspace step's lines go to the judge. Running passes;
 * degraded passes when its failed units failed on the baseline too and
 * fails with the new ones named and their console lines quoted; a
 * systemd that never reported fails. Also the time spans of
 * systemd-analyze and the markers' edges.
 */
#define UNIT_PREFIX "userspace/"
#include "unit.h"

#include "../../core/evidence/zstream.h"
#include "../../core/verify/userspace.h"
#include "../../core/verify/verify.h"

#define FIXTURE "tests/fixtures/userspace/"

/* A recorded console (.xz) through vm.c's parser into *r; false when
 * it cannot be read. */
static bool
console_read(const char *name, struct vm_result *r)
{
	char	*path = xasprintf(FIXTURE "%s", name), *cause = NULL;
	void	*buf = NULL;
	size_t	 len = 0;
	char	*p, *e;

	vm_result_init(r, NULL);
	if (zstream_decode_file(path, &buf, &len, &cause) != 0) {
		checkf(name, 0, "%s: %s", path, cause);
		free(cause);
		free(path);
		return false;
	}
	for (p = buf; p < (char *)buf + len; p = e + 1) {
		e = memchr(p, '\n', (size_t)((char *)buf + len - p));
		if (e == NULL)
			e = (char *)buf + len;
		vm_result_line(r, p, (size_t)(e - p));
	}
	vm_result_end(r);
	free(buf);
	free(path);
	return true;
}

/* The userspace step of a result, or NULL. */
static struct vm_step *
us_step(struct vm_result *r)
{
	size_t i;

	for (i = 0; i < r->nsteps; i++)
		if (strcmp(r->steps[i].name, USERSPACE_STEP) == 0)
			return &r->steps[i];
	return NULL;
}

/* A recorded console's check, parsed. */
static bool
boot_read(const char *name, struct userspace_boot *b, struct vm_result *r)
{
	struct vm_step *s;

	memset(b, 0, sizeof *b);
	if (!console_read(name, r))
		return false;
	if ((s = us_step(r)) == NULL) {
		checkf(name, 0, "no userspace step in the console");
		return false;
	}
	userspace_boot_parse(b, s->log, s->nlog);
	return true;
}

/* Whether a list of quoted lines has one containing s. */
static bool
quoted(const struct userspace_boot *b, const char *s)
{
	size_t i;

	for (i = 0; i < b->nquote; i++)
		if (strstr(b->quote[i], s) != NULL)
			return true;
	return false;
}

/* Debian 12's kernel (the cloud-vm bundle's baseline) into the root:
 * running, nothing failed, systemd-analyze's three figures. */
static void
test_running(void)
{
	struct userspace_boot	 b;
	struct vm_result	 r;
	const char		**newly;
	char			*why;
	size_t			 n;
	bool			 ok;

	if (!boot_read("bookworm-6.1-baseline-running.console.xz", &b, &r)) {
		vm_result_free(&r);
		return;
	}
	checkf("running-step-passed", us_step(&r)->state == VM_STEP_PASS &&
	    r.finished, "state %d finished %d", (int)us_step(&r)->state,
	    r.finished);
	checkf("running-state", b.seen && strcmp(b.state, "running") == 0,
	    "state %s", b.state != NULL ? b.state : "(none)");
	checkf("running-no-failed", b.nfailed == 0 && b.nquote == 0,
	    "%zu failed, %zu quoted", b.nfailed, b.nquote);
	checkf("running-time", b.kernel > 77.63 && b.kernel < 77.64 &&
	    b.userspace > 35.56 && b.userspace < 35.57 && b.total > 113.2 &&
	    b.total < 113.21, "kernel %f userspace %f total %f", b.kernel,
	    b.userspace, b.total);
	checkf("running-handover", b.handover > 53.22 && b.handover < 53.24,
	    "handover %f", b.handover);
	ok = userspace_judge(NULL, &b, &why, &newly, &n);
	checkf("running-passes", ok && why == NULL && n == 0, "%s",
	    why != NULL ? why : "");
	free(why);
	free(newly);
	ok = userspace_judge(&b, &b, &why, &newly, &n);
	checkf("running-passes-against-itself", ok, "%s",
	    why != NULL ? why : "");
	free(why);
	free(newly);
	userspace_boot_free(&b);
	vm_result_free(&r);
}

/* The tiny tree's kernel (tests/fixtures/userspace/systemd.config) into
 * the root: degraded, systemd-sysctl.service failed (the tiny kernel's
 * pid_max refuses Debian's 4194304). Passes as a baseline (degraded is
 * what the baseline may be) and against itself; without a baseline to
 * compare with, the failed unit fails it, named, with its lines. */
static void
test_degraded(void)
{
	struct userspace_boot	 b, running;
	struct vm_result	 r, rr;
	const char		**newly;
	char			*why;
	size_t			 n;
	bool			 ok;

	if (!boot_read("tiny-6.1-baseline-degraded.console.xz", &b, &r)) {
		vm_result_free(&r);
		return;
	}
	checkf("degraded-state", b.seen && strcmp(b.state, "degraded") == 0,
	    "state %s", b.state != NULL ? b.state : "(none)");
	checkf("degraded-failed", b.nfailed == 1 &&
	    strcmp(b.failed[0], "systemd-sysctl.service") == 0,
	    "%zu failed: %s", b.nfailed, b.nfailed > 0 ? b.failed[0] : "");
	/* systemd's own line names it shortened to the console's width */
	check("degraded-quotes-console", quoted(&b, "[FAILED] Failed to "
	    "start systemd-sy\xe2\x80\xa6vice - Apply Kernel Variables.") &&
	    quoted(&b, "See 'systemctl status systemd-sysctl.service' for "
	    "details."), b.nquote > 0 ? b.quote[0] : "nothing quoted");
	check("degraded-quotes-journal", quoted(&b, "systemd-sysctl.service: "
	    "Couldn't write '4194304' to 'kernel/pid_max': Invalid argument"),
	    NULL);
	check("degraded-no-colour", !quoted(&b, "\\x1b") &&
	    !quoted(&b, "\\x0d"), NULL);
	checkf("degraded-time", b.kernel > 6.03 && b.kernel < 6.04 &&
	    b.userspace > 8.08 && b.userspace < 8.09 && b.total > 14.11 &&
	    b.total < 14.13, "kernel %f userspace %f total %f", b.kernel,
	    b.userspace, b.total);
	checkf("degraded-time-line", b.time_line != NULL &&
	    strcmp(b.time_line, "Startup finished in 6.036s (kernel) + "
	    "8.083s (userspace) = 14.120s") == 0, "'%s'", b.time_line);
	ok = userspace_judge(&b, &b, &why, &newly, &n);
	checkf("degraded-same-failures-pass", ok && n == 0, "%s",
	    why != NULL ? why : "");
	free(why);
	free(newly);
	ok = userspace_judge(NULL, &b, &why, &newly, &n);
	checkf("degraded-no-baseline-fails", !ok && n == 1 &&
	    strcmp(newly[0], "systemd-sysctl.service") == 0 && why != NULL &&
	    strstr(why, "degraded; failed (no baseline to compare with): "
	    "systemd-sysctl.service") != NULL, "%s", why != NULL ? why : "");
	free(why);
	free(newly);
	/* against a baseline that ran: the unit is new, the trim's fault */
	if (boot_read("bookworm-6.1-baseline-running.console.xz", &running,
	    &rr)) {
		ok = userspace_judge(&running, &b, &why, &newly, &n);
		checkf("degraded-new-failure-fails", !ok && n == 1 &&
		    why != NULL && strstr(why, "failed and not on the "
		    "baseline: systemd-sysctl.service") != NULL, "%s",
		    why != NULL ? why : "");
		free(why);
		free(newly);
		ok = userspace_judge(&b, &running, &why, &newly, &n);
		checkf("running-against-degraded-passes", ok, "%s",
		    why != NULL ? why : "");
		free(why);
		free(newly);
		userspace_boot_free(&running);
	}
	vm_result_free(&rr);
	userspace_boot_free(&b);
	vm_result_free(&r);
}

/* The tiny kernel without SIGNALFD: systemd cannot start (its event
 * loop), reboots (systemd.crash_reboot=1): the step began and never
 * reported; it fails, systemd's own lines quoted. */
static void
test_crash(void)
{
	struct userspace_boot	 b;
	struct vm_result	 r;
	struct vm_step		*s;
	const char		**newly;
	char			*why;
	size_t			 n;
	bool			 ok;

	if (!boot_read("tiny-6.1-nosignalfd-crash.console.xz", &b, &r)) {
		vm_result_free(&r);
		return;
	}
	s = us_step(&r);
	checkf("crash-step-never-ended", s->state == VM_STEP_FAIL &&
	    s->rc == -1 && !r.finished, "state %d rc %d", (int)s->state,
	    s->rc);
	check("crash-not-seen", !b.seen && b.state == NULL && b.nfailed == 0,
	    NULL);
	check("crash-quotes-systemd", quoted(&b, "systemd[1]: Failed to "
	    "allocate manager object: Function not implemented") &&
	    quoted(&b, "[!!!!!!] Failed to allocate manager object."),
	    b.nquote > 0 ? b.quote[0] : "nothing quoted");
	ok = userspace_judge(NULL, &b, &why, &newly, &n);
	checkf("crash-fails", !ok && why != NULL && strstr(why, "never "
	    "reported") != NULL, "%s", why != NULL ? why : "");
	free(why);
	free(newly);
	userspace_boot_free(&b);
	vm_result_free(&r);
}

/* systemd's time spans. */
static void
test_span(void)
{
	static const struct { const char *s; double v; } t[] = {
		{ "1min 17.638s", 77.638 }, { "35.562s", 35.562 },
		{ "850ms", 0.85 }, { "1h 2min 3s", 3723 }, { "12us", 12e-6 },
		{ "2d", 172800 }, { "", -1 }, { "abc", -1 }, { "1.5", -1 },
		{ "3x", -1 }, { "1min2s", -1 },
	};
	size_t	i;
	double	v;

	for (i = 0; i < sizeof t / sizeof *t; i++) {
		v = userspace_span(t[i].s, strlen(t[i].s));
		checkf("span", (t[i].v < 0 && v < 0) || (v > t[i].v - 1e-9 &&
		    v < t[i].v + 1e-9), "'%s': %f, not %f", t[i].s, v, t[i].v);
	}
}

int
main(void)
{
	test_span();
	test_running();
	test_degraded();
	test_crash();
	return unit_failures != 0;
}
