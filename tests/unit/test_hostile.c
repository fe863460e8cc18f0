/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_hostile.c - a bundle and a guest are someone else's input (issue
 * 37): nothing of a bundle followed out of it (lib/beneath.h: openat2
 * and its O_NOFOLLOW fallback; the vm, workload and workload.d readers,
 * the initramfs, the twin's bundle files), escape bytes made visible text
 * (lib/text.h: the guest's console, the evidence's names).
 */
#define UNIT_PREFIX "unit/hostile/"
#include "unit.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>

#include "../../core/collect/collect.h"
#include "../../core/evidence/evidence.h"
#include "../../core/verify/verify.h"
#include "../../core/evidence/zstream.h"
#include "../../lib/beneath.h"
#include "../../lib/cachefile.h"
#include "../../lib/clock.h"
#include "../../lib/proc.h"
#include "../../lib/text.h"

#define S(s)	((s) != NULL ? (s) : "(null)")

/* dir/name holding text; the path (malloc'd). */
static char *
put(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);

	if (!unit_write_file(p, text))
		printf("# could not write %s\n", p);
	return p;
}

/* A link dir/name -> target. */
static void
link_to(const char *dir, const char *name, const char *target)
{
	char	*p = xasprintf("%s/%s", dir, name);

	if (symlink(target, p) != 0)
		printf("# could not link %s\n", p);
	free(p);
}

