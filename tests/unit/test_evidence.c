/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_evidence.c - unit tests of the evidence reader (core/evidence/evidence.h):
 * small bundles in the formats the kernel prints (/proc/modules, lsmod,
 * ftrace function and function_graph text, /proc/crypto...) written to a
 * temporary directory, plain and compressed with liblzma and zlib, loaded
 * and merged. If tests/fixtures/evidence/cloud-vm exists (a bundle
 * recorded under QEMU), it is loaded too and its counts are printed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>

#include "../../core/evidence/evidence.h"
#include "../../lib/cachefile.h"

#define UNIT_PREFIX "unit/evidence/"
#include "unit.h"

#define FIXTURE	"tests/fixtures/evidence/cloud-vm"
/* A string literal and its length, as readers take them. */
#define TXT(s)	(s), sizeof(s) - 1

static char	tmpdir[] = "/tmp/kctui-evidence-XXXXXX";
static char	warnings[8192];
static int	nwarnings;

/* Report an assertion about a number. */
static void
check_num(const char *name, unsigned long long got, unsigned long long want)
{
	char	detail[128];

	snprintf(detail, sizeof detail, "got %llu, want %llu", got, want);
	check(name, got == want, detail);
}

/* Report an assertion about a string (NULL allowed). */
static void
check_str(const char *name, const char *got, const char *want)
{
	char	detail[512];
	int	ok;

	if (got == NULL || want == NULL)
		ok = got == want;
	else
		ok = strcmp(got, want) == 0;
	snprintf(detail, sizeof detail, "got \"%s\", want \"%s\"",
	    got ? got : "(null)", want ? want : "(null)");
	check(name, ok, detail);
}

