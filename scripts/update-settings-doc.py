#!/usr/bin/env python3
"""Regenerates the settings table of docs/operations.md from `parley serve --settings-markdown`."""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[1]
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/debug/parley")
table = subprocess.run([binary, "serve", "--settings-markdown"], check=True, capture_output=True, text=True).stdout.strip()
guide = root / "docs/operations.md"
text = guide.read_text()
pattern = re.compile(r"(<!-- settings:begin[^>]*-->\n).*?(\n<!-- settings:end -->)", re.S)
if not pattern.search(text):
    sys.exit("docs/operations.md has no settings markers")
guide.write_text(pattern.sub(lambda m: m.group(1) + table + m.group(2), text))
