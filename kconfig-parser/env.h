/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - the environment conf sees under the kernel's top Makefile
 * (env.c), and where the on-disk caches of a tree live.  Public: the
 * front ends derive the environment once and hand it to kconfig_new().
 */
#ifndef KC_ENV_H
#define KC_ENV_H

/*
 * Returns a new NULL-terminated array (free with strv_free, lib/util.h): envp with each
 * variable the Makefile would export added when missing, derived exactly
 * as the Makefile derives it (ARCH, SRCARCH, KERNELVERSION, CC, LD, ...,
 * CC_VERSION_TEXT, srctree, objtree). srctree is the kernel tree (its top
 * Makefile is read for VERSION/PATCHLEVEL/SUBLEVEL/EXTRAVERSION); when it
 * has no such Makefile only srctree is added.
 */
char		**env_derive(const char *srctree, char *const *envp,
		     char **cause);
/* env_derive() with make-style NAME=value command-line arguments (NULL
 * terminated), which override what the Makefile assigns, as with make. */
char		**env_derive_args(const char *srctree, char *const *envp,
		     char *const *cmdline, char **cause);
/* The value of NAME in envp, or NULL. */

/*
 * The default $(shell) cache file for a tree: $KCTUI_CACHE_DIR, else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/kctui, then "shell-<hash of the tree's
 * absolute path>.cache".  NULL when neither a cache dir nor HOME is set.
 * Caller frees.
 */
char		 *env_cache_path(char *const *envp, const char *srctree_abs);
#endif
