// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-fatbin: list the device code in a CUDA binary and extract its PTX,
 * like NVIDIA's `cuobjdump -lptx / -xptx`.
 *
 * Accepts executables, shared libraries and objects (the .nv_fatbin and
 * __nv_relfatbin sections are read) and standalone .fatbin files.  With
 * --sm it shows only the PTX our driver would compile for such a device.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fatbin/elf_sections.h"
#include "fatbin/fatbin.h"

enum action { ACTION_LIST, ACTION_PRINT, ACTION_EXTRACT };

struct options {
	enum action action;
	const char *output_dir;
	int select;			/* --sm given */
	struct vgpu_fatbin_target target;
};

/* State for one input file. */
struct input {
	const struct options *opt;
	const char *path;
	unsigned int ptx_count;		/* numbers extracted files */
	int listed_header;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: vgpu-fatbin [OPTION]... FILE...\n"
		"List the device code entries of CUDA executables, shared libraries,\n"
		"objects and .fatbin files, and extract their PTX.\n\n"
		"  -l, --list             list the entries (the default)\n"
		"  -p, --print-ptx        write the PTX entries to standard output\n"
		"  -x, --extract-ptx      write each PTX entry to FILE.N.compute_XX.ptx\n"
		"  -o, --output-dir=DIR   directory for --extract-ptx (default: .)\n"
		"  -s, --sm=ARCH          only the PTX a device of compute capability\n"
		"                         ARCH (90, sm_90, 9.0) would load\n"
		"  -i, --isa=X.Y          with --sm: newest PTX ISA version accepted\n"
		"  -h, --help             show this help\n\n"
		"Exit status: 0 on success, 1 if a file could not be read, 2 on\n"
		"usage errors.\n");
}

static const char *kind_name(enum vgpu_fatbin_kind kind)
{
	switch (kind) {
	case VGPU_FATBIN_KIND_PTX:
		return "PTX";
	case VGPU_FATBIN_KIND_ELF:
		return "ELF";
	case VGPU_FATBIN_KIND_LTOIR:
		return "LTOIR";
	}
	return "?";
}

static const char *compression_name(enum vgpu_fatbin_compression c)
{
	switch (c) {
	case VGPU_FATBIN_COMPRESS_NONE:
		return "none";
	case VGPU_FATBIN_COMPRESS_ZSTD:
		return "zstd";
	case VGPU_FATBIN_COMPRESS_LZ4:
		return "lz4";
	}
	return "?";
}

/* "compute_90a" for PTX, "sm_90a" for cubins: nvcc's spelling. */
static void arch_name(const struct vgpu_fatbin_entry *e, char *buf, size_t len)
{
	const char *suffix = e->scope == VGPU_FATBIN_SCOPE_EXACT ? "a" :
			     e->scope == VGPU_FATBIN_SCOPE_FAMILY ? "f" : "";

	snprintf(buf, len, "%s_%u%s",
		 e->kind == VGPU_FATBIN_KIND_PTX ? "compute" : "sm",
		 e->sm_arch, suffix);
}

static void list_entry(struct input *in, const char *where,
		       const struct vgpu_fatbin_entry *e)
{
	char arch[32], isa[16] = "-";

	if (!in->listed_header) {
		printf("%-14s %4s %5s %-5s %-13s %5s %-5s %9s %9s  %s\n",
		       "source", "cont", "entry", "kind", "arch", "isa",
		       "comp", "stored", "size", "options");
		in->listed_header = 1;
	}
	arch_name(e, arch, sizeof(arch));
	if (e->kind == VGPU_FATBIN_KIND_PTX)
		snprintf(isa, sizeof(isa), "%u.%u", e->isa_major, e->isa_minor);
	printf("%-14s %4u %5u %-5s %-13s %5s %-5s %9llu %9llu",
	       where, e->container, e->index, kind_name(e->kind), arch, isa,
	       compression_name(e->compression),
	       (unsigned long long)e->stored_size,
	       (unsigned long long)e->size);
	if (e->options_len)
		printf("  %.*s", (int)e->options_len, e->options);
	putchar('\n');
}

