// SPDX-License-Identifier: GPL-2.0
/*
 * native_front_exports.c - each front exports exactly what NVIDIA's
 * library of the same name exports, under the same version node.
 *
 * Runs on the host: reads both dynamic symbol tables with objdump -T and
 * compares the defined functions and objects, name and version.  The
 * build names the fronts (FRONT_DIR) and the toolkit (TOOLKIT_DIR); a
 * library missing from the toolkit is a skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SYMS 256

struct syms {
	int n;
	char name[MAX_SYMS][256];
};

/* "VERSION NAME" of every defined dynamic symbol of @path, sorted. */
static int read_syms(const char *path, struct syms *s)
{
	char cmd[1024], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -T '%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	s->n = 0;
	while (fgets(line, sizeof(line), p)) {
		char ver[128], name[128];

		/* addr flags kind section size version name */
		if (!strstr(line, " DF ") && !strstr(line, " DO "))
			continue;
		if (strstr(line, "*UND*"))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %*s %127s %127s", ver,
			   name) != 2)
			continue;
		if (s->n < MAX_SYMS)
			snprintf(s->name[s->n++], sizeof(s->name[0]), "%s %s",
				 ver, name);
	}
	if (pclose(p))
		return -1;
	qsort(s->name, (size_t)s->n, sizeof(s->name[0]),
	      (int (*)(const void *, const void *))strcmp);
	return 0;
}

static int check(int test, const char *lib)
{
	static struct syms front, real;
	char fpath[512], rpath[512];
	int bad = 0, i = 0, j = 0;

	snprintf(fpath, sizeof(fpath), "%s/%s", FRONT_DIR, lib);
	snprintf(rpath, sizeof(rpath), "%s/%s", TOOLKIT_DIR, lib);
	if (access(rpath, R_OK)) {
		printf("ok %d %s # SKIP %s absent\n", test, lib, rpath);
		return 0;
	}
	if (read_syms(fpath, &front) || read_syms(rpath, &real) || !real.n) {
		printf("not ok %d %s: objdump -T failed\n", test, lib);
		return 1;
	}
	while (i < front.n || j < real.n) {
		int c = i == front.n ? 1 : j == real.n ? -1 :
			strcmp(front.name[i], real.name[j]);

		if (c < 0)
			printf("# %s: front only: %s\n", lib, front.name[i++]);
		else if (c > 0)
			printf("# %s: NVIDIA's only: %s\n", lib, real.name[j++]);
		else
			i++, j++;
		bad += c != 0;
	}
	printf("%sok %d %s exports NVIDIA's %d symbols, same versions\n",
	       bad ? "not " : "", test, lib, real.n);
	return bad != 0;
}

int main(void)
{
	int fail = 0;

	printf("TAP version 13\n1..2\n");
	fail |= check(1, "libnvrtc.so.13");
	fail |= check(2, "libnvJitLink.so.13");
	return fail;
}