/* Collect warnings instead of printing them. */
static void
collect(void *arg, const char *text)
{
	(void)arg;
	nwarnings++;
	strncat(warnings, text, sizeof warnings - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

/* Forget collected warnings. */
static void
reset_warnings(void)
{
	warnings[0] = '\0';
	nwarnings = 0;
}

/* Write a file of n bytes. */
static void
write_bytes(const char *path, const void *data, size_t n)
{
	FILE	*f = fopen(path, "wb");

	if (f == NULL || fwrite(data, 1, n, f) != n) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fclose(f);
}

/* Make a bundle directory under tmpdir; returns its path (static). */
static const char *
bundle_dir(const char *name)
{
	static char	path[4096];

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	mkdir(path, 0700);
	return path;
}

/* Write text as file name of bundle dir. */
static void
put(const char *dir, const char *name, const char *text)
{
	char	path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_bytes(path, text, strlen(text));
}

/* Load a bundle, expecting success. */
static void
load(struct evidence *ev, const char *dir)
{
	char	*cause = NULL;

	if (evidence_load(ev, dir, collect, NULL, &cause) != 0) {
		printf("# unexpected load error: %s\n", cause);
		free(cause);
	}
}

/* ------------------------------------------------------------ samples */

/* /proc/modules as the kernel prints it (6.1, QEMU guest). */
static const char proc_modules[] =
    "virtio_net 61440 0 - Live 0xffffffffc0345000\n"
    "net_failover 24576 1 virtio_net, Live 0xffffffffc0335000\n"
    "failover 16384 1 net_failover, Live 0xffffffffc032d000\n"
    "crc32_pclmul 16384 0 - Live 0x0000000000000000\n"
    "virtio-blk 20480 2 - Live 0xffffffffc0311000\n"
    "nvidia 56344576 0 - Live 0xffffffffc1000000 (POE)\n";

/* lsmod's output of the same kind of system. */
static const char lsmod_out[] =
    "Module                  Size  Used by\n"
    "virtio_net             61440  0\n"
    "net_failover           24576  1 virtio_net\n"
    "failover               16384  1 net_failover\n"
    "ext4                 1028096  1\n"
    "mbcache                16384  1 ext4\n"
    "jbd2                  167936  1 ext4\n";

/* Function tracer text (header and the first four event lines copied
 * from the cloud-vm fixture, Linux 6.1; the rest in the same format). */
static const char func_trace[] =
    "# tracer: function\n"
    "#\n"
    "# entries-in-buffer/entries-written: 6/6   #P:2\n"
    "#\n"
    "#                                _-----=> irqs-off/BH-disabled\n"
    "#                               / _----=> need-resched\n"
    "#                              | / _---=> hardirq/softirq\n"
    "#                              || / _--=> preempt-depth\n"
    "#                              ||| / _-=> migrate-disable\n"
    "#                              |||| /     delay\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "#              | |         |   |||||     |         |\n"
    "            init-1       [000] .....    52.349012: mutex_unlock <-rb_simple_write\n"
    "          <idle>-0       [001] ..s1.    52.349510: _nohz_idle_balance.isra.0 <-handle_softirqs\n"
    "          <idle>-0       [001] d.H1.    52.393922: virtblk_done <-vring_interrupt\n"
    "            init-1       [000] .....    52.351304: tracing_mark_write: kctui: workload start\n"
    "            bash-1234    [001] d..1.   123.456789: vfs_read <-ksys_read\n"
    "            bash-1234    [001] d..1.   123.456790: vfs_read <-ksys_read\n"
    "          <idle>-0       [000] ..s1.   123.456800: virtnet_poll [virtio_net] <-__napi_poll\n"
    "     kworker/0:1-27      [000] .....   123.456900: ext4_map_blocks.part.0 <-ext4_iomap_begin.constprop.0\n"
    " Web Content-4321   [001] d.h2.   123.457000: memcpy_orig.cold <-__netif_receive_skb_core.llvm.123456789\n"
    "            bash-1234    [001] ...1.   123.457100: sched_switch: prev_comm=bash prev_pid=1234\n"
    "CPU:1 [LOST 7 EVENTS]\n"
    "            bash-1234    [001] ...1.   123.457200: <stack trace>\n"
    " => __x64_sys_read\n";

/* function_graph text: plain, with funcgraph-proc, with a module tag. */
static const char graph_trace[] =
    "# tracer: function_graph\n"
    "#\n"
    "# CPU  DURATION                  FUNCTION CALLS\n"
    "# |     |   |                     |   |   |   |\n"
    " 0)               |  vfs_read() {\n"
    " 0)   0.541 us    |    rw_verify_area();\n"
    " 0)   0.100 us    |    rw_verify_area();\n"
    " 0) ! 123.456 us  |  } /* vfs_read */\n"
    " ------------------------------------------\n"
    " 0)   bash-1234    =>   kworker-27   \n"
    " ------------------------------------------\n"
    "\n"
    " 0)   ==========> |\n"
    " 0)               |  sysvec_apic_timer_interrupt() {\n"
    " 0)   <========== |\n"
    " 1)   bash-1234    |   0.321 us    |  ext4_file_read_iter.isra.0();\n"
    " 1)               |  virtnet_poll [virtio_net]() {\n"
    " 1)   0.200 us    |    /* sched_switch: prev_comm=x */\n"
    "  456.000123 |   1)   sh-99    |   1.000 us    |  do_sys_openat2();\n";

/* /proc/crypto blocks. */
static const char crypto_text[] =
    "name         : sha256\n"
    "driver       : sha256-generic\n"
    "module       : kernel\n"
    "priority     : 100\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : shash\n"
    "blocksize    : 64\n"
    "digestsize   : 32\n"
    "\n"
    "name         : __xts(aes)\n"
    "driver       : __xts-aes-aesni\n"
    "module       : aesni_intel\n"
    "priority     : 401\n"
    "type         : skcipher\n"
    "\n"
    "name         : crc32c\n"
    "driver       : crc32c-intel\n"
    "module       : crc32c_intel\n"
    "priority     : 200\n"
    "refcnt       : 3\n";

/* /proc/mounts. */
static const char mounts_text[] =
    "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
    "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
    "/dev/vda1 / ext4 rw,relatime,errors=remount-ro 0 0\n"
    "tmpfs /run tmpfs rw,nosuid,nodev,size=401428k,mode=755 0 0\n"
    "tmpfs /run/user/1000 tmpfs rw,nosuid,nodev,relatime 0 0\n"
    "/dev/vdb /mnt/my\\040disk vfat rw,relatime 0 0\n";

/* ------------------------------------------------------------ tests */

/* /proc/modules and lsmod output, told apart. */
static void
test_modules(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	int			 bad;

	bad = evidence_read_modules(ev, 0, proc_modules, strlen(proc_modules));
	check_num("modules/proc-malformed", (unsigned)bad, 0);
	check_num("modules/proc-count", evidence_count(ev, EV_MODULE), 6);
	it = evidence_find(ev, EV_MODULE, "virtio_net");
	check("modules/proc-find", it != NULL, "virtio_net missing");
	if (it != NULL) {
		check_str("modules/proc-size", it->detail, "61440");
		check_num("modules/proc-bits", it->bundles, 1);
	}
	check("modules/dash-underscore",
	    evidence_find(ev, EV_MODULE, "virtio_blk") != NULL,
	    "virtio-blk not stored as virtio_blk");
	check("modules/taint", evidence_find(ev, EV_MODULE, "nvidia") != NULL,
	    "tainted module line rejected");
	check_str("modules/first-seen-order",
	    evidence_item(ev, EV_MODULE, 1)->name, "net_failover");

	bad = evidence_read_modules(ev, 1, lsmod_out, strlen(lsmod_out));
	check_num("modules/lsmod-malformed", (unsigned)bad, 0);
	check_num("modules/lsmod-merged-count", evidence_count(ev, EV_MODULE),
	    9);
	it = evidence_find(ev, EV_MODULE, "ext4");
	check("modules/lsmod-ext4", it != NULL && it->bundles == 2 &&
	    strcmp(it->detail, "1028096") == 0, "ext4 wrong");
	it = evidence_find(ev, EV_MODULE, "virtio_net");
	check_num("modules/merge-bits", it ? it->bundles : 0, 3);
	check_num("modules/merge-hits", it ? it->hits : 0, 2);
	check("modules/no-header-item",
	    evidence_find(ev, EV_MODULE, "Module") == NULL, "header as item");

	/* lsmod without header, truncated and garbled lines */
	bad = evidence_read_modules(ev, 2,
	    TXT("snd 12288 0\nsnd_pcm 1x2 0\nvirtio_\n\xff\xfe 1 2\n"));
	check_num("modules/lsmod-bad", (unsigned)bad, 3);
	bad = evidence_read_modules(ev, 3,
	    TXT("virtio_net 61440 0 - Live 0xffffffffc0345000\n"
	    "net_failover 24576 1 virtio_net, Live\n"));
	check_num("modules/proc-truncated", (unsigned)bad, 1);
	evidence_free(ev);
}

/* Function tracer lines: callee and parent, module tags, suffixes. */
static void
test_trace_function(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	int			 bad;

	bad = evidence_read_trace(ev, 0, func_trace, strlen(func_trace));
	check_num("trace/func-malformed", (unsigned)bad, 0);
	it = evidence_find(ev, EV_TRACE, "vfs_read");
	check_num("trace/func-hits", it ? it->hits : 0, 2);
	it = evidence_find(ev, EV_TRACE, "ksys_read");
	check_num("trace/parent-counted", it ? it->hits : 0, 2);
	it = evidence_find(ev, EV_TRACE, "virtnet_poll");
	check_str("trace/module-tag", it ? it->detail : NULL, "virtio_net");
	check("trace/parent-of-module", evidence_find(ev, EV_TRACE,
	    "__napi_poll") != NULL, "__napi_poll missing");
	check("trace/strip-part", evidence_find(ev, EV_TRACE,
	    "ext4_map_blocks") != NULL, "ext4_map_blocks.part.0 not stripped");
	check("trace/strip-constprop", evidence_find(ev, EV_TRACE,
	    "ext4_iomap_begin") != NULL, "constprop not stripped");
	check("trace/strip-cold", evidence_find(ev, EV_TRACE,
	    "memcpy_orig") != NULL, ".cold not stripped");
	check("trace/strip-llvm", evidence_find(ev, EV_TRACE,
	    "__netif_receive_skb_core") != NULL, ".llvm.N not stripped");
	check("trace/task-with-space", evidence_find(ev, EV_TRACE,
	    "memcpy_orig") != NULL, "comm with space broke the line");
	check("trace/event-not-function", evidence_find(ev, EV_TRACE,
	    "sched_switch") == NULL, "event taken as function");
	check("trace/stack-trace", evidence_find(ev, EV_TRACE,
	    "__x64_sys_read") != NULL, "stack trace entry missing");
	check_num("trace/events", evidence_bundle(ev, 0)->trace_events, 8);
	check_num("trace/lost", evidence_bundle(ev, 0)->trace_overrun, 7);
	check("trace/marker-not-function", evidence_find(ev, EV_TRACE,
	    "tracing_mark_write") == NULL, "trace_marker line as function");
	check("trace/real-isra", evidence_find(ev, EV_TRACE,
	    "_nohz_idle_balance") != NULL, "_nohz_idle_balance.isra.0");
	check_num("trace/distinct", evidence_count(ev, EV_TRACE), 15);
	evidence_free(ev);
}

/* function_graph lines. */
static void
test_trace_graph(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	int			 bad;

	bad = evidence_read_trace(ev, 0, graph_trace, strlen(graph_trace));
	check_num("trace/graph-malformed", (unsigned)bad, 0);
	it = evidence_find(ev, EV_TRACE, "vfs_read");
	check_num("trace/graph-entry-once", it ? it->hits : 0, 1);
	it = evidence_find(ev, EV_TRACE, "rw_verify_area");
	check_num("trace/graph-leaf", it ? it->hits : 0, 2);
	check("trace/graph-irq", evidence_find(ev, EV_TRACE,
	    "sysvec_apic_timer_interrupt") != NULL, "irq entry missing");
	check("trace/graph-proc-column", evidence_find(ev, EV_TRACE,
	    "ext4_file_read_iter") != NULL, "funcgraph-proc line missing");
	it = evidence_find(ev, EV_TRACE, "virtnet_poll");
	check_str("trace/graph-module", it ? it->detail : NULL, "virtio_net");
	check("trace/graph-abstime", evidence_find(ev, EV_TRACE,
	    "do_sys_openat2") != NULL, "funcgraph-abstime line missing");
	check_num("trace/graph-distinct", evidence_count(ev, EV_TRACE), 6);

	bad = evidence_read_trace(ev, 0,
	    TXT(" 0)   0.541 us    |  rw_verify_area();\n"
	    " 0)   0.541 us    |  ???\n"
	    "garbage line\n"
	    "bash-1 [000] ..... 1.0: vfs_write <-ksys_write\n"
	    " 0)   0.541 us    |  vfs_wri"));
	check_num("trace/graph-bad", (unsigned)bad, 3);
	check("trace/truncated-last-line", evidence_find(ev, EV_TRACE,
	    "vfs_wri") == NULL, "truncated name stored");
	evidence_free(ev);
}

/* evidence_strip_suffix. */
static void
test_strip(void)
{
	static const char *const cases[][2] = {
		{ "foo.constprop.0", "foo" },
		{ "foo.isra.0", "foo" },
		{ "foo.part.12", "foo" },
		{ "foo.cold", "foo" },
		{ "foo.cold.3", "foo" },
		{ "foo.llvm.8470231145366217181", "foo" },
		{ "foo.isra.0.cold", "foo" },
		{ "foo.constprop.0.isra.0", "foo" },
		{ "foo.part.0.constprop.0", "foo" },
		{ "foo", "foo" },
		{ "foo.bar", "foo.bar" },
		{ "foo.bar.isra.1", "foo.bar" },
		{ ".cold", ".cold" },
		{ "foo.cold.", "foo.cold." },
		{ "foo.", "foo." },
	};
	char	buf[128], name[160];
	size_t	i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(buf, sizeof buf, "%s", cases[i][0]);
		snprintf(name, sizeof name, "strip/%s", cases[i][0]);
		check_str(name, evidence_strip_suffix(buf), cases[i][1]);
	}
}

/* /proc/crypto blocks. */
static void
test_crypto(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	int			 bad;

	bad = evidence_read_crypto(ev, 0, crypto_text, strlen(crypto_text));
	check_num("crypto/malformed", (unsigned)bad, 0);
	check_num("crypto/count", evidence_count(ev, EV_CRYPTO), 3);
	it = evidence_find(ev, EV_CRYPTO, "sha256-generic");
	check("crypto/kernel", it != NULL && it->module == NULL &&
	    strcmp(it->detail, "sha256") == 0, "sha256-generic wrong");
	it = evidence_find(ev, EV_CRYPTO, "__xts-aes-aesni");
	check_str("crypto/module", it ? it->module : NULL, "aesni_intel");
	check_str("crypto/name", it ? it->detail : NULL, "__xts(aes)");
	it = evidence_find(ev, EV_CRYPTO, "crc32c-intel");
	check("crypto/last-block", it != NULL, "block at EOF lost");
	check_num("crypto/users", it ? (unsigned)it->hits : 99, 2);
	it = evidence_find(ev, EV_CRYPTO, "sha256-generic");
	check_num("crypto/registered-only", it ? (unsigned)it->hits : 99, 0);

	bad = evidence_read_crypto(ev, 0,
	    TXT("name : md5\nmodule : kernel\n\nthis is not crypto\n"
	    "name : sha1\ndriver : sha1-generic\n"));
	check_num("crypto/bad", (unsigned)bad, 2);
	evidence_free(ev);
}

/* /proc/mounts and /proc/filesystems. */
static void
test_mounts(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	int			 bad;

	bad = evidence_read_mounts(ev, 0, mounts_text, strlen(mounts_text));
	check_num("mounts/malformed", (unsigned)bad, 0);
	check_num("mounts/count", evidence_count(ev, EV_MOUNT), 5);
	it = evidence_find(ev, EV_MOUNT, "tmpfs");
	check("mounts/tmpfs", it != NULL && it->hits == 2 &&
	    strcmp(it->detail, "/run") == 0, "tmpfs wrong");
	it = evidence_find(ev, EV_MOUNT, "vfat");
	check_str("mounts/unescape", it ? it->detail : NULL, "/mnt/my disk");
	it = evidence_find(ev, EV_MOUNT, "ext4");
	check_str("mounts/ext4", it ? it->detail : NULL, "/");
	bad = evidence_read_mounts(ev, 0, TXT("proc /proc proc rw\n"
	    "/dev/x /y xfs rw 0 0\n"));
	check_num("mounts/bad", (unsigned)bad, 1);
	evidence_free(ev);
}

/* A whole bundle directory with every file. */
static void
test_bundle(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_bundle	*b;
	const struct ev_item	*it;
	const char		*dir = bundle_dir("full");
	const char *const	*mods;
	size_t			 n;

	put(dir, "uname", "Linux vm 6.1.0-18-cloud-amd64 #1 SMP PREEMPT_DYNAMIC "
	    "Debian 6.1.76-1 (2024-02-01) x86_64 GNU/Linux\n");
	put(dir, "modules", proc_modules);
	put(dir, "trace", func_trace);
	put(dir, "trace-stats",
	    "cpu0\nentries: 100\noverrun: 12\ncommit overrun: 0\n"
	    "bytes: 4096\noldest event ts:  123.456789\n"
	    "now ts:  200.000000\ndropped events: 0\nread events: 5\n"
	    "cpu1\nentries: 50\noverrun: 30\ncommit overrun: 1\n");
	put(dir, "modalias",
	    "pci0000:00/0000:00:03.0 "
	    "pci:v00001AF4d00001000sv00001AF4sd00000001bc02sc00i00\n"
	    "pci0000:00/0000:00:04.0 "
	    "pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00\n"
	    "platform/i8042/serio0 "
	    "serio:ty06pr00id00ex00\n");
	put(dir, "drivers",
	    "pci virtio-pci 0000:00:03.0 virtio_pci\n"
	    "pnp i8042 kbd 00:02 -\n"
	    "virtio virtio_net virtio0 virtio_net\n");
	put(dir, "mounts", mounts_text);
	put(dir, "filesystems", "nodev\tsysfs\nnodev\tproc\n\text4\n\tvfat\n");
	put(dir, "crypto", crypto_text);
	put(dir, "kallsyms",
	    "ffffffff81000000 T _text\n"
	    "ffffffff812a0e10 T vfs_read\n"
	    "ffffffff812b0000 t ext4_map_blocks.part.0\n"
	    "ffffffffc0345010 t virtnet_poll\t[virtio_net]\n");
	put(dir, "modules.alias",
	    "# Aliases extracted from modules themselves.\n"
	    "alias pci:v00001AF4d*sv*sd*bc*sc*i* virtio_pci\n"
	    "alias pci:v00001AF4d00001000sv*sd*bc*sc*i* virtio_net_fake\n"
	    "alias pci:v*d*sv*sd*bc01sc*i* storage_any\n"
	    "alias pci:v00008086d0000100Esv*sd*bc*sc*i* e1000\n"
	    "alias serio:ty06pr*id*ex* psmouse\n"
	    "alias serio:ty0[0-6]pr*id*ex* serio_range\n"
	    "alias virtio:d00000001v* virtio_net\n"
	    "alias virtio:d00000001v* virtio_net\n");
	put(dir, "config", "CONFIG_EXT4_FS=y\n");
	put(dir, "README", "not evidence\n");
	reset_warnings();
	load(ev, dir);
	check_str("bundle/no-warnings", warnings, "");
	b = evidence_bundle(ev, 0);
	check_num("bundle/nbundles", (unsigned)evidence_nbundles(ev), 1);
	check_str("bundle/release", b->release, "6.1.0-18-cloud-amd64");
	check("bundle/uname", b->uname != NULL &&
	    strncmp(b->uname, "Linux vm 6.1.0", 14) == 0, "uname wrong");
	check_num("bundle/overrun", b->trace_overrun, 42);
	check_num("bundle/trace-events", b->trace_events, 8);
	check_num("bundle/devices", evidence_count(ev, EV_DEVICE), 3);
	it = evidence_item(ev, EV_DEVICE, 2);
	check_str("bundle/device-path", it ? it->detail : NULL,
	    "platform/i8042/serio0");
	check_num("bundle/drivers", evidence_count(ev, EV_DRIVER), 3);
	it = evidence_find(ev, EV_DRIVER, "i8042 kbd");
	check("bundle/driver-space-builtin", it != NULL &&
	    it->module == NULL && strcmp(it->detail, "pnp 00:02") == 0,
	    "i8042 kbd wrong");
	it = evidence_find(ev, EV_DRIVER, "virtio-pci");
	check_str("bundle/driver-module", it ? it->module : NULL, "virtio_pci");
	check_str("bundle/driver-detail", it ? it->detail : NULL,
	    "pci 0000:00:03.0");
	check_num("bundle/filesystems", evidence_count(ev, EV_FS), 4);
	check("bundle/fs-ext4", evidence_find(ev, EV_FS, "ext4") != NULL,
	    "ext4 missing");
	check_num("bundle/crypto", evidence_count(ev, EV_CRYPTO), 3);
	check_num("bundle/mounts", evidence_count(ev, EV_MOUNT), 5);
	check_str("kallsyms/core", evidence_symbol_module(ev, "vfs_read"), "");
	check_str("kallsyms/module", evidence_symbol_module(ev,
	    "virtnet_poll"), "virtio_net");
	check_str("kallsyms/stripped", evidence_symbol_module(ev,
	    "ext4_map_blocks"), "");
	check_str("kallsyms/stripped-query", evidence_symbol_module(ev,
	    "ext4_map_blocks.part.0"), "");
	check_str("kallsyms/unknown", evidence_symbol_module(ev, "nope"),
	    NULL);

	n = evidence_alias_modules(ev,
	    "pci:v00001AF4d00001000sv00001AF4sd00000001bc02sc00i00", &mods);
	check_num("alias/virtio-net-count", n, 2);
	if (n == 2) {
		check_str("alias/order0", mods[0], "virtio_pci");
		check_str("alias/order1", mods[1], "virtio_net_fake");
	}
	n = evidence_alias_modules(ev,
	    "pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00", &mods);
	check_num("alias/blk-count", n, 2);
	if (n == 2)
		check_str("alias/wildcard-vendor", mods[1], "storage_any");
	n = evidence_alias_modules(ev, "serio:ty06pr00id00ex00", &mods);
	check_num("alias/bracket", n, 2);
	n = evidence_alias_modules(ev, "serio:ty07pr00id00ex00", &mods);
	check_num("alias/bracket-miss", n, 0);
	n = evidence_alias_modules(ev, "virtio:d00000001v00001AF4", &mods);
	check_num("alias/dedup", n, 1);
	n = evidence_alias_modules(ev, "pci:v00008086d0000100Esv0sd0bc02sc00i00",
	    &mods);
	check("alias/e1000", n == 1 && strcmp(mods[0], "e1000") == 0,
	    "e1000 not matched");
	n = evidence_alias_modules(ev, "pci:v00008086d0000100Esv0sd0bc02sc00i00",
	    &mods);
	check("alias/memo", n == 1 && strcmp(mods[0], "e1000") == 0,
	    "second lookup differs");
	n = evidence_alias_modules(ev, "usb:v1234", &mods);
	check_num("alias/none", n, 0);
	n = evidence_alias_modules(ev, "", &mods);
	check_num("alias/empty", n, 0);
	evidence_free(ev);
}

/* Two bundles merged: bits OR-ed, hits summed, order kept. */
static void
test_merge(void)
{
	struct evidence		*ev = evidence_new();
	const struct ev_item	*it;
	char			 a[4096], bpath[4096];

	snprintf(a, sizeof a, "%s", bundle_dir("merge-a"));

	put(a, "modules", "ext4 1028096 1 - Live 0xffffffffc0000000\n"
	    "virtio_net 61440 0 - Live 0xffffffffc0345000\n");
	put(a, "trace", "bash-1 [000] ..... 1.000: vfs_read <-ksys_read\n");
	put(a, "uname", "Linux a 6.1.0-18-amd64 #1 SMP x86_64 GNU/Linux\n");
	snprintf(bpath, sizeof bpath, "%s", bundle_dir("merge-b"));
	put(bpath, "modules", "Module Size Used by\nvirtio_net 61440 0\n"
	    "virtio_blk 20480 2\n");
	put(bpath, "trace", "bash-1 [000] ..... 2.000: vfs_read <-ksys_read\n"
	    "bash-1 [000] ..... 2.001: vfs_write <-ksys_write\n");
	put(bpath, "uname", "Linux b 6.6.0-1-amd64 #1 SMP x86_64 GNU/Linux\n");
	reset_warnings();
	load(ev, a);
	load(ev, bpath);
	check_str("merge/no-warnings", warnings, "");
	check_num("merge/nbundles", (unsigned)evidence_nbundles(ev), 2);
	check_str("merge/release-a", evidence_bundle(ev, 0)->release,
	    "6.1.0-18-amd64");
	check_str("merge/release-b", evidence_bundle(ev, 1)->release,
	    "6.6.0-1-amd64");
	check_num("merge/modules", evidence_count(ev, EV_MODULE), 3);
	it = evidence_find(ev, EV_MODULE, "ext4");
	check_num("merge/only-a", it ? it->bundles : 0, 1);
	it = evidence_find(ev, EV_MODULE, "virtio_net");
	check_num("merge/both", it ? it->bundles : 0, 3);
	it = evidence_find(ev, EV_MODULE, "virtio_blk");
	check_num("merge/only-b", it ? it->bundles : 0, 2);
	check_str("merge/order", evidence_item(ev, EV_MODULE, 2)->name,
	    "virtio_blk");
	it = evidence_find(ev, EV_TRACE, "vfs_read");
	check("merge/trace", it != NULL && it->bundles == 3 && it->hits == 2,
	    "vfs_read bits/hits wrong");
	check_str("merge/path", evidence_bundle(ev, 1)->path, bpath);
	evidence_free(ev);
}

/* xz-compress text into file path. */
static void
write_xz(const char *path, const char *text, size_t n, size_t cut)
{
	size_t	 cap = n + n / 2 + 1024, out = 0;
	uint8_t	*buf = malloc(cap);

	if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
	    (const uint8_t *)text, n, buf, &out, cap) != LZMA_OK) {
		printf("# lzma_easy_buffer_encode failed\n");
		exit(1);
	}
	write_bytes(path, buf, cut && cut < out ? cut : out);
	free(buf);
}

