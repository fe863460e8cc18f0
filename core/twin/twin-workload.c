/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin-workload.c - the twin's workload (docs/evidence.md, "workload"):
 * steps made from what the bundle shows the machine doing, written as a
 * person would write them so that they can be read, edited and added
 * to. Each mounted file system type is mounted, written, synced and read
 * back (on its own disk when it needs one); TCP over loopback (and IPv6
 * when the bundle used it); each twin NIC up on QEMU's user-mode network
 * with a ping of its gateway; the bundle's loaded modules loaded again
 * by name; AF_ALG when the bundle used it and has the helper. Only
 * busybox's applets, kmod's modprobe and /init's step, disk and nic are
 * used, and the bundle's workload.d helpers when it has them. Every
 * name written into the script comes from kctui's tables or the
 * evidence readers' checked names, never raw bundle text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/strmap.h"
#include "../evidence/evidence.h"
#include "twin-int.h"

/* Whether any of these functions was traced, or modules loaded. */
static bool
twin_used(const struct evidence *ev, const char *const *funcs,
    const char *const *mods)
{
	size_t	i;

	for (i = 0; funcs != NULL && funcs[i] != NULL; i++)
		if (evidence_find(ev, EV_TRACE, funcs[i]) != NULL)
			return true;
	for (i = 0; mods != NULL && mods[i] != NULL; i++)
		if (evidence_find(ev, EV_MODULE, mods[i]) != NULL)
			return true;
	return false;
}

/* Add a step: its function is written, the step line kept for the
 * end. */
static void
twin_step(struct twin_ctx *c, struct strbuf *steps, const char *name,
    const char *command)
{
	struct twin *t = c->t;

	strbuf_addf(steps, "step %s %s\n", name, command);
	t->steps = xrealloc(t->steps, (t->nsteps + 1) * sizeof *t->steps);
	t->steps[t->nsteps++] = xstrdup(name);
}

/* A name for a shell function: '-' and '.' become '_'. */
static char *
twin_func_name(const char *prefix, const char *name)
{
	char	*s = xasprintf("%s%s", prefix, name), *p;

	for (p = s; *p != '\0'; p++)
		if (*p == '-' || *p == '.')
			*p = '_';
	return s;
}

/* A file system on its disk: made (in the guest when busybox makes
 * it), mounted, a file written with fsync, read back after a remount
 * (from the disk, not the page cache). */
static void
twin_fs_disk(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps,
    const struct twin_fs *f)
{
	const char	*mkfs, *why;
	char		*fn = twin_func_name("fs_", f->type);
	char		*step = xasprintf("fs-%s", f->type);

	(void)twin_fs_kind(f->type, &mkfs, &why);
	strbuf_addc(w, '\n');
	twin_comment(w, "%s: mounted on the recorded machine (mounts); %s",
	    f->type, f->why);
	strbuf_addf(w, "%s() {\n", fn);
	strbuf_addf(w, "\tdev=$(disk %s) || { echo \"no disk with serial "
	    "%s\"; return 1; }\n", f->disk, f->disk);
	if (mkfs != NULL)
		strbuf_addf(w, "\t%s \"$dev\" > /dev/null || return 1\n", mkfs);
	strbuf_addf(w, "\tmkdir -p /mnt/%s\n", f->type);
	strbuf_addf(w, "\tmount -t %s \"$dev\" /mnt/%s || return 1\n",
	    f->type, f->type);
	strbuf_addf(w, "\tdd if=/dev/urandom of=/mnt/%s/data bs=64k count=16 "
	    "conv=fsync || return 1\n", f->type);
	strbuf_addf(w, "\tsum=$(md5sum < /mnt/%s/data)\n", f->type);
	strbuf_addf(w, "\tumount /mnt/%s || return 1\n", f->type);
	strbuf_addf(w, "\tmount -t %s \"$dev\" /mnt/%s || return 1\n",
	    f->type, f->type);
	strbuf_addf(w, "\t[ \"$(md5sum < /mnt/%s/data)\" = \"$sum\" ] || "
	    "{ echo \"%s: read back differs\"; return 1; }\n", f->type,
	    f->type);
	strbuf_addf(w, "\tdf /mnt/%s\n", f->type);
	strbuf_addf(w, "\tumount /mnt/%s\n}\n", f->type);
	twin_step(c, steps, step, fn);
	free(fn);
	free(step);
}

