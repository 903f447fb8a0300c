// Decoding of compressed frames (gpu/decode/, core/stream/block_plan.hpp): one work-group per
// block of a plan made on the host. A bitshuffled block is LZ4-decoded by one work-item into
// local memory, then bit-unshuffled by the whole group into the frame; an LZ4 block is decoded
// straight into the frame; a stored block is copied. Every read and write is checked against
// the block's bounds: a corrupt block sets *error (its code, then the block's index) and
// writes nothing outside its own bytes.
//
// Tunables (gpu/decode/decoder.cpp): WG work-items per group, MAX_BLOCK bytes of local memory
// for a bitshuffled block.
//
// A block's entry: 4 ulongs: source offset, destination offset, source bytes | destination
// bytes << 32, element size | kind << 32.

#define KIND_BITSHUFFLED 0
#define KIND_LZ4 1
#define KIND_STORED 2

#define ERROR_TRUNCATED 1   // a literal run or match offset beyond the block's bytes
#define ERROR_OFFSET 2      // a match reaching before the block's start
#define ERROR_OVERFLOW 3    // more bytes than the block decodes to
#define ERROR_SHORT 4       // fewer bytes than the block decodes to
#define ERROR_BOUNDS 5      // the block's entry beyond the buffers
#define ERROR_BLOCK_SIZE 6  // a bitshuffled block larger than MAX_BLOCK

// An LZ4 length continued by bytes of 255 (token nibble 15); -1 when the block ends first.
#define LZ4_LENGTH(len, in, ip, n)                                                            \
    if (len == 15) {                                                                          \
        uint b_;                                                                              \
        do {                                                                                  \
            if (ip >= n) return -ERROR_TRUNCATED;                                             \
            b_ = in[ip++];                                                                    \
            len += b_;                                                                        \
        } while (b_ == 255);                                                                  \
    }

// LZ4 block format: the bytes written (at most cap), or -(error code).
#define LZ4_DECODER(NAME, SPACE)                                                              \
    int NAME(__global const uchar* in, uint n, SPACE uchar* out, uint cap) {                  \
        uint ip = 0, op = 0;                                                                  \
        while (ip < n) {                                                                      \
            const uint token = in[ip++];                                                      \
            uint lit = token >> 4;                                                            \
            LZ4_LENGTH(lit, in, ip, n)                                                        \
            if (lit > n - ip) return -ERROR_TRUNCATED;                                        \
            if (lit > cap - op) return -ERROR_OVERFLOW;                                       \
            for (uint i = 0; i < lit; ++i)                                                    \
                out[op + i] = in[ip + i];                                                     \
            ip += lit, op += lit;                                                             \
            if (ip == n) break; /* the last sequence: literals only */                        \
            if (n - ip < 2) return -ERROR_TRUNCATED;                                          \
            const uint offset = in[ip] | ((uint)in[ip + 1] << 8);                             \
            ip += 2;                                                                          \
            if (offset == 0 || offset > op) return -ERROR_OFFSET;                             \
            uint match = token & 15;                                                          \
            LZ4_LENGTH(match, in, ip, n)                                                      \
            match += 4;                                                                       \
            if (match > cap - op) return -ERROR_OVERFLOW;                                     \
            for (uint i = 0; i < match; ++i)                                                  \
                out[op + i] = out[op - offset + i];                                           \
            op += match;                                                                      \
        }                                                                                     \
        return (int)op;                                                                       \
    }

LZ4_DECODER(lz4_to_local, __local)
LZ4_DECODER(lz4_to_global, __global)

// The first error of the launch: its code, then the block.
void flag(__global volatile int* error, int code, uint block) {
    if (atomic_cmpxchg(error, 0, code) == 0) error[1] = (int)block;
}

// Byte `o` of a block of n elements of `size` bytes, from its bitshuffled rows: bit i of byte
// b of element e is bit e % 8 of byte e / 8 of row b * 8 + i (rows of n / 8 bytes).
uchar unshuffled(__local const uchar* rows, uint o, uint size, uint n) {
    const uint e = o / size, b = o % size, rowBytes = n / 8;
    __local const uchar* at = rows + b * 8 * rowBytes + e / 8;
    uchar v = 0;
    for (uint i = 0; i < 8; ++i)
        v |= ((at[i * rowBytes] >> (e % 8)) & 1) << i;
    return v;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
decode_blocks(__global const uchar* src, ulong srcTotal, __global const ulong* blocks,
              __global uchar* dst, ulong dstTotal, __global volatile int* error) {
    __local uchar rows[MAX_BLOCK];
    __local int got;
    const uint g = get_group_id(0), lid = get_local_id(0);
    __global const ulong* entry = blocks + 4 * (size_t)g;
    const ulong s = entry[0], d = entry[1];
    const uint srcBytes = (uint)entry[2], dstBytes = (uint)(entry[2] >> 32);
    const uint size = (uint)entry[3], kind = (uint)(entry[3] >> 32);
    const bool bad = s > srcTotal || srcBytes > srcTotal - s || d > dstTotal ||
                     dstBytes > dstTotal - d || size == 0 || size > 8 || kind > KIND_STORED ||
                     (kind == KIND_BITSHUFFLED && dstBytes % (8 * size) != 0);
    if (bad || (kind == KIND_BITSHUFFLED && dstBytes > MAX_BLOCK)) {
        if (lid == 0) flag(error, bad ? ERROR_BOUNDS : ERROR_BLOCK_SIZE, g);
        return;
    }
    if (kind == KIND_STORED) {
        const uint n = min(srcBytes, dstBytes);
        for (uint i = lid; i < n; i += WG)
            dst[d + i] = src[s + i];
        if (lid == 0 && srcBytes != dstBytes) flag(error, ERROR_SHORT, g);
        return;
    }
    if (lid == 0)
        got = kind == KIND_LZ4 ? lz4_to_global(src + s, srcBytes, dst + d, dstBytes)
                               : lz4_to_local(src + s, srcBytes, rows, dstBytes);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (got != (int)dstBytes) {
        if (lid == 0) flag(error, got < 0 ? -got : ERROR_SHORT, g);
        return;
    }
    if (kind != KIND_BITSHUFFLED) return;
    const uint n = dstBytes / size;
    for (uint o = lid; o < dstBytes; o += WG)
        dst[d + o] = unshuffled(rows, o, size, n);
}
