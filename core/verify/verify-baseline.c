/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify-baseline.c - the kernel the bundle was recorded on, booted first
 * on the same machine with the same workload (the baseline: a machine,
 * workload or host that fails it stops everything, before any build),
 * fetched with apt-get by the bundle's release or given as a root; and
 * what the trim bought, measured on both kernels without a boot
 * (measure.c: the image, vmlinux's sections, system calls, modules, the
 * y+m beside make localmodconfig's).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../lib/beneath.h"
#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "../evidence/evidence.h"
#include "verify-int.h"
#include "userspace.h"
#include "verify.h"

static void verify_measure_baseline(struct verify_state *, const char *,
    const char *, const char *);

/* The release of the kernel the bundle was recorded on (uname -r, read
 * by the evidence's rule for its uname file), or NULL (malloc'd). */
static char *
verify_bundle_release(const struct verify *v)
{
	char	*text, *rel;

	if ((text = verify_bundle_file(v, "uname")) == NULL)
		return NULL;
	rel = evidence_uname_release(text);
	free(text);
	return rel;
}

/*
 * Whether the modules of a kernel the user unpacked (--base-kernel) have
 * their modules.dep: a package unpacked with dpkg-deb -x has none (the
 * package's postinst runs depmod), and without it every modprobe of the
 * guest fails, which would blame the machine or the workload. The user's
 * directory is not written: false with *cause saying the command.
 */
static bool
verify_root_has_depmod(const char *root, const char *release, char **cause)
{
	char		*dep = xasprintf("%s/lib/modules/%s/modules.dep", root,
			    release);
	struct stat	 st;
	bool		 ok = stat(dep, &st) == 0;

	if (!ok)
		*cause = xasprintf("%s: no modules.dep (an unpacked package "
		    "ships none: its installation runs depmod); run 'depmod "
		    "-b %s %s', or leave out --base-kernel and verify fetches "
		    "and prepares the package itself", dep, root, release);
	free(dep);
	return ok;
}

/* Run a command of the baseline's set-up quietly in dir; 0 when it
 * exited 0, else -1 with *cause naming it and its last line. */
static int
verify_run_quiet(char *const *argv, const char *dir, char **cause)
{
	struct proc_opts	 o;
	struct proc_result	 r;

	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.cwd = dir;
	o.timeout = 900;
	if (proc_run(&o, &r, cause) != 0)
		return -1;
	if (r.exit_code != 0) {
		*cause = xasprintf("%s exited with status %d", argv[0],
		    r.exit_code);
		return -1;
	}
	return 0;
}

/*
 * The distribution's package of release, unpacked into ROOT (returned,
 * malloc'd) under the work directory, with depmod run (the package ships
 * no modules.dep). Kept for later runs. NULL with *cause.
 */
static char *
verify_baseline_fetch(struct verify *v, const char *release, char **cause)
{
	char	*dir, *root, *pkg, *deb = NULL, *vmlinuz, *why = NULL;
	char	*dl[] = { "apt-get", "download", NULL, NULL };
	char	*x[] = { "dpkg-deb", "-x", NULL, NULL, NULL };
	char	*dm[] = { "depmod", "-b", NULL, NULL, NULL };
	DIR	*d;
	struct dirent *de;
	struct stat st;

	dir = xasprintf("%s/baseline", v->work);
	root = xasprintf("%s/%s", dir, release);
	vmlinuz = xasprintf("%s/boot/vmlinuz-%s", root, release);
	if (stat(vmlinuz, &st) == 0) {
		free(vmlinuz);
		free(dir);
		return root;
	}
	pkg = xasprintf("linux-image-%s", release);
	if (path_mkdir_p(dir, 0755, cause) != 0)
		goto fail;
	dl[2] = pkg;
	if (verify_run_quiet(dl, dir, &why) != 0) {
		*cause = xasprintf("apt-get download %s: %s", pkg, why);
		goto fail;
	}
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL && deb == NULL)
			if (strncmp(de->d_name, pkg, strlen(pkg)) == 0 &&
			    de->d_name[strlen(pkg)] == '_' &&
			    strstr(de->d_name, ".deb") != NULL)
				deb = xasprintf("%s/%s", dir, de->d_name);
		closedir(d);
	}
	if (deb == NULL) {
		*cause = xasprintf("apt-get download %s left no .deb in %s",
		    pkg, dir);
		goto fail;
	}
	x[2] = deb;
	x[3] = root;
	dm[2] = root;
	dm[3] = (char *)release;
	if (verify_run_quiet(x, dir, cause) != 0 ||
	    verify_run_quiet(dm, dir, cause) != 0)
		goto fail;
	if (stat(vmlinuz, &st) != 0) {
		*cause = xasprintf("%s: %s", vmlinuz, strerror(errno));
		goto fail;
	}
	free(why);
	free(deb);
	free(pkg);
	free(vmlinuz);
	free(dir);
	return root;