/* A file system with no disk: mounted and listed; where it holds
 * files (tmpfs, ramfs), a file written, copied and compared. */
static void
twin_fs_nodev(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps,
    const struct twin_fs *f)
{
	char	*fn = twin_func_name("fs_", f->type);
	char	*step = xasprintf("fs-%s", f->type);
	bool	 files = strcmp(f->type, "tmpfs") == 0 ||
		    strcmp(f->type, "ramfs") == 0;

	strbuf_addc(w, '\n');
	twin_comment(w, "%s: mounted on the recorded machine (mounts)%s",
	    f->type, files ? "; a file written, copied and compared" : "");
	strbuf_addf(w, "%s() {\n", fn);
	strbuf_addf(w, "\tmkdir -p /mnt/%s\n", f->type);
	strbuf_addf(w, "\tmount -t %s %s /mnt/%s || return 1\n", f->type,
	    f->type, f->type);
	if (files) {
		strbuf_addf(w, "\tdd if=/dev/urandom of=/mnt/%s/data bs=64k "
		    "count=16 conv=fsync || return 1\n", f->type);
		strbuf_addf(w, "\tcp /mnt/%s/data /mnt/%s/copy || return 1\n",
		    f->type, f->type);
		strbuf_addf(w, "\tcmp /mnt/%s/data /mnt/%s/copy || return 1\n",
		    f->type, f->type);
	} else
		strbuf_addf(w, "\tls /mnt/%s > /dev/null || return 1\n",
		    f->type);
	strbuf_addf(w, "\tumount /mnt/%s\n}\n", f->type);
	twin_step(c, steps, step, fn);
	free(fn);
	free(step);
}

/* Whether the bundle's sockstat6 (kctui collect) counts an IPv6 socket in
 * use ("TCP6: inuse 2"): the machine used IPv6 even where no trace says
 * so. */
