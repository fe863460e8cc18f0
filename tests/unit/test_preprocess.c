/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_preprocess.c - unit tests for the macro language, $(shell) cache,
 * futures and env_derive().  See tests/unit/README.
 *
 *	test_preprocess [LINUX_TREE]	run the tests
 *	test_preprocess --env TREE	print env_derive(TREE, environ)
 */
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../kconfig-parser/preprocess.h"
#include "../../lib/cachefile.h"
#include "../../lib/util.h"

#define UNIT_PREFIX ""
#include "unit.h"

static char	 tmpdir[256];
static char	*base_env[8];

struct msgs {
	struct strbuf	info;
	struct strbuf	warn;
};

/* Message callback collecting $(info) and $(warning-if) text. */
static void
collect(void *arg, enum pp_msg kind, const char *text)
{
	struct msgs *m = arg;

	strbuf_adds(kind == PP_INFO ? &m->info : &m->warn, text);
	strbuf_addc(kind == PP_INFO ? &m->info : &m->warn, '|');
}

/* A pp with the test environment and options. */
static struct pp *
mkpp(char **envp, const char *cache, int jobs, struct msgs *m)
{
	struct pp_options o;

	memset(&o, 0, sizeof o);
	o.envp = envp ? envp : base_env;
	o.cache_path = cache;
	o.shell_jobs = jobs;
	if (m != NULL) {
		strbuf_init(&m->info);
		strbuf_init(&m->warn);
		strbuf_add(&m->info, "", 0);
		strbuf_add(&m->warn, "", 0);
		o.message = collect;
		o.message_arg = m;
	}
	return pp_create(&o);
}

/* Expand and resolve; errors come back as "ERR:cause". */
static char *
ex(struct pp *pp, const char *s)
{
	char *cause = NULL, *r, *f;

	if ((r = pp_expand_string(pp, s, &cause)) == NULL) {
		f = xasprintf("ERR:%s", cause);
		free(cause);
		return f;
	}
	if (pp_has_future(r)) {
		f = pp_resolve(pp, r, &cause);
		free(r);
		if (f == NULL) {
			r = xasprintf("ERR:%s", cause);
			free(cause);
			return r;
		}
		r = f;
	}
	return r;
}

/* Does expanding s give want? */
static int
ex_is(struct pp *pp, const char *s, const char *want, struct strbuf *log)
{
	char	*r = ex(pp, s);
	int	 ok = strcmp(r, want) == 0;

	if (!ok)
		strbuf_addf(log, "[%s] gave [%s], want [%s]; ", s, r, want);
	free(r);
	return ok;
}

/* Assign or record the error. */
static void
as(struct pp *pp, const char *name, const char *value, enum pp_flavor fl,
    struct strbuf *log)
{
	char *cause = NULL;

	if (pp_assign(pp, name, value, fl, &cause) != 0) {
		strbuf_addf(log, "assign %s: %s; ", name, cause);
		free(cause);
	}
}

/* Write a file with mode; stop if it can't be written. */
static void
write_file(const char *path, const char *text, int mode)
{
	if (!unit_write_file(path, text)) {
		perror(path);
		exit(2);
	}
	chmod(path, mode);
}

