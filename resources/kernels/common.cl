// Helpers shared by every clscope kernel (prepended to each kernel file).
#ifndef CLSCOPE_COMMON_CL
#define CLSCOPE_COMMON_CL

// Round-up integer division.
inline uint clscope_div_up(uint a, uint b) { return (a + b - 1) / b; }

// Exclusive prefix sum of one value per work-item over a work-group of `n` work-items
// (Hillis-Steele in tmp[n]); *total gets the sum. Every work-item of the group must call it.
inline uint clscope_group_exclusive_scan(uint value, local uint* tmp, uint n, uint* total) {
    const uint lid = get_local_id(0);
    tmp[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < n; offset <<= 1) {
        const uint add = lid >= offset ? tmp[lid - offset] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = tmp[n - 1];
    const uint inclusive = tmp[lid];
    barrier(CLK_LOCAL_MEM_FENCE); // tmp is reused by the next call
    return inclusive - value;
}

#endif