/* gzip-compress text into file path (members: the text twice if two). */
static void
write_gz(const char *path, const char *text, size_t n, int two)
{
	z_stream	 z;
	size_t		 cap = n + n / 2 + 1024, out = 0;
	uint8_t		*buf = malloc(cap * 2);
	int		 i;

	for (i = 0; i < (two ? 2 : 1); i++) {
		memset(&z, 0, sizeof z);
		deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
		    Z_DEFAULT_STRATEGY);
		z.next_in = (Bytef *)text;
		z.avail_in = (uInt)n;
		z.next_out = buf + out;
		z.avail_out = (uInt)cap;
		deflate(&z, Z_FINISH);
		out += z.total_out;
		deflateEnd(&z);
	}
	write_bytes(path, buf, out);
	free(buf);
}

/* A big enough trace that it crosses buffer boundaries when decoded. */
static char *
big_trace(size_t lines, size_t *len)
{
	char	*s = malloc(lines * 96 + 1), *p = s;
	size_t	 i;

	for (i = 0; i < lines; i++)
		p += sprintf(p, "  bash-1234  [%03zu] d..1.  %zu.%06zu: "
		    "func_%zu.isra.0 <-parent_%zu\n", i % 4, i / 1000000,
		    i % 1000000, i % 997, i % 13);
	*len = (size_t)(p - s);
	return s;
}

