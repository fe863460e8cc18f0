/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_measure.c - verify's measured table (core/verify/measure.c) on
 * files made here: a small ELF program compiled by the system's cc with
 * a sys_call_table like x86's (real calls, sys_ni_syscall, a weak
 * COND_SYSCALL stub), its text/data/bss against binutils' size, a
 * System.map, a module tree, a config's y/m count, the table.
 */
#include <errno.h>

#define UNIT_PREFIX "measure/"
#include "unit.h"

#include "../../core/verify/measure.h"

/* The program: 6 table entries, 3 of them (read, write, read again)
 * real; ni_syscall and the weak kcmp stub not. */
static const char prog_c[] =
    "typedef long (*fn)(void);\n"
    "long __x64_sys_read(void) { return 1; }\n"
    "long __x64_sys_write(void) { return 2; }\n"
    "__attribute__((weak)) long __x64_sys_kcmp(void) { return -38; }\n"
    "long __x64_sys_ni_syscall(void) { return -38; }\n"
    "const fn sys_call_table[] = { __x64_sys_read, __x64_sys_write,\n"
    "    __x64_sys_ni_syscall, __x64_sys_kcmp, __x64_sys_ni_syscall,\n"
    "    __x64_sys_read };\n"
    "char big_bss[100000];\n"
    "int data_arr[5000] = { 1 };\n"
    "int main(void) { return (int)sys_call_table[0]() + big_bss[0] +\n"
    "    data_arr[0]; }\n";