/* One open below dfd by fn: the errno it failed with, or 0. */
static int
open_errno(int (*fn)(int, const char *, int), int dfd, const char *rel)
{
	int	fd = fn(dfd, rel, O_RDONLY);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* Both ways of opening below a directory: a file, a file in a
 * subdirectory, and refused: a link at the end, a link on the way, "..",
 * an absolute path. */
static void
test_beneath(const char *dir)
{
	static const struct {
		const char	*name;
		int		 (*fn)(int, const char *, int);
	} ways[] = {
		{ "openat2", beneath_openat },
		{ "compat", beneath_openat_compat },
	};
	char	*b = xasprintf("%s/b", dir), *sub = xasprintf("%s/b/sub", dir);
	char	*cause = NULL, *text, *name;
	size_t	 i, len;
	int	 dfd;

	path_mkdir_p(sub, 0755, NULL);
	free(put(b, "ok", "fine\n"));
	free(put(sub, "deep", "deep\n"));
	free(put(dir, "secret", "host secret\n"));
	link_to(b, "leak", "../secret");
	link_to(b, "abs", "/etc/passwd");
	link_to(b, "dirlink", "sub");
	dfd = open(b, O_RDONLY | O_DIRECTORY);
	for (i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		name = xasprintf("%s-file", ways[i].name);
		check(name, open_errno(ways[i].fn, dfd, "ok") == 0 &&
		    open_errno(ways[i].fn, dfd, "sub/deep") == 0 &&
		    open_errno(ways[i].fn, dfd, "./sub//deep") == 0, NULL);
		free(name);
		name = xasprintf("%s-link", ways[i].name);
		checkf(name, open_errno(ways[i].fn, dfd, "leak") == ELOOP &&
		    open_errno(ways[i].fn, dfd, "abs") == ELOOP, "got %s",
		    strerror(open_errno(ways[i].fn, dfd, "abs")));
		free(name);
		name = xasprintf("%s-link-on-the-way", ways[i].name);
		checkf(name, open_errno(ways[i].fn, dfd, "dirlink/deep") ==
		    ELOOP, "got %s", strerror(open_errno(ways[i].fn, dfd,
		    "dirlink/deep")));
		free(name);
		name = xasprintf("%s-escape", ways[i].name);
		check(name, open_errno(ways[i].fn, dfd, "../secret") == EXDEV &&
		    open_errno(ways[i].fn, dfd, "sub/../../secret") == EXDEV &&
		    open_errno(ways[i].fn, dfd, "/etc/passwd") == EXDEV, NULL);
		free(name);
	}
	close(dfd);
	text = beneath_read(b, "leak", &len, &cause);
	checkf("read-link-named", text == NULL && cause != NULL &&
	    strstr(cause, "/b/leak: a symbolic link") != NULL, "got %s",
	    S(cause));
	free(text);
	free(cause);
	cause = NULL;
	text = beneath_read(b, "ok", &len, &cause);
	check("read-file", text != NULL && len == 5 &&
	    strcmp(text, "fine\n") == 0, cause);
	free(text);
	free(cause);
	free(b);
	free(sub);
}

/* Issue 37 items 1 and 4: a bundle whose vm, workload, drivers or
 * workload.d helper is a link to a host file: every reader refuses it,
 * naming the link; the host file is never read. */
static void
test_bundle_links(const char *dir)
{
	struct vm_spec	 spec;
	struct workload	 w;
	char		*b = xasprintf("%s/bundle", dir), *secret, *p;
	char		*cause = NULL, *text;

	path_mkdir_p(b, 0755, NULL);
	secret = put(dir, "shadow", "root:SECRET-HASH:19000:0:99999:7:::\n");
	link_to(b, "vm", secret);
	link_to(b, "workload", secret);
	link_to(b, "drivers", secret);
	p = xasprintf("%s/vm", b);
	checkf("vm-link", vm_spec_load(&spec, p, &cause) == -1 && cause !=
	    NULL && strstr(cause, "bundle/vm: a symbolic link") != NULL &&
	    strstr(cause, "SECRET") == NULL, "got %s", S(cause));
	free(cause);
	cause = NULL;
	free(p);
	p = xasprintf("%s/workload", b);
	checkf("workload-link", workload_load(&w, p, &cause) == -1 && cause !=
	    NULL && strstr(cause, "bundle/workload: a symbolic link") != NULL,
	    "got %s", S(cause));
	free(cause);
	cause = NULL;
	free(p);
	text = zstream_bundle_text(b, "drivers");
	check("bundle-text-link", text == NULL, text);
	free(text);
	free(secret);
	free(b);
}

/* Item 1: a link in workload.d is an error naming it; the initramfs is
 * not written (its content would be the host file's). */
static void
test_initramfs_link(const char *dir)
{
	struct initramfs o;
	struct workload	 w;
	char		*wd = xasprintf("%s/irl", dir), *hd, *p, *out;
	char		*cause = NULL;

	if (access("/bin/kmod", X_OK) != 0 || access("/bin/busybox", X_OK) !=
	    0) {
		skip("initramfs-link", "needs kmod and busybox-static");
		free(wd);
		return;
	}
	hd = xasprintf("%s/workload.d", wd);
	path_mkdir_p(hd, 0755, NULL);
	free(put(dir, "shadow2", "root:SECRET-HASH:19000:0:99999:7:::\n"));
	link_to(hd, "leak", "../../shadow2");
	p = put(wd, "workload", "step one leak\n");
	if (workload_load(&w, p, &cause) != 0) {
		check("initramfs-link", 0, cause);
		free(cause);
		free(p);
		free(hd);
		free(wd);
		return;
	}
	free(p);
	out = xasprintf("%s/initrd.cpio", wd);
	memset(&o, 0, sizeof o);
	o.out = out;
	o.workload = &w;
	o.scratch = wd;
	checkf("initramfs-link", initramfs_build(&o, &cause) == -1 && cause !=
	    NULL && strstr(cause, "workload.d/leak: a symbolic link") !=
	    NULL && access(out, F_OK) != 0, "got %s", S(cause));
	free(cause);
	workload_free(&w);
	free(out);
	free(hd);
	free(wd);
}

/* Items 3 and 5: control characters made visible; UTF-8 kept. */
static void
test_text(void)
{
	static const struct {
		const char	*name, *in, *want;
		int		 flags;
	} cases[] = {
		{ "plain", "eth0 e1000\tok", "eth0 e1000\tok", 0 },
		{ "osc-title", "\033]0;owned\007x", "\\x1b]0;owned\\x07x", 0 },
		{ "osc52", "\033]52;c;ZWNobyBoaQ==\033\\",
		    "\\x1b]52;c;ZWNobyBoaQ==\\x1b\\", 0 },
		{ "csi", "\033[2J\033[H", "\\x1b[2J\\x1b[H", 0 },
		{ "cr-del", "a\rb\177", "a\\x0db\\x7f", 0 },
		{ "newline", "a\nb", "a\\x0ab", 0 },
		{ "newline-kept", "a\r\nb\n", "a\r\nb\n", TEXT_KEEP_NEWLINE },
		{ "c1-raw", "x\233[31m", "x\\x9b[31m", 0 },
		{ "c1-utf8", "x\302\233[31m", "x\\xc2\\x9b[31m", 0 },
		{ "utf8", "caf\303\251 \342\202\254", "caf\303\251 \342\202\254",
		    0 },
		{ "overlong", "\300\257", "\\xc0\\xaf", 0 },
		{ "cut-utf8", "\342\202", "\\xe2\\x82", 0 },
	};
	char	*got, *name;
	size_t	 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = text_visible_str(cases[i].in, cases[i].flags);
		name = xasprintf("text-%s", cases[i].name);
		checkf(name, strcmp(got, cases[i].want) == 0 &&
		    text_is_visible(cases[i].in, strlen(cases[i].in),
		    cases[i].flags) == (strcmp(cases[i].in, cases[i].want) ==
		    0), "got '%s'", got);
		free(name);
		free(got);
	}
	got = text_visible("a\0b", 3, 0);
	check("text-nul", strcmp(got, "a\\x00b") == 0, got);
	free(got);
}

