/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_build.c - the kernel build of kctui verify (core/verify/build.c).
 *
 * Run as a unit test (no arguments) it checks build_check_tree on scratch
 * directories: each case is one construct the check looks for (a missing
 * Makefile, a .config, an include/config), not a claim that a build there
 * would work. A stand-in for make (a shell script first in PATH) then
 * checks what build.c does with make's output: counting, causes, the
 * failure lines, cancel, the staging directory's links not followed.
 *
 * "test_build --real TREE DIR [FRAGMENT]" builds for real, in DIR, a
 * tinyconfig kernel of TREE (a clean kernel source tree) with FRAGMENT
 * (default tests/fixtures/verify/tiny.config) appended: olddefconfig, a
 * cold (or incremental, if DIR was built before) build, a second build
 * with nothing changed (it must compile and link nothing), then
 * CONFIG_BINFMT_ELF off and back on, each an incremental build. It
 * prints the times, object counts and results on "# " lines; the log of
 * every make goes to DIR/kctui-build.log.
 */
#include <sys/stat.h>

#include <errno.h>

#define UNIT_PREFIX "build/"
#include "unit.h"

#include "../../core/verify/verify.h"
#include "../../lib/clock.h"
#include "../../lib/proc.h"

/* What build_check_tree says of tree (NULL: it accepts it); malloc'd. */
static char *
check_tree(const char *tree, const char *arch)
{
	char	*cause = NULL;

	if (build_check_tree(tree, arch, &cause) == 0) {
		free(cause);
		return NULL;
	}
	return cause != NULL ? cause : xstrdup("(no cause)");
}

/* Check that build_check_tree says want of tree (NULL: accepts it). */
static void
expect_tree(const char *name, const char *tree, const char *arch,
    const char *want)
{
	char	*got = check_tree(tree, arch);
	int	 ok;

	ok = want == NULL ? got == NULL : got != NULL && strcmp(got,
	    want) == 0;
	checkf(name, ok, "got \"%s\", want \"%s\"", got ? got : "(accepted)",
	    want ? want : "(accepted)");
	free(got);
}

/* Make path a directory (and its parents); false, said, if it can't. */
static bool
mkdirs(const char *path)
{
	char	*cause = NULL;

	if (path_mkdir_p(path, 0777, &cause) == 0)
		return true;
	printf("# %s\n", cause);
	free(cause);
	return false;
}

/* The error cases of build_check_tree, and a fake tree it accepts. */
static void
test_check_tree(const char *top)
{
	char	*tree = xasprintf("%s/tree", top), *want, *p;
	char	*missing = xasprintf("%s/none", top);

	want = xasprintf("%s: No such file or directory", missing);
	expect_tree("check-missing-dir", missing, NULL, want);
	free(want);
	mkdirs(tree);
	want = xasprintf("%s is not a kernel source tree (no Makefile "
	    "setting VERSION and PATCHLEVEL)", tree);
	expect_tree("check-no-makefile", tree, NULL, want);
	p = xasprintf("%s/Makefile", tree);
	unit_write_file(p, "# no version here\nall:\n");
	expect_tree("check-makefile-no-version", tree, NULL, want);
	free(want);
	unit_write_file(p, "# SPDX\nVERSION = 6\nPATCHLEVEL = 1\n");
	free(p);
	want = xasprintf("%s is not a kernel source tree (no Kconfig)", tree);
	expect_tree("check-no-kconfig", tree, NULL, want);
	free(want);
	p = xasprintf("%s/Kconfig", tree);
	unit_write_file(p, "mainmenu \"x\"\n");
	free(p);
	expect_tree("check-clean", tree, NULL, NULL);

	p = xasprintf("%s/.config", tree);
	unit_write_file(p, "CONFIG_X=y\n");
	want = xasprintf("%s is not clean for an out-of-tree build (it has "
	    ".config): run 'make mrproper' in it, or verify from a clean "
	    "copy (cp -al %s COPY && make -C COPY mrproper)", tree, tree);
	expect_tree("check-dot-config", tree, NULL, want);
	unlink(p);
	free(p);
	free(want);

	p = xasprintf("%s/include/config", tree);
	mkdirs(p);
	want = xasprintf("%s is not clean for an out-of-tree build (it has "
	    "include/config): run 'make mrproper' in it, or verify from a "
	    "clean copy (cp -al %s COPY && make -C COPY mrproper)", tree,
	    tree);
	expect_tree("check-include-config", tree, NULL, want);
	rmdir(p);
	free(p);
	free(want);

	p = xasprintf("%s/arch/x86/include/generated", tree);
	mkdirs(p);
	want = xasprintf("%s is not clean for an out-of-tree build (it has "
	    "arch/x86/include/generated): run 'make mrproper' in it, or "
	    "verify from a clean copy (cp -al %s COPY && make -C COPY "
	    "mrproper)", tree, tree);
	expect_tree("check-arch-generated", tree, "x86_64", want);
	/* Another architecture's generated headers are not in the way. */
	expect_tree("check-other-arch", tree, "arm64", NULL);
	free(p);
	free(want);
	free(missing);
	free(tree);
}

