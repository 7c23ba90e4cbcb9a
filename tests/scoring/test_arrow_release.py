"""Arrow's CSV reader threads let go of the input before load_table returns.

A buffer wrapping Python bytes that one of Arrow's threads releases while the interpreter
exits aborts the process ("terminate called without an active exception"): the CLI once
exited -6 after printing its message (tests/scoring/test_cli.py::test_missing_file_exits_2).

The inputs end without a line end, so the reader parses these very bytes (no stripped
copy) and their reference count tells whether Arrow still holds them.
"""

import sys
import threading
import time

from scoring.tables import load_table


def test_the_input_is_released_when_load_table_returns():
    for rows in (1, 1_000, 200_000):
        data = b"a,b,c\n" + b"\n".join(b"%d,x%d,%d" % (i, i % 7, i) for i in range(rows))
        before = sys.getrefcount(data)
        assert len(load_table(data)) == rows
        assert sys.getrefcount(data) == before  # no Arrow object holds the bytes any more


def test_load_table_waits_for_a_reader_thread_that_still_holds_the_input(monkeypatch):
    """What Arrow's threads do now and then: hold the input a moment after read_csv returned."""
    import pyarrow.csv as pacsv

    real = pacsv.read_csv
    let_go = []

    def read_csv(source, **options):
        table = real(source, **options)
        held = [source]

        def let_go_later():
            time.sleep(0.3)
            held.clear()
            let_go.append(True)

        threading.Thread(target=let_go_later).start()
        return table

    monkeypatch.setattr(pacsv, "read_csv", read_csv)
    data = b"a,b\n1,x\n2,y"
    before = sys.getrefcount(data)
    assert len(load_table(data)) == 2
    assert let_go and sys.getrefcount(data) == before
