s|#include "ops.cuh"|#include "ops.cuh"\n#include <cub/cub.cuh>|