/*
 * A stand-in for make, first in PATH, for the checks of build.c's own
 * handling of make's output (object lines counted, the first error line
 * in the cause, olddefconfig's header ignored, the staging directory
 * emptied without following its links): it builds nothing, and proves
 * nothing about a kernel build (--real does that).
 */
static const char fake_make[] =
    "#!/bin/sh\n"
    "for a; do case $a in O=*) O=${a#O=};; INSTALL_MOD_PATH=*)"
    " M=${a#INSTALL_MOD_PATH=};; esac; done\n"
    "case \" $* \" in\n"
    "*\" olddefconfig \"*)\n"
    "\t{ echo '#'; echo \"# fake conf, $$\"; echo '#'\n"
    "\tgrep -v -e '^#$' -e '^# [a-z]' \"$O/.config\"\n"
    "\tcat \"$O/add\" 2>/dev/null; } > \"$O/.new\"\n"
    "\tmv \"$O/.new\" \"$O/.config\";;\n"
    "*\" kernelrelease \"*) echo 6.1.0-fake;;\n"
    "*\" modules_install \"*)\n"
    "\tmkdir -p \"$M/lib/modules/6.1.0-fake\"\n"
    "\tln -s \"$O/keep\" \"$M/lib/modules/6.1.0-fake/build\";;\n"
    "*\" bzImage \"*)\n"
    "\tfor a; do case $a in CC=*) echo \"$a\";; esac; done > \"$O/cc-seen\"\n"
    "\techo \"prefix=${CCACHE_PREFIX:-}\" >> \"$O/cc-seen\"\n"
    "\techo '  CC      init/main.o'; echo '  CC [M]  fs/b.o'\n"
    "\techo '  GEN     include/x.h'; echo '  LD [M]  fs/b.ko'\n"
    "\tif [ -f \"$O/fail\" ]; then echo 'x.c:1:2: error: bad thing'\n"
    "\t\techo 'make[1]: *** [x.o] Error 1'; exit 2; fi\n"
    "\tmkdir -p \"$O/arch/x86/boot\"\n"
    "\ttouch \"$O/arch/x86/boot/bzImage\" \"$O/vmlinux\";;\n"
    "esac\n";

/* What the fake build's progress calls said: the total of the first
 * "build" call. */
struct fake_seen {
	bool	have_first;
	long	first_total;
};

/* build's progress callback for the fake runs. */
static void
fake_progress(void *arg, const char *phase, long done, long total)
{
	struct fake_seen	*f = arg;

	if (strcmp(phase, "build") == 0 && done == 0 && !f->have_first) {
		f->have_first = true;
		f->first_total = total;
	}
}

/* build_config over the fake make: a new header is no change, a new
 * option is. */
