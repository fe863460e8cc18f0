/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preprocess.c - the Kconfig macro language, as scripts/kconfig/preprocess.c
 * of Linux 6.1 implements it (written afresh; see preprocess.h).
 *
 * Semantics kept from the kernel:
 *  - a reference is "$(" ... ")" with nested parentheses counted on the raw
 *    text; '$' not followed by '(' is a literal "$";
 *  - the clause is split on top-level commas before expansion; the first
 *    part (expanded) is the name, the others (expanded) the arguments;
 *    at most 16 parts ("too many function arguments");
 *  - a name that is a number 1..argc refers to an argument of the
 *    enclosing user-function call;
 *  - lookup order: variables (user functions), built-in functions, then,
 *    with no arguments, the environment; anything else is empty;
 *  - built-ins: error-if (2), filename (0), info (1), lineno (0),
 *    shell (1), warning-if (2); there is no $(if,...) in 6.1;
 *  - a recursive variable expanded again while being expanded without
 *    arguments is an error; 1000 nested expansions are too deep;
 *  - "+=" keeps the flavour of a defined variable (joining with a space)
 *    and makes an undefined one recursive.
 * Differences: errors are returned instead of exiting, and "X := $(X)"
 * expands the old value (the kernel reads freed memory there).
 *
 * Futures (see preprocess.h): $(shell,...) passes placeholders in its
 * command to shell_run(), which makes a dependent future of it.  An
 * error-if, warning-if or info call whose arguments hold placeholders is
 * queued with its location, and so is every later one while the queue is
 * not empty, so that messages keep their order.  The queue is run as far
 * as its commands have finished at each entry point (pp_expand_*,
 * pp_assign), fully by pp_wait_all(), and before an entry point returns an
 * error (an error-if earlier in the input wins, as in the kernel, which
 * stops there).  A queued error-if that fires makes the call that ran it
 * fail with "file:line: text" of the error-if.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preprocess.h"
#include "shell.h"
#include "../lib/strmap.h"
#include "../lib/util.h"

#define PP_MAX_ARGS	16
#define PP_MAX_DEPTH	1000

struct pp_var {
	char		*name;
	char		*value;
	enum pp_flavor	 flavor;	/* PP_SIMPLE or PP_RECURSIVE */
	int		 exp_count;
};

struct pp_function;

/* A queued error-if, warning-if or info call. */
struct pp_check {
	const struct pp_function *f;
	char		*file;
	int		 line;
	int		 argc;
	char		*argv[2];
	size_t		 mark;		/* first $(shell) job after it */
};

struct pp {
	char		**envp;
	struct strmap	  vars;		/* name -> struct pp_var (its key
					   is the variable's own name) */

	const char	**used_names;
	const char	**used_values;
	int		  nused;
	int		  capused;

	const char	 *file;
	int		  line;

	void		(*message)(void *, enum pp_msg, const char *);
	void		 *message_arg;

	struct shell	 *sh;
	bool		  no_shell;

	struct pp_check	 *checks;	/* queue: [chead, nchecks) */
	size_t		  chead;
	size_t		  nchecks;
	size_t		  capchecks;
};

static char	*pp_expand_with(struct pp *, const char **, bool (*)(char),
		    int, char **, char **);
static int	 pp_flush(struct pp *, bool, char **);
static int	 pp_enter(struct pp *, char **);
static void	 pp_leave_error(struct pp *, char **);
static void	 pp_drop_checks(struct pp *);

/* Set *cause to "file:line: message". */
static void __attribute__((format(printf, 3, 4)))
pp_error(struct pp *pp, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	*cause = xasprintf("%s:%d: %s", pp->file, pp->line, msg);
	free(msg);
}

/* Create a preprocessor. */
struct pp *
pp_create(const struct pp_options *o)
{
	struct pp	*pp = xcalloc(1, sizeof *pp);
	size_t		 n = 0, i;

	while (o->envp != NULL && o->envp[n] != NULL)
		n++;
	pp->envp = xcalloc(n + 1, sizeof *pp->envp);
	for (i = 0; i < n; i++)
		pp->envp[i] = xstrdup(o->envp[i]);
	strmap_init(&pp->vars);
	pp->file = "";
	pp->message = o->message;
	pp->message_arg = o->message_arg;
	pp->sh = shell_create(pp->envp, o->cache_path, o->shell_jobs);
	pp->no_shell = o->no_shell;
	return pp;
}

