/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence-ranges.c - modules.builtin.ranges (Linux 6.12 on, written when
 * CONFIG_BUILTIN_MODULE_RANGES=y): which built-in module each function of
 * the kernel image belongs to.
 *
 * A kernel whose drivers are built in lists none of them in /proc/modules
 * and names no module for their functions in kallsyms, so a traced
 * function shared by name between a filesystem and the VFS (init_once,
 * say) could only be attributed to every candidate at once. The ranges
 * file says, per ELF section, which offsets belong to which built-in
 * module:
 *
 *	.text 00000000-00000000 = _text		anchor: the section's
 *						offset 0 is where _text is
 *	.text 0000baf0-0000cb10 amd_uncore	[start, end) of a module
 *	.text 0009bd10-0009c8e0 iosf_mbi
 *	.text 001a2340-001a2ff0 foo bar		an object linked into both
 *
 * (format of scripts/generate_builtin_ranges.awk; the kernel's own
 * scripts/verify_builtin_ranges.awk reads it the same way: an anchor
 * "SECT OFF-OFF = SYMBOL" places the section at address(SYMBOL) - OFF,
 * and every later line of that section is an offset from there).
 *
 * The ranges are read before kallsyms (ev_files order); kallsyms then
 * gives the anchors' addresses and every image function's address, and
 * when it ends each function is placed: in a module's range, or in none
 * (code of no module: the core kernel). A name whose copies land in
 * different places is a conflict and tells nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "evidence-int.h"

/* The home of a name whose copies are in different places. */
const char ev_home_conflict[] = "(conflict)";

/*
 * One line: "SECT START-END = SYMBOL" (an anchor) or "SECT START-END
 * MODULE..." (a range). A second anchor for a section is malformed (the
 * file could be placed two ways). Two things Kbuild's own generator
 * writes are not: sections without an anchor (.altinstr_aux and
 * .altinstr_replacement in 6.12: it found no symbol to anchor them), whose
 * ranges cannot be placed, and ranges whose end is not after their start
 * (".text 00f7e5b0-00000000 cpuidle_haltpoll": a range it did not close),
 * which hold nothing, as the kernel's verify_builtin_ranges.awk reads them.
 * Both are kept out of the placement; their modules are still built in.
 */
int
ev_ranges_line(struct ev_ctx *c, const char *s, size_t n)
{
	struct ev_ranges	*r = &c->ev->rng;
	const char		*p = s, *e = s + n, *sect, *w;
	uint64_t		 start, end;
	size_t			 sn, i;

	while (p < e && ev_blank(*p))
		p++;
	if (p == e)
		return 0;
	for (sect = p; p < e && !ev_blank(*p); p++)
		;
	sn = (size_t)(p - sect);
	if (sect[0] != '.' || sn < 2 || p == e)
		return -1;
	while (p < e && ev_blank(*p))
		p++;
	/* START-END: 1 to 16 hex digits each */
	w = p;
	if ((p = ev_hex64(p, e, &start)) == w || p - w > 16 || p == e ||
	    *p != '-')
		return -1;
	w = ++p;
	if ((p = ev_hex64(p, e, &end)) == w || p - w > 16 || p == e ||
	    !ev_blank(*p))
		return -1;
	while (p < e && ev_blank(*p))
		p++;
	while (e > p && ev_blank(e[-1]))
		e--;
	if (p == e)
		return -1;
	sect = ev_intern(c->ev, sect, sn);
	if (*p == '=' && (p + 1 == e || ev_blank(p[1]))) {
		for (i = 0; i < r->na && r->a[i].sect != sect; i++)
			;
		for (p++; p < e && ev_blank(*p); p++)
			;
		for (w = p; w < e && !ev_blank(*w); w++)
			;
		if (p == e || w != e || i < r->na || start != end)
			return -1;
		if (r->na == r->cap_a) {
			r->cap_a = r->cap_a ? 2 * r->cap_a : 8;
			r->a = xrealloc(r->a, r->cap_a * sizeof *r->a);
		}
		memset(&r->a[r->na], 0, sizeof r->a[r->na]);
		r->a[r->na].sect = sect;
		r->a[r->na].sym = ev_intern(c->ev, p, (size_t)(e - p));
		r->a[r->na].symlen = (size_t)(e - p);
		r->a[r->na].off = start;
		r->na++;
		return 1;
	}
	for (w = p; w < e; w++) {
		if ((unsigned char)*w < 0x20 || *w == '=')
			return -1;
	}
	if (end > start) {
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 256;
			r->v = xrealloc(r->v, r->cap * sizeof *r->v);
		}
		r->v[r->n].sect = sect;
		r->v[r->n].start = start;
		r->v[r->n].end = end;
		r->v[r->n].abs = 0;
		r->v[r->n].mods = ev_intern(c->ev, p, (size_t)(e - p));
		r->n++;
	}
	/* Each name of the line is a built-in module of this kernel. */
	for (; p < e; p = w) {
		while (p < e && ev_blank(*p))
			p++;
		for (w = p; w < e && !ev_blank(*w); w++)
			;
		if (w > p)
			strmap_set(&c->ev->builtin, ev_intern(c->ev, p,
			    (size_t)(w - p)), (size_t)(w - p), (void *)1);
	}
	return 1;
}

/* kallsyms: a symbol of the image at addr; an anchor takes its address. */
void
ev_ranges_anchor(struct evidence *ev, const char *name, size_t n,
    uint64_t addr)
{
	struct ev_ranges	*r = &ev->rng;
	size_t			 i;

	for (i = 0; i < r->na; i++) {
		if (!r->a[i].found && r->a[i].symlen == n &&
		    memcmp(r->a[i].sym, name, n) == 0) {
			r->a[i].addr = addr;
			r->a[i].found = true;
		}
	}
}