static bool
twin_sockstat6_used(const struct twin_ctx *c)
{
	char		*text = twin_bundle_text(c, "sockstat6");
	const char	*p;
	unsigned long	 n;
	bool		 used = false;

	for (p = text; p != NULL && *p != '\0' && !used; ) {
		if ((strncmp(p, "TCP6:", 5) == 0 || strncmp(p, "UDP6:", 5) ==
		    0 || strncmp(p, "RAW6:", 5) == 0) &&
		    sscanf(p + 5, " inuse %lu", &n) == 1 && n > 0)
			used = true;
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	free(text);
	return used;
}

/* TCP over loopback: the bundle's tcploop helper (TCP and a UDP
 * datagram) when it has one, else busybox's nc; IPv6's loopback when the
 * bundle used IPv6. */
static void
twin_loopback(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps)
{
	static const char *const ip6[] = {
		"ip6_output", "ip6_finish_output", "ipv6_rcv", "ip6_xmit",
		NULL
	};
	static const char *const ip6mod[] = { "ipv6", NULL };
	bool	v6 = twin_used(c->ev, ip6, ip6mod);
	bool	v6sock = !v6 && twin_sockstat6_used(c);
	const char *why6 = v6sock ? "; IPv6's loopback, as the bundle had "
	    "IPv6 sockets open (sockstat6)" : "; IPv6's loopback, as the "
	    "bundle used IPv6 (traced ip6_* functions)";

	v6 |= v6sock;

	strbuf_addc(w, '\n');
	if (c->tcploop)
		twin_comment(w, "loopback: 1 MiB over TCP on 127.0.0.1 and a "
		    "UDP datagram, by the bundle's helper workload.d/"
		    "tcploop.c%s", v6 ? why6 : "");
	else
		twin_comment(w, "loopback: 1 MiB over TCP on 127.0.0.1 with "
		    "busybox's nc (UDP is not an option of its own: it is "
		    "built with INET, as TCP is)%s", v6 ? why6 : "");
	strbuf_adds(w, "loopback() {\n"
	    "\tip link set lo up || return 1\n");
	if (c->tcploop)
		strbuf_adds(w, "\ttcploop 5555 1048576 || return 1\n");
	else
		strbuf_adds(w,
		    "\tdd if=/dev/urandom of=/tmp/tcp.out bs=64k count=16 "
		    "2> /dev/null || return 1\n"
		    "\t# the server's input stays open: its nc would end the "
		    "connection\n"
		    "\t# as soon as it read its end of file\n"
		    "\tsleep 20 | nc -l -p 5555 > /tmp/tcp.in &\n"
		    "\ti=0\n"
		    "\tuntil nc 127.0.0.1 5555 < /tmp/tcp.out; do\n"
		    "\t\ti=$((i + 1))\n"
		    "\t\t[ $i -lt 25 ] || return 1\n"
		    "\t\tusleep 200000\n"
		    "\tdone\n"
		    "\twait $!\n"
		    "\tcmp /tmp/tcp.out /tmp/tcp.in || return 1\n");
	if (v6)
		strbuf_adds(w, "\tping6 -c 1 -W 2 ::1 || return 1\n");
	strbuf_adds(w, "}\n");
	twin_step(c, steps, "loopback-net", "loopback");
}

/* Each NIC up on its user-mode network, its gateway pinged. */
static void
twin_nics(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps)
{
	const struct twin_nic	*n;
	char			*fn, *step;
	size_t			 i, j;

	for (i = 0; i < c->nnics; i++) {
		n = &c->nics[i];
		for (j = 0; j < i; j++)
			if (strcmp(c->nics[j].driver, n->driver) == 0)
				break;
		if (j < i)
			continue;	/* nic DRIVER finds the first only */
		fn = twin_func_name("net_", n->driver);
		step = xasprintf("net-%s", n->driver);
		strbuf_addc(w, '\n');
		twin_comment(w, "the %s NIC (a bound device of the bundle) on "
		    "QEMU's user-mode network 10.0.%d.0/24: up, addressed, "
		    "its gateway pinged", n->driver, n->subnet);
		strbuf_addf(w, "%s() {\n", fn);
		strbuf_addf(w, "\tn=$(nic %s) || { echo \"no interface bound "
		    "to %s\"; return 1; }\n", n->driver, n->driver);
		strbuf_adds(w, "\tip link set \"$n\" up || return 1\n"
		    "\ti=0\n"
		    "\twhile [ \"$(cat /sys/class/net/$n/carrier 2> /dev/null)"
		    "\" != 1 ] && [ $i -lt 20 ]; do\n"
		    "\t\tusleep 500000\n"
		    "\t\ti=$((i + 1))\n"
		    "\tdone\n");
		strbuf_addf(w, "\tip addr add 10.0.%d.15/24 dev \"$n\" || "
		    "return 1\n", n->subnet);
		strbuf_addf(w, "\tping -c 3 -W 5 10.0.%d.2 || return 1\n",
		    n->subnet);
		/* (busybox's ip has no -s: the counters from sysfs) */
		strbuf_adds(w, "\tip link show \"$n\"\n"
		    "\techo \"rx_packets $(cat /sys/class/net/$n/statistics/"
		    "rx_packets) tx_packets $(cat /sys/class/net/$n/statistics/"
		    "tx_packets)\"\n}\n");
		twin_step(c, steps, step, fn);
		free(fn);
		free(step);
	}
}

/* Marks of twin_modules_untwinned's map: a module some device with a
 * twin uses. */
static const struct twin_device twin_module_twinned;

/* Each module of the bound devices to the last device with no twin that
 * uses it, or &twin_module_twinned when a device with a twin uses it:
 * one pass (the devices' module names are the evidence's, interned). */
static void
twin_modules_untwinned(const struct twin *t, struct strmap *m)
{
	const struct twin_device	*d;
	struct strmap_entry		*e;
	size_t				 i;

	strmap_init(m);
	for (i = 0; i < t->ndevices; i++) {
		d = &t->devices[i];
		if (d->module == NULL)
			continue;
		e = strmap_insert(m, d->module, strlen(d->module), NULL);
		if (e->value == &twin_module_twinned)
			continue;
		e->value = d->state != TWIN_NONE ?
		    (void *)&twin_module_twinned : (void *)d;
	}
}

/* Whether a module is only the module of devices with no twin. */
static const struct twin_device *
twin_module_untwinned(const struct strmap *m, const char *module)
{
	const struct twin_device *d = strmap_get(m, module, strlen(module));

	return d == &twin_module_twinned ? NULL : d;
}

/* The modules /proc/modules text marks out of tree, as a set (keys in
 * the text): their taint flags, the last field "(OE)", have O (a DKMS
 * or vendor module, such as nvidia or zfs: no kernel kctui builds has
 * it). The first line of a name decides, as a search from the top did. */
static void
twin_modules_out_of_tree(const char *modules, struct strmap *m)
{
	const char	*p, *eol, *t, *sp;
	bool		 added;
	struct strmap_entry *e;

	strmap_init(m);
	for (p = modules; p != NULL && *p != '\0'; p = *eol != '\0' ?
	    eol + 1 : NULL) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		if ((sp = memchr(p, ' ', (size_t)(eol - p))) == NULL ||
		    sp == p)
			continue;
		e = strmap_insert(m, p, (size_t)(sp - p), &added);
		if (!added)
			continue;
		for (t = eol; t > p && t[-1] != ' '; t--)
			;
		e->value = *t == '(' && memchr(t, 'O', (size_t)(eol - t)) !=
		    NULL ? (void *)1 : NULL;
	}
}

