"""``bench/disk.py``: the probe that tells a stalled flush from the code's own time in the
crowd bench's PostgreSQL figures (docs/crowds.md). Its attribution decides what the docs say
of the move tail, so it is tested here; its timings are not (they are the disk's)."""

from tests.conftest import bench_script

disk = bench_script("disk")


def test_only_slow_moves_that_overlap_a_stalled_flush_count() -> None:
    flushes = [(0.0, 0.001), (1.0, 0.200), (2.0, 0.060), (5.0, 0.001)]
    moves = [
        (0.5, 0.010),   # fast: not counted at all
        (0.9, 0.150),   # slow, spans the stall at 1.0-1.2
        (1.15, 0.080),  # slow, starts inside it
        (1.3, 0.090),   # slow, after the stall ended
        (2.05, 0.030),  # fast, inside a stall: not a slow move
        (4.9, 0.300),   # slow, beside a flush that was fast
    ]
    assert disk.overlapping(moves, flushes) == (4, 2)


def test_the_probe_flushes_a_file_it_then_removes(tmp_path) -> None:
    flushes = disk.probe(str(tmp_path), 0.1)
    assert flushes and all(took >= 0 for _, took in flushes)
    assert [at for at, _ in flushes] == sorted(at for at, _ in flushes)
    assert list(tmp_path.iterdir()) == []
    assert "over 50 ms" in disk.summary(flushes)
