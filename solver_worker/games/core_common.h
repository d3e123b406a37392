/*
 * What the games' compiled cores share (each includes it after Python.h): a
 * monotonic clock for their time budgets, the hash mixer of their tables and the
 * step that appends a move's text to a line. bench/first_core.py splices only the
 * Tomb's table code, which uses none of it, into the first core: that source keeps
 * its own clock and needs no header.
 */
#ifndef SOLVER_CORE_COMMON_H
#define SOLVER_CORE_COMMON_H

#include <Python.h>
#include <stdint.h>
#include <time.h>

static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* MurmurHash3's 64-bit finaliser: every input bit reaches every output bit. */
static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

/* Append a move's text to a Python list: 0, or -1 with the Python error set. */
static inline int append_text(PyObject *line, const char *text) {
    PyObject *item = PyUnicode_FromString(text);
    if (item == NULL) return -1;
    int failed = PyList_Append(line, item);
    Py_DECREF(item);
    return failed;
}

#endif
