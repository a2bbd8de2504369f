# syntax=docker/dockerfile:1
# Build stage: a static-stdlib release binary (the example config is compiled into it).
FROM swift:6.0-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY config ./config
RUN swift build -c release --static-swift-stdlib --product TransformServer \
 && cp "$(swift build -c release --show-bin-path)/TransformServer" /TransformServer

# Runtime stage: a slim image, non-root, with the binary and the example configuration.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends zlib1g libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home /app transform
WORKDIR /app
COPY --from=build /TransformServer /usr/local/bin/TransformServer
COPY --chown=transform config ./config
USER transform
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["TransformServer", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["TransformServer", "serve", "--config", "/app/config"]
