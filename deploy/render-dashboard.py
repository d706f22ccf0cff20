#!/usr/bin/env python3
"""Draws the Grafana dashboard's panels from the series DashboardQueriesTest kept of a real run
(target/dashboard/panels.json): the same queries, evaluated by a real Prometheus, laid out as the
dashboard lays them out, but drawn with matplotlib, not by Grafana.

    python3 deploy/render-dashboard.py [target/dashboard/panels.json] [docs/how-to/dashboard.png]
"""
import json
import re
import sys
from datetime import datetime, timezone

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

panels_file = sys.argv[1] if len(sys.argv) > 1 else "target/dashboard/panels.json"
out_file = sys.argv[2] if len(sys.argv) > 2 else "docs/how-to/dashboard.png"
layout = {p["title"]: p.get("gridPos") for p in json.load(open("charts/jvm-tuning-operator/files/dashboard.json"))["panels"]}
panels = json.load(open(panels_file))


def legend(series):
    text = series.get("legend") or ""
    text = re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: series["metric"].get(m.group(1), ""), text)
    shown = {k: v for k, v in series["metric"].items() if k not in ("__name__", "instance", "job", "namespace", "profile")}
    return text or ",".join(f"{k}={v}" for k, v in shown.items()) or "value"


def last(series):
    return float(series["values"][-1][1]) if series.get("values") else float("nan")


rows = max(g["y"] + g["h"] for g in layout.values() if g)
fig = plt.figure(figsize=(24, rows * 0.42))
fig.suptitle("jvm-tuning-operator dashboard, drawn from its own queries against a real run "
             "(Prometheus scraping real JVMs and the operator; matplotlib, not Grafana)", fontsize=14)
for panel in panels:
    grid = layout.get(panel["title"])
    if not grid:
        continue
    ax = fig.add_axes([grid["x"] / 24 + 0.005, 1 - (grid["y"] + grid["h"]) / rows + 0.01, grid["w"] / 24 - 0.012, grid["h"] / rows - 0.035])
    ax.set_title(panel["title"], fontsize=10, loc="left")
    series = [s for s in panel["series"] if s.get("values")]
    if not series:
        ax.text(0.5, 0.5, "no data", ha="center", va="center", color="grey")
        ax.set_axis_off()
    elif panel["type"] == "timeseries":
        for s in series:
            times = [datetime.fromtimestamp(float(t), timezone.utc) for t, _ in s["values"]]
            ax.plot(times, [float(v) for _, v in s["values"]], label=legend(s)[:40])
        ax.legend(fontsize=7, loc="upper left")
        ax.tick_params(labelsize=7)
        ax.xaxis.set_major_formatter(matplotlib.dates.DateFormatter("%H:%M:%S"))
    elif panel["type"] == "piechart":
        ax.pie([max(last(s), 0) for s in series], labels=[legend(s)[:25] for s in series], textprops={"fontsize": 7})
    else:  # stat and table: the newest value of each series
        ax.set_axis_off()
        lines = [f"{legend(s)[:60]}: {last(s):g}" for s in series[:12]]
        ax.text(0.02, 0.95, "\n".join(lines), va="top", fontsize=8 if panel["type"] == "table" else 11, family="monospace")
fig.savefig(out_file, dpi=70)
print(f"{out_file}: {len(panels)} panels")
