/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shell.c - $(shell,...) for the preprocessor.
 *
 * A command runs as "/bin/sh -c CMD" (posix_spawn) with the preprocessor's
 * environment, stdin from /dev/null and stderr inherited, the way the
 * kernel's popen() runs it.  At most 4096 bytes of output are read, then
 * shell_cook() applies the kernel's do_shell() rules.
 *
 * Identical commands run once per shell.  With jobs > 1 a command not
 * already known starts in the background and its caller gets a future
 * placeholder; at most jobs commands run at once, and waiting for one
 * keeps reading the pipes of all of them.
 *
 * The disk cache maps (command, digest) to output.  The digest covers the
 * working directory, the values of the environment variables that the
 * kernel's Makefile exports (and a few more that change tool behaviour),
 * and the identity (realpath, device, inode, size, mtime, ctime) of every
 * word of the command that names a file: words with a '/' and bare words
 * found as executables on PATH.  Missing files are part of the digest too,
 * so installing a tool is noticed.  The file is a lib/cachefile.h cache
 * ("KCSHELL\n"; its identity is unused, each entry carrying its own
 * digest) whose payload is the entries one after the other:
 *
 *	<32 hex digest> <cmd length> <output length>\n<cmd>\n<output>\n ...
 *
 * Anything that does not parse, or a bad header or checksum, discards the
 * whole file and it is rewritten at the next save (atomically, by
 * cachefile_write).
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preprocess.h"
#include "shell.h"
#include "../lib/cachefile.h"
#include "../lib/strmap.h"
#include "../lib/util.h"

#define SHELL_BUFSIZE	4096
#define CACHE_MAGIC	"KCSHELL\n"
#define CACHE_VERSION	1	/* of the payload's entry format */

/* A streaming 128-bit hash (two independent 64-bit lanes). */
struct digest {
	uint64_t	a;
	uint64_t	b;
};

/*
 * One $(shell) call of this run.  A job whose command text holds
 * placeholders of unfinished jobs waits (JOB_WAIT) and is substituted and
 * started from the loop that reaps jobs once they have finished; a job
 * whose command turns out to equal an earlier one's copies that job's
 * output (JOB_ALIAS); a ready job waits for a free slot in JOB_QUEUED.
 */
enum job_state {
	JOB_WAIT,
	JOB_ALIAS,
	JOB_QUEUED,
	JOB_RUNNING,
	JOB_DONE,
};

struct job {
	char		*cmd;		/* the command; NULL until known */
	char		*tmpl;		/* JOB_WAIT: text with placeholders */
	enum job_state	 state;
	size_t		 alias;		/* JOB_ALIAS: the job it copies */
	struct digest	 dig;
	pid_t		 pid;		/* > 0 while not reaped */
	int		 fd;		/* read end, -1 when closed */
	char		*buf;		/* SHELL_BUFSIZE + 1 bytes */
	size_t		 len;
	char		*out;		/* result once JOB_DONE */
	char		*error;		/* a failed start, not reported yet */
	int		 errfd;		/* captured stderr (memfd) or -1 */
};

/* A key of the dedup table: a command, or a template with placeholders. */
struct jkey {
	const char	*key;		/* NULL: empty slot */
	uint64_t	 hash;
	size_t		 job;
};

/* One cache record. */
struct centry {
	const char	*cmd;
	size_t		 cmdlen;
	const char	*out;
	size_t		 outlen;
	size_t		 next;		/* same cmd: entry index + 1, or 0 */
	struct digest	 dig;
	bool		 owned;		/* cmd/out malloc'd (not in file) */
	bool		 fresh;		/* added in this run */
	bool		 superseded;	/* replaced by a fresh entry */
};

/* Memoised identity of a command word. */
struct word {
	char		*name;
	char		*ident;
	uint64_t	 hash;
	struct word	*next;
};

/* A PATH directory, listed once so that most misses cost no syscall. */
struct pathdir {
	char		*dir;
	bool		 listed;	/* names[] is valid */
	const char	**names;	/* open addressing set */
	size_t		 size;		/* power of two */
};

struct shell {
	char *const	*envp;
	char		*cache_path;
	int		 jobs;

	struct job	*job;
	size_t		 njob;
	size_t		 jobcap;
	struct jkey	*jobtab;	/* open addressing */
	size_t		 jobtabsize;	/* power of two */
	size_t		 njobkeys;
	int		 running;	/* JOB_RUNNING */
	size_t		 waiting;	/* JOB_WAIT and JOB_ALIAS */
	size_t		 queued;	/* JOB_QUEUED */
	size_t		 qlow;		/* no JOB_QUEUED job below this */
	size_t		 err_next;	/* next job whose stderr is due */
	size_t		 err_drop;	/* jobs from here on stay silent */

	struct centry	*ent;
	size_t		 nent;
	size_t		 entcap;
	struct strmap	 entmap;	/* cmd -> its latest entry index + 1,
					   the others chained through next */
	char		*filebuf;	/* the loaded cache file's payload */
	bool		 dirty;

	struct digest	 base;		/* cwd and environment */
	struct word	**words;
	size_t		 wordsize;
	const char	*path;		/* PATH from envp */
	struct pathdir	*dirs;		/* PATH, split and listed lazily */
	size_t		 ndirs;
	bool		 dirs_ready;
	struct arena	 arena;		/* directory entry names */

	struct shell_stats stats;

