/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.c - the environment scripts/kconfig/conf sees when the kernel's top
 * Makefile runs it ("make olddefconfig" in the tree, otherwise empty
 * environment), so that Kconfig's $(ARCH), $(CC), $(srctree)... and the
 * scripts its $(shell,...) calls see the same values without make.
 *
 * Checked against Linux 6.1 by tracing the execve of conf (strace -f -v)
 * under "env -i PATH=... HOME=... make olddefconfig" on x86_64.  Derived,
 * each only when envp does not already have it (envp wins, like a make
 * command-line variable):
 *
 *  ARCH		$(SUBARCH): uname -m through subarch.include's sed rules
 *			(i.86, x86_64 -> x86; sun4u -> sparc64; arm* -> arm; ...)
 *  SRCARCH		ARCH, but i386/x86_64 -> x86, sparc64 -> sparc,
 *			parisc64 -> parisc, sh64 -> sh
 *  SUBARCH, HEADER_ARCH	only for ARCH=um (arch/um/Makefile exports them;
 *			arch/um/Kconfig sources arch/$(HEADER_ARCH)/um/Kconfig)
 *  VERSION PATCHLEVEL SUBLEVEL KERNELVERSION	from the top Makefile
 *  KERNELRELEASE	include/config/kernel.release of the objtree, or empty
 *  srctree objtree abs_srctree abs_objtree building_out_of_srctree VPATH
 *			objtree is "." (the working directory); srctree is
 *			"." when the tree is the working directory (in-tree
 *			build), ".." when it is its parent, else absolute
 *  CROSS_COMPILE	empty
 *  CC LD AR NM OBJCOPY OBJDUMP READELF STRIP HOSTCC HOSTCXX
 *			$(CROSS_COMPILE)gcc/ld/... or, with LLVM=1 (or
 *			LLVM=dir/ or LLVM=-suffix), clang, ld.lld, llvm-ar, ...
 *  CPP			"$(CC) -E"
 *  RUSTC RUSTDOC RUSTFMT HOSTRUSTC BINDGEN CARGO PAHOLE RUSTC_OR_CLIPPY
 *  RUSTC_OR_CLIPPY_QUIET RUSTC_BOOTSTRAP RESOLVE_BTFIDS LEX YACC AWK PERL
 *  PYTHON3 BASH CHECK INSTALLKERNEL KGZIP KBZIP2 KLZOP LZMA LZ4 XZ ZSTD
 *  HOSTPKG_CONFIG CONFIG_SHELL	the Makefile's fixed tool names
 *  CC_VERSION_TEXT	first line of "LC_ALL=C $(CC) --version", '#' removed
 *  CLANG_FLAGS		as scripts/Makefile.clang, when CC_VERSION_TEXT says
 *			clang (--target=..., integrated-as, -Werror=...)
 *  KCONFIG_CONFIG	.config
 *  KBUILD_KCONFIG	empty (the Makefile exports it unset)
 *  KBUILD_DEFCONFIG KCONFIG_DEFCONFIG_LIST	as scripts/kconfig/Makefile
 *			(x86 and um exactly; other arches: the first plain
 *			KBUILD_DEFCONFIG := name in arch/$(SRCARCH)/Makefile)
 *  LC_COLLATE=C LC_NUMERIC=C	always (the Makefile assigns them)
 * Removed: LC_ALL, GREP_OPTIONS and CONFIG_ (the Makefiles unexport them).
 * Not derived: build flags (KBUILD_CFLAGS, ...) and arch-specific exports
 * (BITS, UTS_MACHINE, ...), which no Kconfig file or probe script reads.
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "shell.h"
#include "../lib/fileio.h"
#include "../lib/util.h"

struct envb {
	char	**v;
	size_t	  n;
	size_t	  cap;
	char *const *cmdline;	/* make-style NAME=value arguments */
};

