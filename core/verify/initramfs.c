/* SPDX-License-Identifier: GPL-2.0 */
/*
 * initramfs.c - the guest's initramfs, written as an uncompressed newc
 * ("070701") cpio archive by this file itself: busybox-static and its
 * applets, Debian's kmod as modprobe & co with the shared libraries its
 * ELF dynamic section needs, the staged modules tree, /init
 * (verify-init.sh), the workload and its helpers (C sources compiled
 * static). Entries are sorted, owned by root, dated 0, so that the same
 * inputs give the same archive; the file is replaced atomically.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>

#include "../../lib/beneath.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/sandbox.h"
#include "../../lib/util.h"
#include "verify.h"

/* One archive member; name has no leading '/'. */
struct ir_entry {
	char		*name;
	mode_t		 mode;		/* type and permissions */
	char		*src;		/* regular file: copied from here */
	const char	*data;		/* ... or this */
	char		*own;		/* data, when the entry owns it */
	size_t		 len;
	char		*target;	/* symlink */
	unsigned	 rmajor, rminor;
	size_t		 seq;		/* order added: the last one wins */
};

struct ir {
	struct ir_entry	*v;
	size_t		 n, cap;
};

/* Libraries are looked for here, in this order. */
static const char *const ir_libdirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
	"/usr/lib64", "/lib", "/usr/lib",
};

/* A new entry (its parent directories come with ir_dirs). */
static struct ir_entry *
ir_add(struct ir *ir, const char *name, mode_t mode)
{
	struct ir_entry	*e;

	while (*name == '/')
		name++;
	if (ir->n == ir->cap) {
		ir->cap = ir->cap == 0 ? 256 : ir->cap * 2;
		ir->v = xrealloc(ir->v, ir->cap * sizeof *ir->v);
	}
	e = &ir->v[ir->n];
	memset(e, 0, sizeof *e);
	e->name = xstrdup(name);
	e->mode = mode;
	e->seq = ++ir->n;	/* 0 is for ir_finish's directories */
	return e;
}

/* A directory. */
static void
ir_dir(struct ir *ir, const char *name, mode_t perm)
{
	ir_add(ir, name, S_IFDIR | perm);
}

/* A symlink name -> target. */
static void
ir_symlink(struct ir *ir, const char *name, const char *target)
{
	ir_add(ir, name, S_IFLNK | 0777)->target = xstrdup(target);
}

/* A regular file copied from src. */
static void
ir_file(struct ir *ir, const char *name, const char *src, mode_t perm)
{
	ir_add(ir, name, S_IFREG | perm)->src = xstrdup(src);
}

/* A regular file with the given content (kept by the caller). */
static void
ir_data(struct ir *ir, const char *name, const char *data, size_t len,
    mode_t perm)
{
	struct ir_entry	*e = ir_add(ir, name, S_IFREG | perm);

	e->data = data;
	e->len = len;
}

/* A regular file holding buf, which the archive now owns. */
static void
ir_data_own(struct ir *ir, const char *name, char *buf, size_t len,
    mode_t perm)
{
	struct ir_entry	*e = ir_add(ir, name, S_IFREG | perm);

	e->data = e->own = buf;
	e->len = len;
}

/* A character device node. */
static void
ir_chardev(struct ir *ir, const char *name, unsigned maj, unsigned min,
    mode_t perm)
{
	struct ir_entry	*e = ir_add(ir, name, S_IFCHR | perm);

	e->rmajor = maj;
	e->rminor = min;
}

