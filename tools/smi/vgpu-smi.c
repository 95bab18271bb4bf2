// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-smi - the nvidia-smi of vGPU: what each /dev/vgpuN holds and does.
 *
 *   vgpu-smi                          the table: devices, memory, engine
 *                                     utilization, processes
 *   vgpu-smi -q                       every value, one per line
 *   vgpu-smi --query-gpu=index,memory.used --format=csv[,noheader][,nounits]
 *   vgpu-smi --query-compute-apps=pid,process_name,used_memory --format=csv
 *   vgpu-smi -l [SEC]                 again every SEC seconds (default 1)
 *   vgpu-smi -i N                     device N only
 *   vgpu-smi -c MODE                  set the compute mode (root): default,
 *                                     exclusive_process, prohibited or 0/3/2
 *
 * Everything comes from the driver: /sys/class/misc/vgpuN/ (memory,
 * contexts, queues, firmware state, compute mode where the driver has it)
 * and /sys/kernel/debug/vgpu/vgpuN/ (queues with their read and write
 * pointers, contexts with their pids, memory objects with their owners;
 * root only).  Utilization is sampled as nvidia-smi samples it: the share
 * of 20 looks over 200 ms at which an engine had a packet pending (its
 * queues' write pointer ahead of the read pointer).  VGPU_SMI_SYSFS and
 * VGPU_SMI_DEBUGFS name other directories (the tests' fixtures).
 *
 * Exit status: 0, 2 for a bad option or field, 6 when no device is found
 * (nvidia-smi's "No devices were found"), 4 when setting the compute
 * mode is refused (no permission), 3 when the driver has no compute mode.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVS	16
#define MAX_PROCS	64
#define MiB		(1024.0 * 1024.0)

struct proc {
	int pid;
	unsigned int contexts;
	unsigned long long bytes;	/* memory objects it owns */
	char name[64];
};

struct dev {
	int index;
	char name[16];			/* vgpuN */
	unsigned long long vram_total, vram_used, vram_resident;
	unsigned long long gart_total, gart_used, pinned_pages;
	unsigned long long contexts, queues;
	char firmware[32], compute_mode[32];
	bool have_debugfs;
	double util_gr, util_ce;	/* percent, -1: unknown */
	unsigned long long packets;	/* completed, all queues */
	struct proc procs[MAX_PROCS];
	int nprocs;
};

static const char *sysfs_root = "/sys/class/misc";
static const char *debugfs_root = "/sys/kernel/debug/vgpu";

static bool read_text(const char *dir, const char *name, const char *file,
		      char *buf, size_t cap)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return true;
}

static unsigned long long read_u64(const char *name, const char *file)
{
	char buf[64];

	return read_text(sysfs_root, name, file, buf, sizeof(buf)) ?
	       strtoull(buf, NULL, 10) : 0;
}

/* One look at debugfs queues: is each engine busy; packets completed. */
static bool sample_queues(const char *name, bool *gr, bool *ce,
			  unsigned long long *completed)
{
	static char buf[1 << 16];
	char *line, *save = NULL;

	*gr = *ce = false;
	*completed = 0;
	if (!read_text(debugfs_root, name, "queues", buf, sizeof(buf)))
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int id, ctx, ring, err;
		unsigned long long wptr, rptr, done;
		char engine[16];

		if (sscanf(line, "%u %u %15s %u %llu %llu %llu %u", &id, &ctx,
			   engine, &ring, &wptr, &rptr, &done, &err) != 8)
			continue;
		*completed += done;
		if (wptr != rptr) {
			if (!strcmp(engine, "compute"))
				*gr = true;
			else
				*ce = true;
		}
	}
	return true;
}

static struct proc *proc_of(struct dev *d, int pid)
{
	for (int i = 0; i < d->nprocs; i++)
		if (d->procs[i].pid == pid)
			return &d->procs[i];
	if (d->nprocs == MAX_PROCS)
		return NULL;
	d->procs[d->nprocs] = (struct proc){ .pid = pid };
	return &d->procs[d->nprocs++];
}

/* Processes: contexts from debugfs mappings, memory from objects. */
static void read_procs(struct dev *d)
{
	static char buf[1 << 20];
	char *line, *save = NULL, path[64];

	if (read_text(debugfs_root, d->name, "mappings", buf, sizeof(buf))) {
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			unsigned int ctx;
			int pid;
			struct proc *p;

			if (sscanf(line, "context %u (pid %d)", &ctx, &pid) == 2 &&
			    (p = proc_of(d, pid)))
				p->contexts++;
		}
	}
	save = NULL;
	if (read_text(debugfs_root, d->name, "objects", buf, sizeof(buf))) {
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char kind[16], where[64];
			unsigned long long size;
			int pid;
			struct proc *p;

			if (sscanf(line, "%15s %llu %63s %d", kind, &size, where,
				   &pid) == 4 && pid > 0 && (p = proc_of(d, pid)))
				p->bytes += size;
		}
	}
	for (int i = 0; i < d->nprocs; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", d->procs[i].pid);
		strcpy(d->procs[i].name, "?");
		f = fopen(path, "r");
		if (f) {
			if (fgets(d->procs[i].name, sizeof(d->procs[i].name), f))
				d->procs[i].name[strcspn(d->procs[i].name,
							 "\n")] = 0;
			fclose(f);
		}
	}
}