/*
 * Variables the kernel's Makefiles assign with = or := (not ?=): there an
 * environment value is overridden, as make overrides the environment with
 * a makefile assignment; only a command-line NAME=value (make CC=clang)
 * wins. "CC=clang make olddefconfig" still uses gcc, and so do we.
 */
static const char *const env_makefile_assigned[] = {
	"VERSION", "PATCHLEVEL", "SUBLEVEL", "KERNELVERSION", "KERNELRELEASE",
	"srctree", "objtree", "VPATH", "abs_srctree", "abs_objtree",
	"building_out_of_srctree", "SRCARCH",
	"HOSTCC", "HOSTCXX", "HOSTRUSTC", "HOSTPKG_CONFIG",
	"CC", "LD", "AR", "NM", "OBJCOPY", "OBJDUMP", "READELF", "STRIP", "CPP",
	"RUSTC", "RUSTDOC", "RUSTFMT", "BINDGEN", "CARGO", "PAHOLE",
	"RESOLVE_BTFIDS", "LEX", "YACC", "AWK", "INSTALLKERNEL", "PERL",
	"PYTHON3", "CHECK", "BASH", "KGZIP", "KBZIP2", "KLZOP", "LZMA", "LZ4",
	"XZ", "ZSTD", "CONFIG_SHELL", "CC_VERSION_TEXT", "CLANG_FLAGS",
	"RUSTC_OR_CLIPPY", "RUSTC_OR_CLIPPY_QUIET", "RUSTC_BOOTSTRAP",
	"KBUILD_DEFCONFIG", "KCONFIG_DEFCONFIG_LIST",
};

/* Whether name was given as a NAME=value argument. */
static bool
envb_is_cmdline(const struct envb *b, const char *name)
{
	return b->cmdline != NULL && envp_get(b->cmdline, name) != NULL;
}

/* Whether the environment's value of name gives way to the Makefile's. */
static bool
envb_overridden(const struct envb *b, const char *name)
{
	size_t i;

	if (envb_is_cmdline(b, name))
		return false;
	for (i = 0; i < sizeof env_makefile_assigned /
	    sizeof env_makefile_assigned[0]; i++) {
		if (strcmp(env_makefile_assigned[i], name) == 0)
			return true;
	}
	return false;
}

/* Append "name=value" (already formatted) to the builder. */
static void
envb_push(struct envb *b, char *entry)
{
	XGROW(b->v, b->cap, b->n + 2, 64);
	b->v[b->n++] = entry;
	b->v[b->n] = NULL;
}

/* Current value in the builder, or NULL. */
static const char *
envb_get(struct envb *b, const char *name)
{
	return b->n ? envp_get(b->v, name) : NULL;
}

static void envb_force(struct envb *, const char *, const char *);

/* Set name unless it is already there and make would keep it (envp wins
 * for ?= variables, a command-line argument always); returns the value. */
static const char *
envb_default(struct envb *b, const char *name, const char *value)
{
	const char *old = envb_get(b, name);

	if (old != NULL && !envb_overridden(b, name))
		return old;
	if (old != NULL) {
		envb_force(b, name, value);
		return envb_get(b, name);
	}
	envb_push(b, xasprintf("%s=%s", name, value));
	return envb_get(b, name);
}

/* Set name, replacing any value. */
static void
envb_force(struct envb *b, const char *name, const char *value)
{
	size_t	n = strlen(name), i;

	for (i = 0; i < b->n; i++) {
		if (strncmp(b->v[i], name, n) == 0 && b->v[i][n] == '=') {
			free(b->v[i]);
			b->v[i] = xasprintf("%s=%s", name, value);
			return;
		}
	}
	envb_push(b, xasprintf("%s=%s", name, value));
}

/* The value of the first "NAME = value" line of a Makefile, or NULL. */
static char *
env_make_var(const char *text, const char *name)
{
	const char	*p, *q, *end;
	size_t		 n = strlen(name);

	for (p = text; p != NULL && *p != '\0'; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (strncmp(p, name, n) != 0)
			continue;
		q = p + n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == ':' && q[1] == '=')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (end == NULL)
			end = q + strlen(q);
		while (end > q && (end[-1] == ' ' || end[-1] == '\t' ||
		    end[-1] == '\r'))
			end--;
		return xstrndup(q, end - q);
	}
	return NULL;
}

