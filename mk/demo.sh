#!/bin/sh
echo "demo: not yet written" >&2
exit 2
