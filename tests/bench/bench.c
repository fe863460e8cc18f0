/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.c - run two commands interleaved N times, report median wall time
 * and median peak RSS of each and the ratio B/A.
 *
 *   bench [-n N] [-w W] [-l LABEL] [-a NAME] [-b NAME] [-p PRE_A] [-q PRE_B]
 *         [-t TARGET] [-s] [-v] CMD_A CMD_B
 *
 * CMD_A, CMD_B, PRE_A, PRE_B are /bin/sh command lines.  CMD_x must be a
 * simple command (no "cd x &&", no pipes): it is run as "exec CMD" so the measured process is the command itself (with its
 * waited-for children: ru_maxrss from wait4 covers them).  PRE_x runs, not
 * timed, before every run of CMD_x (e.g. to restore an input file or wipe a
 * cache).  W untimed warm-up runs of each (default 1) come first.  Runs
 * alternate A B, B A, A B, ... so drift affects both equally.  The commands'
 * stdout/stderr go to /dev/null unless -v.
 *
 * Output, one line:
 *   LABEL: NAME_A 1.52 s 33.1 MB, NAME_B 0.71 s 12.0 MB, ratio 0.47 (target <= 0.5)
 * (MB = 2^20 bytes.)  Exit status 1 if a command failed, 2 with -s if the
 * ratio is above TARGET, else 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct sample {
	double	wall;	/* seconds */
	long	rss;	/* KiB */
};

static int verbose;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run "sh -c 'exec CMD'"; fill *s; return the exit status (-1: error). */
static int
run(const char *cmd, struct sample *s)
{
	size_t	len = strlen(cmd) + sizeof("exec ");
	char	*line = malloc(len);
	struct rusage ru;
	double	t0;
	pid_t	pid;
	int	status;

	if (!line)
		return -1;
	snprintf(line, len, "exec %s", cmd);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		free(line);
		return -1;
	}
	if (pid == 0) {
		if (!verbose) {
			int fd = open("/dev/null", O_RDWR);

			if (fd >= 0) {
				dup2(fd, 0);
				dup2(fd, 1);
				dup2(fd, 2);
				if (fd > 2)
					close(fd);
			}
		}
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("bench: wait4");
			free(line);
			return -1;
		}
	}
	s->wall = now() - t0;
	s->rss = ru.ru_maxrss;
	free(line);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int
pre(const char *cmd)
{
	int st;

	if (!cmd)
		return 0;
	st = system(cmd);
	if (st != 0) {
		fprintf(stderr, "bench: pre-command failed (%d): %s\n", st, cmd);
		return -1;
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void
medians(const struct sample *s, int n, double *wall, double *rss_mb)
{
	double	*w = malloc(sizeof(*w) * (size_t)n);
	long	*r = malloc(sizeof(*r) * (size_t)n);
	int	i;

	if (!w || !r) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		w[i] = s[i].wall;
		r[i] = s[i].rss;
	}
	qsort(w, (size_t)n, sizeof(*w), cmp_double);
	qsort(r, (size_t)n, sizeof(*r), cmp_long);
	if (n % 2) {
		*wall = w[n / 2];
		*rss_mb = (double)r[n / 2] / 1024.0;
	} else {
		*wall = (w[n / 2 - 1] + w[n / 2]) / 2;
		*rss_mb = (double)(r[n / 2 - 1] + r[n / 2]) / 2 / 1024.0;
	}
	free(w);
	free(r);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: bench [-n N] [-w W] [-l LABEL] [-a NAME] [-b NAME] [-p PRE_A] [-q PRE_B]\n"
	    "             [-t TARGET] [-s] [-v] CMD_A CMD_B\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	const char *label = "bench", *name[2] = { "A", "B" }, *prec[2] = { NULL, NULL };
	const char *cmd[2];
	double	target = 0, wall[2], rss[2], ratio;
	struct sample *s[2];
	int	n = 7, warm = 1, strict = 0, c, i, k, failed = 0;

	while ((c = getopt(argc, argv, "n:w:l:a:b:p:q:t:sv")) != -1) {
		switch (c) {
		case 'n': n = atoi(optarg); break;
		case 'w': warm = atoi(optarg); break;
		case 'l': label = optarg; break;
		case 'a': name[0] = optarg; break;
		case 'b': name[1] = optarg; break;
		case 'p': prec[0] = optarg; break;
		case 'q': prec[1] = optarg; break;
		case 't': target = atof(optarg); break;
		case 's': strict = 1; break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 2 || n < 1 || warm < 0)
		usage();
	cmd[0] = argv[optind];
	cmd[1] = argv[optind + 1];
	s[0] = calloc((size_t)n, sizeof(struct sample));
	s[1] = calloc((size_t)n, sizeof(struct sample));
	if (!s[0] || !s[1])
		return 1;

	for (i = 0; i < warm; i++) {
		for (k = 0; k < 2; k++) {
			struct sample dummy;
			int st;

			if (pre(prec[k]) < 0)
				return 1;
			st = run(cmd[k], &dummy);
			if (st != 0) {
				fprintf(stderr, "bench: %s failed (status %d): %.300s%s\n", name[k], st,
				    cmd[k], strlen(cmd[k]) > 300 ? "..." : "");
				return 1;
			}
		}
	}
	for (i = 0; i < n; i++) {
		int j;

		for (j = 0; j < 2; j++) {
			int st;

			k = (i % 2) ? 1 - j : j;
			if (pre(prec[k]) < 0)
				return 1;
			st = run(cmd[k], &s[k][i]);
			if (st != 0) {
				fprintf(stderr, "bench: %s failed (status %d): %.300s%s\n", name[k], st,
				    cmd[k], strlen(cmd[k]) > 300 ? "..." : "");
				failed = 1;
			}
			if (verbose)
				fprintf(stderr, "bench: %s run %d: %.3f s %ld KiB\n",
				    name[k], i + 1, s[k][i].wall, s[k][i].rss);
		}
	}
	medians(s[0], n, &wall[0], &rss[0]);
	medians(s[1], n, &wall[1], &rss[1]);
	ratio = wall[0] > 0 ? wall[1] / wall[0] : 0;
	printf("%s: %s %.2f s %.1f MB, %s %.2f s %.1f MB, ratio %.2f",
	    label, name[0], wall[0], rss[0], name[1], wall[1], rss[1], ratio);
	if (target > 0)
		printf(" (target <= %g%s)", target, ratio <= target ? "" : ", MISSED");
	printf("\n");
	fflush(stdout);
	free(s[0]);
	free(s[1]);
	if (failed)
		return 1;
	if (strict && target > 0 && ratio > target)
		return 2;
	return 0;
}
