"""scripts/xmpp-bench/measure.py, the part of `make bench-xmpp` that decides what a rate
measured: its window comes from tsung's own dumps (not from a plan timed at tsung's launch),
and a run whose messages were not delivered gets no figure. No server: a tsung log, CPU
samples and probe samples are written here as the real tools write them."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "xmpp-bench" / "measure.py"
HZ = 100
T0 = 1_800_000_000   # the first dump's epoch


def tsung_log(path, per_dump, bytes_in_per_message):
    """Dumps every 10 s from T0: sign-in (no messages), then `per_dump` message counts. tsung
    writes a transaction's running total *before* the dump; sizes' totals include it."""
    lines, total, sent, received = [], 0, 0, 0
    for i, count in enumerate([0] + per_dump):
        sent += 100 * count + 1000
        received += bytes_in_per_message * count + 1000
        lines.append(f"# stats: dump at {T0 + 10 * i}")
        lines.append(f"stats: users_count {100 if i == 0 else 0} 100")
        if count:
            lines.append(f"stats: tr_msg {count} 1.0 0.5 9.0 0.1 1.0 {total}")
        lines.append(f"stats: size_rcv 0 {received}")
        lines.append(f"stats: size_sent 0 {sent}")
        total += count
    path.write_text("\n".join(lines) + "\n")


def cpu_samples(path, cores):
    """Every half second from before T0 to well after: the server busy `cores` of a CPU."""
    rows = [f"{T0 - 20 + k / 2:.1f} {int((k / 2) * cores * HZ)} 1.5" for k in range(0, 200)]
    path.write_text("\n".join(rows) + "\n")


def probe_samples(path, lost=0):
    rows = []
    for n in range(60):   # one a second from T0 - 10
        sent = T0 - 10 + n
        rows.append(f"sent {n} {sent:.3f}")
        if n >= lost:
            rows.append(f"received {n} {sent + 0.01:.3f} {5 + n % 7:.3f}")
    path.write_text("\n".join(rows) + "\n")


def measure(tmp_path, per_dump, stored=None, bytes_in_per_message=230, cores=0.5, lost=0, server="parley"):
    tsung_log(tmp_path / "tsung.log", per_dump, bytes_in_per_message)
    cpu_samples(tmp_path / "cpu.txt", cores)
    probe_samples(tmp_path / "probe.txt", lost)
    args = [sys.executable, str(SCRIPT), server, "1000", str(tmp_path / "tsung.log"), str(tmp_path / "cpu.txt"),
            str(tmp_path / "probe.txt"), str(HZ)] + ([str(stored)] if stored is not None else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_window_is_the_message_phase_without_its_first_and_last_dump(tmp_path):
    # messages in the dumps at T0+10 .. T0+50; the first (ramp) and last (tail) are left out
    row = measure(tmp_path, [3000, 10000, 10000, 10000, 2000], stored=35000 + 60)
    assert "invalid" not in row
    assert row["window_start"] == T0 + 10 and row["window_s"] == 30
    assert row["tsung_window_messages"] == 30000
    assert row["achieved_rate"] == 1000 and row["offered_reached"] is True
    # 0.5 cores over 30 s = 15 s of CPU, over 30,000 tsung messages and the probe's 30
    assert row["server_cpu_s"] == 15.0
    assert row["cpu_us_per_msg"] == round(15e6 / 30030, 1)
    assert row["probe"]["sent"] == 30 and row["probe"]["received"] == 30
    assert row["tsung_messages"] == 35000


def test_messages_not_stored_make_the_run_invalid_without_a_figure(tmp_path):
    row = measure(tmp_path, [3000, 10000, 10000, 10000, 2000], stored=120)
    assert "stored 120 messages of 35060" in row["invalid"]
    assert "cpu_us_per_msg" not in row and "server_cores" not in row


def test_messages_not_delivered_make_the_run_invalid_for_any_server(tmp_path):
    # tsung got 20 bytes back for each 100-byte message: nothing was passed on
    row = measure(tmp_path, [3000, 10000, 10000, 10000, 2000], bytes_in_per_message=20, server="ejabberd")
    assert "messages were not delivered" in row["invalid"]
    assert "cpu_us_per_msg" not in row


def test_a_phase_too_short_for_a_steady_dump_is_invalid(tmp_path):
    row = measure(tmp_path, [3000, 2000], stored=5000 + 60)
    assert "no steady 10 s dump" in row["invalid"]
    assert "cpu_us_per_msg" not in row


def test_a_rate_tsung_could_not_offer_is_marked(tmp_path):
    row = measure(tmp_path, [3000, 5000, 5000, 5000, 2000], stored=20000 + 60, lost=40)
    assert row["achieved_rate"] == 500 and row["offered_reached"] is False
    # probe messages 0..39 of 60 never arrived; the window holds 20..49: 10 of its 30 arrived
    assert row["probe"]["sent"] == 30 and row["probe"]["received"] == 10