	/* With jobs > 1 the job loop runs in a worker thread while commands
	 * are in flight, so that jobs are reaped and started however long
	 * the caller goes without calling us.  lock guards everything above
	 * (the public functions take it); cond tells waiters that jobs have
	 * moved on; a byte on wake[1] that the running set has changed. */
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	pthread_t	 thread;
	bool		 threaded;
	bool		 stop;
	int		 wake[2];
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

/* A 64-bit hash of a byte string. */
static uint64_t
hash64(const char *s, size_t len)
{
	struct digest d;

	digest_init(&d);
	digest_add(&d, s, len);
	return d.a ^ (d.b >> 1);
}

/* Apply the kernel's do_shell() post-processing to raw output. */
size_t
shell_cook(char *buf, size_t len)
{
	size_t i;

	if (len >= SHELL_BUFSIZE)
		len = SHELL_BUFSIZE - 1;
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			buf[i] = ' ';
		else if (buf[i] == '\0')
			return i;
	}
	return len;
}

/* Look a variable up in an environment array. */
static const char *
shell_getenv(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp != NULL && *envp != NULL; envp++) {
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	}
	return NULL;
}

/* Start "/bin/sh -c cmd" with stderr to errfd (-1: ours); returns the
 * read end of its stdout or -1. */
static int
shell_spawn(const char *cmd, char *const *envp, int errfd, pid_t *pid,
    char **cause)
{
	posix_spawn_file_actions_t	 fa;
	char				*argv[4];
	int				 pfd[2], error;

	if (pipe2(pfd, O_CLOEXEC) != 0) {
		*cause = xasprintf("%s: pipe: %s", cmd, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	if (errfd != -1)
		posix_spawn_file_actions_adddup2(&fa, errfd, 2);

	argv[0] = (char *)"sh";
	argv[1] = (char *)"-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	error = posix_spawn(pid, "/bin/sh", &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (error != 0) {
		close(pfd[0]);
		*cause = xasprintf("%s: %s", cmd, strerror(error));
		return -1;
	}
	return pfd[0];
}

/* Wait for a child, ignoring its status as pclose's caller does. */
static void
shell_reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
}

/* Run cmd like make's $(shell ...): whole output, newlines folded. */
char *
shell_capture(const char *cmd, char *const *envp, char **cause)
{
	struct strbuf	 sb;
	char		 buf[4096];
	ssize_t		 n;
	size_t		 i;
	pid_t		 pid;
	int		 fd;

	if ((fd = shell_spawn(cmd, envp, -1, &pid, cause)) == -1)
		return NULL;
	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	close(fd);
	shell_reap(pid);
	while (sb.len > 0 && sb.s[sb.len - 1] == '\n')
		sb.s[--sb.len] = '\0';
	for (i = 0; i < sb.len; i++) {
		if (sb.s[i] == '\n')
			sb.s[i] = ' ';
	}
	return strbuf_detach(&sb);
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
static void
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
	size_t		 n, count, slot;
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
			pd->size = 256;
			pd->names = xcalloc(pd->size, sizeof *pd->names);
			count = 0;
			while ((de = readdir(d)) != NULL) {
				if (de->d_name[0] == '.')
					continue;
				if (++count * 2 >= pd->size) {
					const char **old = pd->names;
					size_t i, oldsize = pd->size;

					pd->size *= 2;
					pd->names = xcalloc(pd->size,
					    sizeof *pd->names);
					for (i = 0; i < oldsize; i++) {
						if (old[i] == NULL)
							continue;
						slot = hash_str(old[i],
						    strlen(old[i])) &
						    (pd->size - 1);
						while (pd->names[slot] != NULL)
							slot = (slot + 1) &
							    (pd->size - 1);
						pd->names[slot] = old[i];
					}
					free(old);
				}
				slot = hash_str(de->d_name, strlen(de->d_name))
				    & (pd->size - 1);
				while (pd->names[slot] != NULL)
					slot = (slot + 1) & (pd->size - 1);
				pd->names[slot] = arena_strdup(&sh->arena,
				    de->d_name);
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
	size_t slot;

	if (!pd->listed)
		return true;
	slot = hash_str(name, strlen(name)) & (pd->size - 1);
	while (pd->names[slot] != NULL) {
		if (strcmp(pd->names[slot], name) == 0)
			return true;
		slot = (slot + 1) & (pd->size - 1);
	}
	return false;
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
	struct word	*w;
	uint64_t	 h = hash64(s, len);
	size_t		 slot = h & (sh->wordsize - 1);

	for (w = sh->words[slot]; w != NULL; w = w->next) {
		if (w->hash == h && strlen(w->name) == len &&
		    memcmp(w->name, s, len) == 0)
			return w->ident;
	}
	w = xmalloc(sizeof *w);
	w->name = xstrndup(s, len);
	w->hash = h;
	if (memchr(s, '/', len) != NULL)
		w->ident = shell_identify(w->name);
	else
		w->ident = shell_identify_path(sh, w->name);
	w->next = sh->words[slot];
	sh->words[slot] = w;
	return w->ident;
}

/* Is c a separator between the words of a command? */
static bool
shell_is_sep(char c)
{
	return c == '\0' || strchr(" \t\n;|&<>()'\"`$={}!*?[]\\,", c) != NULL;
}

/* The digest of a command: base, text, identity of file words. */
static void
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

/* Find a cache entry for (cmd, digest): the entries of a command are
 * chained from its map entry (one per digest seen, e.g. per compiler). */
static struct centry *
shell_cache_find(struct shell *sh, const char *cmd, size_t len,
    const struct digest *d)
{
	struct centry	*e;
	size_t		 i;

	i = (size_t)(uintptr_t)strmap_get(&sh->entmap, cmd, len);
	for (; i != 0; i = e->next) {
		e = &sh->ent[i - 1];
		if (e->dig.a == d->a && e->dig.b == d->b)
			return e;
	}
	return NULL;
}

/* Add a cache entry; fresh entries supersede others for the same cmd. The
 * map borrows cmd from the entry (the loaded file or its own copy). */
static void
shell_cache_add(struct shell *sh, const char *cmd, size_t cmdlen,
    const char *out, size_t outlen, const struct digest *d, bool fresh)
{
	struct strmap_entry	*me;
	struct centry		*e;
	size_t			 i, k;

	if (sh->nent == sh->entcap) {
		sh->entcap = sh->entcap ? sh->entcap * 2 : 256;
		sh->ent = xrealloc(sh->ent, sh->entcap * sizeof *sh->ent);
	}
	i = sh->nent++;
	e = &sh->ent[i];
	e->dig = *d;
	e->fresh = fresh;
	e->superseded = false;
	e->owned = fresh;
	e->cmdlen = cmdlen;
	e->outlen = outlen;
	if (fresh) {
		e->cmd = xstrndup(cmd, cmdlen);
		e->out = xstrndup(out, outlen);
		sh->dirty = true;
	} else {
		e->cmd = cmd;
		e->out = out;
	}
	me = strmap_insert(&sh->entmap, e->cmd, cmdlen, NULL);
	e->next = (size_t)(uintptr_t)me->value;
	me->value = (void *)(uintptr_t)(i + 1);
	if (fresh) {
		for (k = e->next; k != 0; k = sh->ent[k - 1].next)
			sh->ent[k - 1].superseded = true;
	}
}

/* Forget every loaded entry (a corrupt file). */
static void
shell_cache_reset(struct shell *sh)
{
	size_t i;

	for (i = 0; i < sh->nent; i++) {
		if (sh->ent[i].owned) {
			free((char *)sh->ent[i].cmd);
			free((char *)sh->ent[i].out);
		}
	}
	sh->nent = 0;
	strmap_free(&sh->entmap);
}

/* Parse a hex number of exactly n digits. */
static bool
shell_parse_hex(const char *p, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		*v <<= 4;
		if (p[i] >= '0' && p[i] <= '9')
			*v |= (uint64_t)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			*v |= (uint64_t)(p[i] - 'a' + 10);
		else
			return false;
	}
	return true;
}

