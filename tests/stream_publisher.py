#!/usr/bin/env python3
"""A DECTRIS Stream V2 test publisher: sends an HDF5 file's frames over a ZeroMQ PUSH socket as
CBOR start / image / end messages (stream_v2/README.md and cbor/dectris-compression-tag.md of
DECTRIS' documentation), raw or compressed (bslz4 framed as the bitshuffle HDF5 filter frames
it, lz4 as the HDF5 LZ4 filter). Prints the bound endpoint on its first line of output.

  stream_publisher.py FILE [--dataset P] [--mask P] [--compression raw|bslz4|lz4]
                      [--block N] [--big-endian] [--count N] [--endpoint tcp://127.0.0.1:*]
                      [--malformed KIND] [--silent SECONDS] [--rate HZ]

--malformed truncated-bslz4 | missing-image-id | no-start: one broken message in the series.
--silent S: bind, send nothing, exit after S seconds.
--rate HZ: at most HZ images a second (a live view to look at; default: as fast as taken).
--no-end S: after the images, no end message: silent for S seconds, then exit.
--header-detail all|basic|none: sent in the start message; basic leaves out the pixel mask,
  none the pixel mask and the frame time (DECTRIS' header_detail).
--channels N: N channels threshold_1..N; channel k (from 1) sends the frame + (k - 1).
--skip I,J: image ids never sent (a gap: another PULL client took them).
--repeat I: image I sent twice (out of order).
--geometry BCX,BCY,DIST,WAVELENGTH,PIXEL: the detector geometry in the start message as DECTRIS
  sends it: beam_center_x, _y (pixels), detector_translation [0, 0, DIST] (m),
  incident_wavelength (Å), pixel_size_x and _y (m); with --distance-field, DIST as
  detector_distance instead (as some publishers send it).
Debian packages: python3-zmq, python3-cbor2, python3-h5py, python3-numpy, python3-lz4."""
import argparse
import struct
import sys
import time

import cbor2
import h5py
import lz4.block
import numpy as np
import zmq
from hdf5_framing import lz4_hdf5

CHANNEL = "threshold_1"
# RFC 8746 typed array tags, little-endian (big-endian: tag - 4, except 8-bit)
TAGS = {"uint8": 64, "uint16": 69, "uint32": 70, "int32": 78, "int64": 79,
        "float32": 85, "float64": 86}


def bitshuffle(raw, count, elem_size):
    """Bitshuffle one block: bit i of byte b of every element into row b*8+i."""
    a = np.frombuffer(raw, np.uint8).reshape(count, elem_size)
    bits = np.unpackbits(a, axis=1, bitorder="little")
    return np.packbits(bits.T, axis=1, bitorder="little").tobytes()


def lz4_block(data):
    c = lz4.block.compress(data, store_size=False)
    return struct.pack(">I", len(c)) + c


