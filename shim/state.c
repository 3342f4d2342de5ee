/* state.c - the recorder's shared state (state.h says what each is). */
#include "state.h"

struct shim_proc shim;
__thread struct shim_thread shim_self __attribute__((tls_model("initial-exec")));
__thread int shim_vfork_child __attribute__((tls_model("initial-exec")));
__thread uint16_t shim_trap_flags __attribute__((tls_model("initial-exec")));
__thread uint64_t shim_trap_ip __attribute__((tls_model("initial-exec")));
int sud_enabled;
__thread uint8_t shim_sud_selector __attribute__((tls_model("initial-exec")));
void *shim_exempt_syscall;
