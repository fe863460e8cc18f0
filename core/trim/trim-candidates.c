/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trim-candidates.c - the trim candidates: the y/m options outside the
 * keep-set that the policy allows, grouped by the menus they sit in
 * (subsystems), each with its reason and estimated saving, and how many
 * options accepting a whole subsystem really removes.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../lib/clock.h"
#include "../../lib/util.h"
#include "../evidence/attrib.h"
#include "decisions.h"
#include "../kbuild/kbuild.h"
#include "trim-int.h"

/*
 * Top-level menus that are the architecture's core: their built-in (y)
 * options are never trimmed (the CPU itself); their modules are, as any
 * module no bundle saw loaded.
 */
static const char *const arch_menus[] = {
	"Processor type and features",
	"Binary Emulations",
};

/* Top-level menus whose built-in options the aggressive policy may trim
 * when none of their code ran: drivers, filesystems, networking. */
static const char *const driver_menus[] = {
	"Device Drivers",
	"File systems",
	"Networking support",
};

/* Whether a path's first component is one of names. */
static bool
trim_top_is(const char *path, const char *const *names, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (strncmp(path, names[i], len) == 0 &&
		    (path[len] == '\0' || strncmp(path + len, " > ", 3) == 0))
			return true;
	}
	return false;
}

/* Defined in the architecture's own top Kconfig files (arch/Kconfig,
 * arch/ARCH/Kconfig*), not in a subsystem below arch/ARCH. */
static bool
trim_arch_file(const char *file)
{
	const char *p;

	if (file == NULL)
		return false;
	if (strncmp(file, "./", 2) == 0)
		file += 2;
	if (strcmp(file, "arch/Kconfig") == 0)
		return true;
	if (strncmp(file, "arch/", 5) != 0 || (p = strchr(file + 5, '/')) ==
	    NULL)
		return false;
	return strncmp(p + 1, "Kconfig", 7) == 0 && strchr(p + 1, '/') == NULL;
}

/* The menu path of an entry: its enclosing menus' prompts. */
static char *
trim_path(struct kc_menu *m, struct kc_menu **nearest)
{
	struct kc_menu	*p, *chain[64];
	struct strbuf	 sb;
	size_t		 n = 0;
	const char	*prompt;

	*nearest = NULL;
	for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p)) {
		/* The root's prompt is the main menu title, not a menu. */
		if (kc_menu_kind(p) != KC_MENU_MENU || kc_menu_parent(p) ==
		    NULL || (prompt = kc_menu_prompt(p)) == NULL)
			continue;
		if (*nearest == NULL)
			*nearest = p;
		if (n < sizeof chain / sizeof chain[0])
			chain[n++] = p;
	}
	if (n == 0)
		return xstrdup("(top level)");
	strbuf_init(&sb);
	while (n-- > 0)
		strbuf_addf(&sb, "%s%s", sb.len ? " > " : "",
		    kc_menu_prompt(chain[n]));
	return strbuf_detach(&sb);
}

/* The nearest menu above an entry (as trim_path() finds it), or NULL. */
static struct kc_menu *
trim_nearest(struct kc_menu *m)
{
	struct kc_menu *p;

	for (p = kc_menu_parent(m); p != NULL; p = kc_menu_parent(p)) {
		if (kc_menu_kind(p) == KC_MENU_MENU && kc_menu_parent(p) !=
		    NULL && kc_menu_prompt(p) != NULL)
			return p;
	}
	return NULL;
}

/*
 * An entry's menu path, owned by the trim: a path depends only on the
 * nearest menu, so it is formatted once per menu (slot in t->paths; the
 * last one found first: entries come in menu order).
 */
static struct trim_pathent *
trim_menu_path(struct trim *t, struct kc_menu *m)
{
	struct kc_menu		*nearest = trim_nearest(m), *dummy;
	struct trim_pathent	*e;
	size_t			 i;

	if (t->npaths != 0 && t->paths[t->npaths - 1].menu == nearest)
		return &t->paths[t->npaths - 1];
	for (i = 0; i < t->npaths; i++) {
		if (t->paths[i].menu == nearest) {
			/* Move it last, for the next entries of its menu. */
			struct trim_pathent tmp = t->paths[i];

			memmove(&t->paths[i], &t->paths[i + 1],
			    (t->npaths - i - 1) * sizeof *t->paths);
			t->paths[t->npaths - 1] = tmp;
			return &t->paths[t->npaths - 1];
		}
	}
	XGROW(t->paths, t->apaths, t->npaths + 1, 64);
	e = &t->paths[t->npaths++];
	e->menu = nearest;
	e->path = trim_path(m, &dummy);
	e->subsys = -1;
	return e;
}

