/* SPDX-License-Identifier: GPL-2.0 */
/*
 * measure.c - what a trim bought, read from the kernels built and the
 * baseline's package, no boot needed (measure.h): image, ELF sections,
 * system calls, modules, options.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "measure.h"

/* Directory depth of a module tree walk at most (kernel/drivers/net/
 * ethernet/intel/e1000e/e1000e.ko is 7 below lib/modules/REL). */
#define MEASURE_MAX_DEPTH	16

/* Every figure unknown. */
void
measure_init(struct measure *m, const char *label)
{
	memset(m, 0, sizeof *m);
	m->label = label;
	m->bzimage = m->text = m->data = m->bss = m->modules_bytes = -1;
	m->syscalls = m->modules = m->ym = -1;
}

/* An ELF file opened for reading, or NULL with *cause (*fd set). */
static Elf *
measure_elf_open(const char *path, int *fd, char **cause)
{
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		*cause = xasprintf("libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((e = elf_begin(*fd, ELF_C_READ, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF) {
		*cause = xasprintf("%s: not an ELF file", path);
		if (e != NULL)
			elf_end(e);
		close(*fd);
		return NULL;
	}
	return e;
}

/* text, data and bss as binutils' size (Berkeley format) counts them:
 * by the allocated sections' flags and types. */
int
measure_elf_sizes(const char *path, long long *text, long long *data,
    long long *bss, char **cause)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;
	Elf		*e;
	int		 fd;

	if ((e = measure_elf_open(path, &fd, cause)) == NULL)
		return -1;
	*text = *data = *bss = 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags &
		    SHF_ALLOC))
			continue;
		if (sh.sh_type == SHT_NOBITS)
			*bss += (long long)sh.sh_size;
		else if (sh.sh_flags & SHF_WRITE)
			*data += (long long)sh.sh_size;
		else
			*text += (long long)sh.sh_size;
	}
	elf_end(e);
	close(fd);
	return 0;
}

/* A function symbol: where, and whether it is a real system call. */
struct measure_fn {
	unsigned long long	addr;
	bool			real;
};

/* qsort: by address. */
static int
measure_fn_cmp(const void *a, const void *b)
{
	const struct measure_fn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Whether some function symbol at addr is a real system call (fns
 * sorted by address). */
static bool
measure_fn_real(const struct measure_fn *fns, size_t n, unsigned long long addr)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && fns[lo].addr == addr; lo++)
		if (fns[lo].real)
			return true;
	return false;
}

/* The table's entries that point to a real system call (the table's
 * bytes in its section, little or big endian as the file says). */
static long
measure_count_table(Elf *e, const GElf_Sym *table, const struct measure_fn *fns,
    size_t nfns, char **cause)
{
	Elf_Scn			*scn;
	Elf_Data		*d;
	GElf_Shdr		 sh;
	GElf_Ehdr		 eh;
	const unsigned char	*p;
	unsigned long long	 addr;
	size_t			 width, off, i, j;
	long			 n = 0;

	if (gelf_getehdr(e, &eh) == NULL ||
	    (scn = elf_getscn(e, table->st_shndx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS ||
	    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL ||
	    table->st_value < sh.sh_addr) {
		*cause = xstrdup("sys_call_table: its section cannot be read");
		return -1;
	}
	width = gelf_getclass(e) == ELFCLASS64 ? 8 : 4;
	off = (size_t)(table->st_value - sh.sh_addr);
	if (off > d->d_size || table->st_size > d->d_size - off) {
		*cause = xstrdup("sys_call_table: outside its section");
		return -1;
	}
	p = (const unsigned char *)d->d_buf + off;
	for (i = 0; i + width <= table->st_size; i += width) {
		addr = 0;
		for (j = 0; j < width; j++) {
			if (eh.e_ident[EI_DATA] == ELFDATA2MSB)
				addr = addr << 8 | p[i + j];
			else
				addr |= (unsigned long long)p[i + j] << (8 * j);
		}
		n += measure_fn_real(fns, nfns, addr);
	}
	return n;
}

/* The system calls compiled into an ELF (measure.h). */
long
measure_syscalls(const char *path, char **cause)
{
	Elf_Scn			*scn = NULL;
	Elf_Data		*d;
	GElf_Shdr		 sh;
	GElf_Sym		 sym, table;
	struct measure_fn	*fns = NULL;
	size_t			 nfns = 0, afns = 0, i, nsyms;
	const char		*name;
	bool			 found = false;
	long			 n = -1;
	Elf			*e;
	int			 fd;

	if ((e = measure_elf_open(path, &fd, cause)) == NULL)
		return -1;
	memset(&table, 0, sizeof table);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type !=
		    SHT_SYMTAB || sh.sh_entsize == 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		nsyms = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < nsyms; i++) {
			if (gelf_getsym(d, (int)i, &sym) == NULL ||
			    (name = elf_strptr(e, sh.sh_link,
			    sym.st_name)) == NULL)
				continue;
			if (strcmp(name, "sys_call_table") == 0) {
				table = sym;
				found = true;
				continue;
			}
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			if (nfns == afns) {
				afns = afns ? afns * 2 : 4096;
				fns = xrealloc(fns, afns * sizeof *fns);
			}
			fns[nfns].addr = sym.st_value;
			/* a COND_SYSCALL stub is weak; sys_ni_syscall is
			 * every unassigned number's */
			fns[nfns++].real = GELF_ST_BIND(sym.st_info) !=
			    STB_WEAK && strstr(name, "sys_ni_syscall") == NULL;
		}
	}
	if (!found || table.st_size == 0)
		*cause = xasprintf("%s: no sys_call_table symbol", path);
	else {
		qsort(fns, nfns, sizeof *fns, measure_fn_cmp);
		n = measure_count_table(e, &table, fns, nfns, cause);
	}
	free(fns);
	elf_end(e);
	close(fd);
	return n;
}

