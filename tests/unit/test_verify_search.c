/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_verify_search.c - verify's fill-back search (core/verify/
 * verify-search.c) over the real trims of a minimal trim (5,146 options in
 * 733 subsystems: Debian's 6.1 amd64 config, desktop-vm's evidence; the
 * fixture says how it was made), with an oracle standing in for build and
 * boot: a probe fails while any of the culprits is trimmed. The oracle is
 * monotone by construction (trimming more never repairs it), which is the
 * search's assumption; with it the search must end within its budget of
 * probes, with every culprit back and the trims left passing, and with a
 * reason for each put-back.
 */
#define UNIT_PREFIX "verify-search/"
#include "unit.h"

#include "../../core/evidence/zstream.h"
#include "../../core/verify/verify-search.h"

/* The fixture, relative to the top of the repository. */
#define TRIMS "tests/fixtures/verify/desktop-vm-minimal-trims.tsv.xz"

/* The trims read from the fixture (its text owns the strings). */
struct trims {
	char			*text;
	struct vsearch_item	*items;
	size_t			 n, nsub;
};

/* What the oracle knows and what the run did. */
struct oracle {
	struct vsearch	*s;
	const size_t	*culprits;	/* item indexes */
	size_t		 nculprits;
	/* informed: on the first failure, the console names these */
	const size_t	*named;
	size_t		 nnamed;
	bool		 named_done;
	bool		 always_fail;	/* the untrimmed config fails too */
	unsigned	 flaky;		/* != 0: verdicts at random (seed) */
	int		 real;		/* probes the oracle answered */
	int		 keeps;		/* put-backs told */
	bool		 why_ok;	/* every reason names the step */
	int		 notes;
	/* the sets that passed, as hashes, to tell a final set judged */
	uint64_t	*passed;
	size_t		 npassed;
};

/* Read the fixture; false if it cannot be. */
static bool
trims_load(struct trims *t)
{
	void	*buf;
	size_t	 len, cap = 0;
	char	*cause = NULL, *line, *save = NULL, *f[4];
	const char *prev = "";
	int	 i;

	memset(t, 0, sizeof *t);
	if (zstream_decode_file(TRIMS, &buf, &len, &cause) != 0) {
		printf("# %s\n", cause);
		free(cause);
		return false;
	}
	t->text = xrealloc(buf, len + 1);
	t->text[len] = '\0';
	for (line = strtok_r(t->text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (*line == '#')
			continue;
		for (i = 0; i < 4; i++) {
			f[i] = line;
			line += strcspn(line, "\t");
			if (*line != '\0')
				*line++ = '\0';
		}
		if (t->n == cap) {
			cap = cap == 0 ? 1024 : cap * 2;
			t->items = xrealloc(t->items, cap * sizeof *t->items);
		}
		t->items[t->n].name = f[0];
		t->items[t->n].subsys = f[1];
		t->items[t->n].kept = false;
		t->nsub += strcmp(prev, f[1]) != 0;
		prev = f[1];
		t->n++;
	}
	return t->n > 0;
}

/* The index of the trim named name, or (size_t)-1. */
static size_t
trims_find(const struct trims *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->items[i].name, name) == 0)
			return i;
	return (size_t)-1;
}

/* FNV-1a over the selection. */
static uint64_t
want_hash(const bool *want, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t	 i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)want[i] + 1;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The oracle: build and boot stood in for. */
static int
oracle_probe(void *arg, const bool *want, int left, char **step,
    char **cause)
{
	struct oracle	*o = arg;
	size_t		 i;

	(void)left;
	(void)cause;
	o->real++;
	if (o->flaky != 0) {
		o->flaky = o->flaky * 1103515245 + 12345;
		if ((o->flaky >> 16) & 1) {
			*step = xstrdup("ext4");
			return 0;
		}
		return 1;
	}
	for (i = 0; i < o->nculprits; i++)
		if (want[o->culprits[i]]) {
			*step = xstrdup("ext4");
			return 0;
		}
	if (o->always_fail) {
		*step = xstrdup("ext4");
		return 0;
	}
	o->passed = xrealloc(o->passed, (o->npassed + 1) * sizeof *o->passed);
	o->passed[o->npassed++] = want_hash(want, o->s->n);
	return 1;
}

/* The console names its modules, once (as a boot's "module not found"). */
static int
oracle_informed(void *arg, const char *step, const bool *want,
    char **named)
{
	struct oracle	*o = arg;
	size_t		 i;
	int		 n = 0;

	if (o->named_done)
		return 0;
	o->named_done = true;
	for (i = 0; i < o->nnamed; i++)
		if (want[o->named[i]]) {
			named[o->named[i]] = xasprintf("%s: modprobe: module "
			    "%s not found", step, o->s->items[o->named[i]].name);
			n++;
		}
	return n;
}

