"""The web client's sources as files: every module parses as a JavaScript module, and each
language of the string table names every key once and the same keys as the other.

A merge can leave a module that no longer parses (the whole client then fails to load) or a
key defined twice (the later silently wins, so one screen shows another's text); both are
cheap to catch here, before any browser starts."""
import collections
import pathlib
import re
import shutil
import subprocess
import tempfile

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"


def language_blocks(source: str) -> dict[str, list[str]]:
    """The keys of each language block (`  en: {` … `  },`), in order, duplicates kept."""
    blocks = {}
    for match in re.finditer(r"\n  (\w+): \{\n(.*?)\n  \},", source, re.S):
        blocks[match.group(1)] = re.findall(r"^    (\w+)\s*:", match.group(2), re.M)
    return blocks


def test_every_module_parses():
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is installed by `make test-deps` (TEST_PACKAGES)"
    modules = sorted(WEB.glob("js/**/*.js")) + [WEB / "sw.js"]
    assert len(modules) > 20
    broken = []
    with tempfile.TemporaryDirectory() as scratch:
        for module in modules:
            copy = pathlib.Path(scratch) / "module.mjs"
            copy.write_bytes(module.read_bytes())
            result = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True)
            if result.returncode != 0:
                broken.append(f"{module.relative_to(WEB)}: {result.stderr.strip().splitlines()[-1]}")
    assert not broken, broken


def test_each_language_names_each_key_once_and_the_same_keys():
    blocks = language_blocks((WEB / "js/i18n.js").read_text())
    assert {"en", "zh"} <= set(blocks), list(blocks)
    for language, keys in blocks.items():
        twice = [key for key, count in collections.Counter(keys).items() if count > 1]
        assert not twice, f"{language} defines these keys more than once: {twice}"
    # A count of one has its own `_singular` string only in a language with a grammatical
    # singular ("1 member"); Chinese has none, so those keys are compared apart.
    for language, keys in blocks.items():
        orphans = [key for key in keys if key.endswith("_singular") and key.removesuffix("_singular") not in keys]
        assert not orphans, f"{language} has singular strings without their plural: {orphans}"
    plain = {language: {key for key in keys if not key.endswith("_singular")} for language, keys in blocks.items()}
    assert plain["en"] == plain["zh"], plain["en"] ^ plain["zh"]


def test_the_chinese_table_quotes_with_corner_brackets():
    # One style of quotation marks on every Chinese screen: 「发现」, not “发现” on some.
    source = (WEB / "js/i18n.js").read_text()
    chinese = source[source.index("\n  zh: {"):]
    curly = [line.strip() for line in chinese.splitlines() if "“" in line or "”" in line]
    assert not curly, curly


def test_every_confirmation_names_its_action_in_its_title():
    # A confirmation titled just "Confirm" leaves the reader to find the action in the text:
    # each caller gives its own title, a question in both languages ("Leave the group?").
    calls = []
    for module in sorted(WEB.glob("js/**/*.js")):
        for match in re.finditer(r"confirmDialog\(([^,]*),", module.read_text()):
            if "function confirmDialog" not in module.read_text()[max(0, match.start() - 30):match.end()]:
                calls.append((module.name, match.group(1).strip()))
    assert len(calls) >= 7, calls
    untitled = [call for call in calls if not re.fullmatch(r"t\(('\w+_title'|`\$\{\w+\}_title`)\)", call[1])]
    assert not untitled, untitled
    source = (WEB / "js/i18n.js").read_text()
    for language, mark in (("en", "?"), ("zh", "？")):
        block = re.search(rf"\n  {language}: \{{\n(.*?)\n  \}},", source, re.S).group(1)
        titles = dict(re.findall(r"^    (confirm_\w+_title): '(.*)',$", block, re.M))
        assert len(titles) >= 11, (language, titles)
        assert all(text.endswith(mark) for text in titles.values()), (language, titles)


def test_the_made_up_device_names_are_the_servers():
    # The client words "<browser> on <system>" in Chinese only for a name the server made up
    # (a typed name reads as typed): its lists are the server's, name for name.
    swift = (WEB.parent / "Sources/ParleyCore/Accounts/DeviceName.swift").read_text()
    server = {}
    for table in ("browsers", "systems"):
        body = re.search(rf"static let {table}: .*?= \[(.*?)\]\n", swift, re.S).group(1)
        server[table] = set(re.findall(r'\("[^"]*", "([^"]*)"\)', body))
    web = (WEB / "js/resources.js").read_text()
    client = {table: set(re.findall(r"'([^']+)'", re.search(rf"const MADE_UP_{table.upper()} = new Set\(\[(.*?)\]\)", web).group(1)))
              for table in ("browsers", "systems")}
    assert len(server["browsers"]) >= 6 and len(server["systems"]) >= 7, server
    assert client == server
