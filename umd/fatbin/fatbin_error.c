// SPDX-License-Identifier: GPL-2.0
/* Messages for vgpu_fatbin_result codes. */
#include "fatbin.h"

const char *vgpu_fatbin_strerror(int result)
{
	switch (result) {
	case VGPU_FATBIN_OK:
		return "success";
	case VGPU_FATBIN_END:
		return "no more entries";
	case VGPU_FATBIN_EINVAL:
		return "invalid argument";
	case VGPU_FATBIN_EMAGIC:
		return "bad magic number: not a fatbinary";
	case VGPU_FATBIN_EVERSION:
		return "unsupported fatbinary version";
	case VGPU_FATBIN_ETRUNCATED:
		return "truncated: a size or offset points past the end of the data";
	case VGPU_FATBIN_EHEADER:
		return "malformed header";
	case VGPU_FATBIN_ECOMPRESSION:
		return "unknown or inconsistent compression flags";
	case VGPU_FATBIN_EDECOMPRESS:
		return "payload does not decompress to its declared size";
	case VGPU_FATBIN_ETOOBIG:
		return "size exceeds the 1 GiB limit";
	case VGPU_FATBIN_ENOMEM:
		return "out of memory";
	case VGPU_FATBIN_ENOPTX:
		return "no PTX usable on this device (architecture or PTX ISA version too new)";
	case VGPU_FATBIN_ENOTPTX:
		return "entry is not PTX";
	case VGPU_FATBIN_ENOTELF:
		return "not a 64-bit little-endian ELF file";
	case VGPU_FATBIN_EFAULT:
		return "registered fatbin points at unmapped memory";
	case VGPU_FATBIN_ENOSECTION:
		return "no fatbinary section (.nv_fatbin or __nv_relfatbin) in the file";
	}
	return "unknown error";
}
