/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_srcindex.c - unit tests of the source index (core/srcindex/srcindex.h): a
 * synthetic tree with each definition form the scanner knows (split-line
 * definitions, prototypes that must not count, the syscall and BPF
 * macros, .S symbols, filesystem, driver and crypto names), the cache
 * (reuse, invalidation by a touched or added file, corrupt caches), and
 * the real Linux 6.1 tree if there is one (KCTUI_TREE, else
 * ~/.cache/kctui/linux-6.1, else /var/cache/kctui/linux-source-6.1) with
 * cold and warm timings printed as "# " lines.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../core/srcindex/srcindex.h"
#include "../../lib/cachefile.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"

#define UNIT_PREFIX "unit/srcindex/"
#include "unit.h"
#include "../../lib/clock.h"

static char	tmpdir[] = "/tmp/kctui-srcindex-XXXXXX";

/* Create the directories leading to path. */
static void
make_parents(const char *path)
{
	char	buf[4096], *p;

	snprintf(buf, sizeof buf, "%s", path);
	for (p = buf + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(buf, 0777);
		*p = '/';
	}
}

/* Write text to dir/rel, creating directories. */
static void
write_file(const char *dir, const char *rel, const char *text)
{
	char	 path[4096];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	make_parents(path);
	if ((f = fopen(path, "w")) == NULL) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		unit_failures++;
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* The files for name, joined by spaces ("" if none), in a static buffer. */
static const char *
files_of(const struct srcindex *si, enum src_kind kind, const char *name)
{
	static char		 buf[8192];
	const uint32_t		*files;
	size_t			 n, i;

	buf[0] = '\0';
	n = srcindex_lookup(si, kind, name, &files);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strncat(buf, " ", sizeof buf - strlen(buf) - 1);
		strncat(buf, srcindex_path(si, files[i]),
		    sizeof buf - strlen(buf) - 1);
	}
	return buf;
}

/* Check that name (of kind) maps to exactly the files in want. */
static void
expect(const struct srcindex *si, const char *test, enum src_kind kind,
    const char *name, const char *want)
{
	char		label[512], detail[9000];
	const char	*got = files_of(si, kind, name);

	snprintf(label, sizeof label, "%s/%s", test, name);
	snprintf(detail, sizeof detail, "%s: got \"%s\", want \"%s\"", name,
	    got, want);
	check(label, strcmp(got, want) == 0, detail);
}

/* Check that the files for name include want. */
static void
expect_has(const struct srcindex *si, const char *test, enum src_kind kind,
    const char *name, const char *want)
{
	const uint32_t		*files;
	char			 label[512], detail[1024];
	size_t			 n, i;
	int			 ok = 0;

	n = srcindex_lookup(si, kind, name, &files);
	for (i = 0; i < n; i++)
		if (strcmp(srcindex_path(si, files[i]), want) == 0)
			ok = 1;
	snprintf(label, sizeof label, "%s/%s", test, name);
	snprintf(detail, sizeof detail, "%s: %zu files, none is %s (got \"%.200s\")",
	    name, n, want, files_of(si, kind, name));
	check(label, ok, detail);
}

/* Build, printing the cause of a failure. */
static struct srcindex *
build(const char *tree, const char *cache, int jobs)
{
	struct srcindex	*si;
	char		*cause = NULL;

	si = srcindex_build(tree, cache, jobs, &cause);
	if (si == NULL) {
		printf("# srcindex_build(%s): %s\n", tree, cause);
		free(cause);
	}
	return si;
}

