# Ferry's Discord bot in a small image: `docker build -t ferry .`, then
# `docker run -e DISCORD_TOKEN=... -v ferry-data:/data ferry`. No token is baked in; the
# database lives on the /data volume.

FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, so that a change to Ferry's own code does not fetch them again
# (the manifest names the benchmarks, so cargo wants their files to read it).
COPY Cargo.toml Cargo.lock ./
COPY benches benches
RUN cargo fetch --locked
COPY build.rs ./
COPY src src
COPY fonts fonts
COPY migrations migrations
RUN cargo build --release --locked --bin ferry && strip target/release/ferry

FROM debian:bookworm-slim
# TLS roots for discord.com come compiled in (webpki-roots); ca-certificates serves a
# proxy in between that uses the system's.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data ferry \
    && mkdir /data && chown ferry /data
COPY --from=build /src/target/release/ferry /usr/local/bin/ferry
ENV FERRY_DB=/data/ferry.db \
    RUST_LOG=info
VOLUME /data
USER ferry
# `ferry serve` stops cleanly on SIGTERM (docker stop): commands under way finish first.
STOPSIGNAL SIGTERM
ENTRYPOINT ["ferry"]
CMD ["serve"]
