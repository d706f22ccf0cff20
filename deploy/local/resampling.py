"""Bootstrap 95% intervals for the benchmark scripts, with a fixed seed so the same files give the same figures.

Run as a program: resampling.py FILE [A/B[<=BOUND]]... summarises the lines "VARIANT SECONDS" of FILE per variant (the
median with a bootstrap 95% interval of the median, the count, min and max), then each ratio of medians A/B with its
own interval, and whether it is at most BOUND when one is given.
"""
import random
import statistics
import sys

DRAWS = 10000


def seeded():
    return random.Random(1)


def interval_of(draws):
    """The 2.5th and 97.5th percentiles of the draws."""
    draws = sorted(draws)
    return draws[len(draws) * 25 // 1000 - 1], draws[len(draws) * 975 // 1000 - 1]


def interval(draw):
    """The 95% interval of DRAWS calls of draw()."""
    return interval_of(draw() for _ in range(DRAWS))


def read_times(path):
    times = {}
    for line in open(path):
        variant, seconds = line.split()
        times.setdefault(variant, []).append(float(seconds))
    return times


def summarise_medians(times, ratios, rng):
    def resampled_median(xs):
        return statistics.median(rng.choices(xs, k=len(xs)))
    for variant, xs in times.items():
        low, high = interval(lambda: resampled_median(xs))
        print(f"{variant:6} median {statistics.median(xs):6.1f} s  95% interval {low:.1f}-{high:.1f}  "
              f"(n {len(xs)}, min {min(xs):.1f}, max {max(xs):.1f})")
    for spec in ratios:
        pair, _, bound = spec.partition("<=")
        top, bottom = pair.split("/")
        if top not in times or bottom not in times:
            continue
        ratio = statistics.median(times[top]) / statistics.median(times[bottom])
        low, high = interval(lambda: resampled_median(times[top]) / resampled_median(times[bottom]))
        verdict = f"; at most {bound}: {'met' if ratio <= float(bound) else 'not met'}" if bound else ""
        print(f"{pair}: {ratio:.2f} (95% interval {low:.2f}-{high:.2f}){verdict}")


if __name__ == "__main__":
    summarise_medians(read_times(sys.argv[1]), sys.argv[2:], seeded())