/* The subsystem of a candidate's menu entry (created on first use). */
static size_t
trim_subsys_of(struct trim *t, struct kc_menu *m)
{
	struct trim_pathent	*e = trim_menu_path(t, m);

	if (e->subsys >= 0)
		return (size_t)e->subsys;
	if (t->nsubs == t->asubs) {
		t->asubs = t->asubs ? t->asubs * 2 : 64;
		t->subs = xrealloc(t->subs, t->asubs * sizeof *t->subs);
		t->sub_menu = xrealloc(t->sub_menu, t->asubs *
		    sizeof *t->sub_menu);
	}
	memset(&t->subs[t->nsubs], 0, sizeof t->subs[t->nsubs]);
	t->subs[t->nsubs].path = xstrdup(e->path);
	t->sub_menu[t->nsubs] = e->menu;
	e->subsys = (long)t->nsubs;
	return t->nsubs++;
}

/* Remember an arch core y option the minimal policy keeps (for the
 * report: "kept and said"). */
static void
trim_arch_keep(struct trim *t, struct kc_symbol *s)
{
	XGROW(t->arch_kept, t->aarch_kept, t->st.arch_kept + 1, 64);
	t->arch_kept[t->st.arch_kept++] = s;
}

/*
 * The minimal policy on a y option: any menu, code none of which ran,
 * or no code of its own (a gate, a feature switch: nothing kept needs
 * it, or it would be in the keep-set). The arch core is the exception:
 * its code runs at boot or on hardware events, where no trace looks, so
 * only what the CPU's vendor shows unneeded (another vendor's microcode,
 * MCE, PMUs) is a candidate; the rest is kept and said (arch_kept).
 */
static bool
trim_minimal_allows(struct trim *t, struct kc_symbol *s, enum verdict vd,
    bool arch)
{
	const char *vendor;

	if (arch) {
		vendor = trim_cpu_option(kc_sym_name(s), NULL, NULL);
		if (vendor != NULL && t->st.cpu_vendor != NULL &&
		    strcmp(vendor, t->st.cpu_vendor) != 0)
			return true;
		/* another hypervisor's guest support */
		if (trim_cpu_guest_unused(t->in->ev, kc_sym_name(s), NULL))
			return true;
		trim_arch_keep(t, s);
		return false;
	}
	return vd == V_NONE || vd == V_NO_CODE;
}

/* Whether the policy lets a symbol with this value, verdict and place be
 * a candidate. */
static bool
trim_policy_allows(struct trim *t, struct kc_symbol *s, enum kc_tri v,
    enum verdict vd, const char *path, const char *file)
{
	bool arch = trim_top_is(path, arch_menus, sizeof arch_menus /
	    sizeof arch_menus[0]) || trim_arch_file(file);

	/* A module no bundle saw loaded was not needed to boot or run the
	 * recorded machine, arch core or not (localmodconfig's rule too). */
	if (v == KC_MOD)
		return true;
	if (!t->st.aggressive)
		return false;
	if (t->st.minimal)
		return trim_minimal_allows(t, s, vd, arch);
	/* y: only aggressive, only code that could have been traced, only
	 * drivers, filesystems and networking, never the arch core. */
	if (arch || vd != V_NONE)
		return false;
	return trim_top_is(path, driver_menus, sizeof driver_menus /
	    sizeof driver_menus[0]);
}

/* The estimated saving: objects, modules, .ko bytes. */
static void
trim_saving(struct trim *t, struct trim_cand *c)
{
	const struct kbuild_obj	*const *objs;
	const char		**mods;
	unsigned long long	  bytes;
	size_t			  n, i, j, nm = 0;

	if (t->in->kb == NULL)
		return;
	n = kbuild_symbol_objs(t->in->kb, c->name, &objs);
	c->nobjs = n;
	mods = xcalloc(n + 1, sizeof *mods);
	for (i = 0; i < n; i++) {
		if (objs[i]->module == NULL)
			continue;
		for (j = 0; j < nm && strcmp(mods[j], objs[i]->module) != 0;
		    j++)
			;
		if (j < nm)
			continue;
		mods[nm++] = objs[i]->module;
		if (c->value == KC_MOD) {
			bytes = trim_ko_bytes(t, objs[i]->module);
			c->ko_bytes += bytes;
			t->st.ko_found += bytes != 0;
		}
	}
	c->nmodules = nm;
	free(mods);
}

