"""A bad definition.yaml or templates.yaml is a ConfigError that names the file and the key at fault."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.errors import ConfigError
from ambiforge.generation.offline.library import parse_templates
from tests.unit.ambiguity.conftest import FIXTURE_TYPES


def type_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "quantity"
    shutil.copytree(FIXTURE_TYPES / "quantity", folder)
    return folder


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("good_agent: ask", "good_agent: maybe", r"definition.yaml: good_agent: Input should be 'ask' or 'act'"),
        ("name: quantity", "name: Quantity!", r"definition.yaml: name: String should match pattern"),
        ("has_shortlist: false", "has_shortlist: false\ncolour: red", r"definition.yaml: colour: Extra inputs"),
        ("label: Quantity\n", "", r"definition.yaml: label: Field required"),
        ("default_share: 0", "default_share: [", r"definition.yaml: not valid YAML"),
    ],
)
def test_bad_definition(tmp_path: Path, old: str, new: str, message: str) -> None:
    folder = type_folder(tmp_path)
    path = folder / "definition.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError, match=message) as caught:
        ambiguity.register_folder(folder)
    assert str(path) in str(caught.value)


def test_a_missing_definition_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"definition.yaml: ambiguity type definition not found"):
        ambiguity.register_folder(tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "tags_any: [drinkware], clean: true}",
            "tags_any: [drinkware], where: {colour: red}}",
            r"templates\[0\] \(pour_little\): co.g.where: unknown catalog attribute 'colour'",
        ),
        (
            "  mechanism: omission",
            "  mechanism: sarcasm",
            r"templates\[0\] \(pour_little\): mechanism: unknown mechanism",
        ),
        ("intent: little", "intent: little\n    colour: red", r"templates\[0\] \(pour_little\): colour: Extra inputs"),
        (
            '"Pour a little {fb} into {g}."',
            '"Pour a little {fb} into {h}."',
            r"pour_little\): direct\[0\]: unknown slot \{h\}",
        ),
        (
            'question: "How much {fb} should I pour?"',
            'question: "How much {t}?"',
            r"pour_little\): question: unknown slot \{t\}",
        ),
        (
            "  - key: fill_halfway",
            "  - key: pour_little",
            r"templates\[1\] \(pour_little\): key: 'pour_little' is used twice",
        ),
        (
            "  - key: two_pieces\n",
            "  - key: two_pieces\n    extends: preferences/nope\n",
            r"two_pieces\): extends: .* has no template 'nope'",
        ),
        (
            "  - key: two_pieces\n",
            "  - key: two_pieces\n    extends: irony/slice\n",
            r"two_pieces\): extends: unknown ambiguity type 'irony'",
        ),
        ("templates:", "template:", r"templates.yaml: templates: expected a non-empty list"),
        (
            'plan_amb: ["Cut {f} into pieces with {k}.", "Put {k} in the sink."]',
            "",
            r"two_pieces\): an omission needs explicit 'ambiguous' wordings and a 'plan_amb'",
        ),
    ],
)
def test_bad_templates(tmp_path: Path, old: str, new: str, message: str) -> None:
    folder = type_folder(tmp_path)
    path = folder / "templates.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError, match=message) as caught:
        parse_templates(path, "quantity")
    assert str(caught.value).startswith(f"{path}: ")


def test_a_type_without_templates_cannot_be_generated_offline(tmp_path: Path, catalog) -> None:
    from ambiforge.errors import GenerationError
    from ambiforge.generation.offline import OfflineGenerator

    folder = type_folder(tmp_path)
    (folder / "templates.yaml").unlink()
    ambiguity.register_folder(folder)
    try:
        with pytest.raises(GenerationError, match="'quantity' has no offline templates"):
            OfflineGenerator(catalog, 1, "t").generate(0, "quantity")
    finally:
        ambiguity.unregister("quantity")


def test_check_templates_loads_every_registered_types_file_up_front(tmp_path: Path) -> None:
    from ambiforge.generation.offline.library import check_templates

    check_templates()  # the built-in files are fine
    folder = type_folder(tmp_path)
    path = folder / "templates.yaml"
    path.write_text(path.read_text().replace("intent: little", "intent: little\n    colour: red"))
    ambiguity.register_folder(folder)
    try:
        with pytest.raises(ConfigError, match=r"templates\[0\] \(pour_little\): colour: Extra inputs"):
            check_templates()
    finally:
        ambiguity.unregister("quantity")