/* Parse a decimal size ending at a given character. */
static bool
shell_parse_size(const char **pp, const char *end, char stop, size_t *v)
{
	const char *p = *pp;

	if (p >= end || *p < '0' || *p > '9')
		return false;
	*v = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (*v > SIZE_MAX / 10 - 10)
			return false;
		*v = *v * 10 + (size_t)(*p++ - '0');
	}
	if (p >= end || *p != stop)
		return false;
	*pp = p + 1;
	return true;
}

/* Parse the loaded cache payload (NUL-terminated, writable: each cmd and
 * output is terminated in place); false if it is corrupt. */
static bool
shell_cache_parse(struct shell *sh, char *buf, size_t size)
{
	struct digest	 d;
	const char	*p, *end, *cmd, *out;
	size_t		 cmdlen, outlen;

	p = buf;
	end = buf + size;
	while (p < end) {
		if (end - p < 33 || !shell_parse_hex(p, 16, &d.a) ||
		    !shell_parse_hex(p + 16, 16, &d.b) || p[32] != ' ')
			return false;
		p += 33;
		if (!shell_parse_size(&p, end, ' ', &cmdlen) ||
		    !shell_parse_size(&p, end, '\n', &outlen))
			return false;
		if ((size_t)(end - p) < cmdlen + outlen + 2 ||
		    p[cmdlen] != '\n' || p[cmdlen + 1 + outlen] != '\n')
			return false;
		cmd = p;
		out = p + cmdlen + 1;
		buf[cmd - buf + cmdlen] = '\0';
		buf[out - buf + outlen] = '\0';
		if (memchr(cmd, '\0', cmdlen) != NULL ||
		    memchr(out, '\0', outlen) != NULL)
			return false;
		shell_cache_add(sh, cmd, cmdlen, out, outlen, &d, false);
		p = out + outlen + 1;
	}
	return true;
}

/* Load the cache file, if any. Its payload is copied out of the mapping:
 * parsing terminates strings in place, and it is small. */
static void
shell_cache_load(struct shell *sh)
{
	struct cachefile	 cf;
	char			*buf, *why = NULL;

	if (cachefile_open(&cf, sh->cache_path, CACHE_MAGIC, CACHE_VERSION,
	    0, &why) != 0) {
		if (why != NULL)	/* there, but unusable: rewrite it */
			sh->dirty = true;
		free(why);
		return;
	}
	buf = xmalloc(cf.len + 1);
	memcpy(buf, cf.data, cf.len);
	buf[cf.len] = '\0';
	if (!shell_cache_parse(sh, buf, cf.len)) {
		shell_cache_reset(sh);
		free(buf);
		sh->dirty = true;
	} else
		sh->filebuf = buf;
	cachefile_close(&cf);
}