/* A put-back: its reason must begin with the step. */
static void
oracle_keep(void *arg, size_t i, const char *why)
{
	struct oracle *o = arg;

	(void)i;
	o->keeps++;
	if (strncmp(why, "ext4: ", 6) != 0)
		o->why_ok = false;
}

/* A remark. */
static void
oracle_note(void *arg, const char *text)
{
	struct oracle *o = arg;

	(void)text;
	o->notes++;
}

/* One search: culprits by index, a budget (< 1: none). The search
 * struct is left for the checks; the trims' kept flags are reset first. */
static int
run(struct trims *t, struct vsearch *s, struct oracle *o, int budget)
{
	char	*cause = NULL;
	size_t	 i;
	int	 r;

	for (i = 0; i < t->n; i++)
		t->items[i].kept = false;
	memset(s, 0, sizeof *s);
	s->items = t->items;
	s->n = t->n;
	s->budget = budget;
	s->probes = 1;		/* the first probe, of every trim, failed */
	s->probe = oracle_probe;
	s->informed = o->nnamed > 0 ? oracle_informed : NULL;
	s->keep = oracle_keep;
	s->note = oracle_note;
	s->arg = o;
	o->s = s;
	o->why_ok = true;
	r = vsearch_run(s, "ext4", &cause);
	free(cause);
	return r;
}

/* The trims left pass the oracle, and a probe judged exactly them. */
static bool
final_judged(const struct trims *t, const struct oracle *o)
{
	bool	*want = xcalloc(t->n + 1, sizeof *want);
	uint64_t h;
	size_t	 i;
	bool	 ok = false;

	for (i = 0; i < t->n; i++)
		want[i] = !t->items[i].kept;
	for (i = 0; i < o->nculprits; i++)
		if (want[o->culprits[i]])
			goto out;
	h = want_hash(want, t->n);
	for (i = 0; i < o->npassed && !ok; i++)
		ok = o->passed[i] == h;
out:
	free(want);
	return ok;
}

/* Trims put back. */
static size_t
kept_count(const struct trims *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += t->items[i].kept;
	return n;
}

/* One silent culprit at a time, in subsystems small and large, with the
 * default budget and without one. */
static void
test_one(struct trims *t)
{
	int		 rr;
	static const char *const names[] = { "TMPFS_POSIX_ACL", "BLK_DEV_LOOP",
	    "NETFILTER_XT_MATCH_STATE", "AMD_NUMA", "RD_LZO", "VIRTIO_NET" };
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 i, c;
	char		 name[128];

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		c = trims_find(t, names[i]);
		snprintf(name, sizeof name, "one/%s/in-fixture", names[i]);
		check(name, c != (size_t)-1, "not a trim of the fixture");
		if (c == (size_t)-1)
			continue;
		memset(&o, 0, sizeof o);
		o.culprits = &c;
		o.nculprits = 1;
		snprintf(name, sizeof name, "one/%s/budget-10", names[i]);
		rr = run(t, &s, &o, 10);
		checkf(name, rr == 0 && s.probes <= 10 &&
		    o.real + 1 == s.probes && t->items[c].kept && s.passed &&
		    final_judged(t, &o) && o.why_ok && o.keeps ==
		    (int)kept_count(t), "probes %d (oracle %d + 1), culprit "
		    "back %d, passed %d, judged %d, reasons %d, %d put back",
		    s.probes, o.real, t->items[c].kept, s.passed,
		    final_judged(t, &o), o.why_ok, o.keeps);
		printf("# %s alone, budget 10: %d probes, %zu of %zu trims put "
		    "back (%d found option by option, %d batch)\n", names[i],
		    s.probes, kept_count(t), t->n, s.culprits, s.batches);
		free(o.passed);
		/* Unbounded: exactly the culprit, in the probes halving
		 * takes (+1 the first, +1 the trims left). */
		memset(&o, 0, sizeof o);
		o.culprits = &c;
		o.nculprits = 1;
		snprintf(name, sizeof name, "one/%s/unbounded-exact", names[i]);
		rr = run(t, &s, &o, 0);
		checkf(name, rr == 0 && kept_count(t) == 1 &&
		    t->items[c].kept && s.passed && s.culprits == 1 &&
		    !s.budget_hit && s.probes <= 2 + 10 + 8 &&
		    final_judged(t, &o), "probes %d, %zu put back, culprits %d",
		    s.probes, kept_count(t), s.culprits);
		free(o.passed);
	}
}