/* Apply one "sed -e s/re/repl/" (first match only, BRE) to *s. */
static void
env_sed(char **s, const char *re, const char *repl)
{
	regex_t		 rx;
	regmatch_t	 m;
	char		*out;

	if (regcomp(&rx, re, 0) != 0)
		return;
	if (regexec(&rx, *s, 1, &m, 0) == 0) {
		out = xasprintf("%.*s%s%s", (int)m.rm_so, *s, repl,
		    *s + m.rm_eo);
		free(*s);
		*s = out;
	}
	regfree(&rx);
}

/* SUBARCH as scripts/subarch.include computes it. */
static char *
env_subarch(void)
{
	static const char *const rules[][2] = {
		{ "i.86", "x86" }, { "x86_64", "x86" },
		{ "sun4u", "sparc64" },
		{ "arm.*", "arm" }, { "sa110", "arm" },
		{ "s390x", "s390" },
		{ "ppc.*", "powerpc" }, { "mips.*", "mips" },
		{ "sh[234].*", "sh" }, { "aarch64.*", "arm64" },
		{ "riscv.*", "riscv" }, { "loongarch.*", "loongarch" },
	};
	struct utsname	 u;
	char		*s;
	size_t		 i;

	if (uname(&u) != 0)
		return xstrdup("");
	s = xstrdup(u.machine);
	for (i = 0; i < sizeof rules / sizeof rules[0]; i++)
		env_sed(&s, rules[i][0], rules[i][1]);
	return s;
}

/* SRCARCH for an ARCH, as the top Makefile maps it. */
static const char *
env_srcarch(const char *arch)
{
	if (strcmp(arch, "i386") == 0 || strcmp(arch, "x86_64") == 0)
		return "x86";
	if (strcmp(arch, "sparc64") == 0)
		return "sparc";
	if (strcmp(arch, "parisc64") == 0)
		return "parisc";
	if (strcmp(arch, "sh64") == 0)
		return "sh";
	return arch;
}

/* powerpc's KBUILD_DEFCONFIG on a host that is no ppc: the fallback word
 * of "$(if $(filter ppc%,$(uname)),$(uname),WORD)_defconfig" (ppc64 in
 * 6.1, ppc64le, a generated defconfig, from 6.8), else ppc64. */
static char *
env_defconfig_ppc(const char *srctree)
{
	char		*path, *text, *v, *res = NULL;
	const char	*p, *e;

	path = xasprintf("%s/arch/powerpc/Makefile", srctree);
	text = file_read_all(path, NULL);
	free(path);
	v = text != NULL ? env_make_var(text, "KBUILD_DEFCONFIG") : NULL;
	if (v != NULL && (p = strstr(v, "$(uname),")) != NULL &&
	    (e = strchr(p + 9, ')')) != NULL && e > p + 9 &&
	    strchr(e + 1, '$') == NULL)
		res = xasprintf("%.*s%s", (int)(e - (p + 9)), p + 9, e + 1);
	free(v);
	free(text);
	return res != NULL ? res : xstrdup("ppc64_defconfig");
}

