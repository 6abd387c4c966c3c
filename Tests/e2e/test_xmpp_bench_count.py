"""scripts/xmpp-bench/count.py, the arithmetic of run.sh's COUNT mode: instructions per message
from callgrind's dumps (one file per thread) and the messages the server stored between
zeroing and dumping. No server and no valgrind: the dump files are written here in the form
callgrind writes them."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "xmpp-bench" / "count.py"


def dump(path, thread, instructions):
    """A callgrind dump of one thread: header, summary, a cost line, totals."""
    path.write_text(f"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\n"
                    f"cmd:  parley serve\npart: 1\nthread: {thread}\n\npositions: line\nevents: Ir\n"
                    f"summary: {instructions}\n\nob=(1) parley\nfl=(1) ???\nfn=(1) main\n0 {instructions}\n"
                    f"totals: {instructions}\n")
    return path


def count(tmp_path, before, after, dumps, probe='{"sent": 300, "received": 300, "p99_ms": 40.0}'):
    (tmp_path / "probe.json").write_text((probe + "\n") if probe else "")
    files = [str(dump(tmp_path / f"cg.42.out.1-{t:02}", t, n)) for t, n in dumps]
    args = [sys.executable, str(SCRIPT), "parley", str(before), str(after), "30",
            str(tmp_path / "probe.json")] + files
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_instructions_of_every_thread_are_divided_by_the_messages_stored(tmp_path):
    # loops 60 M and 58 M, the writer 80 M, an idle thread 1 M, over 300 messages
    row = count(tmp_path, 20, 320, [(1, 1_000_000), (2, 60_000_000), (3, 58_000_000), (4, 80_000_000)])
    assert "invalid" not in row
    assert row["messages"] == 300 and row["instructions"] == 199_000_000
    assert row["instructions_per_msg"] == round(199_000_000 / 300)
    # the busiest thread first; a thread under 1 % of the total is left out
    assert list(row["threads_per_msg"]) == ["4", "2", "3"]
    assert row["threads_per_msg"]["4"] == round(80_000_000 / 300)
    assert row["probe"]["received"] == 300


def test_a_window_without_stored_messages_gives_no_figure(tmp_path):
    row = count(tmp_path, 20, 20, [(1, 5_000_000)])
    assert "no message was stored" in row["invalid"]
    assert "instructions_per_msg" not in row


def test_no_dump_gives_no_figure_and_a_failed_probe_shows_as_none(tmp_path):
    row = count(tmp_path, 20, 320, [], probe="")
    assert row["invalid"] == "callgrind wrote no dump"
    assert row["probe"] is None and "instructions_per_msg" not in row


def test_a_file_that_is_not_a_dump_is_refused(tmp_path):
    bad = tmp_path / "cg.42.out.1-01"
    bad.write_text("not callgrind\n")
    (tmp_path / "probe.json").write_text("")
    result = subprocess.run([sys.executable, str(SCRIPT), "parley", "0", "10", "30", str(tmp_path / "probe.json"),
                             str(bad)], capture_output=True, text=True)
    assert result.returncode != 0 and "no summary line" in result.stderr
