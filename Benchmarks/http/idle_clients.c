// SPDX-License-Identifier: Apache-2.0
/*
 * idle_clients: holds many idle keep-alive HTTP/1.1 connections open, for scripts/bench-http.sh (wrk cannot).
 *
 *   idle_clients HOST PORT COUNT [BATCH] [PAUSE_MS] [HOLD_S]
 *
 * Opens COUNT connections in batches of BATCH (default 500), pausing PAUSE_MS (default 50) between batches so the
 * server's listen backlog (4,096 here) never overflows. On each connection it sends one
 * "GET /health HTTP/1.1" (keep-alive) and reads the whole answer, which must be a 200 with a Content-Length. Then
 * it holds every connection idle, without sending anything, until SIGTERM/SIGINT or HOLD_S seconds (default 60,
 * at most 600) have passed, and reports how many connections the server closed meanwhile.
 *
 * Standard output gets one JSON object per line:
 *   {"event":"batch","open":500,"ms":12.3}                 after each batch (ms since start)
 *   {"event":"holding","open":10000,"ms":...}              every request answered; "ms" is the last answer's time
 *   {"event":"done","open":10000,"closedByServer":0,"heldMs":...}
 *   {"event":"error","open":N,"message":"..."}             then exit status 1
 * Exit status: 0 all went well, 1 a connection or an answer failed, 2 bad arguments.
 *
 * Build: gcc -O2 -Wall -Wextra -o idle_clients idle_clients.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Each socket waits at most this long for a connect, a send or an answer. */
#define IO_TIMEOUT_SECONDS 5
#define MAX_COUNT 60000
#define MAX_HOLD_SECONDS 600

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int signo) {
    (void)signo;
    stop_requested = 1;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double start_ms;
static int open_count;

/* Reports a failure as a JSON line and exits 1 (the caller's connections close with the process). */
static void fail(const char *what, int err) {
    char message[256];
    snprintf(message, sizeof message, "%s%s%s", what, err ? ": " : "", err ? strerror(err) : "");
    /* The message holds no quotes or backslashes: it is built from fixed text and strerror. */
    printf("{\"event\":\"error\",\"open\":%d,\"ms\":%.1f,\"message\":\"%s\"}\n", open_count, now_ms() - start_ms,
           message);
    fflush(stdout);
    exit(1);
}

static long parse_count(const char *text, const char *name, long min, long max) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "idle_clients: %s must be a whole number from %ld to %ld, not \"%s\"\n", name, min, max, text);
        exit(2);
    }
    return value;
}

/* Sends all of buf, or fails. */
static void send_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("send", errno);
        }
        buf += n;
        len -= (size_t)n;
    }
}

