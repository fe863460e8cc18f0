/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-walk.c - the walk of the kernel tree: paths and files of
 * the tree, the top Makefile and Kbuild of each architecture, every
 * directory they name, breadth first, and what each directory's
 * Makefile builds (see kbuild.c).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild-int.h"

/* ------------------------------------------------------------ paths */

/*
 * Normalise a path from the tree top ("./a/../b/" -> "b", "" for the top)
 * into the arena; NULL if it leaves the tree or is absolute elsewhere.
 */
char *
kb_path_norm(struct arena *a, const struct kbuild *kb, const char *s,
    size_t len)
{
	size_t	*starts, *lens, n = 0, i, j, tl, out = 0;
	char	*r;

	if (len > 0 && s[0] == '/') {
		if (kb->srctree == NULL)
			return NULL;
		tl = strlen(kb->srctree);
		if (len < tl || memcmp(s, kb->srctree, tl) != 0 ||
		    (len > tl && s[tl] != '/'))
			return NULL;
		s += tl;
		len -= tl;
	}
	starts = arena_alloc(a, (len / 2 + 1) * sizeof *starts);
	lens = arena_alloc(a, (len / 2 + 1) * sizeof *lens);
	for (i = 0; i < len; i = j + 1) {
		for (j = i; j < len && s[j] != '/'; j++)
			;
		if (j == i || (j - i == 1 && s[i] == '.'))
			continue;
		if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') {
			if (n == 0)
				return NULL;
			n--;
			continue;
		}
		starts[n] = i;
		lens[n++] = j - i;
	}
	r = arena_alloc(a, len + 1);
	for (i = 0; i < n; i++) {
		if (i > 0)
			r[out++] = '/';
		memcpy(r + out, s + starts[i], lens[i]);
		out += lens[i];
	}
	r[out] = '\0';
	return r;
}

/* dir + "/" + rel, normalised (NULL if it leaves the tree). */
static char *
path_join(struct arena *a, const struct kbuild *kb, const char *dir,
    const char *rel, size_t rlen)
{
	size_t	dl = strlen(dir);
	char	*t;

	if ((rlen > 0 && rel[0] == '/') || dl == 0)
		return kb_path_norm(a, kb, rel, rlen);
	t = arena_alloc(a, dl + rlen + 2);
	memcpy(t, dir, dl);
	t[dl] = '/';
	memcpy(t + dl + 1, rel, rlen);
	return kb_path_norm(a, kb, t, dl + 1 + rlen);
}

/* Whether path (from the tree top) is a regular file. */
bool
kb_tree_file(const struct kbuild *kb, const char *path)
{
	struct stat	sb;
	bool		ok;

	if (kb->treefd < 0 || path[0] == '\0')
		return false;
	ok = fstatat(kb->treefd, path, &sb, 0) == 0 && S_ISREG(sb.st_mode);
	kbdeps_file(kb->rec, path, ok);
	return ok;
}