def bslz4(raw, elem_size, block):
    """The bitshuffle HDF5 filter's framing: size, block size, LZ4-compressed shuffled blocks,
    then the last (< 8) elements as they are."""
    block = block or max(128, 8192 // elem_size // 8 * 8)
    n = len(raw) // elem_size
    out = [struct.pack(">QI", len(raw), block * elem_size)]
    pos = 0
    sizes = [block] * (n // block) + [(n % block) // 8 * 8]
    for cnt in filter(None, sizes):
        out.append(lz4_block(bitshuffle(raw[pos * elem_size:(pos + cnt) * elem_size], cnt, elem_size)))
        pos += cnt
    out.append(raw[pos * elem_size:])
    return b"".join(out)


def typed(array, args):
    arr = np.ascontiguousarray(array)
    tag = TAGS[arr.dtype.name]
    if args.big_endian and arr.dtype.itemsize > 1:
        arr, tag = arr.byteswap(), tag - 4
    raw = arr.tobytes()
    if args.compression == "bslz4":
        payload = cbor2.CBORTag(56500, ["bslz4", arr.dtype.itemsize, bslz4(raw, arr.dtype.itemsize, args.block)])
    elif args.compression == "lz4":
        payload = cbor2.CBORTag(56500, ["lz4", 0, lz4_hdf5(raw, args.block)])
    else:
        payload = raw
    return cbor2.CBORTag(40, [list(arr.shape), cbor2.CBORTag(tag, payload)])


def channels(args):
    return [f"threshold_{k + 1}" for k in range(args.channels)]


def start_message(f, frames, args):
    msg = {"type": "start", "series_id": 7, "series_unique_id": "clscope-test-7",
           "channels": channels(args), "image_size_x": frames.shape[2], "image_size_y": frames.shape[1],
           "number_of_images": len(frames), "count_time": 0.001}
    if args.header_detail:
        msg["header_detail"] = args.header_detail
    if args.geometry:
        bcx, bcy, dist, wavelength, pixel = args.geometry
        msg.update({"beam_center_x": bcx, "beam_center_y": bcy, "incident_wavelength": wavelength,
                    "pixel_size_x": pixel, "pixel_size_y": pixel})
        if args.distance_field:
            msg["detector_distance"] = dist
        else:
            msg["detector_translation"] = [0.0, 0.0, dist]
    if "entry/instrument/detector/frame_time" in f and args.header_detail != "none":
        msg["frame_time"] = float(f["entry/instrument/detector/frame_time"][()])
    if args.mask in f and args.header_detail in (None, "all"):
        mask = typed(f[args.mask][()].astype(np.uint32), args)
        msg["pixel_mask"] = {c: mask for c in channels(args)}
        msg["pixel_mask_enabled"] = True
    return msg


def image_message(i, frame, args):
    msg = {"type": "image", "series_id": 7, "series_unique_id": "clscope-test-7", "image_id": i,
           "real_time": [1000, 1000000], "start_time": [i * 1000, 1000000],
           "stop_time": [i * 1000 + 1000, 1000000],
           "data": {c: typed(frame + np.array(k, frame.dtype), args) for k, c in enumerate(channels(args))}}
    if args.malformed == "missing-image-id" and i == 1:
        del msg["image_id"]
    if args.malformed == "truncated-bslz4" and i == 1:
        payload = msg["data"][CHANNEL].value[1].value  # tag 56500
        payload.value[2] = payload.value[2][:-3]
    return msg


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--dataset", default="entry/data/data")
    p.add_argument("--mask", default="entry/instrument/detector/pixel_mask")
    p.add_argument("--compression", choices=["raw", "bslz4", "lz4"], default="raw")
    p.add_argument("--block", type=int, default=0, help="elements (bslz4) or bytes (lz4) per block")
    p.add_argument("--big-endian", action="store_true")
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--endpoint", default="tcp://127.0.0.1:*")
    p.add_argument("--malformed", choices=["truncated-bslz4", "missing-image-id", "no-start"])
    p.add_argument("--silent", type=float, default=0)
    p.add_argument("--rate", type=float, default=0)
    p.add_argument("--no-end", type=float, default=0)
    p.add_argument("--header-detail", choices=["all", "basic", "none"])
    p.add_argument("--channels", type=int, default=1)
    p.add_argument("--skip", type=lambda t: {int(i) for i in t.split(",")}, default=set())
    p.add_argument("--repeat", type=int, default=-1)
    p.add_argument("--geometry", type=lambda t: [float(v) for v in t.split(",")])
    p.add_argument("--distance-field", action="store_true")
    args = p.parse_args()

    sock = zmq.Context().socket(zmq.PUSH)
    sock.setsockopt(zmq.SNDTIMEO, 20000)  # no reader for 20 s: give up rather than hang
    sock.setsockopt(zmq.LINGER, 10000)
    sock.bind(args.endpoint)
    print(sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    if args.silent:
        time.sleep(args.silent)
        return 0
    with h5py.File(args.file, "r") as f:
        frames = f[args.dataset]
        if frames.ndim == 2:
            frames = frames[()][None]
        count = min(args.count or len(frames), len(frames))
        if args.malformed != "no-start":
            sock.send(cbor2.dumps(start_message(f, frames, args)))
        for i in sorted(list(range(count)) + ([args.repeat] if 0 <= args.repeat < count else [])):
            if args.rate:
                time.sleep(1 / args.rate)
            if i not in args.skip:
                sock.send(cbor2.dumps(image_message(i, frames[i], args)))
    if args.no_end:
        time.sleep(args.no_end)
        return 0
    sock.send(cbor2.dumps({"type": "end", "series_id": 7, "series_unique_id": "clscope-test-7"}))
    sock.close()  # waits (LINGER) until the messages are delivered
    return 0


if __name__ == "__main__":
    sys.exit(main())
