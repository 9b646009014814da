"""Byte-for-byte comparison of two checkouts' outputs (the layers refactor must change none).

``run OUT``: with this checkout's interpreter, a seeded offline build (200 pairs, seed 7), its release and an
eval of 30 pairs on the scripted server (``ambiforge.testing.llm_server``), all through the CLI, into OUT
(paths are relative to OUT, so two folders compare). ``compare A B``: every file of the
two folders byte for byte, except what records the clock or the checkout (JSON fields named after times,
``git_dirty``/the git hash, the manifest hash that covers them, Great Expectations' Data Docs, the CLI's
stderr with its timings); JSONL lines are compared as a set (eval calls finish in any order), a ``.gz`` file
by its decompressed text. Releases hold their JSON lines as ``data.jsonl.gz`` and no AmbiK CSV (an export,
written by ``run`` under ``ambik-export/``): a checkout from before is compared file for file with its
counterpart (``data.jsonl`` with ``data.jsonl.gz`` decompressed, ``curated/V/ambik.csv`` and
``splits/*.csv`` with ``ambik-export/V/...``). Prints each differing file and exits 1 if any.

    .venv/bin/python bench/golden_outputs.py run /tmp/golden && mv /tmp/golden /tmp/golden-before
    # ... change the code ...
    .venv/bin/python bench/golden_outputs.py run /tmp/golden
    .venv/bin/python bench/golden_outputs.py compare /tmp/golden-before /tmp/golden
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path


def run(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    exe = [sys.executable, "-m", "ambiforge.cli.main"]
    env = dict(os.environ, AMBIFORGE_CONFIG="", NO_COLOR="1")
    env.pop("PREFECT_API_URL", None)
    cfg = out / "ambiforge.toml"
    cfg.write_text('[paths]\nraw = "raw"\ncurated = "curated"\nannotation = "annotation"\n[llm]\nrpm = 0\n')

    def cli(*args: str, extra: dict[str, str] | None = None) -> None:
        r = subprocess.run([*exe, *args], env=env | (extra or {}), cwd=out, capture_output=True, text=True)
        (out / f"{args[0]}.stdout").write_text(r.stdout)
        (out / f"{args[0]}.stderr").write_text(r.stderr)
        if r.returncode:
            sys.exit(f"{args}: exit {r.returncode}\n{r.stderr[-2000:]}")

    cli(
        "build",
        "--provider",
        "offline",
        "--pairs",
        "200",
        "--seed",
        "7",
        "--run-id",
        "golden",
        "--config",
        "ambiforge.toml",
    )
    cli("release", "--version", "1.0.0", "--from", "golden", "--allow-unreviewed", "--config", "ambiforge.toml")
    released = out / "curated" / "1.0.0"
    if not (released / "ambik.csv").exists():  # the AmbiK CSV layout is an export of the release
        (out / "ambik-export" / "1.0.0" / "splits").mkdir(parents=True, exist_ok=True)
        for source in ["data.parquet", *(f"splits/{p.name}" for p in sorted((released / "splits").glob("*.parquet")))]:
            target = "ambik.csv" if source == "data.parquet" else source.replace(".parquet", ".csv")
            cli(
                "export-ambik",
                f"curated/1.0.0/{source}",
                "--out",
                f"ambik-export/1.0.0/{target}",
                "--config",
                "ambiforge.toml",
            )
    from ambiforge.testing.llm_server import ScriptedLLMServer
    from ambiforge.testing.scripted_eval import server_responder

    with ScriptedLLMServer(server_responder, api_key="sk-golden") as server:
        cli(
            "eval", "--data", "curated/1.0.0", "--model", "scripted", "--out", "eval",
            "--name", "golden", "--limit", "30", "--config", "ambiforge.toml",
            extra={"OPENAI_API_KEY": "sk-golden", "OPENAI_BASE_URL": server.openai_url},
        )  # fmt: skip
    for p in sorted(out.rglob("*")):
        if p.is_file() and ".llm-cache" not in p.parts:
            print(hashlib.sha256(p.read_bytes()).hexdigest()[:16], p.relative_to(out))


#: Keys whose values record the clock or the checkout, not the data (a manifest's per-file sha256 and bytes too:
#: the card records the checkout, and every other file is compared byte for byte itself).
VOLATILE = re.compile(
    r"git_dirty|git_commit|manifest_sha256_without_card|^sha256$|^bytes$|second|time|created|latency|date|started|finished|"
    r"elapsed|duration|_at$|^at$|wall|^pace$",
    re.I,
)
STAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?|\d{8}T\d{6}(\.\d+)?Z?|\d+\.\d+ ?s\b")


def mask(x: object) -> object:
    if isinstance(x, dict):
        return {k: ("*" if VOLATILE.search(k) else mask(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [mask(v) for v in x]
    if isinstance(x, str):
        return STAMP.sub("<ts>", x)
    return x


def load(p: Path) -> object:
    t = gzip.decompress(p.read_bytes()).decode("utf-8") if p.suffix == ".gz" else p.read_text()
    p = p.with_suffix("") if p.suffix == ".gz" else p
    if p.suffix == ".json":
        return mask(json.loads(t))
    if p.suffix == ".jsonl":
        rows = (mask(json.loads(line)) for line in t.splitlines() if line.strip())
        return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
    t = re.sub(r"\(git [0-9a-f]+(, with uncommitted changes)?\)", "(git)", t)
    t = re.sub(r'"(git_dirty|git_commit|manifest_sha256_without_card|created_at)": [^,\n]+', "", t)
    return STAMP.sub("<ts>", t)


def files(root: Path) -> set[Path]:
    """The outputs compared: not the caches, Data Docs, nor what the CLI printed (its timings)."""
    skip = {".llm-cache", "data_docs"}
    return {
        p.relative_to(root)
        for p in root.rglob("*")
        if p.is_file() and not skip & set(p.parts) and p.suffix not in (".stderr", ".stdout")
    }


def counterpart(r: Path) -> Path | None:
    """Where a file of a release from before the JSON lines were compressed is in one from after (or back)."""
    text = r.as_posix()
    if text.startswith("curated/") and text.endswith(".jsonl"):
        return Path(text + ".gz")
    if text.startswith("curated/") and text.endswith(".jsonl.gz"):
        return Path(text[: -len(".gz")])
    if text.startswith("curated/") and text.endswith(".csv"):
        return Path("ambik-export", *r.parts[1:])
    if text.startswith("ambik-export/"):
        return Path("curated", *r.parts[1:])
    return None


def compare(a: Path, b: Path) -> int:
    bad = 0
    fa, fb = files(a), files(b)
    for r in sorted(fa - fb):
        other = counterpart(r)
        if other is None or other not in fb - fa:
            print("only in one:", r)
            bad += 1
        elif load(a / r) != load(b / other) and (a / r).read_bytes() != (b / other).read_bytes():
            print("DIFFERS:", r, "vs", other)
            bad += 1
    for r in sorted(fb - fa):
        other = counterpart(r)
        if other is None or other not in fa - fb:
            print("only in one:", r)
            bad += 1
    for r in sorted(fa & fb):
        if r.suffix in (".stderr", ".stdout") or r.name == "manifest.sha256":
            continue
        if (a / r).read_bytes() == (b / r).read_bytes():
            continue
        if r.suffix in (".json", ".jsonl", ".md", ".html", ".csv", ".gz") and load(a / r) == load(b / r):
            continue
        print("DIFFERS:", r)
        bad += 1
    print(f"{len(fa & fb)} files: " + ("identical (clock and checkout fields masked)" if not bad else f"{bad} differ"))
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="build, release and eval into OUT").add_argument("out", type=Path)
    comparing = commands.add_parser("compare", help="compare two folders written by run")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.out.resolve())
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