/* Item 5: a drivers line with escape bytes: the evidence holds the
 * driver's name as visible text (evidence --unmapped prints it). */
static void
test_evidence_escapes(const char *dir)
{
	struct evidence	*ev = evidence_new();
	const struct ev_item *it;
	char		*b = xasprintf("%s/esc", dir), *cause = NULL;
	size_t		 i, n;
	bool		 raw = false, shown = false;

	path_mkdir_p(b, 0755, NULL);
	free(put(b, "drivers", "pci e1000\033]0;owned\007 0000:00:02.0 "
	    "e1000\n"));
	if (evidence_load(ev, b, NULL, NULL, &cause) != 0) {
		check("evidence-escapes", 0, cause);
		free(cause);
	} else {
		n = evidence_count(ev, EV_DRIVER);
		for (i = 0; i < n; i++) {
			it = evidence_item(ev, EV_DRIVER, i);
			raw |= strchr(it->name, '\033') != NULL;
			shown |= strcmp(it->name, "e1000\\x1b]0;owned\\x07") ==
			    0;
		}
		checkf("evidence-escapes", n == 1 && !raw && shown,
		    "%zu drivers, raw %d", n, raw);
	}
	evidence_free(ev);
	free(b);
}

/* Items 3 and 7: a fake QEMU whose guest prints OSC 0 and OSC 52: the
 * console log and the step's log hold them as visible text; a QEMU that
 * prints its CPU list and exits 0 (-cpu help) failed on the host. */
static void
test_console(const char *dir)
{
	struct vm_spec	 spec;
	struct workload	 w;
	struct vm_boot	 b;
	struct vm_result r;
	struct strbuf	 sb;
	char		*sp, *wp, *q, *help, *cause = NULL;
	int		 rc;

	sp = put(dir, "vm", "arch x86_64\nmachine q35\nmemory 256\n"
	    "cmdline console=ttyS0\n");
	wp = put(dir, "workload2", "step a true\n");
	q = put(dir, "fake-qemu", "#!/bin/sh\n"
	    "echo '[    0.1] Linux version'\n"
	    "echo '@@kctui: init 6.1'\n"
	    "echo '@@kctui: step a begin'\n"
	    "printf 'x\\033]0;owned\\007y\\033]52;c;aGk=\\007\\n'\n"
	    "echo '@@kctui: step a end rc=0'\necho '@@kctui: done'\n");
	help = put(dir, "help-qemu", "#!/bin/sh\n"
	    "echo 'Available CPUs:'\necho 'x86 486'\necho 'x86 max'\n");
	chmod(q, 0755);
	chmod(help, 0755);
	if (vm_spec_load(&spec, sp, &cause) != 0 ||
	    workload_load(&w, wp, &cause) != 0) {
		check("console-escapes", 0, cause);
		free(cause);
		return;
	}
	memset(&b, 0, sizeof b);
	b.spec = &spec;
	b.workload = &w;
	b.qemu = q;
	b.kernel = "bzImage";
	b.initrd = "initrd.cpio";
	b.dir = xasprintf("%s/run", dir);
	b.no_kvm = true;
	strbuf_init(&sb);
	rc = vm_run(&b, &r, &cause);
	checkf("console-escapes", rc == 0 && r.finished && r.nsteps == 1 &&
	    r.steps[0].nlog == 1 && strcmp(r.steps[0].log[0],
	    "x\\x1b]0;owned\\x07y\\x1b]52;c;aGk=\\x07") == 0 &&
	    r.console != NULL && unit_read_file(r.console, &sb) &&
	    strchr(sb.s, '\033') == NULL && strstr(sb.s, "\\x1b]52;") != NULL,
	    "rc %d, %s, log %s", rc, S(cause), r.nsteps == 1 &&
	    r.steps[0].nlog == 1 ? r.steps[0].log[0] : "-");
	vm_result_free(&r);
	b.qemu = help;
	rc = vm_run(&b, &r, &cause);
	checkf("qemu-exit-0-host", rc == 0 && r.host_error != NULL &&
	    strstr(r.host_error, "exited with status 0 before the guest") !=
	    NULL && strstr(r.host_error, "Available CPUs:") != NULL,
	    "rc %d, %s", rc, S(r.host_error));
	vm_result_free(&r);
	strbuf_free(&sb);
	free((char *)b.dir);
	vm_spec_free(&spec);
	workload_free(&w);
	free(sp);
	free(wp);
	free(q);
	free(help);
}

