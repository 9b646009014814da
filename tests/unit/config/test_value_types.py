"""A configuration value of the wrong type is refused alike for every field, in one line naming the file
and the field: a string is never read as a number (``absence = "0.5"`` as ``pairs = true``), a negative
share names its type, and a method's ``[eval.methods.<name>]`` table is read the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.api import load_config
from ambiforge.errors import ConfigError


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[build.type_mix]\nabsence = "0.5"', "build.type_mix.absence: Input should be a valid number"),
        ("[build]\npairs = true", "build.pairs: Input should be a valid integer"),
        ('[build]\npairs = "5"', "build.pairs: Input should be a valid integer"),
        ("[build]\nseed = 1.5", "build.seed: Input should be a valid integer"),
        ("[build]\nprovider = 3", "build.provider: Input should be a valid string"),
        ("[build.type_mix]\nsafety = -0.1", "build.type_mix: type mix: share of 'safety' must not be negative"),
        ('[llm]\nrpm = "300"', "llm.rpm: Input should be a valid integer"),
        ("[llm]\nconcurrency = 2.5", "llm.concurrency: Input should be a valid integer"),
        ('[llm]\nmax_cost = "5"', "llm.max_cost: Input should be a valid number"),
        ('[release]\nmix_tolerance = "0.1"', "release.mix_tolerance: Input should be a valid number"),
        ('[release]\nauthors = "me"', "release.authors: Input should be a valid array"),
        ("[paths]\nraw = 1", "paths.raw: Input should be a valid string"),
        ('[judge]\nenabled = "yes"', "judge.enabled: Input should be a valid boolean"),
        ('[ambiguity]\nfolders = "types"', "ambiguity.folders: Input should be a valid tuple"),
        ("[build]\nwhen = 2024-01-01", "a date or time is not a value of any setting"),
        ('[eval.methods.lofreecp]\nsamples = "5"', "eval.methods.lofreecp.samples: Input should be a valid integer"),
        ("[eval.methods.debate]\nrounds = true", "eval.methods.debate.rounds: Input should be a valid integer"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_naming_the_field(
    toml: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.jsonl").write_text("")
    path = tmp_path / "ambiforge.toml"
    path.write_text(toml + "\n")
    with pytest.raises(ConfigError) as caught:
        cfg = load_config(path)
        if "[eval" in toml:  # a method's table is read against its settings when an eval is made
            from ambiforge.api import eval_options

            eval_options(cfg, data="items.jsonl", model="m")
    assert message in str(caught.value), str(caught.value)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)


def test_values_of_the_right_type_still_load(tmp_path: Path) -> None:
    path = tmp_path / "ambiforge.toml"
    path.write_text(
        "[build]\npairs = 7\n[build.type_mix]\nsafety = 1\npreferences = 0.5\n"
        '[llm]\nmax_cost = 2\n[release]\nauthors = ["a", "b"]\n[eval.methods.debate]\nagents = ["x", "y"]\n'
    )
    cfg = load_config(path)
    assert cfg.build.pairs == 7 and cfg.build.type_mix == {"safety": 1.0, "preferences": 0.5}
    assert cfg.llm.max_cost == 2.0 and cfg.release.authors == ["a", "b"]
    assert cfg.eval.methods["debate"]["agents"] == ["x", "y"]
