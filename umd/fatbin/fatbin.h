/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libvgpu-fatbin: read the fatbinaries that nvcc embeds in programs.
 *
 * A CUDA program carries its device code as a "fatbinary": containers of
 * entries, each entry either PTX text or a cubin (ELF) for one GPU
 * architecture, optionally compressed with zstd or LZ4.  Our GPU runs
 * PTX compiled by the user-mode driver, so the driver's job here is to
 * find the PTX entries, pick the best one for the device and decompress
 * it.  The layout is described in Documentation/fatbinary.rst.
 *
 * Three ways in:
 *
 *   - a registration pointer (what __cudaRegisterFatBinary receives):
 *     vgpu_fatbin_ptx_from_wrapper() returns the PTX of every object it
 *     covers (several for a version-2 wrapper of -rdc=true code);
 *   - a buffer of known size (a .fatbin file, an ELF section, or the
 *     image given to cuModuleLoadData): vgpu_fatbin_iter_*() walks the
 *     entries, vgpu_fatbin_ptx_from_image() picks the PTX;
 *   - a file on disk: elf_sections.h finds the fatbin sections.
 *
 * Every function checks every size and offset against the buffer it was
 * given and returns a negative VGPU_FATBIN_E* code on malformed input;
 * vgpu_fatbin_strerror() turns it into a message.  No global state: all
 * functions are safe to call from several threads.
 */
#ifndef VGPU_FATBIN_H
#define VGPU_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Results.  Success is 0; every error is negative. */
enum vgpu_fatbin_result {
	VGPU_FATBIN_OK = 0,
	VGPU_FATBIN_END = 1,		/* iterator: no more entries */
	VGPU_FATBIN_EINVAL = -1,	/* NULL pointer or bad argument */
	VGPU_FATBIN_EMAGIC = -2,	/* not a fatbin wrapper/container */
	VGPU_FATBIN_EVERSION = -3,	/* unknown wrapper/container version */
	VGPU_FATBIN_ETRUNCATED = -4,	/* a size or offset points past the end */
	VGPU_FATBIN_EHEADER = -5,	/* inconsistent header field */
	VGPU_FATBIN_ECOMPRESSION = -6,	/* unknown or contradictory compression */
	VGPU_FATBIN_EDECOMPRESS = -7,	/* payload does not decompress as declared */
	VGPU_FATBIN_ETOOBIG = -8,	/* larger than VGPU_FATBIN_MAX_SIZE */
	VGPU_FATBIN_ENOMEM = -9,
	VGPU_FATBIN_ENOPTX = -10,	/* no PTX entry usable on this device */
	VGPU_FATBIN_ENOTPTX = -11,	/* entry is not PTX text */
	VGPU_FATBIN_ENOTELF = -12,	/* file is not a 64-bit little-endian ELF */
	VGPU_FATBIN_ENOSECTION = -13,	/* ELF has no fatbin section */
	VGPU_FATBIN_EFAULT = -14,	/* registration points at unmapped memory */
};

/*
 * Upper bound on any container or decompressed payload we accept.  Real
 * fatbins are kilobytes to a few hundred megabytes; the bound keeps a
 * corrupted size field from turning into a huge allocation.
 */
#define VGPU_FATBIN_MAX_SIZE	(1ull << 30)

/* Human-readable text for a vgpu_fatbin_result; never NULL. */
const char *vgpu_fatbin_strerror(int result);

/* Entry kinds; other values may appear and are reported as they are. */
enum vgpu_fatbin_kind {
	VGPU_FATBIN_KIND_PTX = 1,
	VGPU_FATBIN_KIND_ELF = 2,	/* cubin */
	VGPU_FATBIN_KIND_LTOIR = 8,	/* NVVM IR for -dlto link-time opt. */
};

enum vgpu_fatbin_compression {
	VGPU_FATBIN_COMPRESS_NONE = 0,
	VGPU_FATBIN_COMPRESS_ZSTD,
	VGPU_FATBIN_COMPRESS_LZ4,
};