static const char synthetic_c[] =
"// SPDX-License-Identifier: GPL-2.0\n"
"#include <linux/fs.h>\n"
"\n"
"int foo_proto(int a);\n"
"static int foo_proto2(int a,\n"
"\t\t      int b);\n"
"extern void foo_attr_proto(void) __attribute__((noreturn));\n"
"static int (*foo_ptr)(void) = NULL;\n"
"static struct foo_ops ops = { .open = foo_open };\n"
"\n"
"static int foo_open(struct inode *inode,\n"
"\t\t    struct file *file)\n"
"{\n"
"\treturn 0;\n"
"}\n"
"\n"
"static int __init\n"
"foo_split(void)\n"
"{\n"
"\treturn foo_proto(1);\n"
"}\n"
"\n"
"void one_line(void) { }\n"
"\n"
"asmlinkage __visible void __sched notrace schedule_like(void)\n"
"{\n"
"}\n"
"\n"
"static int grab_it(struct super_block *s) __releases(sb_lock)\n"
"{\n"
"\treturn 1;\n"
"}\n"
"\n"
"static void cb_taker(int (*cb)(int, char *), struct x *p)\n"
"\t__must_hold(&p->lock)\n"
"{\n"
"}\n"
"\n"
"static const struct foo *\n"
"get_foo(int x)\n"
"{\n"
"\tif (x) {\n"
"\t\treturn NULL;\n"
"\t}\n"
"\treturn NULL;\n"
"}\n"
"\n"
"static int ifdef_params(int a\n"
"#ifdef CONFIG_X\n"
"\t, int b\n"
"#endif\n"
"\t)\n"
"{\n"
"}\n"
"\n"
"__attribute__((weak)) unsigned long long weak_fn(void)\n"
"{\n"
"}\n"
"\n"
"SYSCALL_DEFINE3(write, unsigned int, fd, const char __user *, buf,\n"
"\t\tsize_t, count)\n"
"{\n"
"\treturn ksys_write(fd, buf, count);\n"
"}\n"
"\n"
"SYSCALL_DEFINE0(getpid)\n"
"{\n"
"}\n"
"\n"
"COMPAT_SYSCALL_DEFINE4(preadv, compat_ulong_t, fd,\n"
"\t\tconst struct iovec __user *, vec, compat_ulong_t, vlen, u32, pos)\n"
"{\n"
"}\n"
"\n"
"BPF_CALL_2(bpf_foo_helper, struct bpf_map *, map, void *, key)\n"
"{\n"
"}\n"
"\n"
"DEFINE_IDTENTRY_RAW(exc_foo_fault)\n"
"{\n"
"}\n"
"\n"
"static int __init setup_fn(char *s) { return 1; }\n"
"__setup(\"foo=\", setup_fn);\n"
"early_param(\"bar\", early_fn);\n"
"DEFINE_SHOW_ATTRIBUTE(foo_stats);\n"
"DEFINE_SIMPLE_ATTRIBUTE(foo_fops, foo_get, foo_set, \"%llu\\n\");\n"
"\n"
"#define FOO_MACRO(name) \\\n"
"static int name(void) \\\n"
"{ \\\n"
"}\n"
"\n"
"/*\n"
"static int in_comment_prototype(void);\n"
" */\n"
"static struct file_system_type foo_fs_type = {\n"
"\t.owner\t\t= THIS_MODULE,\n"
"\t.name\t\t= \"foofs\",\n"
"\t.mount\t\t= foo_mount,\n"
"};\n"
"\n"
"static struct platform_driver foo_pdrv = {\n"
"\t.probe = foo_probe,\n"
"\t.driver = {\n"
"\t\t.name = \"foo-platform\",\n"
"\t\t.of_match_table = foo_of_match,\n"
"\t},\n"
"};\n"
"\n"
"#define DRV_NAME \"foo-pci\"\n"
"static struct pci_driver foo_pci_driver __refdata = { .name = DRV_NAME, };\n"
"static char foo_usb_name[] = \"foo-usb\";\n"
"static struct usb_driver foo_usb = {\n"
"\t.name = foo_usb_name,\n"
"};\n"
"static struct virtio_driver foo_virtio = {\n"
"\t.driver.name = KBUILD_MODNAME,\n"
"};\n"
"\n"
"static struct shash_alg alg = {\n"
"\t.digestsize = 32,\n"
"\t.base = {\n"
"\t\t.cra_name = \"foo\",\n"
"\t\t.cra_driver_name = \"foo-generic\",\n"
"\t}\n"
"};\n"
"\n"
"static int probe(void)\n"
"{\n"
"}\n";

static const char synthetic_bar_c[] =
"static int probe(void)\n"
"{\n"
"}\n"
"static int probe(void)\n"	/* again, under another #ifdef */
"{\n"
"}\n"
"static struct file_system_type bar_fs_type = {\n"
"\t.name = \"barfs\",\n"
"};\n"
"static struct crypto_template bar_tmpls[] = {\n"
"\t{\n"
"\t\t.name = \"barmac\",\n"
"\t\t.create = barmac_create,\n"
"\t}, {\n"
"\t\t.name = \"bar\",\n"
"\t},\n"
"};\n"
"struct crypto_template one_tmpl = { .name = \"one\", };\n";

