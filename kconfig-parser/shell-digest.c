/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell-digest.c - the identity of what a $(shell,...) command depends on,
 * which keys the disk cache (shell-cache.c) together with its text.
 *
 * The digest covers the working directory, the values of the environment
 * variables that the kernel's Makefile exports (and a few more that change
 * tool behaviour), and the identity (realpath, device, inode, size, mtime,
 * ctime) of every word of the command that names a file: words with a '/'
 * and bare words found as executables on PATH.  Missing files are part of
 * the digest too, so installing a tool is noticed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shell-int.h"

/* A PATH directory, listed once so that most misses cost no syscall. */
struct pathdir {
	char		*dir;
	bool		 listed;	/* names[] is valid */
	struct strmap	 names;		/* its entries (arena strings) */
};

/* Start a digest. */
static void
digest_init(struct digest *d)
{
	d->a = 0xcbf29ce484222325ULL;
	d->b = 0x9e3779b97f4a7c15ULL;
}

/* Feed bytes into a digest. */
static void
digest_add(struct digest *d, const void *p, size_t len)
{
	const unsigned char	*s = p;
	size_t			 i;

	for (i = 0; i < len; i++) {
		d->a = (d->a ^ s[i]) * 0x100000001b3ULL;
		d->b = (d->b + s[i] + 1) * 0xff51afd7ed558ccdULL;
		d->b ^= d->b >> 31;
	}
}

/* Feed a string and its terminator into a digest. */
static void
digest_adds(struct digest *d, const char *s)
{
	digest_add(d, s, strlen(s) + 1);
}

/* Is this variable part of the cache digest? */
static bool
shell_env_relevant(const char *name, size_t len)
{
	static const char *const names[] = {
		"PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE",
		"LC_MESSAGES", "LC_COLLATE", "LC_NUMERIC", "TMPDIR", "HOME",
		"ARCH", "SRCARCH", "SUBARCH", "HEADER_ARCH", "UTS_MACHINE",
		"CROSS_COMPILE", "CROSS_COMPILE_COMPAT", "CC", "LD", "AR", "NM",
		"OBJCOPY", "OBJDUMP", "READELF", "STRIP", "CPP", "HOSTCC",
		"HOSTCXX", "HOSTRUSTC", "HOSTPKG_CONFIG", "RUSTC", "RUSTDOC",
		"RUSTFMT", "RUSTC_OR_CLIPPY", "RUSTC_OR_CLIPPY_QUIET",
		"RUSTC_BOOTSTRAP", "RUST_LIB_SRC", "BINDGEN", "CARGO",
		"CLIPPY_DRIVER", "PAHOLE", "PAHOLE_FLAGS", "RESOLVE_BTFIDS",
		"LLVM", "LLVM_IAS", "CLANG_FLAGS", "srctree", "objtree",
		"abs_srctree", "abs_objtree", "building_out_of_srctree",
		"VPATH", "KERNELVERSION", "KERNELRELEASE", "VERSION",
		"PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION", "CC_VERSION_TEXT",
		"CONFIG_SHELL", "BASH", "PERL", "PYTHON3", "AWK", "LEX", "YACC",
		"CHECK", "CHECKFLAGS", "INSTALLKERNEL", "KGZIP", "KBZIP2",
		"KLZOP", "LZMA", "LZ4", "XZ", "ZSTD", "USERCFLAGS",
		"USERLDFLAGS", "KRUSTFLAGS", "KCFLAGS", "KAFLAGS", "KCPPFLAGS",
		"LDFLAGS_MODULE", "NOSTDINC_FLAGS", "LINUXINCLUDE",
		"OBJCOPYFLAGS", "CFLAGS_KERNEL", "CFLAGS_MODULE",
		"AFLAGS_KERNEL", "AFLAGS_MODULE", "RUSTFLAGS_KERNEL",
		"RUSTFLAGS_MODULE", "BITS", "CCACHE_DIR", "GCC_EXEC_PREFIX",
		"COMPILER_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
		"SOURCE_DATE_EPOCH",
	};
	static const char *const prefixes[] = {
		"KBUILD_", "LLVM_", "CLANG_", "HOST", "CROSS_",
		"RUST", "GCC_", "CCACHE_",
	};
	size_t i, n;

	/* Which config file kconfig reads or writes (KCONFIG_CONFIG, ...)
	 * is no input of any probe, and must not make a warm run cold. */
	if (len >= 8 && strncmp(name, "KCONFIG_", 8) == 0)
		return false;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i]) == len &&
		    strncmp(names[i], name, len) == 0)
			return true;
	}
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		n = strlen(prefixes[i]);
		if (len >= n && strncmp(prefixes[i], name, n) == 0)
			return true;
	}
	return false;
}

/* qsort comparator for environment strings. */
static int
shell_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Digest the working directory and the relevant environment. */
void
shell_base_digest(struct shell *sh)
{
	char		 cwd[PATH_MAX];
	const char	**v, *eq;
	size_t		 n = 0, i;

	digest_init(&sh->base);
	digest_adds(&sh->base, getcwd(cwd, sizeof cwd) ? cwd : "?");
	for (i = 0; sh->envp != NULL && sh->envp[i] != NULL; i++)
		;
	v = xcalloc(i + 1, sizeof *v);
	for (i = 0; sh->envp != NULL && sh->envp[i] != NULL; i++) {
		eq = strchr(sh->envp[i], '=');
		if (eq != NULL &&
		    shell_env_relevant(sh->envp[i], eq - sh->envp[i]))
			v[n++] = sh->envp[i];
	}
	qsort(v, n, sizeof *v, shell_cmp_str);
	for (i = 0; i < n; i++)
		digest_adds(&sh->base, v[i]);
	free(v);
}

