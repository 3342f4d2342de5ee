/* sud.c - placeholder: the dispatch safety net is not armed yet. */
#include "sud.h"

int sud_enabled;
__thread uint8_t shim_sud_selector __attribute__((tls_model("initial-exec")));

int sud_init(void) { return -1; }
void sud_arm_thread(void) {}
