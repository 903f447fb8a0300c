# PyTorch peers of the xpcs bench cases on the device machine (issue 21): the Gram matrices
# of every bin, (frames x bin pixels) int8 through torch._int_mm (tensor cores, exact for
# values < 128) and fp32 through torch.mm, on random counts 0..31 of the bench cases' shapes
# (per-bin pixel counts of the synthetic rings, listed below). Kernel time from CUDA events,
# median of 10 after 3 warm-ups. Usage: python3 torch_peer.py
import torch

CASES = {
    "seed": (500, [940, 1564, 2204, 2812, 3452, 4084, 4708, 5364, 5964, 5446, 4912, 3430,
                   2020, 1036, 200]),
    "large": (2000, [600, 996, 1416, 1808, 2196, 2632, 3008, 3388, 3832, 4240, 4604, 5024,
                     5440, 5836, 6216, 6648, 7020, 7432, 7840, 8260, 8640, 9080, 9428, 9832,
                     10256, 10636, 11080, 11456, 11868, 12296, 12656, 10068, 8232, 7012, 6104,
                     5232, 4468, 3824, 3168, 2532, 1992, 1416, 852, 360, 4]),
}


def up8(n):
    return (n + 7) // 8 * 8


def timed(fn):
    for _ in range(3):
        fn()
    times = []
    for _ in range(10):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def main():
    torch.manual_seed(0)
    print("torch", torch.__version__, torch.cuda.get_device_name(0))
    for name, (frames, counts) in CASES.items():
        t = up8(frames)
        blocks = [torch.randint(0, 32, (t, up8(n)), dtype=torch.int8, device="cuda")
                  for n in counts]
        floats = [b.float() for b in blocks]
        int8 = timed(lambda: [torch._int_mm(b, b.t()) for b in blocks])
        fp32 = timed(lambda: [torch.mm(f, f.t()) for f in floats])
        exact = all(torch.equal(torch._int_mm(b, b.t()).double(),
                                torch.mm(b.double(), b.double().t())) for b in blocks[:3])
        print(f"peer {name}: torch._int_mm int8 {int8:.3f} ms (exact {exact}), "
              f"fp32 mm {fp32:.3f} ms")


if __name__ == "__main__":
    main()