fail:
	free(why);
	free(deb);
	free(pkg);
	free(vmlinuz);
	free(dir);
	free(root);
	return NULL;
}

/*
 * Before anything is built: boot the kernel the bundle was recorded on
 * with its workload on this machine. When it fails, the machine, the
 * workload or the host is wrong, and no trim can be judged: stop. No
 * kernel to be had is no error: the report says there was no baseline.
 * -1 with *cause to stop.
 */
int
verify_baseline(struct verify_state *st, char **cause)
{
	struct verify		*v = st->v;
	struct vm_result	 r;
	char			*release, *root = NULL, *kernel = NULL;
	char			*initrd = NULL, *why = NULL;
	const char		*first;
	DIR			*d;
	struct dirent		*de;
	int			 rc = -1;

	if (userspace_prepare(st, cause) != 0)
		return -1;
	if (v->no_baseline) {
		v->baseline = xstrdup("none (--no-baseline)");
		return 0;
	}
	release = verify_bundle_release(v);
	if (v->base_kernel != NULL) {
		root = xstrdup(v->base_kernel);
		/* Its release: the one modules directory it has. */
		kernel = xasprintf("%s/lib/modules", root);
		if (release == NULL && (d = opendir(kernel)) != NULL) {
			while ((de = readdir(d)) != NULL && release == NULL)
				if (de->d_name[0] != '.')
					release = xstrdup(de->d_name);
			closedir(d);
		}
		free(kernel);
		kernel = NULL;
	} else if (release == NULL) {
		v->baseline = xstrdup("none (the bundle names no kernel "
		    "release; --base-kernel ROOT gives one)");
		return 0;
	} else if ((root = verify_baseline_fetch(v, release, &why)) ==
	    NULL) {
		v->baseline = xasprintf("none (%s)", why);
		free(why);
		free(release);
		return 0;
	}
	if (release == NULL) {
		*cause = xasprintf("%s: no lib/modules/RELEASE in it "
		    "(--base-kernel wants an unpacked kernel package)", root);
		goto out;
	}
	if (v->base_kernel != NULL && !verify_root_has_depmod(root, release,
	    cause))
		goto out;
	kernel = xasprintf("%s/boot/vmlinuz-%s", root, release);
	verify_note(v, "baseline: booting the kernel the bundle was recorded "
	    "on");
	st->probe_t0 = clock_now();	/* its phases' times count from here */
	initrd = xasprintf("%s/baseline.cpio", st->bootdir);
	memset(&r, 0, sizeof r);
	st->booting_baseline = true;
	rc = verify_boot(st, kernel, initrd, root, release, &r, cause);
	st->booting_baseline = false;
	if (rc != 0) {
		rc = -1;
		vm_result_free(&r);
		goto out;
	}
	rc = -1;
	verify_compare(v, &r);
	if (v->baseline_only)
		verify_emit_steps(v, &r);
	if ((first = verify_first_failure(v, &r)) != NULL) {
		*cause = xasprintf("the baseline, %s (the kernel the bundle "
		    "was recorded on), failed at %s on this machine: the "
		    "machine, the workload or the host is wrong, not a trim; "
		    "nothing was built (console: %s; --no-baseline to go on)",
		    kernel, first, r.console != NULL ? r.console : "none");
		vm_result_free(&r);
		goto out;
	}
	v->baseline = xasprintf("%s booted and passed every step (%.0f s "
	    "under %s)", kernel, r.seconds, r.kvm ? "KVM" : "TCG");
	/* its times, and what it takes to boot it again for more */
	verify_boot_time_add(st, 0, &r);
	st->base_kernel = xstrdup(kernel);
	st->base_root = xstrdup(root);
	st->base_release = xstrdup(release);
	verify_measure_baseline(st, root, release, kernel);
	if (v->baseline_only) {
		/* its boot is the result the report shows */
		vm_result_free(&v->result);
		v->result = r;
		memset(&r, 0, sizeof r);
	}
	vm_result_free(&r);
	rc = 0;
out:
	free(initrd);
	free(kernel);
	free(root);
	free(release);
	return rc;
}

