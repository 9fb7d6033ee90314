s|^#include "ops.cuh"|#include "ops.cuh"\
#define KIT_PATH(dir) #dir\
#if __has_include("/usr/local/cuda/include/cccl/cub/cub.cuh")\
#include KIT_PATH(/usr/local/cuda/include/cccl/cub/cub.cuh)\
#elif __has_include("/usr/local/cuda/include/cub/cub.cuh")\
#include KIT_PATH(/usr/local/cuda/include/cub/cub.cuh)\
#else\
#include KIT_PATH(/usr/local/cuda/targets/x86_64-linux/include/cccl/cub/cub.cuh)\
#endif|
