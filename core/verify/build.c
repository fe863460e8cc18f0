/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build.c - the kernel build of kctui verify (see verify.h): a kernel
 * source tree built out of tree (make O=DIR) in a directory kept between
 * rounds, so that a round whose configuration differs by a few options
 * recompiles only what those options touch.
 *
 * Every make runs through proc_run (own process group, line callback,
 * cancel). Its environment fixes KBUILD_BUILD_TIMESTAMP, _USER, _HOST and
 * _VERSION: the kernel is reproducible, and a round with an unchanged
 * configuration links nothing again (a changing timestamp or build number
 * would rebuild init/version.o and relink vmlinux every time). MAKEFLAGS
 * and friends are dropped (a make above us must not lend its jobserver to
 * ours) and LC_ALL=C keeps the messages we look for in English.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"

extern char **environ;

/* Lines of a failed make kept for b->failure: the first error lines and
 * the last lines. */
#define BUILD_ERR_LINES		5
#define BUILD_TAIL_LINES	20
/* Least time between two progress calls (s). */
#define BUILD_PROGRESS_TICK	0.25
/* Where the object count of the last full build is kept, in DIR. */
#define BUILD_OBJECTS_FILE	".kctui-objects"

/* One make run: what its line callback keeps. */
struct build_make {
	struct build	*b;
	bool		 count;		/* count object lines (progress) */
	long		 done;
	long		 total;
	double		 last;		/* clock of the last progress call */
	char		*errors[BUILD_ERR_LINES];
	size_t		 nerrors;
	char		*tail[BUILD_TAIL_LINES];	/* ring */
	size_t		 ntail;		/* lines seen (ring index) */
	struct strbuf	 out;		/* all output, when capture */
	bool		 capture;
};

/* The kernel's SRCARCH for an ARCH= value (the top Makefile's mapping). */
static const char *
build_srcarch(const char *arch)
{
	if (arch == NULL || strcmp(arch, "x86_64") == 0 ||
	    strcmp(arch, "i386") == 0)
		return "x86";
	if (strcmp(arch, "sparc32") == 0 || strcmp(arch, "sparc64") == 0)
		return "sparc";
	if (strcmp(arch, "parisc64") == 0)
		return "parisc";
	if (strcmp(arch, "sh64") == 0)
		return "sh";
	return arch;
}

/* Whether text has a line starting with word followed by " =" or "=". */
static bool
build_has_var(const char *text, const char *word)
{
	size_t		 n = strlen(word);
	const char	*p = text, *q;

	for (;;) {
		if (strncmp(p, word, n) == 0) {
			for (q = p + n; *q == ' ' || *q == '\t'; q++)
				;
			if (*q == '=')
				return true;
		}
		if ((p = strchr(p, '\n')) == NULL)
			return false;
		p++;
	}
}

/* Whether tree looks like a kernel source tree: a Makefile setting
 * VERSION and PATCHLEVEL, and a Kconfig; -1 with *cause if not. */
