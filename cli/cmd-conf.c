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
	const char *srcarch = env_lookup(s->envp, "SRCARCH");
	const char *name = env_lookup(s->envp, "KBUILD_DEFCONFIG");

	if (srcarch == NULL || name == NULL || *name == '\0')
		return NULL;
	return xasprintf("arch/%s/configs/%s", srcarch, name);
}

/* KCONFIG_ALLCONFIG: a seed file for the all*config modes. 0, or 1 with
 * a message printed. */
static int
conf_allconfig(struct session *s, struct kconfig *k, const char *mode)
{
	const char	*name = env_lookup(s->envp, "KCONFIG_ALLCONFIG");
	char		*cause = NULL, *file;

	if (name == NULL)
		return 0;
	if (strcmp(name, "") != 0 && strcmp(name, "1") != 0) {
		if (kconfig_read_simple(k, name, &cause) != 0) {
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

/* Run one configuration mode (argv[0], its argument argv[1]): what conf
 * does for the make target of the same name; the exit status. A name that
 * is no command comes here too, and is said unknown once the Kconfig files
 * have been read, as it always was. */
int
cmd_conf(struct session *s, int argc, char **argv)
{
	const char		*mode = argv[0];
	const char		*arg = argc > 1 ? argv[1] : NULL;
	struct kconfig		*k;
	char			*cause = NULL, *defconfig = NULL;
	const char		*werror;
	int			 status = 1;

	if (access(s->kconfig, R_OK) != 0) {
		fprintf(stderr, "kctui: %s: %s (run kctui inside a kernel "
		    "tree, or give -C DIR or --kconfig FILE)\n", s->kconfig,
		    strerror(errno));
		return 1;
	}
	k = session_new_kconfig(s, conf_warn, conf_info);

	if (kconfig_parse(k, s->kconfig, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		goto out;
	}

	if (strcmp(mode, "defconfig") == 0) {
		if (arg == NULL) {
			defconfig = conf_default_defconfig(s);
			if (defconfig == NULL) {
				fprintf(stderr, "kctui: no SRCARCH to find the "
				    "default defconfig\n");
				goto out;
			}
			if (!s->silent)
				printf("*** Default configuration is based on "
				    "'%s'\n", strrchr(defconfig, '/') + 1);
			arg = defconfig;
		}
		if (kconfig_read(k, arg, &cause) != 0) {
			fprintf(stderr, "***\n*** Can't find default "
			    "configuration \"%s\"!\n***\n", arg);
			goto out;
		}
		kconfig_set_all_new(k, KC_NEW_DEFAULT);
	} else if (strcmp(mode, "savedefconfig") == 0 ||
	    strcmp(mode, "olddefconfig") == 0) {
		/* conf treats an unreadable config as missing and would start
		 * from defaults; say so instead of silently replacing it. */
		const char *name = s->config_path;

		if (access(name, F_OK) == 0 && access(name, R_OK) != 0) {
			fprintf(stderr, "kctui: %s: %s\n", name,
			    strerror(errno));
			goto out;
		}
		kconfig_read(k, NULL, &cause);
	} else if (strcmp(mode, "allnoconfig") == 0 ||
	    strcmp(mode, "allyesconfig") == 0 ||
	    strcmp(mode, "allmodconfig") == 0 ||
	    strcmp(mode, "alldefconfig") == 0) {
		char *m = xstrndup(mode, strlen(mode) - 6);

		if (conf_allconfig(s, k, m) != 0) {
			free(m);
			goto out;
		}
		free(m);
		kconfig_set_all_new(k, mode[3] == 'n' ? KC_NEW_NO :
		    mode[3] == 'y' ? KC_NEW_YES : mode[3] == 'm' ?
		    KC_NEW_MOD : KC_NEW_DEFAULT);
	} else {
		fprintf(stderr, "kctui: unknown mode: %s\n", mode);
		cmd_usage(stderr);
		free(cause);
		kconfig_free(k);
		return 1;
	}

	werror = env_lookup(s->envp, "KCONFIG_WERROR");
	if (werror != NULL && kconfig_dep_warnings(k) != 0)
		goto out;

	if (strcmp(mode, "savedefconfig") == 0) {
		if (kconfig_write_defconfig(k, arg != NULL ? arg : "defconfig",
		    &cause) != 0) {
			fprintf(stderr, "*** Error while saving defconfig to: "
			    "%s: %s\n", arg != NULL ? arg : "defconfig", cause);
			goto out;
		}
	} else if (kconfig_write(k, NULL, &cause) != 0) {
		fprintf(stderr, "\n*** Error during writing of the "
		    "configuration: %s\n\n", cause);
		goto out;
	}
	status = 0;
out:
	if (s->verbose) {
		struct kconfig_stats st;

		kconfig_get_stats(k, &st);
		fprintf(stderr, "kctui: %d symbols, %d files; $(shell): %d run, "
		    "%d cached, %d repeated\n", st.nsymbols, st.nfiles,
		    st.shell_runs, st.shell_cached, st.shell_dedup);
	}
	free(cause);
	free(defconfig);
	kconfig_free(k);
	return status;
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
