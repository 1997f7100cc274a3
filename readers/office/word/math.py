"""Office math (OMML, ``m:oMath``) as LaTeX, which models read and write: the quadratic formula
is ``x=\\frac{-b\\pm \\sqrt{b^{2}-4ac}}{2a}``, where its letters alone would read "x=-b±b2-4ac2a".

Each OMML object has its LaTeX form (ECMA-376 part 1, 22.1): fractions, scripts, radicals,
delimiters, n-ary operators (sums, products, integrals), functions, limits, accents, bars, group
characters, boxes, equation arrays and matrices; runs keep their letters, with the symbols that
have a LaTeX name given it (π is ``\\pi``) and LaTeX's special characters escaped. An object this
does not know reads as its content.
"""

from __future__ import annotations

import re

M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\epsilon", "ϵ": r"\epsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta", "ι": r"\iota", "κ": r"\kappa",
    "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma",
    "ς": r"\varsigma", "τ": r"\tau", "υ": r"\upsilon", "φ": r"\phi", "ϕ": r"\phi", "χ": r"\chi",
    "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda",
    "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi", "Ψ": r"\Psi",
    "Ω": r"\Omega", "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot", "⋅": r"\cdot",
    "∗": "*", "−": "-", "–": "-", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx",
    "≡": r"\equiv", "∼": r"\sim", "≅": r"\cong", "∝": r"\propto", "∞": r"\infty", "∂": r"\partial",
    "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists", "∈": r"\in", "∉": r"\notin", "∋": r"\ni",
    "⊂": r"\subset", "⊃": r"\supset", "⊆": r"\subseteq", "⊇": r"\supseteq", "∩": r"\cap", "∪": r"\cup",
    "∅": r"\emptyset", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "→": r"\rightarrow",
    "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow", "⇐": r"\Leftarrow",
    "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "…": r"\ldots", "⋯": r"\cdots", "⋮": r"\vdots",
    "⋱": r"\ddots", "°": r"^{\circ}", "′": "'", "″": "''", "ℏ": r"\hbar", "ℓ": r"\ell", "ℝ": r"\mathbb{R}",
    "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℂ": r"\mathbb{C}", "√": r"\surd",
    "⟨": r"\langle", "⟩": r"\rangle", "∘": r"\circ", "⊕": r"\oplus", "⊗": r"\otimes", "∣": "|",
    "{": r"\{", "}": r"\}", "%": r"\%", "#": r"\#", "&": r"\&", "$": r"\$", "_": r"\_", "\\": r"\backslash",
    "\u2061": "", "\u2062": "", "\u2063": "", "\u200b": "",  # invisible function application, times, comma
}  # fmt: skip
NARY = {
    "∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint",
    "∮": r"\oint", "∯": r"\oiint", "∰": r"\oiiint", "⋃": r"\bigcup", "⋂": r"\bigcap", "⋁": r"\bigvee",
    "⋀": r"\bigwedge", "⨁": r"\bigoplus", "⨂": r"\bigotimes",
}  # fmt: skip
HAT = "\u0302"  # an accent's character when it names none
ACCENTS = {
    "\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0305": r"\bar", "\u0307": r"\dot",
    "\u0308": r"\ddot", "\u20d7": r"\vec", "\u0301": r"\acute", "\u0300": r"\grave", "\u0306": r"\breve",
    "\u030c": r"\check", "\u20d6": r"\overleftarrow", "\u20e1": r"\overleftrightarrow",
}  # fmt: skip
DELIMITERS = {"{": r"\{", "}": r"\}", "⟨": r"\langle", "⟩": r"\rangle", "‖": r"\|", "⌈": r"\lceil",
              "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "": "."}  # fmt: skip
FUNCTIONS = {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "coth", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd", "arg", "deg",
             "dim", "ker", "Pr", "hom"}  # fmt: skip


def latex(math) -> str:
    """An ``m:oMath`` element (or any OMML object) as LaTeX, on one line."""
    return re.sub(r"(\\[A-Za-z]+) (?=[^A-Za-z])", r"\1", " ".join(_tex(math).split())).strip()


def _properties(element):
    """An object's properties (``m:naryPr`` of ``m:nary``, ``m:rPr`` of ``m:r``), or None."""
    return next(
        (
            child
            for child in element
            if isinstance(child.tag, str) and child.tag.startswith(M) and child.tag.endswith("Pr")
        ),
        None,
    )


def _property(element, name: str, default: str) -> str:
    """The ``m:val`` of one of an object's properties (``m:chr``, ``m:pos``), or ``default``."""
    properties = _properties(element)
    found = properties.find(f"{M}{name}") if properties is not None else None
    return default if found is None else found.get(f"{M}val", "")


def _on(element, name: str) -> bool:
    """Whether a toggle among an object's properties (``m:degHide``, ``m:nor``) is on."""
    properties = _properties(element)
    found = properties.find(f"{M}{name}") if properties is not None else None
    return found is not None and found.get(f"{M}val", "on") in ("on", "1", "true")


def _part(element, name: str) -> str:
    child = element.find(f"{M}{name}")
    return _tex(child) if child is not None else ""


def _text(text: str) -> str:
    out = []
    for char in text:
        symbol = SYMBOLS.get(char, char)
        out.append(f"{symbol} " if symbol[:1] == "\\" and symbol[-1:].isalpha() else symbol)
    return "".join(out)


def _run(run) -> str:
    text = "".join(node.text or "" for node in run.iter(f"{M}t", f"{W}t"))
    if _on(run, "nor") and text.strip():  # normal text within math
        return rf"\text{{{text}}}"
    if text in FUNCTIONS:
        return f"\\{text} "
    return _text(text)


def _grouped(base: str) -> str:
    """A script's base: braced when it is more than one symbol (a fraction), so the script is the whole base's."""
    simple = len(base) == 1 or (base.startswith("\\") and base[1:].strip().isalpha()) or base.endswith((")", "]", "|"))
    return base if simple else f"{{{base}}}"


def _delimiter(element) -> str:
    begin = _property(element, "begChr", "(")
    end = _property(element, "endChr", ")")
    separator = _property(element, "sepChr", "|")
    inside = f" {DELIMITERS.get(separator, separator)} ".join(_tex(e) for e in element.findall(f"{M}e"))
    return rf"\left{DELIMITERS.get(begin, begin)}{inside}\right{DELIMITERS.get(end, end)}"


def _function(element) -> str:
    name = _part(element, "fName").strip()
    if name.isalpha():  # a name LaTeX has no command for (a known one is a command already)
        name = rf"\operatorname{{{name}}}"
    argument = _part(element, "e")
    return f"{name}{argument}" if argument.startswith(("\\left", "(")) else f"{name}{{{argument}}}"


def _rows(rows: list[list[str]], environment: str) -> str:
    return rf"\begin{{{environment}}}" + r" \\ ".join(" & ".join(row) for row in rows) + rf"\end{{{environment}}}"


def _fraction(element) -> str:
    """A fraction: stacked (``\\frac``), on one line (``a/b``), or without a bar (a binomial's)."""
    num, den = _part(element, "num"), _part(element, "den")
    kinds = {"lin": f"{num}/{den}", "noBar": rf"\genfrac{{}}{{}}{{0pt}}{{}}{{{num}}}{{{den}}}"}
    return kinds.get(_property(element, "type", "bar"), rf"\frac{{{num}}}{{{den}}}")


def _tex(element) -> str:
    name = element.tag.removeprefix(M) if isinstance(element.tag, str) else ""
    if name == "r" or element.tag == f"{W}r":
        return _run(element)
    if name.endswith("Pr") or not name or name == "t" or element.tag.startswith(W):
        return ""
    handler = OBJECTS.get(name)
    if handler is not None:
        return handler(element)
    return "".join(_tex(child) for child in element)


def _scripts(element) -> str:
    """An object's subscript and superscript (those it has, and does not hide)."""
    return "".join(
        f"{mark}{{{_part(element, name)}}}"
        for name, mark in (("sub", "_"), ("sup", "^"))
        if element.find(f"{M}{name}") is not None and not _on(element, f"{name}Hide") and _part(element, name)
    )


def _wrapped(element) -> str:
    """An object that puts a command round its content: a radical, an accent, a bar, a brace, a box."""
    name, content = element.tag.removeprefix(M), _part(element, "e")
    if name == "rad":
        degree = "" if _on(element, "degHide") else _part(element, "deg")
        return rf"\sqrt[{degree}]{{{content}}}" if degree else rf"\sqrt{{{content}}}"
    if name == "acc":
        return f"{ACCENTS.get(_property(element, 'chr', HAT), ACCENTS[HAT])}{{{content}}}"
    if name == "bar":
        return rf"\{'underline' if _property(element, 'pos', 'bot') == 'bot' else 'overline'}{{{content}}}"
    if name == "groupChr":
        return rf"\{'overbrace' if _property(element, 'pos', 'bot') == 'top' else 'underbrace'}{{{content}}}"
    return rf"\boxed{{{content}}}"


def _array(element) -> str:
    """An equation array (one equation a row) or a matrix."""
    if element.tag == f"{M}m":
        rows = [[_tex(cell) for cell in row.findall(f"{M}e")] for row in element.findall(f"{M}mr")]
        return _rows(rows, "matrix")
    rows = element.findall(f"{M}e")
    return _rows([[_tex(row)] for row in rows], "aligned") if len(rows) > 1 else _part(element, "e")


OBJECTS = {
    "f": _fraction,
    "sSup": lambda e: _grouped(_part(e, "e")) + _scripts(e),
    "sSub": lambda e: _grouped(_part(e, "e")) + _scripts(e),
    "sSubSup": lambda e: _grouped(_part(e, "e")) + _scripts(e),
    "sPre": lambda e: "{}" + _scripts(e) + _part(e, "e"),
    "d": _delimiter,
    "nary": lambda e: f"{NARY.get(operator := _property(e, 'chr', '∫'), _text(operator))}{_scripts(e)} {_part(e, 'e')}",
    "func": _function,
    "limLow": lambda e: f"{_part(e, 'e')}_{{{_part(e, 'lim')}}}",
    "limUpp": lambda e: rf"\overset{{{_part(e, 'lim')}}}{{{_part(e, 'e')}}}",
    **dict.fromkeys(("rad", "acc", "bar", "groupChr", "borderBox"), _wrapped),
    **dict.fromkeys(("eqArr", "m"), _array),
}
