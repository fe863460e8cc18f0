/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-twin.c - "kctui twin": the command-line face of core/twin/, the
 * QEMU twin of the machine a bundle was recorded on and the workload
 * made from its evidence (docs/verify.md, "The twin machine"). Printed,
 * or written as DIR/vm and DIR/workload (with the bundle's helpers the
 * workload uses, in DIR/workload.d) for the user to read, edit and give
 * to kctui verify.
 */
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/evidence/evidence.h"
#include "../core/session.h"
#include "../core/twin/twin.h"
#include "../lib/beneath.h"
#include "../lib/fileio.h"
#include "../lib/proc.h"
#include "../lib/util.h"
#include "cli.h"


/* The files -o DIR gets: vm, workload and the helpers, all or none. */
struct twin_files {
	struct file_out	*outs;
	char	       **paths;
	char	       **bufs;
	size_t		 n;
};

/* Add one file to write. */
static void
twin_files_add(struct twin_files *f, char *path, char *buf, size_t len)
{
	f->outs = xrealloc(f->outs, (f->n + 1) * sizeof *f->outs);
	f->paths = xrealloc(f->paths, (f->n + 1) * sizeof *f->paths);
	f->bufs = xrealloc(f->bufs, (f->n + 1) * sizeof *f->bufs);
	memset(&f->outs[f->n], 0, sizeof f->outs[f->n]);
	f->outs[f->n].path = path;
	f->outs[f->n].buf = buf;
	f->outs[f->n].len = len;
	f->outs[f->n].mode = 0644;
	f->outs[f->n].flags = ATOMIC_MKDIRS;
	f->paths[f->n] = path;
	f->bufs[f->n] = buf;
	f->n++;
}

/* Free the files' names and texts. */
static void
twin_files_free(struct twin_files *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++) {
		free(f->paths[i]);
		free(f->bufs[i]);
	}
	free(f->outs);
	free(f->paths);
	free(f->bufs);
}

/*
 * Write DIR/vm, DIR/workload and DIR/workload.d/HELPER together (each
 * atomically, none if one fails); a file already there is refused
 * unless force, before anything is written. -1 with the reason printed.
 */
static int
twin_write(const struct twin *t, const char *dir, bool force)
{
	struct twin_files	 f;
	struct stat		 st;
	const char		*slash;
	char			*src, *parent, *buf, *cause = NULL;
	size_t			 i, len;
	int			 rc = -1;

	memset(&f, 0, sizeof f);
	twin_files_add(&f, xasprintf("%s/vm", dir), xstrdup(t->vm),
	    strlen(t->vm));
	twin_files_add(&f, xasprintf("%s/workload", dir),
	    xstrdup(t->workload), strlen(t->workload));
	for (i = 0; i < t->nhelper_files; i++) {
		/* below the bundle, following no link (lib/beneath.h) */
		slash = strrchr(t->helpers, '/');
		parent = slash == NULL ? xstrdup(".") :
		    xstrndup(t->helpers, slash - t->helpers);
		src = xasprintf("%s/%s", slash == NULL ? t->helpers :
		    slash + 1, t->helper_files[i]);
		buf = beneath_read(parent, src, &len, &cause);
		free(parent);
		free(src);
		if (buf == NULL) {
			fprintf(stderr, "kctui: twin: %s; nothing written\n",
			    cause);
			free(cause);
			goto out;
		}
		twin_files_add(&f, xasprintf("%s/workload.d/%s", dir,
		    t->helper_files[i]), buf, len);
	}
	for (i = 0; i < f.n && !force; i++) {
		if (lstat(f.paths[i], &st) == 0) {
			fprintf(stderr, "kctui: twin: %s exists (--force "
			    "replaces it); nothing written\n", f.paths[i]);
			goto out;
		}
	}
	if (path_mkdir_p(dir, 0755, &cause) != 0 ||
	    file_write_atomic_set(f.outs, f.n, &cause) != 0) {
		fprintf(stderr, "kctui: twin: %s\n", cause);
		free(cause);
		goto out;
	}
	rc = 0;
out:
	twin_files_free(&f);
	return rc;
}

/* What -o wrote, and what has no twin. */
static void
twin_summary(const struct twin *t, const char *dir)
{
	const struct twin_device	*d;
	char				*ids;
	size_t				 i, given = 0;

	for (i = 0; i < t->ndevices; i++)
		given += t->devices[i].state != TWIN_NONE;
	printf("wrote %s/vm: QEMU %s, %zu of %zu bound devices given again\n",
	    dir, t->machine, given, t->ndevices);
	printf("wrote %s/workload: %zu steps:", dir, t->nsteps);
	for (i = 0; i < t->nsteps; i++)
		printf(" %s", t->steps[i]);
	printf("\n");
	for (i = 0; i < t->nhelper_files; i++)
		printf("wrote %s/workload.d/%s (from %s)\n", dir,
		    t->helper_files[i], t->helpers);
	if (twin_unverifiable_count(t) == 0)
		return;
	printf("not verifiable under QEMU (no twin):\n");
	for (i = 0; (d = twin_unverifiable_at(t, i)) != NULL; i++) {
		ids = twin_device_ids(d);
		printf("  %s %s %s%s%s%s: %s\n", d->bus, d->driver, d->path,
		    ids != NULL ? " [" : "", ids != NULL ? ids : "",
		    ids != NULL ? "]" : "", d->why);
		free(ids);
	}
}

/* kctui twin -e BUNDLE... [-o DIR [--force]] [--qemu PATH] */
int
cmd_twin(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "qemu", required_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct twin		 t;
	struct evidence		*ev = NULL;
	const char		*qemu = "qemu-system-x86_64";
	char			*cause = NULL, *out = NULL, *note = NULL;
	bool			 force = false;
	int			 ch, i, status = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+e:o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			session_add_bundle(s, optarg);
			break;
		case 'o':
			free(out);
			out = session_path(s, optarg);
			break;
		case 'f':
			force = true;
			break;
		case 'q':
			qemu = optarg;
			break;
		default:
			cmd_usage_name(stderr, "twin");
			free(out);
			return 1;
		}
	}
	if (optind < argc || s->nbundles == 0) {
		if (s->nbundles == 0)
			fputs("kctui: twin needs -e BUNDLE\n", stderr);
		else
			cmd_usage_name(stderr, "twin");
		free(out);
		return 1;
	}
	ev = evidence_new();
	if (s->cache_dir != NULL)
		evidence_set_cache_dir(ev, s->cache_dir);
	for (i = 0; i < s->nbundles; i++) {
		if (evidence_load(ev, s->bundles[i], cli_warn_prefixed, NULL,
		    &cause) != 0) {
			fprintf(stderr, "kctui: %s\n", cause);
			goto out;
		}
	}
	/* The devices of the QEMU that will boot the twin; without one,
	 * every device of the table (the file is still worth reading). */
	if (session_twin(s, ev, qemu, &t, &note, &cause) != 0) {
		fprintf(stderr, "kctui: twin: %s\n", cause);
		goto out;
	}
	if (note != NULL)
		fprintf(stderr, "kctui: twin: %s\n", note);
	if (out == NULL) {
		printf("# ==> vm <==\n%s\n# ==> workload <==\n%s",
		    twin_vm_text(&t), twin_workload_text(&t));
		status = 0;
	} else if (twin_write(&t, out, force) == 0) {
		twin_summary(&t, out);
		status = 0;
	}
	twin_free(&t);
out:
	free(cause);
	free(note);
	free(out);
	evidence_free(ev);
	return status;
}
