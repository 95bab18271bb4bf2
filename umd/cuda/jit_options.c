// SPDX-License-Identifier: GPL-2.0
/*
 * jit_options.c - the JIT options of cuModuleLoadDataEx and cuLink*.
 *
 * A program passes two parallel arrays: CUjit_option names and void *
 * values.  A value is either the option's number cast to a pointer
 * (CU_JIT_MAX_REGISTERS: (void *)32) or a pointer (a log buffer).  A few
 * options are also outputs: the driver writes into the caller's value
 * slot itself - the filled log size as an integer, the wall time as the
 * bits of a float, the block size it targeted.  That is why the parser
 * keeps the address of those slots, not their values: cuLinkCreate's
 * arrays must stay valid until cuLinkDestroy for exactly this reason.
 *
 * Our compiler has one code generator, so the tuning options (register
 * limit, optimisation level, cache mode, target) are checked, kept and
 * reported in the verbose log, but do not change the vISA produced.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_internal.h"
#include "jit_options.h"

/* CUjit_target values cuda.h defines (compute_30 ... compute_121f). */
static bool cu_jit_target_known(unsigned int t)
{
	static const unsigned int plain[] = {
		30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86,
		87, 89, 90, 100, 103, 110, 120, 121,
	};
	unsigned int base = t;
	size_t i;

	if (t >= CU_COMPUTE_FAMILY_TARGET_BASE) {
		base = t - CU_COMPUTE_FAMILY_TARGET_BASE;
		if (base < 100)		/* family targets start at 10.0 */
			return false;
	} else if (t >= CU_COMPUTE_ACCELERATED_TARGET_BASE) {
		base = t - CU_COMPUTE_ACCELERATED_TARGET_BASE;
		if (base < 90)		/* accelerated targets start at 9.0 */
			return false;
	}
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (plain[i] == base)
			return true;
	return false;
}

static CUresult __attribute__((format(printf, 4, 5)))
cu_jit_bad(CUresult res, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return res;
}

CUresult cu_jit_options_parse(enum cu_jit_scope scope, unsigned int n,
			      const CUjit_option *options, void **values,
			      struct cu_jit_options *out, char *why,
			      size_t whylen)
{
	unsigned int i;
	bool has_target = false;

	memset(out, 0, sizeof(*out));
	out->opt_level = 4;
	if (why && whylen)
		why[0] = '\0';
	if (n && (!options || !values))
		return cu_jit_bad(CUDA_ERROR_INVALID_VALUE, why, whylen,
				  "%u JIT options without their arrays", n);
	for (i = 0; i < n; i++) {
		unsigned int opt = (unsigned int)options[i];
		unsigned long v = (unsigned long)(uintptr_t)values[i];

		switch (opt) {
		case CU_JIT_WALL_TIME:
		case CU_JIT_INFO_LOG_BUFFER:
		case CU_JIT_ERROR_LOG_BUFFER:
		case CU_JIT_TARGET_FROM_CUCONTEXT:
		case CU_JIT_TARGET:
			/* Linker options: the documentation of cuLinkAddData
			 * lists these as the ones an input does not accept. */
			if (scope == CU_JIT_SCOPE_INPUT)
				return cu_jit_bad(CUDA_ERROR_INVALID_VALUE, why,
						  whylen,
						  "JIT option %u applies to the whole link, not to one input",
						  opt);
			break;
		default:
			break;
		}
		switch (opt) {
		case CU_JIT_MAX_REGISTERS:
			out->max_registers = (unsigned int)v;
			break;
		case CU_JIT_THREADS_PER_BLOCK:
			if (!v || v > 0xffffffffu)
				goto bad_value;
			out->threads_per_block = (unsigned int)v;
			out->threads_slot = &values[i];
			break;
		case CU_JIT_WALL_TIME:
			out->wall_time_slot = &values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER:
			out->info.buf = values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			out->info.size = (unsigned int)v;
			out->info.size_slot = &values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			out->error.buf = values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			out->error.size = (unsigned int)v;
			out->error.size_slot = &values[i];
			break;
		case CU_JIT_OPTIMIZATION_LEVEL:
			if (v > 4)
				goto bad_value;
			out->opt_level = (unsigned int)v;
			break;
		case CU_JIT_TARGET_FROM_CUCONTEXT:
			out->target = 0;	/* the default; no value */
			break;
		case CU_JIT_TARGET:
			if (v > 0xffffffffu ||
			    !cu_jit_target_known((unsigned int)v))
				goto bad_value;
			out->target = (unsigned int)v;
			has_target = true;
			break;
		case CU_JIT_FALLBACK_STRATEGY:
			if (v > CU_PREFER_BINARY)
				goto bad_value;
			out->fallback = (unsigned int)v;
			break;
		case CU_JIT_GENERATE_DEBUG_INFO:
			out->debug_info = (int)v != 0;
			break;
		case CU_JIT_LOG_VERBOSE:
			out->verbose = (int)v != 0;
			break;
		case CU_JIT_GENERATE_LINE_INFO:
			out->line_info = (int)v != 0;
			break;
		case CU_JIT_CACHE_MODE:
			if (v > CU_JIT_CACHE_OPTION_CA)
				goto bad_value;
			out->cache_mode = (unsigned int)v;
			break;
		/* Code-generation hints with no effect on what the program
		 * computes: taken, and without effect on our one code
		 * generator. */
		case CU_JIT_NEW_SM3X_OPT:
		case CU_JIT_FAST_COMPILE:
		case CU_JIT_FTZ:
		case CU_JIT_PREC_DIV:
		case CU_JIT_PREC_SQRT:
		case CU_JIT_FMA:
		case CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES:
		case CU_JIT_POSITION_INDEPENDENT_CODE:
		case CU_JIT_MIN_CTA_PER_SM:
		case CU_JIT_MAX_THREADS_PER_BLOCK:
		case CU_JIT_OVERRIDE_DIRECTIVE_VALUES:
		case CU_JIT_SPLIT_COMPILE:
			break;
		/* Options that change what the program means, which we
		 * cannot do: refused rather than silently ignored. */
		case CU_JIT_GLOBAL_SYMBOL_NAMES:
		case CU_JIT_GLOBAL_SYMBOL_ADDRESSES:
		case CU_JIT_GLOBAL_SYMBOL_COUNT:
		case CU_JIT_LTO:
		case CU_JIT_REFERENCED_KERNEL_NAMES:
		case CU_JIT_REFERENCED_KERNEL_COUNT:
		case CU_JIT_REFERENCED_VARIABLE_NAMES:
		case CU_JIT_REFERENCED_VARIABLE_COUNT:
			return cu_jit_bad(CUDA_ERROR_NOT_SUPPORTED, why, whylen,
					  "JIT option %u (host symbols, link-time optimisation) is not supported by vGPU",
					  opt);
		default:
			return cu_jit_bad(CUDA_ERROR_INVALID_VALUE, why, whylen,
					  "unknown JIT option %u", opt);
		}
		continue;
bad_value:
		return cu_jit_bad(CUDA_ERROR_INVALID_VALUE, why, whylen,
				  "JIT option %u: bad value %lu", opt, v);
	}
	if (has_target && out->threads_slot)
		return cu_jit_bad(CUDA_ERROR_INVALID_VALUE, why, whylen,
				  "CU_JIT_TARGET cannot be combined with CU_JIT_THREADS_PER_BLOCK");
	return CUDA_SUCCESS;
}