/* Sort by name, the last added first among equal names. */
static int
ir_cmp(const void *a, const void *b)
{
	const struct ir_entry *x = a, *y = b;
	int		 c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* Free one entry's strings. */
static void
ir_entry_free(struct ir_entry *e)
{
	free(e->name);
	free(e->src);
	free(e->own);
	free(e->target);
}

/* Add every missing parent directory, sort, and keep the last entry of
 * each name. */
static void
ir_finish(struct ir *ir)
{
	size_t	 i, j, n = ir->n;
	char	*p, *slash;

	for (i = 0; i < n; i++) {
		p = xstrdup(ir->v[i].name);
		while ((slash = strrchr(p, '/')) != NULL) {
			*slash = '\0';
			ir_add(ir, p, S_IFDIR | 0755)->seq = 0;
		}
		free(p);
	}
	qsort(ir->v, ir->n, sizeof *ir->v, ir_cmp);
	for (i = j = 0; i < ir->n; i++) {
		if (j > 0 && strcmp(ir->v[j - 1].name, ir->v[i].name) == 0) {
			ir_entry_free(&ir->v[i]);
			continue;
		}
		ir->v[j++] = ir->v[i];
	}
	ir->n = j;
}

/* Free the list. */
static void
ir_free(struct ir *ir)
{
	size_t	i;

	for (i = 0; i < ir->n; i++)
		ir_entry_free(&ir->v[i]);
	free(ir->v);
}

/* ------------------------------------------------------------ writing */

/* One newc header and name, padded to 4 bytes. */
static void
ir_header(struct atomic_file *af, unsigned long ino, const char *name,
    mode_t mode, unsigned long nlink, unsigned long size, unsigned rmaj,
    unsigned rmin)
{
	static const char zeros[4];
	size_t		 namesize = strlen(name) + 1;
	char		*h;

	h = xasprintf("070701%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX%08lX"
	    "%08X%08X%08lX%08lX", ino, (unsigned long)mode, 0UL, 0UL, nlink,
	    0UL, size, 0UL, 0UL, rmaj, rmin, (unsigned long)namesize, 0UL);
	atomic_write(af, h, 110);
	atomic_write(af, name, namesize);
	atomic_write(af, zeros, (4 - (110 + namesize) % 4) % 4);
	free(h);
}

/* Copy a regular file's content (size bytes) into the archive. */
static int
ir_copy(struct atomic_file *af, const struct ir_entry *e, off_t size,
    int fd, char **cause)
{
	size_t		 bufsize = 1 << 16;
	char		*buf = xmalloc(bufsize);
	off_t		 left = size;
	ssize_t		 r;

	while (left > 0) {
		r = read(fd, buf, left < (off_t)bufsize ? (size_t)left :
		    bufsize);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*cause = xasprintf("%s: %s", e->src, r < 0 ?
			    strerror(errno) : "changed while being read");
			free(buf);
			return -1;
		}
		atomic_write(af, buf, r);
		left -= r;
	}
	free(buf);
	return 0;
}

/* One member: header, then content or link target, padded. */
static int
ir_write_entry(struct atomic_file *af, const struct ir_entry *e,
    unsigned long ino, char **cause)
{
	static const char zeros[4];
	struct stat	 st;
	size_t		 size = 0;
	int		 fd = -1, rc = 0;

	if (e->src != NULL) {
		if ((fd = open(e->src, O_RDONLY | O_CLOEXEC)) < 0 ||
		    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			*cause = xasprintf("%s: %s", e->src, fd < 0 ||
			    errno != 0 ? strerror(errno) : "not a file");
			if (fd >= 0)
				close(fd);
			return -1;
		}
		size = st.st_size;
	} else if (e->target != NULL)
		size = strlen(e->target);
	else if (S_ISREG(e->mode))
		size = e->len;
	ir_header(af, ino, e->name, e->mode, S_ISDIR(e->mode) ? 2 : 1, size,
	    e->rmajor, e->rminor);
	if (fd >= 0) {
		rc = ir_copy(af, e, size, fd, cause);
		close(fd);
	} else if (e->target != NULL)
		atomic_write(af, e->target, size);
	else if (size > 0)
		atomic_write(af, e->data, size);
	atomic_write(af, zeros, (4 - size % 4) % 4);
	return rc;
}

/* The archive, replacing path atomically. */
static int
ir_write(const struct ir *ir, const char *path, char **cause)
{
	struct atomic_file af;
	size_t		 i;

	if (atomic_open(&af, path, 0644, ATOMIC_MKDIRS, cause) != 0)
		return -1;
	for (i = 0; i < ir->n; i++) {
		if (ir_write_entry(&af, &ir->v[i], i + 1, cause) != 0) {
			atomic_abort(&af);
			return -1;
		}
	}
	ir_header(&af, 0, "TRAILER!!!", 0, 1, 0, 0, 0);
	return atomic_commit(&af, cause);
}

