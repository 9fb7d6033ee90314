#!/usr/bin/env python3
"""math_compare.py - compares math-sweep.cu's output on a GPU with its
output on the emulator, function by function, and writes a Markdown
transcript.

    math_compare.py GPU.txt EMU.txt OUT.md

Each function's verdict:
  same     every case has the same bits (any NaN equals any NaN: a GPU's
           canonical NaN and the host's differ in payload only);
  within   some differ, and each emulator result is within the error
           bound CUDA documents for the function (BOUNDS): measured
           against a double-precision reference where Python computes
           the function (float results), else as a distance of at most
           twice the bound from the GPU's result (both within the bound);
  info     a fast-math approximation or a Bessel function of the second
           table (APPROX): differences are listed, not judged;
  DIFFERS  some case is beyond the bound (0 for functions CUDA defines
           exactly: rounding-mode arithmetic, conversions, integer
           intrinsics, sqrt, fma, min/max ...).
Exit status 1 if any function DIFFERS or a side is missing cases.
"""
import math
import struct
import sys

# Maximum ulp errors from the CUDA C++ Programming Guide's appendix
# "Mathematical Functions" (single and double precision, default flags:
# -prec-div=true -prec-sqrt=true -ftz=false).  A function not listed must
# match bit for bit: rsqrtf (2 ulp in the guide) is not listed, since the
# emulator has the GPU's bits of it (common/emu/src/mufu.h).
BOUNDS = {
    "cbrtf": 1, "rcbrtf": 1, "hypotf": 3, "rhypotf": 2, "norm3df": 3, "rnorm3df": 2,
    "norm4df": 3, "rnorm4df": 2, "normf_3": 4, "rnormf_3": 3, "expf": 2, "exp2f": 2, "exp10f": 2,
    "expm1f": 1, "logf": 1, "log2f": 1, "log10f": 2, "log1pf": 1, "sinf": 2, "cosf": 2, "tanf": 4,
    "sincosf_s": 2, "sincosf_c": 2, "sinpif": 1, "cospif": 1, "sincospif_s": 1, "sincospif_c": 1,
    "asinf": 2, "acosf": 2, "atanf": 2, "atan2f": 3, "sinhf": 3, "coshf": 2, "tanhf": 2,
    "asinhf": 3, "acoshf": 4, "atanhf": 3, "powf": 4, "erff": 2, "erfcf": 4, "erfinvf": 2,
    "erfcinvf": 4, "erfcxf": 4, "normcdff": 5, "normcdfinvf": 5, "lgammaf": 6, "tgammaf": 5,
    "cyl_bessel_i0f": 6, "cyl_bessel_i1f": 6,
    "rsqrt": 1, "cbrt": 1, "rcbrt": 1, "hypot": 2, "rhypot": 1, "norm3d": 2, "rnorm3d": 2,
    "norm4d": 2, "rnorm4d": 2, "exp": 1, "exp2": 1, "exp10": 1, "expm1": 1, "log": 1, "log2": 1,
    "log10": 1, "log1p": 1, "sin": 2, "cos": 2, "tan": 2, "sinpi": 2, "cospi": 2, "asin": 2,
    "acos": 2, "atan": 2, "atan2": 2, "sinh": 2, "cosh": 1, "tanh": 1, "asinh": 3, "acosh": 3,
    "atanh": 2, "pow": 2, "erf": 2, "erfc": 5, "erfinv": 5, "erfcinv": 6, "erfcx": 4,
    "normcdf": 5, "normcdfinv": 8, "lgamma": 4, "tgamma": 10, "cyl_bessel_i0": 6, "cyl_bessel_i1": 6,
}
# Approximations whose error CUDA states otherwise (absolute, or by range).
# (__expf, __exp10f, __logf, __log2f, __log10f, __powf and __fdividef are
# not among them: the emulator has the GPU's bits of those, common/emu/src/mufu.h.)
APPROX = {"__sinf", "__cosf", "__tanf", "j0f", "j1f", "y0f", "y1f"}


def f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xffffffff))[0]


