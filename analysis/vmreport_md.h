/* vmreport_md.h - strings from results files and the command line into
 * markdown (vmreport --format markdown): whatever they hold (a metric
 * named "<script>", a path with a backtick or a '|'), a CommonMark or
 * GitHub renderer shows them as the text they are, never as markup, and
 * a table keeps its columns. */
#ifndef VMREC_VMREPORT_MD_H
#define VMREC_VMREPORT_MD_H

#include <stdbool.h>
#include <stdio.h>

/* S as plain text: markdown's punctuation backslash-escaped, line
 * breaks as spaces. */
void rep_md_text(FILE *f, const char *s);
/* S as a code span: fenced with more backticks than any run inside it;
 * IN_TABLE: a table cell, where '|' must be escaped even in code. */
void rep_md_code(FILE *f, const char *s, bool in_table);
/* The fence of a fenced code block that can hold S ("```" or longer). */
void rep_md_fence(char *buf, size_t len, const char *s);

#endif