/* Items 6, 7, 8: sizes that wrap or exceed the ceiling, 'help' anywhere,
 * a CPU model the QEMU used lacks, user networking restricted unless the
 * vm file says restrict=off. */
static void
test_vm_limits(const char *dir)
{
	static const struct {
		const char	*name, *line, *want;
	} bad[] = {
		{ "disk-8EiB", "disk big 8388607T ext4 virtio-blk-pci",
		    "more than 64 GiB" },
		{ "disk-wrap", "disk big 18446744073709551615K ext4 "
		    "virtio-blk-pci", "more than 64 GiB" },
		{ "disk-65G", "disk big 65G ext4 virtio-blk-pci",
		    "more than 64 GiB" },
		{ "cpu-help", "cpu help", "asks QEMU for a list" },
		{ "cpu-flag-help", "cpu max,help", "asks QEMU for a list" },
		{ "device-help", "device e1000,help", "asks QEMU for a list" },
		{ "netdev-help", "netdev user,id=n0,help", "asks QEMU for a list" },
	};
	struct vm_spec	 spec;
	struct vm_boot	 b;
	struct vm_result r;
	char		*p, *text, *name, *cause = NULL;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		text = xasprintf("arch x86_64\nmachine q35\nmemory 256\n"
		    "cmdline console=ttyS0\n%s\n", bad[i].line);
		p = put(dir, "vm-bad", text);
		name = xasprintf("vm-%s", bad[i].name);
		checkf(name, vm_spec_load(&spec, p, &cause) == -1 && cause !=
		    NULL && strstr(cause, "vm-bad:5: ") != NULL &&
		    strstr(cause, bad[i].want) != NULL, "got %s", S(cause));
		free(cause);
		cause = NULL;
		free(name);
		free(text);
		free(p);
	}
	p = put(dir, "vm-net", "arch x86_64\nmachine q35\nmemory 256\n"
	    "cmdline console=ttyS0\nnetdev user,id=n0\n"
	    "netdev user,id=n1,restrict=off\ndisk a 64G ext4 virtio-blk-pci\n");
	rc = vm_spec_load(&spec, p, &cause);
	checkf("netdev-restrict", rc == 0 && spec.nargs >= 4 &&
	    strcmp(spec.args[1], "user,id=n0,restrict=on") == 0 &&
	    strcmp(spec.args[3], "user,id=n1,restrict=off") == 0, "got %s",
	    rc == 0 && spec.nargs >= 4 ? spec.args[1] : S(cause));
	if (rc == 0)
		vm_spec_free(&spec);
	free(cause);
	cause = NULL;
	free(p);

	if (!proc_have("qemu-system-x86_64")) {
		skip("cpu-model", "no qemu-system-x86_64");
		return;
	}
	p = put(dir, "vm-cpu", "arch x86_64\nmachine q35\nmemory 256\n"
	    "cmdline console=ttyS0\ncpu Nonesuch-v9,+sse2\n");
	if (vm_spec_load(&spec, p, &cause) != 0) {
		check("cpu-model", 0, cause);
		free(cause);
		free(p);
		return;
	}
	memset(&b, 0, sizeof b);
	b.spec = &spec;
	b.kernel = "bzImage";
	b.initrd = "initrd.cpio";
	b.dir = xasprintf("%s/run-cpu", dir);
	b.no_kvm = true;
	rc = vm_run(&b, &r, &cause);
	checkf("cpu-model", rc == -1 && cause != NULL && strstr(cause,
	    "cpu 'Nonesuch-v9' is not a CPU model of qemu-system-x86_64") !=
	    NULL, "rc %d, %s", rc, S(cause));
	vm_result_free(&r);
	free(cause);
	free((char *)b.dir);
	vm_spec_free(&spec);
	free(p);
}