static void
test_fake_config(struct build *b, const char *cfg)
{
	char	*cause = NULL, *p;
	bool	 changed = true;
	int	 rc;

	unit_write_file(cfg, "#\n# given, 1970\n#\nCONFIG_MODULES=y\n"
	    "# CONFIG_X is not set\n");
	rc = build_config(b, cfg, &changed, &cause);
	check("fake-config-header-only", rc == 0 && !changed, cause);
	free(cause);
	cause = NULL;
	p = xasprintf("%s/add", b->dir);
	unit_write_file(p, "CONFIG_NEW=y\n");
	rc = build_config(b, cfg, &changed, &cause);
	check("fake-config-changed", rc == 0 && changed, cause);
	unlink(p);
	free(p);
	free(cause);
}

/* build_kernel over the fake make: a first build, a second (the first's
 * count as its total, the staging links not followed), a failed one, a
 * cancelled one. */
static void
test_fake_kernel(struct build *b, volatile sig_atomic_t *cancel)
{
	struct fake_seen	*seen = b->arg;
	char			*cause = NULL, *p, *keep;
	struct strbuf		 sb;
	int			 rc;

	p = xasprintf("%s/keep", b->dir);	/* "build" links to it */
	mkdirs(p);
	free(p);
	keep = xasprintf("%s/keep/file", b->dir);
	unit_write_file(keep, "not to be removed\n");
	rc = build_kernel(b, &cause);
	checkf("fake-build", rc == 0 && b->objects == 3 && b->release !=
	    NULL && strcmp(b->release, "6.1.0-fake") == 0 && b->staging !=
	    NULL && b->bzimage != NULL, "rc %d, %ld objects, release %s: %s",
	    rc, b->objects, b->release ? b->release : "-", cause ? cause : "");
	free(cause);
	cause = NULL;
	strbuf_init(&sb);
	p = xasprintf("%s/.kctui-objects", b->dir);
	check("fake-objects-kept", unit_read_file(p, &sb) &&
	    strcmp(sb.s, "3\n") == 0, sb.s);
	free(p);
	strbuf_free(&sb);
	memset(seen, 0, sizeof *seen);
	rc = build_kernel(b, &cause);
	checkf("fake-rebuild", rc == 0 && seen->first_total == 3 &&
	    access(keep, F_OK) == 0, "rc %d, total %ld, %s %s: %s", rc,
	    seen->first_total, keep, access(keep, F_OK) == 0 ? "kept" :
	    "removed", cause ? cause : "");
	free(cause);
	cause = NULL;
	p = xasprintf("%s/fail", b->dir);
	unit_write_file(p, "");
	free(p);
	rc = build_kernel(b, &cause);
	check("fake-fail-cause", rc == -1 && cause != NULL && strcmp(cause,
	    "make bzImage modules failed (exit 2): x.c:1:2: error: bad "
	    "thing") == 0, cause);
	check("fake-fail-lines", b->failure != NULL && strncmp(b->failure,
	    "x.c:1:2: error: bad thing\nmake[1]: *** [x.o] Error 1\n...\n"
	    "  CC      init/main.o\n", 66) == 0, b->failure);
	free(cause);
	cause = NULL;
	*cancel = 1;
	rc = build_kernel(b, &cause);
	check("fake-cancel", rc == -1 && cause != NULL &&
	    strcmp(cause, "cancelled") == 0, cause);
	free(cause);
	free(keep);
}

/*
 * The compiler a build is given: ccache when installed; distcc when the
 * user set DISTCC_HOSTS, through ccache's prefix when both are there (a
 * prefix the user set, icecc's, is kept); neither without them. Stand-ins
 * for ccache and distcc first in PATH.
 */
