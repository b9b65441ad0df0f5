// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's tracepoints (cm_trace.h) are defined here, once.
 */
#define CREATE_TRACE_POINTS
#include "irdma_cm/cm_trace.h"