static void read_dev(struct dev *d, bool sample)
{
	unsigned long long done;
	bool gr, ce;
	int busy_gr = 0, busy_ce = 0, looks = 0;

	d->vram_total = read_u64(d->name, "vram_total_bytes");
	d->vram_used = read_u64(d->name, "vram_used_bytes");
	d->vram_resident = read_u64(d->name, "vram_resident_bytes");
	d->gart_total = read_u64(d->name, "gart_entries");
	d->gart_used = read_u64(d->name, "gart_entries_used");
	d->pinned_pages = read_u64(d->name, "pinned_pages");
	d->contexts = read_u64(d->name, "contexts");
	d->queues = read_u64(d->name, "queues");
	if (!read_text(sysfs_root, d->name, "firmware", d->firmware,
		       sizeof(d->firmware)))
		strcpy(d->firmware, "?");
	if (!read_text(sysfs_root, d->name, "compute_mode", d->compute_mode,
		       sizeof(d->compute_mode)))
		strcpy(d->compute_mode, "N/A");
	d->util_gr = d->util_ce = -1;
	d->have_debugfs = sample_queues(d->name, &gr, &ce, &d->packets);
	if (d->have_debugfs && sample) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		for (looks = 0; looks < 20; looks++) {
			if (looks)
				nanosleep(&ts, NULL);
			if (!sample_queues(d->name, &gr, &ce, &done))
				break;
			busy_gr += gr;
			busy_ce += ce;
		}
		if (looks) {
			d->util_gr = 100.0 * busy_gr / looks;
			d->util_ce = 100.0 * busy_ce / looks;
		}
	}
	d->nprocs = 0;
	if (d->have_debugfs)
		read_procs(d);
}

static int cmp_name(const void *a, const void *b)
{
	return ((const struct dev *)a)->index - ((const struct dev *)b)->index;
}

static int find_devs(struct dev *devs, int only)
{
	DIR *dir = opendir(sysfs_root);
	struct dirent *e;
	int n = 0;

	if (!dir)
		return 0;
	while ((e = readdir(dir)) && n < MAX_DEVS) {
		int idx;
		char rest;

		if (sscanf(e->d_name, "vgpu%d%c", &idx, &rest) != 1 || idx < 0)
			continue;
		if (only >= 0 && idx != only)
			continue;
		memset(&devs[n], 0, sizeof(devs[n]));
		devs[n].index = idx;
		snprintf(devs[n].name, sizeof(devs[n].name), "vgpu%d", idx);
		n++;
	}
	closedir(dir);
	qsort(devs, (size_t)n, sizeof(*devs), cmp_name);
	return n;
}