/* Items 9 and 10: collect -o into a non-empty directory is refused,
 * --force leaves nothing stale; config.xz's private values redacted,
 * kallsyms' addresses relative to _stext. */
static void
test_collect(const char *dir)
{
	static const char config[] =
	    "CONFIG_LOCALVERSION=\"\"\n"
	    "CONFIG_DEFAULT_HOSTNAME=\"alice-laptop\"\n"
	    "CONFIG_CMDLINE=\"root=/dev/sda1 ip=192.0.2.7\"\n"
	    "CONFIG_INITRAMFS_SOURCE=\"/home/alice/initramfs\"\n"
	    "CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\"\n"
	    "CONFIG_SYSTEM_TRUSTED_KEYS=\"/home/alice/keys.pem\"\n"
	    "CONFIG_EXTRA_FIRMWARE_DIR=\"/lib/firmware\"\n"
	    "CONFIG_CMDLINE_BOOL=y\n";
	static const char want[] =
	    "CONFIG_LOCALVERSION=\"\"\n"
	    "# kctui collect: CONFIG_DEFAULT_HOSTNAME redacted (it can name "
	    "the machine or its owner)\nCONFIG_DEFAULT_HOSTNAME=\"(none)\"\n"
	    "# kctui collect: CONFIG_CMDLINE redacted (it can name the "
	    "machine or its owner)\nCONFIG_CMDLINE=\"\"\n"
	    "# kctui collect: CONFIG_INITRAMFS_SOURCE redacted (it can name "
	    "the machine or its owner)\nCONFIG_INITRAMFS_SOURCE=\"\"\n"
	    "CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\"\n"
	    "# kctui collect: CONFIG_SYSTEM_TRUSTED_KEYS redacted (it can "
	    "name the machine or its owner)\nCONFIG_SYSTEM_TRUSTED_KEYS=\"\"\n"
	    "CONFIG_EXTRA_FIRMWARE_DIR=\"/lib/firmware\"\n"
	    "CONFIG_CMDLINE_BOOL=y\n";
	static const char ksyms[] =
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffffa3e00000 T _text\n"
	    "ffffffffa3e00000 T _stext\n"
	    "ffffffffa3e01230 t do_one_initcall\n"
	    "ffffffffc084d000 t virtblk_done\t[virtio_blk]\n";
	static const char kwant[] =
	    "0000000000000000 A fixed_percpu_data\n"
	    "0000000000000000 T _text\n"
	    "0000000000000000 T _stext\n"
	    "0000000000001230 t do_one_initcall\n"
	    "000000001ca4d000 t virtblk_done\t[virtio_blk]\n";
	struct collect_options o;
	char	*got, *b, *p, *cause = NULL;
	int	 rc;

	got = collect_config_redact(config, sizeof config - 1);
	checkf("collect-config-redact", strcmp(got, want) == 0, "got\n%s",
	    got);
	free(got);
	/* found by fuzz_collect: an unterminated value as long as the
	 * default's quotes ("r for "") was taken for the default */
	got = collect_config_redact("CONFIG_CMDLINE=\"r", 17);
	checkf("collect-config-redact-unterminated", strstr(got,
	    "CONFIG_CMDLINE=\"r") == NULL && strstr(got,
	    "\nCONFIG_CMDLINE=\"\"\n") != NULL, "got\n%s", got);
	free(got);
	got = collect_kallsyms_relative(ksyms, sizeof ksyms - 1);
	checkf("collect-kallsyms-relative", strcmp(got, kwant) == 0,
	    "got\n%s", got);
	free(got);

	b = xasprintf("%s/collected", dir);
	path_mkdir_p(b, 0755, NULL);
	p = put(b, "vm", "arch x86_64\n");
	memset(&o, 0, sizeof o);
	o.outdir = b;
	o.no_trace = true;
	o.note = unit_quiet;
	rc = collect_run(&o, &cause);
	checkf("collect-not-empty", rc == -1 && cause != NULL &&
	    strstr(cause, "collected: not empty") != NULL &&
	    access(p, F_OK) == 0, "rc %d, %s", rc, S(cause));
	free(cause);
	cause = NULL;
	o.force = true;
	rc = collect_run(&o, &cause);
	free(p);
	p = xasprintf("%s/uname", b);
	checkf("collect-force", rc == 0 && access(p, F_OK) == 0, "rc %d, %s",
	    rc, S(cause));
	free(p);
	p = xasprintf("%s.kctui-new.%ld", b, (long)getpid());
	check("collect-force-no-leftover", access(p, F_OK) != 0, p);
	free(p);
	p = xasprintf("%s/vm", b);
	check("collect-force-fresh", access(p, F_OK) != 0, "the stale vm "
	    "is still there");
	free(p);
	free(cause);
	free(b);
}

