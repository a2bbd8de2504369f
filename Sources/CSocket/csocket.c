// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include "CSocket.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <sys/epoll.h>

int csocket_accept_nonblocking(int listener) { return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int csocket_stream_type(void) { return SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC; }

int csocket_msg_nosignal(void) { return MSG_NOSIGNAL; }

int csocket_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csocket_epoll_watch(int epoll, int fd, int registered, int reading, int writing) {
    if (!reading && !writing) {
        return registered ? epoll_ctl(epoll, EPOLL_CTL_DEL, fd, 0) : 0;
    }
    struct epoll_event event = {0};
    event.events = (reading ? EPOLLIN | EPOLLRDHUP : 0) | (writing ? EPOLLOUT : 0);
    event.data.fd = fd;
    return epoll_ctl(epoll, registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int csocket_epoll_ready(int epoll, int *fds, unsigned *readiness, int capacity) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count;
    do {
        count = epoll_wait(epoll, events, capacity, 0);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        unsigned flags = events[i].events;
        fds[i] = events[i].data.fd;
        readiness[i] = ((flags & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ? CSOCKET_READABLE : 0)
                     | ((flags & (EPOLLOUT | EPOLLHUP | EPOLLERR)) ? CSOCKET_WRITABLE : 0);
    }
    return count;
}

int csocket_affinity_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return 0;
    }
    return CPU_COUNT(&set);
}

int csocket_peer_has_left(int fd) {
    char byte;
    ssize_t n;
    do {
        n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    if (n > 0) return 0;
    if (n == 0) return 1;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
}

int csocket_malloc_trim(void) { return malloc_trim(0); }
