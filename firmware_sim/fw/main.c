// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - vgpu-fw: the firmware of the vGPU, i.e. the GPU itself.
 *
 *   vgpu-fw [--daemon] [--syslog] [--sms N] [--poll-us N] [--timeslice-us N]
 *           [--pidfile FILE] [--tier interp|native] [DEVICE]...
 *
 * Attaches to every /dev/vgpuN (or the devices named), serves them until
 * SIGTERM or SIGINT, then detaches (the driver reports the device lost to
 * any client still running, and recovers when a firmware attaches again).
 * While it serves a device it sends the driver a heartbeat (heartbeat.c);
 * should the driver declare it hung and detach it, it shuts down.
 *
 * With --daemon the process forks; the parent waits until the child has
 * attached to every device and written its pid file, and only then exits
 * 0 (1 if the child failed), so a boot script or systemd (Type=forking)
 * can start clients right after it.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "fw.h"
#include "log.h"
#include "vgpu_jit.h"

#define FW_MAX_DEVICES		16
#define FW_DEFAULT_PIDFILE	"/run/vgpu-fw.pid"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgpu-fw [OPTION]... [DEVICE]...\n"
		"Serve the vGPU devices (default: every /dev/vgpuN).\n\n"
		"  --daemon         run in the background once attached\n"
		"  --pidfile FILE   with --daemon (default %s)\n"
		"  --syslog         log to syslog instead of stderr\n"
		"  --sms N          SM worker threads per device\n"
		"                   (default: the number of CPUs)\n"
		"  --poll-us N      poll idle doorbells this long before\n"
		"                   sleeping (default 100)\n"
		"  --timeslice-us N time slice of a GPU context on GR when\n"
		"                   others have grids to run (default %u)\n"
		"  --tier T         run kernels on the interpreter (interp)\n"
		"                   or as LLVM-compiled host code (native)\n"
		"                   (default: $VGPU_TIER, else %s)\n"
		"  -h, --help       this text\n", FW_DEFAULT_PIDFILE,
		VGPU_CORE_TIMESLICE_US, vgpu_jit_tier_name(VGPU_TIER_DEFAULT));
}

/* A number option in [@min, @max]; 0, or -1 after saying what is wrong. */
static int parse_uint(const char *name, const char *arg, unsigned long min,
		      unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || n < min || n > max) {
		fprintf(stderr, "vgpu-fw: %s wants a number from %lu to %lu, "
			"not '%s'\n", name, min, max, arg);
		return -1;
	}
	*out = (unsigned int)n;
	return 0;
}

/* The devices to serve: the arguments, or every /dev/vgpuN. */
static int find_devices(int argc, char **argv, char **paths)
{
	glob_t g;
	int n = 0;

	if (argc > 0) {
		for (int i = 0; i < argc && n < FW_MAX_DEVICES; i++)
			paths[n++] = strdup(argv[i]);
		return n;
	}
	if (glob("/dev/vgpu[0-9]*", 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc && n < FW_MAX_DEVICES; i++)
		paths[n++] = strdup(g.gl_pathv[i]);
	globfree(&g);
	return n;
}

/* Fork; the parent returns only to exit with the child's verdict. */
static int daemonize(int *notify_fd)
{
	int pfd[2];
	pid_t pid;
	char verdict = 1;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		close(pfd[1]);
		if (read(pfd[0], &verdict, 1) != 1)
			verdict = 1;
		_exit(verdict);
	}
	close(pfd[0]);
	setsid();
	if (chdir("/"))
		return -1;
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	*notify_fd = pfd[1];
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%d\n", (int)getpid());
	return fclose(f);
}

/*
 * Attach to the @ndev devices, report to a waiting parent (daemon mode),
 * serve until SIGTERM/SIGINT, detach.  Returns the exit status.
 */