/* The identity of an existing file: realpath and stat fields. */
static char *
shell_identify(const char *path)
{
	struct stat	 st;
	char		*real;
	char		*id;

	if (stat(path, &st) != 0)
		return xstrdup("-");
	real = realpath(path, NULL);
	if (S_ISREG(st.st_mode)) {
		id = xasprintf("F%s:%llu:%llu:%lld:%lld.%ld:%lld.%ld",
		    real ? real : path, (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	} else {
		/* Directories and devices: their times change too often. */
		id = xasprintf("O%s:%o:%llu:%llu", real ? real : path,
		    (unsigned)(st.st_mode & S_IFMT),
		    (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino);
	}
	free(real);
	return id;
}

/* Split PATH and list each directory once. */
static void
shell_list_path(struct shell *sh)
{
	struct pathdir	*pd;
	struct dirent	*de;
	const char	*p, *end;
	size_t		 n;
	DIR		*d;

	sh->dirs_ready = true;
	if (sh->path == NULL)
		return;
	for (p = sh->path;; p = end + 1) {
		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		sh->dirs = xrealloc(sh->dirs, (sh->ndirs + 1) * sizeof *sh->dirs);
		pd = &sh->dirs[sh->ndirs++];
		memset(pd, 0, sizeof *pd);
		pd->dir = xstrndup(p, n);
		if (n > 0 && (d = opendir(pd->dir)) != NULL) {
			strmap_init(&pd->names);
			while ((de = readdir(d)) != NULL) {
				struct strmap_entry	*e;
				bool			 added;
				size_t			 len;

				if (de->d_name[0] == '.')
					continue;
				len = strlen(de->d_name);
				e = strmap_insert(&pd->names, de->d_name, len,
				    &added);
				if (added) {
					e->key = arena_strndup(&sh->arena,
					    de->d_name, len);
					e->value = pd;	/* present */
				}
			}
			closedir(d);
			pd->listed = true;
		}
		if (end == NULL)
			break;
	}
}

/* Might a listed directory contain name? */
static bool
shell_dir_has(struct pathdir *pd, const char *name)
{
	if (!pd->listed)
		return true;
	return strmap_get(&pd->names, name, strlen(name)) != NULL;
}

/* Find a bare word as an executable on PATH; its identity or "-". */
static char *
shell_identify_path(struct shell *sh, const char *word)
{
	struct stat	 st;
	struct pathdir	*pd;
	char		*file, *id;
	size_t		 i;

	if (!sh->dirs_ready)
		shell_list_path(sh);
	for (i = 0; i < sh->ndirs; i++) {
		pd = &sh->dirs[i];
		if (!shell_dir_has(pd, word))
			continue;
		if (*pd->dir == '\0')
			file = xstrdup(word);
		else
			file = xasprintf("%s/%s", pd->dir, word);
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(file, X_OK) == 0) {
			id = shell_identify(file);
			free(file);
			return id;
		}
		free(file);
	}
	return xstrdup("-");
}

/* Memoised identity of a command word. */
static const char *
shell_word_ident(struct shell *sh, const char *s, size_t len)
{
	struct strmap_entry	*e;
	bool			 added;
	char			*name, *ident;

	if ((e = strmap_find(&sh->words, s, len)) != NULL)
		return e->value;
	name = arena_strndup(&sh->arena, s, len);
	/* Identified before the insertion: the entry pointer is good only
	 * until the map's next change. */
	if (memchr(s, '/', len) != NULL)
		ident = shell_identify(name);
	else
		ident = shell_identify_path(sh, name);
	e = strmap_insert(&sh->words, name, len, &added);
	e->value = ident;
	return ident;
}

/* Is c a separator between the words of a command? */
static bool
shell_is_sep(char c)
{
	return c == '\0' || strchr(" \t\n;|&<>()'\"`$={}!*?[]\\,", c) != NULL;
}

/* The digest of a command: base, text, identity of file words. */
void
shell_digest(struct shell *sh, const char *cmd, struct digest *d)
{
	const char	*p = cmd, *start;
	size_t		 len;

	*d = sh->base;
	digest_adds(d, cmd);
	while (*p != '\0') {
		if (shell_is_sep(*p)) {
			p++;
			continue;
		}
		start = p;
		while (!shell_is_sep(*p))
			p++;
		len = p - start;
		if (len >= PATH_MAX)
			continue;
		if (memchr(start, '/', len) == NULL &&
		    !(start[0] == '_' ||
		    (start[0] >= 'a' && start[0] <= 'z') ||
		    (start[0] >= 'A' && start[0] <= 'Z')))
			continue;
		digest_add(d, start, len);
		digest_adds(d, "");
		digest_adds(d, shell_word_ident(sh, start, len));
	}
}

/* Free the memoised word identities and the PATH listing. */
void
shell_digest_free(struct shell *sh)
{
	struct strmap_entry	*e;
	size_t			 i = 0;

	while ((e = strmap_next(&sh->words, &i)) != NULL)
		free(e->value);
	strmap_free(&sh->words);
	for (i = 0; i < sh->ndirs; i++) {
		free(sh->dirs[i].dir);
		if (sh->dirs[i].listed)
			strmap_free(&sh->dirs[i].names);
	}
	free(sh->dirs);
	arena_free(&sh->arena);
}