static int
build_is_kernel(const char *tree, char **cause)
{
	char		*path, *text;
	struct stat	 st;
	bool		 ok;

	if (stat(tree, &st) != 0) {
		*cause = xasprintf("%s: %s", tree, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: not a directory", tree);
		return -1;
	}
	path = xasprintf("%s/Makefile", tree);
	text = file_read_regular(path, NULL);
	free(path);
	ok = text != NULL && build_has_var(text, "VERSION") &&
	    build_has_var(text, "PATCHLEVEL");
	free(text);
	if (!ok) {
		*cause = xasprintf("%s is not a kernel source tree (no "
		    "Makefile setting VERSION and PATCHLEVEL)", tree);
		return -1;
	}
	path = xasprintf("%s/Kconfig", tree);
	ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	free(path);
	if (!ok) {
		*cause = xasprintf("%s is not a kernel source tree (no "
		    "Kconfig)", tree);
		return -1;
	}
	return 0;
}

/* The tree can be built with O=: the top Makefile's own "source tree is
 * not clean" test (.config may be anything, the others directories). */
int
build_check_tree(const char *tree, const char *arch, char **cause)
{
	const char	*what[3];
	char		*path;
	struct stat	 st;
	bool		 found;
	size_t		 i;

	if (build_is_kernel(tree, cause) != 0)
		return -1;
	what[0] = ".config";
	what[1] = "include/config";
	path = xasprintf("arch/%s/include/generated", build_srcarch(arch));
	what[2] = path;
	for (i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s", tree, what[i]);

		found = i == 0 ? lstat(p, &st) == 0 :
		    stat(p, &st) == 0 && S_ISDIR(st.st_mode);
		free(p);
		if (!found)
			continue;
		*cause = xasprintf("%s is not clean for an out-of-tree build "
		    "(it has %s): run 'make mrproper' in it, or verify from "
		    "a clean copy (cp -al %s COPY && make -C COPY mrproper)",
		    tree, what[i], tree);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* make's environment: the caller's (or ours) without the variables we
 * set or must not pass on, then ours. NULL-terminated, malloc'd strings. */
static char **
build_env(const struct build *b)
{
	static const char *drop[] = { "KBUILD_BUILD_TIMESTAMP=",
	    "KBUILD_BUILD_USER=", "KBUILD_BUILD_HOST=",
	    "KBUILD_BUILD_VERSION=", "MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=",
	    "MAKEOVERRIDES=", "LC_ALL=", NULL };
	static const char *add[] = {
	    "KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 1970",
	    "KBUILD_BUILD_USER=kctui", "KBUILD_BUILD_HOST=kctui",
	    "KBUILD_BUILD_VERSION=1", "LC_ALL=C", NULL };
	char *const	*base = b->envp != NULL ? b->envp : environ;
	char		**env;
	size_t		 n = 0, i, j;

	while (base[n] != NULL)
		n++;
	env = xcalloc(n + sizeof add / sizeof add[0], sizeof *env);
	for (n = 0, i = 0; base[i] != NULL; i++) {
		for (j = 0; drop[j] != NULL; j++)
			if (strncmp(base[i], drop[j], strlen(drop[j])) == 0)
				break;
		if (drop[j] == NULL)
			env[n++] = xstrdup(base[i]);
	}
	for (j = 0; add[j] != NULL; j++)
		env[n++] = xstrdup(add[j]);
	/* ccache hands the compile to distcc (its documented prefix),
	 * unless the user chose a prefix (icecc) already. */
	if (b->ccache && b->distcc && envp_get(base, "CCACHE_PREFIX") ==
	    NULL) {
		env = xrealloc(env, (n + 2) * sizeof *env);
		env[n++] = xstrdup("CCACHE_PREFIX=distcc");
	}
	env[n] = NULL;
	return env;
}

/* Whether line is kbuild's quiet line for an object: "  CC      x.o",
 * "  CC [M]  x.o", "  AS", "  AR      x.a", "  LD [M]  x.ko" ...: two
 * spaces, a capital tag (and " [M]"), spaces, one path ending in .o, .a
 * or .ko. */
static bool
build_object_line(const char *line, size_t len)
{
	size_t	 i = 2, start;

	if (len < 5 || line[0] != ' ' || line[1] != ' ' ||
	    line[2] < 'A' || line[2] > 'Z')
		return false;
	while (i < len && ((line[i] >= 'A' && line[i] <= 'Z') ||
	    (line[i] >= '0' && line[i] <= '9') || line[i] == '_'))
		i++;
	if (i + 4 <= len && strncmp(line + i, " [M]", 4) == 0)
		i += 4;
	if (i >= len || line[i] != ' ')
		return false;
	while (i < len && line[i] == ' ')
		i++;
	start = i;
	while (i < len && line[i] != ' ')
		i++;
	if (i != len || i == start)
		return false;
	return (len - start > 2 && (strcmp(line + len - 2, ".o") == 0 ||
	    strcmp(line + len - 2, ".a") == 0)) ||
	    (len - start > 3 && strcmp(line + len - 3, ".ko") == 0);
}

/* Whether line reports an error (the compiler's "error:", make's
 * "Error N", the assembler's "Error:"). */
static bool
build_error_line(const char *line)
{
	return strstr(line, "error:") != NULL || strstr(line,
	    "Error") != NULL;
}

/* proc_run's line callback: log it, count it, keep it for a failure. */
static void
build_line(void *arg, const char *line, size_t len)
{
	struct build_make	*m = arg;
	struct build		*b = m->b;
	char			**slot;
	double			 now;

	if (b->log != NULL)
		b->log(b->arg, line);
	if (m->capture) {
		strbuf_add(&m->out, line, len);
		strbuf_addc(&m->out, '\n');
	}
	if (m->nerrors < BUILD_ERR_LINES && build_error_line(line))
		m->errors[m->nerrors++] = xstrndup(line, len);
	slot = &m->tail[m->ntail++ % BUILD_TAIL_LINES];
	free(*slot);
	*slot = xstrndup(line, len);
	if (!m->count || !build_object_line(line, len))
		return;
	m->done++;
	now = clock_now();
	if (b->progress != NULL && now - m->last >= BUILD_PROGRESS_TICK) {
		m->last = now;
		b->progress(b->arg, "build", m->done, m->total);
	}
}

/* Free what a make run kept. */
static void
build_make_free(struct build_make *m)
{
	size_t	 i;

	for (i = 0; i < m->nerrors; i++)
		free(m->errors[i]);
	for (i = 0; i < BUILD_TAIL_LINES; i++)
		free(m->tail[i]);
	strbuf_free(&m->out);
	memset(m, 0, sizeof *m);
}

/* b->failure from a failed make: its first error lines, then its last
 * lines (those already among the errors said once). */
static void
build_failure(struct build *b, const struct build_make *m)
{
	struct strbuf	 sb;
	size_t		 i, n, first;

	strbuf_init(&sb);
	for (i = 0; i < m->nerrors; i++)
		strbuf_addf(&sb, "%s\n", m->errors[i]);
	n = m->ntail < BUILD_TAIL_LINES ? m->ntail : BUILD_TAIL_LINES;
	first = m->ntail - n;
	if (m->nerrors > 0 && n > 0)
		strbuf_adds(&sb, "...\n");
	for (i = first; i < m->ntail; i++)
		strbuf_addf(&sb, "%s\n", m->tail[i % BUILD_TAIL_LINES]);
	free(b->failure);
	b->failure = strbuf_detach(&sb);
}

/* The line naming a failure: the first error line, else the last line,
 * else "no output". */
static const char *
build_first_error(const struct build_make *m)
{
	if (m->nerrors > 0)
		return m->errors[0];
	if (m->ntail > 0)
		return m->tail[(m->ntail - 1) % BUILD_TAIL_LINES];
	return "no output";
}

/*
 * Run make -C TREE O=DIR ARCH=... with the extra arguments (what, a
 * NULL-terminated list: targets and variables) and name (for messages,
 * e.g. "make bzImage"). 0 when it exited 0; -1 with *cause ("cancelled",
 * or "NAME failed (exit N): FIRST ERROR LINE", b->failure set) otherwise.
 * m is filled by the caller (count, total, capture) and freed by it.
 */
static int
build_make(struct build *b, struct build_make *m, const char *name,
    const char *const *what, char **cause)
{
	struct proc_opts	 o;
	struct proc_result	 res;
	char			**argv, **env;
	size_t			 n = 0, i;
	int			 rc = -1;

	if (b->cancel != NULL && *b->cancel) {
		*cause = xstrdup("cancelled");
		return -1;
	}
	for (i = 0; what[i] != NULL; i++)
		;
	argv = xcalloc(i + 6, sizeof *argv);
	argv[n++] = xstrdup("make");
	argv[n++] = xasprintf("-C%s", b->tree);
	argv[n++] = xasprintf("O=%s", b->dir);
	argv[n++] = xasprintf("ARCH=%s", b->arch != NULL ? b->arch :
	    "x86_64");
	for (i = 0; what[i] != NULL; i++)
		argv[n++] = xstrdup(what[i]);
	env = build_env(b);
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.envp = env;
	o.line = build_line;
	o.arg = m;
	o.cancel = b->cancel;
	m->b = b;
	if (proc_run(&o, &res, cause) != 0)
		goto out;
	if (res.cancelled) {
		*cause = xstrdup("cancelled");
		goto out;
	}
	if (res.exit_code != 0) {
		build_failure(b, m);
		*cause = xasprintf("%s failed (exit %d): %s", name,
		    res.exit_code, build_first_error(m));
		goto out;
	}
	rc = 0;
out:
	strv_free(argv);
	strv_free(env);
	return rc;
}

/* qsort's comparison of two strings. */
static int
build_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The option lines of a .config text, sorted: lines that are neither
 * empty nor comments, and the "# CONFIG_FOO is not set" comments. */
static char **
build_option_lines(const char *text, size_t *count)
{
	char		**v = NULL;
	size_t		 n = 0, cap = 0, len;
	const char	*p, *end;

	for (p = text; *p != '\0'; p = *end == '\n' ? end + 1 : end) {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		len = (size_t)(end - p);
		if (len == 0 || (p[0] == '#' && !(len > 13 &&
		    strncmp(p, "# ", 2) == 0 &&
		    strncmp(end - 11, " is not set", 11) == 0)))
			continue;
		if (n == cap)
			v = xrealloc(v, (cap = cap ? cap * 2 : 256) * sizeof *v);
		v[n++] = xstrndup(p, len);
	}
	if (n > 0)
		qsort(v, n, sizeof *v, build_cmp_str);
	*count = n;
	return v;
}

/* Free n strings and their array. */
static void
build_free_lines(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Whether two .config texts set different options: their option lines
 * compared as sets, so conf's header (date, version) and section
 * comments do not count, nor the order. */
static bool
build_config_differs(const char *a, const char *b)
{
	char	**va, **vb;
	size_t	 na, nb, i;
	bool	 differs;

	va = build_option_lines(a, &na);
	vb = build_option_lines(b, &nb);
	differs = na != nb;
	for (i = 0; !differs && i < na; i++)
		differs = strcmp(va[i], vb[i]) != 0;
	build_free_lines(va, na);
	build_free_lines(vb, nb);
	return differs;
}

/*
 * Put config in DIR/.config and run "make O=DIR olddefconfig". DIR/.config
 * is rewritten only when its text differs (an unchanged file keeps its
 * time, so make sees nothing new). conf keeps what it replaced as
 * DIR/.config.old: after a run that changed something, that is the given
 * config; when conf changed nothing it writes nothing, and .config.old is
 * whatever an earlier round left.
 */
int
build_config(struct build *b, const char *config, bool *changed,
    char **cause)
{
	static const char *const what[] = { "olddefconfig", NULL };
	struct build_make	 m;
	char			*text, *old, *after = NULL, *path;
	int			 rc = -1;

	*changed = false;
	if (b->progress != NULL)
		b->progress(b->arg, "config", 0, 0);
	if ((text = file_read_regular(config, NULL)) == NULL) {
		*cause = xasprintf("%s: %s", config, strerror(errno));
		return -1;
	}
	path = xasprintf("%s/.config", b->dir);
	if (path_mkdir_p(b->dir, 0777, cause) != 0)
		goto out;
	old = file_read_all(path, NULL);
	if ((old == NULL || strcmp(old, text) != 0) && file_write_atomic(path,
	    text, strlen(text), 0666, 0, cause) != 0) {
		free(old);
		goto out;
	}
	free(old);
	memset(&m, 0, sizeof m);
	rc = build_make(b, &m, "make olddefconfig", what, cause);
	build_make_free(&m);
	if (rc != 0)
		goto out;
	rc = -1;
	if ((after = file_read_all(path, NULL)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	*changed = build_config_differs(text, after);
	rc = 0;
out:
	free(after);
	free(path);
	free(text);
	return rc;
}

/* Remove path and everything below it, never following a symbolic link
 * (modules_install leaves "build" and "source" links to the trees);
 * nothing to do if it does not exist. -1 with *cause. */
static int
build_rmtree(const char *path, char **cause)
{
	char		*paths[2] = { (char *)path, NULL };
	struct stat	 st;
	FTSENT		*e;
	FTS		*fts;
	int		 rc = 0, err = 0;

	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	if ((fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV,
	    NULL)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = fts_read(fts)) != NULL) {
		switch (e->fts_info) {
		case FTS_D:
			continue;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			err = e->fts_errno;
			rc = -1;
			break;
		case FTS_DP:
			if (rmdir(e->fts_accpath) != 0)
				err = errno, rc = -1;
			break;
		default:
			if (unlink(e->fts_accpath) != 0)
				err = errno, rc = -1;
			break;
		}
		if (rc != 0)
			*cause = xasprintf("removing %s: %s", e->fts_path,
			    strerror(err));
	}
	fts_close(fts);
	return rc;
}

/* Whether DIR/.config sets CONFIG_MODULES=y; -1 with *cause if it cannot
 * be read. */
static int
build_has_modules(const struct build *b, bool *modules, char **cause)
{
	char	*path = xasprintf("%s/.config", b->dir), *text;

	if ((text = file_read_all(path, NULL)) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	*modules = strncmp(text, "CONFIG_MODULES=y\n", 17) == 0 ||
	    strstr(text, "\nCONFIG_MODULES=y\n") != NULL;
	free(text);
	free(path);
	return 0;
}

/* The object count of DIR's last full build, 0 if unknown. */
static long
build_objects_total(const struct build *b)
{
	char	*path = xasprintf("%s/%s", b->dir, BUILD_OBJECTS_FILE);
	char	*text = file_read_all(path, NULL);
	long	 n = text != NULL ? strtol(text, NULL, 10) : 0;

	free(text);
	free(path);
	return n > 0 ? n : 0;
}

/*
 * make -jN bzImage (and modules): b->objects counted from its output,
 * progress on the way; after a full build (no vmlinux before it) the count
 * is kept in DIR/.kctui-objects as the next rounds' total. cc is the CC=
 * argument or NULL.
 */
static int
build_compile(struct build *b, bool modules, const char *cc, char **cause)
{
	struct build_make	 m;
	const char		*what[5];
	char			*jobs, *vmlinux, *path, *count;
	struct stat		 st;
	size_t			 n = 0;
	bool			 full;
	int			 rc;

	jobs = xasprintf("-j%d", b->jobs > 1 ? b->jobs : 1);
	what[n++] = jobs;
	if (cc != NULL)
		what[n++] = cc;
	what[n++] = "bzImage";
	if (modules)
		what[n++] = "modules";
	what[n] = NULL;
	vmlinux = xasprintf("%s/vmlinux", b->dir);
	full = stat(vmlinux, &st) != 0;
	free(vmlinux);
	memset(&m, 0, sizeof m);
	m.count = true;
	m.total = build_objects_total(b);
	if (b->progress != NULL)
		b->progress(b->arg, "build", 0, m.total);
	rc = build_make(b, &m, modules ? "make bzImage modules" :
	    "make bzImage", what, cause);
	b->objects = m.done;
	if (rc == 0 && b->progress != NULL)
		b->progress(b->arg, "build", m.done, m.total > m.done ?
		    m.total : m.done);
	if (rc == 0 && full && m.done > 0) {
		path = xasprintf("%s/%s", b->dir, BUILD_OBJECTS_FILE);
		count = xasprintf("%ld\n", m.done);
		rc = file_write_atomic(path, count, strlen(count), 0666, 0,
		    cause);
		free(count);
		free(path);
	}
	build_make_free(&m);
	free(jobs);
	return rc;
}

/* make modules_install into DIR/staging, emptied first (stripped; depmod
 * as the kernel's Makefile runs it). Sets b->staging. */
static int
build_install(struct build *b, const char *cc, char **cause)
{
	struct build_make	 m;
	const char		*what[5];
	char			*staging, *mod_path;
	size_t			 n = 0;
	int			 rc;

	if (b->progress != NULL)
		b->progress(b->arg, "install", 0, 0);
	staging = xasprintf("%s/staging", b->dir);
	if (build_rmtree(staging, cause) != 0) {
		free(staging);
		return -1;
	}
	mod_path = xasprintf("INSTALL_MOD_PATH=%s", staging);
	if (cc != NULL)
		what[n++] = cc;
	what[n++] = "modules_install";
	what[n++] = mod_path;
	what[n++] = "INSTALL_MOD_STRIP=1";
	what[n] = NULL;
	memset(&m, 0, sizeof m);
	rc = build_make(b, &m, "make modules_install", what, cause);
	build_make_free(&m);
	free(mod_path);
	if (rc == 0)
		b->staging = staging;
	else
		free(staging);
	return rc;
}

/* b->release from "make -s kernelrelease": its last non-empty line. */
static int
build_release(struct build *b, const char *cc, char **cause)
{
	struct build_make	 m;
	const char		*what[5];
	char			*s, *end, *start;
	size_t			 n = 0;
	int			 rc;

	what[n++] = "-s";
	what[n++] = "--no-print-directory";
	if (cc != NULL)
		what[n++] = cc;
	what[n++] = "kernelrelease";
	what[n] = NULL;
	memset(&m, 0, sizeof m);
	strbuf_init(&m.out);
	m.capture = true;
	rc = build_make(b, &m, "make kernelrelease", what, cause);
	if (rc == 0 && m.out.len == 0) {
		*cause = xstrdup("make kernelrelease printed nothing");
		rc = -1;
	} else if (rc == 0) {
		s = m.out.s;
		end = s + m.out.len;
		while (end > s && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (start = end; start > s && start[-1] != '\n'; start--)
			;
		if (start == end) {
			*cause = xstrdup("make kernelrelease printed nothing");
			rc = -1;
		} else
			b->release = xstrndup(start, (size_t)(end - start));
	}
	build_make_free(&m);
	return rc;
}

/* Forget the results of an earlier build_kernel. */
static void
build_clear(struct build *b)
{
	free(b->release);
	free(b->bzimage);
	free(b->staging);
	free(b->failure);
	b->release = b->bzimage = b->staging = b->failure = NULL;
	b->objects = 0;
	b->seconds = 0;
}

/* make bzImage (and modules, modules_install into DIR/staging) in DIR,
 * whose .config build_config made; see verify.h. */
int
build_kernel(struct build *b, char **cause)
{
	struct stat	 st;
	double		 t0 = clock_now();
	const char	*hosts;
	char		*cc = NULL;
	bool		 modules;
	int		 rc = -1;

	build_clear(b);
	if (build_has_modules(b, &modules, cause) != 0)
		return -1;
	/* ccache when installed; distcc when the user set DISTCC_HOSTS
	 * (through ccache's prefix when both: cached objects are never
	 * sent); icecc through CCACHE_PREFIX=icecc, as ccache documents. */
	hosts = envp_get(b->envp != NULL ? b->envp : environ,
	    "DISTCC_HOSTS");
	b->distcc = hosts != NULL && *hosts != '\0' && proc_have("distcc");
	b->ccache = !b->no_ccache && proc_have("ccache");
	if (b->ccache)
		cc = xstrdup("CC=ccache gcc");
	else if (b->distcc)
		cc = xstrdup("CC=distcc gcc");
	if (build_compile(b, modules, cc, cause) != 0)
		goto out;
	if (modules && build_install(b, cc, cause) != 0)
		goto out;
	if (build_release(b, cc, cause) != 0)
		goto out;
	b->bzimage = xasprintf("%s/arch/%s/boot/bzImage", b->dir,
	    build_srcarch(b->arch));
	if (stat(b->bzimage, &st) != 0) {
		*cause = xasprintf("%s: %s (make bzImage succeeded)",
		    b->bzimage, strerror(errno));
		free(b->bzimage);
		b->bzimage = NULL;
		goto out;
	}
	rc = 0;
out:
	free(cc);
	b->seconds = clock_now() - t0;
	return rc;
}

/* Free the results of build_kernel (the caller's fields are its own). */
void
build_free(struct build *b)
{
	build_clear(b);
}
