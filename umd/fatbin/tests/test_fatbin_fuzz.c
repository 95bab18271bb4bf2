// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed input.  First, hand-made damage to real nvcc output, each
 * with the error it must produce.  Then a bounded, seeded fuzzer: real
 * fatbins and a real object file with random bytes changed or cut off,
 * fed through every entry point.  The inputs live in malloc()ed buffers
 * of exactly their size, so in the -san build AddressSanitizer catches
 * any read past the end, and UBSan any overflow.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest.h"
#include "fatbin/elf_sections.h"
#include "fatbin_test_util.h"

static const struct vgpu_fatbin_target sm90 = { 90, 9, 0 };

struct sample {
	uint8_t *data;
	size_t size;
};

static struct sample load(const char *name)
{
	struct sample s;

	s.data = test_read_data(name, &s.size);
	return s;
}

/* A private, exactly-sized copy to damage. */
static uint8_t *copy_of(const struct sample *s)
{
	uint8_t *p = malloc(s->size);

	memcpy(p, s->data, s->size);
	return p;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the tests run on little-endian hosts */
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Offset of the first entry of @kind in a buffer. */
static size_t entry_offset(const uint8_t *data, size_t size,
			   enum vgpu_fatbin_kind kind)
{
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;

	vgpu_fatbin_iter_init(&it, data, size);
	while (!vgpu_fatbin_iter_next(&it, &e))
		if (e.kind == kind)
			return e.offset;
	ksft_exit_fail_msg("test data lacks an entry of kind %d\n", kind);
}

/* Walk everything; return the first error, or 0. */
static int walk(const uint8_t *data, size_t size)
{
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	size_t len;
	char *out;
	int ret;

	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret && !(ret = vgpu_fatbin_iter_next(&it, &e))) {
		ret = vgpu_fatbin_entry_extract(&e, &out, &len);
		free(out);
	}
	return ret == VGPU_FATBIN_END ? 0 : ret;
}

struct damage {
	const char *what;
	const char *file;
	int kind;		/* entry to damage; 0 = container header */
	size_t field;		/* offset in that header */
	int width;		/* 4 or 8 */
	uint64_t value;
	int expect;
	int add_to_field;	/* add value to the field instead of setting it */
};

static const struct damage damages[] = {
	{ "container magic", "kernels.nocompress.fatbin", 0, 0, 4, 0x12345678,
	  VGPU_FATBIN_EMAGIC, 0 },
	{ "container version 2", "kernels.nocompress.fatbin", 0, 4, 4,
	  0x00100002, VGPU_FATBIN_EVERSION, 0 },
	{ "container header size 8", "kernels.nocompress.fatbin", 0, 4, 4,
	  0x00080001, VGPU_FATBIN_EHEADER, 0 },
	{ "container size past the end", "kernels.nocompress.fatbin", 0, 8, 8,
	  1 << 20, VGPU_FATBIN_ETRUNCATED, 0 },
	{ "container size over 1 GiB", "kernels.nocompress.fatbin", 0, 8, 8,
	  1ull << 40, VGPU_FATBIN_ETOOBIG, 0 },
	{ "entry header size 32", "kernels.nocompress.fatbin", 1, 4, 4, 32,
	  VGPU_FATBIN_EHEADER, 0 },
	{ "entry header size past the container", "kernels.nocompress.fatbin",
	  1, 4, 4, 1 << 20, VGPU_FATBIN_ETRUNCATED, 0 },
	{ "entry payload past the container", "kernels.nocompress.fatbin", 1,
	  8, 8, ~0ull, VGPU_FATBIN_ETRUNCATED, 0 },
	{ "entry kind 0", "kernels.nocompress.fatbin", 1, 0, 4, 0x01010000,
	  VGPU_FATBIN_EHEADER, 0 },
	{ "zstd and LZ4 flags together", "kernels.default.fatbin", 1, 0x28, 8,
	  0xa011, VGPU_FATBIN_ECOMPRESSION, 0 },
	{ "compressed size without a method", "kernels.nocompress.fatbin", 1,
	  0x10, 4, 5, VGPU_FATBIN_ECOMPRESSION, 0 },
	{ "compressed size above payload size", "kernels.default.fatbin", 1,
	  0x10, 4, 1 << 16, VGPU_FATBIN_EHEADER, 0 },
	{ "uncompressed size over 1 GiB", "kernels.default.fatbin", 1, 0x38, 8,
	  1ull << 31, VGPU_FATBIN_ETOOBIG, 0 },
	{ "zstd: uncompressed size off by one", "kernels.default.fatbin", 1,
	  0x38, 8, 1, VGPU_FATBIN_EDECOMPRESS, 1 },
	{ "LZ4: uncompressed size off by one", "kernels.lz4.fatbin", 1, 0x38, 8,
	  1, VGPU_FATBIN_EDECOMPRESS, 1 },
	{ "LZ4: impossible ratio", "kernels.lz4.fatbin", 1, 0x38, 8, 1 << 28,
	  VGPU_FATBIN_EDECOMPRESS, 0 },
	{ "options descriptor outside the header", "kernels.default.fatbin", 1,
	  0x14, 4, 4096, VGPU_FATBIN_EHEADER, 0 },
};

