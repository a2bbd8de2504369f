// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include "CSocket.h"

int csocket_accept_nonblocking(int listener) {
    return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csocket_stream_type(void) { return SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC; }

int csocket_msg_nosignal(void) { return MSG_NOSIGNAL; }
