"""The fuzz corpus replayed through parley-fuzz's harnesses (docs/fuzzing.md).

The debug build of parley-fuzz runs each input without libFuzzer and checks the same
invariants `make fuzz` does, so every seed, and every crash found and fixed (its input is
added to the corpus), is checked on every test run.
"""
import subprocess

import pytest

from conftest import ROOT, binary

CORPUS = ROOT / "Fuzz" / "corpus"


def targets() -> list[str]:
    return sorted(path.name for path in CORPUS.iterdir() if path.is_dir())


def test_every_target_has_a_corpus():
    listed = subprocess.run([binary("parley-fuzz", "PARLEY_FUZZ_BIN"), "--list"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert sorted(listed) == targets()
    for target in listed:
        assert any((CORPUS / target).iterdir()), f"Fuzz/corpus/{target} is empty"


@pytest.mark.parametrize("target", targets())
def test_corpus_replays_clean(target):
    result = subprocess.run([binary("parley-fuzz", "PARLEY_FUZZ_BIN"), target, str(CORPUS / target)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
