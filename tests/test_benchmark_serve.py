"""``benchmarks/serve_latency.py``'s closing lines (its pure part; the benchmark itself is
run by hand): each side's median and maximum with the targets beside them, Hugo's side
as "—" without ``hugo``."""

from __future__ import annotations

import sys

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

from serve_latency import Figures
from serve_latency import summary


def _figures(**measures: list[float]) -> Figures:
    figures = Figures()
    for name, values in measures.items():
        for value in values:
            figures.add(name.replace("_", " "), value)
    return figures


def test_the_summary_puts_the_targets_beside_both_medians() -> None:
    ours = _figures(page=[0.2, 0.25, 0.4], event=[0.19, 0.24, 0.39], cpu_round=[1.0])
    hugo = _figures(page=[0.1, 0.3, 0.5], cpu=[0.02])
    lines = summary(ours, hugo, 3)
    assert lines[:3] == ["save to page shown, 3 rounds:",
                         "  ours (serve):  median 0.250 s, max 0.400 s",
                         "  hugo server:   median 0.300 s, max 0.500 s"]
    assert lines[3].endswith("(under 0.3 s: yes; below hugo server's median: yes)")
    assert "ours, save to the events stream's message: median 0.240 s, max 0.390 s" in lines
    assert "ours, the build itself (serve's terminal): median —, max —" in lines
    assert any(line.startswith("ours, server CPU of the whole round") and
               "median 1.000 s" in line for line in lines)


def test_without_hugo_its_side_is_a_dash() -> None:
    lines = summary(_figures(page=[0.35]), None, 1)
    assert lines[2] == "  hugo server:   median —, max —"
    assert lines[3].endswith("(under 0.3 s: no; below hugo server's median: —)")
    assert lines[-1] == ("hugo server, server CPU from the save to the page shown: "
                         "median —, max —")