/* .xz and .gz traces decoded incrementally. */
static void
test_compressed(void)
{
	struct evidence		*ev;
	const struct ev_item	*it;
	const char		*dx, *dg;
	char			 path[4096], *text;
	size_t			 len, lines = 40000;

	text = big_trace(lines, &len);
	dx = bundle_dir("xz");
	ev = evidence_new();
	snprintf(path, sizeof path, "%s/trace.xz", dx);
	write_xz(path, text, len, 0);
	snprintf(path, sizeof path, "%s/kallsyms.xz", dx);
	write_xz(path, "ffffffff81000000 T func_1\n", 26, 0);
	reset_warnings();
	load(ev, dx);
	check_str("xz/no-warnings", warnings, "");
	check_num("xz/distinct", evidence_count(ev, EV_TRACE), 997 + 13);
	check_num("xz/events", evidence_bundle(ev, 0)->trace_events, lines);
	it = evidence_find(ev, EV_TRACE, "func_5");
	check("xz/hits", it != NULL && it->hits == (lines / 997) +
	    (5 < lines % 997), "func_5 hits wrong");
	check_str("xz/kallsyms", evidence_symbol_module(ev, "func_1"), "");
	evidence_free(ev);

	/* truncated: what decodes is kept, one warning */
	ev = evidence_new();
	dx = bundle_dir("xz-cut");
	snprintf(path, sizeof path, "%s/trace.xz", dx);
	write_xz(path, text, len, 20000);
	reset_warnings();
	load(ev, dx);
	check("xz/truncated-warns", strstr(warnings, "xz: truncated") != NULL,
	    warnings);
	check("xz/truncated-partial", evidence_count(ev, EV_TRACE) > 0,
	    "nothing kept of a truncated xz");
	evidence_free(ev);

	/* not xz despite the name */
	ev = evidence_new();
	dx = bundle_dir("xz-fake");
	put(dx, "trace.xz", "bash-1 [000] ..... 1.0: vfs_read <-ksys_read\n");
	reset_warnings();
	load(ev, dx);
	check("xz/fake-warns", strstr(warnings, "not xz data") != NULL,
	    warnings);
	evidence_free(ev);
	ev = evidence_new();
	dg = bundle_dir("gz");
	snprintf(path, sizeof path, "%s/trace.gz", dg);
	write_gz(path, text, len, 1);
	reset_warnings();
	load(ev, dg);
	check_str("gz/no-warnings", warnings, "");
	check_num("gz/distinct", evidence_count(ev, EV_TRACE), 997 + 13);
	check_num("gz/events", evidence_bundle(ev, 0)->trace_events,
	    2 * lines);
	evidence_free(ev);
	free(text);
}

