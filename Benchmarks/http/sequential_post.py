#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sends COUNT keep-alive POSTs of one body, one after another on one connection, and checks every answer is 200.

    python3 Benchmarks/http/sequential_post.py PORT COUNT BODY_FILE [PATH]

For counting what the server does per request (its `malloc` calls, under `perf stat`): one request at a time,
so nothing but the requests themselves runs in the server while it is counted.
"""
import socket
import sys


def main():
    port, count, body = int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "rb").read()
    path = sys.argv[4] if len(sys.argv) > 4 else "/convert/GithubUser"
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    with socket.create_connection(("127.0.0.1", port)) as connection:
        answers = connection.makefile("rb")
        for _ in range(count):
            connection.sendall(request)
            status = answers.readline()
            length = 0
            while (line := answers.readline()) != b"\r\n":
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            answers.read(length)
            if not status.startswith(b"HTTP/1.1 200"):
                sys.exit(f"sequential_post: {status.decode().strip()}")
    print(f"{count} requests answered 200")


main()