/* Read a file of the tree into a NUL-terminated buffer, or NULL. */
char *
kb_tree_read(const struct kbuild *kb, const char *path, size_t *lenp)
{
	struct stat	 sb;
	char		*buf;
	size_t		 got = 0;
	ssize_t		 r;
	int		 fd;

	if (kb->treefd < 0 || path[0] == '\0')
		return NULL;
	fd = openat(kb->treefd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (kb->rec != NULL) {
			if (fstatat(kb->treefd, path, &sb, 0) == 0 &&
			    S_ISREG(sb.st_mode))
				kb->rec->bad = true;	/* unreadable */
			else
				kbdeps_file(kb->rec, path, false);
		}
		return NULL;
	}
	if (fstat(fd, &sb) != 0) {
		if (kb->rec != NULL)
			kb->rec->bad = true;
		close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode))
		kbdeps_file(kb->rec, path, false);
	else
		kbdeps_stat(kb->rec, 'R', path, &sb);
	if (!S_ISREG(sb.st_mode) || sb.st_size > KB_MAX_FILE) {
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	while (got < (size_t)sb.st_size) {
		r = read(fd, buf + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*lenp = got;
	return buf;
}

/* ------------------------------------------------------------ directories */

/* Record the object path of directory d (see kb_obj_insert). */
static void
add_object(struct parse *p, const struct kdir *d, const char *path,
    const char *module, const char **conds, int nconds, bool always)
{
	kb_obj_insert(p->kb, d->group, path, strlen(path), module, conds,
	    nconds, always, -1);
}

/*
 * Object base.o of directory d: a composite (base-y, base-objs, base-m,
 * base-$(CONFIG_X) in this Makefile) gives its parts, recursively, each
 * with the composite's conds then its own; otherwise it is a leaf.
 */
static void
add_composite(struct parse *p, const struct kdir *d, const char *base,
    const char **conds, int nconds, bool unk, const char *module,
    bool builtin, int depth)
{
	const struct var	*v;
	const struct cw		*w;
	const char		**c2;
	char			*key, *pb, *path;
	size_t			 bl = strlen(base), i, wl;
	unsigned char		 u;
	int			 n2, nparts = 0;

	if (--p->budget < 0)
		return;
	key = arena_alloc(&p->a, bl + 2);
	memcpy(key, base, bl);
	key[bl] = '-';
	v = depth < KB_MAX_NEST ? strmap_get(&p->vars, key, bl + 1) : NULL;
	for (i = 0; v != NULL && i < v->val.n; i++) {
		w = &v->val.v[i];
		wl = strlen(w->s);
		if (w->kind == K_PLAIN || !kb_ends_with(w->s, wl, ".o"))
			continue;
		pb = arena_strndup(&p->a, w->s, wl - 2);
		if (strcmp(pb, base) == 0)
			continue;
		nparts++;
		u = 0;
		c2 = kb_conds_cat(&p->a, conds, nconds, w->conds, w->nconds,
		    &n2, &u);
		add_composite(p, d, pb, c2, n2, unk || u || w->unk, module,
		    builtin && (w->kind == K_Y || w->kind == K_OBJS),
		    depth + 1);
	}
	if (nparts > 0)
		return;
	key = arena_alloc(&p->a, bl + 3);
	memcpy(key, base, bl);
	memcpy(key + bl, ".o", 3);
	if ((path = path_join(&p->a, p->kb, d->path, key, bl + 2)) == NULL ||
	    path[0] == '\0')
		return;
	add_object(p, d, path, module, conds, nconds, builtin && !unk &&
	    !d->unk && !d->modonly && d->group == 0);
}

/*
 * A directory named again before it is read (obj-$(CONFIG_USB) += usb/,
 * obj-$(CONFIG_PCI) += usb/): an OR. Keep the conds common to both; the
 * rest is unknown, unless one of the two needs only the common ones.
 */
static void
kdir_merge(struct kdir *d, const char **conds, int nconds, bool unk,
    bool modonly)
{
	int	i, j, n = 0;
	bool	all_d, all_new;

	for (i = 0; i < d->nconds; i++) {
		for (j = 0; j < nconds; j++) {
			if (conds[j] == d->conds[i])
				break;
		}
		if (j < nconds)
			d->conds[n++] = d->conds[i];
	}
	all_d = n == d->nconds && !d->unk;
	all_new = n == nconds && !unk;
	d->nconds = n;
	d->unk = !(all_d || all_new);
	d->modonly = d->modonly && modonly;
}

/* Queue directory path (normalised) to be read, unless already known. */
static void
kb_enqueue(struct kbuild *kb, const char *path, const char **conds,
    int nconds, bool unk, bool modonly, int group)
{
	struct kdir	*d;
	const char	*ip;
	size_t		 l = strlen(path);

	if (l == 0)
		return;
	ip = intern_str(&kb->in, path, l);
	if ((d = strmap_get(&kb->dirs, ip, l)) != NULL) {
		if (!d->parsed && d->group == group)
			kdir_merge(d, conds, nconds, unk, modonly);
		return;
	}
	d = arena_alloc(&kb->arena, sizeof *d);
	d->path = ip;
	d->nconds = nconds;
	d->conds = arena_alloc(&kb->arena, (size_t)(nconds + 1) *
	    sizeof *d->conds);
	if (nconds > 0)
		memcpy(d->conds, conds, (size_t)nconds * sizeof *d->conds);
	d->unk = unk;
	d->modonly = modonly;
	d->group = group;
	strmap_set(&kb->dirs, ip, l, d);
	XGROW(kb->queue, kb->capqueue, kb->nqueue + 1, 1024);
	kb->queue[kb->nqueue++] = d;
}

/* A directory word of obj-* or subdir-*: queue it. */
static void
add_subdir(struct parse *p, const struct kdir *d, const struct cw *w,
    bool modonly)
{
	const char	**c;
	char		 *path;
	unsigned char	  u = 0;
	int		  n;

	path = path_join(&p->a, p->kb, d->path, w->s, strlen(w->s));
	if (path == NULL)
		return;
	c = kb_conds_cat(&p->a, d->conds, d->nconds, w->conds, w->nconds, &n,
	    &u);
	kb_enqueue(p->kb, path, c, n, d->unk || w->unk || u, modonly,
	    d->group);
}

/* After reading d's Makefile: its objects, modules and subdirectories. */
static void
resolve(struct parse *p, const struct kdir *d)
{
	static const char *const keys[] = { "obj-", "lib-", "subdir-" };
	const struct var	*v;
	const struct cw		*w;
	const char		**c, *module;
	char			*base, *m;
	size_t			 k, i, l;
	unsigned char		 u;
	int			 n;

	for (k = 0; k < 3; k++) {
		v = strmap_get(&p->vars, keys[k], strlen(keys[k]));
		for (i = 0; v != NULL && i < v->val.n; i++) {
			w = &v->val.v[i];
			l = strlen(w->s);
			if (w->kind == K_PLAIN)
				continue;
			if (k == 2) {
				add_subdir(p, d, w, d->modonly);
				continue;
			}
			if (w->s[l - 1] == '/') {
				if (k == 0)
					add_subdir(p, d, w, d->modonly ||
					    w->kind == K_M);
				continue;
			}
			if (!kb_ends_with(w->s, l, ".o"))
				continue;
			base = arena_strndup(&p->a, w->s, l - 2);
			module = NULL;
			if (k == 0 && (w->kind == K_M || w->kind == K_MAYBE)) {
				m = strrchr(base, '/');
				m = modname_canon(arena_strdup(&p->a, m ?
				    m + 1 : base));
				module = intern_str(&p->kb->in, m, strlen(m));
			}
			u = 0;
			c = kb_conds_cat(&p->a, d->conds, d->nconds, w->conds,
			    w->nconds, &n, &u);
			add_composite(p, d, base, c, n, u || w->unk, module,
			    w->kind == K_Y || w->kind == K_OBJS, 0);
		}
	}
}

/* Read directory d's Kbuild (or Makefile) and record what it builds. */
static void
parse_dir(struct kbuild *kb, struct kdir *d)
{
	struct parse	 p;
	char		*file, *text;
	size_t		 n;

	d->parsed = true;
	file = d->path[0] ? xasprintf("%s/Kbuild", d->path) :
	    xstrdup("Kbuild");
	text = kb_tree_read(kb, file, &n);
	if (text == NULL && d->path[0] != '\0') {
		free(file);
		file = xasprintf("%s/Makefile", d->path);
		text = kb_tree_read(kb, file, &n);
	}
	if (text == NULL) {
		free(file);
		return;
	}
	kb->st.makefiles++;
	kb_parse_init(&p, kb, d->path, false, d->group);
	p.file = file;
	kb_parse_text(&p, text, n);
	resolve(&p, d);
	kb_parse_done(&p);
	free(text);
	free(file);
}

/* A deep copy of variable v into the index's arena. */
static struct var *
var_keep(struct kbuild *kb, const struct var *v)
{
	struct var	*k = arena_alloc(&kb->arena, sizeof *k);
	size_t		 i;

	*k = *v;
	k->name = arena_strdup(&kb->arena, v->name);
	k->val.v = arena_alloc(&kb->arena, (v->val.n + 1) * sizeof *k->val.v);
	k->val.cap = k->val.n = v->val.n;
	for (i = 0; i < v->val.n; i++) {
		k->val.v[i] = v->val.v[i];
		k->val.v[i].s = arena_strdup(&kb->arena, v->val.v[i].s);
		k->val.v[i].conds = arena_alloc(&kb->arena,
		    (size_t)(v->val.v[i].nconds + 1) * sizeof(char *));
		if (v->val.v[i].nconds > 0)
			memcpy(k->val.v[i].conds, v->val.v[i].conds,
			    (size_t)v->val.v[i].nconds * sizeof(char *));
	}
	return k;
}

/*
 * One architecture: the top Makefile for its exported variables, the top
 * Kbuild as the root, then every directory queued.
 */
static void
scan_group(struct kbuild *kb, const char *arch)
{
	static const char *const fallback[] = { "init-", "core-", "drivers-",
	    "net-", "libs-", "virt-" };
	struct strmap	*gv;
	struct strmap_entry *e;
	struct parse	 p;
	struct kdir	 root;
	struct var	*v;
	char		*text;
	size_t		 n, i, j;
	int		 g = kb->ngroups;
	bool		 have_kbuild = kb_tree_file(kb, "Kbuild");

	kb->gvars = xrealloc(kb->gvars, (size_t)(g + 1) * sizeof *kb->gvars);
	kb->garch = xrealloc(kb->garch, (size_t)(g + 1) * sizeof *kb->garch);
	gv = xcalloc(1, sizeof *gv);
	kb->gvars[g] = gv;
	kb->garch[g] = intern_str(&kb->in, arch, strlen(arch));
	kb->ngroups++;

	memset(&root, 0, sizeof root);
	root.path = "";
	root.group = g;
	kb_parse_init(&p, kb, "", true, g);
	p.file = "Makefile";
	if ((text = kb_tree_read(kb, "Makefile", &n)) != NULL) {
		kb->st.makefiles++;
		kb_parse_text(&p, text, n);
		free(text);
	}
	for (i = 0; (e = strmap_next(&p.vars, &i)) != NULL;) {
		if ((v = e->value) == NULL || !v->exported || v->fixed)
			continue;
		v = var_keep(kb, v);
		strmap_set(gv, v->name, strlen(v->name), v);
	}
	for (i = 0; !have_kbuild && i < sizeof fallback / sizeof *fallback;
	    i++) {
		v = strmap_get(&p.vars, fallback[i], strlen(fallback[i]));
		for (j = 0; v != NULL && j < v->val.n; j++) {
			if (v->val.v[j].kind != K_PLAIN &&
			    kb_ends_with(v->val.v[j].s, strlen(v->val.v[j].s),
			    "/"))
				add_subdir(&p, &root, &v->val.v[j], false);
		}
	}
	kb_parse_done(&p);
	if (have_kbuild)
		parse_dir(kb, &root);
	while (kb->qhead < kb->nqueue)
		parse_dir(kb, kb->queue[kb->qhead++]);
}

/* Order strings. */
static int
str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* ------------------------------------------------------------ the walk */

/* Whether srcarch is usable; if not, why in *cause. */
bool
kb_scan_check_arch(const char *srcarch, char **cause)
{
	if (srcarch == NULL || srcarch[0] == '\0' ||
	    strchr(srcarch, '/') != NULL) {
		*cause = xasprintf("bad SRCARCH \"%s\"", srcarch ? srcarch :
		    "");
		return false;
	}
	return true;
}

/* An empty index on the tree srctree (opened), or NULL with *cause. */
struct kbuild *
kb_scan_open(const char *srctree, char **cause)
{
	struct kbuild	*kb;
	size_t		 l;

	kb = kbuild_new_empty();
	kb->srctree = xstrdup(srctree);
	l = strlen(kb->srctree);
	while (l > 1 && kb->srctree[l - 1] == '/')
		kb->srctree[--l] = '\0';
	kb->treefd = open(srctree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (kb->treefd < 0) {
		*cause = xasprintf("%s: %s", srctree, strerror(errno));
		kbuild_free(kb);
		return NULL;
	}
	return kb;
}

/*
 * kbuild_scan, recording what it looks at in rec if not NULL (rec is
 * then kept in the index, for the caller to take back).
 */
struct kbuild *
kb_scan_tree(const char *srctree, const char *srcarch, struct kbdeps *rec,
    char **cause)
{
	struct kbuild	*kb;
	struct dirent	*de;
	struct stat	 sb;
	DIR		*dir;
	char		**arches = NULL, *t;
	size_t		  narches = 0, i;
	int		  fd;

	if (!kb_scan_check_arch(srcarch, cause) ||
	    (kb = kb_scan_open(srctree, cause)) == NULL) {
		kbdeps_free(rec);
		return NULL;
	}
	kb->rec = rec;
	t = xasprintf("arch/%s/Makefile", srcarch);
	if (!kb_tree_file(kb, "Makefile") || !kb_tree_file(kb, t)) {
		*cause = xasprintf("%s: not a kernel tree for %s (no Makefile"
		    " or %s)", srctree, srcarch, t);
		free(t);
		kbuild_free(kb);
		return NULL;
	}
	free(t);

	scan_group(kb, srcarch);

	if ((fd = openat(kb->treefd, "arch", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) >= 0 && (dir = fdopendir(fd)) != NULL) {
		if (fstat(fd, &sb) == 0)
			kbdeps_stat(kb->rec, 'D', "arch", &sb);
		else if (kb->rec != NULL)
			kb->rec->bad = true;
		while ((de = readdir(dir)) != NULL) {
			if (de->d_name[0] == '.' ||
			    strcmp(de->d_name, srcarch) == 0)
				continue;
			t = xasprintf("arch/%s/Makefile", de->d_name);
			if (kb_tree_file(kb, t)) {
				arches = xrealloc(arches, (narches + 1) *
				    sizeof *arches);
				arches[narches++] = xstrdup(de->d_name);
			}
			free(t);
		}
		closedir(dir);
	} else {
		if (fd >= 0)
			close(fd);
		if (kb->rec != NULL)
			kb->rec->bad = true;
	}
	if (narches > 1)
		qsort(arches, narches, sizeof *arches, str_cmp);
	for (i = 0; i < narches; i++) {
		scan_group(kb, arches[i]);
		free(arches[i]);
	}
	free(arches);
	kb->st.modules = (int)kb->modules.count;
	return kb;
}

/* The plain scan records nothing: only a cache needs the dependencies. */
struct kbuild *
kbuild_scan(const char *srctree, const char *srcarch, char **cause)
{
	return kb_scan_tree(srctree, srcarch, NULL, cause);
}

/*
 * A text read as a directory's Makefile, for tests and fuzzing: the
 * directory keeps the conds it was named with, as in a scan.
 */
int
kbuild_parse_text(struct kbuild *kb, const char *dir, const char *text,
    size_t len)
{
	struct parse	 p;
	struct kdir	*d;
	struct arena	 tmp;
	const char	*path;
	size_t		 l;

	if (kb == NULL || dir == NULL || (text == NULL && len > 0))
		return -1;
	if (kb->ngroups == 0) {
		kb->gvars = xcalloc(1, sizeof *kb->gvars);
		kb->garch = xcalloc(1, sizeof *kb->garch);
		kb->gvars[0] = xcalloc(1, sizeof **kb->gvars);
		kb->garch[0] = NULL;
		kb->ngroups = 1;
	}
	arena_init(&tmp);
	path = kb_path_norm(&tmp, kb, dir, strlen(dir));
	l = path ? strlen(path) : 0;
	path = intern_str(&kb->in, path ? path : "", l);
	arena_free(&tmp);
	if ((d = strmap_get(&kb->dirs, path, l)) == NULL) {
		d = arena_alloc(&kb->arena, sizeof *d);
		d->path = path;
		d->conds = arena_alloc(&kb->arena, sizeof *d->conds);
		strmap_set(&kb->dirs, path, l, d);
	}
	d->parsed = true;
	kb->st.makefiles++;
	kb_parse_init(&p, kb, d->path, false, d->group);
	kb_parse_text(&p, text ? text : "", len);
	resolve(&p, d);
	kb_parse_done(&p);
	kb->st.modules = (int)kb->modules.count;
	return 0;
}