static void pct(char *buf, size_t cap, double v)
{
	if (v < 0)
		snprintf(buf, cap, "N/A");
	else
		snprintf(buf, cap, "%.0f %%", v);
}

/* A row of three cells, or of one: the table is 79 columns wide. */
static void row3(const char *a, const char *b, const char *c)
{
	printf("|%-31.31s|%-22.22s|%-22.22s|\n", a, b, c);
}

static void row1(const char *a)
{
	printf("|%-77.77s|\n", a);
}

static void print_table(struct dev *devs, int n)
{
	static const char bar[] = "+-----------------------------------------"
				  "------------------------------------+";
	static const char sep[] = "+-------------------------------+"
				  "----------------------+----------------------+";
	char tm[64], gr[16], ce[16], a[128], b[64], c[64];
	time_t now = time(NULL);
	int procs = 0;

	strftime(tm, sizeof(tm), "%a %b %e %H:%M:%S %Y", localtime(&now));
	printf("%s\n%s\n", tm, bar);
	row1(" VGPU-SMI      driver: vgpu.ko      firmware: vgpu-fw");
	printf("%s\n", sep);
	row3(" GPU  Name        Firmware", "         Memory-Usage", " GR-Util   CE-Util");
	row3("      Compute M.  Contexts  Qs", "  Pinned pg   GART pg", " Packets done");
	printf("|===============================+======================+======================|\n");
	for (int i = 0; i < n; i++) {
		struct dev *d = &devs[i];

		pct(gr, sizeof(gr), d->util_gr);
		pct(ce, sizeof(ce), d->util_ce);
		snprintf(a, sizeof(a), " %3d  %-11s %s", d->index, d->name,
			 d->firmware);
		snprintf(b, sizeof(b), " %5lluMiB / %6lluMiB ",
			 (unsigned long long)(d->vram_used / MiB),
			 (unsigned long long)(d->vram_total / MiB));
		snprintf(c, sizeof(c), " %-9s %s", gr, ce);
		row3(a, b, c);
		snprintf(a, sizeof(a), "      %-11.11s %8llu %3llu",
			 d->compute_mode, d->contexts, d->queues);
		snprintf(b, sizeof(b), " %10llu %9llu", d->pinned_pages,
			 d->gart_used);
		snprintf(c, sizeof(c), " %llu", d->packets);
		row3(a, b, c);
		printf("%s\n", sep);
	}
	printf("\n%s\n", bar);
	row1(" Processes:");
	row1("  GPU        PID  Contexts  Process name                 GPU Memory Usage");
	printf("|=============================================================================|\n");
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < devs[i].nprocs; j++) {
			struct proc *p = &devs[i].procs[j];

			snprintf(a, sizeof(a),
				 "  %3d %10d  %8u  %-28.28s %12lluMiB",
				 devs[i].index, p->pid, p->contexts, p->name,
				 (unsigned long long)(p->bytes / MiB));
			row1(a);
			procs++;
		}
		if (!devs[i].have_debugfs) {
			row1("  (processes need debugfs: run as root)");
			procs++;
		}
	}
	if (!procs)
		row1("  No running processes found");
	printf("%s\n", bar);
}

