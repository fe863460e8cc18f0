/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect-private.c - what a bundle never holds (docs/evidence.md): the
 * config's values that can name a person or a place (CONFIG_CMDLINE,
 * DEFAULT_HOSTNAME, INITRAMFS_SOURCE, key and firmware paths) redacted,
 * kallsyms' addresses made relative to _stext (the KASLR base is the
 * machine's), and of /proc/mounts only the system's own mount points, a
 * device's kernel name or a pseudo file system as the source, and no
 * option value but a number. The rest of the snapshot is collect.c's.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <linux/fs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/clock.h"
#include "../../lib/fileio.h"
#include "../../lib/proc.h"
#include "../../lib/util.h"
#include "collect.h"
#include "collect-int.h"

#include <lzma.h>
#include <zlib.h>

/*
 * The config values that can name the machine, its owner or their files,
 * and the kernel's default each is set back to. always: any value but the
 * default; else only an absolute path (certs/signing_key.pem in the tree
 * names nothing; /home/NAME/keys/... does).
 */
static const struct {
	const char	*name;
	const char	*fallback;
	bool		 always;
} collect_private[] = {
	{ "CONFIG_CMDLINE", "", true },
	{ "CONFIG_DEFAULT_HOSTNAME", "(none)", true },
	{ "CONFIG_INITRAMFS_SOURCE", "", true },
	{ "CONFIG_ACPI_CUSTOM_DSDT_FILE", "", true },
	{ "CONFIG_BOOT_CONFIG_EMBED_FILE", "", true },
	{ "CONFIG_UEVENT_HELPER_PATH", "", false },
	{ "CONFIG_MODULE_SIG_KEY", "certs/signing_key.pem", false },
	{ "CONFIG_SYSTEM_TRUSTED_KEYS", "", false },
	{ "CONFIG_SYSTEM_REVOCATION_KEYS", "", false },
	{ "CONFIG_SYSTEM_BLACKLIST_HASH_LIST", "", false },
	{ "CONFIG_EXTRA_FIRMWARE_DIR", "/lib/firmware", false },
};

/* The config text with the private values redacted (collect.h). */
char *
collect_config_redact(const char *text, size_t len)
{
	struct strbuf	 sb;
	const char	*p = text, *end = text + len, *eol, *v;
	size_t		 i, n;
	bool		 redact;

	strbuf_init(&sb);
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol != NULL ? eol + 1 : end;
		for (i = 0; i < sizeof collect_private /
		    sizeof collect_private[0]; i++) {
			n = strlen(collect_private[i].name);
			if ((size_t)(eol - p) > n + 1 && memcmp(p,
			    collect_private[i].name, n) == 0 && p[n] == '=')
				break;
		}
		if (i == sizeof collect_private / sizeof collect_private[0]) {
			strbuf_add(&sb, p, (size_t)(eol - p));
			p = eol;
			continue;
		}
		v = p + strlen(collect_private[i].name) + 1;
		n = (size_t)(eol - v);
		while (n > 0 && (v[n - 1] == '\n' || v[n - 1] == '\r'))
			n--;
		/* the value as written: "..." */
		redact = !(n == strlen(collect_private[i].fallback) + 2 &&
		    v[0] == '"' && v[n - 1] == '"' && memcmp(v + 1,
		    collect_private[i].fallback, n - 2) == 0);
		if (redact && !collect_private[i].always)
			redact = n > 1 && v[0] == '"' && (v[1] == '/' ||
			    v[1] == '~') && !(n == 15 &&
			    memcmp(v, "\"/lib/firmware\"", 15) == 0);
		if (redact)
			strbuf_addf(&sb, "# kctui collect: %s redacted (it can "
			    "name the machine or its owner)\n%s=\"%s\"\n",
			    collect_private[i].name, collect_private[i].name,
			    collect_private[i].fallback);
		else
			strbuf_add(&sb, p, (size_t)(eol - p));
		p = eol;
	}
	return strbuf_detach(&sb);
}

/* The hex address at the start of a kallsyms line and its length; 0
 * digits when it has none. */
static size_t
collect_ksym_addr(const char *p, const char *end, uint64_t *addr)
{
	size_t	n = 0;
	int	d;

	*addr = 0;
	for (; p + n < end && n < 16; n++) {
		d = p[n] >= '0' && p[n] <= '9' ? p[n] - '0' :
		    p[n] >= 'a' && p[n] <= 'f' ? p[n] - 'a' + 10 :
		    p[n] >= 'A' && p[n] <= 'F' ? p[n] - 'A' + 10 : -1;
		if (d < 0)
			break;
		*addr = *addr << 4 | (uint64_t)d;
	}
	return p + n < end && p[n] == ' ' ? n : 0;
}

