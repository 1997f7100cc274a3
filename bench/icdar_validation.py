"""``bench_icdar``'s validation set: every tool's tables scored against ``tests/corpus/table-validation``
(``testkit.validation``), a set no one tunes on, so printed in aggregates only.

- Per document, as the tuning set is scored: the relations of all the document's truth tables
  against those of all the tables the tool found in it (``testkit.icdar_metric.score``); a tool's
  precision and recall are the means over the documents, its F1 theirs, beside the F1 of all
  relations pooled.
- Per table: each truth table matched to the found table with the most relations in common
  (``testkit.icdar_metric.match_tables``); a table is wrong when that match's F1 is under
  ``WRONG_F1``. The aggregates are by part, renderer, layout and feature: the tables' relations
  pooled (precision, recall and F1 over the matched pairs) and the tables wrong.
- ``--detail`` (``python -m bench.bench_icdar --detail``, for the lead, never while tuning) also
  prints each document's F1 and ReadLens's wrong tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench import report
from testkit.icdar_metric import WRONG_F1, Score, TableMatch, match_tables, means, pooled, relations, row_grid, score
from testkit.validation import FEATURES, LAYOUTS, PARTS, RENDERERS, VALIDATION, TruthTable, validation_tables


@dataclass
class Scored:
    """One tool on the validation set: each document's score and each truth table's match."""

    documents: dict[Path, Score]
    tables: list[tuple[TruthTable, TableMatch]]

    @property
    def wrong(self) -> int:
        return sum(match.wrong for _, match in self.tables)

    @property
    def f1(self) -> float:
        """The F1 of the mean precision and recall over the documents."""
        return means(list(self.documents.values()))[2]


def scored(truth: dict[Path, list[TruthTable]], found: dict[Path, dict]) -> Scored:
    """A tool's tables (``found``: per PDF, ``{"tables": [rows, ...]}``) scored against the truth."""
    documents: dict[Path, Score] = {}
    tables: list[tuple[TruthTable, TableMatch]] = []
    for pdf, expected in truth.items():
        grids = [row_grid(rows) for rows in found.get(pdf, {}).get("tables", [])]
        documents[pdf] = score(relations(grids), relations([table.grid for table in expected]))
        tables += zip(expected, match_tables([table.grid for table in expected], grids))
    return Scored(documents, tables)


def groups(tables: list[TruthTable]) -> list[tuple[str, list[TruthTable]]]:
    """The aggregates' groups: all, each part, each renderer, each layout and each feature present."""
    chosen = [("all tables", tables)]
    chosen += [(f"part: {part}", [t for t in tables if t.part == part]) for part in PARTS]
    chosen += [(f"printed by {name}", [t for t in tables if t.renderer == name]) for name in RENDERERS]
    chosen += [(f"layout: {name}", [t for t in tables if name in t.styles]) for name in LAYOUTS]
    chosen += [(name, [t for t in tables if name in t.styles]) for name in FEATURES]
    return [(name, members) for name, members in chosen if members]


def figures(scores: dict[Path, Score], answers: dict[Path, dict], names: bool) -> list[str]:
    """A tool's figures over a set's documents: mean precision, mean recall, their F1, the F1 of all
    relations pooled, the documents with every table missed (with ``names``, which) and the time."""
    precision, recall, f1 = means(list(scores.values()))
    missed = [path.stem for path, result in scores.items() if not result.right]
    failed = [path.stem for path, answer in answers.items() if "error" in answer]
    seconds = sum(answer.get("seconds", 0.0) for answer in answers.values())
    return [
        f"{precision:.3f}",
        f"{recall:.3f}",
        f"**{f1:.3f}**",
        f"{pooled(list(scores.values())).f1:.3f}",
        f"{len(missed)}" + (f" ({', '.join(missed)})" if missed and names else ""),
        f"{seconds:.1f} s" + (f", failed on {', '.join(failed) if names else len(failed)}" if failed else ""),
    ]


def report_validation(
    answers: dict[str, dict[Path, dict]], detail: bool, folder: Path = VALIDATION
) -> dict[str, Scored]:
    """Score every tool on the validation set (or the generated tuning set in ``folder``) and print the
    aggregates (and with ``detail`` each document and ReadLens's wrong tables); the scores, by tool."""
    truth = validation_tables(folder)
    results = {tool: scored(truth, found) for tool, found in answers.items()}
    tables = [table for expected in truth.values() for table in expected]
    kinds = Counter(table.part for table in tables)
    name = "Validation set" if folder == VALIDATION else "Generated tuning set"
    kept = "never tuned on" if folder == VALIDATION else "tuned on"
    print(
        f"{name} (tests/corpus/{folder.name}, {kept}): {len(truth)} PDFs, {len(tables)} tables "
        f"({', '.join(f'{count} {part}' for part, count in kinds.items())}); a table is wrong when its best "
        f"match's F1 is under {WRONG_F1}\n"
    )
    header = ["tool", "precision", "recall", "F1", "F1, relations pooled", "tables wrong", "documents all missed"]
    rows = [[tool, *figures(result.documents, answers[tool], names=False)] for tool, result in results.items()]
    wrong = {tool: f"{result.wrong} of {len(tables)}" for tool, result in results.items()}
    report.table([header + ["time"], *(row[:5] + [wrong[row[0]]] + row[5:] for row in rows)])
    print("By part, renderer, layout and feature (each table against its best match, relations pooled):")
    rows = [["tables", "count", *(f"{tool} F1 / wrong" for tool in results)]]
    for name, members in groups(tables):
        chosen = {id(table) for table in members}
        cells = []
        for result in results.values():
            pairs = [match for table, match in result.tables if id(table) in chosen]
            cells.append(f"{pooled([match.score for match in pairs]).f1:.3f} / {sum(match.wrong for match in pairs)}")
        rows.append([name, str(len(members)), *cells])
    report.table(rows)
    if detail:
        ours = results["ReadLens"]
        document_rows = [["document", "relations", *results]]
        for pdf, result in ours.documents.items():
            document_rows.append(
                [pdf.name, str(result.expected), *(f"{results[t].documents[pdf].f1:.2f}" for t in results)]
            )
        print(f"Each document of the {name.lower()} (F1):")
        report.table(document_rows)
        print(f"ReadLens's wrong tables on the {name.lower()}:")
        listed = [["document", "page", "styles", "F1"]]
        listed += [
            [table.pdf.name, str(table.page), ", ".join(table.styles), f"{match.score.f1:.2f}"]
            for table, match in ours.tables
            if match.wrong
        ]
        report.table(listed)
    return results
