/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-conf.c - the configuration modes: olddefconfig, defconfig,
 * savedefconfig and all*config do what the kernel's scripts/kconfig/conf
 * does for the make target of the same name, in the environment the top
 * Makefile would give it (the session's); print-env prints that
 * environment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/session.h"
#include "../kconfig-parser/env.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/fileio.h"
#include "../lib/util.h"
#include "cli.h"

/* Print warnings on stderr. */
static void
conf_warn(void *arg, const char *text)
{
	(void)arg;
	fprintf(stderr, "%s\n", text);
}

/* conf's messages: "#\n# text\n#" on stdout, unless silent. */
static void
conf_info(void *arg, const char *text)
{
	struct session *s = arg;

	if (!s->silent)
		printf("#\n# %s\n#\n", text);
}

/* The arch's default defconfig: arch/$SRCARCH/configs/$KBUILD_DEFCONFIG,
 * both derived by env_derive() as the Makefiles do. */
static char *
conf_default_defconfig(struct session *s)
{
	const char *srcarch = envp_get(s->envp, "SRCARCH");
	const char *name = envp_get(s->envp, "KBUILD_DEFCONFIG");

	if (srcarch == NULL || name == NULL || *name == '\0')
		return NULL;
	return xasprintf("arch/%s/configs/%s", srcarch, name);
}

/* KCONFIG_ALLCONFIG: a seed file for the all*config modes. 0, or 1 with
 * a message printed. */
static int
conf_allconfig(struct session *s, struct kconfig *k, const char *mode)
{
	const char	*name = envp_get(s->envp, "KCONFIG_ALLCONFIG");
	char		*cause = NULL, *file;

	if (name == NULL)
		return 0;
	if (strcmp(name, "") != 0 && strcmp(name, "1") != 0) {
		if (kconfig_read_simple(k, name, &cause) != 0) {
			if (strchr(cause, ':') != NULL)
				fprintf(stderr, "kctui: %s\n", cause);
			fprintf(stderr, "*** Can't read seed configuration "
			    "\"%s\"!\n", name);
			free(cause);
			return 1;
		}
		return 0;
	}
	file = xasprintf("%s.config", mode);	/* allno.config etc. */
	if (kconfig_read_simple(k, file, &cause) != 0) {
		free(cause);
		cause = NULL;
		if (kconfig_read_simple(k, "all.config", &cause) != 0) {
			fprintf(stderr, "*** KCONFIG_ALLCONFIG set, but no "
			    "\"%s\" or \"all.config\" file found\n", file);
			free(cause);
			free(file);
			return 1;
		}
	}
	free(file);
	return 0;
}

/* One configuration mode being run. */
struct conf_run {
	struct session	*s;
	struct kconfig	*k;
	const char	*mode;		/* argv[0] */
	const char	*arg;		/* argv[1], or NULL */
	char		*defconfig;	/* the arch's default, when used */
};

/* olddefconfig and savedefconfig start from the user's config. */
static int
conf_read_old(struct conf_run *r)
{
	char		*cause = NULL;

	/* conf treats an unreadable config as missing and would start
	 * from defaults; kconfig_read says so instead (a directory, a FIFO,
	 * no permission) rather than silently replacing it. */
	if (kconfig_read(r->k, NULL, &cause) < 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return 1;
	}
	free(cause);
	return 0;
}

/* The source tree conf finds relative files in: $srctree, else here. */
static const char *
conf_srctree(struct session *s)
{
	const char *t = envp_get(s->envp, "srctree");

	return t != NULL && *t != '\0' ? t : ".";
}

/* access(F_OK) of a path relative to the source tree. */
static int
conf_srctree_access(struct session *s, const char *rel)
{
	char	*path = xasprintf("%s/%s", conf_srctree(s), rel);
	int	 rc = access(path, F_OK);

	free(path);
	return rc;
}

/* The arch's default defconfig is no file but a Makefile rule that
 * merges fragments into a base: write the merged config (as
 * merge_config.sh -m does) and go on as olddefconfig (as the rule does). */
static int
conf_read_generated(struct conf_run *r)
{
	const char	*srcarch = envp_get(r->s->envp, "SRCARCH");
	const char	*name = strrchr(r->defconfig, '/') + 1;
	char		*text, *cause = NULL;
	int		 rc;

	rc = kconfig_generated_defconfig(conf_srctree(r->s), srcarch, name,
	    &text, &cause);
	if (rc == 1) {
		fprintf(stderr, "***\n*** Can't find default configuration "
		    "\"%s\"!\n***\n", r->defconfig);
		return 1;
	}
	if (rc == 0 && file_write_atomic(r->s->config_path, text,
	    strlen(text), 0666, ATOMIC_MKDIRS, &cause) != 0)
		rc = -1;
	free(text);
	if (rc != 0) {
		fprintf(stderr, "kctui: %s\n", cause);
		free(cause);
		return 1;
	}
	if (!r->s->silent)
		printf("#\n# merged configuration written to %s (needs "
		    "make)\n#\n", r->s->config_path);
	return conf_read_old(r);
}

/* defconfig starts from FILE, else the arch's defconfig. */
static int
conf_read_defconfig(struct conf_run *r)
{
	char	*cause = NULL;
	int	 rc;

	if (r->arg == NULL) {
		r->defconfig = conf_default_defconfig(r->s);
		if (r->defconfig == NULL) {
			fprintf(stderr, "kctui: no SRCARCH to find the "
			    "default defconfig\n");
			return 1;
		}
		if (conf_srctree_access(r->s, r->defconfig) != 0)
			return conf_read_generated(r);
		if (!r->s->silent)
			printf("*** Default configuration is based on "
			    "'%s'\n", strrchr(r->defconfig, '/') + 1);
		r->arg = r->defconfig;
	}
	if ((rc = kconfig_read(r->k, r->arg, &cause)) != 0) {
		if (rc < 0)
			fprintf(stderr, "kctui: %s\n", cause);
		else
			fprintf(stderr, "***\n*** Can't find default "
			    "configuration \"%s\"!\n***\n", r->arg);
		free(cause);
		return 1;
	}
	kconfig_set_all_new(r->k, KC_NEW_DEFAULT);
	return 0;
}

/* all{no,yes,mod,def}config: KCONFIG_ALLCONFIG's seed, then every new
 * symbol as the mode's name says. */
static int
conf_read_all(struct conf_run *r)
{
	const char	*mode = r->mode;
	char		*m = xstrndup(mode, strlen(mode) - 6);	/* allno */
	int		 rc;

	rc = conf_allconfig(r->s, r->k, m);
	free(m);
	if (rc != 0)
		return 1;
	kconfig_set_all_new(r->k, mode[3] == 'n' ? KC_NEW_NO :
	    mode[3] == 'y' ? KC_NEW_YES : mode[3] == 'm' ? KC_NEW_MOD :
	    KC_NEW_DEFAULT);
	return 0;
}

/* A name that is no command: said once the Kconfig files are read, with
 * the usage; -1: stop at once. */
static int
conf_read_unknown(struct conf_run *r)
{
	fprintf(stderr, "kctui: unknown mode: %s\n", r->mode);
	cmd_usage(stderr);
	return -1;
}

/* Write the configuration, as conf does. */
static int
conf_write_config(struct conf_run *r)
{
	char *cause = NULL;

	if (kconfig_write(r->k, NULL, &cause) != 0) {
		fprintf(stderr, "\n*** Error during writing of the "
		    "configuration: %s\n\n", cause);
		free(cause);
		return 1;
	}
	return 0;
}

/* savedefconfig: the minimal config to FILE, default ./defconfig. */
static int
conf_write_defconfig(struct conf_run *r)
{
	const char	*path = r->arg != NULL ? r->arg : "defconfig";
	char		*cause = NULL;

	if (kconfig_write_defconfig(r->k, path, &cause) != 0) {
		fprintf(stderr, "*** Error while saving defconfig to: %s: %s\n",
		    path, cause);
		free(cause);
		return 1;
	}
	return 0;
}

/*
 * Run one configuration mode (argv[0], its argument argv[1]) as conf
 * does for the make target of the same name: parse the Kconfig files,
 * start the values as input says, write them as output says. The exit
 * status.
 */
static int
conf_run(struct session *s, int argc, char **argv,
    int (*input)(struct conf_run *), int (*output)(struct conf_run *))
{
	struct conf_run		 r;
	struct kconfig_stats	 st;
	char			*cause = NULL;
	int			 status = 1, rc, lock = -1;

	if (session_check_kconfig(s, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		return 1;
	}
	memset(&r, 0, sizeof r);
	r.s = s;
	r.mode = argv[0];
	r.arg = argc > 1 ? argv[1] : NULL;
	r.k = session_new_kconfig(s, conf_warn, conf_info);
	if (kconfig_parse(r.k, s->kconfig, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		goto out;
	}
	/* From reading the config to writing it, one run at a time: a
	 * second olddefconfig then reads the first one's result, finds no
	 * change and leaves .old holding the original. */
	lock = path_lock_wait(s->config_path, cli_lock_waiting, NULL);
	if ((rc = input(&r)) < 0) {
		path_unlock(lock);
		kconfig_free(r.k);
		return 1;
	}
	if (rc != 0)
		goto out;
	if (envp_get(s->envp, "KCONFIG_WERROR") != NULL &&
	    kconfig_dep_warnings(r.k) != 0)
		goto out;
	if (output(&r) != 0)
		goto out;
	status = 0;
out:
	path_unlock(lock);
	if (s->verbose) {
		kconfig_get_stats(r.k, &st);
		fprintf(stderr, "kctui: %d symbols, %d files; $(shell): %d run, "
		    "%d cached, %d repeated\n", st.nsymbols, st.nfiles,
		    st.shell_runs, st.shell_cached, st.shell_dedup);
	}
	free(cause);
	free(r.defconfig);
	kconfig_free(r.k);
	return status;
}

/* kctui olddefconfig */
int
cmd_olddefconfig(struct session *s, int argc, char **argv)
{
	return conf_run(s, argc, argv, conf_read_old, conf_write_config);
}

/* kctui savedefconfig [FILE] */
int
cmd_savedefconfig(struct session *s, int argc, char **argv)
{
	return conf_run(s, argc, argv, conf_read_old, conf_write_defconfig);
}

/* kctui defconfig [FILE] */
int
cmd_defconfig(struct session *s, int argc, char **argv)
{
	return conf_run(s, argc, argv, conf_read_defconfig,
	    conf_write_config);
}

/* kctui allnoconfig, allyesconfig, allmodconfig, alldefconfig */
int
cmd_allconfig(struct session *s, int argc, char **argv)
{
	return conf_run(s, argc, argv, conf_read_all, conf_write_config);
}

/* A mode that is no command: unknown, once the Kconfig files are read
 * (they may have errors to report first). */
int
cmd_unknown(struct session *s, int argc, char **argv)
{
	return conf_run(s, argc, argv, conf_read_unknown, NULL);
}

/* kctui print-env: conf's environment, NAME=value lines. */
int
cmd_print_env(struct session *s, int argc, char **argv)
{
	int i;

	(void)argc;
	(void)argv;
	for (i = 0; s->envp[i] != NULL; i++)
		printf("%s\n", s->envp[i]);
	return 0;
}