/* Free a preprocessor, waiting for its commands and saving the cache. */
void
pp_free(struct pp *pp)
{
	struct strmap_entry	*e;
	struct pp_var		*v;
	size_t			 i;

	if (pp == NULL)
		return;
	pp_drop_checks(pp);
	free(pp->checks);
	shell_free(pp->sh);
	for (i = 0; (e = strmap_next(&pp->vars, &i)) != NULL;) {
		v = e->value;
		free(v->name);
		free(v->value);
		free(v);
	}
	strmap_free(&pp->vars);
	for (i = 0; i < (size_t)pp->nused; i++)
		free((char *)pp->used_names[i]);
	free(pp->used_names);
	free(pp->used_values);
	for (i = 0; pp->envp[i] != NULL; i++)
		free(pp->envp[i]);
	free(pp->envp);
	free(pp);
}

/* Set the current file and line. */
void
pp_set_location(struct pp *pp, const char *file, int line)
{
	pp->file = file != NULL ? file : "";
	pp->line = line;
}

/* Look up an environment variable in the pp's own copy. */
const char *
pp_getenv(const struct pp *pp, const char *name)
{
	return envp_get(pp->envp, name);
}

/* Environment variables referenced so far, in first-use order. */
int
pp_env_used(const struct pp *pp, const char ***names, const char ***values)
{
	*names = pp->used_names;
	*values = pp->used_values;
	return pp->nused;
}

/* Statistics. */
void
pp_get_stats(const struct pp *pp, struct pp_stats *st)
{
	struct shell_stats ss;

	shell_get_stats(pp->sh, &ss);
	st->shell_runs = ss.runs;
	st->shell_cached = ss.cached;
	st->shell_dedup = ss.dedup;
	st->shell_waits = ss.waits;
}

/* Does s contain a future placeholder? */
bool
pp_has_future(const char *s)
{
	return strchr(s, PP_FUTURE_START) != NULL;
}

/* Replace placeholders by command output. */
char *
pp_resolve(struct pp *pp, const char *s, char **cause)
{
	char *res, *msg = NULL;

	if ((res = shell_resolve(pp->sh, s, &msg)) == NULL) {
		pp_error(pp, cause, "%s", msg);
		free(msg);
	}
	return res;
}

/* Resolve placeholders in *s in place (replacing the allocation). */
static int
pp_resolve_inplace(struct pp *pp, char **s, char **cause)
{
	char *r;

	if (!pp_has_future(*s))
		return 0;
	if ((r = pp_resolve(pp, *s, cause)) == NULL)
		return -1;
	free(*s);
	*s = r;
	return 0;
}

/* Run the queued checks, then wait for every background command. */
int
pp_wait_all(struct pp *pp, char **cause)
{
	char	*msg = NULL, *err = NULL;
	int	 ret;

	ret = pp_flush(pp, true, &err);
	if (shell_wait_all(pp->sh, &msg) != 0) {
		if (ret == 0) {
			*cause = msg;
			return -1;
		}
		free(msg);
	}
	if (ret != 0) {
		*cause = err;
		return -1;
	}
	return 0;
}

/* Run the queued checks, waiting for their commands. */
int
pp_sync(struct pp *pp, char **cause)
{
	return pp_flush(pp, true, cause);
}

/* Are checks waiting for commands? */
bool
pp_checks_pending(const struct pp *pp)
{
	return pp->chead < pp->nchecks;
}

bool
pp_idle(struct pp *pp)
{
	return shell_idle(pp->sh);
}

/* Find a variable. */
static struct pp_var *
pp_var_find(struct pp *pp, const char *name)
{
	return strmap_get(&pp->vars, name, strlen(name));
}

/* Add a new variable; the map borrows its name as the key, so the
 * variable lives (and keeps its name) as long as the map. */
static struct pp_var *
pp_var_new(struct pp *pp, const char *name)
{
	struct pp_var	*v;

	v = xcalloc(1, sizeof *v);
	v->name = xstrdup(name);
	strmap_set(&pp->vars, v->name, strlen(v->name), v);
	return v;
}