bool cu_jit_text_add(struct cu_jit_text *t, const char *fmt, ...)
{
	va_list ap;
	int need;
	char *s;

	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0)
		return false;
	s = realloc(t->s, t->len + (size_t)need + 2);
	if (!s)
		return false;
	t->s = s;
	va_start(ap, fmt);
	vsnprintf(s + t->len, (size_t)need + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)need;
	s[t->len++] = '\n';
	s[t->len] = '\0';
	return true;
}

void cu_jit_text_free(struct cu_jit_text *t)
{
	free(t->s);
	t->s = NULL;
	t->len = 0;
}

void cu_jit_log_publish(const struct cu_jit_log *log,
			const struct cu_jit_text *t)
{
	size_t n = 0;

	if (log->buf && log->size) {
		n = t->len < log->size - 1 ? t->len : log->size - 1;
		if (n)
			memcpy(log->buf, t->s, n);
		log->buf[n] = '\0';
	}
	if (log->size_slot)
		*log->size_slot = (void *)(uintptr_t)n;
}

void cu_jit_describe_image(struct cu_jit_text *t, const void *image,
			   bool from_cache)
{
	const struct visa_image_header *h = image;
	const uint8_t *k;
	uint32_t n, i;

	k = cu_visa_section(h, VISA_SEC_KERNELS, &n);
	cu_jit_text_add(t, "info    : vISA image of %llu bytes for sm_%u%u%s",
			(unsigned long long)h->image_size, CU_CC_MAJOR, CU_CC_MINOR,
			from_cache ? " (from the compute cache)" : "");
	cu_jit_text_add(t, "info    : %llu bytes gmem, %llu bytes cmem",
			(unsigned long long)h->global_size,
			(unsigned long long)h->const_size);
	for (i = 0; i < n; i++) {
		const struct visa_kernel *kk = (const void *)
			(k + (size_t)i * h->sections[VISA_SEC_KERNELS].entsize);

		cu_jit_text_add(t, "info    : Function properties for '%s':",
				cu_visa_string(h, kk->name));
		cu_jit_text_add(t, "info    : used %u registers, %u bytes smem, %u bytes lmem, %u bytes params",
				kk->num_regs, kk->shared_size, kk->local_size,
				kk->param_size);
	}
}

void cu_jit_options_report(const struct cu_jit_options *o, double wall_ms)
{
	if (o->wall_time_slot) {
		float ms = (float)wall_ms;
		void *bits = NULL;

		memcpy(&bits, &ms, sizeof(ms));	/* the float's bits */
		*o->wall_time_slot = bits;
	}
	if (o->threads_slot) {
		unsigned int t = o->threads_per_block;

		/* Our register file never limits a block below the
		 * device's maximum, so that is the only cap. */
		if (t > CU_MAX_THREADS_PER_BLOCK)
			t = CU_MAX_THREADS_PER_BLOCK;
		*o->threads_slot = (void *)(uintptr_t)t;
	}
}

double cu_jit_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
