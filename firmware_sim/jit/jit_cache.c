// SPDX-License-Identifier: GPL-2.0
/*
 * jit_cache.c - native code kept between runs, in the compute cache.
 *
 * Compiling a function with LLVM costs tens to hundreds of milliseconds
 * (seconds in a TCG guest); the machine code it gives depends only on
 * the vISA image, the translator and LLVM, and the host CPU.  So the
 * object file of every translated function goes into the same on-disk
 * cache that keeps compiled vISA (umd/cache, Documentation/compute-cache
 * .rst), under the same policy: CUDA_CACHE_DISABLE, CUDA_CACHE_PATH and
 * CUDA_CACHE_MAXSIZE apply, entries are checksummed, and the least
 * recently used ones of both kinds are evicted together.
 *
 * The key of a function (SHA-256 of, each field length-prefixed):
 *
 *   "vgpu-native-code"        what kind of entry this is
 *   JIT_TRANSLATOR_HASH       SHA-256 of the translator's sources and the
 *                             core headers whose layouts the code bakes in
 *                             (firmware_sim/jit/build.mk), so a changed
 *                             translator never loads old code
 *   LLVM_VERSION_STRING       the code generator, its passes (JIT_PASSES)
 *   host CPU name, features   LLVMGetHostCPUName/Features: code for
 *                             AVX-512 never runs on a CPU without it
 *   SHA-256 of the image      the whole vISA image (the translation reads
 *                             instructions, literals and function table)
 *   the function's index
 *
 * The machine code holds no address of the process that compiled it
 * (struct jit_env), so another process can load it.
 *
 * An entry (the cache adds its own header and checksum around it):
 *
 *   0   8  magic "vGPUjit1"
 *   8   4  code_count: the function's instructions (checked against the
 *          module's)
 *  12  12  insns_inline, insns_branch, insns_helper (statistics)
 *  24   8  object size
 *  32      leader[code_count], then the ELF object
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <llvm/Config/llvm-config.h>

#include "cache/compute_cache.h"
#include "jit_internal.h"

#ifndef JIT_TRANSLATOR_HASH
#error "JIT_TRANSLATOR_HASH comes from firmware_sim/jit/build.mk"
#endif

#define ENTRY_MAGIC	"vGPUjit1"
#define ENTRY_HDR	32

void jit_cache_open(struct jit_module *jm, const struct vgpu_module *m,
		    const char *passes)
{
	struct vgpu_cache_key_builder kb;
	char *cpu, *features;

	jm->cache = vgpu_cache_open(NULL);
	if (!jm->cache || !vgpu_cache_enabled(jm->cache))
		return;
	cpu = LLVMGetHostCPUName();
	features = LLVMGetHostCPUFeatures();
	vgpu_cache_key_begin(&kb);
	vgpu_cache_key_add_str(&kb, "vgpu-native-code");
	vgpu_cache_key_add_str(&kb, JIT_TRANSLATOR_HASH);
	vgpu_cache_key_add_str(&kb, LLVM_VERSION_STRING);
	vgpu_cache_key_add_str(&kb, passes);
	vgpu_cache_key_add_str(&kb, cpu);
	vgpu_cache_key_add_str(&kb, features);
	vgpu_cache_key_add(&kb, m->image, m->size);
	/* per function: jit_cache_key() adds the index to a copy */
	jm->cache_kb = kb;
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
}

void jit_cache_close(struct jit_module *jm)
{
	vgpu_cache_close(jm->cache);
	jm->cache = NULL;
}

static bool usable(const struct jit_module *jm)
{
	return jm->cache && vgpu_cache_enabled(jm->cache);
}

static void function_key(const struct jit_module *jm, uint32_t fi,
			 struct vgpu_cache_key *key)
{
	struct vgpu_cache_key_builder kb = jm->cache_kb;

	vgpu_cache_key_add_u64(&kb, fi);
	vgpu_cache_key_end(&kb, key);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int jit_cache_load(struct jit_module *jm, uint32_t fi, uint32_t code_count,
		   struct jit_translation *tr, LLVMMemoryBufferRef *obj)
{
	struct vgpu_cache_key key;
	uint64_t obj_size;
	uint8_t *blob;
	size_t size;

	if (!usable(jm))
		return -1;
	function_key(jm, fi, &key);
	if (vgpu_cache_lookup(jm->cache, &key, (void **)&blob, &size) != 1)
		return -1;
	if (size < ENTRY_HDR || memcmp(blob, ENTRY_MAGIC, 8) ||
	    get32(blob + 8) != code_count ||
	    size - ENTRY_HDR < code_count)
		goto bad;
	memcpy(&obj_size, blob + 24, 8);
	if (obj_size != size - ENTRY_HDR - code_count)
		goto bad;
	memset(tr, 0, sizeof(*tr));
	tr->insns_inline = get32(blob + 12);
	tr->insns_branch = get32(blob + 16);
	tr->insns_helper = get32(blob + 20);
	snprintf(tr->name, sizeof(tr->name), "vgpu_f%u", fi);
	tr->leader = malloc(code_count ? code_count : 1);
	if (!tr->leader)
		goto bad;
	memcpy(tr->leader, blob + ENTRY_HDR, code_count);
	*obj = LLVMCreateMemoryBufferWithMemoryRangeCopy(
		(const char *)blob + ENTRY_HDR + code_count, obj_size,
		tr->name);
	free(blob);
	return 0;
bad:
	/* a checksummed entry under our key that we cannot read: a bug */
	fprintf(stderr, "vgpu: native tier: function %u: unusable cache "
		"entry, compiling\n", fi);
	free(blob);
	return -1;
}

void jit_cache_store(struct jit_module *jm, uint32_t fi, uint32_t code_count,
		     const struct jit_translation *tr, LLVMMemoryBufferRef obj)
{
	size_t obj_size = LLVMGetBufferSize(obj);
	size_t size = ENTRY_HDR + code_count + obj_size;
	struct vgpu_cache_key key;
	uint64_t obj_size64 = obj_size;
	uint8_t *blob;

	if (!usable(jm))
		return;
	blob = malloc(size);
	if (!blob)
		return;		/* the cache is never a reason to fail */
	memcpy(blob, ENTRY_MAGIC, 8);
	memcpy(blob + 8, &code_count, 4);
	memcpy(blob + 12, &tr->insns_inline, 4);
	memcpy(blob + 16, &tr->insns_branch, 4);
	memcpy(blob + 20, &tr->insns_helper, 4);
	memcpy(blob + 24, &obj_size64, 8);
	memcpy(blob + ENTRY_HDR, tr->leader, code_count);
	memcpy(blob + ENTRY_HDR + code_count, LLVMGetBufferStart(obj),
	       obj_size);
	function_key(jm, fi, &key);
	(void)vgpu_cache_store(jm->cache, &key, blob, size);
	free(blob);
}