/* Whether PTX of this entry may run on other GPUs than its own. */
enum vgpu_fatbin_arch_scope {
	VGPU_FATBIN_SCOPE_FORWARD = 0,	/* compute_90: any sm >= 90 */
	VGPU_FATBIN_SCOPE_FAMILY,	/* compute_100f: 10.x, >= 10.0 */
	VGPU_FATBIN_SCOPE_EXACT,	/* compute_90a: exactly sm_90 */
};

/* One entry, as described by its header.  Pointers point into the input. */
struct vgpu_fatbin_entry {
	enum vgpu_fatbin_kind kind;
	unsigned int sm_arch;		/* 75 for sm_75 / compute_75 */
	unsigned int isa_major;		/* PTX ISA version (PTX entries) */
	unsigned int isa_minor;
	enum vgpu_fatbin_arch_scope scope;
	enum vgpu_fatbin_compression compression;
	uint64_t flags;			/* raw header flags */
	const uint8_t *payload;		/* stored bytes */
	uint64_t stored_size;		/* bytes at payload that hold data */
	uint64_t size;			/* bytes once decompressed (PTX: with
					 * any NUL padding) */
	const char *options;		/* ptxas options from -G/-lineinfo, */
	size_t options_len;		/* not NUL-terminated; may be empty */
	size_t offset;			/* of the entry header in the buffer */
	unsigned int container;		/* index of its container */
	unsigned int index;		/* index within the container */
};

/*
 * Iterator over one buffer holding one or more containers back to back.
 * Fields are private; initialise with vgpu_fatbin_iter_init().
 */
struct vgpu_fatbin_iter {
	const uint8_t *base;
	size_t size;
	size_t container_start;		/* offset of the current container */
	size_t container_end;		/* offset one past it */
	size_t next;			/* offset of the next entry header */
	unsigned int container;
	unsigned int index;
	int error;			/* sticky: an error ends the walk */
};

/*
 * Prepare to walk @size bytes at @data, which must start with a container
 * header.  Trailing zero bytes after the last container (section padding)
 * are accepted.  Returns 0 or a negative error (bad first header).
 */
int vgpu_fatbin_iter_init(struct vgpu_fatbin_iter *it, const void *data,
			  size_t size);

/*
 * Fill @entry with the next entry.  Returns 0, VGPU_FATBIN_END after the
 * last one, or a negative error (and keeps returning it).  On error
 * vgpu_fatbin_iter_offset() tells where in the buffer the problem is.
 */
int vgpu_fatbin_iter_next(struct vgpu_fatbin_iter *it,
			  struct vgpu_fatbin_entry *entry);

/* Offset of the header being examined: for error messages. */
size_t vgpu_fatbin_iter_offset(const struct vgpu_fatbin_iter *it);

/*
 * Size of the container(s) at @data, from the first header only: this is
 * how the size of a registered fatbin is learnt, since registration
 * passes no length.  Checks the magic, version and header size, and that
 * the total is at most @max (use VGPU_FATBIN_MAX_SIZE when unknown).
 */
int vgpu_fatbin_container_size(const void *data, size_t max, size_t *size);

/*
 * Decompress an entry's payload into a new malloc()ed buffer, which the
 * caller frees.  @out_size receives the data size.  For PTX the buffer is
 * the text up to its first NUL (padding removed), NUL-terminated, and
 * @out_size is its strlen().  For ELF it is the cubin, exactly @size bytes.
 */
int vgpu_fatbin_entry_extract(const struct vgpu_fatbin_entry *entry,
			      char **out, size_t *out_size);

/* What the device and the PTX compiler accept. */
struct vgpu_fatbin_target {
	unsigned int sm_arch;		/* device compute capability, 90 = 9.0 */
	unsigned int max_isa_major;	/* newest PTX ISA the compiler takes */
	unsigned int max_isa_minor;
};

/* Whether PTX entry @entry can be compiled for @target. */
int vgpu_fatbin_entry_usable(const struct vgpu_fatbin_entry *entry,
			     const struct vgpu_fatbin_target *target);

/*
 * Better of two usable PTX entries: the higher SM architecture, then the
 * higher ISA version, then an exact-arch entry over a portable one.
 * Returns nonzero when @a is strictly better than @b.
 */
