/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the installed uapi header. */
#include <rdma/ib_user_mad.h>
