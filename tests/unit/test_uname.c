/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_uname.c - the release of a bundle's uname file as the evidence
 * reads it (evidence_uname_release), which verify's baseline takes for
 * the package to fetch and the lib/modules directory to boot: the
 * cloud-vm bundle's own file, blank lines first, too few words, and
 * releases that are no directory name.
 */
#include <stdlib.h>
#include <string.h>

#include "../../core/evidence/evidence.h"

#define UNIT_PREFIX "unit/uname/"
#include "unit.h"

/* Whether text gives release want (NULL: none). */
static void
expect(const char *name, const char *text, const char *want)
{
	char	*got = evidence_uname_release(text);

	checkf(name, want == NULL ? got == NULL : got != NULL &&
	    strcmp(got, want) == 0, "got %s, want %s", got ? got : "none",
	    want ? want : "none");
	free(got);
}

int
main(void)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	unit_read_file("tests/fixtures/evidence/cloud-vm/uname", &sb);
	expect("fixture", sb.s, "6.1.0-57-amd64");
	expect("blank-first", "\n  \nLinux h 6.12.9-amd64 #1 SMP\n",
	    "6.12.9-amd64");
	expect("two-words", "Linux host\n", NULL);
	expect("empty", "", NULL);
	expect("slash", "Linux h ../../etc #1\n", NULL);
	expect("dotdot", "Linux h .. #1\n", NULL);
	expect("dot", "Linux h . #1\n", NULL);
	strbuf_free(&sb);
	return unit_failures != 0;
}
