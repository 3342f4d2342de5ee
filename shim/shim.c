/* placeholder: the recorder is not implemented yet */
int vmrec_shim_placeholder;