static void
test_variables(void)
{
	struct strbuf	 log;
	struct pp	*pp = mkpp(NULL, NULL, 0, NULL);
	int		 ok = 1;

	strbuf_init(&log);
	as(pp, "X", "a", PP_SIMPLE, &log);
	as(pp, "Y", "$(X) b", PP_RECURSIVE, &log);
	as(pp, "S", "$(X) s", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(Y)|$(S)", "a b|a s", &log);
	as(pp, "X", "c", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(Y)|$(S)", "c b|a s", &log);
	checkf("variables simple/recursive", ok && log.len == 0, "%s", log.s);

	ok = 1;
	strbuf_reset(&log);
	as(pp, "R", "r1", PP_RECURSIVE, &log);
	as(pp, "R", "$(X)", PP_APPEND, &log);
	ok &= ex_is(pp, "$(R)", "r1 c", &log);
	as(pp, "X", "d", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(R)", "r1 d", &log);	/* stays recursive */
	as(pp, "S", "$(X)", PP_APPEND, &log);
	as(pp, "X", "e", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(S)", "a s d", &log);	/* simple stays simple */
	as(pp, "U", "$(X)", PP_APPEND, &log);	/* undefined: recursive */
	as(pp, "X", "f", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(U)", "f", &log);
	as(pp, "Z", "$(Z) z", PP_SIMPLE, &log);	/* old value: none */
	as(pp, "Z", "$(Z) z", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(Z)", " z z", &log);
	checkf("variables append", ok && log.len == 0, "%s", log.s);

	ok = 1;
	strbuf_reset(&log);
	as(pp, "NAME", "X", PP_SIMPLE, &log);
	as(pp, "PRE", "NA", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$($(NAME))", "f", &log);
	ok &= ex_is(pp, "$($($(PRE)ME))", "f", &log);
	ok &= ex_is(pp, "x$(UNDEFINED_VARIABLE)y", "xy", &log);
	ok &= ex_is(pp, "$A ${X} $", "$A ${X} $", &log);
	ok &= ex_is(pp, ".tmp_$$/tmp.o", ".tmp_$$/tmp.o", &log);
	ok &= ex_is(pp, "$(1)$(2)", "", &log);
	checkf("nested expansion", ok && log.len == 0, "%s", log.s);
	strbuf_free(&log);
	pp_free(pp);
}

static void
test_errors(void)
{
	struct strbuf	 log;
	struct pp	*pp = mkpp(NULL, NULL, 0, NULL);
	int		 ok = 1;

	strbuf_init(&log);
	pp_set_location(pp, "arch/Kconfig", 12);
	as(pp, "A", "$(B)", PP_RECURSIVE, &log);
	as(pp, "B", "x $(A)", PP_RECURSIVE, &log);
	ok &= ex_is(pp, "$(A)", "ERR:arch/Kconfig:12: Recursive variable 'A' "
	    "references itself (eventually)", &log);
	ok &= ex_is(pp, "$(A)", "ERR:arch/Kconfig:12: Recursive variable 'A' "
	    "references itself (eventually)", &log);	/* counts reset */
	as(pp, "F", "$(F,$(1))", PP_RECURSIVE, &log);
	ok &= ex_is(pp, "$(F,1)", "ERR:arch/Kconfig:12: Too deep recursive "
	    "expansion", &log);
	checkf("recursion error", ok && log.len == 0, "%s", log.s);

	ok = 1;
	strbuf_reset(&log);
	ok &= ex_is(pp, "$(info,a,b)", "ERR:arch/Kconfig:12: too many "
	    "function arguments passed to 'info'", &log);
	ok &= ex_is(pp, "$(error-if,y)", "ERR:arch/Kconfig:12: too few "
	    "function arguments passed to 'error-if'", &log);
	ok &= ex_is(pp, "$(f,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15)", "", &log);
	ok &= ex_is(pp, "$(f,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)",
	    "ERR:arch/Kconfig:12: too many function arguments", &log);
	ok &= ex_is(pp, "a $(foo,(x)", "ERR:arch/Kconfig:12: unterminated "
	    "reference to 'foo,(x)': missing ')'", &log);
	checkf("argument count errors", ok && log.len == 0, "%s", log.s);
	strbuf_free(&log);
	pp_free(pp);
}

static void
test_functions(void)
{
	struct strbuf	 log;
	struct msgs	 m;
	struct pp	*pp = mkpp(NULL, NULL, 0, &m);
	const char	*p;
	char		*cause = NULL, *r;
	int		 ok = 1;

	strbuf_init(&log);
	as(pp, "greet", "hello $(1) and $(2)", PP_RECURSIVE, &log);
	as(pp, "X", "x", PP_SIMPLE, &log);
	ok &= ex_is(pp, "$(greet,a,b)", "hello a and b", &log);
	ok &= ex_is(pp, "$(greet,$(X),$(greet,c,d))",
	    "hello x and hello c and d", &log);
	ok &= ex_is(pp, "$(greet,(a,b),c)", "hello (a,b) and c", &log);
	ok &= ex_is(pp, "$(greet, a , b )", "hello  a  and  b ", &log);
	as(pp, "twice", "$(1)$(1)", PP_RECURSIVE, &log);
	as(pp, "wrap", "[$(twice,$(1))]", PP_RECURSIVE, &log);
	ok &= ex_is(pp, "$(wrap,z)", "[zz]", &log);
	as(pp, "shell", "user shell", PP_RECURSIVE, &log);
	ok &= ex_is(pp, "$(shell,echo no)", "user shell", &log);
	checkf("user functions", ok && log.len == 0, "%s", log.s);
	pp_free(pp);
	strbuf_free(&m.info);
	strbuf_free(&m.warn);

	/* Kconfig.include-style tricks. */
	ok = 1;
	strbuf_reset(&log);
	pp = mkpp(NULL, NULL, 0, &m);
	as(pp, "comma", ",", PP_SIMPLE, &log);
	as(pp, "empty", "", PP_SIMPLE, &log);
	as(pp, "space", "$(empty) $(empty)", PP_SIMPLE, &log);
	as(pp, "dollar", "$", PP_SIMPLE, &log);
	as(pp, "right_paren", ")", PP_SIMPLE, &log);
	as(pp, "left_paren", "(", PP_SIMPLE, &log);
	as(pp, "quote", "\"", PP_SIMPLE, &log);
	ok &= ex_is(pp, "[$(space)]", "[ ]", &log);
	ok &= ex_is(pp, "$(dollar)(comma)", "$(comma)", &log);
	ok &= ex_is(pp, "a$(comma)b$(left_paren)$(right_paren)", "a,b()", &log);
	ok &= ex_is(pp, "$(shell,echo a$(comma)b)", "a,b", &log);
	ok &= ex_is(pp, "$(warning-if,y,Sorry$(comma) this C compiler)", "",
	    &log);
	as(pp, "if-success",
	    "$(shell,{ $(1); } >/dev/null 2>&1 && echo \"$(2)\" || echo \"$(3)\")",
	    PP_RECURSIVE, &log);
	as(pp, "success", "$(if-success,$(1),y,n)", PP_RECURSIVE, &log);
	as(pp, "failure", "$(if-success,$(1),n,y)", PP_RECURSIVE, &log);
	ok &= ex_is(pp, "$(success,true)$(success,false)$(failure,false)",
	    "yny", &log);
	ok &= ex_is(pp, "$(success,test \"$(shell,printf 'a\\nb')\" = \"a b\")",
	    "y", &log);
	checkf("comma tricks", ok && log.len == 0 &&
	    strcmp(m.warn.s, ":0: Sorry, this C compiler|") == 0,
	    "%s warn=[%s]", log.s, m.warn.s);

	/* Token and dollar entry points. */
	ok = 1;
	strbuf_reset(&log);
	as(pp, "W", "wo rd", PP_SIMPLE, &log);
	p = "ab$(W)c-d_9 rest";
	r = pp_expand_token(pp, &p, &cause);
	ok &= r != NULL && strcmp(r, "abwo rdc-d_9") == 0 &&
	    strcmp(p, " rest") == 0;
	free(r);
	p = "$(W)x\"";
	r = pp_expand_token(pp, &p, &cause);
	ok &= r != NULL && strcmp(r, "wo rdx") == 0 && strcmp(p, "\"") == 0;
	free(r);
	p = "(W)tail";
	r = pp_expand_dollar(pp, &p, &cause);
	ok &= r != NULL && strcmp(r, "wo rd") == 0 && strcmp(p, "tail") == 0;
	free(r);
	p = "x";
	r = pp_expand_dollar(pp, &p, &cause);
	ok &= r != NULL && strcmp(r, "$") == 0 && strcmp(p, "x") == 0;
	free(r);
	checkf("token and dollar", ok && log.len == 0, "%s", log.s);
	strbuf_free(&m.info);
	strbuf_free(&m.warn);
	pp_free(pp);

	/* Messages and locations. */
	ok = 1;
	strbuf_reset(&log);
	pp = mkpp(NULL, NULL, 0, &m);
	pp_set_location(pp, "init/Kconfig", 42);
	ok &= ex_is(pp, "$(info,hello $(filename):$(lineno))", "", &log);
	ok &= ex_is(pp, "$(warning-if,n,quiet)$(warning-if,y,careful)", "",
	    &log);
	ok &= ex_is(pp, "$(error-if,n,fine)", "", &log);
	ok &= ex_is(pp, "$(error-if,y,Sorry$(comma) boom)",
	    "ERR:init/Kconfig:42: Sorry boom", &log);
	checkf("info/warning-if/error-if", ok && log.len == 0 &&
	    strcmp(m.info.s, "hello init/Kconfig:42|") == 0 &&
	    strcmp(m.warn.s, "init/Kconfig:42: careful|") == 0,
	    "%s info=[%s] warn=[%s]", log.s, m.info.s, m.warn.s);
	strbuf_free(&m.info);
	strbuf_free(&m.warn);
	strbuf_free(&log);
	pp_free(pp);
}

static void
test_env(void)
{
	struct strbuf	  log;
	char		 *envp[] = { "FOO=bar", "EMPTY=", "B=2", NULL, NULL };
	const char	**names, **values;
	struct pp	 *pp;
	char		  path[PATH_MAX + 8];
	int		  ok = 1, n;

	snprintf(path, sizeof path, "PATH=%s", getenv("PATH"));
	envp[3] = path;
	setenv("KCTUI_PROCESS_ONLY", "leak", 1);
	pp = mkpp(envp, NULL, 0, NULL);
	strbuf_init(&log);
	ok &= ex_is(pp, "$(FOO)-$(B)-$(FOO)-$(EMPTY)-$(NOPE)", "bar-2-bar--",
	    &log);
	ok &= ex_is(pp, "$(KCTUI_PROCESS_ONLY)", "", &log);
	ok &= ex_is(pp, "$(FOO,x)", "", &log);	/* no env with arguments */
	ok &= ex_is(pp, "$(shell,echo $FOO $KCTUI_PROCESS_ONLY)", "bar", &log);
	ok &= strcmp(pp_getenv(pp, "B"), "2") == 0;
	n = pp_env_used(pp, &names, &values);
	ok &= n == 3 && strcmp(names[0], "FOO") == 0 &&
	    strcmp(values[0], "bar") == 0 && strcmp(names[1], "B") == 0 &&
	    strcmp(names[2], "EMPTY") == 0 && strcmp(values[2], "") == 0;
	checkf("environment", ok && log.len == 0, "%s (n=%d)", log.s, n);
	strbuf_free(&log);
	pp_free(pp);
	unsetenv("KCTUI_PROCESS_ONLY");
}

static void
test_shell(void)
{
	struct strbuf	 log;
	struct pp	*pp = mkpp(NULL, NULL, 0, NULL);
	struct pp_stats	 st;
	char		*r;
	int		 ok = 1;

	strbuf_init(&log);
	ok &= ex_is(pp, "$(shell,printf 'hello\\nworld\\n\\n4\\n\\n\\n')",
	    "hello world  4", &log);
	ok &= ex_is(pp, "[$(shell,echo)]", "[]", &log);
	ok &= ex_is(pp, "[$(shell,printf '\\n\\na')]", "[  a]", &log);
	ok &= ex_is(pp, "$(shell,printf 'ab\\000cd\\n')", "ab", &log);
	ok &= ex_is(pp, "[$(shell,cat)]", "[]", &log);	/* stdin /dev/null */
	ok &= ex_is(pp, "$(shell,echo out; echo err >&2; exit 3)", "out",
	    &log);
	r = ex(pp, "$(shell,head -c 5000 /dev/zero | tr '\\000' x)");
	ok &= strlen(r) == 4095 && r[0] == 'x';
	free(r);
	r = ex(pp, "$(shell,head -c 4096 /dev/zero | tr '\\000' y)");
	ok &= strlen(r) == 4095;
	free(r);
	r = ex(pp, "$(shell,head -c 4095 /dev/zero | tr '\\000' y; echo)");
	ok &= strlen(r) == 4095;
	free(r);
	ok &= ex_is(pp, "$(shell,echo once)$(shell,echo once)", "onceonce",
	    &log);
	pp_get_stats(pp, &st);
	ok &= st.shell_dedup == 1;
	checkf("shell post-processing", ok && log.len == 0, "%s dedup=%d",
	    log.s, st.shell_dedup);
	strbuf_free(&log);
	pp_free(pp);
}

/* Run a batch of commands through a fresh pp; returns its stats. */
static void
run_batch(const char *cache, const char *const *cmds, char **out,
    struct pp_stats *st, int jobs)
{
	struct pp	*pp = mkpp(NULL, cache, jobs, NULL);
	char		*cause = NULL;
	int		 i;

	for (i = 0; cmds[i] != NULL; i++)
		out[i] = ex(pp, cmds[i]);
	if (pp_wait_all(pp, &cause) != 0) {
		printf("wait_all: %s\n", cause);
		free(cause);
	}
	pp_get_stats(pp, st);
	pp_free(pp);
}

/* Free a batch's results. */
static void
free_batch(char **out, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(out[i]);
}

static void
test_cache(void)
{
	char		 cache[PATH_MAX], script[PATH_MAX], tool[PATH_MAX];
	char		 c0[PATH_MAX + 64], c1[PATH_MAX + 64];
	const char	*cmds[6];
	char		*out[6];
	struct pp_stats	 st;
	struct timespec	 ts[2];
	FILE		*f;
	int		 ok;

	snprintf(cache, sizeof cache, "%s/cache/deep/dir/shell.cache", tmpdir);
	snprintf(script, sizeof script, "%s/probe.sh", tmpdir);
	snprintf(tool, sizeof tool, "%s/bin/kctui-test-tool", tmpdir);
	write_file(script, "#!/bin/sh\necho probe-v1\n", 0755);
	write_file(tool, "#!/bin/sh\necho tool-v1\n", 0755);
	snprintf(c0, sizeof c0, "$(shell,%s --flag)", script);
	snprintf(c1, sizeof c1, "$(shell,kctui-test-tool)");
	cmds[0] = c0;
	cmds[1] = c1;
	cmds[2] = "$(shell,echo plain)";
	cmds[3] = "$(shell,printf 'multi\\nline\\n')";
	cmds[4] = "$(shell,echo plain)";
	cmds[5] = NULL;

	run_batch(cache, cmds, out, &st, 0);
	ok = strcmp(out[0], "probe-v1") == 0 && strcmp(out[1], "tool-v1") == 0
	    && st.shell_runs == 4 && st.shell_cached == 0 &&
	    st.shell_dedup == 1 && access(cache, R_OK) == 0;
	checkf("cache first run", ok, "runs=%d cached=%d out0=%s out1=%s",
	    st.shell_runs, st.shell_cached, out[0], out[1]);
	free_batch(out, 5);

	run_batch(cache, cmds, out, &st, 0);
	ok = strcmp(out[0], "probe-v1") == 0 && strcmp(out[1], "tool-v1") == 0
	    && strcmp(out[3], "multi line") == 0 && st.shell_runs == 0 &&
	    st.shell_cached == 4;
	checkf("cache hit on second pp", ok, "runs=%d cached=%d",
	    st.shell_runs, st.shell_cached);
	free_batch(out, 5);

	/* Same size, new content, mtime moved: must re-run. */
	write_file(script, "#!/bin/sh\necho probe-v2\n", 0755);
	run_batch(cache, cmds, out, &st, 0);
	ok = strcmp(out[0], "probe-v2") == 0 && st.shell_runs == 1 &&
	    st.shell_cached == 3;
	checkf("cache miss when a script changes", ok, "runs=%d cached=%d "
	    "out0=%s", st.shell_runs, st.shell_cached, out[0]);
	free_batch(out, 5);

	/* Only touch a tool found on PATH. */
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec += 5;
	ts[1] = ts[0];
	utimensat(AT_FDCWD, tool, ts, 0);
	run_batch(cache, cmds, out, &st, 0);
	ok = strcmp(out[1], "tool-v1") == 0 && st.shell_runs == 1 &&
	    st.shell_cached == 3;
	checkf("cache miss when a PATH tool is touched", ok,
	    "runs=%d cached=%d", st.shell_runs, st.shell_cached);
	free_batch(out, 5);

	/* Corrupt file: flip a byte in the middle (of the entries, past
	 * the shared header), then truncate. */
	f = fopen(cache, "r+");
	fseek(f, CACHEFILE_HEADER + 40, SEEK_SET);
	fputc('#', f);
	fclose(f);
	run_batch(cache, cmds, out, &st, 0);
	ok = strcmp(out[0], "probe-v2") == 0 && st.shell_runs == 4 &&
	    st.shell_cached == 0;
	free_batch(out, 5);
	run_batch(cache, cmds, out, &st, 0);
	ok &= st.shell_runs == 0 && st.shell_cached == 4;
	free_batch(out, 5);
	if (truncate(cache, 30) != 0)
		perror("truncate");
	run_batch(cache, cmds, out, &st, 0);
	ok &= st.shell_runs == 4 && strcmp(out[1], "tool-v1") == 0;
	free_batch(out, 5);
	write_file(cache, "garbage\n", 0644);
	run_batch(cache, cmds, out, &st, 0);
	ok &= st.shell_runs == 4 && strcmp(out[3], "multi line") == 0;
	free_batch(out, 5);
	run_batch(cache, cmds, out, &st, 0);
	ok &= st.shell_runs == 0 && st.shell_cached == 4;
	free_batch(out, 5);
	checkf("corrupt cache ignored and rewritten", ok, "runs=%d cached=%d",
	    st.shell_runs, st.shell_cached);

	/* A different environment value is a miss. */
	base_env[2] = "CC=kctui-other-cc";
	run_batch(cache, cmds, out, &st, 0);
	base_env[2] = NULL;
	ok = st.shell_runs == 4 && st.shell_cached == 0;
	free_batch(out, 5);
	checkf("cache miss when CC changes", ok, "runs=%d cached=%d",
	    st.shell_runs, st.shell_cached);
}

static void
test_cache_speed(void)
{
	enum { NCMD = 740 };
	char		 cache[PATH_MAX], *cmds[NCMD], *cause = NULL, *r;
	struct pp	*pp;
	struct pp_stats	 st;
	struct timeval	 t0, t1;
	double		 ms = 0;
	int		 pass, i, ok = 1;

	snprintf(cache, sizeof cache, "%s/speed.cache", tmpdir);
	for (i = 0; i < NCMD; i++) {
		cmds[i] = xasprintf("$(shell,: gcc -Werror -fprobe-%d -c -x c "
		    "/dev/null -o .tmp_$$/tmp.o %s/probe.sh ld nm && echo y%d)",
		    i, tmpdir, i);
	}
	for (pass = 0; pass < 2; pass++) {
		gettimeofday(&t0, NULL);
		pp = mkpp(NULL, cache, 16, NULL);
		for (i = 0; i < NCMD; i++) {
			r = ex(pp, cmds[i]);
			if (strncmp(r, "y", 1) != 0 || atoi(r + 1) != i)
				ok = 0;
			free(r);
		}
		pp_wait_all(pp, &cause);
		pp_get_stats(pp, &st);
		pp_free(pp);
		gettimeofday(&t1, NULL);
		ms = (t1.tv_sec - t0.tv_sec) * 1e3 +
		    (t1.tv_usec - t0.tv_usec) / 1e3;
		if (pass == 0)
			printf("  cold: %d commands in %.0f ms\n", NCMD, ms);
	}
	printf("  warm: %d commands in %.1f ms\n", NCMD, ms);
	checkf("warm cache of 740 commands", ok && st.shell_cached == NCMD &&
	    st.shell_runs == 0, "cached=%d runs=%d %.1f ms",
	    st.shell_cached, st.shell_runs, ms);
	for (i = 0; i < NCMD; i++)
		free(cmds[i]);
}

static void
test_async(void)
{
	static const char *const body[] = {
		"$(shell,sleep 0.2; echo slow)",
		"$(shell,echo fast)",
		"$(shell,printf 'a\\nb\\n\\n')",
		"$(shell,head -c 70000 /dev/zero | tr '\\000' z)",
		"$(shell,echo fast)",
		"x$(shell,sleep 0.1; echo A)y$(shell,echo B)z",
		"$(shell,echo $$$$ >/dev/null; echo pid)",
		"$(shell,exit 1)",
		"$(shell,echo $(shell,sleep 0.1; echo nested))",
		"$($(shell,echo NAMEVAR))",
		"$(success,sleep 0.1)",
		"$(failure,false)",
		"$(info,$(shell,echo msg))",
		"$(VALUE)",
	};
	enum { N = sizeof body / sizeof body[0] };
	struct msgs	 m[2];
	struct pp	*pp;
	struct timeval	 t0, t1;
	char		*res[2][N + 24], *cmd, *cause = NULL;
	char		*placeholder = NULL;
	int		 mode, i, n, ok = 1;
	double		 secs[2];

	for (mode = 0; mode < 2; mode++) {
		gettimeofday(&t0, NULL);
		pp = mkpp(NULL, NULL, mode ? 8 : 0, &m[mode]);
		as(pp, "NAMEVAR", "named", PP_SIMPLE, &m[mode].warn);
		as(pp, "if-success", "$(shell,{ $(1); } >/dev/null 2>&1 && "
		    "echo \"$(2)\" || echo \"$(3)\")", PP_RECURSIVE,
		    &m[mode].warn);
		as(pp, "success", "$(if-success,$(1),y,n)", PP_RECURSIVE,
		    &m[mode].warn);
		as(pp, "failure", "$(if-success,$(1),n,y)", PP_RECURSIVE,
		    &m[mode].warn);
		as(pp, "VALUE", "$(shell,sleep 0.1; echo simple)", PP_SIMPLE,
		    &m[mode].warn);
		n = 0;
		for (i = 0; i < N; i++)
			res[mode][n++] = pp_expand_string(pp, body[i], &cause);
		for (i = 0; i < 24; i++) {
			cmd = xasprintf("$(shell,sleep 0.05; echo job%d)", i);
			res[mode][n++] = pp_expand_string(pp, cmd, &cause);
			free(cmd);
		}
		if (mode == 1 && pp_has_future(res[1][0]))
			placeholder = xstrdup(res[1][0]);
		for (i = 0; i < n; i++) {
			cmd = pp_resolve(pp, res[mode][i], &cause);
			free(res[mode][i]);
			res[mode][i] = cmd;
		}
		pp_wait_all(pp, &cause);
		pp_free(pp);
		gettimeofday(&t1, NULL);
		secs[mode] = (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_usec - t0.tv_usec) / 1e6;
	}
	for (i = 0; i < n; i++) {
		if (res[0][i] == NULL || res[1][i] == NULL ||
		    strcmp(res[0][i], res[1][i]) != 0) {
			ok = 0;
			printf("  async mismatch %d: [%s] vs [%s]\n", i,
			    res[0][i] ? res[0][i] : "(null)",
			    res[1][i] ? res[1][i] : "(null)");
		}
	}
	ok &= strcmp(res[0][9], "named") == 0 && strcmp(res[0][13], "simple")
	    == 0 && strlen(res[0][3]) == 4095;
	ok &= strcmp(m[0].info.s, m[1].info.s) == 0 &&
	    strcmp(m[0].info.s, "msg|") == 0 && m[0].warn.len == 0 &&
	    m[1].warn.len == 0;
	checkf("async identical to sync", ok && placeholder != NULL &&
	    secs[1] < secs[0], "sync %.2fs async %.2fs placeholder=%s",
	    secs[0], secs[1], placeholder ? "yes" : "no");
	for (mode = 0; mode < 2; mode++) {
		for (i = 0; i < n; i++)
			free(res[mode][i]);
		strbuf_free(&m[mode].info);
		strbuf_free(&m[mode].warn);
	}
	free(placeholder);
}

/* Milliseconds since t0. */
static double
ms_since(const struct timeval *t0)
{
	struct timeval t1;

	gettimeofday(&t1, NULL);
	return (t1.tv_sec - t0->tv_sec) * 1e3 +
	    (t1.tv_usec - t0->tv_usec) / 1e3;
}

/*
 * Dependent futures and deferred checks: in async mode nothing here may
 * block the caller, and every result, message and error must be those of
 * sync mode (mode 0). Long on purpose: both modes run the same script
 * side by side, and the comparison needs all of it in one place.
 */
static void
test_deferred(void)
{
	struct msgs	 m[2];
	struct strbuf	 log;
	struct pp	*pp;
	struct pp_stats	 st[2];
	struct timeval	 t0;
	char		*r[2][8], *cause, *err[2], *cmd;
	double		 ms[2];
	int		 mode, i, ok = 1, rc[2], waits[2];

	strbuf_init(&log);
	for (mode = 0; mode < 2; mode++) {
		pp = mkpp(NULL, NULL, mode ? 4 : 1, &m[mode]);
		gettimeofday(&t0, NULL);
		pp_set_location(pp, "K", 1);
		as(pp, "info-v", "$(shell,sleep 0.2; echo GCC 12)", PP_SIMPLE,
		    &log);
		as(pp, "name", "$(shell,set -- $(info-v) && echo $1)",
		    PP_SIMPLE, &log);
		pp_set_location(pp, "K", 3);
		r[mode][0] = pp_expand_string(pp, "$(error-if,$(shell,test "
		    "-z \"$(info-v)\" && echo y),none)", &cause);
		pp_set_location(pp, "K", 4);
		r[mode][1] = pp_expand_string(pp, "$(info,cc is $(name))",
		    &cause);
		pp_set_location(pp, "K", 5);
		r[mode][2] = pp_expand_string(pp, "$(info,plain)", &cause);
		pp_set_location(pp, "K", 6);
		r[mode][3] = pp_expand_string(pp, "$(warning-if,$(shell,echo "
		    "y),w $(name))", &cause);
		/* Six slow commands with 4 slots: queued, not waited for. */
		for (i = 0; i < 6; i++) {
			cmd = xasprintf("$(shell,sleep 0.1; echo q%d)", i);
			free(pp_expand_string(pp, cmd, &cause));
			free(cmd);
		}
		/* The same dependent command twice: one run. */
		r[mode][4] = pp_expand_string(pp, "$(shell,echo $(name)-x)",
		    &cause);
		r[mode][5] = pp_expand_string(pp, "$(shell,echo $(name)-x)",
		    &cause);
		ms[mode] = ms_since(&t0);
		pp_get_stats(pp, &st[mode]);
		waits[mode] = st[mode].shell_waits;
		cause = NULL;
		rc[mode] = pp_wait_all(pp, &cause);
		err[mode] = cause;
		for (i = 0; i < 6; i++) {
			if (r[mode][i] == NULL) {
				r[mode][i] = xstrdup("(null)");
				continue;
			}
			cmd = pp_resolve(pp, r[mode][i], &cause);
			free(r[mode][i]);
			r[mode][i] = cmd;
		}
		pp_get_stats(pp, &st[mode]);
		pp_free(pp);
	}
	for (i = 0; i < 6; i++) {
		if (strcmp(r[0][i], r[1][i]) != 0) {
			ok = 0;
			strbuf_addf(&log, "result %d: [%s] vs [%s]; ", i,
			    r[0][i], r[1][i]);
		}
		free(r[0][i]);
		free(r[1][i]);
	}
	ok &= strcmp(m[0].info.s, "cc is GCC|plain|") == 0 &&
	    strcmp(m[1].info.s, m[0].info.s) == 0 &&
	    strcmp(m[0].warn.s, "K:6: w GCC|") == 0 &&
	    strcmp(m[1].warn.s, m[0].warn.s) == 0;
	ok &= rc[0] == 0 && rc[1] == 0;
	ok &= st[0].shell_runs == st[1].shell_runs &&
	    st[0].shell_dedup == st[1].shell_dedup && waits[1] == 0;
	/* No time limit: waits[1] == 0 is what says nothing blocked (speed
	 * is make bench's, not a unit test's). */
	checkf("dependent futures and deferred checks", ok && log.len == 0,
	    "%s async %.0f ms info [%s] [%s] warn [%s] [%s] "
	    "runs %d/%d dedup %d/%d waits %d", log.len ? log.s : "", ms[1],
	    m[0].info.s,
	    m[1].info.s, m[0].warn.s, m[1].warn.s, st[0].shell_runs,
	    st[1].shell_runs, st[0].shell_dedup, st[1].shell_dedup,
	    waits[1]);
	for (mode = 0; mode < 2; mode++) {
		free(err[mode]);
		strbuf_free(&m[mode].info);
		strbuf_free(&m[mode].warn);
	}

	/*
	 * An error-if that fires: sync mode fails at once, async mode at
	 * pp_wait_all() or the first entry point that can run it, with the
	 * same message; later checks are not run.
	 */
	strbuf_reset(&log);
	ok = 1;
	for (mode = 0; mode < 2; mode++) {
		pp = mkpp(NULL, NULL, mode ? 4 : 1, &m[mode]);
		pp_set_location(pp, "scripts/Kconfig.include", 39);
		cause = NULL;
		r[mode][0] = pp_expand_string(pp, "$(error-if,$(shell,sleep "
		    "0.1; echo y),C compiler 'cc' not found)", &cause);
		err[mode] = cause;
		rc[mode] = r[mode][0] == NULL ? -1 : 0;
		pp_set_location(pp, "K", 40);
		cause = NULL;
		if (rc[mode] == 0) {
			r[mode][1] = pp_expand_string(pp, "$(info,after)",
			    &cause);
			free(r[mode][1]);
			free(cause);
			cause = NULL;
			rc[mode] = pp_wait_all(pp, &cause);
			err[mode] = cause;
		}
		free(r[mode][0]);
		pp_free(pp);
	}
	ok &= rc[0] == -1 && rc[1] == -1 && err[0] != NULL && err[1] != NULL &&
	    strcmp(err[0], "scripts/Kconfig.include:39: C compiler 'cc' not "
	    "found") == 0 && strcmp(err[1], err[0]) == 0 &&
	    m[1].info.len == 0;
	checkf("deferred error-if", ok, "[%s] [%s] info [%s]",
	    err[0] ? err[0] : "(null)", err[1] ? err[1] : "(null)",
	    m[1].info.s);
	for (mode = 0; mode < 2; mode++) {
		free(err[mode]);
		strbuf_free(&m[mode].info);
		strbuf_free(&m[mode].warn);
	}

	/*
	 * A queued error-if comes before a later expansion error, and a
	 * queued error-if is reported by the entry point that runs it.
	 */
	pp = mkpp(NULL, NULL, 4, &m[0]);
	pp_set_location(pp, "A", 1);
	free(pp_expand_string(pp, "$(error-if,$(shell,sleep 0.1; echo y),"
	    "first)", &cause));
	pp_set_location(pp, "A", 2);
	cause = NULL;
	r[0][0] = pp_expand_string(pp, "$(foo", &cause);
	ok = r[0][0] == NULL && cause != NULL && strcmp(cause, "A:1: first")
	    == 0;
	strbuf_reset(&log);
	strbuf_addf(&log, "%s", cause ? cause : "(null)");
	free(cause);
	pp_free(pp);
	strbuf_free(&m[0].info);
	strbuf_free(&m[0].warn);

	pp = mkpp(NULL, NULL, 4, &m[0]);
	pp_set_location(pp, "B", 7);
	free(pp_expand_string(pp, "$(error-if,$(shell,echo y),second)",
	    &cause));
	/* The probe finishes in the background before the next entry
	 * point: waited for by asking, up to 10 s (a loaded machine). */
	for (mode = 0; !pp_idle(pp) && mode < 10000; mode++)
		usleep(1000);
	ok &= pp_idle(pp);
	if (!pp_idle(pp))
		strbuf_addf(&log, " / B's probe not finished in 10 s");
	pp_set_location(pp, "B", 9);
	cause = NULL;
	r[0][0] = pp_expand_string(pp, "$(x)", &cause);
	ok &= r[0][0] == NULL && cause != NULL &&
	    strcmp(cause, "B:7: second") == 0;
	strbuf_addf(&log, " / %s", cause ? cause : "(null)");
	free(cause);
	cause = NULL;
	ok &= pp_wait_all(pp, &cause) == 0;
	free(cause);
	pp_free(pp);
	strbuf_free(&m[0].info);
	strbuf_free(&m[0].warn);
	checkf("queued error-if wins", ok, "%s", log.s);
	strbuf_free(&log);
}

/*
 * Run body with our stderr going to a file; returns what was written.
 */
static char *
capture_stderr(void (*body)(void *), void *arg)
{
	char	 path[PATH_MAX], buf[4096];
	FILE	*f;
	size_t	 n;
	int	 fd, saved;

	snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	body(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if ((f = fopen(path, "r")) == NULL)
		return xstrdup("");
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return xstrdup(buf);
}

/* Commands writing to stderr; arg points to the jobs count. */
static void
stderr_body(void *arg)
{
	struct pp	*pp = mkpp(NULL, NULL, *(int *)arg, NULL);
	char		*cause = NULL, *r = NULL;

	free(pp_expand_string(pp, "$(shell,sleep 0.2; echo one >&2)",
	    &cause));
	free(pp_expand_string(pp, "$(shell,echo two >&2)", &cause));
	free(pp_expand_string(pp, "$(shell,sleep 0.1; echo three >&2)",
	    &cause));
	pp_set_location(pp, "E", 2);
	cause = NULL;
	if ((r = pp_expand_string(pp, "$(error-if,$(shell,sleep 0.1; "
	    "echo y),stop)", &cause)) != NULL) {
		free(r);
		/* Never run by the kernel, which stops at the error-if. */
		free(pp_expand_string(pp, "$(shell,echo four >&2)", &cause));
		cause = NULL;
		pp_wait_all(pp, &cause);
	} else if (pp_wait_all(pp, &r) != 0)
		free(r);
	if (cause != NULL) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
	}
	pp_free(pp);
}

static void
test_stderr_order(void)
{
	char	*out[2];
	int	 jobs[2] = { 1, 4 };

	out[0] = capture_stderr(stderr_body, &jobs[0]);
	out[1] = capture_stderr(stderr_body, &jobs[1]);
	checkf("stderr of commands in input order", strcmp(out[0],
	    "one\ntwo\nthree\nE:2: stop\n") == 0 && strcmp(out[1],
	    "one\ntwo\nthree\nE:2: stop\n") == 0, "[%s] [%s]", out[0],
	    out[1]);
	free(out[0]);
	free(out[1]);
}

/* Feed a Kconfig.include-like file to pp as the lexer would. */
static int
feed_file(struct pp *pp, const char *path, char **cause)
{
	char		 line[4096], *p, *name, *op, *val, *r;
	enum pp_flavor	 fl;
	FILE		*f = fopen(path, "r");
	int		 lineno = 0;
	size_t		 n;

	if (f == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		pp_set_location(pp, path, lineno);
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '#' || *p == '\0')
			continue;
		if (*p == '$') {
			if ((r = pp_expand_string(pp, p, cause)) == NULL)
				goto fail;
			free(r);
			continue;
		}
		name = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != ':' &&
		    *p != '+' && *p != '=')
			p++;
		op = p;
		while (*op == ' ' || *op == '\t')
			op++;
		if (op[0] == ':' && op[1] == '=')
			fl = PP_SIMPLE, val = op + 2;
		else if (op[0] == '+' && op[1] == '=')
			fl = PP_APPEND, val = op + 2;
		else if (op[0] == '=')
			fl = PP_RECURSIVE, val = op + 1;
		else
			continue;
		*p = '\0';
		while (*val == ' ' || *val == '\t')
			val++;
		if (pp_assign(pp, name, val, fl, cause) != 0)
			goto fail;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	return -1;
}

static void
test_kconfig_include(const char *tree)
{
	static const char *const want[] = {
		"cc-name", "cc-version", "as-name", "ld-name", "m64-flag",
		"m32-flag",
	};
	char		  inc[PATH_MAX], cache[PATH_MAX], *cause = NULL;
	char		**env, *r[2][6];
	struct pp	 *pp;
	struct pp_stats	  st[3];
	struct timeval	  t0, t1;
	double		  warm = 0;
	int		  mode, i, ok = 1, waits = -1;

	snprintf(inc, sizeof inc, "%s/scripts/Kconfig.include", tree);
	if (access(inc, R_OK) != 0) {
		printf("SKIP Kconfig.include: no %s\n", inc);
		return;
	}
	if ((env = env_derive(tree, base_env, &cause)) == NULL) {
		checkf("Kconfig.include env_derive", 0, "%s", cause);
		free(cause);
		return;
	}
	snprintf(cache, sizeof cache, "%s/kinc.cache", tmpdir);
	/* 0: sync, 1: async, 2: async from the cache written by 1. */
	for (mode = 0; mode < 3; mode++) {
		struct pp_options o;

		memset(&o, 0, sizeof o);
		o.envp = env;
		o.shell_jobs = mode ? 8 : 1;
		o.cache_path = mode ? cache : NULL;
		gettimeofday(&t0, NULL);
		pp = pp_create(&o);
		if (feed_file(pp, inc, &cause) != 0) {
			checkf("Kconfig.include", 0, "mode %d: %s", mode, cause);
			free(cause);
			pp_free(pp);
			strv_free(env);
			return;
		}
		if (mode == 1)
			pp_get_stats(pp, &st[1]);
		for (i = 0; i < 6; i++) {
			char *ref = xasprintf("$(%s)", want[i]);

			r[mode ? 1 : 0][i] = ex(pp, ref);
			free(ref);
		}
		if (mode == 1)
			waits = st[1].shell_waits;
		pp_get_stats(pp, &st[mode]);
		pp_free(pp);
		gettimeofday(&t1, NULL);
		if (mode == 2)
			warm = (t1.tv_sec - t0.tv_sec) * 1e3 +
			    (t1.tv_usec - t0.tv_usec) / 1e3;
		for (i = 0; i < 6; i++) {
			if (mode > 0 && strcmp(r[0][i], r[1][i]) != 0)
				ok = 0;
			if (mode > 0)
				free(r[1][i]);
		}
	}
	printf("  cc-name=%s cc-version=%s as-name=%s ld-name=%s m64=%s "
	    "m32=%s; warm run %.1f ms (runs=%d cached=%d)\n", r[0][0], r[0][1],
	    r[0][2], r[0][3], r[0][4], r[0][5], warm, st[2].shell_runs,
	    st[2].shell_cached);
	checkf("Kconfig.include cc-name is GCC", ok &&
	    strcmp(r[0][0], "GCC") == 0 && strcmp(r[0][4], "-m64") == 0 &&
	    st[2].shell_runs == 0 && st[2].shell_cached == st[0].shell_runs,
	    "cc-name=%s m64=%s sync runs=%d warm runs=%d cached=%d", r[0][0],
	    r[0][4], st[0].shell_runs, st[2].shell_runs, st[2].shell_cached);
	checkf("Kconfig.include async: no waits, same counts", waits == 0 &&
	    st[1].shell_runs == st[0].shell_runs &&
	    st[1].shell_dedup == st[0].shell_dedup, "waits=%d runs=%d/%d "
	    "dedup=%d/%d", waits, st[0].shell_runs, st[1].shell_runs,
	    st[0].shell_dedup, st[1].shell_dedup);
	for (i = 0; i < 6; i++)
		free(r[0][i]);
	strv_free(env);
}

static void
test_env_derive(const char *tree)
{
	char		  cwd[PATH_MAX], mk[PATH_MAX], *cause = NULL, *cvt;
	char		**env, *empty[] = { NULL }, *p;
	char		 *in[] = { "ARCH=arm64", "CROSS_COMPILE=aarch64-x-",
	    "LC_ALL=de_DE", "PATH=/usr/bin:/bin", "CC=clang", NULL };
	char		 *args[] = { "CC_VERSION_TEXT=given", NULL };
	struct utsname	  u;
	FILE		 *f;
	int		  ok = 1;

	snprintf(mk, sizeof mk, "%s/Makefile", tree);
	if (access(mk, R_OK) != 0 || getcwd(cwd, sizeof cwd) == NULL) {
		printf("SKIP env_derive: no %s\n", mk);
		return;
	}
	/* In-tree: srctree and objtree are ".". */
	if (chdir(tree) != 0)
		return;
	env = env_derive(".", base_env, &cause);
	if (chdir(cwd) != 0 || env == NULL) {
		checkf("env_derive in-tree", 0, "%s", cause ? cause : "chdir");
		free(cause);
		return;
	}
	ok &= strcmp(envp_get(env, "srctree"), ".") == 0 &&
	    strcmp(envp_get(env, "objtree"), ".") == 0 &&
	    strcmp(envp_get(env, "CC"), "gcc") == 0 &&
	    strcmp(envp_get(env, "LD"), "ld") == 0 &&
	    strcmp(envp_get(env, "CROSS_COMPILE"), "") == 0 &&
	    strcmp(envp_get(env, "HOSTCC"), "gcc") == 0 &&
	    strcmp(envp_get(env, "LC_COLLATE"), "C") == 0 &&
	    strncmp(envp_get(env, "KERNELVERSION"), "6.1", 3) == 0 &&
	    envp_get(env, "HOME") != NULL;
	if (uname(&u) == 0 && strcmp(u.machine, "x86_64") == 0)
		ok &= strcmp(envp_get(env, "ARCH"), "x86") == 0 &&
		    strcmp(envp_get(env, "SRCARCH"), "x86") == 0;
	/* CC_VERSION_TEXT matches the compiler's first line. */
	f = popen("LC_ALL=C gcc --version 2>/dev/null | head -n 1", "r");
	cvt = xcalloc(1, 512);
	if (f != NULL) {
		if (fgets(cvt, 512, f) != NULL && (p = strchr(cvt, '\n')))
			*p = '\0';
		pclose(f);
	}
	ok &= strcmp(envp_get(env, "CC_VERSION_TEXT"), cvt) == 0;
	free(cvt);
	strv_free(env);

	/* Out of tree: absolute srctree; envp wins for ?= variables (ARCH,
	 * CROSS_COMPILE), the Makefile for assigned ones (CC), a make-style
	 * argument for all; LC_ALL removed. */
	env = env_derive_args(tree, in, args, &cause);
	ok &= env != NULL;
	if (env != NULL) {
		ok &= strcmp(envp_get(env, "ARCH"), "arm64") == 0 &&
		    strcmp(envp_get(env, "SRCARCH"), "arm64") == 0 &&
		    strcmp(envp_get(env, "CC"), "aarch64-x-gcc") == 0 &&
		    strcmp(envp_get(env, "OBJCOPY"), "aarch64-x-objcopy")
		    == 0 && strcmp(envp_get(env, "CC_VERSION_TEXT"), "given")
		    == 0 && envp_get(env, "LC_ALL") == NULL &&
		    envp_get(env, "srctree")[0] == '/' &&
		    strcmp(envp_get(env, "building_out_of_srctree"), "1") == 0;
		strv_free(env);
	}
	/* LLVM=1. */
	in[0] = "LLVM=1";
	in[1] = "PATH=/usr/bin:/bin";
	in[4] = NULL;
	env = env_derive(tree, in, &cause);
	ok &= env != NULL;
	if (env != NULL) {
		ok &= strcmp(envp_get(env, "CC"), "clang") == 0 &&
		    strcmp(envp_get(env, "LD"), "ld.lld") == 0 &&
		    strcmp(envp_get(env, "HOSTCC"), "clang") == 0 &&
		    strcmp(envp_get(env, "AR"), "llvm-ar") == 0;
		if (strstr(envp_get(env, "CC_VERSION_TEXT"), "clang") &&
		    strcmp(envp_get(env, "SRCARCH"), "x86") == 0)
			ok &= strcmp(envp_get(env, "CLANG_FLAGS"),
			    "--target=x86_64-linux-gnu -fintegrated-as "
			    "-Werror=unknown-warning-option "
			    "-Werror=ignored-optimization-argument") == 0;
		strv_free(env);
	}
	/* No Makefile: only srctree. */
	env = env_derive(tmpdir, empty, &cause);
	ok &= env != NULL && env[0] != NULL && env[1] == NULL &&
	    strcmp(envp_get(env, "srctree"), tmpdir) == 0;
	strv_free(env);
	checkf("env_derive", ok, "%s", cause ? cause : "values differ");
	free(cause);
}

static void
test_cache_path(void)
{
	char	*e1[] = { "HOME=/h", NULL };
	char	*e2[] = { "HOME=/h", "XDG_CACHE_HOME=/x", NULL };
	char	*e3[] = { "HOME=/h", "XDG_CACHE_HOME=", "KCTUI_CACHE_DIR=/k",
	    NULL };
	char	*e4[] = { NULL };
	char	*a = env_cache_path(e1, "/src/linux");
	char	*b = env_cache_path(e2, "/src/linux");
	char	*c = env_cache_path(e3, "/src/linux");
	char	*d = env_cache_path(e1, "/src/linux2");
	char	*e = env_cache_path(e4, "/src/linux");
	int	 ok;

	ok = a && b && c && d && e == NULL &&
	    strncmp(a, "/h/.cache/kctui/shell-", 22) == 0 &&
	    strncmp(b, "/x/kctui/shell-", 15) == 0 &&
	    strncmp(c, "/k/shell-", 9) == 0 &&
	    strcmp(strrchr(a, '/'), strrchr(b, '/')) == 0 &&
	    strcmp(a, d) != 0 && strcmp(a + strlen(a) - 6, ".cache") == 0;
	checkf("env_cache_path", ok, "%s %s %s %s", a, b, c, d);
	free(a);
	free(b);
	free(c);
	free(d);
}

int
main(int argc, char **argv)
{
	const char	*tree = getenv("KCTUI_TREE");
	char		 path[PATH_MAX * 2], home[PATH_MAX + 8];
	char		 cmd[PATH_MAX + 16];
	char		**env, *cause = NULL;
	int		 i;

	if (argc == 3 && strcmp(argv[1], "--env") == 0) {
		extern char **environ;
		char **e = environ;

		if ((env = env_derive(argv[2], e, &cause)) == NULL) {
			fprintf(stderr, "%s\n", cause);
			return 1;
		}
		for (i = 0; env[i] != NULL; i++)
			printf("%s\n", env[i]);
		strv_free(env);
		return 0;
	}
	if (argc > 1)
		tree = argv[1];
	if (tree == NULL || *tree == '\0')
		tree = "/var/cache/kctui/linux-source-6.1";
	setvbuf(stdout, NULL, _IOLBF, 0);

	snprintf(tmpdir, sizeof tmpdir, "/tmp/kctui-test-XXXXXX");
	if (!unit_tmpdir(tmpdir))
		return 2;
	snprintf(cmd, sizeof cmd, "%s/bin", tmpdir);
	mkdir(cmd, 0755);
	snprintf(path, sizeof path, "PATH=%s/bin:%s", tmpdir, getenv("PATH"));
	snprintf(home, sizeof home, "HOME=%s", tmpdir);
	base_env[0] = path;
	base_env[1] = home;
	if (chdir(tmpdir) != 0)
		return 2;

	test_variables();
	test_errors();
	test_functions();
	test_env();
	test_shell();
	test_cache();
	test_cache_speed();
	test_async();
	test_deferred();
	test_stderr_order();
	test_env_derive(tree);
	test_cache_path();
	test_kconfig_include(tree);

	if (chdir("/") == 0)
		unit_rmtree(tmpdir);
	if (unit_failures)
		printf("%d FAILED\n", unit_failures);
	return unit_failures ? 1 : 0;
}
