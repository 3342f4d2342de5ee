/* env_self.h - the recorder's own environment: what it hides from the
 * program, what it hands to the next image, and where the library is. */
#ifndef SHIM_ENV_SELF_H
#define SHIM_ENV_SELF_H

#include <stddef.h>

/* Keep the variables the next image needs ("NAME=value"): VMREC_OUT,
 * VMREC_STORE and the options set now (exec_env.c puts them back); -1
 * when they are too long to keep. */
int env_self_save(const char *out, const char *store);
/* The environment the recorder needs in an exec'd image, NULL-terminated,
 * and the library's own path ("" until env_self_locate). */
const char *const *shim_saved_env(void);
const char *shim_lib_path(void);
/* Find the library's path, as /proc/self/maps names it; `fn` is a
 * function of the library. */
void env_self_locate(void *fn);
/* 1 if the first `len` bytes of an environment string start one of the
 * recorder's own variables (VMREC_OUT=..., the list in env_self.c); a
 * VMREC_ name the recorder does not use is the program's. */
int shim_env_ours(const char *s, size_t len);
/* environ without the recorder's variables and its LD_PRELOAD entry. */
void env_self_hide(void);
/* A root that could not record renames VMREC_OUT to VMREC_OFF. */
void env_self_off(void);

#endif
