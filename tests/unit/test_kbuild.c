/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kbuild.c - unit tests of the Kbuild index (core/kbuild/kbuild.h): every
 * Makefile form through kbuild_parse_text, a small tree in /tmp through
 * kbuild_scan (includes, the top Makefile and Kbuild, other arches), and,
 * when a Linux 6.1 tree is found ($KCTUI_TREE, ~/.cache/kctui/linux-6.1
 * or /var/cache/kctui/linux-source-6.1), well-known objects and modules
 * of the real tree, the scan time, and the coverage of the modules
 * Debian's amd64 config builds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kbuild/kbuild.h"
#include "../../lib/util.h"
#include "../../lib/cachefile.h"

#define UNIT_PREFIX "unit/kbuild/"
#include "unit.h"
#include "../../lib/clock.h"
/* Details here are printf formats. */
#define check checkf

static char	tmpdir[] = "/tmp/kctui-kbuild-XXXXXX";

/* An object's conds as "A,B,C" (a static buffer). */
static const char *
conds(const struct kbuild_obj *o)
{
	static char	buf[1024];
	int		i;

	buf[0] = '\0';
	if (o == NULL)
		return "(no object)";
	for (i = 0; i < o->nconds; i++) {
		if (i > 0)
			strncat(buf, ",", sizeof buf - strlen(buf) - 1);
		strncat(buf, o->conds[i], sizeof buf - strlen(buf) - 1);
	}
	return buf;
}

/* Whether o has exactly the conds want ("A,B"), module and always. */
static int
is_obj(const struct kbuild_obj *o, const char *want, const char *module,
    int always)
{
	if (o == NULL || strcmp(conds(o), want) != 0)
		return 0;
	if ((module == NULL) != (o->module == NULL))
		return 0;
	if (module != NULL && strcmp(module, o->module) != 0)
		return 0;
	return always < 0 || (always != 0) == o->always;
}

/* Whether o's conds end with the list want ("A,B"). */
static int
conds_end(const struct kbuild_obj *o, const char *want)
{
	const char	*c = conds(o);
	size_t		 l = strlen(c), w = strlen(want);

	return o != NULL && l >= w && strcmp(c + l - w, want) == 0 &&
	    (l == w || c[l - w - 1] == ',');
}

/* Describe an object for failure messages (a static buffer). */
static const char *
desc(const struct kbuild_obj *o)
{
	static char	buf[1200];

	if (o == NULL)
		return "not found";
	snprintf(buf, sizeof buf, "%s module=%s conds=[%s] always=%d",
	    o->path, o->module ? o->module : "-", conds(o), o->always);
	return buf;
}

/* Parse text as Makefile of dir. */
static void
parse(struct kbuild *kb, const char *dir, const char *text)
{
	kbuild_parse_text(kb, dir, text, strlen(text));
}

/* Whether module has an object with this path. */
static const struct kbuild_obj *
module_obj(const struct kbuild *kb, const char *module, const char *path)
{
	const struct kbuild_obj *const	*v;
	size_t				 n, i;

	n = kbuild_module(kb, module, &v);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->path, path) == 0)
			return v[i];
	}
	return NULL;
}