static int serve(char **paths, int ndev, const struct fw_options *opt,
		 const char *pidfile)
{
	static struct fw_device devices[FW_MAX_DEVICES];
	int attached, notify_fd = -1, sig;
	char verdict = 0;
	sigset_t sigs;

	if (pidfile && daemonize(&notify_fd)) {
		fw_log_err("cannot daemonize: %s", strerror(errno));
		return 1;
	}

	fw_protect_from_oom();
	/* Signals are taken by sigwait() below, never by a worker thread. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (fw_aperture_install_handler()) {
		fw_log_err("cannot install the SIGBUS handler");
		verdict = 1;
	}

	for (attached = 0; !verdict && attached < ndev; attached++)
		if (fw_device_attach(&devices[attached], paths[attached], opt))
			break;
	if (!verdict && (attached < ndev || (pidfile && write_pidfile(pidfile)))) {
		if (attached == ndev)
			fw_log_err("cannot write %s: %s", pidfile,
				   strerror(errno));
		while (attached--)
			fw_device_detach(&devices[attached]);
		verdict = 1;
	}
	if (notify_fd >= 0) {
		if (write(notify_fd, &verdict, 1) != 1)
			verdict = 1;
		close(notify_fd);
	}
	if (verdict)
		return 1;

	do {
		if (sigwait(&sigs, &sig))
			sig = SIGTERM;
	} while (sig == SIGHUP);	/* nothing to reload */
	fw_log_info("signal %d: detaching", sig);
	while (attached--)
		fw_device_detach(&devices[attached]);
	if (pidfile)
		unlink(pidfile);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "daemon", no_argument, NULL, 'd' },
		{ "syslog", no_argument, NULL, 's' },
		{ "sms", required_argument, NULL, 'n' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "poll-us", required_argument, NULL, 'u' },
		{ "timeslice-us", required_argument, NULL, 't' },
		{ "tier", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct fw_options opt = { .poll_us = 100 };
	const char *pidfile = FW_DEFAULT_PIDFILE;
	bool daemon = false, use_syslog = false;
	char *paths[FW_MAX_DEVICES];
	int c, ndev, ret;
	long cpus;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			daemon = true;
			break;
		case 's':
			use_syslog = true;
			break;
		case 'n':
			if (parse_uint("--sms", optarg, 1, 1024, &opt.num_sms))
				return 2;
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 'u':
			if (parse_uint("--poll-us", optarg, 0, 1000000,
				       &opt.poll_us))
				return 2;
			break;
		case 't':
			if (parse_uint("--timeslice-us", optarg, 10, 10000000,
				       &opt.timeslice_us))
				return 2;
			break;
		case 'T':
			if (vgpu_jit_parse_tier(optarg) < 0) {
				fprintf(stderr, "vgpu-fw: --tier wants interp or "
					"native, not '%s'\n", optarg);
				return 2;
			}
			vgpu_jit_set_tier(vgpu_jit_parse_tier(optarg));
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!opt.num_sms) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		opt.num_sms = cpus > 0 ? (unsigned int)cpus : 1;
	}
	fw_log_init(use_syslog);
	/* never stall a launch on the compiler: the driver's watchdog */
	vgpu_jit_set_async(true);
	if (vgpu_jit_get_tier() == VGPU_TIER_NATIVE && vgpu_jit_init())
		vgpu_jit_set_tier(VGPU_TIER_INTERP);
	fw_log_info("kernels run on the %s tier",
		    vgpu_jit_tier_name(vgpu_jit_get_tier()));
	ndev = find_devices(argc - optind, argv + optind, paths);
	if (!ndev) {
		fw_log_err("no vgpu device found (is vgpu.ko loaded?)");
		return 1;
	}
	ret = serve(paths, ndev, &opt, daemon ? pidfile : NULL);
	for (int i = 0; i < ndev; i++)
		free(paths[i]);
	/*
	 * Everything is detached.  With the native tier, leave without
	 * libLLVM's global destructors: the background compile thread may
	 * still be inside LLVM (seen as a SIGSEGV after SIGTERM).
	 */
	if (vgpu_jit_get_tier() == VGPU_TIER_NATIVE) {
		fflush(NULL);
		_exit(ret);
	}
	return ret;
}