/* "The step fails while any of these 3 options is trimmed": within 10
 * probes, all three back, the result judged; sweeping triples over the
 * whole list (a fixed stride, so deterministic). */
static void
test_three(struct trims *t)
{
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 c[3];
	bool		 ok;

	c[0] = trims_find(t, "TMPFS_POSIX_ACL");
	c[1] = trims_find(t, "BLK_DEV_LOOP");
	c[2] = trims_find(t, "NETFILTER_XT_MATCH_STATE");
	memset(&o, 0, sizeof o);
	o.culprits = c;
	o.nculprits = 3;
	ok = run(t, &s, &o, 10) == 0;
	checkf("three/named", ok && s.probes <= 10 && t->items[c[0]].kept &&
	    t->items[c[1]].kept && t->items[c[2]].kept && s.passed &&
	    final_judged(t, &o) && o.why_ok && s.budget_hit && o.notes > 0,
	    "probes %d, back %d %d %d, passed %d, budget said %d/%d",
	    s.probes, t->items[c[0]].kept, t->items[c[1]].kept,
	    t->items[c[2]].kept, s.passed, s.budget_hit, o.notes);
	printf("# TMPFS_POSIX_ACL, BLK_DEV_LOOP, NETFILTER_XT_MATCH_STATE, "
	    "budget 10: %d probes, %zu of %zu trims put back\n", s.probes,
	    kept_count(t), t->n);
	free(o.passed);
	/* Unbounded: exactly those three. */
	memset(&o, 0, sizeof o);
	o.culprits = c;
	o.nculprits = 3;
	ok = run(t, &s, &o, 0) == 0;
	checkf("three/unbounded-exact", ok && kept_count(t) == 3 &&
	    s.culprits == 3 && s.passed && final_judged(t, &o),
	    "%zu put back, %d culprits, %d probes", kept_count(t), s.culprits,
	    s.probes);
	printf("# the same three, unbounded: %d probes\n", s.probes);
	free(o.passed);
}

/* Every 41st trim alone: within 10 probes, always back, the result
 * judged. */
static void
test_sweep(struct trims *t)
{
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 c, n = 0, nok = 0, kept = 0, worst = 0;
	int		 maxp = 0;
	char		 name[64];

	for (c = 0; c < t->n; c += 41) {
		memset(&o, 0, sizeof o);
		o.culprits = &c;
		o.nculprits = 1;
		n++;
		nok += run(t, &s, &o, 10) == 0 && s.probes <= 10 &&
		    t->items[c].kept && s.passed && final_judged(t, &o) &&
		    o.why_ok;
		kept += kept_count(t);
		if (kept_count(t) > worst)
			worst = kept_count(t);
		if (s.probes > maxp)
			maxp = s.probes;
		free(o.passed);
	}
	snprintf(name, sizeof name, "one/sweep-%zu", n);
	checkf(name, nok == n, "%zu of %zu right", nok, n);
	printf("# every 41st trim alone (%zu), budget 10: at most %d probes, "
	    "%zu trims put back on average, at most %zu\n", n, maxp,
	    kept / (n > 0 ? n : 1), worst);
}

/* Put-backs from the console come first: a culprit named costs one probe
 * and no bisection; a silent one beside it is still found. */
static void
test_informed(struct trims *t)
{
	int		 rr;
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 c[2];

	c[0] = trims_find(t, "BLK_DEV_LOOP");
	c[1] = trims_find(t, "TMPFS_POSIX_ACL");
	memset(&o, 0, sizeof o);
	o.culprits = c;
	o.nculprits = 1;
	o.named = c;
	o.nnamed = 1;
	rr = run(t, &s, &o, 10);
	checkf("informed/one-probe", rr == 0 &&
	    s.probes == 2 && s.passed && kept_count(t) == 1 &&
	    t->items[c[0]].kept && s.informed_rounds == 1 && s.culprits == 0,
	    "probes %d, %zu put back, rounds %d", s.probes, kept_count(t),
	    s.informed_rounds);
	free(o.passed);
	memset(&o, 0, sizeof o);
	o.culprits = c;
	o.nculprits = 2;
	o.named = c;
	o.nnamed = 1;
	rr = run(t, &s, &o, 10);
	checkf("informed/then-silent", rr == 0 &&
	    s.probes <= 10 && s.passed && t->items[c[0]].kept &&
	    t->items[c[1]].kept && s.informed_rounds == 1 &&
	    final_judged(t, &o), "probes %d, %zu put back", s.probes,
	    kept_count(t));
	free(o.passed);
}