/* Define or extend a variable. */
int
pp_assign(struct pp *pp, const char *name, const char *value,
    enum pp_flavor flavor, char **cause)
{
	struct pp_var	*v;
	const char	*in = value;
	char		*new_value, *joined;
	bool		 append = false;

	if (pp_enter(pp, cause) != 0)
		return -1;
	v = pp_var_find(pp, name);
	if (flavor == PP_APPEND) {
		if (v != NULL) {
			flavor = v->flavor;
			append = true;
		} else
			flavor = PP_RECURSIVE;
	}
	if (flavor == PP_SIMPLE) {
		new_value = pp_expand_with(pp, &in, NULL, 0, NULL, cause);
		if (new_value == NULL) {
			pp_leave_error(pp, cause);
			return -1;
		}
	} else
		new_value = xstrdup(value);

	if (v == NULL)
		v = pp_var_new(pp, name);
	if (append) {
		joined = xasprintf("%s %s", v->value, new_value);
		free(new_value);
		new_value = joined;
	}
	free(v->value);
	v->value = new_value;
	v->flavor = flavor;
	return 0;
}

/* Expand a variable or user function; *found false if there is none. */
static char *
pp_var_expand(struct pp *pp, const char *name, int argc, char **argv,
    bool *found, char **cause)
{
	struct pp_var	*v = pp_var_find(pp, name);
	const char	*in;
	char		*res;

	*found = (v != NULL);
	if (v == NULL)
		return NULL;
	if (argc == 0 && v->exp_count) {
		pp_error(pp, cause,
		    "Recursive variable '%s' references itself (eventually)",
		    name);
		return NULL;
	}
	if (v->exp_count > PP_MAX_DEPTH) {
		pp_error(pp, cause, "Too deep recursive expansion");
		return NULL;
	}
	v->exp_count++;
	if (v->flavor == PP_RECURSIVE) {
		in = v->value;
		res = pp_expand_with(pp, &in, NULL, argc, argv, cause);
	} else
		res = xstrdup(v->value);
	v->exp_count--;
	return res;
}

/* Emit an $(info) or $(warning-if) message. */
static void
pp_message(struct pp *pp, enum pp_msg kind, const char *text)
{
	if (pp->message != NULL) {
		pp->message(pp->message_arg, kind, text);
		return;
	}
	if (kind == PP_INFO) {
		printf("%s\n", text);
		fflush(stdout);
	} else
		fprintf(stderr, "%s\n", text);
}

/* $(error-if,cond,text) */
static char *
pp_do_error_if(struct pp *pp, int argc, char **argv, char **cause)
{
	(void)argc;
	if (strcmp(argv[0], "y") == 0) {
		pp_error(pp, cause, "%s", argv[1]);
		return NULL;
	}
	return xstrdup("");
}

/* $(filename) */
static char *
pp_do_filename(struct pp *pp, int argc, char **argv, char **cause)
{
	(void)argc;
	(void)argv;
	(void)cause;
	return xstrdup(pp->file);
}

/* $(info,text) */
static char *
pp_do_info(struct pp *pp, int argc, char **argv, char **cause)
{
	(void)argc;
	(void)cause;
	pp_message(pp, PP_INFO, argv[0]);
	return xstrdup("");
}

/* $(lineno) */
static char *
pp_do_lineno(struct pp *pp, int argc, char **argv, char **cause)
{
	(void)argc;
	(void)argv;
	(void)cause;
	return xasprintf("%d", pp->line);
}

/* $(shell,command) */
static char *
pp_do_shell(struct pp *pp, int argc, char **argv, char **cause)
{
	char *res, *msg;

	(void)argc;
	if (pp->no_shell) {
		pp_error(pp, cause, "$(shell,...) is disabled here");
		return NULL;
	}
	if ((res = shell_run(pp->sh, argv[0], &msg)) == NULL) {
		pp_error(pp, cause, "%s", msg);
		free(msg);
	}
	return res;
}

/* $(warning-if,cond,text) */
static char *
pp_do_warning_if(struct pp *pp, int argc, char **argv, char **cause)
{
	char *text;

	(void)argc;
	(void)cause;
	if (strcmp(argv[0], "y") == 0) {
		text = xasprintf("%s:%d: %s", pp->file, pp->line, argv[1]);
		pp_message(pp, PP_WARNING, text);
		free(text);
	}
	return xstrdup("");
}