static void test_damage(const struct damage *d)
{
	struct sample s = load(d->file);
	uint8_t *buf = copy_of(&s);
	size_t at = d->kind ? entry_offset(buf, s.size, d->kind) : 0;
	int ret;

	if (d->add_to_field) {
		uint64_t v;

		memcpy(&v, buf + at + d->field, 8);
		put64(buf + at + d->field, v + d->value);
	} else if (d->width == 4) {
		put32(buf + at + d->field, (uint32_t)d->value);
	} else {
		put64(buf + at + d->field, d->value);
	}
	ret = walk(buf, s.size);
	ksft_test_result(ret == d->expect, "%s: %s (got %d)\n", d->what,
			 vgpu_fatbin_strerror(d->expect), ret);
	free(buf);
	free(s.data);
}

static void test_small_cases(void)
{
	struct sample s = load("kernels.default.fatbin");
	struct vgpu_fatbin_iter it;
	size_t size;
	uint8_t *buf;
	int ret;

	ksft_test_result(vgpu_fatbin_iter_init(&it, s.data, 0) ==
				 VGPU_FATBIN_ETRUNCATED &&
			 vgpu_fatbin_iter_init(&it, NULL, 10) == VGPU_FATBIN_EINVAL &&
			 vgpu_fatbin_iter_init(NULL, s.data, 10) == VGPU_FATBIN_EINVAL,
			 "empty or NULL input\n");
	ksft_test_result(walk(s.data, s.size - 1) == VGPU_FATBIN_ETRUNCATED,
			 "one byte short: truncated\n");

	buf = malloc(s.size + 24);
	memcpy(buf, s.data, s.size);
	memset(buf + s.size, 0, 24);
	ret = walk(buf, s.size + 24);
	buf[s.size + 4] = 0x7f;
	ksft_test_result(!ret && walk(buf, s.size + 24) == VGPU_FATBIN_EMAGIC,
			 "zero padding after a container is fine, garbage is not\n");
	free(buf);

	ksft_test_result(vgpu_fatbin_container_size(s.data, 8, &size) ==
				 VGPU_FATBIN_ETRUNCATED &&
			 vgpu_fatbin_container_size(s.data, 64, &size) ==
				 VGPU_FATBIN_ETRUNCATED &&
			 !vgpu_fatbin_container_size(s.data, s.size, &size) &&
			 size == s.size,
			 "container_size respects its bound\n");
	free(s.data);
}

/* Version-2 wrappers built by hand around real containers. */
static void test_handmade_wrappers(void)
{
	struct sample ptx = load("kernels.default.fatbin");
	struct sample cubin = load("kernels.sm75only.fatbin");
	const void *array[3] = { ptx.data, NULL, NULL };
	struct vgpu_fatbin_ptx_set set;
	uint8_t w[24] = { 0 };
	const void *p;

	put32(w, 0x466243B1);
	put32(w + 4, 2);
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) ==
				 VGPU_FATBIN_EHEADER,
			 "version 2 without an object array: malformed\n");
	p = array + 1;	/* an empty array */
	memcpy(w + 16, &p, sizeof(p));
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) ==
				 VGPU_FATBIN_ENOPTX,
			 "version 2 with no objects: no PTX\n");
	array[1] = cubin.data;
	p = array;
	memcpy(w + 16, &p, sizeof(p));
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) ==
				 VGPU_FATBIN_OK && set.count == 1 &&
			 set.nskipped == 1 && set.skipped[0].object == 1 &&
			 !strcmp(set.skipped[0].contents, "sm_75"),
			 "version 2 with an object lacking PTX: skipped, the rest kept\n");
	vgpu_fatbin_ptx_set_free(&set);
	array[0] = cubin.data;
	ksft_test_result(vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) ==
				 VGPU_FATBIN_ENOPTX && !set.count && !set.modules &&
			 !set.nskipped && !set.skipped,
			 "version 2 with no object having PTX: no PTX, no leak\n");
	free(ptx.data);
	free(cubin.data);
}

