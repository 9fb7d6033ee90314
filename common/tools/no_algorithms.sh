#!/bin/sh
# no_algorithms.sh - the second line behind the build view's absence of CUB
# and Thrust: a submission's own objects (never the harness's) must define
# no symbol of their namespaces.  A library call (cub::DeviceReduce,
# thrust::reduce) leaves its instances there even when its headers came
# from a copy of CCCL outside the toolkit.  (Block-level primitives inlined
# into a kernel leave no symbol: against those the view is the defence.)
#
#   sh common/tools/no_algorithms.sh OBJ...     exit 0 clean, 1 found
set -eu
NM=${NM:-nm}
for obj; do
    hit=$("$NM" -C "$obj" | grep -E -m1 '(^|[^A-Za-z0-9_])(cub|thrust)::' | cut -c1-200 || true)
    if [ -n "$hit" ]; then
        echo "forbidden-code: $(basename "$obj" .o).cu holds CUB or Thrust code: ${hit#* ? }" >&2
        exit 1
    fi
done