/* The system calls of System.map or kallsyms text (measure.h). */
long
measure_syscalls_map_text(const char *text)
{
	const char	*p;
	char		 type, name[256];
	long		 n = 0;
	bool		 seen = false;

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (sscanf(p, "%*s %c %255s", &type, name) != 2 ||
		    strncmp(name, "__x64_sys_", 10) != 0)
			continue;
		seen = true;
		if ((type == 'T' || type == 't') &&
		    strcmp(name + 10, "ni_syscall") != 0)
			n++;
	}
	/* Debian's System.map is a one-line placeholder: no symbols is
	 * not "no system calls" */
	return seen ? n : -1;
}

/* The system calls of a System.map file (measure.h). */
long
measure_syscalls_map(const char *path)
{
	char	*text;
	size_t	 len;
	long	 n;

	if ((text = file_read_all(path, &len)) == NULL)
		return -1;
	n = measure_syscalls_map_text(text);
	free(text);
	return n;
}

/* Whether a file name is a module's. */
static bool
measure_is_ko(const char *name)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.gz",
	    ".ko.zst" };
	size_t i, n = strlen(name), e;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0)
			return true;
	}
	return false;
}

/* Walk dir for modules, depth levels at most. */
static void
measure_walk(const char *dir, int depth, long *n, long long *bytes)
{
	struct dirent	*de;
	struct stat	 sb;
	DIR		*d;
	char		*p;

	if (depth > MEASURE_MAX_DEPTH || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		/* lstat: the build and source links of a module tree lead
		 * out of it */
		if (lstat(p, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				measure_walk(p, depth + 1, n, bytes);
			else if (S_ISREG(sb.st_mode) &&
			    measure_is_ko(de->d_name)) {
				(*n)++;
				*bytes += (long long)sb.st_size;
			}
		}
		free(p);
	}
	closedir(d);
}

/* The modules under dir (measure.h). */
void
measure_modules(const char *dir, long *n, long long *bytes)
{
	DIR *d;

	*n = -1;
	*bytes = -1;
	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	closedir(d);
	*n = 0;
	*bytes = 0;
	measure_walk(dir, 0, n, bytes);
}

/* The y/m lines of a config text. */
long
measure_ym_text(const char *config)
{
	const char	*p, *eq;
	long		 n = 0;

	for (p = config; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, "CONFIG_", 7) != 0 || (eq = strpbrk(p,
		    "=\n")) == NULL || *eq != '=')
			continue;
		if ((eq[1] == 'y' || eq[1] == 'm') && (eq[2] == '\n' ||
		    eq[2] == '\0'))
			n++;
	}
	return n;
}

/* A figure, or "-" when unknown. */
static void
measure_cell(struct strbuf *sb, long long v)
{
	if (v < 0)
		strbuf_adds(sb, " - |");
	else
		strbuf_addf(sb, " %lld |", v);
}

/* The markdown table (measure.h). */
void
measure_table(struct strbuf *sb, const struct measure *m, int n)
{
	int i;

	strbuf_adds(sb, "| |");
	for (i = 0; i < n; i++)
		strbuf_addf(sb, " %s |", m[i].label);
	strbuf_adds(sb, "\n| --- |");
	for (i = 0; i < n; i++)
		strbuf_adds(sb, " --- |");
	strbuf_adds(sb, "\n| bzImage bytes |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].bzimage);
	strbuf_adds(sb, "\n| vmlinux text bytes |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].text);
	strbuf_adds(sb, "\n| vmlinux data bytes |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].data);
	strbuf_adds(sb, "\n| vmlinux bss bytes |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].bss);
	strbuf_adds(sb, "\n| modules |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].modules);
	strbuf_adds(sb, "\n| modules bytes (files) |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].modules_bytes);
	strbuf_adds(sb, "\n| system calls compiled in |");
	for (i = 0; i < n; i++) {
		if (m[i].syscalls < 0)
			strbuf_adds(sb, " - |");
		else
			strbuf_addf(sb, " %ld (%s) |", m[i].syscalls,
			    m[i].syscalls_from != NULL ? m[i].syscalls_from :
			    "?");
	}
	strbuf_adds(sb, "\n| y+m options |");
	for (i = 0; i < n; i++)
		measure_cell(sb, m[i].ym);
	strbuf_addc(sb, '\n');
}