/* How a built-in takes placeholders in its arguments. */
enum pp_futures {
	PP_WAIT,	/* resolve them first */
	PP_PASS,	/* pass them on ($(shell): a dependent future) */
	PP_DEFER,	/* queue the call (its expansion is always empty) */
};

static const struct pp_function {
	const char	*name;
	int		 min_args;
	int		 max_args;
	enum pp_futures	 futures;
	char		*(*func)(struct pp *, int, char **, char **);
} pp_functions[] = {
	{ "error-if",	2, 2, PP_DEFER, pp_do_error_if },
	{ "filename",	0, 0, PP_WAIT, pp_do_filename },
	{ "info",	1, 1, PP_DEFER, pp_do_info },
	{ "lineno",	0, 0, PP_WAIT, pp_do_lineno },
	{ "shell",	1, 1, PP_PASS, pp_do_shell },
	{ "warning-if",	2, 2, PP_DEFER, pp_do_warning_if },
};

/* Queue a call of f (argv is copied) at the current location. */
static void
pp_queue_check(struct pp *pp, const struct pp_function *f, int argc,
    char **argv)
{
	struct pp_check	*c;
	int		 i;

	XGROW(pp->checks, pp->capchecks, pp->nchecks + 1, 16);
	c = &pp->checks[pp->nchecks++];
	c->f = f;
	c->file = xstrdup(pp->file);
	c->line = pp->line;
	c->mark = shell_mark(pp->sh);
	c->argc = argc;
	for (i = 0; i < argc; i++)
		c->argv[i] = xstrdup(argv[i]);
}

/* Free one queued check. */
static void
pp_free_check(struct pp_check *c)
{
	int i;

	for (i = 0; i < c->argc; i++)
		free(c->argv[i]);
	free(c->file);
}

/* Forget the queued checks (an error ended the input). */
static void
pp_drop_checks(struct pp *pp)
{
	for (; pp->chead < pp->nchecks; pp->chead++)
		pp_free_check(&pp->checks[pp->chead]);
	pp->chead = pp->nchecks = 0;
}

/*
 * Run queued checks in order: all of them if wait (waiting for their
 * commands), else those whose commands have finished up to the first that
 * has not.  Each runs at its own location.  A check that fails (an error-if
 * that fires, or a command that could not be started) drops the rest of
 * the queue, as the kernel would have stopped there, and gives -1.
 */
static int
pp_flush(struct pp *pp, bool wait, char **cause)
{
	struct pp_check	*c;
	const char	*file = pp->file;
	char		*res = NULL, *r, *msg;
	int		 line = pp->line, i;

	while (pp->chead < pp->nchecks) {
		c = &pp->checks[pp->chead];
		if (!wait) {
			for (i = 0; i < c->argc; i++) {
				if (!shell_ready(pp->sh, c->argv[i]))
					goto out;
			}
		}
		pp->file = c->file;
		pp->line = c->line;
		for (i = 0; i < c->argc; i++) {
			if (!pp_has_future(c->argv[i]))
				continue;
			msg = NULL;
			if ((r = shell_resolve(pp->sh, c->argv[i], &msg)) ==
			    NULL) {
				pp_error(pp, cause, "%s", msg);
				free(msg);
				break;
			}
			free(c->argv[i]);
			c->argv[i] = r;
		}
		if (i == c->argc)
			res = c->f->func(pp, c->argc, c->argv, cause);
		pp->file = file;
		pp->line = line;
		if (res == NULL) {
			/* The kernel stops here: later commands are not
			 * heard from, earlier ones before the error. */
			shell_drop_stderr(pp->sh, c->mark);
			shell_flush_stderr(pp->sh, c->mark, true);
		}
		pp_free_check(c);
		pp->chead++;
		if (res == NULL) {
			pp_drop_checks(pp);
			return -1;
		}
		free(res);
		res = NULL;
	}
out:
	if (pp->chead == pp->nchecks)
		pp->chead = pp->nchecks = 0;
	return 0;
}

/*
 * At an entry point: move commands on, run the checks that can run and
 * copy out the stderr of finished commands that no queued check precedes.
 */
