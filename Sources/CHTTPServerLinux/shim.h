// Linux headers the Swift Glibc module does not export: epoll(7), eventfd(2), mallopt(3).
// Only the HTTPServer target imports this module.
#ifndef CHTTPSERVERLINUX_SHIM_H
#define CHTTPSERVERLINUX_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <malloc.h>
#endif