/* Save the cache if it changed (locked). */
static int
shell_save_locked(struct shell *sh, char **cause)
{
	struct strbuf	 sb;
	struct centry	*e;
	size_t		 i;
	int		 rc;

	if (sh->cache_path == NULL || !sh->dirty)
		return 0;
	strbuf_init(&sb);
	for (i = 0; i < sh->nent; i++) {
		e = &sh->ent[i];
		if (e->superseded)
			continue;
		strbuf_addf(&sb, "%016llx%016llx %zu %zu\n",
		    (unsigned long long)e->dig.a, (unsigned long long)e->dig.b,
		    e->cmdlen, e->outlen);
		strbuf_add(&sb, e->cmd, e->cmdlen);
		strbuf_addc(&sb, '\n');
		strbuf_add(&sb, e->out, e->outlen);
		strbuf_addc(&sb, '\n');
	}
	rc = cachefile_write(sh->cache_path, CACHE_MAGIC, CACHE_VERSION, 0,
	    sb.s != NULL ? sb.s : "", sb.len, cause);
	strbuf_free(&sb);
	if (rc == 0)
		sh->dirty = false;
	return rc;
}

/* Create a shell runner. */
struct shell *
shell_create(char *const *envp, const char *cache_path, int jobs)
{
	struct shell *sh = xcalloc(1, sizeof *sh);

	sh->envp = envp;
	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->cond, NULL);
	sh->wake[0] = sh->wake[1] = -1;
	sh->err_drop = SIZE_MAX;
	sh->jobs = jobs > 1 ? jobs : 1;
	sh->path = shell_getenv(envp, "PATH");
	sh->wordsize = 256;
	sh->words = xcalloc(sh->wordsize, sizeof *sh->words);
	arena_init(&sh->arena);
	strmap_init(&sh->entmap);
	if (cache_path != NULL) {
		sh->cache_path = xstrdup(cache_path);
		shell_base_digest(sh);
		shell_cache_load(sh);
	}
	return sh;
}

/* If s starts a placeholder, its length (and *id); else 0. */
static size_t
shell_placeholder(const char *s, size_t *id)
{
	const char	*p = s + 1;
	size_t		 v = 0;

	if (*s != PP_FUTURE_START)
		return 0;
	while (*p >= '0' && *p <= '9' && p - s < 20)
		v = v * 10 + (size_t)(*p++ - '0');
	if (p == s + 1 || *p != PP_FUTURE_END)
		return 0;
	*id = v;
	return (size_t)(p + 1 - s);
}

/* Have all the jobs whose placeholders s holds finished? (locked) */
static bool
shell_ready_locked(const struct shell *sh, const char *s)
{
	const char	*q;
	size_t		 id, n;

	for (q = strchr(s, PP_FUTURE_START); q != NULL;
	    q = strchr(q + 1, PP_FUTURE_START)) {
		if ((n = shell_placeholder(q, &id)) == 0 || id >= sh->njob)
			continue;
		if (sh->job[id].state != JOB_DONE)
			return false;
	}
	return true;
}

/* Substitute the placeholders of s, whose jobs have all finished. */
static char *
shell_subst_done(struct shell *sh, const char *s)
{
	struct strbuf	 sb;
	const char	*p = s, *q;
	size_t		 id, n;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	while ((q = strchr(p, PP_FUTURE_START)) != NULL) {
		strbuf_add(&sb, p, q - p);
		if ((n = shell_placeholder(q, &id)) == 0 || id >= sh->njob ||
		    sh->job[id].state != JOB_DONE) {
			strbuf_addc(&sb, *q);
			p = q + 1;
			continue;
		}
		strbuf_adds(&sb, sh->job[id].out);
		p = q + n;
	}
	strbuf_adds(&sb, p);
	return strbuf_detach(&sb);
}

/* Find the job of a command or template; SIZE_MAX if none. */
static size_t
shell_job_find(struct shell *sh, const char *key, uint64_t h)
{
	struct jkey	*k;
	size_t		 slot;

	if (sh->jobtabsize == 0)
		return SIZE_MAX;
	slot = h & (sh->jobtabsize - 1);
	for (k = &sh->jobtab[slot]; k->key != NULL;
	    k = &sh->jobtab[slot]) {
		if (k->hash == h && strcmp(k->key, key) == 0)
			return k->job;
		slot = (slot + 1) & (sh->jobtabsize - 1);
	}
	return SIZE_MAX;
}

/* Make key (which must outlive the table) find job i. */
static void
shell_key_add(struct shell *sh, const char *key, uint64_t h, size_t i)
{
	struct jkey	*old = sh->jobtab, *k;
	size_t		 oldsize = sh->jobtabsize, slot, n;

	if ((sh->njobkeys + 1) * 2 >= sh->jobtabsize) {
		sh->jobtabsize = oldsize ? oldsize * 2 : 128;
		sh->jobtab = xcalloc(sh->jobtabsize, sizeof *sh->jobtab);
		for (n = 0; n < oldsize; n++) {
			if (old[n].key == NULL)
				continue;
			slot = old[n].hash & (sh->jobtabsize - 1);
			while (sh->jobtab[slot].key != NULL)
				slot = (slot + 1) & (sh->jobtabsize - 1);
			sh->jobtab[slot] = old[n];
		}
		free(old);
	}
	slot = h & (sh->jobtabsize - 1);
	while (sh->jobtab[slot].key != NULL)
		slot = (slot + 1) & (sh->jobtabsize - 1);
	k = &sh->jobtab[slot];
	k->key = key;
	k->hash = h;
	k->job = i;
	sh->njobkeys++;
}