static void
test_fake_cc(struct build *b, const char *bin)
{
	static const struct {
		const char	*name, *hosts, *prefix;
		bool		 ccache, want_ccache, want_distcc;
		const char	*seen;
	} cases[] = {
		{ "cc-plain", NULL, NULL, false, false, false,
		  "prefix=\n" },
		{ "cc-ccache", NULL, NULL, true, true, false,
		  "CC=ccache gcc\nprefix=\n" },
		{ "cc-distcc", "127.0.0.1", NULL, false, false, true,
		  "CC=distcc gcc\nprefix=\n" },
		{ "cc-ccache-distcc", "127.0.0.1", NULL, true, true, true,
		  "CC=ccache gcc\nprefix=distcc\n" },
		{ "cc-ccache-icecc", "127.0.0.1", "icecc", true, true, true,
		  "CC=ccache gcc\nprefix=icecc\n" },
	};
	struct strbuf	 sb;
	char		*seen = xasprintf("%s/cc-seen", b->dir), *cause;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (cases[i].hosts != NULL)
			setenv("DISTCC_HOSTS", cases[i].hosts, 1);
		else
			unsetenv("DISTCC_HOSTS");
		if (cases[i].prefix != NULL)
			setenv("CCACHE_PREFIX", cases[i].prefix, 1);
		else
			unsetenv("CCACHE_PREFIX");
		b->no_ccache = !cases[i].ccache;
		unlink(seen);
		cause = NULL;
		rc = build_kernel(b, &cause);
		strbuf_init(&sb);
		unit_read_file(seen, &sb);
		checkf(cases[i].name, rc == 0 && b->ccache ==
		    cases[i].want_ccache && b->distcc == cases[i].want_distcc &&
		    sb.s != NULL && strcmp(sb.s, cases[i].seen) == 0,
		    "rc %d (%s), ccache %d, distcc %d, make got '%s'", rc,
		    cause != NULL ? cause : "", b->ccache, b->distcc,
		    sb.s != NULL ? sb.s : "");
		strbuf_free(&sb);
		free(cause);
	}
	unsetenv("DISTCC_HOSTS");
	unsetenv("CCACHE_PREFIX");
	b->no_ccache = true;
	(void)bin;
	free(seen);
}

/* build_config and build_kernel over the fake make, first in PATH. */
static void
test_fake_make(const char *top)
{
	char			*bin = xasprintf("%s/bin", top), *p;
	char			*dir = xasprintf("%s/out", top);
	char			*cfg = xasprintf("%s/given.config", top);
	char			*oldpath = xstrdup(getenv("PATH") ?
				    getenv("PATH") : "/usr/bin:/bin");
	struct fake_seen	 seen;
	struct build		 b;
	volatile sig_atomic_t	 cancel = 0;
	int			 i;

	mkdirs(bin);
	p = xasprintf("%s/make", bin);
	unit_write_file(p, fake_make);
	chmod(p, 0755);
	free(p);
	p = xasprintf("%s:%s", bin, oldpath);
	setenv("PATH", p, 1);	/* execvpe searches our PATH */
	free(p);
	memset(&b, 0, sizeof b);
	memset(&seen, 0, sizeof seen);
	b.tree = top;
	b.dir = dir;
	b.no_ccache = true;
	b.cancel = &cancel;
	b.progress = fake_progress;
	b.arg = &seen;
	test_fake_config(&b, cfg);
	test_fake_kernel(&b, &cancel);
	cancel = 0;
	p = xasprintf("%s/fail", dir);	/* test_fake_kernel's failure */
	unlink(p);
	free(p);
	for (i = 0; i < 2; i++) {
		p = xasprintf("%s/%s", bin, i == 0 ? "ccache" : "distcc");
		unit_write_file(p, "#!/bin/sh\nexec \"$@\"\n");
		chmod(p, 0755);
		free(p);
	}
	test_fake_cc(&b, bin);
	build_free(&b);
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(cfg);
	free(dir);
	free(bin);
}

/* The --real run: where make's lines go. */
struct real {
	FILE	*log;
	double	 shown;		/* clock of the last progress line */
};