/* A short list (the first 40 trims, 6 subsystems): the culprit is found
 * option by option within the budget, nothing else put back. */
static void
test_short(struct trims *t)
{
	int		 rr;
	struct trims	 sh = *t;
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 c = 17;

	sh.n = 40;
	memset(&o, 0, sizeof o);
	o.culprits = &c;
	o.nculprits = 1;
	rr = run(&sh, &s, &o, 10);
	checkf("short-exact", rr == 0 && s.probes <= 10 &&
	    kept_count(&sh) == 1 && sh.items[c].kept && s.culprits == 1 &&
	    !s.budget_hit && s.passed && final_judged(&sh, &o),
	    "probes %d, %zu put back, culprits %d", s.probes,
	    kept_count(&sh), s.culprits);
	free(o.passed);
}

/* Verdicts at random (a flaky step, no monotony): the search still ends
 * within the budget, without a crash, 200 times. */
static void
test_flaky(struct trims *t)
{
	struct vsearch	 s;
	struct oracle	 o;
	int		 i, nok = 0;

	for (i = 0; i < 200; i++) {
		memset(&o, 0, sizeof o);
		o.flaky = (unsigned)i * 7919 + 1;
		nok += run(t, &s, &o, 10) == 0 && s.probes <= 10;
		free(o.passed);
	}
	checkf("flaky-bounded", nok == 200, "%d of 200 within budget", nok);
}

/* A step the untrimmed config fails too: the search ends within the
 * budget and does not claim a pass. */
static void
test_never(struct trims *t)
{
	int		 rr;
	struct vsearch	 s;
	struct oracle	 o;

	memset(&o, 0, sizeof o);
	o.always_fail = true;
	rr = run(t, &s, &o, 10);
	checkf("never-passes", rr == 0 && s.probes <= 10 &&
	    !s.passed && kept_count(t) == t->n, "probes %d, passed %d, %zu "
	    "put back", s.probes, s.passed, kept_count(t));
	free(o.passed);
}

/* k culprits drawn at random (a fixed seed: the same every run), 300
 * times: within 10 probes, every culprit back, the result judged or, when
 * the first culprit is in the first batch, everything back; what the
 * budget cost is printed. */
static void
test_random(struct trims *t, size_t k)
{
	struct vsearch	 s;
	struct oracle	 o;
	size_t		 c[3], trial, i, n = 0, nok = 0, kept = 0, nall = 0;
	unsigned	 x = 12345;
	int		 maxp = 0;
	bool		 ok;
	char		 name[64];

	for (trial = 0; trial < 300; trial++) {
		for (i = 0; i < k; i++) {
			x = x * 1103515245 + 12345;
			c[i] = (x >> 8) % t->n;
		}
		memset(&o, 0, sizeof o);
		o.culprits = c;
		o.nculprits = k;
		ok = run(t, &s, &o, 10) == 0 && s.probes <= 10 && o.why_ok;
		for (i = 0; i < k; i++)
			ok = ok && t->items[c[i]].kept;
		ok = ok && (s.passed ? final_judged(t, &o) :
		    kept_count(t) == t->n);
		nok += ok;
		n++;
		nall += kept_count(t) == t->n;
		kept += kept_count(t);
		if (s.probes > maxp)
			maxp = s.probes;
		free(o.passed);
	}
	snprintf(name, sizeof name, "random-%zu/300", k);
	checkf(name, nok == n, "%zu of %zu right", nok, n);
	printf("# %zu culprit%s at random, 300 times, budget 10: at most %d "
	    "probes, %zu of %zu trims put back on average, everything back "
	    "%zu times\n", k, k == 1 ? "" : "s", maxp, kept / n, t->n, nall);
}

int
main(void)
{
	struct trims t;

	if (!trims_load(&t)) {
		check("fixture", false, TRIMS " unreadable");
		return 1;
	}
	checkf("fixture", t.n == 5146 && t.nsub == 733, "%zu trims in %zu "
	    "subsystems", t.n, t.nsub);
	test_one(&t);
	test_three(&t);
	test_sweep(&t);
	test_random(&t, 1);
	test_random(&t, 2);
	test_random(&t, 3);
	test_informed(&t);
	test_short(&t);
	test_flaky(&t);
	test_never(&t);
	free(t.items);
	free(t.text);
	return unit_failures != 0;
}