/* Whether a module is out of tree by that set. */
static bool
twin_module_out_of_tree(const struct strmap *m, const char *name)
{
	return strmap_get(m, name, strlen(name)) != NULL;
}

/* The bundle's loaded modules loaded again by name: a module missing
 * from the kernel fails the step (kmod's "Module X not found", which
 * kctui verify reads to put it back); one that is there but does not
 * load on the twin's hardware or CPU is said and let be. */
static void
twin_modules(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps)
{
	const struct twin_device *d;
	const struct ev_item	 *it;
	struct strbuf		  skipped, tree;
	struct strmap		  untwinned, oot;
	char			 *text;
	size_t			  i, n = evidence_count(c->ev, EV_MODULE), k;
	bool			 *skip;

	if (n == 0)
		return;
	text = twin_bundle_text(c, "modules");
	twin_modules_untwinned(c->t, &untwinned);
	twin_modules_out_of_tree(text != NULL ? text : "", &oot);
	skip = xcalloc(n, sizeof *skip);
	strbuf_init(&skipped);
	strbuf_init(&tree);
	strbuf_addc(w, '\n');
	twin_comment(w, "the modules the recorded machine had loaded "
	    "(modules), loaded again by name with kmod's modprobe: one "
	    "missing from this kernel fails the step, one that does not load "
	    "on the twin's hardware or CPU is only said");
	for (i = 0; i < n; i++) {
		it = evidence_item(c->ev, EV_MODULE, i);
		if ((d = twin_module_untwinned(&untwinned, it->name)) != NULL) {
			strbuf_addf(&skipped, " %s (%s %s)", it->name,
			    d->driver, d->path);
			skip[i] = true;
		} else if (twin_module_out_of_tree(&oot, it->name)) {
			strbuf_addf(&tree, " %s", it->name);
			skip[i] = true;
		}
	}
	if (skipped.len > 0)
		twin_comment(w, "not loaded, for devices with no twin:%s",
		    skipped.s);
	if (tree.len > 0)
		twin_comment(w, "not loaded, out of the kernel's tree (taint "
		    "O in modules):%s", tree.s);
	for (i = k = 0; i < n; i++)
		k += !skip[i];
	if (k == 0) {
		twin_comment(w, "(none left: no modules step)");
		goto out;
	}
	strbuf_adds(w, "modules() {\n\tmissing=\n\tfor m in");
	for (i = k = 0; i < n; i++) {
		it = evidence_item(c->ev, EV_MODULE, i);
		if (skip[i])
			continue;
		if (k++ % 6 == 0)
			strbuf_adds(w, " \\\n\t    ");
		else
			strbuf_addc(w, ' ');
		strbuf_adds(w, it->name);
	}
	strbuf_adds(w, "; do\n"
	    "\t\tif ! /sbin/modprobe -n \"$m\"; then\n"
	    "\t\t\tmissing=\"$missing $m\"\n"
	    "\t\t\tcontinue\n"
	    "\t\tfi\n"
	    "\t\t/sbin/modprobe \"$m\" ||\n"
	    "\t\t    echo \"$m: in this kernel, does not load on the twin\"\n"
	    "\tdone\n"
	    "\t[ -z \"$missing\" ] || { echo \"not in this kernel:$missing\"; "
	    "return 1; }\n"
	    "}\n");
	twin_step(c, steps, "modules", "modules");
out:
	strbuf_free(&skipped);
	strbuf_free(&tree);
	strmap_free(&untwinned);
	strmap_free(&oot);
	free(skip);
	free(text);
}

