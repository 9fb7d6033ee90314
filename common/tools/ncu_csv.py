"""ncu_csv.py - Nsight Compute's CSV (`ncu --csv --page details`) read into
kernel launches, and a table row computed from them.

ncu writes one line per (launch, metric): "ID", "Kernel Name", ...,
"Metric Name", "Metric Unit", "Metric Value", mixed with its own "==PROF=="
lines and the program's output.  Read with the csv module; nothing else
here knows ncu's layout.
"""
import csv
import re

# Values ncu may print in a scaled unit, back to the base unit (ns, byte).
# `--print-units base` should leave only the first column; the others are
# accepted so that a report printed another way still reads right.
UNIT_SCALE = {
    "nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9,
    "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
    "KB": 1e3, "MB": 1e6, "GB": 1e9,
}

# A number with thousands separators, as ncu's details page prints counts.
GROUPED = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")


def number(text, unit):
    """A metric value as a float in its base unit; None for n/a or empty."""
    text = text.strip()
    if GROUPED.match(text):
        text = text.replace(",", "")
    try:
        value = float(text)
    except ValueError:
        return None
    return value * UNIT_SCALE.get(unit.strip(), 1)


def base_name(kernel):
    """'void scan<int, Sum>(const T1 *, ...)' -> 'scan': the function's
    name, however ncu was told to print it."""
    name = re.sub(r"^(void|static|__global__)\s+", "", kernel.strip())
    return re.split(r"[<(\s]", name, maxsplit=1)[0]


def csv_lines(text):
    """The CSV part of ncu's output: from the header line on, without the
    ==PROF== / ==WARNING== lines and the program's output around it."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return []
    return [l for l in lines[start:] if l.startswith('"')]


def launches(text):
    """[{'id', 'kernel', 'metrics': {name: value}}] in the order ncu
    profiled them; [] when the text holds no report."""
    found = {}
    for row in csv.DictReader(csv_lines(text)):
        if not row.get("Metric Name"):
            continue
        key = row["ID"]
        launch = found.setdefault(key, {"id": key, "kernel": base_name(row["Kernel Name"]),
                                        "metrics": {}})
        launch["metrics"][row["Metric Name"]] = number(row.get("Metric Value", ""),
                                                       row.get("Metric Unit", ""))
    return list(found.values())


def total(runs, names, weighted):
    """The metrics `names` over all launches: added up, or (weighted) each
    launch's value weighted by its kernel time.  None if any is missing."""
    acc, weight = 0.0, 0.0
    for launch in runs:
        m = launch["metrics"]
        for name in names:
            if m.get(name) is None:
                return None
            w = (m.get("gpu__time_duration.sum") or 0.0) if weighted else 1.0
            acc += m[name] * w
            weight += w
    if weighted:
        return acc / weight if weight else None
    return acc


def row_value(runs, row, n):
    """The value a table row shows for one side's launches, or None."""
    if not runs:
        return None
    value = total(runs, row["num"], row["combine"] == "time")
    den = row["den"]
    if value is not None and den is not None:
        d = float(n) if den == "n" else total(runs, den, False)
        value = value / d if d else None
    return None if value is None else value * row["scale"]