/* KBUILD_DEFCONFIG as arch/$(SRCARCH)/Makefile sets it (approximately). */
static char *
env_defconfig(const char *srctree, const char *arch, const char *srcarch,
    const char *subarch)
{
	struct utsname	 u;
	char		*path, *text, *v;
	const char	*base;

	if (strcmp(srcarch, "x86") == 0 || (strcmp(srcarch, "um") == 0 &&
	    strcmp(subarch, "x86") == 0)) {
		base = (strcmp(srcarch, "um") == 0) ? subarch : arch;
		if (strcmp(base, "x86") != 0)
			return xasprintf("%s_defconfig", base);
		if (uname(&u) == 0 && strcmp(u.machine, "x86_64") == 0)
			return xstrdup("x86_64_defconfig");
		return xstrdup("i386_defconfig");
	}
	if (strcmp(srcarch, "um") == 0)
		return xasprintf("%s_defconfig", subarch);
	/* The other arches that choose with make conditionals. */
	if (strcmp(srcarch, "powerpc") == 0) {
		if (uname(&u) == 0 && strncmp(u.machine, "ppc", 3) == 0)
			return xasprintf("%s_defconfig", u.machine);
		return env_defconfig_ppc(srctree);
	}
	if (strcmp(srcarch, "sparc") == 0)
		return xstrdup(strcmp(arch, "sparc64") == 0 ?
		    "sparc64_defconfig" : "sparc32_defconfig");
	if (strcmp(srcarch, "parisc") == 0)
		return xstrdup(strcmp(arch, "parisc64") == 0 ?
		    "generic-64bit_defconfig" : "generic-32bit_defconfig");
	path = xasprintf("%s/arch/%s/Makefile", srctree, srcarch);
	text = file_read_all(path, NULL);
	free(path);
	v = NULL;
	if (text != NULL) {
		/* Only a plain value; conditionals are not evaluated. */
		v = env_make_var(text, "KBUILD_DEFCONFIG");
		if (v != NULL && strchr(v, '$') != NULL) {
			free(v);
			v = NULL;
		}
	}
	free(text);
	return v != NULL ? v : xstrdup("defconfig");
}

/* Is the file an executable on PATH?  Returns its directory + "/". */
static char *
env_which_dir(const char *path, const char *name)
{
	const char	*p, *end;
	char		*file;
	size_t		 n;

	for (p = path; p != NULL; p = end ? end + 1 : NULL) {
		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		file = xasprintf("%.*s%s%s", (int)n, p, n ? "/" : "", name);
		if (access(file, X_OK) == 0) {
			free(file);
			return n ? xasprintf("%.*s/", (int)n, p) : xstrdup("");
		}
		free(file);
	}
	return xstrdup("");
}

/* CLANG_FLAGS as scripts/Makefile.clang builds them. */
static char *
env_clang_flags(struct envb *b, const char *srcarch, const char *subarch,
    char **cause)
{
	static const char *const targets[][2] = {
		{ "arm", "arm-linux-gnueabi" },
		{ "arm64", "aarch64-linux-gnu" },
		{ "hexagon", "hexagon-linux-musl" },
		{ "m68k", "m68k-linux-gnu" },
		{ "mips", "mipsel-linux-gnu" },
		{ "powerpc", "powerpc64le-linux-gnu" },
		{ "riscv", "riscv64-linux-gnu" },
		{ "s390", "s390x-linux-gnu" },
		{ "x86", "x86_64-linux-gnu" },
	};
	struct strbuf	 sb;
	const char	*cross = envb_get(b, "CROSS_COMPILE");
	const char	*ias = envb_get(b, "LLVM_IAS");
	const char	*target = NULL, *arch, *base, *path;
	char		*dir, *elfedit;
	size_t		 i, n;

	arch = strcmp(srcarch, "um") == 0 ? subarch : srcarch;
	for (i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		if (strcmp(targets[i][0], arch) == 0)
			target = targets[i][1];
	}
	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	if (cross == NULL)
		cross = "";
	if (*cross == '\0') {
		if (target == NULL) {
			*cause = xstrdup("Specify CROSS_COMPILE or add "
			    "'--target=' option to scripts/Makefile.clang");
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "--target=%s", target);
	} else {
		/* $(notdir $(CROSS_COMPILE:%-=%)) */
		n = strlen(cross);
		if (n > 0 && cross[n - 1] == '-')
			n--;
		base = cross;
		for (i = 0; i < n; i++) {
			if (cross[i] == '/')
				base = cross + i + 1;
		}
		strbuf_addf(&sb, "--target=%.*s", (int)(n - (base - cross)),
		    base);
	}
	if (ias != NULL && strcmp(ias, "0") == 0) {
		strbuf_adds(&sb, " -fno-integrated-as");
		path = envb_get(b, "PATH");
		elfedit = xasprintf("%selfedit", cross);
		if (strchr(elfedit, '/') == NULL)
			dir = env_which_dir(path ? path : "", elfedit);
		else if (access(elfedit, X_OK) == 0)
			dir = xstrndup(elfedit, strrchr(elfedit, '/') + 1 -
			    elfedit);
		else
			dir = NULL;
		base = strrchr(cross, '/') ? strrchr(cross, '/') + 1 : cross;
		strbuf_addf(&sb, " --prefix=%s%s", dir ? dir : "", base);
		free(dir);
		free(elfedit);
	} else
		strbuf_adds(&sb, " -fintegrated-as");
	strbuf_adds(&sb, " -Werror=unknown-warning-option");
	strbuf_adds(&sb, " -Werror=ignored-optimization-argument");
	return strbuf_detach(&sb);
}