/* kallsyms: a function of the image, to be placed when kallsyms ends. */
void
ev_ranges_note(struct evidence *ev, const char *name, uint64_t addr)
{
	struct ev_ranges	*r = &ev->rng;

	if (r->npend == r->cap_pend) {
		r->cap_pend = r->cap_pend ? 2 * r->cap_pend : 4096;
		r->pend = xrealloc(r->pend, r->cap_pend * sizeof *r->pend);
	}
	r->pend[r->npend].name = name;
	r->pend[r->npend].addr = addr;
	r->npend++;
}

/* Order ranges by absolute start, for the binary search. */
static int
rng_cmp(const void *x, const void *y)
{
	const struct ev_range	*a = x, *b = y;

	return a->abs < b->abs ? -1 : a->abs > b->abs;
}

/* The range holding addr, or NULL: v sorted, disjoint (checked). */
static const struct ev_range *
rng_find(const struct ev_range *v, size_t n, uint64_t addr)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].abs <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	return addr - v[lo - 1].abs < v[lo - 1].end - v[lo - 1].start ?
	    &v[lo - 1] : NULL;
}

/*
 * kallsyms ended: place each section by its anchor, then each noted
 * function in the range that holds its address or in none. Sections
 * with no anchor line, or whose anchor kallsyms does not list, are left
 * out (their ranges cannot be placed); but a text section's anchor
 * missing means the two files do not belong together, and nothing is
 * placed (r->missing names it, for a warning): the functions stay
 * "image". With no placed section nothing is known
 * and nothing recorded.
 */
void
ev_ranges_resolve(struct evidence *ev)
{
	struct ev_ranges	*r = &ev->rng;
	struct ev_range		*v;
	const struct ev_range	*hit;
	struct strmap_entry	*ent;
	const char		*home;
	size_t			 i, j, n = 0;
	bool			 added, placed = false;

	v = xcalloc(r->n + 1, sizeof *v);
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->na && r->a[j].sect != r->v[i].sect; j++)
			;
		if (j == r->na)
			continue;
		if (!r->a[j].found) {
			/* A data section's anchor may be missing (kallsyms
			 * without KALLSYMS_ALL lists no data); a text
			 * section's means the ranges are not this kallsyms'
			 * kernel's: placing by the other sections would
			 * call every function of it "core". */
			if (r->missing == NULL &&
			    strstr(r->a[j].sect, "text") != NULL)
				r->missing = r->a[j].sym;
			continue;
		}
		placed = true;
		v[n] = r->v[i];
		/* base + start, modulo 2^64 as the kernel's own arithmetic */
		v[n].abs = r->a[j].addr - r->a[j].off + r->v[i].start;
		n++;
	}
	qsort(v, n, sizeof *v, rng_cmp);
	/* Overlapping ranges would place a function twice: keep the first. */
	for (i = j = 0; i < n; i++) {
		if (j > 0 && v[i].abs < v[j - 1].abs + (v[j - 1].end -
		    v[j - 1].start))
			continue;
		v[j++] = v[i];
	}
	n = j;
	if (r->missing != NULL)
		placed = false;
	for (i = 0; placed && i < r->npend; i++) {
		hit = rng_find(v, n, r->pend[i].addr);
		home = hit != NULL ? hit->mods : "";
		ent = strmap_insert(&ev->homes, r->pend[i].name,
		    strlen(r->pend[i].name), &added);
		if (added) {
			ent->key = r->pend[i].name;
			ent->value = (void *)home;
		} else if (ent->value != home)
			ent->value = (void *)ev_home_conflict;
	}
	free(v);
	r->npend = 0;
}

/* Forget the ranges of the bundle just loaded. */
void
ev_ranges_clear(struct ev_ranges *r)
{
	free(r->v);
	free(r->a);
	free(r->pend);
	memset(r, 0, sizeof *r);
}

/*
 * Where a function's code is, as far as the bundles tell: in a loaded
 * module (kallsyms "[module]"), in the image and, with a ranges file, in a
 * built-in module's range or in none. *module gets the module(s), "" for
 * the image and the core.
 */
enum ev_home
evidence_symbol_home(const struct evidence *ev, const char *func,
    const char **module)
{
	const char	*m, *h;
	size_t		 n = strlen(func);

	*module = NULL;
	if ((m = evidence_symbol_module(ev, func)) == NULL)
		return EVH_UNKNOWN;
	*module = m;
	if (*m != '\0')
		return EVH_MODULE;
	n = ev_suffix_len(func, n);
	if ((h = strmap_get(&ev->homes, func, n)) == NULL ||
	    h == ev_home_conflict)
		return EVH_IMAGE;
	*module = h;
	return *h != '\0' ? EVH_BUILTIN : EVH_CORE;
}

/* Whether a ranges file names module (with '-' or '_') as built in. */
bool
evidence_builtin_module(const struct evidence *ev, const char *module)
{
	char	*m;
	bool	 r;

	if (ev->builtin.count == 0)
		return false;
	if (strmap_get(&ev->builtin, module, strlen(module)) != NULL)
		return true;
	if (strchr(module, '-') == NULL)
		return false;
	m = modname_dup(module, strlen(module));
	r = strmap_get(&ev->builtin, m, strlen(m)) != NULL;
	free(m);
	return r;
}