/* Bad input: warnings, never errors; missing and empty directories. */
static void
test_errors(void)
{
	struct evidence	*ev = evidence_new();
	const char	*dir;
	char		*cause = NULL, want[4200], path[4096];
	int		 r;

	r = evidence_load(ev, "/nonexistent/kctui-bundle", collect, NULL,
	    &cause);
	check_num("errors/missing-dir", (unsigned)(r == -1), 1);
	check_str("errors/missing-cause", cause,
	    "/nonexistent/kctui-bundle: No such file or directory");
	free(cause);
	check_num("errors/missing-no-bundle", (unsigned)evidence_nbundles(ev),
	    0);

	dir = bundle_dir("empty");
	reset_warnings();
	r = evidence_load(ev, dir, collect, NULL, &cause);
	check("errors/empty-dir", r == 0 && warnings[0] == '\0' &&
	    evidence_count(ev, EV_MODULE) == 0 && evidence_nbundles(ev) == 1,
	    "empty bundle not fine");

	dir = bundle_dir("bad");
	put(dir, "modules", "virtio_net 61440 0 - Live 0xffffffffc0345000\n"
	    "garbage\n\x01\x02\nnet_failover 24576 1 virtio_net, Live\n");
	put(dir, "trace", "bash-1 [000] ..... 1.0: vfs_read <-ksys_read\n"
	    "bash-1 [000] ..... 1.0: vfs_write <-ksys_wr");
	put(dir, "mounts", "\x7f" "ELF this is not /proc/mounts\nnor this\n");
	write_bytes(strcat(strcpy(path, dir), "/crypto"), "\0\0\0binary", 9);
	put(dir, "uname", "Linux\n");
	reset_warnings();
	load(ev, dir);
	snprintf(want, sizeof want, "%s/modules: 3 malformed lines, first at "
	    "line 2: garbage\n", dir);
	check("errors/modules-warn", strstr(warnings, want) != NULL, warnings);
	snprintf(want, sizeof want, "%s/trace: 1 malformed line, first at "
	    "line 2: bash-1 [000] ..... 1.0: vfs_write <-ksys_wr\n", dir);
	check("errors/trace-truncated", strstr(warnings, want) != NULL,
	    warnings);
	snprintf(want, sizeof want, "%s/mounts: unknown format", dir);
	check("errors/unknown-format", strstr(warnings, want) != NULL,
	    warnings);
	snprintf(want, sizeof want, "%s/crypto: unknown format (binary", dir);
	check("errors/binary", strstr(warnings, want) != NULL, warnings);
	check_num("errors/one-warning-a-file", (unsigned)nwarnings, 5);
	check("errors/good-lines-kept", evidence_find(ev, EV_MODULE,
	    "virtio_net") != NULL, "good line lost");
	check_num("errors/bundle-warnings", (unsigned)evidence_bundle(ev,
	    1)->warnings, 3 + 1 + 2 + 1 + 1);
	check_str("errors/short-uname", evidence_bundle(ev, 1)->release, NULL);

	/* modalias in another shape than collect's (the full sysfs path of
	 * the modalias file, a tab): refused with its line, not read with
	 * paths the drivers file never names. */
	dir = bundle_dir("badalias");
	put(dir, "modalias",
	    "pci0000:00/0000:00:02.0 pci:v00008086d00001237sv00001AF4\n"
	    "/sys/devices/pci0000:00/0000:00:03.0/modalias pci:v00001AF4d00001000\n"
	    "pci0000:00/0000:00:04.0/modalias pci:v00001AF4d00001001\n"
	    "pci0000:00/0000:00:05.0\tpci:v00001AF4d00001002\n");
	put(dir, "uname", "Linux box 6.1.0-57-amd64\n");
	reset_warnings();
	load(ev, dir);
	snprintf(want, sizeof want, "%s/modalias: 3 malformed lines, first at "
	    "line 2: /sys/devices/pci0000:00/0000:00:03.0/modalias", dir);
	check("errors/modalias-shape", strstr(warnings, want) != NULL,
	    warnings);
	check("errors/modalias-good-kept", evidence_find(ev, EV_DEVICE,
	    "pci:v00008086d00001237sv00001AF4") != NULL, "good line lost");

	/* The drivers file line by line (two devices of one driver are two
	 * bindings, a driver's name may hold spaces) and the modalias of a
	 * device path: what verify's devices check reads through here. */
	{
		struct evidence		*e2 = evidence_new();
		const struct ev_binding	*b0, *b1, *b2;
		const char *drv = "pci e1000 pci0000:00/0000:00:02.0 e1000\n"
		    "pci e1000 pci0000:00/0000:00:03.0 e1000\n"
		    "serio atkbd serio0 -\n"
		    "platform i8042 kbd i8042 -\n"
		    "broken line\n";
		const char *al = "pci0000:00/0000:00:02.0 pci:v00008086d0000100E\n"
		    "pci0000:00/0000:00:02.0 pci:vSECOND\n";

		check_num("bindings/malformed", (unsigned)evidence_read_drivers(
		    e2, -1, drv, strlen(drv)), 1);
		check_num("bindings/count", (unsigned)evidence_nbindings(e2), 4);
		b0 = evidence_binding(e2, 0);
		b1 = evidence_binding(e2, 1);
		b2 = evidence_binding(e2, 3);
		check("bindings/two-devices", b0 != NULL && b1 != NULL &&
		    strcmp(b0->driver, "e1000") == 0 && strcmp(b1->device,
		    "pci0000:00/0000:00:03.0") == 0 && b1->module != NULL &&
		    strcmp(b1->module, "e1000") == 0, NULL);
		check("bindings/spaces-builtin", b2 != NULL && strcmp(b2->bus,
		    "platform") == 0 && strcmp(b2->driver, "i8042 kbd") == 0 &&
		    strcmp(b2->device, "i8042") == 0 && b2->module == NULL,
		    b2 != NULL ? b2->driver : "(none)");
		check("bindings/end", evidence_binding(e2, 4) == NULL, NULL);
		(void)evidence_read_modalias(e2, -1, al, strlen(al));
		check_str("bindings/modalias-first",
		    evidence_device_modalias(e2, "pci0000:00/0000:00:02.0"),
		    "pci:v00008086d0000100E");
		check_str("bindings/modalias-none",
		    evidence_device_modalias(e2, "pci0000:00/0000:00:09.0"),
		    NULL);
		evidence_free(e2);
	}

	/* kallsyms, read by hand: the same rules as the other files' words
	 * (blanks are spaces and tabs; a hex address, a one-letter type, a
	 * name, an optional [module], nothing more). */
	dir = bundle_dir("badsyms");
	put(dir, "kallsyms",
	    "ffffffff81000000 T good_a\n"
	    "  ffffffff81000010\tt\tgood_b\t[mod_b]\n"
	    "zzzz T bad_addr\n"
	    "ffffffff81000020 TT bad_type\n"
	    "ffffffff81000030 T\n"
	    "ffffffff81000040 T bad\x01" "ctl\n"
	    "ffffffff81000050 T bad_mod [x\n"
	    "ffffffff81000060 T bad_extra [m] extra\n"
	    "ffffffff81000070\n"
	    "\n"
	    "ffffffff81000080 t good_c.isra.0   [mod_b]  \n"
	    "ffffffff81000090 t good_a\t[other]\n"
	    "ffffffff810000a0 t good_d [mod_d]");
	reset_warnings();
	load(ev, dir);
	snprintf(want, sizeof want, "%s/kallsyms: 7 malformed lines, first "
	    "at line 3: zzzz T bad_addr\n", dir);
	check("errors/kallsyms-malformed", strstr(warnings, want) != NULL,
	    warnings);
	check_str("errors/kallsyms-plain", evidence_symbol_module(ev,
	    "good_a"), "");
	check_str("errors/kallsyms-blanks", evidence_symbol_module(ev,
	    "good_b"), "mod_b");
	check_str("errors/kallsyms-suffix", evidence_symbol_module(ev,
	    "good_c"), "mod_b");
	check_str("errors/kallsyms-last-line", evidence_symbol_module(ev,
	    "good_d"), "mod_d");
	check_str("errors/kallsyms-bad-not-kept", evidence_symbol_module(ev,
	    "bad_extra"), NULL);

	dir = bundle_dir("dat");
	put(dir, "trace.dat", "not really");
	reset_warnings();
	load(ev, dir);
	check("errors/bad-trace-dat", strstr(warnings, "trace.dat") != NULL,
	    warnings);
	evidence_free(ev);
}

/* The home evidence gives a function, as text for check_str. */
static const char *
home_str(const struct evidence *ev, const char *func)
{
	static const char *const names[] = { "unknown", "image", "module",
	    "built-in", "core" };
	static char	 buf[256];
	const char	*m;
	enum ev_home	 h = evidence_symbol_home(ev, func, &m);

	snprintf(buf, sizeof buf, "%s %s", names[h], m != NULL ? m : "-");
	return buf;
}

/* A bundle of ranges (NULL: none) and kallsyms, loaded into ev with
 * fresh warnings; returns its directory. */
static const char *
load_ranges(struct evidence *ev, const char *name, const char *ranges,
    const char *kallsyms)
{
	const char	*dir = bundle_dir(name);

	if (ranges != NULL)
		put(dir, "modules.builtin.ranges", ranges);
	put(dir, "kallsyms", kallsyms);
	reset_warnings();
	load(ev, dir);
	return dir;
}

/*
 * modules.builtin.ranges (6.12 on): each section placed by its anchor's
 * kallsyms address (KASLR moves them all), functions of the image placed
 * in a module's [start, end) or in none; an object linked into two
 * modules; a name whose copies differ; a section kallsyms has no anchor
 * for; ranges that do not outlive their bundle; malformed lines.
 */