/* Derive the environment of conf (see the comment at the top). */
char **
env_derive(const char *srctree, char *const *envp, char **cause)
{
	return env_derive_args(srctree, envp, NULL, cause);
}

/* The caller's environment less what make itself drops or resets, then
 * the NAME=value arguments, which override everything. */
static void
env_start(struct envb *b, char *const *envp, char *const *cmdline)
{
	char	*name, *eq;
	size_t	 i;

	for (i = 0; envp != NULL && envp[i] != NULL; i++) {
		if (strncmp(envp[i], "LC_ALL=", 7) == 0 ||
		    strncmp(envp[i], "GREP_OPTIONS=", 13) == 0 ||
		    strncmp(envp[i], "CONFIG_=", 8) == 0)
			continue;
		envb_push(b, xstrdup(envp[i]));
	}
	for (i = 0; cmdline != NULL && cmdline[i] != NULL; i++) {
		if ((eq = strchr(cmdline[i], '=')) == NULL)
			continue;
		name = xstrndup(cmdline[i], (size_t)(eq - cmdline[i]));
		envb_force(b, name, eq + 1);
		free(name);
	}
}

/* VERSION, PATCHLEVEL, SUBLEVEL and KERNELVERSION from the top Makefile's
 * text, as make derives them. */
static void
env_versions(struct envb *b, const char *text)
{
	static const char *const names[4] = {
		"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"
	};
	char	*v[4], *tmp;
	size_t	 i;

	for (i = 0; i < 4; i++) {
		if ((v[i] = env_make_var(text, names[i])) == NULL)
			v[i] = xstrdup("");
	}
	envb_default(b, "VERSION", v[0]);
	envb_default(b, "PATCHLEVEL", v[1]);
	envb_default(b, "SUBLEVEL", v[2]);
	if (*v[1] == '\0')
		tmp = xasprintf("%s%s", v[0], v[3]);
	else if (*v[2] == '\0')
		tmp = xasprintf("%s.%s%s", v[0], v[1], v[3]);
	else
		tmp = xasprintf("%s.%s.%s%s", v[0], v[1], v[2], v[3]);
	envb_default(b, "KERNELVERSION", tmp);
	free(tmp);
	for (i = 0; i < 4; i++)
		free(v[i]);
}

/* srctree and objtree (the working directory), relative as the top
 * Makefile writes them, and KERNELRELEASE if one was built. Returns the
 * absolute source tree (malloc'd), NULL with *cause on failure. */
