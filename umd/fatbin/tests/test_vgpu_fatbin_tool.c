// SPDX-License-Identifier: GPL-2.0
/* The vgpu-fatbin tool, run on nvcc's output and on bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "fatbin_test_util.h"

#define DATA FATBIN_TEST_DATA "/"

/* Run the tool with @args; its stdout+stderr in a malloc()ed string. */
static int run_tool(const char *args, char **output)
{
	char cmd[4096], *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", VGPU_FATBIN_TOOL, args);
	p = popen(cmd, "r");
	if (!p)
		ksft_exit_fail_msg("cannot run %s\n", cmd);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0) {
		buf = realloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	if (!buf)
		buf = calloc(1, 1);
	buf[len] = '\0';
	status = pclose(p);
	*output = buf;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect(const char *args, int status, const char *needle,
		   const char *what)
{
	char *out;
	int got = run_tool(args, &out);

	if (got != status || !strstr(out, needle))
		ksft_print_msg("vgpu-fatbin %s: exit %d, output:\n%s", args,
			       got, out);
	ksft_test_result(got == status && strstr(out, needle), "%s\n", what);
	free(out);
}

static void expect_ptx(const char *args, const char *reference_name,
		       const char *what)
{
	char *reference = test_reference_ptx(reference_name);
	char *out;
	int got = run_tool(args, &out);

	ksft_test_result(got == 0 && test_same_ptx(out, reference), "%s\n",
			 what);
	free(out);
	free(reference);
}

static void test_extract(void)
{
	char dir[] = "/tmp/vgpu-fatbin-tool-XXXXXX", args[512], path[512];
	char *reference = test_reference_ptx("kernels.compute_75.ptx");
	char *out, *text = NULL;
	size_t len = 0;
	FILE *f;
	int got;

	if (!mkdtemp(dir))
		ksft_exit_fail_msg("mkdtemp failed\n");
	snprintf(args, sizeof(args), "-x -o %s %skernels.lz4.fatbin", dir, DATA);
	got = run_tool(args, &out);
	snprintf(path, sizeof(path), "%s/kernels.lz4.fatbin.0.compute_75.ptx",
		 dir);
	f = fopen(path, "r");
	if (f) {
		text = calloc(1, 1 << 20);
		len = fread(text, 1, (1 << 20) - 1, f);
		fclose(f);
		unlink(path);
	}
	ksft_test_result(got == 0 && strstr(out, path) && len &&
			 test_same_ptx(text, reference),
			 "-x writes FILE.N.compute_XX.ptx with the PTX\n");
	rmdir(dir);
	free(text);
	free(out);
	free(reference);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(12);
	expect("-l " DATA "kernels.default.fatbin", 0,
	       "PTX   compute_75      9.0 zstd", "-l: PTX entry, arch, ISA, zstd");
	expect("-l " DATA "multiarch.fatbin", 0, "compute_90a",
	       "-l: arch-specific PTX shown as compute_90a");
	expect("-l " DATA "rdc_a.o", 0, "__nv_relfatbin",
	       "-l on an -rdc=true object: its __nv_relfatbin section");
	expect_ptx("-p " DATA "kernels.default.fatbin",
		   "kernels.compute_75.ptx", "-p prints the PTX nvcc produced");
	expect_ptx("-p --sm 86 " DATA "multiarch.fatbin",
		   "multiarch.compute_80.ptx", "--sm 86 picks the compute_80 PTX");
	test_extract();
	expect("--sm 70 " DATA "multiarch.fatbin", 1, "no PTX usable",
	       "--sm 70: no usable PTX is reported, exit 1");
	expect(DATA "kernels.compute_75.ptx", 1, "not an ELF file or a fatbinary",
	       "a PTX text file is refused clearly");
	expect(DATA "no-such-file", 1, "No such file",
	       "a missing file is reported");
	expect("", 2, "Usage:", "no file: usage, exit 2");
	expect("--sm banana x", 2, "bad --sm", "bad --sm value: exit 2");
	expect("--isa 9 " DATA "multiarch.fatbin", 2, "bad --isa",
	       "bad --isa value: exit 2");
	ksft_finished();
}