static void
test_ranges(void)
{
	struct evidence	*ev = evidence_new();
	const char	*dir, *text, *syms;
	char		 want[512];

	load_ranges(ev, "ranges",
	    ".text 00000000-00000000 = _text\n"
	    ".text 00001000-00002000 ext4\n"
	    ".text 00002000-00002800 crc16\n"
	    ".text 00003000-00003100 foo bar\n"
	    ".init.text 00000040-00000040 = _sinittext\n"
	    ".init.text 00000100-00000200 ext4\n"
	    ".data 00000000-00000000 = _sdata\n"
	    ".data 00000000-00000100 ext4\n",
	    "ffffffff8a000000 T _text\n"
	    "ffffffff8a000800 T vfs_read\n"
	    "ffffffff8a001000 T ext4_read\n"
	    "ffffffff8a001ff8 t init_once\n"
	    "ffffffff8a002000 T crc16\n"
	    "ffffffff8a0027f0 t init_once.isra.0\n"
	    "ffffffff8a002800 T after_crc16\n"
	    "ffffffff8a003010 W shared_fn\n"
	    "ffffffff8a100040 T _sinittext\n"
	    "ffffffff8a100110 t ext4_init_fs\n"
	    "ffffffff8a100210 t core_init\n"
	    "ffffffff8a200010 d ext4_data\n"
	    "ffffffffc0001000 t virtio_probe\t[virtio_net]\n");
	check_str("ranges/no-warnings", warnings, "");
	check_str("ranges/core", home_str(ev, "vfs_read"), "core ");
	check_str("ranges/start", home_str(ev, "ext4_read"), "built-in ext4");
	check_str("ranges/end-exclusive", home_str(ev, "after_crc16"),
	    "core ");
	check_str("ranges/next-module", home_str(ev, "crc16"),
	    "built-in crc16");
	check_str("ranges/two-modules", home_str(ev, "shared_fn"),
	    "built-in foo bar");
	check_str("ranges/init-section", home_str(ev, "ext4_init_fs"),
	    "built-in ext4");
	check_str("ranges/init-core", home_str(ev, "core_init"), "core ");
	/* init_once in ext4 and (suffixed) in crc16: which one ran? */
	check_str("ranges/conflict", home_str(ev, "init_once"), "image ");
	check_str("ranges/loaded-module", home_str(ev, "virtio_probe"),
	    "module virtio_net");
	/* data is not code: only functions are placed */
	check_str("ranges/data-not-placed", home_str(ev, "ext4_data"),
	    "image ");
	check_str("ranges/unknown", home_str(ev, "nope"), "unknown -");
	check("ranges/builtin-module", evidence_builtin_module(ev, "ext4") &&
	    evidence_builtin_module(ev, "bar") &&
	    !evidence_builtin_module(ev, "virtio_net"), "ext4, bar");

	/* A bundle without ranges, another kernel: its image functions
	 * stay in the image, and the first bundle's ranges do not apply. */
	load_ranges(ev, "ranges2", NULL,
	    "ffffffff81000000 T _text\n"
	    "ffffffff81001000 T other_fn\n");
	check_str("ranges/per-bundle", home_str(ev, "other_fn"), "image ");
	check_str("ranges/kept", home_str(ev, "ext4_read"), "built-in ext4");

	/* KASLR: the anchor at a non-zero offset; the .data anchor is not
	 * in kallsyms, so that section's ranges are left out. */
	evidence_free(ev);
	ev = evidence_new();
	text = ".text 00000100-00000100 = _stext\n"
	    ".text 00000200-00000300 virtio_blk\n";
	syms = "ffffffffa0000100 T _stext\n"
	    "ffffffffa0000200 t virtblk_probe\n"
	    "ffffffffa00002ff t virtblk_remove\n"
	    "ffffffffa0000300 t blk_core\n";
	check_num("ranges/read-mem", (unsigned)evidence_read_ranges(ev, 0,
	    text, strlen(text), syms, strlen(syms)), 0);
	check_str("ranges/anchor-offset", home_str(ev, "virtblk_probe"),
	    "built-in virtio_blk");
	check_str("ranges/last-byte", home_str(ev, "virtblk_remove"),
	    "built-in virtio_blk");
	check_str("ranges/past-end", home_str(ev, "blk_core"), "core ");
	evidence_free(ev);

	/* No anchor found: nothing placed, all stays "image". */
	ev = evidence_new();
	text = ".text 00000000-00000000 = _text\n"
	    ".text 00000000-00001000 ext4\n";
	syms = "ffffffff81000010 T ext4_read\n";
	evidence_read_ranges(ev, 0, text, strlen(text), syms, strlen(syms));
	check_str("ranges/no-anchor", home_str(ev, "ext4_read"), "image ");
	evidence_free(ev);

	/* The .text anchor missing while another section's is found: the
	 * files are not of one kernel; placing by .init.text alone called
	 * every .text function "core". Now nothing is placed, and a
	 * warning says why. */
	ev = evidence_new();
	load_ranges(ev, "wrongkernel",
	    ".text 00000000-00000000 = _stext_of_another_kernel\n"
	    ".text 00000000-00001000 ext4\n"
	    ".init.text 00000000-00000000 = _sinittext\n"
	    ".init.text 00000000-00000100 ext4\n",
	    "ffffffff81000000 T _text\n"
	    "ffffffff82000000 T _sinittext\n"
	    "ffffffff81000010 T ext4_read\n");
	check_str("ranges/text-anchor-missing", home_str(ev, "ext4_read"),
	    "image ");
	check_num("ranges/text-anchor-missing-warned", strstr(warnings,
	    "anchors a section at _stext_of_another_kernel, which kallsyms "
	    "does not list") != NULL, 1);
	evidence_free(ev);

	/* What Kbuild's generator writes that is odd but not malformed
	 * (seen in a real 6.12 file): a section with no anchor, a range
	 * whose end is before its start, an empty one. They place nothing;
	 * their modules are still built in. */
	ev = evidence_new();
	load_ranges(ev, "oddranges",
	    ".text 00000000-00000000 = _text\n"
	    ".text 00001000-00002000 ext4\n"
	    ".text 00003000-00000000 cpuidle_haltpoll\n"
	    ".text 00004000-00004000 empty\n"
	    ".altinstr_aux 00000318-000004c8 kvm\n",
	    "ffffffff81000000 T _text\n"
	    "ffffffff81003010 t haltpoll_fn\n"
	    "ffffffff81004000 t empty_fn\n"
	    "ffffffff81001000 t ext4_fn\n");
	check_str("ranges/odd-no-warnings", warnings, "");
	check_str("ranges/odd-backwards", home_str(ev, "haltpoll_fn"), "core ");
	check_str("ranges/odd-empty", home_str(ev, "empty_fn"), "core ");
	check_str("ranges/odd-others-placed", home_str(ev, "ext4_fn"),
	    "built-in ext4");
	check("ranges/odd-still-built-in", evidence_builtin_module(ev,
	    "cpuidle_haltpoll") && evidence_builtin_module(ev, "kvm"),
	    "cpuidle_haltpoll, kvm");
	evidence_free(ev);

	ev = evidence_new();
	dir = load_ranges(ev, "badranges",
	    ".text 00000000-00000000 = _text\n"
	    ".text 00000000-00001000 early\n"
	    ".text 00000000-00000000 = _stext\n"
	    "text 00000000-00001000 nodot\n"
	    ".text 00001000 nodash\n"
	    ".text 00001000-00002000\n"
	    ".text 00001000-00002000 =\n"
	    ".text 00001000-0000zz00 badhex\n"
	    ".text 00000001-00000001 = _data extra\n"
	    ".text 00001000-000000000000000000 toolong\n"
	    ".text 00003000-00004000 good\n",
	    "ffffffff81000000 T _text\n"
	    "ffffffff81003000 T good_fn\n"
	    "ffffffff81001000 t nodot_fn\n");
	snprintf(want, sizeof want, "%s/modules.builtin.ranges: 8 malformed "
	    "lines, first at line 3: .text 00000000-00000000 = _stext\n",
	    dir);
	check("ranges/malformed", strstr(warnings, want) != NULL, warnings);
	check_str("ranges/good-kept", home_str(ev, "good_fn"),
	    "built-in good");
	check_str("ranges/bad-not-kept", home_str(ev, "nodot_fn"), "core ");
	evidence_free(ev);

	/* The build kctui runs in has the ranges; the bundle recorded from
	 * that build's kernel (same release) has none: the build's apply,
	 * and only to it. */
	ev = evidence_new();
	dir = bundle_dir("build");
	put(dir, "modules.builtin.ranges",
	    ".text 00000000-00000000 = _text\n"
	    ".text 00001000-00002000 ext4\n");
	snprintf(want, sizeof want, "%s/modules.builtin.ranges", dir);
	evidence_set_build_ranges(ev, "6.12.0-kctui", want);
	dir = bundle_dir("from-build");
	put(dir, "uname", "Linux vm 6.12.0-kctui #1 SMP PREEMPT_DYNAMIC "
	    "Sun Dec  6 20:00:00 UTC 2026 x86_64 GNU/Linux\n");
	put(dir, "kallsyms",
	    "ffffffff8a000000 T _text\n"
	    "ffffffff8a001000 T ext4_read\n");
	load(ev, dir);
	check_str("ranges/from-build", home_str(ev, "ext4_read"),
	    "built-in ext4");
	dir = bundle_dir("other-release");
	put(dir, "uname", "Linux vm 6.12.0-other #1 SMP PREEMPT_DYNAMIC "
	    "Sun Dec  6 20:00:00 UTC 2026 x86_64 GNU/Linux\n");
	put(dir, "kallsyms",
	    "ffffffff8a000000 T _text\n"
	    "ffffffff8a001000 T other_read\n");
	load(ev, dir);
	check_str("ranges/build-other-release", home_str(ev, "other_read"),
	    "image ");
	evidence_free(ev);
}