/* Item 2: the helpers kctui ships are tests/evidence's, byte for byte;
 * a bundle's own C is refused without the flag (and listed), a shipped
 * one is built; with the flag, the compiler runs under limits: an
 * #include of /dev/zero ends in seconds, not at 1 GB. */
static void
test_bundle_c(const char *dir)
{
	struct initramfs o;
	struct workload	 w;
	struct strbuf	 sb;
	char		*wd = xasprintf("%s/bc", dir), *hd, *p, *out, *list;
	char		*cause = NULL, *name;
	size_t		 i;
	double		 t0;
	int		 ok;

	strbuf_init(&sb);
	for (i = 0; i < verify_nhelpers; i++) {
		p = xasprintf("tests/evidence/%s", verify_helpers[i].name);
		name = xasprintf("shipped-%s", verify_helpers[i].name);
		checkf(name, unit_read_file(p, &sb) && sb.len ==
		    verify_helpers[i].len && memcmp(sb.s, verify_helpers[i].text,
		    sb.len) == 0, "%s differs: run tests/evidence/"
		    "ship-helpers.sh", p);
		free(name);
		free(p);
	}
	if (access("/bin/kmod", X_OK) != 0 || access("/bin/busybox", X_OK) !=
	    0 || !proc_have("cc")) {
		skip("bundle-c", "needs kmod, busybox-static and cc");
		strbuf_free(&sb);
		free(wd);
		return;
	}
	hd = xasprintf("%s/workload.d", wd);
	path_mkdir_p(hd, 0755, NULL);
	unit_read_file("tests/evidence/tcploop.c", &sb);
	free(put(hd, "tcploop.c", sb.s));
	free(put(hd, "own.c", "#include \"/dev/zero\"\n"));
	p = put(wd, "workload", "step one tcploop\n");
	ok = workload_load(&w, p, &cause) == 0;
	free(p);
	if (!ok) {
		check("bundle-c", 0, cause);
		free(cause);
		strbuf_free(&sb);
		free(hd);
		free(wd);
		return;
	}
	list = initramfs_bundle_c(hd);
	checkf("bundle-c-listed", list != NULL && strstr(list, "/own.c") !=
	    NULL && strstr(list, "tcploop.c") == NULL, "got %s", S(list));
	free(list);
	out = xasprintf("%s/initrd.cpio", wd);
	memset(&o, 0, sizeof o);
	o.out = out;
	o.workload = &w;
	o.scratch = wd;
	checkf("bundle-c-refused", initramfs_build(&o, &cause) == -1 &&
	    cause != NULL && strstr(cause, "workload.d/own.c: the bundle's "
	    "own C") != NULL && strstr(cause, "--build-bundle-helpers") !=
	    NULL && access(out, F_OK) != 0, "got %s", S(cause));
	free(cause);
	cause = NULL;
	o.build_bundle_c = true;
	t0 = clock_now();
	checkf("bundle-c-limits", initramfs_build(&o, &cause) == -1 &&
	    cause != NULL && strstr(cause, "own.c: cc -static failed") !=
	    NULL && clock_now() - t0 < 60, "%.1f s, got %.300s",
	    clock_now() - t0, S(cause));
	free(cause);
	cause = NULL;
	/* in the sandbox, a host file is not there to include */
	free(put(hd, "own.c", "#include \"/etc/passwd\"\n"));
	checkf("bundle-c-sandbox-no-host-file", initramfs_build(&o, &cause) ==
	    -1 && cause != NULL && strstr(cause, "own.c: cc -static failed")
	    != NULL && strstr(cause, "root:") == NULL, "got %.400s",
	    S(cause));
	free(cause);
	cause = NULL;
	/* ... and C that needs only the system's headers builds there */
	free(put(hd, "own.c", "#include <stdio.h>\nint main(void) { "
	    "puts(\"own\"); return 0; }\n"));
	checkf("bundle-c-sandbox-builds", initramfs_build(&o, &cause) == 0 &&
	    access(out, F_OK) == 0, "got %s", S(cause));
	free(cause);
	cause = NULL;
	p = xasprintf("%s/own.c", hd);
	unlink(p);
	free(p);
	checkf("bundle-c-shipped", initramfs_build(&o, &cause) == 0 &&
	    access(out, F_OK) == 0, "got %s", S(cause));
	free(cause);
	workload_free(&w);
	strbuf_free(&sb);
	free(out);
	free(hd);
	free(wd);
}

