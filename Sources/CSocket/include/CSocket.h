// SPDX-License-Identifier: Apache-2.0
// GNU calls that Swift's Glibc module does not import (sockets, epoll, the CPU affinity mask, malloc_trim). Only
// files in Sources/TransformServer/Network/ use this module (Syscall.swift, Listener.swift, EventLoop.swift,
// CoreCount.swift and MemoryReclaimer.swift), and the tests of CoreCount.
#ifndef CSOCKET_H
#define CSOCKET_H

#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; returns the new descriptor or -1 with errno set.
int csocket_accept_nonblocking(int listener);

/// The flags for a non-blocking, close-on-exec stream socket, for socket(2).
int csocket_stream_type(void);

/// MSG_NOSIGNAL, for send(2).
int csocket_msg_nosignal(void);

/// An event loop's readiness set: epoll_create1(EPOLL_CLOEXEC).
int csocket_epoll_create(void);

/// Watches `fd` for input (`reading`, with peer shutdown) and output (`writing`), level-triggered: adds it, changes
/// it (`registered`), or removes it when neither is wanted. 0, or -1 with errno set.
int csocket_epoll_watch(int epoll, int fd, int registered, int reading, int writing);

/// `readiness` bits: input or a hang-up/error to read about; room to write or a hang-up/error to write about.
#define CSOCKET_READABLE 1u
#define CSOCKET_WRITABLE 2u

/// Collects up to `capacity` (at most 256) ready descriptors without waiting: their numbers into `fds`, their
/// CSOCKET_* bits into `readiness`. Returns the count, or -1 with errno set.
int csocket_epoll_ready(int epoll, int *fds, unsigned *readiness, int capacity);

/// The number of CPUs in this process's affinity mask (sched_getaffinity(2), CPU_COUNT), or 0 when it cannot be
/// read.
int csocket_affinity_cpu_count(void);

/// 1 when the peer has closed or reset the connection (a peek reads the end of the stream or fails), 0 while it
/// is open or has bytes waiting (recv with MSG_PEEK | MSG_DONTWAIT; nothing is consumed).
int csocket_peer_has_left(int fd);

/// malloc_trim(0): gives the allocator's free memory back to the system; 1 if some was released.
int csocket_malloc_trim(void);

#endif
