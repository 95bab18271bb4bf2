/* SPDX-License-Identifier: GPL-2.0 */
/* What nvcc's static constructors registered (see registration_stub.c). */
#ifndef REGISTRATION_STUB_H
#define REGISTRATION_STUB_H

#define REGISTRATION_MAX	16

struct registration_log {
	const void *wrapper[REGISTRATION_MAX];	/* __cudaRegisterFatBinary */
	int wrappers;
	int ends;				/* __cudaRegisterFatBinaryEnd */
	const char *function[REGISTRATION_MAX];	/* mangled kernel names */
	int functions;
	const char *var[REGISTRATION_MAX];	/* device variable names */
	int vars;
};

extern struct registration_log registration_log;

#endif /* REGISTRATION_STUB_H */
