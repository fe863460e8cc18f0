/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm-spec.c - the two files of a bundle that kctui verify replays: "vm",
 * the QEMU machine the bundle was recorded on, and "workload", the script
 * run in the guest with its steps marked "step NAME COMMAND...". Both
 * formats are in docs/evidence.md; every error names PATH:LINE.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/beneath.h"
#include "../../lib/fileio.h"
#include "../../lib/util.h"
#include "machine.h"
#include "vm-allow.h"

/* The words of one line of a vm file, and where the rest of the line
 * starts after the directive (for cmdline). */
struct spec_line {
	const char	*path;
	int		 lineno;
	char	       **words;
	size_t		 nwords;
	const char	*rest;
};

/* Lines where the single-valued directives were first seen, and the
 * allow-list's memory of ids. */
struct spec_seen {
	int		 arch, machine, cpu, smp, memory, cmdline;
	struct vm_allow	 allow;
};

/* Split a NUL-terminated line into words on blanks (malloc'd copies). */
static void
spec_split(struct spec_line *l, const char *s)
{
	const char	*start;
	size_t		 cap = 0;

	l->words = NULL;
	l->nwords = 0;
	l->rest = NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		if (l->nwords == 1)
			l->rest = s;
		start = s;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
		if (l->nwords == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			l->words = xrealloc(l->words, cap * sizeof *l->words);
		}
		l->words[l->nwords++] = xstrndup(start, s - start);
	}
}

/* Free the words of a line. */
static void
spec_line_free(struct spec_line *l)
{
	size_t	i;

	for (i = 0; i < l->nwords; i++)
		free(l->words[i]);
	free(l->words);
}

/* Set *cause to "PATH:LINE: message". */
static int __attribute__((format(printf, 3, 4)))
spec_error(const struct spec_line *l, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	*cause = xasprintf("%s:%d: %s", l->path, l->lineno, msg);
	free(msg);
	return -1;
}

/* The line has exactly n arguments after the directive, or an error
 * naming what it takes. */
static int
spec_nargs(const struct spec_line *l, size_t n, const char *usage,
    char **cause)
{
	if (l->nwords - 1 < n)
		return spec_error(l, cause, "'%s' needs %s", l->words[0],
		    usage);
	if (l->nwords - 1 > n)
		return spec_error(l, cause, "'%s' takes only %s (extra '%s'; "
		    "QEMU options have no spaces)", l->words[0], usage,
		    l->words[n + 1]);
	return 0;
}

/* A single-valued directive seen before: error naming the first line. */
static int
spec_once(const struct spec_line *l, int *seen, char **cause)
{
	if (*seen != 0)
		return spec_error(l, cause, "'%s' given twice (first at line "
		    "%d)", l->words[0], *seen);
	*seen = l->lineno;
	return 0;
}

/* QEMU option text as one argument: no leading '-' (it would be read as
 * another option), no control characters, not empty. */
static int
spec_opts_ok(const struct spec_line *l, const char *opts, char **cause)
{
	const unsigned char *p;

	if (*opts == '-')
		return spec_error(l, cause, "'%s' options must not start with "
		    "'-': %s", l->words[0], opts);
	for (p = (const unsigned char *)opts; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return spec_error(l, cause, "'%s' options contain a "
			    "control character", l->words[0]);
	}
	return 0;
}

/* The option string on the allow-list (vm-allow.c), else an error. */
static int
spec_allowed(const struct spec_line *l, struct spec_seen *seen,
    enum vm_allow_directive dir, const char *opts, char **cause)
{
	char	*msg;
	int	 rc;

	if ((msg = vm_allow_check(&seen->allow, dir, opts, l->lineno)) ==
	    NULL)
		return 0;
	rc = spec_error(l, cause, "%s", msg);
	free(msg);
	return rc;
}

/* A positive decimal number no larger than max. */
static int
spec_number(const struct spec_line *l, const char *s, long max, long *out,
    char **cause)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno != 0 ||
	    v < 1 || v > max)
		return spec_error(l, cause, "bad number '%s' for '%s' (1 to "
		    "%ld)", s, l->words[0], max);
	*out = v;
	return 0;
}