static const char synthetic_S[] =
"#include <linux/linkage.h>\n"
"SYM_FUNC_START(asm_fn)\n"
"\tret\n"
"SYM_FUNC_END(asm_fn)\n"
"SYM_CODE_START_LOCAL(asm_code)\n"
"SYM_INNER_LABEL(asm_inner, SYM_L_GLOBAL)\n"
"SYM_CODE_END(asm_code)\n"
"ENTRY(old_entry)\n";

/* Lookups every synthetic index must answer the same way. */
static void
synthetic_expect(const struct srcindex *si, const char *test)
{
	static const char *const funcs[] = {
		"foo_open", "foo_split", "one_line", "schedule_like",
		"grab_it", "cb_taker", "get_foo", "ifdef_params", "weak_fn",
		"__x64_sys_write", "__ia32_sys_write", "__se_sys_write",
		"__do_sys_write", "sys_write", "__x64_sys_getpid",
		"compat_sys_preadv", "__do_compat_sys_preadv",
		"__x64_compat_sys_preadv", "__ia32_compat_sys_preadv",
		"bpf_foo_helper", "exc_foo_fault", "setup_fn", "early_fn",
		"foo_stats_open", "foo_fops_open", NULL
	};
	static const char *const nots[] = {
		"foo_proto", "foo_proto2", "foo_attr_proto", "foo_ptr",
		"ops", "SYSCALL_DEFINE3", "write", "BPF_CALL_2", "__releases",
		"__must_hold", "name", "in_comment_prototype", "if",
		"__attribute__", "foo_stats", "asm_fn_not", NULL
	};
	const uint32_t		*f;
	char			 label[256];
	size_t			 i;

	for (i = 0; funcs[i] != NULL; i++)
		expect(si, test, SRC_FUNC, funcs[i], "fs/foo/foo.c");
	for (i = 0; nots[i] != NULL; i++) {
		snprintf(label, sizeof label, "%s/not-%s", test, nots[i]);
		check(label, srcindex_lookup(si, SRC_FUNC, nots[i], &f) == 0,
		    files_of(si, SRC_FUNC, nots[i]));
	}
	expect(si, test, SRC_FUNC, "probe", "fs/bar/bar.c fs/foo/foo.c");
	expect(si, test, SRC_FUNC, "asm_fn", "arch/x86/entry/entry.S");
	expect(si, test, SRC_FUNC, "asm_code", "arch/x86/entry/entry.S");
	expect(si, test, SRC_FUNC, "asm_inner", "arch/x86/entry/entry.S");
	expect(si, test, SRC_FUNC, "old_entry", "arch/x86/entry/entry.S");
	expect(si, test, SRC_FUNC, "in_header", "");
	expect(si, test, SRC_FUNC, "tools_fn", "");
	expect(si, test, SRC_FSTYPE, "foofs", "fs/foo/foo.c");
	expect(si, test, SRC_FSTYPE, "barfs", "fs/bar/bar.c");
	expect(si, test, SRC_CRYPTO, "barmac", "fs/bar/bar.c");
	expect(si, test, SRC_CRYPTO, "bar", "fs/bar/bar.c");
	expect(si, test, SRC_CRYPTO, "one", "fs/bar/bar.c");
	expect(si, test, SRC_DRIVER, "foo-platform", "fs/foo/foo.c");
	expect(si, test, SRC_DRIVER, "foo-pci", "fs/foo/foo.c");
	expect(si, test, SRC_DRIVER, "foo-usb", "fs/foo/foo.c");
	expect(si, test, SRC_DRIVER, "KBUILD_MODNAME", "");
	expect(si, test, SRC_DRIVER, "foofs", "");
	expect(si, test, SRC_CRYPTO, "foo", "fs/foo/foo.c");
	expect(si, test, SRC_CRYPTO, "foo-generic", "fs/foo/foo.c");
	expect(si, test, SRC_FSTYPE, "foo-generic", "");
}

