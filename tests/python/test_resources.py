"""Resources: 10^4 simulations do not grow the process, the GIL is released
while the library computes, concurrent calls give the serial results, and
the overhead over the C work stays within the issue's bounds."""

import os
import threading
import time

import numpy as np
import pytest

import zeno
from zeno import _zeno
from conftest import SANITIZED, scene_path

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def growth(call, warmup, loops):
    """Resident-size growth [bytes] over `loops` calls after `warmup` calls."""
    for _ in range(warmup):
        call()
    before = resident_bytes()
    for _ in range(loops):
        call()
    return resident_bytes() - before


needs_plain_malloc = pytest.mark.skipif(
    SANITIZED, reason="ASan's quarantine keeps freed memory resident")


@needs_plain_malloc
def test_ten_thousand_simulations_do_not_grow_the_process():
    scene = zeno.Scene.load(scene_path("example2.yaml"))

    def simulate():
        run = zeno.simulate(scene)
        assert run.status == "rest"
        return run.final_zod[2], len(run.trajectory), len(run.events)

    # A leak of 100 bytes per run would show as 1 MB; a trajectory (about
    # 250 kB per run) kept alive as gigabytes.
    assert growth(simulate, 1000, 10_000) < 1_000_000


@needs_plain_malloc
def test_other_calls_and_errors_do_not_grow_the_process():
    scene = zeno.Scene.load(scene_path("example3-zeno.yaml"))
    base = zeno.Scene.load(scene_path("example6.yaml"))

    def analyses():
        zeno.maps(scene, samples=100)
        zeno.analyze(scene, samples=100, partition=10)
        zeno.check(scene)
        list(zeno.Simulator(scene))
        zeno.regions(base, x=("com.x", -0.3, 0.3, 2), y=("com.y", -0.3, 0.3, 2), threads=1,
                     mc_runs=2, samples=100, intervals=10)
        zeno.sweep(scene, x=("initial.qdp.2", -1, 1, 2), y=("initial.qdp.1", 0, 0.1, 2),
                   threads=1)
        scene.to_yaml()

    def errors():
        for call in (lambda: zeno.Scene.from_dict({"paper": {"alpha": "x"}}),
                     lambda: zeno.Scene.load("/nonexistent.yaml"),
                     lambda: zeno.simulate(scene, eps=5),
                     lambda: zeno.maps(scene, samples=3)):
            with pytest.raises(zeno.Error):
                call()

    assert growth(analyses, 100, 300) < 500_000
    assert growth(errors, 500, 5000) < 500_000


@needs_plain_malloc
def test_certificates_are_freed():
    # A certificate (some 1.6 kB in C, kept in a capsule) leaked per call
    # grows the process by about 100 kB over 60 calls (measured: 160 kB for
    # 100); freed, by nothing (measured: 0). 60 calls take about 1.5 s.
    scene = zeno.Scene.load(scene_path("example7.yaml"))
    assert growth(lambda: zeno.certify(scene).evaluate([0.1, 0.1, 0, 0, 0, 0]), 5, 60) < 40_000


def max_pause_while(call):
    """Runs call() in a thread and returns (the longest pause of this thread's
    loop meanwhile, the call's duration) [s]."""
    done = threading.Event()
    result = {}

    def work():
        start = time.perf_counter()
        result["value"] = call()
        result["seconds"] = time.perf_counter() - start
        done.set()

    worker = threading.Thread(target=work)
    last, pause = time.perf_counter(), 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        pause, last = max(pause, now - last), now
    worker.join()
    return pause, result["seconds"]


@pytest.mark.parametrize("what", ["maps", "analyze", "simulate", "regions", "sweep"])
def test_the_gil_is_released_during_long_calls(what):
    scene = zeno.Scene.load(scene_path("example3-zeno.yaml"))
    calls = {
        "maps": lambda: zeno.maps(scene, samples=200_000),
        "analyze": lambda: zeno.analyze(scene, samples=200_000),
        "simulate": lambda: zeno.simulate(scene, max_events=100_000, t_end=1e9,
                                          sample_dt=1e-4).trajectory,
        "regions": lambda: zeno.regions(zeno.Scene.load(scene_path("example2.yaml")),
                                        x=("paper.mu2", 0.5, 0.7, 128), y=("paper.mu1", 0.75, 0.8, 1),
                                        threads=1, samples=4000),
        "sweep": lambda: zeno.sweep(zeno.Scene.load(scene_path("example2.yaml"),
                                                    overrides={"model": "full"}),
                                    x=("initial.qdp.2", -1, 1, 8), y=("initial.qdp.1", -1, 0, 1),
                                    magnitude=(0.01, 0.5, 4), threads=1),
    }
    pause, seconds = max_pause_while(calls[what])
    # Held GIL: this thread would stop for the whole call (0.1-0.5 s; the
    # maps, the regions call and the sweep are sized for 0.1 s with the ZOD
    # table).
    assert seconds > 0.05, seconds
    assert pause < 0.5 * seconds, (pause, seconds)


def test_concurrent_calls_give_the_serial_results():
    names = ["example2.yaml", "example3-zeno.yaml", "example4.yaml", "bouncing-ball.yaml"]
    scenes = [zeno.Scene.load(scene_path(n)) for n in names]
    serial = [(zeno.simulate(s).trajectory.values.copy(), zeno.simulate(s).word) for s in scenes]
    results = [None] * len(scenes)

    def work(i):
        run = zeno.simulate(scenes[i])
        results[i] = (run.trajectory.values, run.word)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(scenes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (values, word), (ref_values, ref_word) in zip(results, serial):
        assert word == ref_word and np.array_equal(values, ref_values)


def test_a_simulator_shared_by_threads_hands_out_each_event_once():
    scene = zeno.Scene.load(scene_path("example3-zeno.yaml"))
    expected = zeno.simulate(scene, model="full", eps=1e-2, trajectory=False)
    sim = zeno.Simulator(scene, model="full", eps=1e-2)
    seen, refused = [], []

    def work():
        while True:
            try:
                seen.append(next(sim).index)
            except StopIteration:
                return
            except RuntimeError:  # the other thread is stepping it
                refused.append(1)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == list(range(expected.event_count))
    assert (sim.status, sim.word) == (expected.status, expected.word)