static char *
env_trees(struct envb *b, const char *srctree, char **cause)
{
	char		 cwd[PATH_MAX];
	char		*abs_src, *abs_obj, *parent, *s, *text;
	const char	*src;
	size_t		 i, n;

	if (getcwd(cwd, sizeof cwd) == NULL) {
		*cause = xasprintf("getcwd: %s", strerror(errno));
		return NULL;
	}
	abs_obj = realpath(cwd, NULL);
	abs_src = realpath(srctree, NULL);
	if (abs_obj == NULL || abs_src == NULL) {
		*cause = xasprintf("%s: %s", srctree, strerror(errno));
		free(abs_obj);
		free(abs_src);
		return NULL;
	}
	parent = xstrdup(abs_obj);
	if ((s = strrchr(parent, '/')) != NULL)
		s[s == parent ? 1 : 0] = '\0';
	if (strcmp(abs_src, abs_obj) == 0)
		src = ".";
	else if (strcmp(abs_src, parent) == 0)
		src = "..";
	else
		src = abs_src;
	envb_default(b, "abs_srctree", abs_src);
	envb_default(b, "abs_objtree", abs_obj);
	envb_default(b, "building_out_of_srctree",
	    strcmp(abs_src, abs_obj) == 0 ? "" : "1");
	envb_default(b, "srctree", src);
	envb_default(b, "objtree", ".");
	envb_default(b, "VPATH", src);
	free(parent);
	free(abs_obj);
	text = file_read_all("include/config/kernel.release", NULL);
	if (text != NULL) {
		n = strlen(text);
		while (n > 0 && text[n - 1] == '\n')
			text[--n] = '\0';
		for (i = 0; i < n; i++) {
			if (text[i] == '\n')
				text[i] = ' ';
		}
	}
	envb_default(b, "KERNELRELEASE", text ? text : "");
	free(text);
	return abs_src;
}

/* The toolchain, from LLVM= or CROSS_COMPILE= as the top Makefile picks
 * it: {variable, program} in the Makefile's order. */
static const char *const env_llvm_tools[][2] = {
	{ "HOSTCC", "clang" }, { "HOSTCXX", "clang++" }, { "CC", "clang" },
	{ "LD", "ld.lld" }, { "AR", "llvm-ar" }, { "NM", "llvm-nm" },
	{ "OBJCOPY", "llvm-objcopy" }, { "OBJDUMP", "llvm-objdump" },
	{ "READELF", "llvm-readelf" }, { "STRIP", "llvm-strip" },
};
static const char *const env_cross_tools[][2] = {
	{ "CC", "gcc" }, { "LD", "ld" }, { "AR", "ar" }, { "NM", "nm" },
	{ "OBJCOPY", "objcopy" }, { "OBJDUMP", "objdump" },
	{ "READELF", "readelf" }, { "STRIP", "strip" },
};

/* Programs the Makefile names without a toolchain prefix, in its order
 * (RUSTC_OR_CLIPPY and RESOLVE_BTFIDS depend on others: env_programs). */
static const char *const env_plain_tools1[][2] = {
	{ "HOSTRUSTC", "rustc" }, { "RUSTC", "rustc" },
	{ "RUSTDOC", "rustdoc" }, { "RUSTFMT", "rustfmt" },
};
static const char *const env_plain_tools2[][2] = {
	{ "RUSTC_OR_CLIPPY_QUIET", "RUSTC" }, { "RUSTC_BOOTSTRAP", "1" },
	{ "BINDGEN", "bindgen" }, { "CARGO", "cargo" },
	{ "PAHOLE", "pahole" },
};
static const char *const env_plain_tools3[][2] = {
	{ "LEX", "flex" }, { "YACC", "bison" }, { "AWK", "awk" },
	{ "INSTALLKERNEL", "installkernel" }, { "PERL", "perl" },
	{ "PYTHON3", "python3" }, { "CHECK", "sparse" }, { "BASH", "bash" },
	{ "KGZIP", "gzip" }, { "KBZIP2", "bzip2" }, { "KLZOP", "lzop" },
	{ "LZMA", "lzma" }, { "LZ4", "lz4" }, { "XZ", "xz" },
	{ "ZSTD", "zstd" }, { "HOSTPKG_CONFIG", "pkg-config" },
	{ "CONFIG_SHELL", "sh" },
};

