# syntax=docker/dockerfile:1
#
# Both binaries (indexer, api) in one small image that runs as a non-root user.
#
#   docker build -t stardust-indexer .
#   docker run --rm stardust-indexer indexer run -h
#
# docker-compose.yml builds and uses this image for the migrate, indexer and api services.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
# go.mod may ask for a newer patch release than the image has: let go fetch that toolchain.
ENV GOTOOLCHAIN=auto CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
# The local database (.dev/) and built binaries (bin/) are not sources.
COPY --exclude=.dev --exclude=bin --exclude=.git . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -ldflags="-s -w" -o /out/ ./cmd/indexer ./cmd/api

# Static binaries need no libc: distroless/static holds CA certificates, tzdata and a
# nonroot user (uid 65532), and no shell.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/indexer /out/api /usr/local/bin/
USER nonroot:nonroot
# api -addr, indexer -ops-addr, api -ops-addr
EXPOSE 8080 9100 9101
CMD ["api", "-addr", "0.0.0.0:8080"]
