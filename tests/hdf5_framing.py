"""Framings of compressed chunks as HDF5 filters store them, shared by the test data makers
(bitshuffle_cases.py, stream_publisher.py)."""
import struct


def lz4_hdf5(raw, block):
    """The HDF5 LZ4 filter's framing (blocks of `block` bytes, 0: 64 KiB); a block that does not
    shrink is stored as it is."""
    import lz4.block
    block = block or 1 << 16
    out = [struct.pack(">QI", len(raw), block)]
    for pos in range(0, len(raw), block):
        part = raw[pos:pos + block]
        c = lz4.block.compress(part, store_size=False)
        out.append(struct.pack(">I", len(part)) + part if len(c) >= len(part)
                   else struct.pack(">I", len(c)) + c)
    return b"".join(out)
