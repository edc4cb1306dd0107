/*
 * Marks for the constant-time check under valgrind memcheck
 * (provider/tests/ct_provider.c, which marks the key's secrets undefined
 * and fails on any branch or index that depends on them): OBX_PUBLIC says
 * that a value computed from secrets is public by design (a key's size,
 * whether an operation succeeded, the fault check's verdict), so that the
 * branch on it is not reported.
 *
 * Natively memcheck's client request is a few instructions that change
 * nothing (as the Rust library's `secret_marks`); where valgrind's header
 * is missing at build time, OBX_PUBLIC is nothing at all.
 */
#ifndef OBLIVEX_PROVIDER_CT_MARKS_H
#define OBLIVEX_PROVIDER_CT_MARKS_H

#ifdef OBX_HAVE_VALGRIND
#include <valgrind/memcheck.h>
#define OBX_PUBLIC(value) ((void)VALGRIND_MAKE_MEM_DEFINED(&(value), sizeof(value)))
#else
#define OBX_PUBLIC(value) ((void)0)
#endif

#endif