/* ---------------------------------------------------------------- ELF */

/* The ELF file's interpreter (PT_INTERP, malloc'd, NULL if static) and,
 * when needed != NULL, its DT_NEEDED names appended to *needed. */
static int
ir_elf(const char *path, char **interp, char ***needed, size_t *nneeded,
    char **cause)
{
	Elf		*e;
	Elf_Scn		*scn = NULL;
	GElf_Phdr	 ph;
	GElf_Shdr	 sh;
	GElf_Dyn	 dyn;
	Elf_Data	*d;
	size_t		 i, nph;
	const char	*s;
	int		 fd, j;

	*interp = NULL;
	elf_version(EV_CURRENT);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e,
	    &nph) != 0) {
		*cause = xasprintf("%s: not an ELF program (%s)", path,
		    elf_errmsg(-1));
		if (e != NULL)
			elf_end(e);
		close(fd);
		return -1;
	}
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(e, i, &ph) != NULL && ph.p_type == PT_INTERP &&
		    *interp == NULL) {
			s = elf_rawfile(e, NULL);
			if (s != NULL && ph.p_filesz > 0)
				*interp = xstrndup(s + ph.p_offset,
				    ph.p_filesz);
		}
	}
	while (needed != NULL && (scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		for (j = 0; d != NULL && gelf_getdyn(d, j, &dyn) != NULL; j++) {
			if (dyn.d_tag != DT_NEEDED || (s = elf_strptr(e,
			    sh.sh_link, dyn.d_un.d_val)) == NULL)
				continue;
			*needed = xrealloc(*needed, (*nneeded + 1) *
			    sizeof **needed);
			(*needed)[(*nneeded)++] = xstrdup(s);
		}
	}
	elf_end(e);
	close(fd);
	return 0;
}