static void print_query(struct dev *devs, int n)
{
	char gr[16], ce[16];

	printf("==============VGPU-SMI LOG==============\n\n");
	printf("Attached GPUs                         : %d\n", n);
	for (int i = 0; i < n; i++) {
		struct dev *d = &devs[i];

		pct(gr, sizeof(gr), d->util_gr);
		pct(ce, sizeof(ce), d->util_ce);
		printf("GPU %d\n", d->index);
		printf("    Product Name                      : vGPU\n");
		printf("    Device                            : /dev/%s\n", d->name);
		printf("    Firmware                          : %s\n", d->firmware);
		printf("    Compute Mode                      : %s\n", d->compute_mode);
		printf("    FB Memory Usage\n");
		printf("        Total                         : %llu MiB\n",
		       (unsigned long long)(d->vram_total / MiB));
		printf("        Used                          : %llu MiB\n",
		       (unsigned long long)(d->vram_used / MiB));
		printf("        Free                          : %llu MiB\n",
		       (unsigned long long)(d->vram_total / MiB) -
		       (unsigned long long)(d->vram_used / MiB));
		printf("        Resident                      : %.0f MiB\n", d->vram_resident / MiB);
		printf("    GART\n");
		printf("        Total                         : %llu pages\n", d->gart_total);
		printf("        Used                          : %llu pages\n", d->gart_used);
		printf("        Pinned                        : %llu pages\n", d->pinned_pages);
		printf("    Contexts                          : %llu\n", d->contexts);
		printf("    Queues                            : %llu\n", d->queues);
		printf("    Utilization\n");
		printf("        GR                            : %s\n", gr);
		printf("        CE                            : %s\n", ce);
		printf("        Packets completed             : %llu\n", d->packets);
		printf("    Processes                         : %s\n",
		       d->have_debugfs ? (d->nprocs ? "" : "None") : "N/A (debugfs)");
		for (int j = 0; j < d->nprocs; j++) {
			printf("        Process ID                    : %d\n", d->procs[j].pid);
			printf("            Name                      : %s\n", d->procs[j].name);
			printf("            Contexts                  : %u\n", d->procs[j].contexts);
			printf("            Used GPU Memory           : %.0f MiB\n",
			       d->procs[j].bytes / MiB);
		}
	}
}

/* --format=csv[,noheader][,nounits] */
struct fmt {
	bool header, units;
};

/* A query field: its name, its unit, and how to print it. */
struct field {
	const char *name, *unit;
	int kind;
};

enum { F_INDEX, F_NAME, F_MTOTAL, F_MUSED, F_MFREE, F_UGR, F_UCE, F_CTX,
       F_QUEUES, F_FW, F_CMODE, F_PINNED, F_GTOTAL, F_GUSED, F_PACKETS };
static const struct field gpu_fields[] = {
	{ "index", NULL, F_INDEX }, { "name", NULL, F_NAME },
	{ "memory.total", "MiB", F_MTOTAL }, { "memory.used", "MiB", F_MUSED },
	{ "memory.free", "MiB", F_MFREE },
	{ "utilization.gpu", "%", F_UGR }, { "utilization.copy", "%", F_UCE },
	{ "contexts", NULL, F_CTX }, { "queues", NULL, F_QUEUES },
	{ "firmware", NULL, F_FW }, { "compute_mode", NULL, F_CMODE },
	{ "pinned_pages", NULL, F_PINNED }, { "gart.total", NULL, F_GTOTAL },
	{ "gart.used", NULL, F_GUSED }, { "packets.completed", NULL, F_PACKETS },
};
#define NGPU_FIELDS (sizeof(gpu_fields) / sizeof(gpu_fields[0]))

enum { A_PID, A_NAME, A_MEM, A_GPU, A_CTX };
static const struct field app_fields[] = {
	{ "pid", NULL, A_PID }, { "process_name", NULL, A_NAME },
	{ "used_memory", "MiB", A_MEM }, { "gpu_index", NULL, A_GPU },
	{ "contexts", NULL, A_CTX },
};
#define NAPP_FIELDS (sizeof(app_fields) / sizeof(app_fields[0]))

/* Split @list at commas into fields of @table; -1 for an unknown one. */
static int parse_fields(char *list, const struct field *table, size_t n,
			const struct field **out, int max)
{
	char *save = NULL, *tok;
	int k = 0;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		while (*tok == ' ')
			tok++;
		for (i = 0; i < n && strcmp(table[i].name, tok); i++)
			;
		if (i == n) {
			fprintf(stderr, "Field \"%s\" is not a valid field to "
				"query.\n", tok);
			return -1;
		}
		if (k == max)
			return -1;
		out[k++] = &table[i];
	}
	return k;
}

