// cluster: the prelude of the mixed copy of cluster_steps.cl ("mixed": keys, pixels and labels
// local, column order, neighbour lists and counts in global scratch, positions as uint). The
// program lists it just before cluster_steps.cl, which undefines these at its end
// (gpu/cluster/recipes.cpp).
#define SPACE local
#define SCRATCH global
#define IDX uint
#define STEP(f) f##_mixed
