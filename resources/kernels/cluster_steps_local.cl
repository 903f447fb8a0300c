// cluster: the prelude of the local copy of cluster_steps.cl (a module that fits in local
// memory: keys, pixels, labels and scratch local, positions as ushort). The program lists it
// just before cluster_steps.cl, which undefines these at its end (gpu/cluster/recipes.cpp).
#define SPACE local
#define SCRATCH local
#define IDX ushort
#define STEP(f) f##_local