/* Add a job in state JOB_WAIT with no command yet; returns its index. */
static size_t
shell_job_add(struct shell *sh)
{
	struct job *j;

	if (sh->njob == sh->jobcap) {
		sh->jobcap = sh->jobcap ? sh->jobcap * 2 : 64;
		sh->job = xrealloc(sh->job, sh->jobcap * sizeof *sh->job);
	}
	j = &sh->job[sh->njob];
	memset(j, 0, sizeof *j);
	j->state = JOB_WAIT;
	j->fd = -1;
	j->errfd = -1;
	return sh->njob++;
}

static void	*shell_worker(void *);

/* The running set has changed: have the worker (started if need be)
 * poll the new one. */
static void
shell_wake(struct shell *sh)
{
	sigset_t	all, old;
	ssize_t		n;

	if (sh->jobs <= 1)
		return;
	if (!sh->threaded) {
		if (pipe2(sh->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
			sh->wake[0] = sh->wake[1] = -1;
			return;	/* callers poll instead */
		}
		/* Signals are for the main thread. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		sh->stop = false;
		sh->threaded = pthread_create(&sh->thread, NULL, shell_worker,
		    sh) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!sh->threaded) {
			close(sh->wake[0]);
			close(sh->wake[1]);
			sh->wake[0] = sh->wake[1] = -1;
		}
		return;
	}
	do
		n = write(sh->wake[1], "", 1);
	while (n == -1 && errno == EINTR);
}

/* Start job i's command in the background. */
static void
shell_start(struct shell *sh, size_t i)
{
	struct job	*j = &sh->job[i];
	char		*cause = NULL;

	/* In parallel, stderr is kept and replayed in the order of the
	 * input (shell_flush_stderr). */
	if (sh->jobs > 1 && i >= sh->err_next && i < sh->err_drop)
		j->errfd = memfd_create("kctui-stderr", MFD_CLOEXEC);
	j->fd = shell_spawn(j->cmd, sh->envp, j->errfd, &j->pid, &cause);
	if (j->fd == -1) {
		/* Remember the failure as an empty, uncached answer. */
		j->out = xstrdup("");
		j->error = cause;
		j->state = JOB_DONE;
		return;
	}
	j->buf = xmalloc(SHELL_BUFSIZE + 1);
	j->state = JOB_RUNNING;
	shell_wake(sh);
	sh->running++;
	sh->stats.runs++;
}

/*
 * Job i's command is known (cmd, which is taken over): answer it from an
 * identical earlier command or the disk cache, or start it now if a slot
 * is free, else queue it.
 */
static void
shell_launch(struct shell *sh, size_t i, char *cmd)
{
	struct job	*j = &sh->job[i];
	struct centry	*e;
	uint64_t	 h = hash64(cmd, strlen(cmd));
	size_t		 k;

	if ((k = shell_job_find(sh, cmd, h)) != SIZE_MAX) {
		free(cmd);
		sh->stats.dedup++;
		if (sh->job[k].state == JOB_DONE) {
			j->out = xstrdup(sh->job[k].out);
			j->state = JOB_DONE;
		} else {
			j->alias = k;
			j->state = JOB_ALIAS;
			sh->waiting++;
		}
		return;
	}
	j->cmd = cmd;
	shell_key_add(sh, cmd, h, i);
	if (sh->cache_path != NULL) {
		shell_digest(sh, cmd, &j->dig);
		e = shell_cache_find(sh, cmd, strlen(cmd), &j->dig);
		if (e != NULL) {
			sh->stats.cached++;
			j->out = xstrndup(e->out, e->outlen);
			j->state = JOB_DONE;
			return;
		}
	}
	if (sh->running < sh->jobs && sh->queued == 0) {
		shell_start(sh, i);
		return;
	}
	j->state = JOB_QUEUED;
	sh->queued++;
	if (i < sh->qlow)
		sh->qlow = i;
}

/* Start the queued job that comes first in the input. */
static void
shell_start_next(struct shell *sh)
{
	size_t i;

	for (i = sh->qlow; i < sh->njob; i++) {
		if (sh->job[i].state == JOB_QUEUED)
			break;
	}
	if (i == sh->njob) {
		/* Cannot happen: queued counts JOB_QUEUED jobs. */
		sh->queued = 0;
		return;
	}
	sh->queued--;
	sh->qlow = i + 1;
	shell_start(sh, i);
}

/*
 * Someone waits for job i: start it now if it is queued (even beyond the
 * limit: the waiter is not working meanwhile), or the jobs it needs.
 */
static void
shell_promote(struct shell *sh, size_t i)
{
	const char	*q;
	size_t		 id;

	switch (sh->job[i].state) {
	case JOB_QUEUED:
		sh->queued--;
		shell_start(sh, i);
		break;
	case JOB_ALIAS:
		shell_promote(sh, sh->job[i].alias);
		break;
	case JOB_WAIT:
		for (q = strchr(sh->job[i].tmpl, PP_FUTURE_START); q != NULL;
		    q = strchr(q + 1, PP_FUTURE_START)) {
			if (shell_placeholder(q, &id) != 0 && id < i)
				shell_promote(sh, id);
		}
		break;
	default:
		break;
	}
}

/*
 * Move every job on that can move without waiting: copy finished
 * originals into aliases, substitute and launch jobs whose placeholders
 * have all finished, and start queued jobs while slots are free, earliest
 * in the input first (as the kernel would run them; dependent jobs, often
 * on the way to others, come before later probes).
 */
static void
shell_progress(struct shell *sh)
{
	struct job	*j;
	size_t		 i;
	bool		 changed;

	do {
		changed = false;
		for (i = 0; sh->waiting > 0 && i < sh->njob; i++) {
			j = &sh->job[i];
			if (j->state == JOB_ALIAS &&
			    sh->job[j->alias].state == JOB_DONE) {
				j->out = xstrdup(sh->job[j->alias].out);
				j->state = JOB_DONE;
				sh->waiting--;
				changed = true;
			} else if (j->state == JOB_WAIT &&
			    shell_ready_locked(sh, j->tmpl)) {
				sh->waiting--;
				shell_launch(sh, i, shell_subst_done(sh,
				    j->tmpl));
				changed = true;
			}
		}
		while (sh->running < sh->jobs && sh->queued > 0) {
			shell_start_next(sh);
			changed = true;
		}
	} while (changed);
}

/* A job has reached EOF or its buffer is full: close, reap, cook. */
static void
shell_finish(struct shell *sh, struct job *j)
{
	size_t len;

	close(j->fd);
	j->fd = -1;
	shell_reap(j->pid);
	j->pid = 0;
	len = shell_cook(j->buf, j->len);
	j->out = xstrndup(j->buf, len);
	free(j->buf);
	j->buf = NULL;
	j->state = JOB_DONE;
	sh->running--;
	if (sh->cache_path != NULL)
		shell_cache_add(sh, j->cmd, strlen(j->cmd), j->out, len,
		    &j->dig, true);
}

/* A running job's pipe is readable: read, and finish it at EOF. */
static void
shell_read(struct shell *sh, struct job *j)
{
	ssize_t r;

	r = read(j->fd, j->buf + j->len, SHELL_BUFSIZE - j->len);
	if (r == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (r > 0)
		j->len += (size_t)r;
	if (r <= 0 || j->len == SHELL_BUFSIZE)
		shell_finish(sh, j);
}

/*
 * The worker thread: the job loop while commands are in flight.  It polls
 * the running jobs' pipes and the wake pipe with the lock released, then
 * reads, finishes, moves the other jobs on and tells the waiters.
 */
static void *
shell_worker(void *arg)
{
	struct shell	*sh = arg;
	struct pollfd	*pfd = NULL;
	struct job	*j;
	size_t		*idx = NULL, cap = 0, i, n;
	char		 buf[64];

	pthread_mutex_lock(&sh->lock);
	while (!sh->stop) {
		shell_progress(sh);
		pthread_cond_broadcast(&sh->cond);
		if (cap < (size_t)sh->running + 1) {
			cap = (size_t)sh->running + 16;
			pfd = xrealloc(pfd, cap * sizeof *pfd);
			idx = xrealloc(idx, cap * sizeof *idx);
		}
		pfd[0].fd = sh->wake[0];
		pfd[0].events = POLLIN;
		n = 1;
		for (i = 0; i < sh->njob && n < (size_t)sh->running + 1; i++) {
			if (sh->job[i].state != JOB_RUNNING)
				continue;
			pfd[n].fd = sh->job[i].fd;
			pfd[n].events = POLLIN;
			idx[n++] = i;
		}
		for (i = 0; i < n; i++)
			pfd[i].revents = 0;
		pthread_mutex_unlock(&sh->lock);
		i = poll(pfd, n, -1) > 0;
		pthread_mutex_lock(&sh->lock);
		if (!i)
			continue;	/* EINTR */
		if (pfd[0].revents != 0) {
			while (read(sh->wake[0], buf, sizeof buf) > 0)
				;
		}
		/* Only this thread finishes jobs: those polled still run. */
		for (i = 1; i < n; i++) {
			j = &sh->job[idx[i]];
			if (pfd[i].revents != 0 && j->state == JOB_RUNNING)
				shell_read(sh, j);
		}
	}
	pthread_mutex_unlock(&sh->lock);
	free(pfd);
	free(idx);
	return NULL;
}

/* Stop the worker once nothing runs (locked; returns locked). */
static void
shell_stop_worker(struct shell *sh)
{
	if (!sh->threaded)
		return;
	sh->stop = true;
	shell_wake(sh);
	pthread_mutex_unlock(&sh->lock);
	pthread_join(sh->thread, NULL);
	pthread_mutex_lock(&sh->lock);
	sh->threaded = false;
	close(sh->wake[0]);
	close(sh->wake[1]);
	sh->wake[0] = sh->wake[1] = -1;
}

/*
 * One round of the job loop: read the pipes of running jobs that have
 * output, waiting up to timeout ms (-1: until one has), finish the jobs at
 * EOF, then move the others on.
 */
static void
shell_step(struct shell *sh, int timeout)
{
	struct pollfd	 fds[64], *pfd = fds;
	size_t		 i, n = 0, *idx, idxs[64];

	if (sh->running > 0) {
		if ((size_t)sh->running > 64) {
			pfd = xcalloc(sh->running, sizeof *pfd);
			idx = xcalloc(sh->running, sizeof *idx);
		} else
			idx = idxs;
		for (i = 0; i < sh->njob && n < (size_t)sh->running; i++) {
			if (sh->job[i].state != JOB_RUNNING)
				continue;
			pfd[n].fd = sh->job[i].fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			idx[n++] = i;
		}
		if (poll(pfd, n, timeout) > 0) {
			for (i = 0; i < n; i++) {
				if (pfd[i].revents != 0)
					shell_read(sh, &sh->job[idx[i]]);
			}
		}
		if (pfd != fds) {
			free(pfd);
			free(idx);
		}
	}
	shell_progress(sh);
}

/* Move background jobs on without blocking. */
void
shell_poll(struct shell *sh)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->threaded)
		shell_step(sh, 0);
	pthread_mutex_unlock(&sh->lock);
}

/* Wait for the jobs to move on: by the worker, else by polling. */
static void
shell_wait_step(struct shell *sh)
{
	if (sh->threaded)
		pthread_cond_wait(&sh->cond, &sh->lock);
	else
		shell_step(sh, -1);
}

/* Wait until job i has finished. */
static void
shell_wait_job(struct shell *sh, size_t i)
{
	if (sh->job[i].state != JOB_DONE) {
		shell_progress(sh);
		shell_promote(sh, i);
		if (sh->job[i].state != JOB_DONE)
			sh->stats.waits++;
	}
	while (sh->job[i].state != JOB_DONE) {
		if (sh->running == 0) {
			shell_progress(sh);
			if (sh->job[i].state == JOB_DONE)
				break;
			if (sh->running == 0) {
				/* Cannot happen: placeholders name only
				 * earlier jobs, so something must run. */
				sh->job[i].error = xasprintf("$(shell) "
				    "future %zu cannot finish", i);
				sh->job[i].out = xstrdup("");
				sh->job[i].state = JOB_DONE;
				break;
			}
		}
		shell_wait_step(sh);
	}
}

/* The caller's copy of job i's answer: output or placeholder. */
static char *
shell_answer(struct shell *sh, size_t i)
{
	if (sh->job[i].state == JOB_DONE)
		return xstrdup(sh->job[i].out);
	return xasprintf("%c%zu%c", PP_FUTURE_START, i, PP_FUTURE_END);
}

/* Run a command (locked). */
static char *
shell_run_locked(struct shell *sh, const char *cmd, char **cause)
{
	struct job	*j;
	uint64_t	 h;
	size_t		 i;

	if (sh->jobs > 1 && strchr(cmd, PP_FUTURE_START) != NULL &&
	    !shell_ready_locked(sh, cmd)) {
		/* A dependent future: substituted and started later. */
		h = hash64(cmd, strlen(cmd));
		if ((i = shell_job_find(sh, cmd, h)) != SIZE_MAX) {
			sh->stats.dedup++;
			return shell_answer(sh, i);
		}
		i = shell_job_add(sh);
		j = &sh->job[i];
		j->tmpl = xstrdup(cmd);
		sh->waiting++;
		shell_key_add(sh, j->tmpl, h, i);
		return shell_answer(sh, i);
	}
	if (strchr(cmd, PP_FUTURE_START) != NULL)
		cmd = shell_subst_done(sh, cmd);
	else
		cmd = xstrdup(cmd);
	h = hash64(cmd, strlen(cmd));
	if ((i = shell_job_find(sh, cmd, h)) != SIZE_MAX) {
		free((char *)cmd);
		sh->stats.dedup++;
		if (sh->jobs <= 1)
			shell_wait_job(sh, i);
		return shell_answer(sh, i);
	}
	i = shell_job_add(sh);
	shell_launch(sh, i, (char *)cmd);
	j = &sh->job[i];
	if (j->state == JOB_RUNNING && sh->jobs <= 1)
		shell_wait_job(sh, i);
	if (j->error != NULL) {
		*cause = j->error;
		j->error = NULL;
		return NULL;
	}
	return shell_answer(sh, i);
}

/* Run a command (see shell.h). */
char *
shell_run(struct shell *sh, const char *cmd, char **cause)
{
	char *res;

	pthread_mutex_lock(&sh->lock);
	res = shell_run_locked(sh, cmd, cause);
	pthread_mutex_unlock(&sh->lock);
	return res;
}

/* Have all the jobs whose placeholders s holds finished? */
bool
shell_ready(struct shell *sh, const char *s)
{
	bool ready;

	if (strchr(s, PP_FUTURE_START) == NULL)
		return true;
	pthread_mutex_lock(&sh->lock);
	ready = shell_ready_locked(sh, s);
	pthread_mutex_unlock(&sh->lock);
	return ready;
}

/* The output of a future (locked). */
static const char *
shell_result_locked(struct shell *sh, unsigned int id, char **cause)
{
	struct job *j;

	if (id >= sh->njob) {
		*cause = xasprintf("unknown $(shell) future %u", id);
		return NULL;
	}
	shell_wait_job(sh, id);
	j = &sh->job[id];
	if (j->error != NULL) {
		*cause = j->error;
		j->error = NULL;
		return NULL;
	}
	return j->out;
}

/* The output of a future; job outputs never move once done. */
const char *
shell_result(struct shell *sh, unsigned int id, char **cause)
{
	const char *out;

	pthread_mutex_lock(&sh->lock);
	out = shell_result_locked(sh, id, cause);
	pthread_mutex_unlock(&sh->lock);
	return out;
}

/* Replace every placeholder in s by its output, waiting as needed. */
char *
shell_resolve(struct shell *sh, const char *s, char **cause)
{
	struct strbuf	 sb;
	const char	*p = s, *q, *out;
	size_t		 id, n;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	pthread_mutex_lock(&sh->lock);
	while ((q = strchr(p, PP_FUTURE_START)) != NULL) {
		strbuf_add(&sb, p, q - p);
		if ((n = shell_placeholder(q, &id)) == 0) {
			/* Not a placeholder after all: keep the byte. */
			strbuf_addc(&sb, *q);
			p = q + 1;
			continue;
		}
		if (id > UINT_MAX)
			id = UINT_MAX;
		out = shell_result_locked(sh, (unsigned)id, cause);
		if (out == NULL) {
			pthread_mutex_unlock(&sh->lock);
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_adds(&sb, out);
		p = q + n;
	}
	pthread_mutex_unlock(&sh->lock);
	strbuf_adds(&sb, p);
	return strbuf_detach(&sb);
}

/* Copy job i's captured stderr to ours, unless dropped, and close it. */
static void
shell_emit_stderr(struct shell *sh, size_t i)
{
	struct job	*j = &sh->job[i];
	char		 buf[4096];
	ssize_t		 n, w, off;
	off_t		 pos = 0;

	if (j->errfd == -1)
		return;
	while (i < sh->err_drop &&
	    (n = pread(j->errfd, buf, sizeof buf, pos)) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		pos += n;
		for (off = 0; off < n; off += w) {
			w = write(STDERR_FILENO, buf + off, (size_t)(n - off));
			if (w == -1 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				break;
		}
	}
	close(j->errfd);
	j->errfd = -1;
}

/* Replay stderr (locked); see shell_flush_stderr. */
static void
shell_flush_stderr_locked(struct shell *sh, size_t limit, bool wait)
{
	while (sh->err_next < sh->njob && sh->err_next < limit) {
		if (sh->job[sh->err_next].state != JOB_DONE) {
			if (!wait)
				break;
			shell_wait_job(sh, sh->err_next);
		}
		shell_emit_stderr(sh, sh->err_next++);
	}
}

/* Copy the captured stderr of jobs before limit to ours, in order, as far
 * as they have finished (or waiting for them). */
void
shell_flush_stderr(struct shell *sh, size_t limit, bool wait)
{
	pthread_mutex_lock(&sh->lock);
	shell_flush_stderr_locked(sh, limit, wait);
	pthread_mutex_unlock(&sh->lock);
}

/* Jobs from first on never show their stderr. */
void
shell_drop_stderr(struct shell *sh, size_t first)
{
	pthread_mutex_lock(&sh->lock);
	if (first < sh->err_drop)
		sh->err_drop = first;
	pthread_mutex_unlock(&sh->lock);
}

/* The number of jobs so far: the id the next one will have. */
size_t
shell_mark(struct shell *sh)
{
	size_t n;

	pthread_mutex_lock(&sh->lock);
	n = sh->njob;
	pthread_mutex_unlock(&sh->lock);
	return n;
}

/* Wait for every background command and save the cache. */
int
shell_wait_all(struct shell *sh, char **cause)
{
	size_t	i;
	int	ret;

	pthread_mutex_lock(&sh->lock);
	for (;;) {
		shell_progress(sh);
		if (sh->running == 0)
			break;
		shell_wait_step(sh);
	}
	shell_stop_worker(sh);
	for (i = 0; i < sh->njob; i++) {
		if (sh->job[i].state == JOB_DONE)
			continue;
		/* Cannot happen (see shell_wait_job). */
		if (sh->job[i].state == JOB_QUEUED ||
		    sh->job[i].state == JOB_RUNNING)
			continue;
		sh->job[i].out = xstrdup("");
		sh->job[i].state = JOB_DONE;
	}
	sh->waiting = 0;
	shell_flush_stderr_locked(sh, SIZE_MAX, true);
	ret = shell_save_locked(sh, cause);
	for (i = 0; i < sh->njob; i++) {
		if (sh->job[i].error == NULL)
			continue;
		if (ret != 0)
			free(*cause);
		*cause = sh->job[i].error;
		sh->job[i].error = NULL;
		ret = -1;
		break;
	}
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* Save the cache now if anything was added. */
int
shell_save(struct shell *sh, char **cause)
{
	int ret;

	pthread_mutex_lock(&sh->lock);
	ret = shell_save_locked(sh, cause);
	pthread_mutex_unlock(&sh->lock);
	return ret;
}

/* Statistics. */
void
shell_get_stats(const struct shell *sh, struct shell_stats *st)
{
	pthread_mutex_t *lock = (pthread_mutex_t *)&sh->lock;

	pthread_mutex_lock(lock);
	*st = sh->stats;
	pthread_mutex_unlock(lock);
}

/* Free a shell runner. */
void
shell_free(struct shell *sh)
{
	struct word	*w, *next;
	char		*cause = NULL;
	size_t		 i;

	if (sh == NULL)
		return;
	if (shell_wait_all(sh, &cause) != 0)
		free(cause);
	for (i = 0; i < sh->njob; i++) {
		free(sh->job[i].cmd);
		free(sh->job[i].tmpl);
		free(sh->job[i].out);
		free(sh->job[i].buf);
		free(sh->job[i].error);
		if (sh->job[i].errfd != -1)
			close(sh->job[i].errfd);
	}
	free(sh->job);
	free(sh->jobtab);
	shell_cache_reset(sh);
	free(sh->ent);
	free(sh->filebuf);
	for (i = 0; i < sh->wordsize; i++) {
		for (w = sh->words[i]; w != NULL; w = next) {
			next = w->next;
			free(w->name);
			free(w->ident);
			free(w);
		}
	}
	free(sh->words);
	for (i = 0; i < sh->ndirs; i++) {
		free(sh->dirs[i].dir);
		free(sh->dirs[i].names);
	}
	free(sh->dirs);
	arena_free(&sh->arena);
	free(sh->cache_path);
	pthread_cond_destroy(&sh->cond);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}
