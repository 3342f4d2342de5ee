#include "vmt.h"

const char *vmt_strerror(int err)
{
	switch (err) {
	case VMT_OK: return "success";
	case VMT_EIO: return "input/output error";
	case VMT_ENOMEM: return "out of memory";
	case VMT_EFOREIGN: return "not a vmrec trace";
	case VMT_EVERSION: return "unsupported trace format version";
	case VMT_ECORRUPT: return "corrupt trace";
	case VMT_ETRUNCATED: return "truncated trace";
	case VMT_EEMPTY: return "empty file";
	case VMT_EINVAL: return "invalid argument";
	case VMT_ENOSPC: return "no space left for the trace";
	}
	return "unknown error";
}