/* Default each {name, value} of a table, prefix before each value. */
static void
env_defaults(struct envb *b, const char *const (*tab)[2], size_t n,
    const char *prefix, const char *suffix)
{
	char	*v;
	size_t	 i;

	for (i = 0; i < n; i++) {
		v = xasprintf("%s%s%s", prefix, tab[i][1], suffix);
		envb_default(b, tab[i][0], v);
		free(v);
	}
}

#define ENV_NITEMS(a) (sizeof (a) / sizeof (a)[0])

/* The tools and programs of the top Makefile. */
static void
env_programs(struct envb *b)
{
	const char	*cross, *llvm, *pre, *suf;
	char		*tmp;
	size_t		 n;

	cross = envb_default(b, "CROSS_COMPILE", "");
	llvm = envb_get(b, "LLVM");
	if (llvm != NULL && *llvm != '\0') {
		n = strlen(llvm);
		pre = (llvm[n - 1] == '/') ? llvm : "";
		suf = (*pre == '\0' && llvm[0] == '-') ? llvm : "";
		env_defaults(b, env_llvm_tools, ENV_NITEMS(env_llvm_tools),
		    pre, suf);
	} else {
		envb_default(b, "HOSTCC", "gcc");
		envb_default(b, "HOSTCXX", "g++");
		env_defaults(b, env_cross_tools, ENV_NITEMS(env_cross_tools),
		    cross, "");
	}
	tmp = xasprintf("%s -E", envb_get(b, "CC"));
	envb_default(b, "CPP", tmp);
	free(tmp);
	env_defaults(b, env_plain_tools1, ENV_NITEMS(env_plain_tools1), "",
	    "");
	envb_default(b, "RUSTC_OR_CLIPPY", envb_get(b, "RUSTC"));
	env_defaults(b, env_plain_tools2, ENV_NITEMS(env_plain_tools2), "",
	    "");
	tmp = xasprintf("%s/tools/bpf/resolve_btfids/resolve_btfids",
	    envb_get(b, "objtree"));
	envb_default(b, "RESOLVE_BTFIDS", tmp);
	free(tmp);
	env_defaults(b, env_plain_tools3, ENV_NITEMS(env_plain_tools3), "",
	    "");
	envb_force(b, "LC_COLLATE", "C");
	envb_force(b, "LC_NUMERIC", "C");
}

/* KCONFIG_CONFIG, KBUILD_DEFCONFIG and the defconfig list conf reads when
 * there is no config. */
static void
env_configs(struct envb *b, const char *abs_src, const char *arch,
    const char *srcarch, const char *subarch)
{
	struct utsname	 u;
	char		*defconfig, *tmp;

	envb_default(b, "KCONFIG_CONFIG", ".config");
	envb_default(b, "KBUILD_KCONFIG", "");
	defconfig = env_defconfig(abs_src, arch, srcarch, subarch);
	envb_default(b, "KBUILD_DEFCONFIG", defconfig);
	if (uname(&u) == 0) {
		tmp = xasprintf("/lib/modules/%s/.config /etc/kernel-config "
		    "/boot/config-%s arch/%s/configs/%s", u.release, u.release,
		    srcarch, envb_get(b, "KBUILD_DEFCONFIG"));
	} else {
		tmp = xasprintf("arch/%s/configs/%s", srcarch,
		    envb_get(b, "KBUILD_DEFCONFIG"));
	}
	envb_default(b, "KCONFIG_DEFCONFIG_LIST", tmp);
	free(tmp);
	free(defconfig);
}

/* CC_VERSION_TEXT (the compiler asked, '#' removed as make does) and, for
 * clang, CLANG_FLAGS; -1 with *cause if the compiler can't be run. */