static void header(const struct field **f, int n, const struct fmt *fm)
{
	if (!fm->header)
		return;
	for (int i = 0; i < n; i++) {
		printf("%s%s", i ? ", " : "", f[i]->name);
		if (f[i]->unit && fm->units)
			printf(" [%s]", f[i]->unit);
	}
	printf("\n");
}

static void value_u(unsigned long long v, const struct field *f,
		    const struct fmt *fm)
{
	printf("%llu", v);
	if (f->unit && fm->units)
		printf(" %s", f->unit);
}

static void query_gpu(struct dev *devs, int n, const struct field **f,
		      int nf, const struct fmt *fm)
{
	header(f, nf, fm);
	for (int i = 0; i < n; i++) {
		struct dev *d = &devs[i];

		for (int j = 0; j < nf; j++) {
			double u;

			if (j)
				printf(", ");
			switch (f[j]->kind) {
			case F_INDEX: printf("%d", d->index); break;
			case F_NAME: printf("vGPU %s", d->name); break;
			case F_MTOTAL:
				value_u((unsigned long long)(d->vram_total / MiB), f[j], fm);
				break;
			case F_MUSED:
				value_u((unsigned long long)(d->vram_used / MiB), f[j], fm);
				break;
			case F_MFREE:
				/* in whole MiB, so that used + free = total */
				value_u((unsigned long long)(d->vram_total / MiB) -
					(unsigned long long)(d->vram_used / MiB),
					f[j], fm);
				break;
			case F_UGR:
			case F_UCE:
				u = f[j]->kind == F_UGR ? d->util_gr : d->util_ce;
				if (u < 0)
					printf("[N/A]");
				else
					value_u((unsigned long long)(u + 0.5), f[j], fm);
				break;
			case F_CTX: printf("%llu", d->contexts); break;
			case F_QUEUES: printf("%llu", d->queues); break;
			case F_FW: printf("%s", d->firmware); break;
			case F_CMODE: printf("%s", d->compute_mode); break;
			case F_PINNED: printf("%llu", d->pinned_pages); break;
			case F_GTOTAL: printf("%llu", d->gart_total); break;
			case F_GUSED: printf("%llu", d->gart_used); break;
			case F_PACKETS: printf("%llu", d->packets); break;
			}
		}
		printf("\n");
	}
}

static void query_apps(struct dev *devs, int n, const struct field **f,
		       int nf, const struct fmt *fm)
{
	header(f, nf, fm);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < devs[i].nprocs; k++) {
			struct proc *p = &devs[i].procs[k];

			for (int j = 0; j < nf; j++) {
				if (j)
					printf(", ");
				switch (f[j]->kind) {
				case A_PID: printf("%d", p->pid); break;
				case A_NAME: printf("%s", p->name); break;
				case A_MEM:
					value_u((unsigned long long)(p->bytes / MiB), f[j], fm);
					break;
				case A_GPU: printf("%d", devs[i].index); break;
				case A_CTX: printf("%u", p->contexts); break;
				}
			}
			printf("\n");
		}
	}
}