/* obj-*, obj-m, subdirectories with accumulated conds. */
static void
test_obj_forms(void)
{
	struct kbuild		*kb = kbuild_new_empty();
	const struct kbuild_obj	*o;
	struct kbuild_stats	 st;

	parse(kb, "drivers/x",
	    "# comment\n"
	    "obj-$(CONFIG_FOO)\t+= foo.o bar/\n"
	    "obj-y := always.o\n"
	    "obj-m += my-mod.o\n"
	    "obj-$(CONFIG_X:m=y) += xy.o\n"
	    "obj-$(subst m,y,$(CONFIG_SM)) += sm.o\n"
	    "obj-$(if $(CONFIG_IF),y) += iff.o\n"
	    "obj-$(findstring y, $(CONFIG_FS)) += fs.o\n"
	    "obj-$(subst y,$(CONFIG_K),$(CONFIG_L)) += kl.o\n"
	    "obj-$(CONFIG_C) += c1.o \\\n\tc2.o \\\n   c3.o\n"
	    "subdir-$(CONFIG_SUB) += sub\n"
	    "obj- += never.o\nobj-n += never2.o\n");
	o = kbuild_source(kb, "drivers/x/foo.c");
	check("obj-config", is_obj(o, "FOO", "foo", 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/always.c");
	check("obj-y", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/my-mod.c");
	check("obj-m", is_obj(o, "", "my_mod", 0), "%s", desc(o));
	check("module-dash", module_obj(kb, "my-mod", "drivers/x/my-mod.o") &&
	    module_obj(kb, "my_mod", "drivers/x/my-mod.o"), "my-mod");
	o = kbuild_source(kb, "drivers/x/xy.c");
	check("obj-m=y", is_obj(o, "X", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/sm.c");
	check("obj-subst", is_obj(o, "SM", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/iff.c");
	check("obj-if", is_obj(o, "IF", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/fs.c");
	check("obj-findstring", is_obj(o, "FS", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/kl.c");
	check("obj-subst-and", is_obj(o, "L,K", "kl", 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/c3.c");
	check("continuation", is_obj(o, "C", "c3", 0), "%s", desc(o));
	check("obj-n", kbuild_source(kb, "drivers/x/never.c") == NULL &&
	    kbuild_source(kb, "drivers/x/never2.c") == NULL, "obj-n built");

	kbuild_get_stats(kb, &st);
	o = kbuild_obj_at(kb, 0);
	check("walk", kbuild_nobjs(kb) == (size_t)st.objects &&
	    st.objects == 11 && o != NULL &&
	    strcmp(o->path, "drivers/x/foo.o") == 0 &&
	    kbuild_obj_at(kb, kbuild_nobjs(kb)) == NULL, "%zu objects, first "
	    "%s", kbuild_nobjs(kb), desc(o));

	parse(kb, "drivers/x/bar", "obj-$(CONFIG_BAR) += b.o\nobj-y += by.o\n");
	o = kbuild_source(kb, "drivers/x/bar/b.c");
	check("subdir-conds", is_obj(o, "FOO,BAR", "b", 0), "%s", desc(o));
	o = kbuild_source(kb, "drivers/x/bar/by.c");
	check("subdir-obj-y", is_obj(o, "FOO", NULL, 0), "%s", desc(o));
	parse(kb, "drivers/x/sub", "obj-y += s.o\n");
	o = kbuild_source(kb, "drivers/x/sub/s.c");
	check("subdir-y", is_obj(o, "SUB", NULL, 0), "%s", desc(o));
	kbuild_free(kb);
}

/* Composite objects, nested, with -objs, -y and -$(CONFIG_). */
static void
test_composites(void)
{
	struct kbuild			*kb = kbuild_new_empty();
	const struct kbuild_obj		*o;
	const struct kbuild_obj *const	*v;
	size_t				 n;

	parse(kb, "fs/ext4",
	    "obj-$(CONFIG_EXT4_FS) += ext4.o\n"
	    "ext4-y := balloc.o \\\n\t\tinode.o\n"
	    "ext4-$(CONFIG_EXT4_FS_POSIX_ACL)\t+= acl.o\n"
	    "ext4-inode-test-objs += inode-test.o\n"
	    "obj-$(CONFIG_EXT4_KUNIT_TESTS) += ext4-inode-test.o\n"
	    "obj-$(CONFIG_E1000) += e1000.o\n"
	    "e1000-objs := e1000_main.o e1000_hw.o\n"
	    "obj-$(CONFIG_TOP) += top.o\n"
	    "top-y := mid.o x.o\n"
	    "mid-$(CONFIG_MID) := leaf.o sub/leaf2.o\n"
	    "obj-y += builtin.o\nbuiltin-y := b1.o\nbuiltin-$(CONFIG_B2) += b2.o\n");
	n = kbuild_module(kb, "ext4", &v);
	check("composite-parts", n == 3, "ext4 has %zu objects", n);
	o = kbuild_source(kb, "fs/ext4/inode.c");
	check("composite-y", is_obj(o, "EXT4_FS", "ext4", 0), "%s", desc(o));
	o = kbuild_source(kb, "fs/ext4/acl.c");
	check("composite-config", is_obj(o, "EXT4_FS,EXT4_FS_POSIX_ACL",
	    "ext4", 0), "%s", desc(o));
	o = kbuild_source(kb, "fs/ext4/inode-test.c");
	check("composite-objs-dash", is_obj(o, "EXT4_KUNIT_TESTS",
	    "ext4_inode_test", 0), "%s", desc(o));
	n = kbuild_module(kb, "e1000", &v);
	check("composite-objs", n == 2 && is_obj(module_obj(kb, "e1000",
	    "fs/ext4/e1000_hw.o"), "E1000", "e1000", 0), "e1000: %zu", n);
	o = kbuild_source(kb, "fs/ext4/sub/leaf2.c");
	check("composite-nested", is_obj(o, "TOP,MID", "top", 0), "%s",
	    desc(o));
	check("composite-not-leaf", kbuild_source(kb, "fs/ext4/mid.c") ==
	    NULL && kbuild_source(kb, "fs/ext4/ext4.c") == NULL,
	    "a composite is not an object");
	o = kbuild_source(kb, "fs/ext4/b1.c");
	check("composite-builtin", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "fs/ext4/b2.c");
	check("composite-builtin-config", is_obj(o, "B2", NULL, 0), "%s",
	    desc(o));
	n = kbuild_symbol_objs(kb, "EXT4_FS_POSIX_ACL", &v);
	check("symbol-objs", n == 1 && strcmp(v[0]->path, "fs/ext4/acl.o") ==
	    0, "%zu objects", n);
	n = kbuild_symbol_objs(kb, "CONFIG_EXT4_FS", &v);
	check("symbol-objs-prefix", n == 2, "%zu objects", n);
	kbuild_free(kb);
}

/* Conditional blocks. */
static void
test_conditionals(void)
{
	struct kbuild		*kb = kbuild_new_empty();

	parse(kb, "k",
	    "ifdef CONFIG_P\nobj-y += p.o\nelse\nobj-y += notp.o\nendif\n"
	    "ifeq ($(CONFIG_Q),y)\n  obj-y += q.o\nendif\n"
	    "ifeq ($(CONFIG_Q2), y)\nobj-y += q2.o\nendif\n"
	    "ifneq ($(CONFIG_R),)\nobj-$(CONFIG_R2) += r.o\nendif\n"
	    "ifeq ($(CONFIG_S),m)\nobj-y += s.o\nendif\n"
	    "ifndef CONFIG_T\nobj-y += nt.o\nendif\n"
	    "ifneq ($(CONFIG_T2),y)\nobj-y += nt2.o\nendif\n"
	    "ifeq ($(CONFIG_U)$(CONFIG_V),yy)\nobj-y += uv.o\nendif\n"
	    "ifeq (a,b)\nobj-y += dead.o\nelse ifeq (a,a)\nobj-y += live.o\n"
	    "else\nobj-y += dead2.o\nendif\n"
	    "ifdef CONFIG_OUT\nifdef CONFIG_IN\nobj-y += in.o\nendif\n"
	    "obj-y += out.o\nendif\n"
	    "ifeq \"$(CONFIG_QQ)\" \"y\"\nobj-y += qq.o\nendif\n"
	    "ifdef CONFIG_E1\nobj-y += e1.o\nelse ifdef CONFIG_E2\n"
	    "obj-y += e2.o\nendif\n"
	    "ifeq ($(shell uname),Linux)\nobj-y += sh.o\nendif\n"
	    "ifdef UNDEFINED_VAR\nobj-y += undef.o\nendif\n"
	    "ifeq ($(UNDEFINED_VAR),)\nobj-y += empty.o\nendif\n");
	check("ifdef", is_obj(kbuild_source(kb, "k/p.c"), "P", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/p.c")));
	check("else-unknown", is_obj(kbuild_source(kb, "k/notp.c"), "", NULL,
	    0), "%s", desc(kbuild_source(kb, "k/notp.c")));
	check("ifeq-y", is_obj(kbuild_source(kb, "k/q.c"), "Q", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/q.c")));
	check("ifeq-space", is_obj(kbuild_source(kb, "k/q2.c"), "Q2", NULL,
	    0), "%s", desc(kbuild_source(kb, "k/q2.c")));
	check("ifneq-empty", is_obj(kbuild_source(kb, "k/r.c"), "R,R2", "r",
	    0), "%s", desc(kbuild_source(kb, "k/r.c")));
	check("ifeq-m", is_obj(kbuild_source(kb, "k/s.c"), "S", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/s.c")));
	check("ifndef", is_obj(kbuild_source(kb, "k/nt.c"), "", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/nt.c")));
	check("ifneq-y", is_obj(kbuild_source(kb, "k/nt2.c"), "", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/nt2.c")));
	check("ifeq-yy", is_obj(kbuild_source(kb, "k/uv.c"), "U,V", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/uv.c")));
	check("definite", kbuild_source(kb, "k/dead.c") == NULL &&
	    kbuild_source(kb, "k/dead2.c") == NULL &&
	    is_obj(kbuild_source(kb, "k/live.c"), "", NULL, 1), "%s",
	    desc(kbuild_source(kb, "k/live.c")));
	check("nested", is_obj(kbuild_source(kb, "k/in.c"), "OUT,IN", NULL,
	    0) && is_obj(kbuild_source(kb, "k/out.c"), "OUT", NULL, 0), "%s",
	    desc(kbuild_source(kb, "k/in.c")));
	check("ifeq-quotes", is_obj(kbuild_source(kb, "k/qq.c"), "QQ", NULL,
	    0), "%s", desc(kbuild_source(kb, "k/qq.c")));
	check("else-ifdef", is_obj(kbuild_source(kb, "k/e2.c"), "E2", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/e2.c")));
	check("unknown-cond", is_obj(kbuild_source(kb, "k/sh.c"), "", NULL, 0),
	    "%s", desc(kbuild_source(kb, "k/sh.c")));
	check("undefined-var", kbuild_source(kb, "k/undef.c") == NULL &&
	    is_obj(kbuild_source(kb, "k/empty.c"), "", NULL, 1), "%s",
	    desc(kbuild_source(kb, "k/empty.c")));
	kbuild_free(kb);
}

/* Variables, functions, lib-y, and what is ignored or skipped. */
static void
test_variables(void)
{
	struct kbuild			*kb = kbuild_new_empty();
	const struct kbuild_obj		*o;
	const struct kbuild_obj *const	*v;
	struct kbuild_stats		 st;
	size_t				 n;
	int				 skipped;

	parse(kb, "v",
	    "FOO_OBJS := a1.o a2.o\n"
	    "obj-$(CONFIG_V1) += v1.o\n"
	    "v1-y := $(FOO_OBJS) $(addprefix sub/,s1.o s2.o) "
	    "$(patsubst %.c,%.o,p1.c) $(FOO_OBJS:.o=-x.o)\n"
	    "ifeq ($(CONFIG_X86_32),y)\n\tBITS := 32\nelse\n\tBITS := 64\n"
	    "endif\n"
	    "obj-y += foo_$(BITS).o\n"
	    "obj-y += $(foreach f,fa fb,$(f).o)\n"
	    "obj-y += $(if $(CONFIG_M1),m1.o,notm1.o)\n"
	    "MODULE_NAME := my-drv\n"
	    "obj-$(CONFIG_DRV) += $(MODULE_NAME).o\n"
	    "$(MODULE_NAME)-y += d1.o\n"
	    "$(MODULE_NAME)-$(CONFIG_DRV_X) += d2.o\n"
	    "c-y := cy.o\nobj-y += $(c-y)\n"
	    "export EXP ?= e.o\nobj-y += $(EXP)\n"
	    "obj-y += $(filter %.o,keep.o drop.c) $(notdir x/nd.o) "
	    "$(sort zz.o zz.o)\n");
	n = kbuild_module(kb, "v1", &v);
	check("var-function-parts", n == 7, "v1 has %zu objects", n);
	o = module_obj(kb, "v1", "v/sub/s2.o");
	check("addprefix", is_obj(o, "V1", "v1", 0), "%s", desc(o));
	check("patsubst", module_obj(kb, "v1", "v/p1.o") != NULL, "no p1.o");
	check("subst-ref", module_obj(kb, "v1", "v/a2-x.o") != NULL,
	    "no a2-x.o");
	o = kbuild_source(kb, "v/foo_32.c");
	check("bits-32", is_obj(o, "X86_32", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "v/foo_64.c");
	check("bits-64", is_obj(o, "", NULL, 0), "%s", desc(o));
	check("foreach", kbuild_source(kb, "v/fb.c") != NULL, "no fb.o");
	o = kbuild_source(kb, "v/m1.c");
	check("if-then", is_obj(o, "M1", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "v/notm1.c");
	check("if-else", is_obj(o, "", NULL, 0), "%s", desc(o));
	o = module_obj(kb, "my_drv", "v/d2.o");
	check("var-module-name", is_obj(o, "DRV,DRV_X", "my_drv", 0), "%s",
	    desc(o));
	check("var-ref-y", kbuild_source(kb, "v/cy.c") != NULL, "no cy.o");
	check("export-assign", kbuild_source(kb, "v/e.c") != NULL, "no e.o");
	check("filter-notdir-sort", kbuild_source(kb, "v/keep.c") != NULL &&
	    kbuild_source(kb, "v/drop.c") == NULL &&
	    kbuild_source(kb, "v/nd.c") != NULL &&
	    kbuild_source(kb, "v/zz.c") != NULL, "filter/notdir/sort");

	parse(kb, "lib",
	    "lib-y := ctype.o\nlib-$(CONFIG_LL) += ll.o\n"
	    "obj-$(CONFIG_LM) += lm.o\n");
	o = kbuild_source(kb, "lib/ctype.c");
	check("lib-y", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "lib/ll.c");
	check("lib-config", is_obj(o, "LL", NULL, 0), "%s", desc(o));

	kbuild_get_stats(kb, &st);
	skipped = st.skipped_lines;
	parse(kb, "odd",
	    "ccflags-y += -DFOO $(call cc-option,-Wx)\n"
	    "CFLAGS_foo.o := -I$(src)\n"
	    "$(obj)/x.o: $(src)/y FORCE\n"
	    "\t$(call cmd,x) obj-y += bogus.o\n"
	    "\n"
	    "\techo still recipe obj-y += bogus2.o\n"
	    "obj-y += $(call cc-option,called.o) plain.o\n"
	    "$(eval $(call junk))\n"
	    "define FOO\nobj-y += indef.o\nendef\n"
	    "obj-y += after.o # comment obj-y += com.o\n"
	    "endif\n"
	    "obj-$(CONFIG_UNTERM += unterm.o\n"
	    "$(foo\n"
	    "ifeq ($(CONFIG_A)\n"
	    "obj-y += inside.o\n");
	kbuild_get_stats(kb, &st);
	check("ignored", kbuild_source(kb, "odd/bogus.c") == NULL &&
	    kbuild_source(kb, "odd/bogus2.c") == NULL &&
	    kbuild_source(kb, "odd/indef.c") == NULL &&
	    kbuild_source(kb, "odd/com.c") == NULL &&
	    kbuild_source(kb, "odd/called.c") == NULL,
	    "recipe, define or comment text read");
	check("read-after-odd", kbuild_source(kb, "odd/plain.c") != NULL &&
	    kbuild_source(kb, "odd/after.c") != NULL &&
	    kbuild_source(kb, "odd/inside.c") != NULL, "lost good lines");
	check("skipped-counted", st.skipped_lines - skipped >= 5,
	    "%d skipped", st.skipped_lines - skipped);
	kbuild_free(kb);
}

/* Create a file (and its directories) below tmpdir. */
static void
mkfile(const char *rel, const char *text)
{
	char	 path[PATH_MAX], *p;
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	for (p = path + strlen(tmpdir) + 1; (p = strchr(p, '/')) != NULL;
	    p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if ((f = fopen(path, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

/* kbuild_scan of a small tree: top Makefile, Kbuild, includes, arches. */
static void
test_mini_tree(void)
{
	struct kbuild		*kb;
	const struct kbuild_obj	*o;
	struct kbuild_stats	 st;
	char			*cause = NULL;

	/* From 6.5 the top Makefile recurses until --no-print-directory
	 * is in MAKEFLAGS: what the final make reads is the else branch
	 * (6.12's lib/ went unseen when MAKEFLAGS was read as empty). */
	mkfile("Makefile",
	    "ifeq ($(filter --no-print-directory, $(MAKEFLAGS)),)\n"
	    "need-sub-make := 1\nendif\n"
	    "ifeq ($(need-sub-make),1)\n__sub-make:\n"
	    "\t$(Q)$(MAKE) -f $(abs_srctree)/Makefile $(MAKECMDGOALS)\n"
	    "else # need-sub-make\n"
	    "ifeq ($(KBUILD_EXTMOD),)\ncore-y :=\ndrivers-y :=\n"
	    "libs-y := lib/\nendif\n"
	    "ifdef config-build\nelse\n"
	    "include $(srctree)/arch/$(SRCARCH)/Makefile\nendif\n"
	    "export ARCH_CORE := $(core-y)\n"
	    "export ARCH_LIB := $(filter %/, $(libs-y))\n"
	    "export ARCH_DRIVERS := $(drivers-y) $(drivers-m)\n"
	    "all:\n\t@echo $(shell true)\n"
	    "endif # need-sub-make\n");
	mkfile("Kbuild", "obj-y += kernel/ arch/$(SRCARCH)/ $(ARCH_CORE)\n"
	    "obj-$(CONFIG_BLOCK) += block/\nobj-y += drivers/ $(ARCH_LIB) "
	    "$(ARCH_DRIVERS)\n");
	mkfile("arch/foo/Makefile", "libs-y += arch/foo/lib/\n"
	    "drivers-$(CONFIG_PCI) += arch/foo/pci/\n"
	    "ifeq ($(CONFIG_64BIT),y)\nBITS := 64\nelse\nBITS := 32\nendif\n"
	    "export BITS\n");
	mkfile("arch/foo/Kbuild", "obj-y += kernel/\n");
	mkfile("arch/foo/kernel/Makefile", "obj-y += proc_$(BITS).o\n");
	mkfile("arch/foo/kernel/proc_64.c", "");
	mkfile("arch/foo/lib/Makefile", "lib-y += memcpy.o\n");
	mkfile("arch/foo/lib/memcpy.S", "");
	mkfile("arch/foo/pci/Makefile", "obj-y += pci.o\n");
	mkfile("arch/bar/Makefile", "core-y += arch/bar/extra/\n");
	mkfile("arch/bar/Kbuild", "obj-y += kernel/\n");
	mkfile("arch/bar/kernel/Makefile", "obj-y += b.o\nobj-m += bmod.o\n");
	mkfile("arch/bar/extra/Makefile", "obj-y += extra.o\n");
	mkfile("kernel/Makefile", "obj-y += fork.o\n"
	    "include $(src)/Makefile.inc\n-include $(src)/missing\n");
	mkfile("kernel/Makefile.inc", "obj-$(CONFIG_INC) += inc.o\n");
	mkfile("kernel/fork.c", "");
	mkfile("kernel/inc.S", "");
	mkfile("block/Makefile", "obj-$(CONFIG_BLK_DEV_LOOP) += loop.o\n");
	mkfile("block/loop.c", "");
	mkfile("drivers/Makefile", "obj-$(CONFIG_D) += d/\n");
	mkfile("drivers/d/Kbuild", "obj-m += dm.o\n");
	mkfile("drivers/d/Makefile", "obj-m += wrong.o\n");
	mkfile("lib/Makefile", "lib-y += string.o\n");
	mkfile("lib/string.c", "");

	kb = kbuild_scan(tmpdir, "foo", &cause);
	check("mini-scan", kb != NULL, "%s", cause ? cause : "");
	free(cause);
	if (kb == NULL)
		return;
	o = kbuild_source(kb, "kernel/fork.c");
	check("mini-always", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "kernel/inc.S");
	check("mini-include-S", is_obj(o, "INC", "inc", 0) &&
	    kbuild_source(kb, "kernel/inc.c") == NULL, "%s", desc(o));
	o = kbuild_source(kb, "block/loop.c");
	check("mini-top-cond", is_obj(o, "BLOCK,BLK_DEV_LOOP", "loop", 0),
	    "%s", desc(o));
	o = kbuild_source(kb, "lib/string.c");
	check("mini-libs-y", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "arch/foo/lib/memcpy.S");
	check("mini-arch-lib", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "arch/foo/kernel/proc_64.c");
	check("mini-bits", is_obj(o, "64BIT", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "arch/foo/pci/pci.c");
	check("mini-drivers-y", o == NULL, "%s (no source file)", desc(o));
	check("mini-drivers-y-obj", kbuild_symbol_objs(kb, "PCI",
	    &(const struct kbuild_obj *const *){ NULL }) == 1,
	    "arch/foo/pci/pci.o not indexed");
	check("mini-kbuild-first", module_obj(kb, "dm", "drivers/d/dm.o") &&
	    !module_obj(kb, "wrong", "drivers/d/wrong.o"), "Kbuild not read");
	o = module_obj(kb, "bmod", "arch/bar/kernel/bmod.o");
	check("mini-other-arch", is_obj(o, "", "bmod", 0), "%s", desc(o));
	check("mini-other-arch-core",
	    kbuild_symbol_objs(kb, "X", &(const struct kbuild_obj *const *)
	    { NULL }) == 0, "%s", "");
	kbuild_get_stats(kb, &st);
	check("mini-stats", st.makefiles >= 14 && st.modules == 4,
	    "makefiles=%d modules=%d", st.makefiles, st.modules);
	kbuild_free(kb);

	kb = kbuild_scan("/nonexistent/tree", "x86", &cause);
	check("scan-error", kb == NULL && cause != NULL, "no error");
	free(cause);
}

/* The Linux tree to test on, or NULL. */
static const char *
find_tree(void)
{
	static char	 buf[PATH_MAX];
	const char	*env = getenv("KCTUI_TREE"), *home = getenv("HOME");
	struct stat	 sb;

	if (env != NULL && env[0] != '\0') {
		snprintf(buf, sizeof buf, "%s/arch/x86/Makefile", env);
		return stat(buf, &sb) == 0 ? env : NULL;
	}
	if (home != NULL) {
		snprintf(buf, sizeof buf, "%s/.cache/kctui/linux-6.1/arch/x86/"
		    "Makefile", home);
		if (stat(buf, &sb) == 0) {
			snprintf(buf, sizeof buf, "%s/.cache/kctui/linux-6.1",
			    home);
			return buf;
		}
	}
	if (stat("/var/cache/kctui/linux-source-6.1/arch/x86/Makefile",
	    &sb) == 0)
		return "/var/cache/kctui/linux-source-6.1";
	return NULL;
}

/* Symbols set to m in Debian's amd64 config (malloc'd, NULL-ended). */
static char **
config_modules(size_t *np)
{
	static const char *const cmds[] = {
		"xz -dc /usr/src/linux-config-6.1/config.amd64_none_amd64.xz "
		    "2>/dev/null",
		"cat \"$HOME/.cache/kctui/config.amd64_none_amd64\" "
		    "2>/dev/null",
	};
	char	  line[512], **v = NULL, *eq;
	size_t	  n = 0, i;
	FILE	 *f;

	for (i = 0; i < 2 && n == 0; i++) {
		if ((f = popen(cmds[i], "r")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL) {
			if (strncmp(line, "CONFIG_", 7) != 0 ||
			    (eq = strchr(line, '=')) == NULL ||
			    strcmp(eq, "=m\n") != 0)
				continue;
			*eq = '\0';
			v = realloc(v, (n + 1) * sizeof *v);
			v[n++] = strdup(line + 7);
		}
		pclose(f);
	}
	*np = n;
	return v;
}

/* Whether sym is in the sorted-less list v. */
static int
in_list(char **v, size_t n, const char *sym)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i], sym) == 0)
			return 1;
	}
	return 0;
}

/* The real tree: known objects and modules, coverage of Debian's =m
 * symbols. Long on purpose: one scan, then check after check of it. */
static void
test_real_tree(const char *tree)
{
	static const char *const wellknown[] = {
		"virtio_blk", "virtio_net", "e1000", "e1000e", "ext4", "xfs",
		"btrfs", "nf_tables", "snd_hda_intel", "usb_storage", "ahci",
		"igb", "nvme", "dm_mod", "kvm_intel", "fuse", "vfat", "i915",
		"bridge", "tun", "loop", "xhci_pci", "snd_hda_codec_realtek",
		"cfg80211", "nfsd", "sd_mod",
	};
	struct kbuild			*kb;
	const struct kbuild_obj		*o;
	const struct kbuild_obj *const	*v;
	struct kbuild_stats		 st;
	double				 t0;
	char				*cause = NULL, **mods, missing[1024];
	size_t				 n, i, j, nm, found, withm, msyms;
	double				 secs;
	char				*used;
	int				 c, ok;

	t0 = clock_now();
	kb = kbuild_scan(tree, "x86", &cause);
	secs = clock_now() - t0;
	check("real-scan", kb != NULL, "%s", cause ? cause : "");
	free(cause);
	if (kb == NULL)
		return;
	kbuild_get_stats(kb, &st);
	printf("# kbuild %s: %.3f s, %d makefiles, %d objects, %d modules, "
	    "%d skipped lines\n", tree, secs, st.makefiles, st.objects,
	    st.modules, st.skipped_lines);
	check("real-stats", st.makefiles > 2500 && st.objects > 20000 &&
	    st.modules > 5000, "makefiles=%d objects=%d modules=%d",
	    st.makefiles, st.objects, st.modules);

	n = kbuild_module(kb, "virtio_net", &v);
	check("real-virtio_net", n == 1 && conds_end(v[0], "VIRTIO_NET"),
	    "%zu objects, %s", n, n ? desc(v[0]) : "");
	o = kbuild_source(kb, "drivers/net/virtio_net.c");
	check("real-virtio_net-source", o && o->module &&
	    strcmp(o->module, "virtio_net") == 0 &&
	    conds_end(o, "VIRTIO_NET"), "%s", desc(o));
	n = kbuild_module(kb, "ext4", &v);
	for (i = 0, ok = n > 20; i < n; i++)
		ok &= conds(v[i])[0] != '\0' && strncmp(conds(v[i]), "EXT4_FS",
		    7) == 0;
	check("real-ext4", ok, "%zu objects", n);
	o = kbuild_source(kb, "fs/ext4/inode.c");
	check("real-ext4-inode", o && o->module && strcmp(o->module, "ext4")
	    == 0 && conds_end(o, "EXT4_FS"), "%s", desc(o));
	o = kbuild_source(kb, "fs/ext4/acl.c");
	check("real-ext4-acl", o && conds_end(o, "EXT4_FS,EXT4_FS_POSIX_ACL"),
	    "%s", desc(o));
	o = kbuild_source(kb, "kernel/fork.c");
	check("real-fork", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "mm/filemap.c");
	check("real-mm-filemap", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "mm/memory.c");
	check("real-mm-memory", is_obj(o, "MMU", NULL, 0), "%s", desc(o));
	o = kbuild_source(kb, "mm/nommu.c");
	check("real-mm-nommu", o && o->nconds == 0 && !o->always, "%s",
	    desc(o));
	o = kbuild_source(kb, "lib/ctype.c");
	check("real-lib-y", is_obj(o, "", NULL, 1), "%s", desc(o));
	o = kbuild_source(kb, "arch/x86/lib/memcpy_64.S");
	check("real-arch-lib", o != NULL && o->module == NULL, "%s", desc(o));
	o = kbuild_source(kb, "arch/x86/kernel/process_64.c");
	check("real-bits", o != NULL && o->always, "%s", desc(o));
	n = kbuild_module(kb, "e1000", &v);
	o = module_obj(kb, "e1000",
	    "drivers/net/ethernet/intel/e1000/e1000_main.o");
	check("real-e1000", n == 4 && conds_end(o, "E1000"), "%zu objects, %s",
	    n, desc(o));
	o = kbuild_source(kb, "virt/kvm/kvm_main.c");
	check("real-kvm-include", o != NULL && o->module &&
	    strcmp(o->module, "kvm") == 0 && conds_end(o, "KVM"), "%s",
	    desc(o));
	o = kbuild_source(kb, "arch/arm64/kernel/process.c");
	check("real-other-arch", o != NULL && !o->always, "%s", desc(o));
	n = kbuild_symbol_objs(kb, "EXT4_FS_POSIX_ACL", &v);
	check("real-symbol-objs", n == 1, "%zu", n);

	mods = config_modules(&nm);
	if (nm > 0) {
		missing[0] = '\0';
		for (i = found = 0; i < sizeof wellknown / sizeof *wellknown;
		    i++) {
			n = kbuild_module(kb, wellknown[i], &v);
			for (j = 0, ok = 0; j < n && !ok; j++) {
				for (c = 0; c < v[j]->nconds && !ok; c++)
					ok = in_list(mods, nm, v[j]->conds[c]);
			}
			if (ok)
				found++;
			else {
				strncat(missing, " ", sizeof missing -
				    strlen(missing) - 1);
				strncat(missing, wellknown[i], sizeof missing -
				    strlen(missing) - 1);
			}
		}
		check("real-config-modules", found == sizeof wellknown /
		    sizeof *wellknown, "not found (or not =m):%s", missing);
		/*
		 * Every =m symbol: does it control a module object directly
		 * (its last cond), or at all (any cond)? The rest are
		 * Kconfig-only symbols (selected helpers, menus).
		 */
		for (i = withm = msyms = 0; i < nm; i++) {
			n = kbuild_symbol_objs(kb, mods[i], &v);
			for (j = 0; j < n; j++) {
				if (v[j]->module != NULL) {
					withm++;
					break;
				}
			}
		}
		used = calloc(nm, 1);
		for (i = 0; i < kbuild_nobjs(kb); i++) {
			o = kbuild_obj_at(kb, i);
			for (c = 0; o->module != NULL && c < o->nconds; c++) {
				for (j = 0; j < nm; j++) {
					if (!used[j] && strcmp(mods[j],
					    o->conds[c]) == 0)
						used[j] = 1;
				}
			}
		}
		for (j = 0; j < nm; j++)
			msyms += used[j];
		free(used);
		printf("# kbuild coverage: of the %zu =m symbols of Debian's "
		    "amd64 config, %zu control a module object directly, %zu "
		    "are among a module object's conds\n", nm, withm, msyms);
		check("real-config-coverage", msyms * 100 >= nm * 95,
		    "%zu/%zu", msyms, nm);
		for (i = 0; i < nm; i++)
			free(mods[i]);
	}
	free(mods);
	kbuild_free(kb);
}

/* ------------------------------------------------------------ the cache */

/* Whether objects x and y (of two indexes) are the same. */
static int
same_obj(const struct kbuild_obj *x, const struct kbuild_obj *y)
{
	int	i;

	if (x == NULL || y == NULL)
		return x == y;
	if (strcmp(x->path, y->path) != 0 || x->always != y->always ||
	    x->nconds != y->nconds || (x->module == NULL) !=
	    (y->module == NULL) || (x->module != NULL &&
	    strcmp(x->module, y->module) != 0))
		return 0;
	for (i = 0; i < x->nconds; i++) {
		if (strcmp(x->conds[i], y->conds[i]) != 0)
			return 0;
	}
	return 1;
}

/* Whether two object lists are the same. */
static int
same_list(const struct kbuild_obj *const *x, size_t nx,
    const struct kbuild_obj *const *y, size_t ny)
{
	size_t	i;

	if (nx != ny)
		return 0;
	for (i = 0; i < nx; i++) {
		if (!same_obj(x[i], y[i]))
			return 0;
	}
	return 1;
}

/*
 * Whether indexes a and b are the same: objects in order, stats (but
 * from_cache) and the answers of every lookup on their objects. What
 * differs first goes to why.
 */
static int
same_index(const struct kbuild *a, const struct kbuild *b, char *why,
    size_t whysize)
{
	const struct kbuild_obj *const	*va, *const *vb;
	const struct kbuild_obj		*o;
	struct kbuild_stats		 sa, sb;
	char				 src[PATH_MAX];
	size_t				 i, na, nb, l;

	kbuild_get_stats(a, &sa);
	kbuild_get_stats(b, &sb);
	if (sa.makefiles != sb.makefiles || sa.objects != sb.objects ||
	    sa.modules != sb.modules || sa.skipped_lines != sb.skipped_lines) {
		snprintf(why, whysize, "stats %d/%d/%d/%d vs %d/%d/%d/%d",
		    sa.makefiles, sa.objects, sa.modules, sa.skipped_lines,
		    sb.makefiles, sb.objects, sb.modules, sb.skipped_lines);
		return 0;
	}
	if (kbuild_nobjs(a) != kbuild_nobjs(b)) {
		snprintf(why, whysize, "%zu vs %zu objects", kbuild_nobjs(a),
		    kbuild_nobjs(b));
		return 0;
	}
	for (i = 0; i < kbuild_nobjs(a); i++) {
		o = kbuild_obj_at(a, i);
		if (!same_obj(o, kbuild_obj_at(b, i))) {
			snprintf(why, whysize, "object %zu: %s", i, desc(o));
			return 0;
		}
		l = strlen(o->path);
		snprintf(src, sizeof src, "%.*s.c", (int)(l - 2), o->path);
		if (!same_obj(kbuild_source(a, src), kbuild_source(b, src)))
			goto lookup;
		src[strlen(src) - 1] = 'S';
		if (!same_obj(kbuild_source(a, src), kbuild_source(b, src)))
			goto lookup;
		if (o->module != NULL) {
			na = kbuild_module(a, o->module, &va);
			nb = kbuild_module(b, o->module, &vb);
			if (!same_list(va, na, vb, nb))
				goto lookup;
		}
		if (o->nconds > 0) {
			na = kbuild_symbol_objs(a, o->conds[o->nconds - 1],
			    &va);
			nb = kbuild_symbol_objs(b, o->conds[o->nconds - 1],
			    &vb);
			if (!same_list(va, na, vb, nb))
				goto lookup;
		}
	}
	return 1;
lookup:
	snprintf(why, whysize, "lookups differ for %s", desc(o));
	return 0;
}

/* Whether kb was loaded from the cache. */
static int
from_cache(const struct kbuild *kb)
{
	struct kbuild_stats	st;

	kbuild_get_stats(kb, &st);
	return st.from_cache;
}

/*
 * kbuild_scan_cached of tree with cache: it must equal a plain scan and
 * come from the cache or not (want_cached). name labels the check.
 */
static void
check_cached(const char *name, const char *tree, const char *arch,
    const char *cache, int want_cached)
{
	struct kbuild	*kc, *ks;
	char		*cause = NULL, why[1400] = "";
	int		 ok;

	kc = kbuild_scan_cached(tree, arch, cache, &cause);
	ks = kbuild_scan(tree, arch, &cause);
	ok = kc != NULL && ks != NULL && same_index(kc, ks, why, sizeof why);
	if (ok && want_cached >= 0 && from_cache(kc) != want_cached) {
		snprintf(why, sizeof why, "from_cache is %d", from_cache(kc));
		ok = 0;
	}
	check(name, ok, "%s", kc == NULL || ks == NULL ? (cause ? cause :
	    "no index") : why);
	free(cause);
	kbuild_free(kc);
	kbuild_free(ks);
}

/* Set the mtime of tmpdir/rel to sec seconds (and ns nanoseconds). */
static void
set_mtime(const char *rel, long sec, long ns)
{
	char		path[PATH_MAX];
	struct timespec	ts[2];

	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	ts[0].tv_sec = ts[1].tv_sec = sec;
	ts[0].tv_nsec = ts[1].tv_nsec = ns;
	utimensat(AT_FDCWD, path, ts, 0);
}

/* The cache file's bytes (malloc'd), its size in *np; NULL if absent. */
static char *
slurp(const char *path, size_t *np)
{
	FILE	*f = fopen(path, "rb");
	char	*buf = NULL;
	long	 n;

	*np = 0;
	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) != NULL &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n)
		*np = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Write n bytes of buf to path. */
static void
spit(const char *path, const char *buf, size_t n)
{
	FILE	*f = fopen(path, "wb");

	if (f == NULL)
		return;
	if (n > 0)
		fwrite(buf, 1, n, f);
	fclose(f);
}

#define CACHE_HEAD	CACHEFILE_HEADER	/* magic, version, identity,
						   length, checksum */

/*
 * Write payload (len bytes) to path as a cache of the same magic,
 * version and identity as the header head, with a right checksum.
 */
static void
forge(const char *path, const char *head, const char *payload, size_t len)
{
	char		 magic[9], *cause = NULL;
	uint32_t	 version;
	uint64_t	 identity;

	memcpy(magic, head, 8);
	magic[8] = '\0';
	memcpy(&version, head + 8, sizeof version);
	memcpy(&identity, head + 16, sizeof identity);
	if (cachefile_write(path, magic, version, identity, payload, len,
	    &cause) != 0)
		printf("# forge %s: %s\n", path, cause ? cause : "?");
	free(cause);
}

/*
 * A damaged cache (truncated, bytes flipped, flipped with the checksum
 * made right again so the loader's own checks are exercised): never a
 * crash, the result equal to a scan.
 */
static void
test_cache_corrupt(const char *tree, const char *cache)
{
	struct kbuild	*kc, *ks;
	char		*good, *bad, *cause = NULL, why[1400];
	size_t		 n, i, cuts[] = { 0, 1, 7, 8, 12, 16, 24, 32, 40, 47,
			    48, 49, 60 };
	int		 ok_trunc = 1, ok_flip = 1, ok_forged = 1, ok;

	check_cached("cache-corrupt-setup", tree, "x86", cache, -1);
	if ((good = slurp(cache, &n)) == NULL || n <= CACHE_HEAD) {
		check("cache-corrupt-file", 0, "no cache file %s", cache);
		free(good);
		return;
	}
	bad = malloc(n);
	ks = kbuild_scan(tree, "x86", &cause);
	for (i = 0; ks != NULL && i < sizeof cuts / sizeof *cuts + 3; i++) {
		size_t	cut = i < sizeof cuts / sizeof *cuts ? cuts[i] :
		    i == sizeof cuts / sizeof *cuts ? n / 2 :
		    i == sizeof cuts / sizeof *cuts + 1 ? n - 1 : n - 9;

		if (cut >= n)
			continue;
		spit(cache, good, cut);
		kc = kbuild_scan_cached(tree, "x86", cache, &cause);
		ok = kc != NULL && !from_cache(kc) && same_index(kc, ks, why,
		    sizeof why);
		if (!ok && ok_trunc) {
			printf("# truncated at %zu: %s\n", cut, kc ? why :
			    "no index");
			ok_trunc = 0;
		}
		kbuild_free(kc);
	}
	check("cache-truncated", ks != NULL && ok_trunc, "see above");
	for (i = 0; ks != NULL && i < n; i++) {
		memcpy(bad, good, n);
		bad[i] ^= (char)(1 << (i % 8));
		spit(cache, bad, n);
		kc = kbuild_scan_cached(tree, "x86", cache, &cause);
		ok = kc != NULL && !from_cache(kc) && same_index(kc, ks, why,
		    sizeof why);
		if (!ok && ok_flip) {
			printf("# byte %zu flipped: %s\n", i, kc ? why :
			    "no index");
			ok_flip = 0;
		}
		kbuild_free(kc);
	}
	check("cache-flipped", ks != NULL && ok_flip, "see above");
	/* Right checksum, wrong content: only "no crash, an index". */
	for (i = CACHE_HEAD; ks != NULL && i < n; i++) {
		memcpy(bad, good, n);
		bad[i] ^= (char)(1 << (i % 8));
		forge(cache, good, bad + CACHE_HEAD, n - CACHE_HEAD);
		kc = kbuild_scan_cached(tree, "x86", cache, &cause);
		if (kc == NULL && ok_forged) {
			printf("# byte %zu forged: no index\n", i);
			ok_forged = 0;
		}
		kbuild_free(kc);
	}
	check("cache-forged", ks != NULL && ok_forged, "see above");
	spit(cache, good, n);
	check_cached("cache-corrupt-restored", tree, "x86", cache, 1);
	kbuild_free(ks);
	free(cause);
	free(good);
	free(bad);
}

/*
 * kbuild_scan_cached on a small tree of its own: used when nothing
 * changed, not used (and the result right) after each kind of change the
 * scan depends on.
 */
static void
test_cache_mini(void)
{
	struct kbuild	*kb;
	char		 tree[PATH_MAX], cache[PATH_MAX], path[PATH_MAX];
	char		*cause = NULL, *buf;
	size_t		 n;

	snprintf(tree, sizeof tree, "%s/c", tmpdir);
	snprintf(cache, sizeof cache, "%s/cache/sub/kbuild-1.cache", tmpdir);
	mkfile("c/Makefile", "export BITS := 64\n");
	mkfile("c/Kbuild", "obj-y += sub/ $(dir $(wildcard w/*/Makefile))\n");
	mkfile("c/arch/x86/Makefile", "");
	mkfile("c/sub/Makefile", "obj-$(CONFIG_FOO) += foo.o\n");
	mkfile("c/sub/foo.c", "");
	mkfile("c/w/a/Makefile", "obj-y += a.o\n");

	kb = kbuild_scan_cached(tree, "x86", NULL, &cause);
	check("cache-null-path", kb != NULL && !from_cache(kb) &&
	    access(cache, F_OK) != 0, "%s", cause ? cause : "");
	kbuild_free(kb);
	free(cause);
	cause = NULL;
	kb = kbuild_scan_cached(tree, "bad/arch", cache, &cause);
	check("cache-bad-arch", kb == NULL && cause != NULL, "no error");
	free(cause);

	check_cached("cache-mini-first", tree, "x86", cache, 0);
	check("cache-mini-written", access(cache, F_OK) == 0, "%s", cache);
	check_cached("cache-mini-second", tree, "x86", cache, 1);

	/* Content and size. */
	mkfile("c/sub/Makefile", "obj-$(CONFIG_FOO) += foo.o bar.o\n");
	check_cached("cache-mini-size", tree, "x86", cache, 0);
	check_cached("cache-mini-size-again", tree, "x86", cache, 1);
	/* Same size, other content and mtime. */
	set_mtime("c/sub/Makefile", 1000000000, 0);
	check_cached("cache-mini-touch", tree, "x86", cache, 0);
	mkfile("c/sub/Makefile", "obj-$(CONFIG_BAZ) += foo.o bar.o\n");
	set_mtime("c/sub/Makefile", 1000000000, 1);
	check_cached("cache-mini-same-size", tree, "x86", cache, 0);
	check_cached("cache-mini-same-size-again", tree, "x86", cache, 1);
	/* Issue 37 item 14: same size, inode and mtime, other content (cp
	 * -p, tar, an edit within the clock's step): keyed by content. */
	mkfile("c/sub/Makefile", "obj-$(CONFIG_QUX) += foo.o bar.o\n");
	set_mtime("c/sub/Makefile", 1000000000, 1);
	check_cached("cache-mini-same-stat-content", tree, "x86", cache, 0);
	kb = kbuild_scan_cached(tree, "x86", cache, &cause);
	check("cache-mini-same-stat-content-read", kb != NULL &&
	    from_cache(kb) && kbuild_source(kb, "sub/foo.c") != NULL &&
	    kbuild_source(kb, "sub/foo.c")->nconds > 0 && strcmp(
	    kbuild_source(kb, "sub/foo.c")->conds[kbuild_source(kb,
	    "sub/foo.c")->nconds - 1], "QUX") == 0, "CONFIG_BAZ kept");
	kbuild_free(kb);
	/* A source file looked for (bar.c, then bar.S) appears. */
	mkfile("c/sub/bar.S", "");
	check_cached("cache-mini-new-source", tree, "x86", cache, 0);
	kb = kbuild_scan_cached(tree, "x86", cache, &cause);
	check("cache-mini-new-source-found", kb != NULL && from_cache(kb) &&
	    kbuild_source(kb, "sub/bar.S") != NULL, "bar.S not found");
	kbuild_free(kb);
	/* A Kbuild file preferred to the Makefile appears. */
	mkfile("c/sub/Kbuild", "obj-m += kb.o\n");
	check_cached("cache-mini-new-kbuild", tree, "x86", cache, 0);
	/* $(wildcard) matches more. */
	mkfile("c/w/b/Makefile", "obj-m += b.o\n");
	check_cached("cache-mini-wildcard", tree, "x86", cache, 0);
	kb = kbuild_scan_cached(tree, "x86", cache, &cause);
	check("cache-mini-wildcard-found", kb != NULL && from_cache(kb) &&
	    module_obj(kb, "b", "w/b/b.o") != NULL, "w/b/b.o not found");
	kbuild_free(kb);
	/* Another architecture (the arch directory lists more). */
	mkfile("c/arch/arm/Makefile", "");
	mkfile("c/arch/arm/Kbuild", "obj-y += mach/\n");
	check_cached("cache-mini-new-arch", tree, "x86", cache, 0);
	/* A file read disappears. */
	snprintf(path, sizeof path, "%s/c/sub/Kbuild", tmpdir);
	unlink(path);
	check_cached("cache-mini-removed", tree, "x86", cache, 0);
	/* Another SRCARCH, or the tree by another name. */
	check_cached("cache-mini-other-arch", tree, "arm", cache, 0);
	check_cached("cache-mini-arch-back", tree, "x86", cache, 0);
	strncat(tree, "/", sizeof tree - strlen(tree) - 1);
	check_cached("cache-mini-slash", tree, "x86", cache, 1);

	/*
	 * Tests of files folded into their directory's mtime (not changed
	 * for a while), but for a symbolic link: its target can appear
	 * without the directory changing.
	 */
	mkfile("c/sub/Makefile", "obj-y += p1.o p2.o p3.o p4.o\n");
	mkfile("c/sub/p1.c", "");
	mkfile("c/elsewhere/x", "");
	snprintf(path, sizeof path, "%s/c/sub/p4.c", tmpdir);
	check("cache-fold-symlink-made", symlink("../elsewhere/p4.c", path)
	    == 0, "%s", strerror(errno));
	set_mtime("c/sub", 1000000000, 0);
	check_cached("cache-fold-first", tree, "x86", cache, 0);
	buf = slurp(cache, &n);
	check("cache-fold-folded", buf != NULL && memmem(buf, n, "sub/p3.c",
	    8) == NULL && memmem(buf, n, "sub/p4.c", 8) != NULL,
	    "sub/p3.c not folded, or the link sub/p4.c folded");
	free(buf);
	check_cached("cache-fold-second", tree, "x86", cache, 1);
	mkfile("c/elsewhere/p4.c", "");
	check_cached("cache-fold-symlink", tree, "x86", cache, 0);
	kb = kbuild_scan_cached(tree, "x86", cache, &cause);
	check("cache-fold-symlink-found", kb != NULL && from_cache(kb) &&
	    kbuild_source(kb, "sub/p4.c") != NULL, "sub/p4.c not found");
	kbuild_free(kb);
	set_mtime("c/sub", 1000000000, 5);
	check_cached("cache-fold-touched", tree, "x86", cache, 0);
	check_cached("cache-fold-touched-again", tree, "x86", cache, 1);
	mkfile("c/sub/p3.S", "");
	check_cached("cache-fold-new-file", tree, "x86", cache, 0);
	kb = kbuild_scan_cached(tree, "x86", cache, &cause);
	check("cache-fold-new-file-found", kb != NULL && from_cache(kb) &&
	    kbuild_source(kb, "sub/p3.S") != NULL, "sub/p3.S not found");
	kbuild_free(kb);
	set_mtime("c/sub", 1000000000, 7);
	unlink(cache);
	check_cached("cache-fold-old-again", tree, "x86", cache, 0);
	check_cached("cache-fold-old-again-cached", tree, "x86", cache, 1);
	snprintf(path, sizeof path, "%s/c/sub/p1.c", tmpdir);
	unlink(path);
	check_cached("cache-fold-removed", tree, "x86", cache, 0);

	test_cache_corrupt(tree, cache);
}

/* The real tree through the cache: the same index (how much faster it
 * is, `make bench` measures as part of suggest: no timed unit tests). */
static void
test_cache_real(const char *tree)
{
	char	dir[] = "/tmp/kctui-kbcache-XXXXXX", cache[64], cmd[80];

	if (mkdtemp(dir) == NULL) {
		check("real-cache-mkdtemp", 0, "%s", strerror(errno));
		return;
	}
	snprintf(cache, sizeof cache, "%s/kbuild-x.cache", dir);
	check_cached("real-cache-first", tree, "x86", cache, 0);
	check_cached("real-cache-second", tree, "x86", cache, 1);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

int
main(void)
{
	const char	*tree;
	char		 cmd[300];

	test_obj_forms();
	test_composites();
	test_conditionals();
	test_variables();
	if (mkdtemp(tmpdir) != NULL) {
		test_mini_tree();
		test_cache_mini();
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	} else
		check("mkdtemp", 0, "%s", strerror(errno));
	if ((tree = find_tree()) != NULL) {
		test_real_tree(tree);
		test_cache_real(tree);
	}
	return unit_failures != 0;
}