/* Whether a QEMU option string "type,key=value,..." sets key. */
static bool
spec_has_key(const char *opts, const char *key)
{
	const char	*p = opts;
	size_t		 n = strlen(key);

	while ((p = strchr(p, ',')) != NULL) {
		p++;
		if (strncmp(p, key, n) == 0 && p[n] == '=')
			return true;
	}
	return false;
}

/* A disk size: digits and an optional K, M, G or T (powers of 1024), at
 * most VM_DISK_MAX. */
static int
spec_size(const struct spec_line *l, const char *s, uint64_t *out,
    char **cause)
{
	char		*end;
	uint64_t	 v, mul = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'K': case 'k': mul = 1ULL << 10; end++; break;
		case 'M': case 'm': mul = 1ULL << 20; end++; break;
		case 'G': case 'g': mul = 1ULL << 30; end++; break;
		case 'T': case 't': mul = 1ULL << 40; end++; break;
		}
	}
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno != 0 ||
	    v == 0)
		return spec_error(l, cause, "bad size '%s' for 'disk' (a number "
		    "with K, M, G or T, e.g. 512M)", s);
	if (!u64_mul(v, mul, out) || *out > VM_DISK_MAX)
		return spec_error(l, cause, "disk size '%s' is more than %d "
		    "GiB, the most kctui makes (a bundle's disk holds what its "
		    "workload writes)", s, (int)(VM_DISK_MAX >> 30));
	return 0;
}

/* A name for an id, a serial and a file: [A-Za-z0-9_.-]+, not "." or
 * "..". */
static bool
spec_name_ok(const char *s)
{
	const char	*p;

	if (*s == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (p = s; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' &&
		    *p != '-')
			return false;
	}
	return true;
}

/* Append a QEMU option pair to the spec's args. */
static void
spec_add_arg(struct vm_spec *spec, const char *opt, const char *value)
{
	spec->args = xrealloc(spec->args, (spec->nargs + 2) *
	    sizeof *spec->args);
	spec->args[spec->nargs++] = xstrdup(opt);
	spec->args[spec->nargs++] = xstrdup(value);
}

/* disk NAME SIZE FSTYPE DEVICE. */
static int
spec_disk(struct vm_spec *spec, struct spec_seen *seen,
    const struct spec_line *l, char **cause)
{
	struct vm_disk	*d;
	uint64_t	 size = 0;
	size_t		 i;

	if (spec_nargs(l, 4, "NAME SIZE FSTYPE DEVICE", cause) != 0)
		return -1;
	if (!spec_name_ok(l->words[1]) || l->words[1][0] == '-')
		return spec_error(l, cause, "bad disk name '%s' (letters, "
		    "digits, '_', '.', '-')", l->words[1]);
	for (i = 0; i < spec->ndisks; i++) {
		if (strcmp(spec->disks[i].name, l->words[1]) == 0)
			return spec_error(l, cause, "disk '%s' given twice",
			    l->words[1]);
	}
	if (spec_size(l, l->words[2], &size, cause) != 0)
		return -1;
	if (vm_disk_mkfs(l->words[3]) == NULL &&
	    strcmp(l->words[3], "none") != 0)
		return spec_error(l, cause, "unknown file system '%s' for disk "
		    "'%s' (ext2, ext3, ext4, vfat or none)", l->words[3],
		    l->words[1]);
	if (spec_opts_ok(l, l->words[4], cause) != 0 ||
	    spec_allowed(l, seen, VM_ALLOW_DISK, l->words[4], cause) != 0)
		return -1;
	spec->disks = xrealloc(spec->disks, (spec->ndisks + 1) *
	    sizeof *spec->disks);
	d = &spec->disks[spec->ndisks++];
	d->name = xstrdup(l->words[1]);
	d->size = size;
	d->fstype = xstrdup(l->words[3]);
	d->device = xstrdup(l->words[4]);
	d->at = spec->nargs;
	return 0;
}

/* A directive whose value is one word: arch, machine, cpu. */
static int
spec_word(const struct spec_line *l, int *seen, char **dst, char **cause)
{
	if (spec_nargs(l, 1, "one value", cause) != 0 ||
	    spec_once(l, seen, cause) != 0 ||
	    spec_opts_ok(l, l->words[1], cause) != 0)
		return -1;
	*dst = xstrdup(l->words[1]);
	return 0;
}