static int write_ptx_file(struct input *in, const struct vgpu_fatbin_entry *e,
			  const char *text, size_t len)
{
	const char *base = strrchr(in->path, '/');
	char path[4096], arch[32];
	FILE *f;
	int ok;

	arch_name(e, arch, sizeof(arch));
	snprintf(path, sizeof(path), "%s/%s.%u.%s.ptx", in->opt->output_dir,
		 base ? base + 1 : in->path, in->ptx_count, arch);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "vgpu-fatbin: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = fwrite(text, 1, len, f) == len;
	ok = !fclose(f) && ok;
	if (!ok) {
		fprintf(stderr, "vgpu-fatbin: %s: write error\n", path);
		return -1;
	}
	printf("%s\n", path);
	return 0;
}

static int output_ptx(struct input *in, const char *where,
		      const struct vgpu_fatbin_entry *e)
{
	size_t len;
	char *text;
	int ret;

	ret = vgpu_fatbin_entry_extract(e, &text, &len);
	if (ret) {
		fprintf(stderr, "vgpu-fatbin: %s: %s: entry at offset %#zx: %s\n",
			in->path, where, e->offset, vgpu_fatbin_strerror(ret));
		return -1;
	}
	if (in->opt->action == ACTION_PRINT)
		ret = fwrite(text, 1, len, stdout) == len ? 0 : -1;
	else
		ret = write_ptx_file(in, e, text, len);
	in->ptx_count++;
	free(text);
	return ret;
}

static int show_entry(struct input *in, const char *where,
		      const struct vgpu_fatbin_entry *e)
{
	if (in->opt->action == ACTION_LIST) {
		list_entry(in, where, e);
		return 0;
	}
	if (e->kind != VGPU_FATBIN_KIND_PTX)
		return 0;
	return output_ptx(in, where, e);
}

/*
 * With --sm, only the best usable PTX of each container is shown; the
 * choice is the library's, so this shows what the driver would load.
 */
static int show_selected(struct input *in, const char *where,
			 const uint8_t *data, size_t size,
			 unsigned int containers)
{
	struct vgpu_fatbin_entry best;
	int ret, status = 0;

	for (unsigned int c = 0; c < containers; c++) {
		ret = vgpu_fatbin_select_ptx(data, size, (int)c,
					     &in->opt->target, &best);
		if (ret == VGPU_FATBIN_ENOPTX) {
			fprintf(stderr, "vgpu-fatbin: %s: %s: container %u: %s\n",
				in->path, where, c, vgpu_fatbin_strerror(ret));
			status = -1;
			continue;
		}
		if (ret)
			return -1;	/* parse errors were reported already */
		if (show_entry(in, where, &best))
			status = -1;
	}
	return status;
}

/* Every entry of the containers in one buffer (a file or a section). */
static int show_fatbin(struct input *in, const char *where,
		       const uint8_t *data, size_t size)
{
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	unsigned int containers = 0;
	int ret, status = 0;

	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret) {
		ret = vgpu_fatbin_iter_next(&it, &e);
		if (ret)
			break;
		containers = e.container + 1;
		if (!in->opt->select && show_entry(in, where, &e))
			status = -1;
	}
	if (ret != VGPU_FATBIN_END) {
		fprintf(stderr, "vgpu-fatbin: %s: %s: at offset %#zx: %s\n",
			in->path, where, vgpu_fatbin_iter_offset(&it),
			vgpu_fatbin_strerror(ret));
		return -1;
	}
	if (in->opt->select)
		status = show_selected(in, where, data, size, containers);
	return status;
}