/*
 * Registration pointers into memory that is not there: a container whose
 * claimed size runs into an unmapped page, a wrapper or object array on
 * one.  Each must be an error, not a crash.
 */
static void test_unmapped(void)
{
	struct sample s = load("kernels.default.fatbin");
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct vgpu_fatbin_ptx_set set;
	uint8_t *map, *container, w[24] = { 0 };
	const void *p;
	int ok;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		ksft_exit_fail_msg("mmap failed\n");
	munmap(map + page, page);

	/* only the first 100 bytes of the container fit in the mapping */
	container = map + page - 100;
	memcpy(container, s.data, 100);
	put32(w, 0x466243B1);
	put32(w + 4, 1);
	memcpy(w + 8, &container, sizeof(container));
	ok = vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) == VGPU_FATBIN_EFAULT;

	ok &= vgpu_fatbin_ptx_from_wrapper(map + page, &sm90, &set) ==
	      VGPU_FATBIN_EFAULT;

	p = map + page;	/* the object array itself is unmapped */
	put32(w + 4, 2);
	memcpy(w + 16, &p, sizeof(p));
	ok &= vgpu_fatbin_ptx_from_wrapper(w, &sm90, &set) == VGPU_FATBIN_EFAULT;
	ksft_test_result(ok, "registration pointers into unmapped memory: EFAULT\n");
	munmap(map, page);
	free(s.data);
}

static void test_elf_damage(void)
{
	struct sample obj = load("rdc_a.o");
	struct vgpu_elf_section sec;
	struct vgpu_elf elf;
	uint8_t *buf;
	int ok;

	ksft_test_result(vgpu_elf_open(&elf, obj.data, 10) == VGPU_FATBIN_ENOTELF,
			 "ELF: too short to be ELF\n");
	buf = copy_of(&obj);
	buf[4] = 1;	/* ELFCLASS32 */
	ok = vgpu_elf_open(&elf, buf, obj.size) == VGPU_FATBIN_ENOTELF;
	free(buf);
	ksft_test_result(ok, "ELF: 32-bit files are refused\n");

	buf = copy_of(&obj);
	put64(buf + 0x28, obj.size - 8);	/* e_shoff */
	ok = vgpu_elf_open(&elf, buf, obj.size) == VGPU_FATBIN_ETRUNCATED;
	free(buf);
	ksft_test_result(ok, "ELF: section table past the end\n");

	buf = copy_of(&obj);
	buf[0x3e] = 0xf0;	/* e_shstrndx out of range */
	buf[0x3f] = 0x00;
	ok = vgpu_elf_open(&elf, buf, obj.size) == VGPU_FATBIN_EHEADER;
	free(buf);
	ksft_test_result(ok, "ELF: name table index out of range\n");

	/* a section whose data lies past the end of the file */
	buf = copy_of(&obj);
	ok = !vgpu_elf_open(&elf, buf, obj.size) &&
	     !vgpu_elf_find_section(&elf, "__nv_relfatbin", &sec);
	if (ok) {
		size_t idx;
		uint64_t shoff;

		memcpy(&shoff, buf + 0x28, 8);
		for (idx = 1; idx < vgpu_elf_section_count(&elf); idx++) {
			struct vgpu_elf_section s2;

			vgpu_elf_section(&elf, idx, &s2);
			if (s2.data == sec.data)
				break;
		}
		put64(buf + shoff + idx * 64 + 0x20, 1ull << 40); /* sh_size */
		ok = vgpu_elf_find_section(&elf, "__nv_relfatbin", &sec) ==
		     VGPU_FATBIN_ETRUNCATED;
	}
	free(buf);
	ksft_test_result(ok, "ELF: section data past the end\n");
	free(obj.data);
}

