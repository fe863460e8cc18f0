/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_verify_profiles.c - verify runs the steps of the profiles the
 * decisions keep (core/verify-session.c verify_profile_steps): the
 * cloud-vm bundle's own workload, a decisions file as `kctui need`
 * writes it (keeps naming containers, and containers with wireguard),
 * the shipped profiles. The two steps are appended after the bundle's
 * six, once each, and said; a workload that has the step already gets
 * nothing; a profile the decisions name that does not exist is said and
 * skipped; no decisions file, no step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/session.h"
#include "../../core/verify-session.h"
#include "../../core/machine/machine.h"

#define UNIT_PREFIX "unit/verify_profiles/"
#include "unit.h"

#define FIXTURE "tests/fixtures/evidence/cloud-vm"

/* The session's messages, one a line. */
static void
say(void *arg, const char *text)
{
	strbuf_addf(arg, "%s\n", text);
}

int
main(void)
{
	char		 tmp[] = "/tmp/kctui-vprof.XXXXXX";
	char		*dec, *cause = NULL;
	struct session	 s;
	struct workload	 wl;
	struct strbuf	 said;
	size_t		 added, i;
	bool		 ok;

	if (!unit_tmpdir(tmp))
		return 1;
	/* the shipped profiles, as kctui finds them beside itself */
	setenv("KCTUI_PROFILE_DIR", "profiles", 1);
	dec = xasprintf("%s/c.kctui-decisions", tmp);
	unit_write_file(dec,
	    "# kctui decisions\n"
	    "CONFIG_OVERLAY_FS keep  # need containers: the image layers\n"
	    "CONFIG_VETH keep  # need containers, wireguard: a veth pair\n"
	    "CONFIG_E1000 keep  # my laptop's card\n"
	    "CONFIG_NOSUCH keep  # need nosuch-profile: gone since\n"
	    "CONFIG_VIRTIO_NET trim  # need wireguard: not a keep\n");
	strbuf_init(&said);
	session_init(&s);
	s.say = say;
	s.say_arg = &said;
	session_set_decisions(&s, dec);

	if (workload_load(&wl, FIXTURE "/workload", &cause) != 0) {
		check("workload", 0, cause);
		return 1;
	}
	added = verify_profile_steps(&s, &wl);
	ok = added == 2 && wl.nsteps == 8 &&
	    strcmp(wl.steps[6], "containers") == 0 &&
	    strcmp(wl.steps[7], "wireguard") == 0 &&
	    strstr(wl.text, "\nstep containers need_containers\n") != NULL;
	checkf("appended", ok, "%zu added, %zu steps, said:\n%s", added,
	    wl.nsteps, said.s);
	checkf("said", strstr(said.s, "verify: step containers added to the "
	    "workload (the decisions keep the containers profile's options")
	    != NULL && strstr(said.s, "verify: the decisions name the "
	    "nosuch-profile profile, not run: no profile nosuch-profile") !=
	    NULL, "%s", said.s);
	/* the same again: the steps are there, nothing is added */
	strbuf_reset(&said);
	added = verify_profile_steps(&s, &wl);
	check("once", added == 0 && wl.nsteps == 8, said.s);
	workload_free(&wl);

	/* no decisions file: nothing */
	workload_load(&wl, FIXTURE "/workload", &cause);
	session_set_decisions(&s, "/nonexistent/c.kctui-decisions");
	added = verify_profile_steps(&s, &wl);
	check("no-decisions", added == 0 && wl.nsteps == 6, NULL);
	/* a step name the workload has (a bundle's own "containers") */
	strbuf_reset(&said);
	session_set_decisions(&s, dec);
	workload_free(&wl);
	i = 0;
	ok = workload_load(&wl, FIXTURE "/workload", &cause) == 0 &&
	    workload_append(&wl, "step containers true\n", &cause) == 0;
	added = ok ? verify_profile_steps(&s, &wl) : 0;
	for (i = 0; ok && i < wl.nsteps; i++)
		ok = i == 6 || strcmp(wl.steps[i], "containers") != 0;
	checkf("has-step", ok && added == 1 && wl.nsteps == 8 &&
	    strcmp(wl.steps[7], "wireguard") == 0, "%zu added: %s", added,
	    said.s);
	/* a duplicate step name in appended text is refused, unchanged */
	cause = NULL;
	checkf("append-duplicate", workload_append(&wl, "step ext4 true\n",
	    &cause) != 0 && wl.nsteps == 8 && cause != NULL &&
	    strstr(cause, "ext4 given twice") != NULL, "%s",
	    cause != NULL ? cause : "accepted");
	free(cause);
	workload_free(&wl);
	session_free(&s);
	strbuf_free(&said);
	free(dec);
	unit_rmtree(tmp);
	return unit_failures != 0;
}
