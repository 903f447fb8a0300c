// cluster, variant unionfind: digis (grouped and sorted by module, see cluster_group.cl) go
// into an open-addressing hash table keyed by (module, x, y), which finds duplicates and
// neighbours; then a lock-free union-find over the neighbour pairs, always linking the larger
// root under the smaller, so a root is its cluster's lowest position, i.e. its lowest digi.
// The table holds position + 1 (0 = empty); its size is a power of two (mask = size - 1).

inline uint table_slot(uint module, uint pix, uint mask) {
    const uint key = module * (CLUSTER_SIZE_X * CLUSTER_SIZE_Y) + pix_y(pix) * CLUSTER_SIZE_X + pix_x(pix);
    return (key * 0x9E3779B1u ^ (key >> 15)) & mask;
}

// Insert every digi; a key already present marks both the newcomer and the first copy.
kernel void cluster_uf_insert(global const uint* totals, global const uint* sortedPix,
                              global const ushort* sortedModule, global uint* table, uint mask,
                              global uchar* duplicate, global int* parent) {
    const uint p = get_global_id(0);
    if (p >= totals[0]) return;
    const uint pix = sortedPix[p], module = sortedModule[p];
    parent[p] = (int)p;
    for (uint slot = table_slot(module, pix, mask);; slot = (slot + 1) & mask) {
        const uint old = atomic_cmpxchg(&table[slot], 0u, p + 1);
        if (old == 0) return;
        const uint q = old - 1;
        if (sortedPix[q] == pix && sortedModule[q] == module) {
            duplicate[p] = 1, duplicate[q] = 1;
            return;
        }
    }
}

// Position of the digi at (module, pix), or -1.
int table_find(global const uint* table, uint mask, global const uint* sortedPix,
               global const ushort* sortedModule, uint module, uint pix) {
    for (uint slot = table_slot(module, pix, mask);; slot = (slot + 1) & mask) {
        const uint entry = table[slot];
        if (entry == 0) return -1;
        if (sortedPix[entry - 1] == pix && sortedModule[entry - 1] == module) return (int)entry - 1;
    }
}

// Root of p, halving the path on the way (parents only ever decrease).
int uf_find(volatile global int* parent, int p) {
    int up = parent[p];
    while (up != p) {
        const int next = parent[up];
        if (next != up) atomic_min(&parent[p], next);
        p = up, up = next;
    }
    return p;
}

// Join the trees of a and b: the larger root is linked under the smaller, retrying when
// another work-item linked it first.
void uf_unite(volatile global int* parent, int a, int b) {
    for (;;) {
        a = uf_find(parent, a), b = uf_find(parent, b);
        if (a == b) return;
        const int low = min(a, b), high = max(a, b);
        if (atomic_cmpxchg(&parent[high], high, low) == high) return;
    }
}

// Each digi with its four forward 8-neighbours that are not duplicates.
kernel void cluster_uf_union(global const uint* totals, global const uint* sortedPix,
                             global const ushort* sortedModule, global const uint* table,
                             uint mask, global const uchar* duplicate, global int* parent) {
    const uint p = get_global_id(0);
    if (p >= totals[0] || duplicate[p]) return;
    const uint pix = sortedPix[p], module = sortedModule[p];
    const int x = (int)pix_x(pix), y = (int)pix_y(pix);
    const int dx[4] = {1, -1, 0, 1}, dy[4] = {0, 1, 1, 1};
    for (int k = 0; k < 4; ++k) {
        const int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || nx >= CLUSTER_SIZE_X || ny >= CLUSTER_SIZE_Y) continue;
        const int q = table_find(table, mask, sortedPix, sortedModule, module,
                                 (uint)nx | ((uint)ny << 8));
        if (q >= 0 && !duplicate[q]) uf_unite(parent, (int)p, q);
    }
}

// Each digi's root, -1 for duplicates.
kernel void cluster_uf_roots(global const uint* totals, global const uchar* duplicate,
                             global int* parent, global int* root) {
    const uint p = get_global_id(0);
    if (p >= totals[0]) return;
    root[p] = duplicate[p] ? -1 : uf_find(parent, (int)p);
}