/* What kallsyms and modules.alias of the fixture tie together: traced
 * functions to modules, devices to the modules that drive them. */
static void
fixture_links(const struct evidence *ev)
{
	const struct ev_item	*it, *dev;
	const char *const	*mods;
	const char		*m;
	size_t			 i, j, k, n, inmod = 0, matched = 0, drv = 0;
	size_t			 drvok = 0;

	for (i = 0; i < evidence_count(ev, EV_TRACE); i++) {
		m = evidence_symbol_module(ev, evidence_item(ev, EV_TRACE,
		    i)->name);
		if (m != NULL && *m != '\0')
			inmod++;
	}
	for (i = 0; i < evidence_count(ev, EV_DEVICE); i++) {
		if (evidence_alias_modules(ev, evidence_item(ev, EV_DEVICE,
		    i)->name, &mods) > 0)
			matched++;
	}
	/* a driver's module should be what some device's aliases name */
	for (i = 0; i < evidence_count(ev, EV_DRIVER); i++) {
		it = evidence_item(ev, EV_DRIVER, i);
		if (it->module == NULL)
			continue;
		drv++;
		for (j = 0; j < evidence_count(ev, EV_DEVICE); j++) {
			dev = evidence_item(ev, EV_DEVICE, j);
			n = evidence_alias_modules(ev, dev->name, &mods);
			for (k = 0; k < n && strcmp(mods[k], it->module); k++)
				;
			if (k < n)
				break;
		}
		if (j < evidence_count(ev, EV_DEVICE))
			drvok++;
		else
			printf("# fixture: driver %s (module %s): no device "
			    "alias names it\n", it->name, it->module);
	}
	printf("# fixture: %zu traced functions in modules (kallsyms), "
	    "%zu/%zu devices with alias modules, %zu/%zu modular drivers "
	    "found through aliases\n", inmod, matched,
	    evidence_count(ev, EV_DEVICE), drvok, drv);
	if (evidence_find(ev, EV_TRACE, "ext4_parse_param") != NULL &&
	    evidence_symbol_module(ev, "ext4_parse_param") != NULL)
		check_str("fixture/kallsyms-ext4", evidence_symbol_module(ev,
		    "ext4_parse_param"), "ext4");
	if (evidence_count(ev, EV_DEVICE) > 0 && drv > 0)
		check("fixture/aliases", drvok * 2 >= drv,
		    "most modular drivers not found through aliases");
}

/* The bundle recorded under QEMU, when present: load it and show counts. */
static void
test_fixture(void)
{
	static const char *const kinds[EV_NKINDS] = {
		"modules", "trace", "devices", "drivers", "mounts",
		"filesystems", "crypto"
	};
	struct evidence		*ev;
	const struct ev_bundle	*b;
	struct stat		 st;
	char			*cause = NULL;
	int			 k, r;

	if (stat(FIXTURE, &st) != 0) {
		printf("SKIP unit/evidence/fixture: no %s\n", FIXTURE);
		return;
	}
	ev = evidence_new();
	reset_warnings();
	r = evidence_load(ev, FIXTURE, collect, NULL, &cause);
	check("fixture/load", r == 0, cause ? cause : "");
	free(cause);
	if (r == 0) {
		b = evidence_bundle(ev, 0);
		printf("# fixture: release %s, %llu trace events, overrun %llu, "
		    "%d warnings\n", b->release ? b->release : "?",
		    (unsigned long long)b->trace_events,
		    (unsigned long long)b->trace_overrun, b->warnings);
		for (k = 0; k < EV_NKINDS; k++)
			printf("# fixture: %zu %s\n",
			    evidence_count(ev, (enum ev_kind)k), kinds[k]);
		if (warnings[0] != '\0')
			printf("# fixture warnings:\n%s", warnings);
		check("fixture/modules", stat(FIXTURE "/modules", &st) != 0 ||
		    evidence_count(ev, EV_MODULE) > 0, "no modules read");
		fixture_links(ev);
	}
	evidence_free(ev);
}

/* The trace cache: a second load reads the cached result (same items,
 * counts and events); a changed trace is read again; a trace with bad
 * lines is not cached. */
static void
test_trace_cache(void)
{
	struct evidence		*ev[3];
	const struct ev_item	*a, *b;
	const char		*dir = bundle_dir("cached");
	char			 cdir[4096], path[4096];
	char			*cause = NULL;
	size_t			 i, n;
	int			 k, same = 1;
	DIR			*d;
	struct dirent		*de;

	snprintf(cdir, sizeof cdir, "%s/cache", tmpdir);
	put(dir, "trace", func_trace);
	for (k = 0; k < 2; k++) {
		ev[k] = evidence_new();
		evidence_set_cache_dir(ev[k], cdir);
		if (evidence_load(ev[k], dir, NULL, NULL, &cause) != 0)
			free(cause);
	}
	n = 0;
	if ((d = opendir(cdir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			n += strncmp(de->d_name, "trace-", 6) == 0;
		closedir(d);
	}
	check_num("trace-cache/written", (unsigned)n, 1);
	n = evidence_count(ev[0], EV_TRACE);
	same = n > 0 && n == evidence_count(ev[1], EV_TRACE) &&
	    evidence_bundle(ev[0], 0)->trace_events ==
	    evidence_bundle(ev[1], 0)->trace_events;
	for (i = 0; same && i < n; i++) {
		a = evidence_item(ev[0], EV_TRACE, i);
		b = evidence_find(ev[1], EV_TRACE, a->name);
		same = b != NULL && a->hits == b->hits &&
		    (a->detail == NULL) == (b->detail == NULL) &&
		    (a->detail == NULL || strcmp(a->detail, b->detail) == 0);
	}
	check("trace-cache/same-result", same, "cached load differs");
	/* a changed file (new size and time) is read again */
	snprintf(path, sizeof path, "%s/trace", dir);
	usleep(10000);
	put(dir, "trace", "# tracer: function\n"
	    "            bash-1     [000] ..... 10.000001: cache_new_func <-cache_old_func\n");
	ev[2] = evidence_new();
	evidence_set_cache_dir(ev[2], cdir);
	if (evidence_load(ev[2], dir, NULL, NULL, &cause) != 0)
		free(cause);
	check("trace-cache/changed-file",
	    evidence_find(ev[2], EV_TRACE, "cache_new_func") != NULL &&
	    evidence_count(ev[2], EV_TRACE) == 2, "new trace not read");
	for (k = 0; k < 3; k++)
		evidence_free(ev[k]);
}

static unsigned count_prefixed(const char *, const char *);

/* Rewrite the cache file cpath in place as a tool that knows the format
 * but not the key would: "more" appended to its payload, the length
 * and the old unkeyed checksum (hash_buf64 of the payload) recomputed. */
static void
forge_raw(const char *cpath, const char *more)
{
	char		*buf = NULL;
	size_t		 n = 0, m = strlen(more);
	uint64_t	 len, sum;
	FILE		*f;

	if ((f = fopen(cpath, "rb")) != NULL) {
		buf = malloc(64 << 20);
		n = fread(buf, 1, 64 << 20, f);
		fclose(f);
	}
	if (buf == NULL || n < CACHEFILE_HEADER) {
		printf("# %s: no cache to forge\n", cpath);
		free(buf);
		return;
	}
	memcpy(buf + n, more, m);
	len = n + m - CACHEFILE_HEADER;
	sum = hash_buf64(buf + CACHEFILE_HEADER, len);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &sum, 8);
	if ((f = fopen(cpath, "r+b")) != NULL) {
		fwrite(buf, 1, n + m, f);
		fclose(f);
	}
	free(buf);
}

/* The first file of dir whose name starts with pre, into path. */
static void
first_prefixed(const char *dir, const char *pre, char *path, size_t size)
{
	struct dirent	*de;
	DIR		*d;

	*path = '\0';
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, pre, strlen(pre)) == 0) {
			snprintf(path, size, "%s/%s", dir, de->d_name);
			break;
		}
	closedir(d);
}

/*
 * Issue 37 item 14. The trace cache is keyed by the trace's content: a
 * trace rewritten in place with the same size, inode and modification
 * time (what path, inode, size and mtime took for the same file) is read
 * again. And a cache changed by something that recomputes its plain
 * checksum is refused (its seal is keyed), so the evidence stays what
 * the trace says.
 */