/* Set the mtime of dir/rel to t seconds. */
static void
set_mtime(const char *dir, const char *rel, time_t t)
{
	struct timespec	ts[2];
	char		path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	ts[0].tv_sec = ts[1].tv_sec = t;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	if (utimensat(AT_FDCWD, path, ts, 0) != 0)
		printf("# utimensat %s: %s\n", path, strerror(errno));
}

/* Overwrite len bytes of path at off with junk (or truncate, len 0). */
static void
damage(const char *path, long off, size_t len)
{
	char	junk[64];
	int	fd;

	memset(junk, 0x5a, sizeof junk);
	if ((fd = open(path, O_WRONLY)) == -1)
		return;
	if (len == 0) {
		if (ftruncate(fd, off) != 0)
			printf("# ftruncate: %s\n", strerror(errno));
	} else if (pwrite(fd, junk, len, off) != (ssize_t)len)
		printf("# pwrite: %s\n", strerror(errno));
	close(fd);
}

/*
 * Rewrite the cache with one forgery and a checksum that matches: what
 * 0: a ref's file id out of range; 1: every empty slot of the functions'
 * table taken (a probe would never end); 2: a name's count past the refs.
 * The payload's layout is the one documented at the top of
 * core/srcindex/srcindex-cache.c; the header (lib/cachefile.h) keeps its version
 * and identity, and cachefile_write makes its checksum right.
 */
static void
forge(const char *path, int what)
{
	enum { HDR = 44 };	/* the payload's own header */
	unsigned char	*b, *p;
	uint32_t	 nfiles, nrefs, nnames[4], nslots[4], v, *w, version;
	uint64_t	 identity;
	size_t		 size, words, slots, refs, i, k;
	char		*cause = NULL;

	if ((b = (unsigned char *)file_read_all(path, &size)) == NULL)
		return;
	if (size < CACHEFILE_HEADER + HDR) {
		free(b);
		return;
	}
	memcpy(&version, b + 8, 4);
	memcpy(&identity, b + 16, 8);
	p = b + CACHEFILE_HEADER;
	size -= CACHEFILE_HEADER;
	memcpy(&nfiles, p, 4);
	memcpy(&nrefs, p + 8, 4);
	memcpy(nnames, p + 12, 16);
	memcpy(nslots, p + 28, 16);
	w = (uint32_t *)(void *)(p + HDR);
	words = nfiles;
	for (k = 0; k < 4; k++)
		words += 3 * (size_t)nnames[k];
	slots = words;			/* the functions' slot table */
	for (k = 0; k < 4; k++)
		words += nslots[k];
	refs = words;
	if (what == 0 && nrefs > 0)
		w[refs] = 0xffffffffu;
	else if (what == 1) {
		for (i = 0; i < nslots[0]; i++)
			if (w[slots + i] == 0)
				w[slots + i] = 1;
	} else if (what == 2 && nnames[0] > 0) {
		v = nrefs + 1;
		memcpy(&w[nfiles + 1], &v, 4);
	}
	if (cachefile_write(path, "KCSRCIX\n", version, identity, p, size,
	    &cause) != 0) {
		printf("# forge: %s\n", cause);
		free(cause);
	}
	free(b);
}

/* Is the index from the cache? */
static int
from_cache(const struct srcindex *si)
{
	struct srcindex_stats	st;

	srcindex_get_stats(si, &st);
	return st.from_cache;
}

/* The synthetic tree: scanning, then the cache. Long on purpose: one
 * tree made once, then checked case after case, cold and warm. */
