# SPDX-License-Identifier: Apache-2.0
"""Prints the host's pace: milliseconds for a fixed piece of CPU work, the median of three tries.

The machines these benchmarks run on are shared, and their speed changes without any sign in the load average
or the steal time: on the same day, this loop took about 100 ms in one hour and 250-300 ms in another, and
every program on the machine slowed with it. bench-core.sh and bench-http.sh run it before and after timing
and put both figures in their reports, so that a run can be judged by the pace it ran at.
"""

import time


def main():
    tries = []
    for _ in range(3):
        started = time.perf_counter()
        sum(range(10**7))
        tries.append((time.perf_counter() - started) * 1000)
    print("%.1f" % sorted(tries)[1])


if __name__ == "__main__":
    main()
