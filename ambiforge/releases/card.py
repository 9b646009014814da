"""The dataset card (README.md): Hugging Face YAML front matter (with the ``datasets`` features, so
``ambiguity_type`` is a ClassLabel) plus the sections researchers look for: review status in plain words,
counts, agreement, an example, every field described, the ambiguity types from their definitions, and
citations for the release and for AmbiK."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

import pyarrow as pa
import yaml

from ambiforge import ambiguity
from ambiforge.models import Item
from ambiforge.rendering import render
from ambiforge.stats import dataset_stats
from ambiforge.storage.arrow_schema import CLASS_LABEL_COLUMN, item_arrow_schema

AMBIK_BIBTEX = """@inproceedings{ivanova2025ambik,
  title     = {{AmbiK}: Dataset of Ambiguous Tasks in Kitchen Environment},
  author    = {Ivanova, Anastasiia and Bakaeva, Eva and Volovikova, Zoya and Kovalev, Alexey K.
               and Panov, Aleksandr I.},
  booktitle = {Proceedings of the 63rd Annual Meeting of the Association for Computational Linguistics (ACL 2025)},
  year      = {2025},
  eprint    = {2506.04089},
  archivePrefix = {arXiv}
}"""


def size_category(n: int) -> str:
    for bound, label in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if n < bound:
            return label
    return "n>1M"


def yaml_feature(name: str, type_: pa.DataType) -> dict[str, Any]:
    """One feature in the card's ``dataset_info`` form (what ``datasets`` writes into cards)."""
    if pa.types.is_struct(type_):
        return {"name": name, "struct": [yaml_feature(f.name, f.type) for f in type_]}
    if pa.types.is_list(type_):
        inner = type_.value_type
        if pa.types.is_struct(inner):
            return {"name": name, "list": [yaml_feature(f.name, f.type) for f in inner]}
        return {"name": name, "list": "bool" if pa.types.is_boolean(inner) else str(inner)}
    return {"name": name, "dtype": "bool" if pa.types.is_boolean(type_) else str(type_)}


def yaml_features(class_names: Sequence[str]) -> list[dict[str, Any]]:
    features = []
    for f in item_arrow_schema(class_names):
        if f.name == CLASS_LABEL_COLUMN:
            names = {str(k): n for k, n in enumerate(class_names)}
            features.append({"name": f.name, "dtype": {"class_label": {"names": names}}})
        else:
            features.append(yaml_feature(f.name, f.type))
    return features