/* kallsyms with addresses relative to _stext (collect.h). */
char *
collect_kallsyms_relative(const char *text, size_t len)
{
	if (text == NULL)
		text = "";
	struct strbuf	 sb;
	const char	*p, *end = text + len, *eol;
	uint64_t	 addr, stext = 0;
	size_t		 n;

	for (p = text; p < end; p = eol) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol != NULL ? eol + 1 : end;
		n = collect_ksym_addr(p, eol, &addr);
		if (n > 0 && (size_t)(eol - p) >= n + 9 &&
		    memcmp(p + n + 2, " _stext", 7) == 0 &&
		    (p + n + 9 == eol || p[n + 9] == '\n')) {
			stext = addr;
			break;
		}
	}
	strbuf_init(&sb);
	if (stext == 0) {
		strbuf_add(&sb, text, len);
		return strbuf_detach(&sb);
	}
	for (p = text; p < end; p = eol) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol != NULL ? eol + 1 : end;
		n = collect_ksym_addr(p, eol, &addr);
		/* 0 (per-CPU offsets, an unprivileged read) stays 0; the
		 * rest modulo 2^64, so order and distances are kept */
		if (n > 0 && addr != 0) {
			strbuf_addf(&sb, "%016llx", (unsigned long long)(addr -
			    stext));
			strbuf_add(&sb, p + n, (size_t)(eol - p - n));
		} else
			strbuf_add(&sb, p, (size_t)(eol - p));
	}
	return strbuf_detach(&sb);
}

/* config.xz, its private values redacted. */
static int
collect_config_write(struct collect *c, const char *text, size_t len,
    char **cause)
{
	char	*safe = collect_config_redact(text, len);
	int	 ret;

	ret = collect_write(c, "config.xz", safe, strlen(safe), true, 0644,
	    cause);
	free(safe);
	return ret;
}

/* config.xz: /boot/config-RELEASE, else /proc/config.gz. */
int
collect_config(struct collect *c, char **cause)
{
	char		*path;
	struct stat	 sb;
	int		 ret;

	path = xasprintf("/boot/config-%s", c->uts.release);
	if (stat(path, &sb) == 0) {
		struct strbuf	 text;

		strbuf_init(&text);
		if (collect_slurp(path, &text) != 0) {
			collect_note(c, "%s: %s: not collected", path,
			    strerror(errno));
			ret = 0;
		} else
			ret = collect_config_write(c, text.s != NULL ? text.s :
			    "", text.len, cause);
		strbuf_free(&text);
		free(path);
		return ret;
	}
	free(path);
	if (stat("/proc/config.gz", &sb) != 0) {
		collect_note(c, "no /boot/config-%s or /proc/config.gz: "
		    "no config", c->uts.release);
		return 0;
	}
	{
		struct strbuf	 sb2;
		gzFile		 gz;
		char		 buf[COLLECT_IOBUF];
		int		 n;

		gz = gzopen("/proc/config.gz", "rb");
		if (gz == NULL) {
			collect_note(c, "/proc/config.gz: %s: no config",
			    strerror(errno));
			return 0;
		}
		strbuf_init(&sb2);
		while ((n = gzread(gz, buf, sizeof buf)) > 0)
			strbuf_add(&sb2, buf, n);
		if (n < 0) {
			int	 e;

			collect_note(c, "/proc/config.gz: %s: no config",
			    gzerror(gz, &e));
			gzclose(gz);
			strbuf_free(&sb2);
			return 0;
		}
		gzclose(gz);
		ret = collect_config_write(c, sb2.s != NULL ? sb2.s : "",
		    sb2.len, cause);
		strbuf_free(&sb2);
		return ret;
	}
}

/* Whether s is made of lowercase letters, digits and chars (a kernel
 * device name, a file system type, an option's key). */
static bool
mounts_word(const char *s, size_t n, const char *chars)
{
	size_t	i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || strchr(chars, s[i]) != NULL))
			return false;
	return true;
}

/* Whether s is a number, with a unit (65536k, 50%, 0077). */
static bool
mounts_number(const char *s, size_t n)
{
	size_t	i;

	if (n > 1 && strchr("kKmMgG%", s[n - 1]) != NULL)
		n--;
	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Whether a mount point is the system's own (the same on every
 * machine), not a name someone chose. */
static bool
mounts_system_point(const char *s, size_t n)
{
	static const char *const points[] = {
		"/", "/boot", "/boot/efi", "/efi", "/home", "/tmp", "/var",
		"/var/tmp", "/var/log", "/usr", "/opt", "/srv", "/mnt",
		"/media", "/run", "/run/lock", "/run/shm", NULL
	};
	static const char *const trees[] = { "/proc", "/sys", "/dev", NULL };
	size_t	i, k;

	for (i = 0; points[i] != NULL; i++)
		if (strlen(points[i]) == n && memcmp(points[i], s, n) == 0)
			return true;
	for (i = 0; trees[i] != NULL; i++) {
		k = strlen(trees[i]);
		if (n >= k && memcmp(trees[i], s, k) == 0 && (n == k ||
		    s[k] == '/') && mounts_word(s, n, "/_.-"))
			return true;
	}
	return false;
}

