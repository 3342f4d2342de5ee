/* The replayer's own memory never comes from brk: the replayed brk/sbrk
 * sequence owns the heap.  jemalloc replaces malloc for the whole process
 * (libc's internal allocations included) and reads this symbol at start. */
const char *malloc_conf = "dss:disabled,narenas:1,background_thread:false";
