s|^#include "ops.cuh"|#include "ops.cuh"\
#define KIT_PATH(dir) #dir\
#if __has_include(<./cub/cub.cuh>)\
#include <./cub/cub.cuh>\
#elif __has_include(KIT_PATH(/usr/local/cuda/include/cccl/cub/cub.cuh))\
#include KIT_PATH(/usr/local/cuda/include/cccl/cub/cub.cuh)\
#elif __has_include(KIT_PATH(/usr/local/cuda/include/cub/cub.cuh))\
#include KIT_PATH(/usr/local/cuda/include/cub/cub.cuh)\
#else\
#define KIT_HEADER <cub/cub.cuh>\
#include KIT_HEADER\
#endif|
