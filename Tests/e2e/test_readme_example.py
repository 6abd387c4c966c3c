"""The README's "Try it from a shell" example, run as written against a fresh server: a
newcomer's first commands must work."""
import json
import re
import subprocess

from conftest import ROOT


def readme_shell_example() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Try it from a shell", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "the README's shell example is not a ```sh block"
    return match.group(1)


def test_readme_shell_example_runs_as_written(parley):
    server = parley()
    script = readme_shell_example()
    assert "localhost:8080" in script
    # The only change: the port of this test's server instead of `make run`'s 8080. The
    # script ends by printing the token it kept, to check that it is the login's.
    script = script.replace("localhost:8080", f"localhost:{server.port}") + 'echo "TOKEN=$TOKEN"\n'
    result = subprocess.run(["sh", "-e", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr

    lines = result.stdout.splitlines()
    assert len(lines) == 5, result.stdout
    registered = [json.loads(line) for line in lines[:2]]
    me, lin = json.loads(lines[2]), json.loads(lines[3])
    token = lines[4].removeprefix("TOKEN=")

    assert [answer["user"]["username"] for answer in registered] == ["mei", "lin"]
    assert all(answer["created"] is True and answer["token"] for answer in registered)
    assert me["username"] == "mei" and "error" not in me
    assert lin["username"] == "lin" and lin["id"] == registered[1]["user"]["id"]
    # $TOKEN is a working token of its own (the login's), not one of the registrations'.
    assert token and token not in {answer["token"] for answer in registered}
