// cluster: the prelude of the global copy of cluster_steps.cl (a larger module: everything in
// global memory, positions as uint). The program lists it just before cluster_steps.cl, which
// undefines these at its end (gpu/cluster/recipes.cpp).
#define SPACE global
#define SCRATCH global
#define IDX uint
#define STEP(f) f##_global