static int
pp_enter(struct pp *pp, char **cause)
{
	shell_poll(pp->sh);
	if (pp_flush(pp, false, cause) != 0)
		return -1;
	shell_flush_stderr(pp->sh, pp->chead < pp->nchecks ?
	    pp->checks[pp->chead].mark : SIZE_MAX, false);
	return 0;
}

/*
 * An entry point is about to fail with *cause: the queued checks come
 * earlier in the input, so run them first; an error-if among them that
 * fires is the error the kernel would report.
 */
static void
pp_leave_error(struct pp *pp, char **cause)
{
	char *err = NULL;

	if (pp->chead == pp->nchecks)
		return;
	if (pp_flush(pp, true, &err) != 0) {
		free(*cause);
		*cause = err;
	}
}

/* Call a built-in function; *found false if there is none. */
static char *
pp_func_expand(struct pp *pp, const char *name, int argc, char **argv,
    bool *found, char **cause)
{
	const struct pp_function	*f;
	size_t				 i;
	int				 j;

	*found = false;
	for (i = 0; i < sizeof pp_functions / sizeof pp_functions[0]; i++) {
		f = &pp_functions[i];
		if (strcmp(f->name, name) != 0)
			continue;
		*found = true;
		if (argc < f->min_args) {
			pp_error(pp, cause,
			    "too few function arguments passed to '%s'", name);
			return NULL;
		}
		if (argc > f->max_args) {
			pp_error(pp, cause,
			    "too many function arguments passed to '%s'",
			    name);
			return NULL;
		}
		if (f->futures == PP_DEFER) {
			for (j = 0; j < argc; j++) {
				if (pp_has_future(argv[j]))
					break;
			}
			if (j < argc || pp->chead < pp->nchecks) {
				pp_queue_check(pp, f, argc, argv);
				return xstrdup("");
			}
		}
		/* Other built-ins see real text, never placeholders. */
		for (j = 0; f->futures == PP_WAIT && j < argc; j++) {
			if (pp_resolve_inplace(pp, &argv[j], cause) != 0)
				return NULL;
		}
		return f->func(pp, argc, argv, cause);
	}
	return NULL;
}

/* Look up the environment, remembering the variable for auto.conf.cmd. */
static char *
pp_env_expand(struct pp *pp, const char *name)
{
	const char	*value;
	int		 i;

	if (*name == '\0')
		return NULL;
	for (i = 0; i < pp->nused; i++) {
		if (strcmp(pp->used_names[i], name) == 0)
			return xstrdup(pp->used_values[i]);
	}
	if ((value = envp_get(pp->envp, name)) == NULL)
		return NULL;
	if (pp->nused == pp->capused) {
		pp->capused = pp->capused ? pp->capused * 2 : 16;
		pp->used_names = xrealloc(pp->used_names,
		    pp->capused * sizeof *pp->used_names);
		pp->used_values = xrealloc(pp->used_values,
		    pp->capused * sizeof *pp->used_values);
	}
	/* The value points into the envp copy, which outlives us. */
	pp->used_values[pp->nused] = value;
	pp->used_names[pp->nused] = xstrdup(name);
	pp->nused++;
	return xstrdup(value);
}

/*
 * Evaluate the inside of "$(...)" (len bytes at str) with the arguments of
 * the enclosing user-function call.
 */