/* Write text to dir/name; the path (malloc'd). */
static char *
put(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*f = fopen(p, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

/* binutils' size of a file (Berkeley): text, data, bss; false if it
 * could not be run. */
static bool
size_of(const char *path, long long *t, long long *d, long long *b)
{
	char	*cmd = xasprintf("size '%s' 2>/dev/null", path), line[512];
	FILE	*f = popen(cmd, "r");
	bool	 ok = false;

	free(cmd);
	if (f == NULL)
		return false;
	if (fgets(line, sizeof line, f) != NULL && fgets(line, sizeof line,
	    f) != NULL)
		ok = sscanf(line, "%lld %lld %lld", t, d, b) == 3;
	return pclose(f) == 0 && ok;
}

/* The ELF readers on the compiled program. */
static void
test_elf(const char *dir)
{
	char		*src = put(dir, "prog.c", prog_c), *cause = NULL;
	char		*bin = xasprintf("%s/prog", dir), *cmd;
	long long	 t, d, b, st, sd, sb;
	long		 n;

	cmd = xasprintf("cc -O0 -no-pie -fno-pic -o '%s' '%s' 2>/dev/null",
	    bin, src);
	if (system(cmd) != 0) {
		skip("elf-sizes", "cc could not build the test program");
		skip("syscalls", "cc could not build the test program");
		goto out;
	}
	if (measure_elf_sizes(bin, &t, &d, &b, &cause) != 0)
		check("elf-sizes", 0, cause);
	else if (size_of(bin, &st, &sd, &sb))
		checkf("elf-sizes", t == st && d == sd && b == sb,
		    "ours %lld %lld %lld, size(1) %lld %lld %lld", t, d, b,
		    st, sd, sb);
	else
		checkf("elf-sizes", t > 0 && d >= 20000 && b >= 100000,
		    "text %lld data %lld bss %lld (no size(1) to compare)", t,
		    d, b);
	free(cause);
	cause = NULL;
	n = measure_syscalls(bin, &cause);
	checkf("syscalls", n == 3, "%ld (want 3: read, write, read; not "
	    "ni_syscall nor the weak stub)%s%s", n, cause ? ": " : "",
	    cause ? cause : "");
	free(cause);
	cause = NULL;
	/* Not ELF, no table: errors, not numbers. */
	n = measure_syscalls(src, &cause);
	check("syscalls-not-elf", n == -1 && cause != NULL &&
	    strstr(cause, "not an ELF") != NULL, cause);
	free(cause);
	cause = NULL;
	free(cmd);
	cmd = xasprintf("cc -O0 -o '%s/plain' -x c - <<'EOF' 2>/dev/null\n"
	    "int main(void) { return 0; }\nEOF", dir);
	if (system(cmd) == 0) {
		char *plain = xasprintf("%s/plain", dir);

		n = measure_syscalls(plain, &cause);
		check("syscalls-no-table", n == -1 && cause != NULL &&
		    strstr(cause, "no sys_call_table") != NULL, cause);
		free(plain);
		free(cause);
		cause = NULL;
	}
out:
	free(cmd);
	free(src);
	free(bin);
}

/* System.map: T __x64_sys_* but ni_syscall; W (weak stubs) not. */
static void
test_map(const char *dir)
{
	char *map = put(dir, "System.map",
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81001000 T __x64_sys_read\n"
	    "ffffffff81001100 T __x64_sys_write\n"
	    "ffffffff81001200 W __x64_sys_kcmp\n"
	    "ffffffff81001300 T __x64_sys_ni_syscall\n"
	    "ffffffff81001400 t __x64_sys_openat\n"
	    "ffffffff81001500 T __ia32_sys_read\n"
	    "ffffffff82000000 D sys_call_table\n");
	char *missing = xasprintf("%s/no-such-map", dir);
	long n = measure_syscalls_map(map);

	checkf("syscalls-map", n == 3, "%ld (want 3: read, write, openat)",
	    n);
	check("syscalls-map-missing", measure_syscalls_map(missing) == -1,
	    "no file is -1");
	checkf("syscalls-map-placeholder", measure_syscalls_map_text(
	    "ffffffffffffffff B The real System.map is in the "
	    "linux-image-<version>-dbg package\n") == -1, "%ld",
	    measure_syscalls_map_text("x"));
	free(map);
	free(missing);
}

/* A module tree: .ko and compressed ones, other files not, the build
 * link (out of the tree) not followed. */
static void
test_modules(const char *dir)
{
	char		*root = xasprintf("%s/lib/modules/6.1.0", dir);
	char		*cmd, *p;
	long		 n;
	long long	 bytes;

	cmd = xasprintf("mkdir -p '%s/kernel/drivers/net' '%s/kernel/fs' && "
	    "ln -s / '%s/build'", root, root, root);
	if (system(cmd) != 0) {
		skip("modules", "could not make the tree");
		goto out;
	}
	free(put(root, "kernel/drivers/net/e1000.ko", "0123456789"));
	free(put(root, "kernel/fs/ext4.ko.xz", "01234"));
	free(put(root, "kernel/fs/jbd2.ko.zst", "012"));
	free(put(root, "modules.dep", "kernel/fs/ext4.ko.xz: \n"));
	measure_modules(root, &n, &bytes);
	checkf("modules", n == 3 && bytes == 18, "%ld modules, %lld bytes "
	    "(want 3, 18)", n, bytes);
	p = xasprintf("%s/none", dir);
	measure_modules(p, &n, &bytes);
	checkf("modules-missing", n == -1 && bytes == -1, "%ld %lld", n,
	    bytes);
	free(p);
out:
	free(cmd);
	free(root);
}

/* y/m lines of a config, and the table with an unknown figure. */
static void
test_ym_table(void)
{
	struct measure	 m[2];
	struct strbuf	 sb;

	checkf("ym", measure_ym_text("# c\nCONFIG_A=y\nCONFIG_B=m\n"
	    "# CONFIG_C is not set\nCONFIG_D=\"y\"\nCONFIG_E=yes\n"
	    "CONFIG_F=m") == 3, "%ld", measure_ym_text("CONFIG_A=y\n"));
	measure_init(&m[0], "baseline");
	measure_init(&m[1], "trimmed");
	m[0].bzimage = 8247232;
	m[1].bzimage = 6345216;
	m[1].syscalls = 300;
	m[1].syscalls_from = "vmlinux";
	strbuf_init(&sb);
	measure_table(&sb, m, 2);
	check("table", strstr(sb.s, "| | baseline | trimmed |\n") != NULL &&
	    strstr(sb.s, "| bzImage bytes | 8247232 | 6345216 |") != NULL &&
	    strstr(sb.s, "| system calls compiled in | - | 300 (vmlinux) |")
	    != NULL && strstr(sb.s, "| y+m options | - | - |") != NULL, sb.s);
	strbuf_free(&sb);
}

int
main(void)
{
	char dir[] = "/tmp/kctui-measure-XXXXXX";

	if (!unit_tmpdir(dir))
		return 1;
	test_elf(dir);
	test_map(dir);
	test_modules(dir);
	test_ym_table();
	unit_rmtree(dir);
	return unit_failures != 0;
}
