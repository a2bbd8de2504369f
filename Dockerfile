# SPDX-License-Identifier: Apache-2.0
# TransformServer's container image (docs/operations.md, "Container image"); scripts/verify-image.sh builds it
# and proves every property below. Exec form throughout: a shell may exist in the base, but nothing uses it.

# Build stage: a release binary with the Swift runtime linked in statically. The code needs Swift 6.3
# (InlineArray, OutputSpan), the version Package.swift names. Tests/ is copied because SwiftPM refuses a
# package whose declared test targets have no folder; nothing in it is built.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY config ./config
RUN swift build -c release --static-swift-stdlib --product TransformServer \
 && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/TransformServer" \
      /out/TransformServer \
 && strip /out/TransformServer

# Runtime stage: bookworm-slim holds every library the binary links (libc, libstdc++, libgcc_s, zlib) but libcurl,
# the one package installed: no package lists or caches are kept, no compiler.
FROM debian:bookworm-slim
ARG VERSION=0.0.0-dev
# Set by whoever builds it (scripts/verify-image.sh passes the repository's remote when it has one).
ARG SOURCE=https://example.invalid/transformserver
LABEL org.opencontainers.image.title="TransformServer" \
      org.opencontainers.image.description="JSON model conversion (YYModel's) as an HTTP service and a CLI" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}"
# libcurl reaches etcd (registryStore: etcd, docs/cluster.md); bookworm's security updates move its exact version,
# so it is not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/TransformServer /usr/local/bin/TransformServer
# Owned by root and read-only to the server: registry writes live in memory unless an operator mounts a writable
# schema directory (docs/operations.md).
COPY config /app/config
WORKDIR /app
# Below docker stop's default 10 s, so a slow client cannot get the process SIGKILLed mid-drain; raise both
# together (--stop-timeout, stop_grace_period, terminationGracePeriodSeconds) for a longer drain.
ENV TRANSFORM_DRAIN_GRACE_MS=8000
# Numeric, so Kubernetes' runAsNonRoot can verify it; any other UID works too (nothing is written at run time).
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
# `healthcheck` probes the configured listenPort (flags, TRANSFORM_LISTEN_PORT, server.json), not a fixed 8080.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 CMD ["TransformServer", "healthcheck"]
# `docker run IMAGE` serves; `docker run -i --rm IMAGE convert User < in.json` is a pipeline step.
ENTRYPOINT ["TransformServer"]
CMD ["serve", "--config", "/app/config"]
