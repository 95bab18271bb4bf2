/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mufu.h - the PTX .approx functions (sin, cos, ex2, lg2, rcp, rsqrt,
 * sqrt, tanh) as the H100's MUFU unit and the instructions ptxas puts
 * around it compute them.  Both execution tiers call mufu_f32(): the
 * interpreter from exec_float.c, the native tier through the
 * interpreter's handler (it does not translate .approx).
 */
#ifndef VGPU_MUFU_H
#define VGPU_MUFU_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The result of the .approx function of vISA opcode @op (VISA_OP_SIN,
 * _COS, _EX2, _LG2, _RCP, _RSQRT, _SQRT, _TANH) on the f32 bit pattern
 * @x, as an f32 bit pattern; @ftz: the .ftz form (subnormal input and
 * result are flushed to zero of the same sign).
 */
uint32_t mufu_f32(unsigned int op, uint32_t x, bool ftz);

#endif
