// Linux headers the Swift Glibc module does not export: epoll(7), eventfd(2), mallopt(3), prctl(2).
// Only the HTTPServer target imports this module.
#ifndef CHTTPSERVERLINUX_SHIM_H
#define CHTTPSERVERLINUX_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <malloc.h>
#include <sys/prctl.h>

/// Names the calling thread (prctl PR_SET_NAME; the kernel keeps the first 15 bytes). 0 on success.
static inline int chttp_set_current_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