int vgpu_fatbin_entry_better(const struct vgpu_fatbin_entry *a,
			     const struct vgpu_fatbin_entry *b);

/*
 * Choose the best usable PTX entry among the entries of container
 * @container in the buffer (every container when @container is -1).
 * Returns 0 with @best filled, VGPU_FATBIN_ENOPTX if the buffer has no
 * usable PTX entry, or a parse error.
 */
int vgpu_fatbin_select_ptx(const void *data, size_t size, int container,
			   const struct vgpu_fatbin_target *target,
			   struct vgpu_fatbin_entry *best);

/* The PTX of one object file, ready for the PTX compiler. */
struct vgpu_fatbin_ptx {
	char *text;			/* NUL-terminated, malloc()ed */
	size_t len;			/* strlen(text) */
	unsigned int sm_arch;		/* of the entry chosen */
	unsigned int isa_major;
	unsigned int isa_minor;
};

/*
 * An object of a device-linked program that has no PTX the device can
 * use: typically NVIDIA's device runtime (libcudadevrt), which nvcc links
 * into every -rdc=true program and which carries cubins for each real
 * architecture but PTX only for the newest.  It is left out of the link;
 * if PTX code references a name only it defines, the error says so.
 */
struct vgpu_fatbin_skipped {
	unsigned int object;		/* index in the wrapper's array */
	char *contents;			/* "sm_75 sm_80 ... compute_121" */
	struct vgpu_fatbin_entry cubin;	/* one of its cubins (kind 0: none);
					 * points into the program */
};

/* The PTX modules of one registration or image, to be linked together. */
struct vgpu_fatbin_ptx_set {
	struct vgpu_fatbin_ptx *modules;
	size_t count;
	struct vgpu_fatbin_skipped *skipped;	/* objects without usable PTX */
	size_t nskipped;
};

/*
 * The skipped object of @set whose cubin defines @name, or NULL.  The
 * cubin is decompressed and its symbol table read on each call: this is
 * for error messages, not for a fast path.
 */
const struct vgpu_fatbin_skipped *
vgpu_fatbin_skipped_defining(const struct vgpu_fatbin_ptx_set *set,
			     const char *name);

/*
 * PTX for a pointer handed to __cudaRegisterFatBinary.  A version-1
 * wrapper gives one module.  A version-2 wrapper (device-linked -rdc=true
 * code) gives one module per object in its NULL-terminated array of
 * relocatable fatbins; the caller links them.  Objects of a version-2
 * wrapper without usable PTX are listed in @set->skipped instead;
 * VGPU_FATBIN_ENOPTX only when no object has usable PTX.  On success the caller owns
 * @set and releases it with vgpu_fatbin_ptx_set_free().  On failure @set
 * is empty.  Since the sizes come from the data itself, every range is
 * checked to be mapped before it is read (VGPU_FATBIN_EFAULT if not).
 */
int vgpu_fatbin_ptx_from_wrapper(const void *wrapper,
				 const struct vgpu_fatbin_target *target,
				 struct vgpu_fatbin_ptx_set *set);

/*
 * PTX for a buffer of @size bytes that starts with a container header
 * (a .fatbin file, cuModuleLoadFatBinary's image): one module per
 * container that holds PTX, best entry each.  VGPU_FATBIN_ENOPTX if no
 * container has usable PTX.
 */
int vgpu_fatbin_ptx_from_image(const void *data, size_t size,
			       const struct vgpu_fatbin_target *target,
			       struct vgpu_fatbin_ptx_set *set);

/*
 * Append @module to @set, which takes over its malloc()ed text (freed
 * here if the set cannot grow).  For modules that come from elsewhere
 * than a fatbin, such as the driver's own device runtime.
 */
int vgpu_fatbin_ptx_set_append(struct vgpu_fatbin_ptx_set *set,
			       const struct vgpu_fatbin_ptx *module);

void vgpu_fatbin_ptx_set_free(struct vgpu_fatbin_ptx_set *set);

/* True if @data starts with a wrapper / a container header. */
int vgpu_fatbin_is_wrapper(const void *data, size_t size);
int vgpu_fatbin_is_container(const void *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_FATBIN_H */
