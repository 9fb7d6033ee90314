#!/bin/sh
# carried-deps.sh - on a GPU machine that reaches no package registry:
# install the grader's libraries (GRADER_DEPS) from Debian .deb files carried
# in .debs/ (fetched beforehand with `apt-get download libcjson1 libcjson-dev
# libarchive13 libarchive-dev` and the run-time libraries libarchive needs).
# The -dev packages are registered with dpkg so that `make deps` sees them;
# a run-time library is unpacked only where its soname is missing.
set -u
cd "$(dirname "$0")/../.." || exit 1
[ -d .debs ] || { echo "carried-deps: no .debs folder"; exit 1; }
dpkg -i --force-depends .debs/libcjson1_*.deb .debs/libcjson-dev_*.deb \
    .debs/libarchive13_*.deb .debs/libarchive-dev_*.deb >/dev/null 2>&1 ||
    echo "carried-deps: dpkg -i reported problems (dependencies forced)"
for pair in libnettle.so.8:libnettle8 libxml2.so.2:libxml2 libicuuc.so.72:libicu72 \
            liblz4.so.1:liblz4-1 libzstd.so.1:libzstd1 libacl.so.1:libacl1 \
            libbz2.so.1.0:libbz2-1.0 liblzma.so.5:liblzma5 libz.so.1:zlib1g; do
    so=${pair%%:*} pkg=${pair#*:}
    ldconfig -p | grep -q "$so " || dpkg -x .debs/${pkg}_*.deb /
done
ldconfig
