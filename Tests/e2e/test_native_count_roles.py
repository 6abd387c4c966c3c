"""scripts/callgrind-roles.py, the arithmetic of native-count.sh: a group's figures per delivery,
mutex locks counted, and (SERVER=relay) the messages taken from the calls of one function. No
server and no valgrind: the dumps are written here in the form callgrind writes them."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "callgrind-roles.py"
PUBLISH = "$s5relay3HubC7publishyyF"


def loop_dump(path, instructions, publishes, locks):
    """One event loop's dump: it waits in epoll_wait, publishes `publishes` times, locks `locks` times."""
    path.write_text(f"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 42\nthread: 2\n\n"
                    f"events: Ir\nsummary: {instructions}\n\nob=(1) relay\nfl=(1) ???\nfn=(1) run\n"
                    f"cfn=(2) epoll_wait\ncalls=5 0\n0 10\n"
                    f"cfn=(3) {PUBLISH}\ncalls={publishes} 0\n0 10\n"
                    f"cfn=(4) pthread_mutex_lock@@GLIBC_2.2.5\ncalls={locks} 0\n0 10\n"
                    f"cfn=(3)\ncalls=1 0\n0 10\n"
                    f"totals: {instructions}\n")
    return str(path)


def roles(*args):
    out = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip())


def test_the_relays_messages_are_the_calls_of_its_publish_function(tmp_path):
    dump = loop_dump(tmp_path / "cg.42.out.1-02", 1_990_000, publishes=9, locks=199)
    row = roles("--fanout", "199", "--messages-are-calls-to", PUBLISH, "relay", "0", "0", dump)
    # nine calls named in full and one by its number alone
    assert row["messages"] == 10
    assert row["loops"]["instructions_per_delivery"] == 1_000
    assert row["loops"]["locks_per_delivery"] == 0.1, "a versioned symbol counts as the lock"


def test_without_the_option_the_stored_counts_decide(tmp_path):
    dump = loop_dump(tmp_path / "cg.42.out.1-02", 1_990_000, publishes=9, locks=0)
    row = roles("--fanout", "199", "parley", "20", "30", dump)
    assert row["messages"] == 10 and row["loops"]["instructions_per_delivery"] == 1_000
