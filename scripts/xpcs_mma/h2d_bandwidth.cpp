// Device-machine probe (issue 21): host -> device bandwidth of clEnqueueWriteBuffer from
// pageable (malloc) and pinned (CL_MEM_ALLOC_HOST_PTR, mapped) host memory on the first GPU,
// best of 3 blocking writes of N MiB (default 512). The xpcs transfer bound is the frames'
// bytes over the pinned figure. Build: g++ -O2 h2d_bandwidth.cpp -lOpenCL -o h2d
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static double bestGBs(cl_command_queue q, cl_mem dst, const void* src, size_t bytes) {
    double best = 0;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        clEnqueueWriteBuffer(q, dst, CL_TRUE, 0, bytes, src, 0, nullptr, nullptr);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (bytes / s / 1e9 > best) best = bytes / s / 1e9;
    }
    return best;
}

int main(int argc, char** argv) {
    const size_t bytes = size_t(argc > 1 ? std::atoi(argv[1]) : 512) << 20;
    cl_platform_id ps[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, ps, &np);
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id d;
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_GPU, 1, &d, &nd) != CL_SUCCESS || !nd) continue;
        cl_int e;
        cl_context ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, nullptr, &e);
        cl_mem dst = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, nullptr, &e);
        char* pageable = static_cast<char*>(std::malloc(bytes));
        std::memset(pageable, 1, bytes);
        cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &e);
        void* pinned =
            clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &e);
        std::memset(pinned, 1, bytes);
        std::printf("h2d %zu MiB: pageable %.1f GB/s, pinned %.1f GB/s\n", bytes >> 20,
                    bestGBs(q, dst, pageable, bytes), bestGBs(q, dst, pinned, bytes));
        return 0;
    }
    return 1;
}