static int set_compute_mode(struct dev *devs, int n, const char *mode)
{
	static const char *const names[] = {
		"default", "DEFAULT", "0", "exclusive_process",
		"EXCLUSIVE_PROCESS", "3", "prohibited", "PROHIBITED", "2",
	};
	const char *canon = NULL;
	int rc = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(mode, names[i]))
			canon = names[i / 3 * 3];
	if (!canon) {
		fprintf(stderr, "vgpu-smi: invalid compute mode '%s' (default, "
			"exclusive_process, prohibited or 0, 3, 2)\n", mode);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s/compute_mode", sysfs_root,
			 devs[i].name);
		if (access(path, F_OK)) {
			fprintf(stderr, "vgpu-smi: %s: the driver has no compute "
				"mode\n", devs[i].name);
			rc = 3;
			continue;
		}
		f = fopen(path, "w");
		if (!f || fputs(canon, f) < 0 || fclose(f)) {
			fprintf(stderr, "vgpu-smi: %s: setting the compute mode: "
				"%s\n", devs[i].name, strerror(errno));
			rc = 4;
			continue;
		}
		printf("Set compute mode to %s for GPU %d.\n", canon,
		       devs[i].index);
	}
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vgpu-smi [-i N] [-q] [-l [SEC]] [-c MODE]\n"
		"       [--query-gpu=FIELDS | --query-compute-apps=FIELDS] "
		"[--format=csv[,noheader][,nounits]]\n"
		"query-gpu fields:");
	for (size_t i = 0; i < NGPU_FIELDS; i++)
		fprintf(f, " %s", gpu_fields[i].name);
	fprintf(f, "\nquery-compute-apps fields:");
	for (size_t i = 0; i < NAPP_FIELDS; i++)
		fprintf(f, " %s", app_fields[i].name);
	fprintf(f, "\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "query-gpu", required_argument, NULL, 'G' },
		{ "query-compute-apps", required_argument, NULL, 'A' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "id", required_argument, NULL, 'i' },
		{ "loop", optional_argument, NULL, 'l' },
		{ "query", no_argument, NULL, 'q' },
		{ "compute-mode", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	static struct dev devs[MAX_DEVS];
	const struct field *fields[32];
	char *gpu_q = NULL, *app_q = NULL, *mode = NULL;
	struct fmt fm = { true, true };
	bool csv = false, query = false;
	int only = -1, loop = 0, nf = 0, n, c;

	if (getenv("VGPU_SMI_SYSFS"))
		sysfs_root = getenv("VGPU_SMI_SYSFS");
	if (getenv("VGPU_SMI_DEBUGFS"))
		debugfs_root = getenv("VGPU_SMI_DEBUGFS");
	while ((c = getopt_long(argc, argv, "hi:l::qc:", opts, NULL)) != -1) {
		switch (c) {
		case 'G': gpu_q = optarg; break;
		case 'A': app_q = optarg; break;
		case 'F': {
			char *save = NULL, *tok;

			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				while (*tok == ' ')
					tok++;
				if (!strcmp(tok, "csv"))
					csv = true;
				else if (!strcmp(tok, "noheader"))
					fm.header = false;
				else if (!strcmp(tok, "nounits"))
					fm.units = false;
				else {
					fprintf(stderr, "vgpu-smi: unknown "
						"format '%s'\n", tok);
					return 2;
				}
			}
			break;
		}
		case 'i': only = atoi(optarg); break;
		case 'l':
			/* nvidia-smi's "-l 5": the seconds may be apart */
			if (!optarg && optind < argc &&
			    isdigit((unsigned char)argv[optind][0]))
				optarg = argv[optind++];
			loop = optarg ? atoi(optarg) : 1;
			if (loop <= 0) {
				fprintf(stderr, "vgpu-smi: bad loop interval\n");
				return 2;
			}
			break;
		case 'q': query = true; break;
		case 'c': mode = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || (gpu_q && app_q) || ((gpu_q || app_q) && !csv)) {
		usage(stderr);
		if ((gpu_q || app_q) && !csv)
			fprintf(stderr, "vgpu-smi: --query-* needs "
				"--format=csv\n");
		return 2;
	}
	if (gpu_q && (nf = parse_fields(gpu_q, gpu_fields, NGPU_FIELDS, fields,
					32)) <= 0)
		return 2;
	if (app_q && (nf = parse_fields(app_q, app_fields, NAPP_FIELDS, fields,
					32)) <= 0)
		return 2;
	n = find_devs(devs, only);
	if (!n) {
		printf("No devices were found\n");
		return 6;
	}
	if (mode)
		return set_compute_mode(devs, n, mode);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		for (int i = 0; i < n; i++)
			read_dev(&devs[i], !app_q);
		if (gpu_q)
			query_gpu(devs, n, fields, nf, &fm);
		else if (app_q)
			query_apps(devs, n, fields, nf, &fm);
		else if (query)
			print_query(devs, n);
		else
			print_table(devs, n);
		if (!loop)
			return 0;
		fflush(stdout);
		sleep((unsigned int)loop);
	}
}
