// SPDX-License-Identifier: GPL-2.0
// Per-thread arrays indexed dynamically live in local memory: an insertion
// sort of 24 values per thread, and a small stack-based evaluation.

extern "C" __global__ void sort_local(const int *in, int *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int a[24];

	for (int k = 0; k < 24; k++)
		a[k] = in[t * 24 + (k * 7) % 24];
	for (int k = 1; k < 24; k++) {
		int v = a[k], j = k - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
	for (int k = 0; k < 24; k++)
		out[t * 24 + k] = a[k];
}