/* xorshift64*: a fixed seed makes every run the same. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1Dull;
}

static void mutate(uint8_t *buf, size_t *size, uint64_t *rng)
{
	uint64_t r = next_random(rng);

	switch (r % 4) {
	case 0:	/* cut the input short */
		*size = next_random(rng) % (*size + 1);
		break;
	case 1:	/* a few random bytes in the headers */
	case 2:
		for (int n = 1 + r / 4 % 4; n; n--) {
			size_t span = *size < 256 ? *size : 256;

			buf[next_random(rng) % span] = (uint8_t)next_random(rng);
		}
		break;
	default: /* random bytes anywhere */
		for (int n = 1 + r / 4 % 8; n; n--)
			buf[next_random(rng) % *size] = (uint8_t)next_random(rng);
	}
}

/* Results must be known codes; extracted PTX must be a proper string. */
static int exercise(const uint8_t *data, size_t size)
{
	struct vgpu_fatbin_ptx_set set;
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	int ret, ok = 1;
	size_t len;
	char *out;

	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret && !(ret = vgpu_fatbin_iter_next(&it, &e))) {
		int x = vgpu_fatbin_entry_extract(&e, &out, &len);

		if (!x && e.kind == VGPU_FATBIN_KIND_PTX)
			ok &= strlen(out) == len;
		ok &= x <= 0 && strcmp(vgpu_fatbin_strerror(x), "unknown error");
		free(out);
	}
	ok &= strcmp(vgpu_fatbin_strerror(ret), "unknown error") != 0;
	ret = vgpu_fatbin_ptx_from_image(data, size, &sm90, &set);
	ok &= ret <= 0 && (ret || set.count > 0);
	for (size_t i = 0; !ret && i < set.count; i++)
		ok &= strlen(set.modules[i].text) == set.modules[i].len;
	vgpu_fatbin_ptx_set_free(&set);
	return ok;
}

static void fuzz_fatbins(void)
{
	static const char *const files[] = {
		"kernels.default.fatbin", "kernels.nocompress.fatbin",
		"kernels.lz4.fatbin", "kernels.all.fatbin", "multiarch.fatbin",
	};
	const int rounds = 4000;
	uint64_t rng = 0x5eed0f0fa7b1ull;
	int ok = 1;

	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct sample s = load(files[f]);

		for (int i = 0; i < rounds; i++) {
			size_t size = s.size;
			uint8_t *buf = copy_of(&s);

			mutate(buf, &size, &rng);
			/* re-home the bytes so the buffer ends where size says */
			buf = realloc(buf, size ? size : 1);
			ok &= exercise(buf, size);
			free(buf);
		}
		free(s.data);
	}
	ksft_test_result(ok, "fuzz: %d damaged fatbins walked, extracted, selected\n",
			 rounds * (int)ARRAY_SIZE(files));
}

static void fuzz_elf(void)
{
	struct sample obj = load("rdc_a.o");
	uint64_t rng = 0xe1f0e1f0ull;
	const int rounds = 3000;
	int ok = 1;

	for (int i = 0; i < rounds; i++) {
		size_t size = obj.size;
		uint8_t *buf = copy_of(&obj);
		struct vgpu_elf_section sec;
		struct vgpu_elf elf;
		uint64_t shoff;

		/* aim at the ELF header or the section table */
		memcpy(&shoff, obj.data + 0x28, 8);
		for (int n = 1 + i % 4; n; n--) {
			uint64_t r = next_random(&rng);
			size_t at = r & 1 ? r / 2 % 64 :
				    shoff + r / 2 % (obj.size - shoff);

			buf[at] = (uint8_t)next_random(&rng);
		}
		if (i % 5 == 0)
			size = next_random(&rng) % (size + 1);
		buf = realloc(buf, size ? size : 1);
		if (!vgpu_elf_open(&elf, buf, size)) {
			for (size_t j = 1; j < vgpu_elf_section_count(&elf); j++) {
				if (vgpu_elf_section(&elf, j, &sec) ||
				    !vgpu_elf_is_fatbin_section(sec.name) ||
				    !sec.data)
					continue;
				ok &= sec.data + sec.size <= buf + size;
				ok &= exercise(sec.data, sec.size);
			}
		}
		free(buf);
	}
	free(obj.data);
	ksft_test_result(ok, "fuzz: %d damaged ELF objects read\n", rounds);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(damages) + 4 + 4 + 6 + 2);
	for (size_t i = 0; i < ARRAY_SIZE(damages); i++)
		test_damage(&damages[i]);
	test_small_cases();
	test_handmade_wrappers();
	test_unmapped();
	test_elf_damage();
	fuzz_fatbins();
	fuzz_elf();
	ksft_finished();
}