/*
 * The baseline's vmlinux sections: a package ships only the image, whose
 * payload the tree's own scripts/extract-vmlinux unpacks (a stripped
 * vmlinux: sections, no symbols). Paths go to sh as arguments.
 */
static void
verify_measure_extract(struct verify_state *st, const char *kernel,
    struct measure *m)
{
	struct verify		*v = st->v;
	struct proc_opts	 o;
	struct proc_result	 r;
	char			*script, *out, *cause = NULL;
	char			*argv[] = { "sh", "-c", "exec sh \"$1\" \"$2\" "
	    "> \"$3\" 2>/dev/null", "sh", NULL, NULL, NULL, NULL };

	script = xasprintf("%s/scripts/extract-vmlinux", v->tree);
	out = xasprintf("%s/baseline-vmlinux", v->work);
	argv[4] = script;
	argv[5] = (char *)kernel;
	argv[6] = out;
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.timeout = 300;
	o.cancel = v->cancel;
	if (access(script, R_OK) == 0 && proc_run(&o, &r, &cause) == 0 &&
	    r.exit_code == 0 && measure_elf_sizes(out, &m->text, &m->data,
	    &m->bss, &cause) != 0)
		m->text = m->data = m->bss = -1;
	free(cause);
	unlink(out);
	free(out);
	free(script);
}

/*
 * The baseline's column of the measured table: its package has the
 * image, System.map (no vmlinux: no section sizes, the system calls from
 * the map), the modules and the config.
 */
static void
verify_measure_baseline(struct verify_state *st, const char *root,
    const char *release, const char *kernel)
{
	struct verify	*v = st->v;
	struct measure	*m = &v->measured[0];
	struct stat	 sb;
	char		*p, *text;
	size_t		 len;

	measure_init(m, "baseline (the bundle's kernel)");
	v->has_measured = true;
	if (stat(kernel, &sb) == 0)
		m->bzimage = sb.st_size;
	p = xasprintf("%s/boot/System.map-%s", root, release);
	if ((m->syscalls = measure_syscalls_map(p)) >= 0)
		m->syscalls_from = "System.map";
	free(p);
	/* a distribution's System.map is a placeholder: the bundle's
	 * kallsyms is that kernel's */
	if (m->syscalls < 0 && (text = verify_bundle_file(v, "kallsyms")) !=
	    NULL) {
		if ((m->syscalls = measure_syscalls_map_text(text)) >= 0)
			m->syscalls_from = "the bundle's kallsyms, every "
			    "__x64_sys_ wrapper";
		free(text);
	}
	verify_measure_extract(st, kernel, m);
	p = xasprintf("%s/lib/modules/%s", root, release);
	measure_modules(p, &m->modules, &m->modules_bytes);
	free(p);
	p = xasprintf("%s/boot/config-%s", root, release);
	if ((text = file_read_all(p, &len)) == NULL)
		text = file_read_all(st->base_config, &len);
	if (text != NULL)
		m->ym = measure_ym_text(text);
	free(text);
	free(p);
}

/*
 * The tree's own `make localmodconfig` of the untrimmed config with the
 * bundle's modules (as lsmod prints them), in its own O= directory: its
 * y+m count, or -1. Run through sh for the "yes ''" answering conf's
 * questions; the paths go as arguments, never into the script's text.
 */