/* fuzz_console's finding: "end rc=N" at the very end of a console line
 * with no NUL after it was read past its end (atoi); under ASan this
 * reads a heap buffer of exactly the line's bytes. */
static void
test_console_rc(const char *dir)
{
	static const char line[] = "@@kctui: step a end rc=12";
	struct workload	 w;
	struct vm_result r;
	char		*p, *buf, *cause = NULL;

	p = put(dir, "workload-rc", "step a true\n");
	if (workload_load(&w, p, &cause) != 0) {
		check("console-rc-bounded", 0, cause);
		free(cause);
		free(p);
		return;
	}
	buf = xmalloc(sizeof line - 1);
	memcpy(buf, line, sizeof line - 1);
	vm_result_init(&r, &w);
	vm_result_line(&r, buf, sizeof line - 1);
	vm_result_end(&r);
	check("console-rc-bounded", r.nsteps == 1 && r.steps[0].rc == 12 &&
	    r.steps[0].state == VM_STEP_FAIL, NULL);
	vm_result_free(&r);
	free(buf);
	workload_free(&w);
	free(p);
}

/* Item 14: a cache file or directory others can write is not used. */
static void
test_cache_owner(const char *dir)
{
	struct cachefile cf;
	char		*d = xasprintf("%s/cache", dir), *p, *cause = NULL;
	int		 rc;

	path_mkdir_p(d, 0755, NULL);
	p = xasprintf("%s/x.cache", d);
	if (cachefile_write(p, "KCTEST1\n", 1, 42, "payload", 7, &cause) != 0) {
		check("cache-owner", 0, cause);
		free(cause);
		free(p);
		free(d);
		return;
	}
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	check("cache-ours", rc == 0 && cf.len == 7, cause);
	cachefile_close(&cf);
	free(cause);
	cause = NULL;
	chmod(p, 0622);
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	checkf("cache-file-writable", rc == -1 && cause != NULL &&
	    strstr(cause, "writable by others") != NULL, "got %s", S(cause));
	free(cause);
	cause = NULL;
	chmod(p, 0600);
	chmod(d, 0777);
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	checkf("cache-dir-writable", rc == -1 && cause != NULL &&
	    strstr(cause, "cache: writable by others") != NULL, "got %s",
	    S(cause));
	free(cause);
	cause = NULL;
	chmod(d, 01777);
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	check("cache-dir-sticky", rc == 0, cause);
	cachefile_close(&cf);
	free(cause);
	free(p);
	free(d);
}

/* What the caches' note function was told (cachefile_set_note). */
static char *cache_said;

static void
cache_note(void *arg, const char *text)
{
	(void)arg;
	free(cache_said);
	cache_said = xstrdup(text);
}

/*
 * Item 14: a cache whose payload was changed and its plain checksum
 * (hash_buf64, the old one) recomputed is refused, its seal being keyed
 * with the directory's private cache.key, and the refusal is said (-v);
 * the content keys of one directory are stable, another directory's
 * (another key) differ.
 */