/* One directive line. */
static int
spec_directive(struct vm_spec *spec, struct spec_seen *seen,
    const struct spec_line *l, char **cause)
{
	/* The directives that pass one option string to QEMU. */
	static const struct {
		const char			*name, *opt;
		enum vm_allow_directive		 dir;
	} pass[] = {
		{ "device", "-device", VM_ALLOW_DEVICE },
		{ "netdev", "-netdev", VM_ALLOW_NETDEV },
		{ "object", "-object", VM_ALLOW_OBJECT },
		{ "audiodev", "-audiodev", VM_ALLOW_AUDIODEV },
	};
	const char		*d = l->words[0];
	const unsigned char	*p;
	long			 v = 0;
	size_t			 i;

	if (strcmp(d, "arch") == 0) {
		if (spec_word(l, &seen->arch, &spec->arch, cause) != 0)
			return -1;
		if (!spec_name_ok(spec->arch))
			return spec_error(l, cause, "bad arch '%s'",
			    spec->arch);
		return 0;
	}
	if (strcmp(d, "machine") == 0) {
		if (spec_word(l, &seen->machine, &spec->machine, cause) != 0)
			return -1;
		if (strstr(spec->machine, "accel=") != NULL)
			return spec_error(l, cause, "'machine' must not set "
			    "accel= (kctui chooses kvm or tcg)");
		return spec_allowed(l, seen, VM_ALLOW_MACHINE, spec->machine,
		    cause);
	}
	if (strcmp(d, "cpu") == 0)
		return spec_word(l, &seen->cpu, &spec->cpu, cause) != 0 ? -1 :
		    spec_allowed(l, seen, VM_ALLOW_CPU, spec->cpu, cause);
	if (strcmp(d, "smp") == 0 || strcmp(d, "memory") == 0) {
		if (spec_nargs(l, 1, "a number", cause) != 0 ||
		    spec_once(l, *d == 's' ? &seen->smp : &seen->memory,
		    cause) != 0 ||
		    spec_number(l, l->words[1], *d == 's' ? 288 : 1048576, &v,
		    cause) != 0)
			return -1;
		*(*d == 's' ? &spec->smp : &spec->memory) = (int)v;
		return 0;
	}
	if (strcmp(d, "cmdline") == 0) {
		if (l->nwords < 2)
			return spec_error(l, cause, "'cmdline' needs the kernel "
			    "command line");
		if (spec_once(l, &seen->cmdline, cause) != 0)
			return -1;
		for (p = (const unsigned char *)l->rest; *p != '\0'; p++)
			if (*p < 0x20 || *p == 0x7f)
				return spec_error(l, cause, "'cmdline' contains "
				    "a control character");
		spec->cmdline = xstrdup(l->rest);
		return 0;
	}
	for (i = 0; i < sizeof pass / sizeof pass[0]; i++) {
		if (strcmp(d, pass[i].name) != 0)
			continue;
		if (spec_nargs(l, 1, "one option string", cause) != 0 ||
		    spec_opts_ok(l, l->words[1], cause) != 0 ||
		    spec_allowed(l, seen, pass[i].dir, l->words[1],
		    cause) != 0)
			return -1;
		/* user-mode networking isolated unless the vm file says
		 * restrict=off itself (docs/evidence.md): the guest reaches
		 * its gateway and DNS, not the host's 127.0.0.1 services
		 * through 10.0.2.2 nor the outside */
		if (pass[i].dir == VM_ALLOW_NETDEV && !spec_has_key(l->words[1],
		    "restrict")) {
			char *opts = xasprintf("%s,restrict=on", l->words[1]);

			spec_add_arg(spec, pass[i].opt, opts);
			free(opts);
		} else
			spec_add_arg(spec, pass[i].opt, l->words[1]);
		return 0;
	}
	if (strcmp(d, "disk") == 0)
		return spec_disk(spec, seen, l, cause);
	if (strcmp(d, "legacy") == 0) {
		/* The ISA devices QEMU gives a PC by default, which kctui's
		 * -nodefaults leaves out; with no host side (a null chardev),
		 * so the guest finds them where the recorded machine had
		 * them (pnp0/00:02 ...). */
		if (spec_nargs(l, 1, "parallel or serial", cause) != 0)
			return -1;
		if (strcmp(l->words[1], "parallel") != 0 &&
		    strcmp(l->words[1], "serial") != 0)
			return spec_error(l, cause, "unknown legacy device '%s' "
			    "(parallel or serial)", l->words[1]);
		spec_add_arg(spec, *l->words[1] == 'p' ? "-parallel" :
		    "-serial", "null");
		return 0;
	}
	return spec_error(l, cause, "unknown directive '%s'", d);
}