def f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def to_float(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def ordered(b, t):
    """The bits as an integer that orders like the value (for ulp distances)."""
    width = 32 if t == "f" else 64
    sign = 1 << (width - 1)
    return -(b & ~sign) if b & sign else b


def is_nan(b, t):
    v = f32(b) if t == "f" else f64(b) if t == "d" else 0.0
    return v != v


def sinpi(x):
    """sin(pi x), reduced exactly to a quarter turn first (exact zeros)."""
    r = math.fmod(x, 2.0)
    n = round(2 * r)
    t = r - n / 2
    return [math.sin, math.cos, lambda u: -math.sin(u), lambda u: -math.cos(u)][n % 4](math.pi * t)


REFERENCE = {  # float functions Python computes in double
    "sqrtf": math.sqrt, "rsqrtf": lambda x: 1 / math.sqrt(x), "expf": math.exp, "exp2f": lambda x: 2.0 ** x,
    "exp10f": lambda x: 10.0 ** x, "expm1f": math.expm1, "logf": math.log, "log2f": math.log2,
    "log10f": math.log10, "log1pf": math.log1p, "sinf": math.sin, "cosf": math.cos, "tanf": math.tan,
    "asinf": math.asin, "acosf": math.acos, "atanf": math.atan, "sinhf": math.sinh, "coshf": math.cosh,
    "tanhf": math.tanh, "asinhf": math.asinh, "acoshf": math.acosh, "atanhf": math.atanh,
    "erff": math.erf, "erfcf": math.erfc, "lgammaf": math.lgamma, "tgammaf": math.gamma,
    "sinpif": sinpi, "atan2f": math.atan2, "powf": math.pow, "hypotf": math.hypot,
    "rhypotf": lambda x, y: 1 / math.hypot(x, y), "normcdff": lambda x: 0.5 * math.erfc(-x / math.sqrt(2)),
    "norm3df": lambda x, y, z: math.sqrt(x * x + y * y + z * z),
    "rnorm3df": lambda x, y, z: 1 / math.sqrt(x * x + y * y + z * z),
}


def ref_error(name, args, result_bits):
    """The emulator's error in float ulps against a double reference, or
    None where there is none (domain, overflow, non-finite)."""
    fn = REFERENCE.get(name)
    if fn is None:
        return None
    try:
        xs = [f32(int(a, 16)) for a in args]
        if any(not math.isfinite(x) for x in xs):
            return None
        ref = fn(*xs)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    got = f32(result_bits)
    if not math.isfinite(ref) or not math.isfinite(got) or abs(ref) > 3.4e38:
        return None
    rf = abs(to_float(ref)) if abs(ref) >= 1.1754944e-38 else 1.1754944e-38
    ulp = 2.0 ** (math.frexp(rf)[1] - 24)
    return abs(got - ref) / ulp


def load(path):
    cases, order = {}, []
    for line in open(path):
        name, t, args, res = line.rstrip("\n").split("\t")
        if name not in cases:
            cases[name] = {}
            order.append(name)
        cases[name][args] = (t, int(res, 16))
    return cases, order


def judge(name, gpu, emu):
    """(verdict, number of cases differing, worst distance, examples)."""
    diffs, worst, examples, beyond = 0, 0.0, [], False
    for args, (t, g) in gpu.items():
        if args not in emu:
            return "DIFFERS", -1, 0, ["case %s missing on the emulator" % args]
        e = emu[args][1]
        if g == e or (t in "fd" and is_nan(g, t) and is_nan(e, t)):
            continue
        diffs += 1
        bound = BOUNDS.get(name, 0)
        if t in "fd" and not is_nan(g, t) and not is_nan(e, t):
            dist = abs(ordered(g, t) - ordered(e, t))
            err = ref_error(name, args.split(), e) if t == "f" else None
            ok = bound > 0 and ((err is not None and err <= bound) or (err is None and dist <= 2 * bound))
        else:
            dist, err, ok = float("inf"), None, False
        worst = max(worst, dist)
        if not ok and name not in APPROX:
            beyond = True
        if len(examples) < 3 or (not ok and len(examples) < 6):
            examples.append("args %s: GPU %x, emulator %x (%s ulp apart%s)" % (
                args, g, e, dist if dist != float("inf") else "NaN/int:",
                "" if err is None else ", emulator %.2f ulp from the true value" % err))
    if diffs == 0:
        return "same", 0, 0, []
    if name in APPROX:
        return "info", diffs, worst, examples
    return ("DIFFERS" if beyond else "within"), diffs, worst, examples


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: math_compare.py GPU.txt EMU.txt OUT.md")
    gpu, order = load(argv[0])
    emu, _ = load(argv[1])
    rows, details, counts = [], [], {}
    missing = sorted(set(gpu) ^ set(emu))
    for name in order:
        if name not in emu:
            continue
        verdict, n, worst, ex = judge(name, gpu[name], emu[name])
        counts[verdict] = counts.get(verdict, 0) + 1
        rows.append("| `%s` | %d | %s | %s | %s |" % (name, len(gpu[name]), verdict, n,
                                                    worst if worst != float("inf") else "-"))
        if ex:
            details.append("- `%s` (%s, bound %s ulp): %s" % (name, verdict, BOUNDS.get(name, 0), "; ".join(ex)))
    with open(argv[2], "w") as out:
        out.write("# Device math: GPU against the emulator\n\n")
        out.write("Functions: %d; %s.\n\n" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
        if missing:
            out.write("Only on one side: %s\n\n" % ", ".join(missing))
        out.write("| function | cases | verdict | cases differing | largest distance (ulp) |\n|---|---|---|---|---|\n")
        out.write("\n".join(rows) + "\n\n## Differences\n\n" + "\n".join(details) + "\n")
    print("math-sweep: %d functions: %s%s" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(counts.items())),
                                               "; only on one side: " + ", ".join(missing) if missing else ""))
    return 1 if counts.get("DIFFERS") or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
