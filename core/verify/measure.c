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
#include <yaml.h>

#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "../../lib/yamlwrite.h"
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
	m->boot_init = m->boot_coldplug = -1;
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
			XGROW(fns, afns, nfns + 1, 4096);
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

/* The rows of the table: TSV and YAML key, markdown label. */
static const struct measure_row {
	const char	*key, *label;
} measure_rows[] = {
	{ "bzimage_bytes", "bzImage bytes" },
	{ "vmlinux_text_bytes", "vmlinux text bytes" },
	{ "vmlinux_data_bytes", "vmlinux data bytes" },
	{ "vmlinux_bss_bytes", "vmlinux bss bytes" },
	{ "modules", "modules" },
	{ "modules_bytes", "modules bytes (files)" },
	{ "syscalls", "system calls compiled in" },
	{ "ym", "y+m options" },
	{ "boot_init_seconds", "boot to /init (s)" },
	{ "boot_coldplug_seconds", "boot to end of coldplug (s)" },
};
#define MEASURE_NROWS (sizeof measure_rows / sizeof measure_rows[0])

/* Row r of column m as text (malloc'd), NULL where unknown; full adds
 * the markdown's notes (where system calls and boot times come from). */
static char *
measure_value(const struct measure *m, size_t r, bool full)
{
	long long	 v;
	double		 t;

	switch (r) {
	case 0: v = m->bzimage; break;
	case 1: v = m->text; break;
	case 2: v = m->data; break;
	case 3: v = m->bss; break;
	case 4: v = m->modules; break;
	case 5: v = m->modules_bytes; break;
	case 6:
		if (m->syscalls < 0)
			return NULL;
		return full ? xasprintf("%ld (%s)", m->syscalls,
		    m->syscalls_from != NULL ? m->syscalls_from : "?") :
		    xasprintf("%ld", m->syscalls);
	case 7: v = m->ym; break;
	default:
		t = r == 8 ? m->boot_init : m->boot_coldplug;
		if (t < 0)
			return NULL;
		if (!full)
			return xasprintf("%.2f", t);
		return xasprintf("%.2f (%s%d boot%s, %s)", t, m->boot_runs > 1 ?
		    "median of " : "", m->boot_runs, m->boot_runs == 1 ? "" :
		    "s", m->accel != NULL ? m->accel : "?");
	}
	return v < 0 ? NULL : xasprintf("%lld", v);
}

/* The median (measure.h). */
double
measure_median(double *x, int n)
{
	int	i, j;
	double	t;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && x[j - 1] > x[j]; j--) {
			t = x[j];
			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The markdown table (measure.h). */
void
measure_table(struct strbuf *sb, const struct measure *m, int n)
{
	size_t	 r;
	int	 i;
	char	*c;

	strbuf_adds(sb, "| |");
	for (i = 0; i < n; i++)
		strbuf_addf(sb, " %s |", m[i].label);
	strbuf_adds(sb, "\n| --- |");
	for (i = 0; i < n; i++)
		strbuf_adds(sb, " --- |");
	for (r = 0; r < MEASURE_NROWS; r++) {
		strbuf_addf(sb, "\n| %s |", measure_rows[r].label);
		for (i = 0; i < n; i++) {
			c = measure_value(&m[i], r, true);
			strbuf_addf(sb, " %s |", c != NULL ? c : "-");
			free(c);
		}
	}
	strbuf_addc(sb, '\n');
}

/* The TSV table (measure.h). */
void
measure_tsv(struct strbuf *sb, const struct measure *m, int n)
{
	size_t	 r;
	int	 i;
	char	*c;

	strbuf_adds(sb, "figure");
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "\t%s", m[i].label);
	strbuf_addc(sb, '\n');
	for (r = 0; r < MEASURE_NROWS; r++) {
		strbuf_adds(sb, measure_rows[r].key);
		for (i = 0; i < n; i++) {
			c = measure_value(&m[i], r, false);
			strbuf_addf(sb, "\t%s", c != NULL ? c : "-");
			free(c);
		}
		strbuf_addc(sb, '\n');
	}
}

/* The document: columns, each a mapping of label, accelerator, boot
 * runs, system calls' source and the rows. */
static int
measure_yaml_doc(yaml_emitter_t *e, const struct measure *m, int n)
{
	yaml_event_t	 ev;
	size_t		 r;
	int		 i, ok;
	char		*c, runs[16];

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(e, &ev) && yamlwrite_map(e, true) &&
	    yamlwrite_plain(e, "columns") && yamlwrite_seq(e, true);
	for (i = 0; ok && i < n; i++) {
		ok = yamlwrite_map(e, true) &&
		    yamlwrite_plain(e, "label") &&
		    yamlwrite_str(e, m[i].label);
		if (ok && m[i].boot_runs > 0) {
			snprintf(runs, sizeof runs, "%d", m[i].boot_runs);
			ok = yamlwrite_plain(e, "boot_runs") &&
			    yamlwrite_plain(e, runs) &&
			    yamlwrite_plain(e, "accelerator") &&
			    yamlwrite_str(e, m[i].accel != NULL ? m[i].accel :
			    "unknown");
		}
		if (ok && m[i].syscalls_from != NULL)
			ok = yamlwrite_plain(e, "syscalls_from") &&
			    yamlwrite_str(e, m[i].syscalls_from);
		for (r = 0; ok && r < MEASURE_NROWS; r++) {
			c = measure_value(&m[i], r, false);
			ok = yamlwrite_plain(e, measure_rows[r].key) &&
			    yamlwrite_plain(e, c != NULL ? c : "null");
			free(c);
		}
		ok = ok && yamlwrite_map(e, false);
	}
	ok = ok && yamlwrite_seq(e, false) &&
	    yamlwrite_map(e, false);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(e, &ev);
	yaml_stream_end_event_initialize(&ev);
	return ok && yaml_emitter_emit(e, &ev);
}

/* The YAML table (measure.h). */
char *
measure_yaml(const struct measure *m, int n, char **cause)
{
	yaml_emitter_t	 e;
	struct strbuf	 sb;

	strbuf_init(&sb);
	if (!yaml_emitter_initialize(&e)) {
		*cause = xstrdup("libyaml: out of memory");
		return NULL;
	}
	yaml_emitter_set_output(&e, yamlwrite_strbuf, &sb);
	yaml_emitter_set_unicode(&e, 1);
	if (!measure_yaml_doc(&e, m, n)) {
		*cause = xasprintf("libyaml: %s", e.problem != NULL ?
		    e.problem : "emitter error");
		yaml_emitter_delete(&e);
		strbuf_free(&sb);
		return NULL;
	}
	yaml_emitter_delete(&e);
	return strbuf_detach(&sb);
}