/* Reads one answer (headers, then Content-Length bytes of body) and checks that it is a 200. */
static void read_answer(int fd) {
    char buf[8192];
    size_t used = 0;
    char *header_end = NULL;
    while (header_end == NULL) {
        if (used == sizeof buf - 1) fail("answer header section too large", 0);
        ssize_t n = recv(fd, buf + used, sizeof buf - 1 - used, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("recv (answer)", errno);
        if (n == 0) fail("server closed the connection before answering", 0);
        used += (size_t)n;
        buf[used] = '\0';
        header_end = strstr(buf, "\r\n\r\n");
    }
    if (strncmp(buf, "HTTP/1.1 200 ", 13) != 0) {
        fail("answer is not HTTP/1.1 200", 0);
    }
    /* Content-Length, case-insensitively; the answer must have one (a keep-alive answer to GET /health does). */
    long content_length = -1;
    for (char *line = strstr(buf, "\r\n"); line != NULL && line < header_end; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "Content-Length:", 15) == 0) {
            content_length = strtol(line + 2 + 15, NULL, 10);
        }
        if (strncasecmp(line + 2, "Connection: close", 17) == 0) {
            fail("server answered with Connection: close", 0);
        }
    }
    if (content_length < 0) fail("answer has no Content-Length", 0);
    size_t have = used - (size_t)(header_end + 4 - buf);
    while ((long)have < content_length) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("recv (body)", errno);
        if (n == 0) fail("server closed the connection in the body", 0);
        have += (size_t)n;
    }
    if ((long)have > content_length) fail("more bytes than Content-Length (nothing else was asked)", 0);
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 7) {
        fprintf(stderr, "usage: idle_clients HOST PORT COUNT [BATCH] [PAUSE_MS] [HOLD_S]\n");
        return 2;
    }
    const char *host = argv[1];
    const char *port = argv[2];
    int count = (int)parse_count(argv[3], "COUNT", 1, MAX_COUNT);
    int batch = argc > 4 ? (int)parse_count(argv[4], "BATCH", 1, MAX_COUNT) : 500;
    long pause_ms = argc > 5 ? parse_count(argv[5], "PAUSE_MS", 0, 10000) : 50;
    long hold_s = argc > 6 ? parse_count(argv[6], "HOLD_S", 0, MAX_HOLD_SECONDS) : 60;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    /* One descriptor per connection, plus a few: raise the soft limit as far as the hard limit allows. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (rlim_t)count + 16) {
        fprintf(stderr, "idle_clients: the open-file limit (%llu) is below COUNT + 16; raise ulimit -n\n",
                (unsigned long long)limit.rlim_cur);
        return 2;
    }

    struct addrinfo hints, *address;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int gai = getaddrinfo(host, port, &hints, &address);
    if (gai != 0) {
        fprintf(stderr, "idle_clients: cannot resolve %s:%s: %s\n", host, port, gai_strerror(gai));
        return 2;
    }

    char request[512];
    int request_len = snprintf(request, sizeof request,
                               "GET /health HTTP/1.1\r\nHost: %s:%s\r\nConnection: keep-alive\r\n\r\n", host, port);

    int *fds = calloc((size_t)count, sizeof *fds);
    if (fds == NULL) fail("out of memory", 0);
    struct timeval timeout = {.tv_sec = IO_TIMEOUT_SECONDS, .tv_usec = 0};
    start_ms = now_ms();
    double last_answer_ms = 0;

    for (int first = 0; first < count && !stop_requested; first += batch) {
        int last = first + batch < count ? first + batch : count;
        /* Connect and send on the whole batch first, so the server sees them arrive together... */
        for (int i = first; i < last; i++) {
            int fd = socket(address->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0) fail("socket", errno);
            /* A blocking connect gives up after SO_SNDTIMEO; reads after SO_RCVTIMEO. */
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(fd, address->ai_addr, address->ai_addrlen) != 0) fail("connect", errno);
            fds[i] = fd;
            open_count++;
            send_all(fd, request, (size_t)request_len);
        }
        /* ...then read every answer. */
        for (int i = first; i < last; i++) {
            read_answer(fds[i]);
        }
        last_answer_ms = now_ms() - start_ms;
        printf("{\"event\":\"batch\",\"open\":%d,\"ms\":%.1f}\n", open_count, last_answer_ms);
        fflush(stdout);
        if (last < count && pause_ms > 0) {
            struct timespec pause = {.tv_sec = pause_ms / 1000, .tv_nsec = (pause_ms % 1000) * 1000000L};
            nanosleep(&pause, NULL);
        }
    }
    freeaddrinfo(address);
    if (stop_requested) fail("stopped by a signal before every connection was open", 0);
    printf("{\"event\":\"holding\",\"open\":%d,\"ms\":%.1f}\n", open_count, last_answer_ms);
    fflush(stdout);

    /* Hold: wake once a second to notice signals, the deadline, and connections the server closed. */
    struct pollfd *polls = calloc((size_t)count, sizeof *polls);
    if (polls == NULL) fail("out of memory", 0);
    for (int i = 0; i < count; i++) {
        polls[i].fd = fds[i];
        polls[i].events = POLLIN | POLLRDHUP;
    }
    int closed_by_server = 0;
    double hold_start = now_ms();
    while (!stop_requested && now_ms() - hold_start < hold_s * 1e3) {
        int ready = poll(polls, (nfds_t)count, 1000);
        if (ready < 0 && errno != EINTR) fail("poll", errno);
        for (int i = 0; ready > 0 && i < count; i++) {
            if (polls[i].revents == 0) continue;
            /* Anything readable on an idle connection is a close (or an unasked-for answer): count it, stop
               watching it. */
            closed_by_server++;
            close(polls[i].fd);
            polls[i].fd = -1;
            open_count--;
        }
    }
    printf("{\"event\":\"done\",\"open\":%d,\"closedByServer\":%d,\"heldMs\":%.1f}\n", open_count, closed_by_server,
           now_ms() - hold_start);
    fflush(stdout);
    for (int i = 0; i < count; i++) {
        if (polls[i].fd >= 0) close(polls[i].fd);
    }
    free(polls);
    free(fds);
    return 0;
}
