# SPDX-License-Identifier: GPL-2.0
# Shared settings for madcm's scripts. Source it; do not run it.

MADCM_CACHE=${MADCM_CACHE:-$HOME/.cache/madcm}
MADCM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export MADCM_CACHE MADCM_ROOT

say() { printf '[madcm] %s\n' "$*" >&2; }
die() { printf '[madcm] error: %s\n' "$*" >&2; exit 1; }

# Run a step once: "$MADCM_CACHE/.stamp-NAME" records its completion, so an
# interrupted step is simply redone next time.
stamp_done() { [ -e "$MADCM_CACHE/.stamp-$1" ]; }
stamp_set() { touch "$MADCM_CACHE/.stamp-$1"; }