static void
test_synthetic(void)
{
	struct srcindex		*si;
	struct srcindex_stats	 st;
	char			 tree[4096], cache[4096], detail[256];
	char			*cause = NULL;

	snprintf(tree, sizeof tree, "%s/tree", tmpdir);
	snprintf(cache, sizeof cache, "%s/cache/sub/srcindex.bin", tmpdir);
	write_file(tree, "fs/foo/foo.c", synthetic_c);
	write_file(tree, "fs/bar/bar.c", synthetic_bar_c);
	write_file(tree, "arch/x86/entry/entry.S", synthetic_S);
	write_file(tree, "fs/foo/foo.h", "static int in_header(void)\n{\n}\n");
	write_file(tree, "tools/lib/x.c", "int tools_fn(void)\n{\n}\n");
	write_file(tree, ".git/x.c", "int tools_fn(void)\n{\n}\n");

	/* No cache, one thread, then many. */
	if ((si = build(tree, NULL, 1)) == NULL) {
		check("synthetic/build", 0, "srcindex_build failed");
		return;
	}
	srcindex_get_stats(si, &st);
	snprintf(detail, sizeof detail, "files %d, from_cache %d", st.files,
	    st.from_cache);
	check("synthetic/stats", st.files == 3 && st.from_cache == 0 &&
	    st.names[SRC_FSTYPE] == 2 && st.names[SRC_CRYPTO] == 5, detail);
	synthetic_expect(si, "synthetic-j1");
	srcindex_free(si);
	if ((si = build(tree, NULL, 7)) != NULL) {
		synthetic_expect(si, "synthetic-j7");
		srcindex_free(si);
	}

	/* With a cache (in directories that don't exist yet). */
	si = build(tree, cache, 2);
	check("cache/first-build", si != NULL && !from_cache(si) &&
	    access(cache, R_OK) == 0, "no cache written");
	srcindex_free(si);
	si = build(tree, cache, 2);
	check("cache/reused", si != NULL && from_cache(si), "not from cache");
	if (si != NULL)
		synthetic_expect(si, "synthetic-cached");
	srcindex_free(si);

	/* A touched file invalidates. */
	set_mtime(tree, "fs/bar/bar.c", 1000000000);
	si = build(tree, cache, 2);
	check("cache/touched", si != NULL && !from_cache(si),
	    "stale cache used after a touch");
	srcindex_free(si);
	si = build(tree, cache, 2);
	check("cache/touched-rewritten", si != NULL && from_cache(si),
	    "cache not rewritten");
	srcindex_free(si);

	/* So does a changed file, and a new one. */
	write_file(tree, "fs/bar/bar.c",
	    "static int probe(void)\n{\n}\nint bar_new(void)\n{\n}\n");
	set_mtime(tree, "fs/bar/bar.c", 1000000000);	/* same mtime */
	si = build(tree, cache, 2);
	check("cache/resized", si != NULL && !from_cache(si) &&
	    strcmp(files_of(si, SRC_FUNC, "bar_new"), "fs/bar/bar.c") == 0 &&
	    strcmp(files_of(si, SRC_FSTYPE, "barfs"), "") == 0,
	    "changed file not rescanned");
	srcindex_free(si);
	write_file(tree, "fs/baz.c", "int baz_fn(void)\n{\n}\n");
	si = build(tree, cache, 2);
	check("cache/new-file", si != NULL && !from_cache(si) &&
	    strcmp(files_of(si, SRC_FUNC, "baz_fn"), "fs/baz.c") == 0,
	    "new file not seen");
	srcindex_free(si);
	write_file(tree, "fs/foo/foo.h", "int other(void)\n{\n}\n");
	si = build(tree, cache, 2);
	check("cache/header-ignored", si != NULL && from_cache(si),
	    "a .h change invalidated the cache");
	srcindex_free(si);

	/* Corrupt caches are rebuilt: junk in the body, in the header, a
	 * truncated file, garbage. */
	damage(cache, 200, 16);
	si = build(tree, cache, 2);
	check("cache/corrupt-body", si != NULL && !from_cache(si) &&
	    strcmp(files_of(si, SRC_FUNC, "foo_open"), "fs/foo/foo.c") == 0,
	    "corrupt cache used");
	srcindex_free(si);
	damage(cache, 8, 8);
	si = build(tree, cache, 2);
	check("cache/corrupt-header", si != NULL && !from_cache(si),
	    "corrupt cache used");
	srcindex_free(si);
	damage(cache, 100, 0);
	si = build(tree, cache, 2);
	check("cache/truncated", si != NULL && !from_cache(si),
	    "truncated cache used");
	srcindex_free(si);
	write_file(tmpdir, "cache/sub/srcindex.bin", "garbage");
	si = build(tree, cache, 2);
	check("cache/garbage", si != NULL && !from_cache(si),
	    "garbage cache used");
	srcindex_free(si);
	si = build(tree, cache, 2);
	check("cache/after-garbage", si != NULL && from_cache(si) &&
	    strcmp(files_of(si, SRC_FUNC, "probe"),
	    "fs/bar/bar.c fs/foo/foo.c") == 0, "not rebuilt");
	srcindex_free(si);
	/* Caches forged past the checksum: each field checked on load. */
	for (int i = 0; i < 3; i++) {
		static const char *const what[] = {
			"cache/forged-ref", "cache/forged-full-slots",
			"cache/forged-count"
		};

		forge(cache, i);
		si = build(tree, cache, 2);
		check(what[i], si != NULL && !from_cache(si) &&
		    strcmp(files_of(si, SRC_FUNC, "probe"),
		    "fs/bar/bar.c fs/foo/foo.c") == 0, "forged cache used");
		srcindex_free(si);
	}
	si = build(tree, cache, 2);
	check("cache/after-forged", si != NULL && from_cache(si), "not rebuilt");
	srcindex_free(si);

	/* A missing tree is an error. */
	snprintf(tree, sizeof tree, "%s/no-such-tree", tmpdir);
	si = srcindex_build(tree, NULL, 1, &cause);
	check("missing-tree", si == NULL && cause != NULL &&
	    strstr(cause, "no-such-tree") != NULL, "no error");
	srcindex_free(si);
	free(cause);
}