/* Strip trailing blanks (and a CR) of a line in place. */
static void
spec_rstrip(char *s)
{
	size_t	n = strlen(s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* The required directives are there, and cmdline names a console. */
static int
spec_check(const struct vm_spec *spec, const struct spec_seen *seen,
    char **cause)
{
	const char	*missing = NULL;

	if (spec->arch == NULL)
		missing = "arch";
	else if (spec->machine == NULL)
		missing = "machine";
	else if (spec->memory == 0)
		missing = "memory";
	else if (spec->cmdline == NULL)
		missing = "cmdline";
	if (missing != NULL) {
		*cause = xasprintf("%s: no '%s' line (required: arch, machine, "
		    "memory, cmdline)", spec->path, missing);
		return -1;
	}
	if (strstr(spec->cmdline, "console=") == NULL) {
		*cause = xasprintf("%s:%d: 'cmdline' has no console= (the "
		    "markers are read from the serial console)", spec->path,
		    seen->cmdline);
		return -1;
	}
	return 0;
}

/* The line number of offset off in text. */
static int
spec_line_of(const char *text, size_t off)
{
	size_t	i;
	int	n = 1;

	for (i = 0; i < off; i++)
		n += text[i] == '\n';
	return n;
}

/* The whole of a bundle's vm or workload, the file itself never a link
 * (its target would go into the guest, or its lines into messages). */
static char *
spec_read(const char *path, size_t *len, char **cause)
{
	const char	*slash = strrchr(path, '/');
	char		*dir, *text;

	if (slash == NULL)
		return beneath_read(".", path, len, cause);
	dir = slash == path ? xstrdup("/") : xstrndup(path, slash - path);
	text = beneath_read(dir, slash + 1, len, cause);
	free(dir);
	return text;
}

/* Read a bundle's vm file; -1 with *cause "PATH:LINE: ..." (see verify.h). */
int
vm_spec_load(struct vm_spec *spec, const char *path, char **cause)
{
	struct spec_seen seen;
	struct spec_line l;
	char		*text, *line, *next, *msg;
	size_t		 len;
	int		 rc = 0;

	memset(spec, 0, sizeof *spec);
	memset(&seen, 0, sizeof seen);
	spec->path = xstrdup(path);
	spec->smp = 1;
	if ((text = spec_read(path, &len, cause)) == NULL) {
		vm_spec_free(spec);
		return -1;
	}
	if (strlen(text) != len) {
		*cause = xasprintf("%s:%d: not a text file (a NUL byte)", path,
		    spec_line_of(text, strlen(text)));
		free(text);
		vm_spec_free(spec);
		return -1;
	}
	l.path = path;
	l.lineno = 0;
	for (line = text; rc == 0 && line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		l.lineno++;
		spec_rstrip(line);
		spec_split(&l, line);
		if (l.nwords > 0 && l.words[0][0] != '#')
			rc = spec_directive(spec, &seen, &l, cause);
		spec_line_free(&l);
	}
	free(text);
	if (rc == 0 && (msg = vm_allow_finish(&seen.allow, &l.lineno)) !=
	    NULL) {
		rc = spec_error(&l, cause, "%s", msg);
		free(msg);
	}
	vm_allow_free(&seen.allow);
	if (rc == 0)
		rc = spec_check(spec, &seen, cause);
	if (rc != 0)
		vm_spec_free(spec);
	return rc;
}

/* Free a vm spec. */
void
vm_spec_free(struct vm_spec *spec)
{
	size_t	i;

	free(spec->path);
	free(spec->arch);
	free(spec->machine);
	free(spec->cpu);
	free(spec->cmdline);
	for (i = 0; i < spec->nargs; i++)
		free(spec->args[i]);
	free(spec->args);
	for (i = 0; i < spec->ndisks; i++) {
		free(spec->disks[i].name);
		free(spec->disks[i].fstype);
		free(spec->disks[i].device);
	}
	free(spec->disks);
	memset(spec, 0, sizeof *spec);
}

/* ------------------------------------------------------------ workload */

/* Whether c may be in a step name. */
static bool
workload_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

/*
 * If the line is a step line ("step" and blanks at its start), its name
 * in *name (malloc'd): 1; 0 for any other line; -1 with *cause for a
 * step line whose name is bad or that has no command.
 */
static int
workload_step_line(const char *path, int lineno, const char *s, char **name,
    char **cause)
{
	const char	*start;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "step", 4) != 0 || (s[4] != ' ' && s[4] != '\t'))
		return 0;
	s += 4;
	while (*s == ' ' || *s == '\t')
		s++;
	start = s;
	while (workload_name_char(*s))
		s++;
	if (s == start || (*s != ' ' && *s != '\t' && *s != '\0')) {
		*cause = xasprintf("%s:%d: bad step name (letters, digits, "
		    "'_', '.', '-', then the command)", path, lineno);
		return -1;
	}
	*name = xstrndup(start, s - start);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\r') {
		*cause = xasprintf("%s:%d: step %s has no command", path,
		    lineno, *name);
		free(*name);
		return -1;
	}
	return 1;
}

