#!/usr/bin/env python3
"""fgcheck.py - check a trail flame graph SVG against the folded input it was
drawn from, independently of trail's own code (used by tests/cli/20-flamegraph.sh).

usage: fgcheck.py SVG FOLDED... [--reverse] [--inverted] [--minwidth-pct P]
                  [--total N] [--factor F] [--no-counts]
       fgcheck.py --batch FILE SUITE
         FILE has one check a line: NAME<TAB>SVG<TAB>ARG<TAB>ARG...; prints
         "ok - SUITE: NAME" or "FAILED - SUITE: NAME" per line (one Python
         start for many checks: it is slow on a loaded machine).

Checks: the document parses; frames are in pre-order with depth from y
(y = root's y -/+ depth * frame height, by orientation); every child lies
within its parent and siblings do not overlap; each width is its count over
the total; and (unless --no-counts) every drawn frame's count equals the sum
of the input stacks through that path, computed here from the raw lines.
Prints what is wrong and exits 1, or exits 0.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
# flamegraph.pl's documented line format, applied twice for a second column
ANNOTATION = re.compile(r"_\[[kwij]\]$")
LINE = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")


def expected_counts(paths, reverse, factor):
    """path tuple -> inclusive count (the after column for differential)."""
    out = {}
    total = 0.0
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = LINE.match(line)
                if not m or not line:
                    continue
                stack, count = m.group(1), float(m.group(2))
                m2 = LINE.match(stack)
                if m2:
                    stack = m2.group(1)     # differential: widths from the second column
                count *= factor
                # names are shown without perf's _[k] _[w] _[i] _[j] annotations
                frames = [ANNOTATION.sub("", f) for f in stack.split(";")] if stack else []
                if reverse:
                    frames.reverse()
                total += count
                for i in range(1, len(frames) + 1):
                    key = tuple(frames[:i])
                    out[key] = out.get(key, 0.0) + count
    return out, total


def check(argv):
    """argv as on the command line (argv[0] ignored); returns the errors."""
    opts = {}
    it = iter(argv[1:])
    flags = set()
    for a in it:
        if a in ("--minwidth-pct", "--total", "--factor"):
            opts[a] = float(next(it))
        elif a.startswith("--"):
            flags.add(a)
    args = []
    skip = False
    for a in argv[1:]:
        if skip:
            skip = False
            continue
        if a in ("--minwidth-pct", "--total", "--factor"):
            skip = True
            continue
        if not a.startswith("--"):
            args.append(a)
    svg, inputs = args[0], args[1:]
    errors = []
    root = ET.parse(svg).getroot()
    frames_el = None
    for el in root.iter(NS + "svg"):
        if el.get("id") == "frames":
            frames_el = el
    if frames_el is None:
        return ["no <svg id=\"frames\">"]
    script = "".join(s.text or "" for s in root.iter(NS + "script"))
    fh = float(re.search(r"frameheight: ([0-9.]+)", script).group(1))
    frames = []
    for g in frames_el:
        title = g.find(NS + "title").text
        rect = g.find(NS + "rect")
        name = g.get("data-name") or title[:title.rfind(" (")]
        m = re.search(r" \(([0-9,.]+) ", title[title.rfind(" ("):])
        count = float(m.group(1).replace(",", "")) if m else None
        frames.append({
            "name": name, "count": count,
            "x": float(rect.get("x").rstrip("%")), "w": float(rect.get("width").rstrip("%")),
            "y": float(rect.get("y")), "h": float(rect.get("height")),
        })
    if not frames:
        return ["no frames"]
    y0 = frames[0]["y"]
    inverted = "--inverted" in flags
    stack = []
    total_drawn = float(frames_el.get("total_samples"))
    for i, f in enumerate(frames):
        depth = round(abs(f["y"] - y0) / fh)
        want_y = y0 + depth * fh if inverted else y0 - depth * fh
        if abs(f["y"] - want_y) > 1e-6:
            errors.append("frame %d (%s): y %g, expected %g for depth %d" % (i, f["name"], f["y"], want_y, depth))
        if i and ((f["y"] > y0) != inverted):
            errors.append("frame %d (%s): on the wrong side of the root" % (i, f["name"]))
        if abs(f["h"] - (fh - 1)) > 1e-6:
            errors.append("frame %d: height %g" % (i, f["h"]))
        while stack and stack[-1]["depth"] >= depth:
            stack.pop()
        if i and (not stack or stack[-1]["depth"] != depth - 1):
            errors.append("frame %d (%s): not in pre-order (no parent at depth %d)" % (i, f["name"], depth - 1))
            break
        f["depth"] = depth
        f["path"] = (stack[-1]["path"] + (f["name"],)) if stack else ()
        if stack:
            p = stack[-1]
            eps = 2e-5
            if f["x"] < p["x"] - eps or f["x"] + f["w"] > p["x"] + p["w"] + eps:
                errors.append("frame %d (%s) outside its parent %s" % (i, f["name"], p["name"]))
            if p.get("last_end") is not None and f["x"] < p["last_end"] - eps:
                errors.append("frame %d (%s) overlaps its left sibling" % (i, f["name"]))
            p["last_end"] = f["x"] + f["w"]
        if f["count"] is not None and total_drawn > 0:
            want_w = f["count"] / total_drawn * 100
            # counts in titles are rounded to 3 decimals; widths to 5
            if abs(f["w"] - want_w) > 1e-4 + 0.0005 / total_drawn * 100:
                errors.append("frame %d (%s): width %g%%, count says %g%%" % (i, f["name"], f["w"], want_w))
        if "--minwidth-pct" in opts and i and f["w"] < opts["--minwidth-pct"] - 1e-5:
            errors.append("frame %d (%s): width %g%% below --minwidth" % (i, f["name"], f["w"]))
        stack.append(f)
    if "--no-counts" not in flags and inputs:
        want, total = expected_counts(inputs, "--reverse" in flags, opts.get("--factor", 1.0))
        if abs(frames[0]["count"] - total) > 1e-6 * max(1, total):
            errors.append("root count %g, input total %g" % (frames[0]["count"], total))
        if "--total" in opts and abs(total_drawn - opts["--total"]) > 1e-6:
            errors.append("drawn against %g, --total %g" % (total_drawn, opts["--total"]))
        for f in frames[1:]:
            if "path" not in f:
                break
            w = want.get(f["path"])
            if w is None or abs(w - f["count"]) > 0.0006 + 1e-9 * w:
                errors.append("frame %s: count %g, input says %s" % (";".join(f["path"]), f["count"], w))
    return errors


def report(errors, out):
    for e in errors[:10]:
        print("    " + e, file=out)
    if len(errors) > 10:
        print("    ... %d more" % (len(errors) - 10), file=out)


def main(argv):
    if len(argv) > 1 and argv[1] == "--batch":
        failed = 0
        with open(argv[2]) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                try:
                    errors = check([""] + fields[1:])
                except Exception as e:  # a parse error is a failure, not a crash
                    errors = ["%s: %s" % (type(e).__name__, e)]
                if errors:
                    failed += 1
                    print("FAILED - %s: %s" % (argv[3], fields[0]))
                    report(errors, sys.stderr)
                else:
                    print("ok - %s: %s" % (argv[3], fields[0]))
        return 1 if failed else 0
    errors = check(argv)
    report(errors, sys.stdout)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