static void
test_cache_content(void)
{
	static const char t1[] = "# tracer: function\n"
	    "            bash-1     [000] ..... 10.000001: aaaa_func <-bbbb_func\n";
	static const char t2[] = "# tracer: function\n"
	    "            bash-1     [000] ..... 10.000001: cccc_func <-bbbb_func\n";
	struct evidence		*ev;
	struct timespec		 ts[2];
	struct stat		 st;
	const char		*dir = bundle_dir("content");
	char			 cdir[4096], path[4096], cpath[4096 + 256];
	char			*cause = NULL;
	ino_t			 ino;
	FILE			*f;

	snprintf(cdir, sizeof cdir, "%s/ccache", tmpdir);
	snprintf(path, sizeof path, "%s/trace", dir);
	put(dir, "trace", t1);
	stat(path, &st);
	ino = st.st_ino;
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0)
		free(cause);
	evidence_free(ev);
	/* same bytes count, same inode, the mtime put back */
	if ((f = fopen(path, "r+")) != NULL) {
		fwrite(t2, 1, sizeof t2 - 1, f);
		fclose(f);
	}
	utimensat(AT_FDCWD, path, ts, 0);
	stat(path, &st);
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0)
		free(cause);
	check("cache-content/same-stat-new-content", st.st_ino == ino &&
	    evidence_find(ev, EV_TRACE, "cccc_func") != NULL &&
	    evidence_find(ev, EV_TRACE, "aaaa_func") == NULL,
	    "the old trace's cached result was used");
	evidence_free(ev);
	/* the cache of t2, forged with a recomputed plain checksum */
	first_prefixed(cdir, "trace-", cpath, sizeof cpath);
	forge_raw(cpath, "forged_func 1000\n");
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0)
		free(cause);
	check("cache-content/forged-refused",
	    evidence_find(ev, EV_TRACE, "forged_func") == NULL &&
	    evidence_find(ev, EV_TRACE, "cccc_func") != NULL,
	    "a forged cache changed the evidence");
	evidence_free(ev);
	/* and it was rebuilt: a load after it reads the cache again */
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0)
		free(cause);
	check("cache-content/rebuilt", evidence_find(ev, EV_TRACE,
	    "forged_func") == NULL && count_prefixed(cdir, "trace-") >= 1,
	    "no cache after the forged one");
	evidence_free(ev);
}

/* Files with the name prefix pre in directory dir. */
static unsigned
count_prefixed(const char *dir, const char *pre)
{
	DIR		*d;
	struct dirent	*de;
	unsigned	 n = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		n += strncmp(de->d_name, pre, strlen(pre)) == 0;
	closedir(d);
	return n;
}

/*
 * Forge a text cache file (lib/cachefile.h, its payload "key KEY\n" then
 * the text) as if kctui had written it: its own magic, version and
 * identity kept, the key line replaced by "key newkey" if newkey is not
 * NULL, more appended to the text.
 */
static void
forge_text_cache(const char *cpath, const char *newkey, const char *more)
{
	struct cachefile cf;
	char		 magic[9] = "", *cause = NULL, *payload;
	const char	*text, *nl;
	uint32_t	 version = 0;
	size_t		 len;
	FILE		*f;

	if ((f = fopen(cpath, "rb")) == NULL ||
	    fread(magic, 1, 8, f) != 8 || fread(&version, 4, 1, f) != 1)
		printf("# %s: no cache header\n", cpath);
	if (f != NULL)
		fclose(f);
	if (cachefile_open(&cf, cpath, magic, version, 0, &cause) != 0) {
		printf("# %s: %s\n", cpath, cause ? cause : "no cache");
		free(cause);
		return;
	}
	text = cf.data;
	nl = memchr(text, '\n', cf.len);
	len = nl != NULL ? (size_t)(nl + 1 - text) : 0;
	if (newkey != NULL)
		payload = malloc(strlen(newkey) + 6 + cf.len + strlen(more) + 1);
	else
		payload = malloc(cf.len + strlen(more) + 1);
	if (newkey != NULL)
		len = (size_t)sprintf(payload, "key %s\n", newkey);
	else
		memcpy(payload, text, len);
	memcpy(payload + len, text + (nl != NULL ? nl + 1 - text : 0),
	    cf.len - (size_t)(nl != NULL ? nl + 1 - text : 0));
	len += cf.len - (size_t)(nl != NULL ? nl + 1 - text : 0);
	memcpy(payload + len, more, strlen(more));
	len += strlen(more);
	if (cachefile_write(cpath, magic, version, cf.identity, payload, len,
	    &cause) != 0) {
		printf("# %s\n", cause);
		free(cause);
	}
	free(payload);
	cachefile_close(&cf);
}

/* The text cache of compressed files other than traces: a second load
 * reads the kept text (same result, the cache file really used), a
 * changed file is decoded again, a damaged cache is not trusted, and a
 * file with bad lines is not kept. */
static void
test_text_cache(void)
{
	static const char ks[] = "ffffffff81000000 T vfs_read\n"
	    "ffffffffc0100000 t virtnet_poll\t[virtio_net]\n"
	    "ffffffffc0200000 t ext4_fill_super.isra.0\t[ext4]\n";
	struct evidence	*ev;
	const char	*dir = bundle_dir("textcache");
	char		 cdir[4096], path[4096], cpath[4096 + 256];
	char		*cause = NULL;
	DIR		*d;
	struct dirent	*de;
	int		 k;

	snprintf(cdir, sizeof cdir, "%s/tcache", tmpdir);
	snprintf(path, sizeof path, "%s/kallsyms.xz", dir);
	write_xz(path, ks, sizeof ks - 1, 0);
	for (k = 0; k < 2; k++) {
		ev = evidence_new();
		evidence_set_cache_dir(ev, cdir);
		if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
			free(cause);
			cause = NULL;
		}
		check_num(k == 0 ? "text-cache/written" : "text-cache/one-file",
		    count_prefixed(cdir, "text-"), 1);
		check_str(k == 0 ? "text-cache/decoded" : "text-cache/cached",
		    evidence_symbol_module(ev, "ext4_fill_super"), "ext4");
		check_str(k == 0 ? "text-cache/core" : "text-cache/cached-core",
		    evidence_symbol_module(ev, "vfs_read"), "");
		evidence_free(ev);
	}
	/* the second load read the cache: give the cached text another
	 * symbol (same key) and see it come through */
	cpath[0] = '\0';
	if ((d = opendir(cdir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strncmp(de->d_name, "text-", 5) == 0)
				snprintf(cpath, sizeof cpath, "%s/%s", cdir,
				    de->d_name);
		closedir(d);
	}
	forge_text_cache(cpath, NULL, "ffffffffc0300000 t from_cache\t[cm]\n");
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	check_str("text-cache/read-from-cache",
	    evidence_symbol_module(ev, "from_cache"), "cm");
	evidence_free(ev);
	/* a damaged header (the wrong key): decoded again (and the cache
	 * rewritten) */
	forge_text_cache(cpath, "wrong", "");
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	check_str("text-cache/bad-key-decoded",
	    evidence_symbol_module(ev, "virtnet_poll"), "virtio_net");
	check("text-cache/bad-key-not-used",
	    evidence_symbol_module(ev, "from_cache") == NULL, "stale text");
	evidence_free(ev);
	/* a changed file is decoded again */
	usleep(10000);
	write_xz(path, "ffffffff81000000 T changed_func\n", 32, 0);
	ev = evidence_new();
	evidence_set_cache_dir(ev, cdir);
	if (evidence_load(ev, dir, NULL, NULL, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	check("text-cache/changed-file",
	    evidence_symbol_module(ev, "changed_func") != NULL &&
	    evidence_symbol_module(ev, "vfs_read") == NULL, "old text used");
	evidence_free(ev);
	/* bad lines: warned on every load, never kept */
	dir = bundle_dir("textcache-bad");
	snprintf(cdir, sizeof cdir, "%s/tcache-bad", tmpdir);
	snprintf(path, sizeof path, "%s/kallsyms.xz", dir);
	write_xz(path, "not a kallsyms line at all\n", 27, 0);
	for (k = 0; k < 2; k++) {
		ev = evidence_new();
		evidence_set_cache_dir(ev, cdir);
		reset_warnings();
		if (evidence_load(ev, dir, collect, NULL, &cause) != 0) {
			free(cause);
			cause = NULL;
		}
		check(k == 0 ? "text-cache/bad-warns" : "text-cache/bad-warns-again",
		    warnings[0] != '\0', "no warning");
		evidence_free(ev);
	}
	check_num("text-cache/bad-not-kept", count_prefixed(cdir, "text-"), 0);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("FAIL unit/evidence/setup: mkdtemp: %s\n",
		    strerror(errno));
		return 1;
	}
	test_modules();
	test_trace_function();
	test_trace_graph();
	test_strip();
	test_crypto();
	test_mounts();
	test_bundle();
	test_merge();
	test_compressed();
	test_trace_cache();
	test_text_cache();
	test_cache_content();
	test_errors();
	test_ranges();
	test_fixture();
	unit_rmtree(tmpdir);
	return unit_failures != 0;
}