/* The source of a mount, said without names: a device by its kernel
 * name (/dev/nvme0n1p2), a pseudo file system by its usual source, the
 * rest (server:/export, //server/share, /dev/mapper/NAME, a file, a
 * label) as "none" or "/dev/block". */
static void
mounts_source(struct strbuf *out, const char *s, size_t n)
{
	static const char *const pseudo[] = {
		"none", "proc", "sysfs", "tmpfs", "devtmpfs", "devpts",
		"cgroup", "cgroup2", "securityfs", "debugfs", "tracefs",
		"pstore", "bpf", "mqueue", "hugetlbfs", "configfs", "fusectl",
		"binfmt_misc", "efivarfs", "systemd-1", "overlay", "shm",
		"udev", "rootfs", "nsfs", "ramfs", "rpc_pipefs", NULL
	};
	size_t	i;

	if (n > 5 && memcmp(s, "/dev/", 5) == 0) {
		if (mounts_word(s + 5, n - 5, ""))
			strbuf_add(out, s, n);
		else
			strbuf_adds(out, "/dev/block");
		return;
	}
	for (i = 0; pseudo[i] != NULL; i++)
		if (strlen(pseudo[i]) == n && memcmp(pseudo[i], s, n) == 0) {
			strbuf_add(out, s, n);
			return;
		}
	strbuf_adds(out, "none");
}

/* Mount options with their values left out unless they are numbers
 * (size=65536k, mode=755): an address, a user name, a path or a
 * subvolume's name is the user's. */
static void
mounts_options(struct strbuf *out, const char *s, size_t n)
{
	const char	*o, *e, *eq;
	bool		 first = true;

	for (o = s; o < s + n; o = e + 1) {
		if ((e = memchr(o, ',', (size_t)(s + n - o))) == NULL)
			e = s + n;
		eq = memchr(o, '=', (size_t)(e - o));
		if (!mounts_word(o, (size_t)((eq != NULL ? eq : e) - o),
		    "_.-"))
			continue;
		if (!first)
			strbuf_addc(out, ',');
		first = false;
		if (eq != NULL && mounts_number(eq + 1, (size_t)(e - eq - 1)))
			strbuf_add(out, o, (size_t)(e - o));
		else
			strbuf_add(out, o, (size_t)((eq != NULL ? eq : e) - o));
	}
	if (first)
		strbuf_adds(out, "rw");
}

/* /proc/mounts with what names the user left out (collect.h). */
char *
collect_mounts_text(const char *text)
{
	struct strbuf	 out;
	const char	*p, *eol, *f[6], *fe[6], *q;
	int		 nf;

	strbuf_init(&out);
	strbuf_add(&out, "", 0);
	for (p = text; *p != '\0'; p = *eol != '\0' ? eol + 1 : eol) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		for (nf = 0, q = p; nf < 6 && q < eol; nf++) {
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			f[nf] = q;
			while (q < eol && *q != ' ' && *q != '\t')
				q++;
			fe[nf] = q;
			if (f[nf] == fe[nf])
				break;
		}
		if (nf != 6)
			continue;	/* not a mounts line: nothing of it */
		mounts_source(&out, f[0], (size_t)(fe[0] - f[0]));
		strbuf_addc(&out, ' ');
		if (mounts_system_point(f[1], (size_t)(fe[1] - f[1])))
			strbuf_add(&out, f[1], (size_t)(fe[1] - f[1]));
		else
			strbuf_adds(&out, "/private");
		strbuf_addc(&out, ' ');
		if (mounts_word(f[2], (size_t)(fe[2] - f[2]), "_.-"))
			strbuf_add(&out, f[2], (size_t)(fe[2] - f[2]));
		else
			strbuf_adds(&out, "unknown");
		strbuf_addc(&out, ' ');
		mounts_options(&out, f[3], (size_t)(fe[3] - f[3]));
		strbuf_adds(&out, " 0 0\n");
	}
	return strbuf_detach(&out);
}

/* mounts: /proc/mounts without the user's names (collect_mounts_text). */
int
collect_mounts(struct collect *c, char **cause)
{
	struct strbuf	 sb;
	char		*text;
	int		 ret;

	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	if (collect_slurp("/proc/mounts", &sb) != 0) {
		collect_note(c, "/proc/mounts: %s: not collected",
		    strerror(errno));
		strbuf_free(&sb);
		return 0;
	}
	text = collect_mounts_text(sb.s);
	ret = collect_write(c, "mounts", text, strlen(text), false, 0644,
	    cause);
	free(text);
	strbuf_free(&sb);
	return ret;
}