/* AF_ALG, by the bundle's helper, when the bundle used it. */
static void
twin_afalg(struct twin_ctx *c, struct strbuf *w, struct strbuf *steps)
{
	static const char *const funcs[] = {
		"alg_bind", "af_alg_accept", "af_alg_free_sg", "hash_sendmsg",
		"skcipher_sendmsg", "aead_sendmsg", NULL
	};
	static const char *const mods[] = {
		"af_alg", "algif_hash", "algif_skcipher", "algif_aead", NULL
	};
	const struct ev_item	*it;
	struct strbuf		 used;
	size_t			 i, n = evidence_count(c->ev, EV_CRYPTO);

	strbuf_init(&used);
	for (i = 0; i < n; i++) {
		it = evidence_item(c->ev, EV_CRYPTO, i);
		if (it->hits > 0 && it->detail != NULL &&
		    strstr(used.s != NULL ? used.s : "", it->detail) == NULL)
			strbuf_addf(&used, " %s", it->detail);
	}
	if (!twin_used(c->ev, funcs, mods)) {
		if (used.len > 0) {
			strbuf_addc(w, '\n');
			twin_comment(w, "crypto: the bundle's /proc/crypto has "
			    "in use:%s; by the kernel itself (no AF_ALG "
			    "user): the steps above use them as it did",
			    used.s);
		}
		strbuf_free(&used);
		return;
	}
	strbuf_addc(w, '\n');
	if (!c->afalg) {
		twin_comment(w, "crypto: the bundle used AF_ALG (in use:%s), "
		    "but has no workload.d/afalg.c helper: not tested",
		    used.len > 0 ? used.s : " none said");
		strbuf_free(&used);
		return;
	}
	twin_comment(w, "crypto through AF_ALG, as the bundle used it (in "
	    "use:%s): sha256 and cbc(aes) by the bundle's helper "
	    "workload.d/afalg.c (af_alg, algif_hash and algif_skcipher load "
	    "on demand)", used.len > 0 ? used.s : " none said");
	strbuf_adds(w, "afalg_step() {\n\tafalg 4\n}\n");
	twin_step(c, steps, "afalg", "afalg_step");
	strbuf_free(&used);
}

/* Write the workload into c->t->workload (twin-int.h). */
void
twin_workload_write(struct twin_ctx *c)
{
	const struct ev_bundle	*eb = evidence_bundle(c->ev, 0);
	struct strbuf		 w, steps;
	const struct twin_fs	*f;
	const char		*mkfs, *why;
	size_t			 i;
	bool			 said = false;

	strbuf_init(&w);
	strbuf_init(&steps);
	twin_comment(&w, "The workload of the twin of the machine the bundle "
	    "%s was recorded on, made by kctui twin from its evidence "
	    "(docs/verify.md, \"The twin machine\"). Format: "
	    "docs/evidence.md, \"workload\": run by the guest's /init after "
	    "coldplug, with step, disk and nic defined; kctui verify also "
	    "checks that every device with a twin is bound again. Add your "
	    "own steps at the end.", eb != NULL ? eb->path : "");
	for (i = 0; i < c->t->nfs; i++) {
		f = &c->t->fs[i];
		if (!f->tested)
			continue;
		if (f->disk != NULL)
			twin_fs_disk(c, &w, &steps, f);
		else
			twin_fs_nodev(c, &w, &steps, f);
	}
	for (i = 0; i < c->t->nfs; i++) {
		f = &c->t->fs[i];
		if (!f->tested && twin_fs_kind(f->type, &mkfs, &why) != 'i') {
			if (!said)
				strbuf_addc(&w, '\n');
			said = true;
			twin_comment(&w, "%s: mounted on the recorded machine, "
			    "not tested: %s", f->type, f->why);
		}
	}
	twin_loopback(c, &w, &steps);
	twin_nics(c, &w, &steps);
	twin_modules(c, &w, &steps);
	twin_afalg(c, &w, &steps);
	strbuf_addc(&w, '\n');
	strbuf_add(&w, steps.s, steps.len);
	strbuf_free(&steps);
	c->t->workload = strbuf_detach(&w);
}
