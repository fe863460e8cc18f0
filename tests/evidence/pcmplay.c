/* pcmplay: play a short tone through ALSA, for the desktop-like recording
 * VM and for kctui verify's guest.
 *
 * Usage: pcmplay [SECONDS]   (default 1)
 *
 * Opens the first playback PCM /dev/snd/pcmC*D*p and plays a 440 Hz
 * square wave, S16_LE, 2 channels, 48 kHz, through the kernel's raw PCM
 * ioctls (hw_params, prepare, writei, drain): no alsa-lib in the
 * initramfs, and the kernel path is the one any ALSA program takes
 * (snd_pcm, the HDA controller's DMA, the codec). QEMU's "none" audiodev
 * consumes the samples at the stream's rate, so the drain takes real
 * time. Prints the device, the parameters the driver chose and the
 * frames written; exits non-zero on any failure. Built static; runs
 * inside the guest only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sound/asound.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define RATE		48000
#define CHANNELS	2

/* The first playback PCM node under /dev/snd, into path. */
static int
pcm_find(char *path, size_t len)
{
	struct dirent *de;
	DIR *d = opendir("/dev/snd");
	int found = 0;

	if (d == NULL) {
		perror("/dev/snd");
		return -1;
	}
	while (!found && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (strncmp(de->d_name, "pcmC", 4) == 0 && n > 5 &&
		    de->d_name[n - 1] == 'p') {
			snprintf(path, len, "/dev/snd/%s", de->d_name);
			found = 1;
		}
	}
	closedir(d);
	if (!found)
		fprintf(stderr, "no playback PCM in /dev/snd\n");
	return found ? 0 : -1;
}

/* Every value allowed: the driver's refine narrows from here. */
static void
params_any(struct snd_pcm_hw_params *p)
{
	int i;

	memset(p, 0, sizeof *p);
	for (i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_MASK -
	    SNDRV_PCM_HW_PARAM_FIRST_MASK; i++)
		memset(&p->masks[i], 0xff, sizeof p->masks[i]);
	for (i = 0; i <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL -
	    SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; i++) {
		p->intervals[i].min = 0;
		p->intervals[i].max = UINT_MAX;
	}
	p->rmask = ~0U;
	p->info = ~0U;
}

/* One value of a mask parameter. */
static void
params_mask(struct snd_pcm_hw_params *p, int param, unsigned int v)
{
	struct snd_mask *m = &p->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];

	memset(m, 0, sizeof *m);
	m->bits[v / 32] = 1U << (v % 32);
}

/* One value of an interval parameter. */
static void
params_int(struct snd_pcm_hw_params *p, int param, unsigned int v)
{
	struct snd_interval *i =
	    &p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];

	i->min = i->max = v;
	i->integer = 1;
}

/* An interval parameter's chosen value. */
static unsigned int
params_get(const struct snd_pcm_hw_params *p, int param)
{
	return p->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL].min;
}

int
main(int argc, char **argv)
{
	struct snd_pcm_hw_params hw;
	struct snd_xferi x;
	char path[PATH_MAX];
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 1;
	unsigned long total, done = 0;
	short *buf;
	unsigned int period, i;
	int fd;

	if (seconds == 0 || seconds > 30) {
		fprintf(stderr, "usage: pcmplay [SECONDS 1..30]\n");
		return 2;
	}
	/* A stuck DMA must fail the step, not hang the guest. */
	alarm(seconds + 20);
	if (pcm_find(path, sizeof path) != 0)
		return 1;
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		perror(path);
		return 1;
	}
	params_any(&hw);
	params_mask(&hw, SNDRV_PCM_HW_PARAM_ACCESS,
	    SNDRV_PCM_ACCESS_RW_INTERLEAVED);
	params_mask(&hw, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE);
	params_mask(&hw, SNDRV_PCM_HW_PARAM_SUBFORMAT,
	    SNDRV_PCM_SUBFORMAT_STD);
	params_int(&hw, SNDRV_PCM_HW_PARAM_CHANNELS, CHANNELS);
	params_int(&hw, SNDRV_PCM_HW_PARAM_RATE, RATE);
	if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &hw) < 0) {
		perror("SNDRV_PCM_IOCTL_HW_PARAMS");
		return 1;
	}
	period = params_get(&hw, SNDRV_PCM_HW_PARAM_PERIOD_SIZE);
	printf("%s: rate %u channels %u period %u buffer %u frames\n", path,
	    params_get(&hw, SNDRV_PCM_HW_PARAM_RATE),
	    params_get(&hw, SNDRV_PCM_HW_PARAM_CHANNELS), period,
	    params_get(&hw, SNDRV_PCM_HW_PARAM_BUFFER_SIZE));
	if (period == 0 || period > RATE) {
		fprintf(stderr, "odd period size %u\n", period);
		return 1;
	}
	if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0) {
		perror("SNDRV_PCM_IOCTL_PREPARE");
		return 1;
	}
	if ((buf = malloc((size_t)period * CHANNELS * sizeof *buf)) == NULL)
		return 1;
	total = (unsigned long)seconds * RATE;
	while (done < total) {
		for (i = 0; i < period * CHANNELS; i++) {
			unsigned long t = done + i / CHANNELS;

			buf[i] = (t / (RATE / 880)) % 2 ? 8000 : -8000;
		}
		x.result = 0;
		x.buf = buf;
		x.frames = period;
		if (ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x) < 0) {
			if (errno == EPIPE) {
				/* an underrun: start again, as aplay does */
				if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0) {
					perror("SNDRV_PCM_IOCTL_PREPARE");
					return 1;
				}
				continue;
			}
			perror("SNDRV_PCM_IOCTL_WRITEI_FRAMES");
			return 1;
		}
		done += (unsigned long)x.result;
	}
	if (ioctl(fd, SNDRV_PCM_IOCTL_DRAIN) < 0) {
		perror("SNDRV_PCM_IOCTL_DRAIN");
		return 1;
	}
	printf("played %lu frames\n", done);
	free(buf);
	close(fd);
	return 0;
}