/* Where a library named lib is on this host (malloc'd), or NULL. */
static char *
ir_find_lib(const char *lib)
{
	size_t	 i;
	char	*p;

	for (i = 0; i < sizeof ir_libdirs / sizeof *ir_libdirs; i++) {
		p = xasprintf("%s/%s", ir_libdirs[i], lib);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

/*
 * A dynamic program at name in the archive: its PT_INTERP loader at its
 * own path, and every DT_NEEDED library (and theirs) in
 * /lib/x86_64-linux-gnu.
 */
static int
ir_program(struct ir *ir, const char *name, const char *path, char **cause)
{
	char	**needed = NULL, *interp = NULL, *lib, *in, *dummy;
	size_t	  nneeded = 0, i, k;
	int	  rc;

	ir_file(ir, name, path, 0755);
	rc = ir_elf(path, &interp, &needed, &nneeded, cause);
	if (rc == 0 && interp != NULL)
		ir_file(ir, interp, interp, 0755);
	for (i = 0; rc == 0 && i < nneeded; i++) {
		for (k = 0; k < i && strcmp(needed[k], needed[i]) != 0; k++)
			;
		if (k < i)
			continue;	/* already there */
		if ((lib = ir_find_lib(needed[i])) == NULL) {
			*cause = xasprintf("%s: needs %s, not found in "
			    "/lib/x86_64-linux-gnu and the like", path,
			    needed[i]);
			rc = -1;
			break;
		}
		in = xasprintf("lib/x86_64-linux-gnu/%s", needed[i]);
		ir_file(ir, in, lib, 0755);
		rc = ir_elf(lib, &dummy, &needed, &nneeded, cause);
		free(dummy);
		free(in);
		free(lib);
	}
	for (i = 0; i < nneeded; i++)
		free(needed[i]);
	free(needed);
	free(interp);
	return rc;
}

/* ---------------------------------------------------------- contents */

/* A line of "busybox --list-full": an applet's path. */
struct ir_applets {
	struct ir	*ir;
	struct strbuf	 out;	/* everything it printed, for errors */
};

/* Each line busybox lists becomes a symlink to /bin/busybox. */
static void
ir_applet_line(void *arg, const char *line, size_t len)
{
	struct ir_applets *a = arg;
	char		*name;

	strbuf_add(&a->out, line, len);
	strbuf_addc(&a->out, '\n');
	while (len > 0 && *line == '/') {
		line++;
		len--;
	}
	if (len == 0 || memchr(line, ' ', len) != NULL)
		return;
	name = xstrndup(line, len);
	if (strcmp(name, "bin/busybox") != 0 && strstr(name, "..") == NULL)
		ir_symlink(a->ir, name, "/bin/busybox");
	free(name);
}

/* busybox (static) as /bin/busybox and a symlink for each applet. */
static int
ir_busybox(struct ir *ir, const char *busybox, char **cause)
{
	struct ir_applets a;
	struct proc_opts o;
	struct proc_result r;
	char		*interp, *argv[] = { (char *)busybox, "--list-full",
			    NULL };

	if (ir_elf(busybox, &interp, NULL, NULL, cause) != 0)
		return -1;
	if (interp != NULL) {
		free(interp);
		*cause = xasprintf("%s is not static (apt-get install "
		    "busybox-static)", busybox);
		return -1;
	}
	ir_file(ir, "bin/busybox", busybox, 0755);
	memset(&o, 0, sizeof o);
	a.ir = ir;
	strbuf_init(&a.out);
	o.argv = argv;
	o.timeout = 30;
	o.line = ir_applet_line;
	o.arg = &a;
	if (proc_run(&o, &r, cause) != 0) {
		strbuf_free(&a.out);
		return -1;
	}
	if (r.exit_code != 0) {
		*cause = xasprintf("%s --list-full: exit %d: %s", busybox,
		    r.exit_code, a.out.s != NULL ? a.out.s : "");
		strbuf_free(&a.out);
		return -1;
	}
	strbuf_free(&a.out);
	return 0;
}

/* kmod as /bin/kmod, modprobe & co linked to it, its libraries. */
static int
ir_kmod(struct ir *ir, const char *kmod, char **cause)
{
	static const char *const tools[] = {
		"modprobe", "insmod", "rmmod", "lsmod", "modinfo", "depmod",
	};
	size_t	 i;
	char	*name;

	if (ir_program(ir, "bin/kmod", kmod, cause) != 0)
		return -1;
	for (i = 0; i < sizeof tools / sizeof *tools; i++) {
		name = xasprintf("sbin/%s", tools[i]);
		ir_symlink(ir, name, "/bin/kmod");
		free(name);
		/* busybox's own module applets would shadow kmod in PATH */
		name = xasprintf("bin/%s", tools[i]);
		ir_symlink(ir, name, "/bin/kmod");
		free(name);
	}
	if (access("/lib/modprobe.d/aliases.conf", R_OK) == 0)
		ir_file(ir, "lib/modprobe.d/aliases.conf",
		    "/lib/modprobe.d/aliases.conf", 0644);
	return 0;
}

/* Everything below host directory dir as name in the archive: files,
 * symlinks, directories; at the top, skip the "build" and "source"
 * links of a modules tree. */
static int
ir_tree(struct ir *ir, const char *dir, const char *name, bool top,
    char **cause)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p, *n, *t;
	int		 rc = 0;

	if ((d = opendir(dir)) == NULL) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return -1;
	}
	ir_dir(ir, name, 0755);
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 || (top &&
		    (strcmp(de->d_name, "build") == 0 ||
		    strcmp(de->d_name, "source") == 0)))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		n = xasprintf("%s/%s", name, de->d_name);
		if (lstat(p, &st) != 0) {
			*cause = xasprintf("%s: %s", p, strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode))
			rc = ir_tree(ir, p, n, false, cause);
		else if (S_ISREG(st.st_mode))
			ir_file(ir, n, p, st.st_mode & 07777);
		else if (S_ISLNK(st.st_mode)) {
			t = xcalloc(1, st.st_size + 1);
			if (readlink(p, t, st.st_size) == st.st_size)
				ir_symlink(ir, n, t);
			free(t);
		}
		free(p);
		free(n);
	}
	closedir(d);
	return rc;
}

