"""Arrow's CSV reader never holds the Python bytes of the input.

A buffer wrapping Python bytes that one of Arrow's threads releases while the interpreter
exits aborts the process ("terminate called without an active exception"): the CLI once
exited -6 after printing its message (tests/scoring/test_cli.py::test_missing_file_exits_2).
Arrow's threads may hold their input a moment after ``read_csv`` has returned, so the reader
is given a copy in Arrow's own pool, which is freed without Python.

The inputs end without a line end, so the reader parses these very bytes (no stripped
copy) and their reference count tells whether Arrow holds them.
"""

import sys
import threading

from scoring.tables import load_table


def test_the_input_is_not_held_when_load_table_returns():
    for rows in (1, 1_000, 200_000):
        data = b"a,b,c\n" + b"\n".join(b"%d,x%d,%d" % (i, i % 7, i) for i in range(rows))
        before = sys.getrefcount(data)
        assert len(load_table(data)) == rows
        assert sys.getrefcount(data) == before  # no Arrow object holds the bytes


def test_a_reader_thread_that_still_holds_its_source_holds_no_python_bytes(monkeypatch):
    """What Arrow's threads do now and then: hold the input a moment after read_csv returned.
    The read does not wait for them, and what they hold is not the caller's bytes."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    real = pacsv.read_csv
    sources = []
    release = threading.Event()
    holders = []

    def read_csv(source, **options):
        table = real(source, **options)
        sources.append(source)

        def hold_until_released(held=source):
            release.wait(timeout=30)
            del held

        holder = threading.Thread(target=hold_until_released)
        holder.start()
        holders.append(holder)
        return table

    monkeypatch.setattr(pacsv, "read_csv", read_csv)
    data = b"a,b\n1,x\n2,y"
    before = sys.getrefcount(data)
    table = load_table(data)
    try:
        assert (table.columns, len(table)) == (["a", "b"], 2)
        assert sys.getrefcount(data) == before  # the holding thread does not hold the bytes
        assert not release.is_set()  # and the read did not wait for it
        assert isinstance(sources[0], pa.BufferReader)
    finally:
        sources.clear()
        release.set()
        for holder in holders:
            holder.join()
