// SPDX-License-Identifier: Apache-2.0
// GNU socket calls that Swift's Glibc module does not import. One Swift file uses this module:
// Sources/TransformServer/Network/Syscall.swift.
#ifndef CSOCKET_H
#define CSOCKET_H

#include <sys/socket.h>

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; returns the new descriptor or -1 with errno set.
int csocket_accept_nonblocking(int listener);

/// The flags for a non-blocking, close-on-exec stream socket, for socket(2).
int csocket_stream_type(void);

/// MSG_NOSIGNAL, for send(2).
int csocket_msg_nosignal(void);

#endif
