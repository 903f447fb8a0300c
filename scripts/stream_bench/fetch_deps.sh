#!/usr/bin/env bash
# For the lent GPU machine, which has no libzmq/libcbor/liblz4 development files and no network:
# download Debian's packages here and unpack them into .deps/sys (carried with `.deps`), with
# pkg-config files that point at that folder. scripts/gpu_bench.sh uses it when it is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download libzmq3-dev libzmq5 libcbor-dev libcbor0.8 libsodium23 \
  libpgm-5.3-0 libnorm1 liblz4-dev liblz4-1 cppzmq-dev libbsd0 libmd0 libgssapi-krb5-2 \
  libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1 >/dev/null)
rm -rf .deps/sys
mkdir -p .deps/sys .deps/include
for f in "$tmp"/*.deb; do dpkg -x "$f" .deps/sys; done
rm -rf .deps/sys/usr/share .deps/sys/usr/lib/x86_64-linux-gnu/*.a
pc=.deps/sys/usr/lib/x86_64-linux-gnu/pkgconfig
# Relative to the .pc file, and no private requirements (their .pc files are not here).
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../../..|; /^Requires.private/d' "$pc"/*.pc
cp -r /usr/include/CLI /usr/include/nlohmann .deps/include/ # scripts/gpu_bench.sh's headers
du -sh .deps
