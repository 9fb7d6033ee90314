/* math_constants.h - the CUDART_* constants programs commonly use (cuemu). */
#ifndef CUEMU_MATH_CONSTANTS_H
#define CUEMU_MATH_CONSTANTS_H
#include <float.h>
#include <math.h>
#define CUDART_INF_F INFINITY
#define CUDART_NAN_F NAN
#define CUDART_INF ((double)INFINITY)
#define CUDART_NAN ((double)NAN)
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_MAX_NORMAL_F FLT_MAX
#define CUDART_MIN_DENORM_F 1.40129846e-45f
#endif
