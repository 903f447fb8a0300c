// Helpers shared by every clscope kernel (prepended to each kernel file).
#ifndef CLSCOPE_COMMON_CL
#define CLSCOPE_COMMON_CL

// Round-up integer division.
inline uint clscope_div_up(uint a, uint b) { return (a + b - 1) / b; }

#endif