static long
verify_measure_lmc(struct verify_state *st)
{
	struct verify		*v = st->v;
	struct proc_opts	 o;
	struct proc_result	 r;
	char			*dir, *lsmod, *cfg, *mods, *text, *cause = NULL;
	char			*line, *save = NULL, *w;
	struct strbuf		 sb;
	size_t			 len;
	long			 n = -1;
	char			*argv[] = { "sh", "-c", "yes '' | exec make -s "
	    "-C \"$1\" O=\"$2\" LSMOD=\"$3\" localmodconfig >/dev/null "
	    "2>&1", "sh", NULL, NULL, NULL, NULL };

	if ((mods = verify_bundle_file(v, "modules")) == NULL)
		return -1;
	strbuf_init(&sb);
	strbuf_adds(&sb, "Module                  Size  Used by\n");
	for (line = strtok_r(mods, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		/* name size refcount: what streamline_config.pl reads */
		if ((w = strchr(line, ' ')) == NULL)
			strbuf_addf(&sb, "%s 0 0\n", line);
		else
			strbuf_addf(&sb, "%s\n", line);
	}
	free(mods);
	dir = xasprintf("%s/localmodconfig", v->work);
	lsmod = xasprintf("%s/lsmod", v->work);
	cfg = xasprintf("%s/.config", dir);
	if (path_mkdir_p(dir, 0755, &cause) != 0 ||
	    file_write_atomic(lsmod, sb.s, sb.len, 0644, 0, &cause) != 0 ||
	    (text = file_read_all(st->base_config, &len)) == NULL)
		goto out;
	if (file_write_atomic(cfg, text, len, 0644, 0, &cause) != 0) {
		free(text);
		goto out;
	}
	free(text);
	argv[4] = (char *)v->tree;
	argv[5] = dir;
	argv[6] = lsmod;
	memset(&o, 0, sizeof o);
	o.argv = argv;
	o.timeout = 900;
	o.cancel = v->cancel;
	if (proc_run(&o, &r, &cause) == 0 && r.exit_code == 0 &&
	    (text = file_read_all(cfg, &len)) != NULL) {
		n = measure_ym_text(text);
		free(text);
	}
out:
	free(cause);
	strbuf_free(&sb);
	free(cfg);
	free(lsmod);
	free(dir);
	return n;
}

/*
 * --compare CONFIG: a fourth column with what needs no build, its y+m
 * (another policy's export, localmodconfig's own config): building it
 * would cost as much as a probe.
 */
static void
verify_measure_compare(struct verify_state *st)
{
	struct verify	*v = st->v;
	struct measure	*m = &v->measured[3];
	const char	*slash;
	char		*text;
	size_t		 len;

	if (v->compare == NULL)
		return;
	slash = strrchr(v->compare, '/');
	measure_init(m, slash != NULL ? slash + 1 : v->compare);
	if ((text = file_read_all(v->compare, &len)) != NULL) {
		m->ym = measure_ym_text(text);
		free(text);
	} else
		verify_note(v, "--compare: the config cannot be read: its "
		    "column is empty");
	v->nmeasured = 4;
}

/*
 * The trimmed column (the last build: the final config when it passed)
 * and localmodconfig's y+m: vmlinux's sections and system calls, the
 * image, the staged modules, the config's y+m.
 */
void
verify_measure_trimmed(struct verify_state *st)
{
	struct verify	*v = st->v;
	struct measure	*m = &v->measured[1];
	struct stat	 sb;
	char		*p, *text, *cause = NULL;
	size_t		 len;

	if (st->b.bzimage == NULL || stat(st->b.bzimage, &sb) != 0)
		return;
	if (!v->has_measured)
		measure_init(&v->measured[0], "baseline (the bundle's kernel)");
	v->has_measured = true;
	measure_init(m, v->passed ? "trimmed (verified)" :
	    "trimmed (last probe)");
	m->bzimage = sb.st_size;
	p = xasprintf("%s/vmlinux", st->b.dir);
	if (measure_elf_sizes(p, &m->text, &m->data, &m->bss, &cause) != 0)
		m->text = m->data = m->bss = -1;
	free(cause);
	cause = NULL;
	if ((m->syscalls = measure_syscalls(p, &cause)) >= 0)
		m->syscalls_from = "vmlinux";
	free(cause);
	free(p);
	if (st->b.staging != NULL && st->b.release != NULL) {
		p = xasprintf("%s/lib/modules/%s", st->b.staging,
		    st->b.release);
		measure_modules(p, &m->modules, &m->modules_bytes);
		free(p);
	} else if (st->b.staging == NULL) {
		m->modules = 0;		/* CONFIG_MODULES off */
		m->modules_bytes = 0;
	}
	p = xasprintf("%s/.config", st->b.dir);
	if (v->passed && v->final != NULL)
		m->ym = measure_ym_text(v->final);
	else if ((text = file_read_all(p, &len)) != NULL) {
		m->ym = measure_ym_text(text);
		free(text);
	}
	free(p);
	measure_init(&v->measured[2], "make localmodconfig");
	v->measured[2].ym = verify_measure_lmc(st);
	v->nmeasured = 3;
	verify_measure_compare(st);
}

