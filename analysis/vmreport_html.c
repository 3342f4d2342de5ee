#include "analysis/vmreport_html.h"
void rep_write_html(FILE *f, const struct rep_table *t)
{
	(void)t;
	fputs("<!DOCTYPE html>\n", f);
}