/* build's log callback: every make line to DIR/kctui-build.log. */
static void
real_log(void *arg, const char *line)
{
	struct real	*r = arg;

	fprintf(r->log, "%s\n", line);
}

/* build's progress callback: a line on stderr every few seconds. */
static void
real_progress(void *arg, const char *phase, long done, long total)
{
	struct real	*r = arg;
	double		 now = clock_now();

	if (strcmp(phase, "build") == 0 && done != 0 && now - r->shown < 5)
		return;
	r->shown = now;
	fprintf(stderr, "# %s %ld/%ld\n", phase, done, total);
}

/* make's line callback for the tinyconfig run. */
static void
real_line(void *arg, const char *line, size_t len)
{
	(void)len;
	real_log(arg, line);
}

/* make -C TREE O=DIR ARCH=x86_64 tinyconfig; false, said, on failure. */
static bool
real_tinyconfig(struct real *r, const char *tree, const char *dir)
{
	char			*argv[6], *cause = NULL;
	struct proc_opts	 o;
	struct proc_result	 res;
	bool			 ok;

	argv[0] = "make";
	argv[1] = xasprintf("-C%s", tree);
	argv[2] = xasprintf("O=%s", dir);
	argv[3] = "ARCH=x86_64";
	argv[4] = "tinyconfig";
	argv[5] = NULL;
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.line = real_line;
	o.arg = r;
	ok = proc_run(&o, &res, &cause) == 0 && res.exit_code == 0;
	check("real-tinyconfig", ok, cause);
	free(cause);
	free(argv[1]);
	free(argv[2]);
	return ok;
}