static int
env_compiler(struct envb *b, const char *srcarch, const char *subarch,
    char **cause)
{
	char	*cmd, *cvt, *s, *tmp;

	if (!envb_is_cmdline(b, "CC_VERSION_TEXT")) {
		cmd = xasprintf("LC_ALL=C %s --version 2>/dev/null | "
		    "head -n 1", envb_get(b, "CC"));
		cvt = shell_capture(cmd, b->v, cause);
		free(cmd);
		if (cvt == NULL)
			return -1;
		for (s = tmp = cvt; *s != '\0'; s++) {
			if (*s != '#')
				*tmp++ = *s;
		}
		*tmp = '\0';
		envb_force(b, "CC_VERSION_TEXT", cvt);
		free(cvt);
	}
	if (strstr(envb_get(b, "CC_VERSION_TEXT"), "clang") != NULL &&
	    !envb_is_cmdline(b, "CLANG_FLAGS")) {
		tmp = env_clang_flags(b, srcarch, subarch, cause);
		if (tmp == NULL)
			return -1;
		envb_force(b, "CLANG_FLAGS", tmp);
		free(tmp);
	}
	return 0;
}

/* env_derive() with make-style NAME=value arguments, which override both
 * the environment and the Makefiles' assignments. */
char **
env_derive_args(const char *srctree, char *const *envp, char *const *cmdline,
    char **cause)
{
	struct envb	 b = { NULL, 0, 0, cmdline };
	char		*mk, *text, *subarch, *abs_src;
	const char	*arch, *srcarch, *sub;
	int		 rc;

	env_start(&b, envp, cmdline);
	mk = xasprintf("%s/Makefile", srctree);
	text = file_read_all(mk, NULL);
	free(mk);
	if (text == NULL) {
		/* Not a kernel tree: no Makefile to emulate, the environment
		 * is taken as it is. */
		if (envb_get(&b, "srctree") == NULL)
			envb_push(&b, xasprintf("srctree=%s", srctree));
		if (b.v == NULL)
			b.v = xcalloc(1, sizeof *b.v);
		return b.v;
	}
	env_versions(&b, text);
	free(text);
	if ((abs_src = env_trees(&b, srctree, cause)) == NULL) {
		strv_free(b.v);
		return NULL;
	}

	subarch = env_subarch();
	arch = envb_default(&b, "ARCH", subarch);
	srcarch = envb_default(&b, "SRCARCH", env_srcarch(arch));
	if (strcmp(arch, "um") == 0) {
		envb_default(&b, "SUBARCH", subarch);
		envb_default(&b, "HEADER_ARCH",
		    (strcmp(subarch, "x86") == 0 ||
		    strcmp(subarch, "x86_64") == 0 ||
		    strcmp(subarch, "i386") == 0) ? "x86" : subarch);
	}
	env_programs(&b);
	sub = envb_get(&b, "SUBARCH") ? envb_get(&b, "SUBARCH") : subarch;
	env_configs(&b, abs_src, arch, srcarch, sub);
	free(abs_src);
	sub = envb_get(&b, "SUBARCH") ? envb_get(&b, "SUBARCH") : subarch;
	rc = env_compiler(&b, srcarch, sub, cause);
	free(subarch);
	if (rc != 0) {
		strv_free(b.v);
		return NULL;
	}
	return b.v;
}

/* Default cache file for a tree (see preprocess.h). */
char *
env_cache_path(char *const *envp, const char *srctree_abs)
{
	const char	*dir, *home;
	char		*base, *path;
	uint64_t	 h = 0xcbf29ce484222325ULL;
	const char	*p;

	for (p = srctree_abs; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	dir = envp_get(envp, "KCTUI_CACHE_DIR");
	if (dir != NULL && *dir != '\0')
		base = xstrdup(dir);
	else {
		dir = envp_get(envp, "XDG_CACHE_HOME");
		home = envp_get(envp, "HOME");
		if (dir != NULL && *dir != '\0')
			base = xasprintf("%s/kctui", dir);
		else if (home != NULL && *home != '\0')
			base = xasprintf("%s/.cache/kctui", home);
		else
			return NULL;
	}
	path = xasprintf("%s/shell-%016llx.cache", base,
	    (unsigned long long)h);
	free(base);
	return path;
}