/* The kernel tree to test against, or NULL. */
static const char *
find_tree(char *buf, size_t size)
{
	const char	*env = getenv("KCTUI_TREE"), *home = getenv("HOME");
	struct stat	 st;

	if (env != NULL && *env != '\0') {
		snprintf(buf, size, "%s", env);
		return buf;
	}
	if (home != NULL) {
		snprintf(buf, size, "%s/.cache/kctui/linux-6.1/fs/ext4/file.c",
		    home);
		if (stat(buf, &st) == 0) {
			snprintf(buf, size, "%s/.cache/kctui/linux-6.1", home);
			return buf;
		}
	}
	if (stat("/var/cache/kctui/linux-source-6.1/fs/ext4/file.c", &st) == 0)
		return "/var/cache/kctui/linux-source-6.1";
	return NULL;
}

struct real_case {
	enum src_kind	 kind;
	const char	*name;
	const char	*file;
	int		 exact;		/* the only file */
};

static const struct real_case real_cases[] = {
	{ SRC_FUNC, "ext4_file_write_iter", "fs/ext4/file.c", 1 },
	{ SRC_FUNC, "virtnet_poll", "drivers/net/virtio_net.c", 1 },
	{ SRC_FUNC, "tcp_sendmsg", "net/ipv4/tcp.c", 1 },
	{ SRC_FUNC, "__x64_sys_write", "fs/read_write.c", 1 },
	{ SRC_FUNC, "__ia32_compat_sys_preadv", "fs/read_write.c", 1 },
	{ SRC_FUNC, "vfs_read", "fs/read_write.c", 1 },
	{ SRC_FUNC, "schedule", "kernel/sched/core.c", 1 },
	{ SRC_FUNC, "grab_super", "fs/super.c", 1 },
	{ SRC_FUNC, "bpf_map_lookup_elem", "kernel/bpf/helpers.c", 1 },
	{ SRC_FUNC, "exc_page_fault", "arch/x86/mm/fault.c", 1 },
	{ SRC_FUNC, "entry_SYSCALL_64", "arch/x86/entry/entry_64.S", 1 },
	{ SRC_FUNC, "set_dhash_entries", "fs/dcache.c", 1 },
	{ SRC_FUNC, "rb_insert_color", "lib/rbtree.c", 1 },
	{ SRC_FUNC, "init_once", "fs/ext4/super.c", 0 },
	{ SRC_FUNC, "memcpy", "arch/x86/lib/memcpy_64.S", 0 },
	{ SRC_FSTYPE, "ext4", "fs/ext4/super.c", 1 },
	{ SRC_FSTYPE, "tmpfs", "mm/shmem.c", 1 },
	{ SRC_FSTYPE, "proc", "fs/proc/root.c", 1 },
	{ SRC_CRYPTO, "sha256-generic", "crypto/sha256_generic.c", 1 },
	{ SRC_CRYPTO, "sha256", "crypto/sha256_generic.c", 0 },
	{ SRC_CRYPTO, "cbc", "crypto/cbc.c", 1 },
	{ SRC_CRYPTO, "pkcs1pad", "crypto/rsa-pkcs1pad.c", 1 },
	{ SRC_DRIVER, "e1000e", "drivers/net/ethernet/intel/e1000e/netdev.c",
	  1 },
	{ SRC_DRIVER, "serial8250", "drivers/tty/serial/8250/8250_core.c", 1 },
};