/* Add a step name unless given before; -1 with *cause if it was. */
static int
workload_add(struct workload *w, int **lines, char *name, int lineno,
    char **cause)
{
	size_t	i;

	for (i = 0; i < w->nsteps; i++) {
		if (strcmp(w->steps[i], name) == 0) {
			*cause = xasprintf("%s:%d: step %s given twice (first "
			    "at line %d)", w->path, lineno, name, (*lines)[i]);
			free(name);
			return -1;
		}
	}
	w->steps = xrealloc(w->steps, (w->nsteps + 1) * sizeof *w->steps);
	*lines = xrealloc(*lines, (w->nsteps + 1) * sizeof **lines);
	(*lines)[w->nsteps] = lineno;
	w->steps[w->nsteps++] = name;
	return 0;
}

/* The steps of the script text. */
static int
workload_parse(struct workload *w, char **cause)
{
	const char	*line, *next;
	char		*copy, *name;
	int		*lines = NULL, lineno = 0, rc = 0, r;

	for (line = w->text; rc == 0 && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		copy = xstrndup(line, next - line);
		copy[strcspn(copy, "\n")] = '\0';
		lineno++;
		r = workload_step_line(w->path, lineno, copy, &name, cause);
		if (r < 0)
			rc = -1;
		else if (r > 0)
			rc = workload_add(w, &lines, name, lineno, cause);
		free(copy);
	}
	free(lines);
	if (rc == 0 && w->nsteps == 0) {
		*cause = xasprintf("%s: no step lines (a workload marks each "
		    "step with 'step NAME COMMAND...')", w->path);
		rc = -1;
	}
	return rc;
}