/* The reason of a candidate that is only a part of the modules its
 * evidence names (trim_partial()): "part of the loaded module snd_pcm". */
static char *
trim_reason_partial(const struct trim_cand *c, const struct attrib_sym *as)
{
	const struct ev_item	*it;
	const char		*mod = NULL;
	size_t			 i;

	/* a loaded module by name, else a bound driver's */
	for (i = 0; i < as->nrefs && mod == NULL; i++) {
		it = as->refs[i].item;
		if (it->kind == EV_MODULE)
			mod = it->name;
	}
	for (i = 0; i < as->nrefs && mod == NULL; i++) {
		it = as->refs[i].item;
		if (it->kind == EV_DRIVER && it->module != NULL)
			mod = it->module;
	}
	return xasprintf("part of %s%s, but none of its %zu %s functions "
	    "ran in the trace", mod != NULL ? "the loaded module " :
	    "a module the evidence names", mod != NULL ? mod : "", c->nobjs,
	    c->nobjs == 1 ? "object's" : "objects'");
}

/* The reason text of a candidate. */
static char *
trim_reason(struct trim *t, struct trim_cand *c, enum verdict vd)
{
	const struct attrib_sym	*as;
	const char	*dr, *vendor, *what;
	char		*why;
	int		 idx;

	if (c->decided) {
		dr = decisions_reason(t->in->d, c->name);
		return xasprintf("decision: trim%s%s%s", dr ? " (" : "",
		    dr ? dr : "", dr ? ")" : "") ;
	}
	if (c->to_verify) {
		idx = kc_sym_index(c->sym);
		return xasprintf("to be verified by booting: %s (%s)",
		    t->beyond[idx] == 2 ? "only traced code (hook/notifier) "
		    "keeps it" : "only evidence a module list does not show "
		    "keeps it", t->beyond_why[idx] != NULL ?
		    t->beyond_why[idx] : "kept beyond a module list");
	}
	if (t->st.aggressive && t->in->a != NULL &&
	    (as = attrib_find(t->in->a, c->name)) != NULL && trim_partial(as))
		return trim_reason_partial(c, as);
	if (t->st.minimal && t->st.cpu_vendor != NULL &&
	    (vendor = trim_cpu_option(c->name, &what, NULL)) != NULL &&
	    strcmp(vendor, t->st.cpu_vendor) != 0)
		return xasprintf("%s CPUs' %s; the recorded CPU is %s", vendor,
		    what, t->st.cpu_vendor);
	if (t->st.minimal && trim_cpu_guest_unused(t->in->ev, c->name, &why))
		return why;
	if (c->value == KC_MOD) {
		if (t->in->a != NULL && attrib_find(t->in->a, c->name) != NULL)
			return xstrdup("module not loaded; its only evidence "
			    "is trace names defined elsewhere too");
		if (vd == V_NO_CODE)
			return xstrdup("module option with no evidence; "
			    "builds no object itself");
		return xstrdup("module not loaded; no device, driver, mount "
		    "or trace names it");
	}
	if (vd == V_NO_CODE)
		return xstrdup("built in, builds no code of its own (a gate or "
		    "a switch) and no kept option needs it");
	if (c->nobjs == 0)
		return xstrdup("built in, but none of its code ran in the "
		    "trace");
	return xasprintf("built in, but none of its %zu %s functions ran in "
	    "the trace", c->nobjs, c->nobjs == 1 ? "object's" : "objects'");
}