/* Check the real-tree cases against si. */
static void
real_expect(const struct srcindex *si, const char *test)
{
	const struct real_case	*c;
	size_t			 i;

	for (i = 0; i < sizeof real_cases / sizeof real_cases[0]; i++) {
		c = &real_cases[i];
		if (c->exact)
			expect(si, test, c->kind, c->name, c->file);
		else
			expect_has(si, test, c->kind, c->name, c->file);
	}
}

/* The real tree: cold build with a fresh cache, then warm. */
static void
test_real(const char *tree)
{
	struct srcindex		*cold, *warm;
	struct srcindex_stats	 cs, ws;
	const uint32_t		*f;
	char			 cache[4096], detail[8192];
	double			 t0, t1, t2;
	size_t			 n, i;
	int			 same = 1;

	snprintf(cache, sizeof cache, "%s/real-cache/srcindex.bin", tmpdir);
	t0 = clock_now();
	cold = build(tree, cache, 0);
	t1 = clock_now();
	if (cold == NULL) {
		check("real/build", 0, "srcindex_build failed");
		return;
	}
	srcindex_get_stats(cold, &cs);
	printf("# real cold build: %.2f s (%d files; names: %d functions, "
	    "%d fstypes, %d crypto, %d drivers)\n", t1 - t0, cs.files,
	    cs.names[SRC_FUNC], cs.names[SRC_FSTYPE], cs.names[SRC_CRYPTO],
	    cs.names[SRC_DRIVER]);
	snprintf(detail, sizeof detail, "%d files, %d functions", cs.files,
	    cs.names[SRC_FUNC]);
	check("real/stats", !cs.from_cache && cs.files > 25000 &&
	    cs.names[SRC_FUNC] > 300000 && cs.names[SRC_FSTYPE] > 50, detail);
	real_expect(cold, "real");
	n = srcindex_lookup(cold, SRC_FUNC, "init_once", &f);
	snprintf(detail, sizeof detail, "init_once in %zu files", n);
	check("real/static-in-many-files", n >= 10, detail);

	t1 = clock_now();
	warm = build(tree, cache, 0);
	t2 = clock_now();
	if (warm == NULL) {
		check("real/warm", 0, "srcindex_build failed");
		srcindex_free(cold);
		return;
	}
	srcindex_get_stats(warm, &ws);
	printf("# real warm load: %.3f s\n", t2 - t1);
	snprintf(detail, sizeof detail, "from_cache %d (%.3f s)", ws.from_cache,
	    t2 - t1);
	check("real/warm-from-cache", ws.from_cache == 1, detail);
	check("real/warm-same-stats", ws.files == cs.files &&
	    memcmp(ws.names, cs.names, sizeof ws.names) == 0,
	    "stats differ");
	real_expect(warm, "real-warm");
	for (i = 0; i < sizeof real_cases / sizeof real_cases[0]; i++) {
		snprintf(detail, sizeof detail, "%s",
		    files_of(cold, real_cases[i].kind, real_cases[i].name));
		if (strcmp(detail, files_of(warm, real_cases[i].kind,
		    real_cases[i].name)) != 0)
			same = 0;
	}
	snprintf(detail, sizeof detail, "%s", files_of(cold, SRC_FUNC,
	    "init_once"));
	if (strcmp(detail, files_of(warm, SRC_FUNC, "init_once")) != 0)
		same = 0;
	check("real/warm-same-answers", same, "cold and warm differ");
	srcindex_free(warm);
	srcindex_free(cold);
}

int
main(int argc, char **argv)
{
	char		 buf[4096];
	const char	*tree;

	if (!unit_tmpdir(tmpdir))
		return 1;
	test_synthetic();
	tree = argc > 1 ? argv[1] : find_tree(buf, sizeof buf);
	if (tree != NULL)
		test_real(tree);
	else
		skip("real", "no Linux tree");
	unit_rmtree(tmpdir);
	return unit_failures ? 1 : 0;
}
