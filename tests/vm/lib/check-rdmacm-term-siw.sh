#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The capture of tests/vm/siw/59-rdmacm-terminate.sh with RDMACM_DEV=siw.
exec "$(dirname "$0")/check-rdmacm-term.sh" "$@"
