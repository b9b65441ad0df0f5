/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: no trace events are created in a fuzz build. */