/* Keep what the compiler printed, for the error. */
static void
ir_cc_line(void *arg, const char *line, size_t len)
{
	struct strbuf	*sb = arg;

	if (sb->len < 4096) {
		strbuf_add(sb, line, len);
		strbuf_addc(sb, '\n');
	}
}

/* The compiler's limits: a helper of a few hundred lines needs a small
 * part of each. */
#define IR_CC_MEMORY	(1ULL << 30)	/* address space, bytes */
#define IR_CC_CPU	120		/* seconds */
#define IR_CC_OUTPUT	(64ULL << 20)	/* any file written, bytes */

/* proc_run's setup: into the sandbox (lib/sandbox.h). */
static int
ir_sandbox_enter(void *arg)
{
	return sandbox_enter(arg);
}

/* Compile a helper's C source static into scratch/name; with box, in
 * that sandbox (the bundle's own C: it sees the system's headers and
 * libraries, the scratch directory, nothing else of the host). */
static int
ir_compile(const char *src, const char *out, const struct sandbox *box,
    char **cause)
{
	struct proc_opts o;
	struct proc_result r;
	struct strbuf	 msg;
	char		*why;
	char		*argv[] = { "cc", "-static", "-O2", "-o", (char *)out,
			    (char *)src, NULL };

	memset(&o, 0, sizeof o);
	strbuf_init(&msg);
	o.argv = argv;
	o.timeout = 300;
	o.line = ir_cc_line;
	o.arg = &msg;
	/* somebody else's source: #include "/dev/zero" took cc1 to 1 GB */
	o.limit_as = IR_CC_MEMORY;
	o.limit_cpu = IR_CC_CPU;
	o.limit_fsize = IR_CC_OUTPUT;
	if (box != NULL) {
		o.setup = ir_sandbox_enter;
		o.setup_arg = (void *)box;
	}
	if (proc_run(&o, &r, cause) != 0) {
		if (box != NULL) {
			why = *cause;
			*cause = xasprintf("%s: not compiled: no sandbox for "
			    "the bundle's C could be made here (user and "
			    "mount namespaces): %s", src, why);
			free(why);
		}
		strbuf_free(&msg);
		return -1;
	}
	if (r.exit_code != 0) {
		*cause = xasprintf("%s: cc -static failed (exit %d)%s%s", src,
		    r.exit_code, msg.len > 0 ? ":\n" : "",
		    msg.len > 0 ? msg.s : "");
		strbuf_free(&msg);
		return -1;
	}
	strbuf_free(&msg);
	return 0;
}

/* Compile a helper's source text (read from the bundle, following
 * nothing) as scratch/src/base.c, static, into scratch/base: cc is given
 * our copy, never a name in the bundle. */
static int
ir_compile_text(const char *scratch, const char *base, const char *text,
    size_t len, bool sandboxed, char **cause)
{
	struct sandbox	 box;
	char		*srcdir, *src, *out, *root = NULL, *abs = NULL;
	int		 rc;

	srcdir = xasprintf("%s/src", scratch);
	src = xasprintf("%s/%s.c", srcdir, base);
	out = xasprintf("%s/%s", scratch, base);
	rc = path_mkdir_p(srcdir, 0755, cause);
	if (rc == 0)
		rc = file_write_atomic(src, text, len, 0644, 0, cause);
	if (rc == 0 && sandboxed) {
		/* the sandbox binds the scratch directory at its own path:
		 * an absolute one; its root is an empty directory beside it */
		if ((abs = realpath(scratch, NULL)) == NULL) {
			*cause = xasprintf("%s: %s", scratch, strerror(errno));
			rc = -1;
		} else {
			root = xasprintf("%s.sandbox", abs);
			if (mkdir(root, 0700) != 0 && errno != EEXIST) {
				*cause = xasprintf("%s: %s", root,
				    strerror(errno));
				rc = -1;
			}
		}
		memset(&box, 0, sizeof box);
		box.ro = sandbox_cc_paths;
		box.rw = abs;
		box.root = root;
	}
	if (rc == 0)
		rc = ir_compile(src, out, sandboxed ? &box : NULL, cause);
	if (root != NULL)
		rmdir(root);
	free(root);
	free(abs);
	free(srcdir);
	free(src);
	free(out);
	return rc;
}

