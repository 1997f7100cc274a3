"""What the vision model is asked. Change a prompt, raise ``readers.versions.PROMPT_VERSION``: cached answers to the
old wording then miss instead of being served for the new one."""

from __future__ import annotations

IMAGE_PROMPT = """Describe this image for a reader who cannot see it. Include:
- all visible text, word for word, in reading order;
- the objects, people and scene, and how they are laid out;
- colours that carry meaning;
- what the image shows or is for: a chart's type, title and axes, and its data as a Markdown
  table (series as columns, categories as rows, every value you can read); a diagram's parts
  and connections; a screenshot's interface and state.
Be factual and specific; do not guess at what is not visible."""

PAGE_PROMPT = """This is one rendered page of a document. The reader cannot see it but already has the
text extracted from it (between the <page_text> tags below). Describe only what that text misses:
- charts and graphs: the type, title, axes and units, and the data as a Markdown table (series as
  columns, categories as rows, every value exactly as shown); a chart whose table the extracted
  text already holds (a "Chart: ..." line and its table) needs only what that table misses;
- tables drawn as images: reproduce them as Markdown tables;
- diagrams and flowcharts: every box and arrow, step by step in order;
- photos, figures and illustrations: what they show, with their captions and figure numbers;
- text inside images, handwriting, stamps and signatures.
Use the extracted text to resolve references such as "see Figure 3.1", but do not repeat it.
If the page has nothing visual beyond its text, answer only: "No visual content beyond the text."
"""

QUESTION = """Answer this question about the visual content of the {subject}, with exact values as shown;
if the {subject} does not show the answer, say so:
{question}
"""

PAGE_TEXT = """<page_text>
{text}
</page_text>"""

FIGURES = """The page's figures, where its text cannot show them (describe each, by its number):
{figures}
"""


def figure_lines(figures) -> str:
    """One line per figure: "Figure 1: picture, middle of the page (caption: "...")"."""
    lines = []
    for number, figure in enumerate(figures, 1):
        caption = f' (caption: "{figure.caption}")' if figure.caption else ""
        chart = f" (chart: {figure.chart}, its table is in the text)" if figure.chart else ""
        lines.append(f"- Figure {number}: {figure.kind}{chart}, {figure.place}{caption}")
    return "\n".join(lines)


def build_prompt(context: str | None, question: str | None, figures=()) -> str:
    """The prompt for one page (``context`` is its extracted text, ``figures`` its ``Figure``s) or
    one image (``context`` None).

    A question replaces the generic instruction; a page keeps its text and figures as context.
    """
    if context is None:
        return QUESTION.format(subject="image", question=question) if question else IMAGE_PROMPT
    instruction = QUESTION.format(subject="page", question=question) if question else PAGE_PROMPT
    where = FIGURES.format(figures=figure_lines(figures)) if figures else ""
    return (
        instruction
        + "\n"
        + where
        + PAGE_TEXT.format(text=context or "(none: the page has no text layer, so also transcribe the text it shows)")
    )