static int show_elf(struct input *in, const uint8_t *data, size_t size)
{
	struct vgpu_elf_section sec;
	struct vgpu_elf elf;
	int ret, found = 0, status = 0;

	ret = vgpu_elf_open(&elf, data, size);
	for (size_t i = 1; !ret && i < vgpu_elf_section_count(&elf); i++) {
		ret = vgpu_elf_section(&elf, i, &sec);
		if (ret || !vgpu_elf_is_fatbin_section(sec.name) || !sec.data)
			continue;
		found = 1;
		if (show_fatbin(in, sec.name, sec.data, sec.size))
			status = -1;
	}
	if (!ret && !found)
		ret = VGPU_FATBIN_ENOSECTION;
	if (ret) {
		fprintf(stderr, "vgpu-fatbin: %s: %s\n", in->path,
			vgpu_fatbin_strerror(ret));
		return -1;
	}
	return status;
}

static int process_file(const struct options *opt, const char *path)
{
	struct input in = { .opt = opt, .path = path };
	struct stat st;
	void *map;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "vgpu-fatbin: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		fprintf(stderr, "vgpu-fatbin: %s: not a regular, non-empty file\n",
			path);
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "vgpu-fatbin: %s: %s\n", path, strerror(errno));
		return -1;
	}

	if (vgpu_fatbin_is_container(map, (size_t)st.st_size)) {
		ret = show_fatbin(&in, "fatbin", map, (size_t)st.st_size);
	} else if (st.st_size >= 4 && !memcmp(map, "\177ELF", 4)) {
		ret = show_elf(&in, map, (size_t)st.st_size);
	} else {
		fprintf(stderr, "vgpu-fatbin: %s: not an ELF file or a fatbinary\n",
			path);
		ret = -1;
	}
	munmap(map, (size_t)st.st_size);
	return ret;
}

/* "90", "sm_90", "compute_90" or "9.0" -> 90. */
static int parse_sm(const char *s, unsigned int *sm)
{
	unsigned int major, minor;
	char tail;

	if (!strncmp(s, "sm_", 3))
		s += 3;
	else if (!strncmp(s, "compute_", 8))
		s += 8;
	if (sscanf(s, "%u.%u%c", &major, &minor, &tail) == 2 && minor < 10) {
		*sm = major * 10 + minor;
		return 0;
	}
	if (sscanf(s, "%u%c", sm, &tail) == 1 && *sm >= 10)
		return 0;
	return -1;
}

static int parse_isa(const char *s, struct vgpu_fatbin_target *t)
{
	char tail;

	return sscanf(s, "%u.%u%c", &t->max_isa_major, &t->max_isa_minor,
		      &tail) == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "print-ptx", no_argument, NULL, 'p' },
		{ "extract-ptx", no_argument, NULL, 'x' },
		{ "output-dir", required_argument, NULL, 'o' },
		{ "sm", required_argument, NULL, 's' },
		{ "isa", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct options opt = {
		.action = ACTION_LIST,
		.output_dir = ".",
		/* without --isa, accept every ISA version */
		.target = { .max_isa_major = ~0u, .max_isa_minor = ~0u },
	};
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "lpxo:s:i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			opt.action = ACTION_LIST;
			break;
		case 'p':
			opt.action = ACTION_PRINT;
			break;
		case 'x':
			opt.action = ACTION_EXTRACT;
			break;
		case 'o':
			opt.output_dir = optarg;
			break;
		case 's':
			if (parse_sm(optarg, &opt.target.sm_arch)) {
				fprintf(stderr, "vgpu-fatbin: bad --sm '%s' (try 90, sm_90 or 9.0)\n",
					optarg);
				return 2;
			}
			opt.select = 1;
			break;
		case 'i':
			if (parse_isa(optarg, &opt.target)) {
				fprintf(stderr, "vgpu-fatbin: bad --isa '%s' (try 9.0)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	for (; optind < argc; optind++)
		if (process_file(&opt, argv[optind]))
			status = 1;
	return status;
}
