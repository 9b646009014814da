"""The validation report's charts are data the page draws: each bar's length and mark in percent of the width."""

from ambiforge.rendering.html import bar_chart, histogram, render, share_chart, template


def test_histogram_has_a_bar_for_every_whole_number_between_the_extremes() -> None:
    chart = histogram("Steps", [3, 3, 5, 3, 6], "steps")
    assert [(b.label, b.text, b.width) for b in chart.bars] == [
        ("3", "3", 100.0),
        ("4", "0", 0.0),
        ("5", "1", 33.33),
        ("6", "1", 33.33),
    ]
    assert histogram("Steps", [], "steps").bars == ()


def test_bar_chart_scales_bars_and_target_marks_together() -> None:
    chart = bar_chart("Types", ["a", "b"], [2, 4], targets=[5.0, 2.5])
    assert [(b.text, b.width, b.mark) for b in chart.bars] == [("2", 40.0, 100.0), ("4", 80.0, 50.0)]
    assert bar_chart("Types", ["a"], [0]).bars[0].width == 0.0


def test_share_chart_draws_the_limit_on_the_same_scale() -> None:
    chart = share_chart("5-grams", ["x y", "y z"], [0.1, 0.05], limit=0.05)
    assert [b.text for b in chart.bars] == ["10.0%", "5.0%"]
    assert chart.line is not None and chart.bars[1].width == chart.line == 40.0


def test_the_page_escapes_labels_and_draws_each_bar() -> None:
    report = {
        "source": "s",
        "summary": {
            "items": 1,
            "passed": 1,
            "with_errors": 0,
            "with_warnings": 0,
            "flags": 0,
            "expectations_success": None,
        },
        "diversity": {},
    }
    chart = bar_chart("Types", ["<i>mug</i>", "b"], [1, 2], targets=[1.0, 1.0])
    html = render(
        "validation.html.j2",
        report=report,
        rules=[],
        unflagged=[],
        causes=[],
        worst=[],
        flagged=[],
        issues=[],
        issues_left_out=0,
        expectation_rows=[],
        plots={"Type mix": chart},
    )
    assert "&lt;i&gt;mug&lt;/i&gt;" in html and "<i>mug</i>" not in html
    assert html.count('class="bar" style="width: 50.0%"') == 1 and html.count('class="mark"') == 2


def test_a_page_is_compiled_once_per_process() -> None:
    first = template("validation.html.j2")
    assert template("validation.html.j2") is first
    assert template("base.html.j2") is not first