static char *
pp_eval_clause(struct pp *pp, const char *str, size_t len, int argc,
    char **argv, char **cause)
{
	char		*tmp, *name = NULL, *res = NULL, *endptr, *p, *prev;
	char		*parts[PP_MAX_ARGS], *nargv[PP_MAX_ARGS];
	const char	*in;
	unsigned long	 n;
	int		 nparts = 0, nargc = 0, nest = 0, i;
	bool		 found;

	tmp = xstrndup(str, len);

	/* $(1), $(2), ...: an argument of the enclosing call. */
	n = strtoul(tmp, &endptr, 10);
	if (*endptr == '\0' && n > 0 && n <= (unsigned long)argc) {
		res = xstrdup(argv[n - 1]);
		free(tmp);
		return res;
	}

	/* Split on top-level commas. */
	for (prev = p = tmp; *p != '\0'; p++) {
		if (nest == 0 && *p == ',') {
			*p = '\0';
			if (nparts >= PP_MAX_ARGS)
				goto too_many;
			parts[nparts++] = prev;
			prev = p + 1;
		} else if (*p == '(')
			nest++;
		else if (*p == ')')
			nest--;
	}
	if (nparts >= PP_MAX_ARGS)
		goto too_many;
	parts[nparts++] = prev;

	in = parts[0];
	if ((name = pp_expand_with(pp, &in, NULL, argc, argv, cause)) == NULL)
		goto out;
	for (i = 1; i < nparts; i++) {
		in = parts[i];
		nargv[nargc] = pp_expand_with(pp, &in, NULL, argc, argv, cause);
		if (nargv[nargc] == NULL)
			goto out;
		nargc++;
	}
	/* A name computed from a command's output needs the output. */
	if (pp_resolve_inplace(pp, &name, cause) != 0)
		goto out;

	res = pp_var_expand(pp, name, nargc, nargv, &found, cause);
	if (found)
		goto out;
	res = pp_func_expand(pp, name, nargc, nargv, &found, cause);
	if (found)
		goto out;
	if (nargc == 0 && (res = pp_env_expand(pp, name)) != NULL)
		goto out;
	res = xstrdup("");

out:
	for (i = 0; i < nargc; i++)
		free(nargv[i]);
	free(name);
	free(tmp);
	return res;

too_many:
	pp_error(pp, cause, "too many function arguments");
	free(tmp);
	return NULL;
}

/* Expand the reference after a '$'; advances *str past it. */
static char *
pp_dollar_with(struct pp *pp, const char **str, int argc, char **argv,
    char **cause)
{
	const char	*p = *str, *q;
	int		 nest = 0;

	if (*p != '(')
		return xstrdup("$");
	p++;
	for (q = p; *q != '\0'; q++) {
		if (*q == '(')
			nest++;
		else if (*q == ')') {
			if (nest-- == 0)
				break;
		}
	}
	if (*q == '\0') {
		pp_error(pp, cause, "unterminated reference to '%s': "
		    "missing ')'", p);
		return NULL;
	}
	*str = q + 1;
	return pp_eval_clause(pp, p, q - p, argc, argv, cause);
}

/* Expand from *str until is_end (NULL: the end of the string). */
static char *
pp_expand_with(struct pp *pp, const char **str, bool (*is_end)(char),
    int argc, char **argv, char **cause)
{
	struct strbuf	 sb;
	const char	*in, *p;
	char		*exp;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	p = in = *str;
	for (;;) {
		if (*p == '$') {
			strbuf_add(&sb, in, p - in);
			p++;
			exp = pp_dollar_with(pp, &p, argc, argv, cause);
			if (exp == NULL) {
				strbuf_free(&sb);
				return NULL;
			}
			strbuf_adds(&sb, exp);
			free(exp);
			in = p;
			continue;
		}
		if (*p == '\0' || (is_end != NULL && is_end(*p)))
			break;
		p++;
	}
	strbuf_add(&sb, in, p - in);
	*str = p;
	return strbuf_detach(&sb);
}

/* The kernel's is_end_of_token(): anything but [A-Za-z0-9_-]. */
static bool
pp_is_end_of_token(char c)
{
	return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-');
}

/* Expand one "$..." reference (the kernel's expand_dollar()). */
char *
pp_expand_dollar(struct pp *pp, const char **str, char **cause)
{
	char *res;

	if (pp_enter(pp, cause) != 0)
		return NULL;
	if ((res = pp_dollar_with(pp, str, 0, NULL, cause)) == NULL)
		pp_leave_error(pp, cause);
	return res;
}

/* Expand a token (the kernel's expand_one_token()). */
char *
pp_expand_token(struct pp *pp, const char **str, char **cause)
{
	char *res;

	if (pp_enter(pp, cause) != 0)
		return NULL;
	res = pp_expand_with(pp, str, pp_is_end_of_token, 0, NULL, cause);
	if (res == NULL)
		pp_leave_error(pp, cause);
	return res;
}

/* Expand a whole string. */
char *
pp_expand_string(struct pp *pp, const char *in, char **cause)
{
	char *res;

	if (pp_enter(pp, cause) != 0)
		return NULL;
	if ((res = pp_expand_with(pp, &in, NULL, 0, NULL, cause)) == NULL)
		pp_leave_error(pp, cause);
	return res;
}