/* Whether a helper's text is one kctui ships, name and bytes. */
static bool
ir_shipped(const char *name, const char *text, size_t len)
{
	size_t	i;

	for (i = 0; i < verify_nhelpers; i++)
		if (strcmp(verify_helpers[i].name, name) == 0 &&
		    verify_helpers[i].len == len &&
		    memcmp(verify_helpers[i].text, text, len) == 0)
			return true;
	return false;
}

/* The bundle's own C files of dir (see verify.h). */
char *
initramfs_bundle_c(const char *dir)
{
	struct dirent	**list;
	struct strbuf	 sb;
	char		*buf, *shown;
	size_t		 len, blen;
	int		 i, count, dfd, fd;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return NULL;
	if ((count = scandir(dir, &list, NULL, alphasort)) < 0) {
		close(dfd);
		return NULL;
	}
	strbuf_init(&sb);
	for (i = 0; i < count; i++) {
		len = strlen(list[i]->d_name);
		if (list[i]->d_name[0] != '.' && len > 2 &&
		    strcmp(list[i]->d_name + len - 2, ".c") == 0) {
			buf = NULL;
			fd = beneath_openat(dfd, list[i]->d_name, O_RDONLY |
			    O_NONBLOCK);
			if (fd >= 0)
				buf = fd_read_all(fd, &blen, true);
			if (buf == NULL || !ir_shipped(list[i]->d_name, buf,
			    blen)) {
				shown = xasprintf("%s/%s", dir,
				    list[i]->d_name);
				strbuf_addf(&sb, "%s%s", sb.len > 0 ? " " : "",
				    shown);
				free(shown);
			}
			free(buf);
		}
		free(list[i]);
	}
	free(list);
	close(dfd);
	return sb.len > 0 ? strbuf_detach(&sb) : (strbuf_free(&sb), NULL);
}

/*
 * The workload's helpers in /usr/local/bin: NAME.c compiled static, other
 * regular files copied with their mode. Each is opened below dir without
 * following a link (lib/beneath.h): a link in a bundle's workload.d is an
 * error naming it, never its target copied into the guest. A NAME.c that
 * is not one of kctui's own helpers (byte for byte) is compiled on this
 * host only when the user asked (build_bundle_c, --build-bundle-helpers),
 * and then with limits on the compiler's memory, time and output.
 */
static int
ir_helpers(struct ir *ir, const char *dir, const char *scratch,
    bool build_bundle_c, char **cause)
{
	struct dirent	**list;
	struct stat	 st;
	const char	*name;
	char		*n, *base, *buf, *shown;
	size_t		 len, blen;
	int		 i, count, dfd, fd, rc = 0;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0) {
		*cause = beneath_strerror(dir, errno);
		return -1;
	}
	if ((count = scandir(dir, &list, NULL, alphasort)) < 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		close(dfd);
		return -1;
	}
	for (i = 0; i < count; i++) {
		name = list[i]->d_name;
		len = strlen(name);
		if (rc != 0 || name[0] == '.')
			goto next;
		shown = xasprintf("%s/%s", dir, name);
		fd = beneath_openat(dfd, name, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			*cause = beneath_strerror(shown, errno);
			rc = -1;
		} else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
			close(fd);	/* directories, FIFOs: not helpers */
		else if ((buf = fd_read_all(fd, &blen, true)) == NULL) {
			*cause = xasprintf("%s: %s", shown, strerror(errno));
			rc = -1;
		} else if (len > 2 && strcmp(name + len - 2, ".c") == 0 &&
		    !build_bundle_c && !ir_shipped(name, buf, blen)) {
			*cause = xasprintf("%s: the bundle's own C, not one of "
			    "kctui's helpers: it is compiled on this host only "
			    "with --build-bundle-helpers", shown);
			free(buf);
			rc = -1;
		} else if (len > 2 && strcmp(name + len - 2, ".c") == 0) {
			base = xstrndup(name, len - 2);
			n = xasprintf("usr/local/bin/%s", base);
			/* kctui's own helpers as they are; any other C of a
			 * bundle's in the sandbox */
			rc = ir_compile_text(scratch, base, buf, blen,
			    !ir_shipped(name, buf, blen), cause);
			if (rc == 0) {
				char *out = xasprintf("%s/%s", scratch, base);

				ir_file(ir, n, out, 0755);
				free(out);
			}
			free(buf);
			free(base);
			free(n);
		} else {
			n = xasprintf("usr/local/bin/%s", name);
			ir_data_own(ir, n, buf, blen, st.st_mode & 0777);
			free(n);
		}
		free(shown);
next:
		free(list[i]);
	}
	free(list);
	close(dfd);
	return rc;
}

