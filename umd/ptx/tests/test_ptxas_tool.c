// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptxas_tool - the vgpu-ptxas command: compiles and links PTX files
 * into an image file, prints resource usage with -v, and reports bad
 * input as "file:line:col: error: ..." with a non-zero exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptx_test.h"

/* Run a shell command; capture stdout+stderr into out. Return exit code. */
static int run(const char *cmd, char *out, size_t outlen)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int st;

	out[0] = '\0';
	if (!p)
		return -1;
	while (n + 1 < outlen) {
		size_t got = fread(out + n, 1, outlen - 1 - n, p);

		if (!got)
			break;
		n += got;
	}
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	char tmpdir[] = "/tmp/ptxas-test-XXXXXX";
	char cmd[2048], out[8192], path[700], want[800], bad[600];
	const char *corpus = PTX_TEST_DATA "/sm_75/control.ptx";
	uint32_t magic = 0;
	FILE *f;
	int rc;

	t_start();
	if (!t_ok(mkdtemp(tmpdir) != NULL, "temporary directory"))
		return t_done();
	snprintf(path, sizeof(path), "%s/out.visa", tmpdir);
	snprintf(cmd, sizeof(cmd), "'%s' -v -o '%s' '%s' 2>&1", PTX_TEST_PTXAS,
		 path, corpus);
	rc = run(cmd, out, sizeof(out));
	t_ok(rc == 0, "vgpu-ptxas -v compiles control.ptx (exit %d)", rc);
	t_ok(strstr(out, "Compiling entry function '_Z4flowPiPKii'") &&
	     strstr(out, "bytes stack frame") && strstr(out, "Used "),
	     "-v prints each kernel's resources like ptxas");
	f = fopen(path, "rb");
	t_ok(f && fread(&magic, 4, 1, f) == 1 && magic == VISA_MAGIC,
	     "-o writes a vISA image");
	if (f)
		fclose(f);

	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s/rdc/main.ptx' '%s/rdc/lib.ptx' 2>&1",
		 PTX_TEST_PTXAS, path, PTX_TEST_DATA, PTX_TEST_DATA);
	t_ok(run(cmd, out, sizeof(out)) == 0, "two -rdc modules link (%s)", out);

	snprintf(bad, sizeof(bad), "%s/bad.ptx", tmpdir);
	f = fopen(bad, "w");
	if (f) {
		fputs(".version 9.0\n.target sm_75\n.address_size 64\n"
		      ".visible .entry k()\n{\n  bogus.op 1;\n}\n", f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' 2>&1", PTX_TEST_PTXAS, path, bad);
	rc = run(cmd, out, sizeof(out));
	snprintf(want, sizeof(want), "%s:6:3: error: unknown or unsupported instruction 'bogus'\n",
		 bad);
	t_ok(rc == 1 && !strcmp(out, want), "bad input: exit 1 and file:line:col: error: message");

	snprintf(cmd, sizeof(cmd), "'%s' '%s/missing.ptx' 2>&1", PTX_TEST_PTXAS, tmpdir);
	rc = run(cmd, out, sizeof(out));
	t_ok(rc == 1 && strstr(out, "missing.ptx: No such file or directory"),
	     "missing file: exit 1 with the reason");
	snprintf(cmd, sizeof(cmd), "'%s' 2>&1", PTX_TEST_PTXAS);
	t_ok(run(cmd, out, sizeof(out)) == 2 && strstr(out, "usage:"),
	     "no arguments: usage and exit 2");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		t_diag("could not remove %s", tmpdir);
	return t_done();
}