/* Walk the menus: tentative candidates, in menu order. */
void
trim_collect(struct trim *t)
{
	struct kc_menu		*m;
	struct kc_symbol	*s;
	struct trim_cand	*c;
	const char		*name;
	const char		*path;
	enum kc_tri		 v;
	enum verdict		 vd;
	enum decision		 d;
	int			 idx;
	bool			 decided, to_verify, forced;

	for (m = kconfig_root(t->k); m != NULL; m = kc_menu_walk(m)) {
		if ((s = kc_menu_sym(m)) == NULL || kc_sym_menu(s) != m ||
		    (name = kc_sym_name(s)) == NULL || kc_sym_is_choice(s) ||
		    !trim_is_tristate(s) || (idx = kc_sym_index(s)) < 0)
			continue;
		if ((v = kc_sym_tristate(t->k, s)) == KC_NO)
			continue;
		d = decisions_get(t->in->d, name);
		vd = trim_verdict(t, s);
		if (d == DECISION_KEEP) {
			if (t->keep[idx] == K_DECISION && vd != V_USED &&
			    vd != V_PLAUSIBLE && kc_sym_visible(t->k, s) !=
			    KC_NO)
				t->st.kept_by_decision++;
			continue;
		}
		decided = d == DECISION_TRIM;
		if (!decided && t->keep[idx] != K_NONE)
			continue;
		if (kc_sym_visible(t->k, s) == KC_NO)
			continue;
		/* Forced on by a select: it can't be set to n, so it is
		 * never suggested (a "trim" decision still asks for it);
		 * trimming what selects it takes it along
		 * (trim_set_forced()). Not for the module list, which
		 * follows localmodconfig. */
		forced = !decided && !t->in->module_list &&
		    kc_sym_selected_by(s) != NULL &&
		    kc_expr_eval(t->k, kc_sym_selected_by(s)) != KC_NO;
		/* verified: what the modules policy keeps and this keep-set
		 * does not is a candidate to be verified when a module list
		 * would drop it too, y or m; else it stays. */
		to_verify = !decided && t->keep1 != NULL &&
		    t->keep1[idx] != K_NONE;
		if (to_verify && !t->beyond[idx])
			continue;
		/* The module-list trim is `make localmodconfig`'s: it turns
		 * modules off, never a y option (those go only with the
		 * modules they need). */
		if (!decided && t->in->module_list && v != KC_MOD)
			continue;
		path = trim_menu_path(t, m)->path;
		if (!decided && !to_verify && !trim_policy_allows(t, s, v, vd,
		    path, kc_menu_file(m)))
			continue;
		/* One kept only by traced code (to be verified) stays a
		 * candidate even when forced: trimming it is what the boot
		 * must verify, so the report must name it (the selects are
		 * undone in passes by trim_set_all()). */
		if (forced && !to_verify) {
			t->cand_of[idx] = TRIM_FORCED;
			continue;
		}
		XGROW(t->cands, t->acands, t->ncands + 1, 256);
		c = &t->cands[t->ncands];
		memset(c, 0, sizeof *c);
		c->sym = s;
		c->name = name;
		c->value = v;
		c->decided = decided;
		c->to_verify = to_verify;
		t->cand_of[idx] = (int)t->ncands++;
	}
}

/* Forget the candidates of a round (trim_suggest()). */
void
trim_uncollect(struct trim *t)
{
	size_t	i;
	int	j;

	for (i = 0; i < t->ncands; i++)
		t->cand_of[kc_sym_index(t->cands[i].sym)] = -1;
	for (j = 0; j < t->nsyms; j++)
		if (t->cand_of[j] == TRIM_FORCED)
			t->cand_of[j] = -1;
	t->ncands = 0;
	t->st.kept_by_decision = 0;
	t->st.arch_kept = 0;
}

/* Why a candidate cannot be verified under QEMU: one of its objects is in
 * a module of a device with no twin (trim_input's nontwin); or NULL. */
static const char *
trim_nontwin_of(const struct trim *t, const struct trim_cand *c)
{
	const struct kbuild_obj *const	*objs;
	size_t				 n, i, j;

	if (t->in->nnontwin == 0 || t->in->kb == NULL)
		return NULL;
	n = kbuild_symbol_objs(t->in->kb, c->name, &objs);
	for (i = 0; i < n; i++) {
		if (objs[i]->module == NULL)
			continue;
		for (j = 0; j < t->in->nnontwin; j++) {
			if (strcmp(objs[i]->module, t->in->nontwin_mods[j]) ==
			    0)
				return t->in->nontwin_why[j];
		}
	}
	return NULL;
}