/* The fixed skeleton: directories, device nodes, /etc, /init. */
static void
ir_base(struct ir *ir, const struct workload *w)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/sh\n";
	static const char group[] = "root:x:0:\n";
	static const char *const dirs[] = {
		"bin", "sbin", "usr/bin", "usr/sbin", "usr/local/bin", "lib",
		"etc/kctui", "proc", "sys", "dev", "run", "mnt", "var",
	};
	size_t	i;

	for (i = 0; i < sizeof dirs / sizeof *dirs; i++)
		ir_dir(ir, dirs[i], 0755);
	ir_dir(ir, "root", 0700);
	ir_dir(ir, "tmp", 01777);
	ir_chardev(ir, "dev/console", 5, 1, 0600);
	ir_chardev(ir, "dev/null", 1, 3, 0666);
	ir_data(ir, "etc/passwd", passwd, sizeof passwd - 1, 0644);
	ir_data(ir, "etc/group", group, sizeof group - 1, 0644);
	ir_data(ir, "init", verify_init_sh, strlen(verify_init_sh), 0755);
	if (w != NULL)
		ir_data(ir, "etc/kctui/workload", w->text, strlen(w->text),
		    0644);
}

/* A kernel without loadable modules: its modules.builtin (the build's,
 * a list of paths) as lib/modules/RELEASE/modules.builtin. */
static int
ir_builtin(struct ir *ir, const char *path, const char *release,
    char **cause)
{
	struct stat	 sb;
	char		*name;

	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		return -1;
	}
	name = xasprintf("lib/modules/%s/modules.builtin", release);
	ir_file(ir, name, path, 0644);
	free(name);
	return 0;
}

/* Write the initramfs (see verify.h); -1 with *cause, nothing left
 * half-written. */
int
initramfs_build(const struct initramfs *o, char **cause)
{
	struct ir	 ir;
	const char	*busybox = o->busybox != NULL ? o->busybox :
			    "/bin/busybox";
	char		*mods = NULL, *name = NULL, *scratch = NULL;
	int		 rc;

	memset(&ir, 0, sizeof ir);
	ir_base(&ir, o->workload);
	rc = ir_busybox(&ir, busybox, cause);
	/* kmod after busybox: its modprobe & co win over the applets */
	if (rc == 0)
		rc = ir_kmod(&ir, o->kmod != NULL ? o->kmod : "/bin/kmod",
		    cause);
	if (rc == 0 && o->staging != NULL && o->release != NULL) {
		mods = xasprintf("%s/lib/modules/%s", o->staging, o->release);
		name = xasprintf("lib/modules/%s", o->release);
		rc = ir_tree(&ir, mods, name, true, cause);
	}
	/* no modules: what is built in, for /init's modprobe stand-in */
	if (rc == 0 && o->staging == NULL && o->builtin != NULL &&
	    o->release != NULL)
		rc = ir_builtin(&ir, o->builtin, o->release, cause);
	if (o->userspace != NULL)
		ir_data(&ir, "etc/kctui/userspace", o->userspace,
		    strlen(o->userspace), 0644);
	if (rc == 0 && o->workload != NULL && o->workload->helpers != NULL) {
		scratch = o->scratch != NULL ? xstrdup(o->scratch) :
		    xasprintf("%s.helpers", o->out);
		rc = ir_helpers(&ir, o->workload->helpers, scratch,
		    o->build_bundle_c, cause);
	}
	if (rc == 0) {
		ir_finish(&ir);
		rc = ir_write(&ir, o->out, cause);
	}
	ir_free(&ir);
	free(mods);
	free(name);
	free(scratch);
	return rc;
}