/* The modification time of path (0 if it has none). */
static double
real_mtime(const char *path)
{
	struct stat	 st;

	if (stat(path, &st) != 0)
		return 0;
	return (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
}

/* One round: build_config of config, then build_kernel; the results on
 * "# " lines. false, said as a FAIL, on failure. */
static bool
real_round(struct build *b, const char *name, const char *config,
    bool *changed)
{
	char		*cause = NULL;
	struct stat	 st;
	double		 t0 = clock_now(), tc;
	bool		 ok;

	ok = build_config(b, config, changed, &cause) == 0;
	tc = clock_now() - t0;
	if (ok)
		ok = build_kernel(b, &cause) == 0;
	checkf(name, ok, "%s%s%s", cause ? cause : "", b->failure ? "\n" :
	    "", b->failure ? b->failure : "");
	free(cause);
	if (!ok)
		return false;
	stat(b->bzimage, &st);
	printf("# %s: config %.1f s (changed: %s), build %.1f s, %ld objects,"
	    " release %s, bzImage %lld bytes, ccache %s, modules %s\n", name,
	    tc, *changed ? "yes" : "no", b->seconds, b->objects, b->release,
	    (long long)st.st_size, b->ccache ? "yes" : "no",
	    b->staging ? b->staging : "(none)");
	return true;
}

/* Write text with one line replaced (from -> to, whole lines) to path. */
static bool
real_edit(const char *text, const char *from, const char *to,
    const char *path)
{
	struct strbuf	 sb;
	const char	*p = strstr(text, from);
	bool		 ok;

	if (p == NULL || (p != text && p[-1] != '\n'))
		return false;
	strbuf_init(&sb);
	strbuf_add(&sb, text, (size_t)(p - text));
	strbuf_adds(&sb, to);
	strbuf_adds(&sb, p + strlen(from));
	ok = unit_write_file(path, sb.s);
	strbuf_free(&sb);
	return ok;
}

/* The rounds of --real after the first: unchanged, BINFMT_ELF off, on. */
static void
real_rounds(struct build *b, const char *dir)
{
	char		*acc = xasprintf("%s/kctui-accepted.config", dir);
	char		*noelf = xasprintf("%s/kctui-noelf.config", dir);
	char		*path = xasprintf("%s/.config", dir), *vml;
	struct strbuf	 sb;
	bool		 changed;
	double		 mt;

	strbuf_init(&sb);
	unit_read_file(path, &sb);
	unit_write_file(acc, sb.s);
	vml = xasprintf("%s/vmlinux", dir);
	mt = real_mtime(vml);
	if (real_round(b, "real-unchanged", acc, &changed)) {
		check("real-unchanged-config", !changed, NULL);
		checkf("real-unchanged-nothing-built", b->objects == 0 &&
		    real_mtime(vml) == mt, "%ld objects, vmlinux %s",
		    b->objects, real_mtime(vml) == mt ? "kept" : "relinked");
	}
	if (!real_edit(sb.s, "CONFIG_BINFMT_ELF=y\n",
	    "# CONFIG_BINFMT_ELF is not set\n", noelf))
		check("real-noelf-config", 0, "no CONFIG_BINFMT_ELF=y line");
	else if (real_round(b, "real-binfmt-elf-off", noelf, &changed) &&
	    real_round(b, "real-binfmt-elf-on", acc, &changed))
		check("real-binfmt-elf-on-config", !changed, NULL);
	strbuf_free(&sb);
	free(vml);
	free(path);
	free(noelf);
	free(acc);
}

/* test_build --real TREE DIR [FRAGMENT]: see the top of the file. */
static int
real_main(int argc, char **argv)
{
	const char	*tree = argv[2], *dir = argv[3];
	const char	*frag = argc > 4 ? argv[4] :
			    "tests/fixtures/verify/tiny.config";
	char		*cause = NULL, *path, *input, *ko;
	struct strbuf	 sb, fsb;
	struct build	 b;
	struct real	 r;
	struct stat	 st;
	bool		 changed;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: test_build --real TREE DIR "
		    "[FRAGMENT]\n");
		return 2;
	}
	check("real-check-tree", build_check_tree(tree, "x86_64", &cause) ==
	    0, cause);
	if (cause != NULL || !mkdirs(dir))
		return 1;
	memset(&r, 0, sizeof r);
	path = xasprintf("%s/kctui-build.log", dir);
	if ((r.log = fopen(path, "a")) == NULL) {
		perror(path);
		return 1;
	}
	free(path);
	memset(&b, 0, sizeof b);
	b.tree = tree;
	b.dir = dir;
	b.jobs = 2;
	b.log = real_log;
	b.progress = real_progress;
	b.arg = &r;
	if (real_tinyconfig(&r, tree, dir)) {
		strbuf_init(&sb);
		strbuf_init(&fsb);
		path = xasprintf("%s/.config", dir);
		input = xasprintf("%s/kctui-input.config", dir);
		unit_read_file(path, &sb);
		if (!unit_read_file(frag, &fsb))
			printf("# %s: %s\n", frag, strerror(errno));
		strbuf_adds(&sb, fsb.s);
		unit_write_file(input, sb.s);
		if (real_round(&b, "real-first", input, &changed)) {
			check("real-first-config-changed", changed, NULL);
			ko = xasprintf("%s/lib/modules/%s/kernel/fs/"
			    "binfmt_misc.ko", b.staging ? b.staging : "",
			    b.release);
			check("real-module-staged", stat(ko, &st) == 0, ko);
			free(ko);
			real_rounds(&b, dir);
		}
		strbuf_free(&sb);
		strbuf_free(&fsb);
		free(input);
		free(path);
	}
	build_free(&b);
	fclose(r.log);
	return unit_failures != 0;
}

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/kctui-test-build.XXXXXX";

	if (argc >= 2 && strcmp(argv[1], "--real") == 0)
		return real_main(argc, argv);
	if (argc != 1) {
		fprintf(stderr, "usage: test_build [--real TREE DIR "
		    "[FRAGMENT]]\n");
		return 2;
	}
	if (!unit_tmpdir(top))
		return 1;
	test_check_tree(top);
	test_fake_make(top);
	unit_rmtree(top);
	return unit_failures != 0;
}