static void
test_cache_seal(const char *dir)
{
	struct cachefile cf;
	char		*d = xasprintf("%s/sealed", dir), *p, *k, *q;
	char		*cause = NULL;
	char		 buf[CACHEFILE_HEADER + 16];
	uint64_t	 len, sum, d1, d2, d3;
	struct stat	 st;
	FILE		*f;
	int		 rc;

	p = xasprintf("%s/x.cache", d);
	k = xasprintf("%s/cache.key", d);
	if (cachefile_write(p, "KCTEST1\n", 1, 42, "payload-A", 9,
	    &cause) != 0) {
		check("cache-seal", 0, cause);
		goto out;
	}
	checkf("cache-key-made", stat(k, &st) == 0 && st.st_size == 16 &&
	    (st.st_mode & 0777) == 0600, "%s", k);
	/* payload-A -> payload-B, the length and plain checksum redone */
	if ((f = fopen(p, "r+b")) != NULL) {
		if (fread(buf, 1, sizeof buf, f) == CACHEFILE_HEADER + 9) {
			buf[CACHEFILE_HEADER + 8] = 'B';
			len = 9;
			sum = hash_buf64(buf + CACHEFILE_HEADER, 9);
			memcpy(buf + 24, &len, 8);
			memcpy(buf + 32, &sum, 8);
			rewind(f);
			fwrite(buf, 1, CACHEFILE_HEADER + 9, f);
		}
		fclose(f);
	}
	cachefile_set_note(cache_note, NULL);
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	checkf("cache-forged-refused", rc == -1 && cause != NULL &&
	    strstr(cause, "seal mismatch") != NULL, "rc %d, %s", rc,
	    S(cause));
	checkf("cache-forged-said", cache_said != NULL &&
	    strstr(cache_said, "seal mismatch") != NULL &&
	    strstr(cache_said, "not used, rebuilt") != NULL, "said %s",
	    S(cache_said));
	cachefile_set_note(NULL, NULL);
	free(cause);
	cause = NULL;
	/* rewritten by kctui: used again */
	cachefile_write(p, "KCTEST1\n", 1, 42, "payload-B", 9, &cause);
	rc = cachefile_open(&cf, p, "KCTEST1\n", 1, 0, &cause);
	check("cache-resealed", rc == 0 && cf.len == 9, cause);
	cachefile_close(&cf);
	free(cause);
	cause = NULL;
	/* a key others can read is no key (a directory this process has
	 * not used: keys are read once) */
	q = xasprintf("%s/readable", dir);
	path_mkdir_p(q, 0700, NULL);
	free(q);
	q = xasprintf("%s/readable/cache.key", dir);
	if ((f = fopen(q, "wb")) != NULL) {
		fwrite("0123456789abcdef", 1, 16, f);
		fclose(f);
	}
	chmod(q, 0644);
	free(q);
	/* (kctui writes none there: a copy of the one above) */
	q = xasprintf("%s/readable/x.cache", dir);
	if ((f = fopen(p, "rb")) != NULL) {
		len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		if ((f = fopen(q, "wb")) != NULL) {
			fwrite(buf, 1, (size_t)len, f);
			fclose(f);
			chmod(q, 0600);
		}
	}
	rc = cachefile_open(&cf, q, "KCTEST1\n", 1, 0, &cause);
	checkf("cache-key-readable-refused", rc == -1 && cause != NULL &&
	    strstr(cause, "not the user's own private key file") != NULL,
	    "rc %d, %s", rc, S(cause));
	cachefile_close(&cf);
	free(q);
	free(cause);
	cause = NULL;
	/* content keys: stable in one directory, another key elsewhere */
	cachefile_digest(p, "abc", 3, &d1, &cause);
	cachefile_digest(p, "abc", 3, &d2, &cause);
	free(p);
	p = xasprintf("%s/other/x.cache", dir);
	cachefile_digest(p, "abc", 3, &d3, &cause);
	check("cache-digest-keyed", d1 == d2 && d1 != d3, NULL);
	free(cause);
out:
	free(cache_said);
	cache_said = NULL;
	free(k);
	free(p);
	free(d);
}

int
main(void)
{
	char	 dir[] = "/tmp/kctui-hostile.XXXXXX";

	if (!unit_tmpdir(dir))
		return 1;
	test_beneath(dir);
	test_bundle_links(dir);
	test_initramfs_link(dir);
	test_text();
	test_evidence_escapes(dir);
	test_console(dir);
	test_vm_limits(dir);
	test_collect(dir);
	test_bundle_c(dir);
	test_console_rc(dir);
	test_cache_owner(dir);
	test_cache_seal(dir);
	unit_rmtree(dir);
	return unit_failures != 0;
}
