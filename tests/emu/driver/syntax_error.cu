/* A compile error must point at this file and line. */
__global__ void broken(int *p)
{
    p[threadIdx.x] = undeclared_name;
}
int main() { broken<<<1, 1>>>(0); }