/* Reasons, savings and subsystems of the final candidates. */
void
trim_describe(struct trim *t)
{
	struct trim_cand	*c;
	struct trim_subsys	*sub;
	enum verdict		 vd;
	size_t			 i;

	for (i = 0; i < t->ncands; i++) {
		c = &t->cands[i];
		vd = trim_verdict(t, c->sym);
		trim_saving(t, c);
		c->reason = trim_reason(t, c, vd);
		if ((c->nontwin = trim_nontwin_of(t, c)) != NULL) {
			char *r = xasprintf("%s; not verifiable under QEMU "
			    "(%s): kctui verify keeps it", c->reason,
			    c->nontwin);

			free(c->reason);
			c->reason = r;
		}
		c->subsys = trim_subsys_of(t, kc_sym_menu(c->sym));
		if (c->decided)
			t->st.trimmed_by_decision++;
		t->st.to_verify += c->to_verify;
		sub = &t->subs[c->subsys];
		sub->cands = xrealloc(sub->cands, (sub->ncands + 1) *
		    sizeof *sub->cands);
		sub->cands[sub->ncands++] = i;
	}
}

/* qsort: doubles, ascending (the median of the recompute times). */
static int
trim_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How many y/m symbols accepting each whole subsystem turns off (timed:
 * this is the recompute the TUI's worker runs per subsystem). */
int
trim_removes(struct trim *t, char **cause)
{
	struct trim_change	*ch;
	size_t			 i, j, n;
	double			*ms, t0;

	ms = xcalloc(t->nsubs + 1, sizeof *ms);
	for (i = 0; i < t->nsubs; i++) {
		t0 = clock_now() * 1e3;
		if (trim_consequences(t, t->k, t->subs[i].cands,
		    t->subs[i].ncands, &ch, &n, cause) != 0) {
			free(ms);
			return -1;
		}
		ms[i] = clock_now() * 1e3 - t0;
		t->st.removes_total_ms += ms[i];
		t->subs[i].removes = 0;
		for (j = 0; j < n; j++)
			t->subs[i].removes += ch[j].before != KC_NO &&
			    ch[j].after == KC_NO;
		free(ch);
	}
	if (t->nsubs != 0) {
		qsort(ms, t->nsubs, sizeof *ms, trim_cmp_double);
		t->st.removes_median_ms = ms[t->nsubs / 2];
		t->st.removes_max_ms = ms[t->nsubs - 1];
	}
	free(ms);
	return 0;
}

/* ----------------------------------------------------------- lookup */

/* Case-insensitive substring search. */
static bool
trim_icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0'; hay++) {
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	}
	return n == 0;
}

/* --accept names a subsystem loosely: the exact path, else a unique
 * " > NAME" ending, else a unique case-insensitive substring; anything
 * else is an error naming the candidates rather than a guess. */
long
trim_find_subsys(const struct trim *t, const char *name, char **cause)
{
	struct strbuf	 sb;
	size_t		 i, len = strlen(name), plen, nm;
	long		 found;
	int		 pass;
	const char	*p;

	for (i = 0; i < t->nsubs; i++) {
		if (strcmp(t->subs[i].path, name) == 0)
			return (long)i;
	}
	for (pass = 0; pass < 2; pass++) {
		found = -1;
		nm = 0;
		for (i = 0; i < t->nsubs; i++) {
			p = t->subs[i].path;
			plen = strlen(p);
			if (pass == 0 ? !(plen > len + 3 &&
			    strcmp(p + plen - len, name) == 0 &&
			    strncmp(p + plen - len - 3, " > ", 3) == 0) :
			    !trim_icontains(p, name))
				continue;
			found = (long)i;
			nm++;
		}
		if (nm == 1)
			return found;
		if (nm > 1) {
			strbuf_init(&sb);
			strbuf_addf(&sb, "subsystem \"%s\" is ambiguous (%zu "
			    "match):", name, nm);
			for (i = 0, plen = 0; i < t->nsubs && plen < 10; i++) {
				p = t->subs[i].path;
				len = strlen(name);
				if (pass == 0 ? !(strlen(p) > len + 3 &&
				    strcmp(p + strlen(p) - len, name) == 0) :
				    !trim_icontains(p, name))
					continue;
				strbuf_addf(&sb, "\n  %s", p);
				plen++;
			}
			*cause = strbuf_detach(&sb);
			return -1;
		}
	}
	*cause = xasprintf("unknown subsystem \"%s\" (no trim candidates "
	    "in a menu of that name; see kctui suggest)", name);
	return -1;
}