/* Read a workload and its step names; -1 with *cause "PATH:LINE: ...". */
int
workload_load(struct workload *w, const char *path, char **cause)
{
	struct stat	 st;
	size_t		 len;
	const char	*slash;

	memset(w, 0, sizeof *w);
	w->path = xstrdup(path);
	if ((w->text = spec_read(path, &len, cause)) == NULL) {
		workload_free(w);
		return -1;
	}
	if (strlen(w->text) != len) {
		*cause = xasprintf("%s:%d: not a text file (a NUL byte)", path,
		    spec_line_of(w->text, strlen(w->text)));
		workload_free(w);
		return -1;
	}
	if (workload_parse(w, cause) != 0) {
		workload_free(w);
		return -1;
	}
	slash = strrchr(path, '/');
	if (slash == NULL)
		w->helpers = xstrdup("workload.d");
	else
		w->helpers = xasprintf("%.*s/workload.d", (int)(slash - path),
		    path);
	/* lstat: a workload.d that is a link is no helpers of the bundle's
	 * (initramfs.c opens each helper below it, following nothing) */
	if (lstat(w->helpers, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(w->helpers);
		w->helpers = NULL;
	}
	return 0;
}

/*
 * Steps appended to a loaded workload (a profile's, as `kctui need
 * --workload` writes them): the text joins the script, which is parsed
 * again whole, so a step name it has already is refused as in a file
 * (the line counted from the file's start). On an error the workload is
 * as it was; -1 with *cause.
 */
int
workload_append(struct workload *w, const char *text, char **cause)
{
	struct workload	 old = *w;
	size_t		 len = strlen(w->text);

	w->text = xasprintf("%s%s%s", old.text, len > 0 &&
	    old.text[len - 1] != '\n' ? "\n" : "", text);
	w->steps = NULL;
	w->nsteps = 0;
	if (workload_parse(w, cause) != 0) {
		free(w->text);
		while (w->nsteps > 0)
			free(w->steps[--w->nsteps]);
		free(w->steps);
		*w = old;
		return -1;
	}
	free(old.text);
	while (old.nsteps > 0)
		free(old.steps[--old.nsteps]);
	free(old.steps);
	return 0;
}

/* Free a workload. */
void
workload_free(struct workload *w)
{
	size_t	i;

	free(w->path);
	free(w->text);
	for (i = 0; i < w->nsteps; i++)
		free(w->steps[i]);
	free(w->steps);
	free(w->helpers);
	memset(w, 0, sizeof *w);
}

/*
 * The file systems a vm file's disk may be made with, and the host program
 * that makes each: e2fsprogs (ext2/3/4) and dosfstools (vfat), both in
 * make deps. A label is set where the type allows one as long as NAME
 * (vfat: 11 characters); the guest finds a disk by serial, not by label.
 */
static const struct vm_mkfs vm_mkfs_table[] = {
	{ "ext2", "mkfs.ext2", "-L", 16 },
	{ "ext3", "mkfs.ext3", "-L", 16 },
	{ "ext4", "mkfs.ext4", "-L", 16 },
	{ "vfat", "mkfs.vfat", "-n", 11 },
};

/* The table's entry for FSTYPE, or NULL. */
const struct vm_mkfs *
vm_mkfs_find(const char *fstype)
{
	size_t	i;

	for (i = 0; i < sizeof vm_mkfs_table / sizeof vm_mkfs_table[0]; i++) {
		if (strcmp(vm_mkfs_table[i].fstype, fstype) == 0)
			return &vm_mkfs_table[i];
	}
	return NULL;
}

/* The host program that makes FSTYPE, or NULL (the vm file's check). */
const char *
vm_disk_mkfs(const char *fstype)
{
	const struct vm_mkfs *m = vm_mkfs_find(fstype);

	return m != NULL ? m->prog : NULL;
}

/* Split a line of the bundle's drivers file, "BUS DRIVER DEVICE MODULE",
 * in place: a driver's name may hold spaces ("i8042 kbd"), so the bus is
 * the first field, the device and module the last two and the driver what
 * lies between (as evidence-parse.c reads it); the
 * device must then match a console "driver" marker's (vm_mark_driver). */
int
vm_driver_split(char *line, char **bus, char **drv, char **dev)
{
	char	*e = line + strlen(line), *p;

	while (e > line && isspace((unsigned char)e[-1]))
		*--e = '\0';
	while (isspace((unsigned char)*line))
		line++;
	/* module: dropped */
	if ((p = strrchr(line, ' ')) == NULL)
		return -1;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	*p = '\0';
	if ((p = strrchr(line, ' ')) == NULL)
		return -1;
	*dev = p + 1;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	*p = '\0';
	if ((p = strchr(line, ' ')) == NULL)
		return -1;
	*p++ = '\0';
	while (isspace((unsigned char)*p))
		p++;
	*bus = line;
	*drv = p;
	return **drv == '\0' ? -1 : 0;
}