def front_matter(
    manifest: dict[str, Any],
    license_id: str,
    class_names: Sequence[str],
    environment_names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``environment_names``: the ClassLabel of the ``environment`` configuration, when the release has one."""
    reviewed = not manifest["review"].get("released_unreviewed")
    features = yaml_features(class_names)
    counts = manifest["counts"]
    per_split = counts.get("per_split") or {}
    # A configuration with no rows is left out (datasets cannot build a split from an empty Parquet file):
    # an environment-only release has no instruction-level rows, and its `environment` configuration is then
    # the default one, so `load_dataset(folder)` loads it.
    splits = [s for s in ("calibration", "test") if (per_split.get(s) or {}).get("total", 1)]
    configs: list[dict[str, Any]] = []
    info: list[dict[str, Any]] = []
    if counts.get("total", 1) and splits:
        configs.append(
            {
                "config_name": "default",
                "data_files": [{"split": s, "path": f"splits/{s}.parquet"} for s in splits],
            }
        )
        info.append({"config_name": "default", "features": features})
    if counts.get("total", 1):
        configs.append({"config_name": "all", "data_files": [{"split": "train", "path": "data.parquet"}]})
        info.append({"config_name": "all", "features": features})
    if environment_names is not None:
        entry: dict[str, Any] = {
            "config_name": "environment",
            "data_files": [{"split": "test", "path": "environment/data.parquet"}],
        }
        if not configs:
            entry["default"] = True
        configs.append(entry)
        info.append({"config_name": "environment", "features": yaml_features(environment_names)})
    return {
        "license": license_id,
        "language": ["en"],
        "pretty_name": manifest["citation"]["title"],
        "task_categories": ["text-generation", "text-classification", "question-answering"],
        "tags": ["embodied-ai", "robotics", "ambiguity", "clarifying-questions", "ambik"],
        "size_categories": [size_category(manifest["counts"]["total"])],
        "annotations_creators": ["expert-generated" if reviewed else "machine-generated"],
        "language_creators": ["machine-generated"],
        "source_datasets": ["original"],
        "configs": configs,
        # features only: split sizes are in the manifest and the card (datasets wants byte sizes with them)
        "dataset_info": info,
    }


def release_bibtex(manifest: dict[str, Any]) -> str:
    c = manifest["citation"]
    key = "ambiforge" + manifest["version"].replace(".", "_")
    lines = [
        f"@misc{{{key},",
        f"  title   = {{{c['title']} (version {manifest['version']})}},",
        f"  author  = {{{' and '.join(c['authors'])}}},",
        f"  year    = {{{manifest['created_at'][:4] or date.today().year}}},",
        f"  version = {{{manifest['version']}}},",
    ]
    if c["repository_url"]:
        lines.append(f"  url     = {{{c['repository_url']}}},")
    lines.append("  note    = {Generated and reviewed with ambiforge; in the style of AmbiK}")
    return "\n".join(lines) + "\n}"


def _cut(values: list[Any], keep: int, what: str, total: int | None = None) -> list[Any]:
    """The first ``keep`` values, and a note of how many of ``total`` (default: all values) are left out."""
    shown: list[Any] = list(values[:keep])
    left = (len(values) if total is None else total) - len(shown)
    if left > 0:
        shown.append(f"... {left} more {what}")
    return shown


def _example_world(world: dict[str, Any]) -> dict[str, Any]:
    """The world with its graph cut to two nodes its claims name (or the first objects), and their place."""
    graph = world["graph"]
    named = {world.get("target"), *(world.get("candidates") or []), *(world.get("fitting") or [])}
    objects = [n for n in graph["nodes"] if n["type"] == "object"]
    nodes = ([n for n in objects if n["id"] in named] or objects)[:2]
    ids = {n["id"] for n in nodes}
    edges = [e for e in graph["edges"] if e["source"] in ids and e["relation"] in ("in", "on", "inside")]
    shown_graph = graph | {
        "nodes": _cut(nodes, 2, "nodes", len(graph["nodes"])),
        "edges": _cut(edges, 2, "edges", len(graph["edges"])),
    }
    return world | {"graph": shown_graph, "clear_plan": _cut(world.get("clear_plan") or [], 3, "steps")}


def example_instance(record: dict[str, Any]) -> str:
    """The first row, with the scene cut to two objects (unset attributes left out), the scene graph to
    the nodes its claims name and their places, and the long scene strings shortened, so the card stays
    readable; every field is there."""
    shown = dict(record)
    env = shown.get("environment") or []
    shown["environment"] = _cut([{k: v for k, v in o.items() if v is not None} for o in env], 2, "objects")
    if shown.get("world") is not None:
        shown["world"] = _example_world(shown["world"])
    for key in ("environment_short", "environment_full"):
        text = shown.get(key) or ""
        if len(text) > 80:
            shown[key] = text[:80].rsplit(",", 1)[0] + ", ..."
    return json.dumps(shown, indent=2, ensure_ascii=False)


#: What each relation of the graph's fixed vocabulary means (``ambiforge.models.scene_graph``; a test keeps
#: the two in step).
RELATION_MEANINGS = {
    "in": "the object is held by a place that encloses it (fridge, cupboard, drawer, oven, sink...)",
    "on": "the object (or an appliance) rests on a surface place (counter, shelf, kitchen table)",
    "inside": "the object is held by another object (a spoon inside a jar)",
    "next_to": "immediate neighbours in the same row of the same place (both directions stored)",
    "left_of": "in the same row of the same place, anywhere to the left, seen from the front",
    "right_of": "in the same row of the same place, anywhere to the right, seen from the front",
    "behind": "in the back row of the same place, straight behind the node in the front row",
}

WORLD_SUBFIELDS = [
    (
        "world.graph.nodes",
        "(the whole `world.graph`: in the Parquet files only, data.jsonl.gz leaves it out) objects (catalog "
        "name, noun, group, kind, modifier, tags, uses) and places (the "
        "appliances, counter, shelves, cupboards, drawers, kitchen table; `holds`: in or on); each with "
        "`attributes` (material, colour, size, safety attributes such as microwave_safe or sharp) and `state` "
        "(open, switched_on, clean, full, temperature); null: does not apply or unknown",
    ),
    ("world.graph.edges", "relations `source relation target` from the fixed vocabulary below"),
    (
        "world.graph.relations_known",
        "false for a graph made from data that lists objects only (an imported "
        "AmbiK row): nodes only, no edges, so nothing may be concluded about where things are",
    ),
    ("world.graph.seed", "the seed the graph was sampled from (the same seed gives the same graph)"),
    ("world.target", "the node the ambiguous referent means (the user's intent); null when not known"),
    (
        "world.candidates",
        "the nodes the ambiguous referent fits in this kitchen: a preference item's "
        "shortlist; for common sense and safety the members considered before knowledge filters",
    ),
    (
        "world.fitting",
        "the candidates that are correct choices (filtered by the catalog's affordances): a "
        "common-sense or safety item's variants",
    ),
    (
        "world.clear_plan",
        "the clear plan as actions (verb, obj, target, tool and parameters such as "
        "quantity or program) on graph nodes; empty when not known (imported rows). The ambiguous plan is this "
        "plan with the target left open",
    ),
    (
        "world.perturbation",
        "environment-induced items only (the `environment` configuration; null elsewhere): the changed kitchen "
        "the ambiguous task is set in: `kind`, its `graph`, the node ids it `added`, `removed` or `moved`, the "
        "instruction's `referent`, for observation each robot's `views`",
    ),
    (
        "world.perturbation.environment_short",
        "the changed kitchen as `environment_short` lists the clear one (removed objects gone, added ones "
        "last; observation: what the asking robot sees); `environment_full` the same with articles. The "
        "top-level environment fields always list the clear kitchen",
    ),
]

REVIEW_SUBFIELDS = [
    ("review.status", "unanimous, majority or adjudicated (by the maintainer); pending when not fully reviewed"),
    ("review.verdict", "accept or accept_with_fixes (rejected items are never released)"),
    ("review.ambiguity_type", "the type two of three annotators chose (applied to ambiguity_type)"),
    ("review.annotations", "each annotation: annotator pseudonym, verdict, type, failed checks, corrections"),
    ("review.applied_corrections", "corrections applied to the item (field, value) and who made them"),
    ("review.queued_for_adjudication", "always false in a release: queued items wait for the maintainer"),
    ("review.adjudicated_by", "set when the maintainer decided the item"),
]


def review_facts(manifest: dict[str, Any]) -> dict[str, Any]:
    """What the card may say about review, from the release's own counts: how many released items were
    reviewed, and per source run with a review export, the annotators per item and how items were decided."""
    review = manifest["review"]
    environment = (manifest["counts"].get("configurations") or {}).get("environment") or {}
    released = manifest["counts"]["total"] + environment.get("total", 0)
    unreviewed = len(review.get("released_unreviewed") or [])
    runs = []
    for run_id, a in (review.get("agreement") or {}).items():
        status = a.get("status_counts") or {}
        runs.append(
            {
                "run": run_id,
                "items": a.get("items") or 0,
                "annotators": a.get("annotations_per_item"),
                "unanimous": status.get("unanimous", 0),
                "majority": status.get("majority", 0),
                "split": status.get("split", 0),
                "adjudicated": a.get("adjudicated", 0),
                "queued": a.get("queued", 0),
            }
        )
    return {"released": released, "unreviewed": unreviewed, "reviewed": released - unreviewed, "runs": runs}


def sampler_facts(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``[sampler]`` ranges of the source runs, one entry per distinct setting with the runs that used it
    (runs that recorded none under ``sampler: None``)."""
    groups: dict[str, dict[str, Any]] = {}
    for run_id, sampler in (manifest.get("sampler") or {run: None for run in manifest["run_ids"]}).items():
        key = json.dumps(sampler, sort_keys=True)
        groups.setdefault(key, {"sampler": sampler, "runs": []})["runs"].append(run_id)
    return list(groups.values())


def dataset_cache_dir(manifest: dict[str, Any]) -> str:
    """The ``datasets`` cache folder the card's snippet loads through: named by the version and the checksum
    of the release's rows (``data.jsonl.gz``). ``datasets`` keys its cache for a local folder by the path and
    file times, so a release loaded from the same relative path as an earlier one (a re-cut version, another checkout)
    was answered from the earlier one's cache; its own folder per content cannot be."""
    digests = {f["path"]: f["sha256"] for f in manifest.get("files") or []}
    # the JSONL rows, not the Parquet bytes: the same rows make the same key however the row groups fall
    key = digests.get("data.jsonl.gz") or digests.get("data.jsonl") or digests.get("data.parquet") or "unsealed"
    return f"~/.cache/ambiforge/datasets/{manifest['version']}-{key[:16]}"


def render_card(
    manifest: dict[str, Any], items: Sequence[Item], license_id: str, records: Sequence[dict[str, Any]] = ()
) -> str:
    """``items`` are used for nothing but the manifest's statistics when it has them."""
    registered = ambiguity.names()
    class_names = [n for n in registered if ambiguity.level(n) != "environment"]
    class_names += sorted(set(manifest["counts"]["per_type"]) - set(registered))
    environment = (manifest["counts"].get("configurations") or {}).get("environment")
    environment_names = [n for n in registered if ambiguity.level(n) == "environment"] if environment else None
    schema = item_arrow_schema(class_names)
    fields = [(f.name, (f.metadata or {}).get(b"description", b"").decode()) for f in schema]
    known = ambiguity.types()
    matter = front_matter(manifest, license_id, class_names, environment_names)
    return render(
        "card.md.j2",
        front_matter=yaml.safe_dump(matter, sort_keys=False),
        title=manifest["citation"]["title"],
        m=manifest,
        s=manifest.get("statistics") or dataset_stats(items),
        fields=fields,
        review_fields=REVIEW_SUBFIELDS,
        world_fields=WORLD_SUBFIELDS,
        relations=RELATION_MEANINGS,
        types=[known[n] for n in class_names if n in known],
        class_names=class_names,
        environment=environment,
        environment_names=environment_names or [],
        environment_types=[known[n] for n in environment_names or [] if n in known],
        example=example_instance(records[0]) if records else None,
        release_bibtex=release_bibtex(manifest),
        review=review_facts(manifest),
        samplers=sampler_facts(manifest),
        cache_dir=dataset_cache_dir(manifest),
        license_id=license_id,
        ambik_bibtex=AMBIK_BIBTEX,
    )
