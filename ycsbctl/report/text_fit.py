"""Text that fits its figure, as the renderer savefig's PNG uses draws it (px at the figure's dpi): a note wrapped
to a width, whether labels overlap or could at any height."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text


def renderer_of(fig: Figure) -> RendererBase:
    """The Agg renderer of ``fig`` (what its PNG is drawn with; the SVG's boxes are the same at its own dpi)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return FigureCanvasAgg(fig).get_renderer()


def wrap_to(text: Text, width_px: float, renderer: RendererBase) -> int:
    """Break ``text`` into lines at spaces so that each is at most ``width_px`` wide as drawn (a word wider than
    that stays whole on its own line); → its number of lines."""
    words = text.get_text().split()
    if not words:
        return 0
    lines: list[str] = []
    line = words[0]
    for word in words[1:]:
        text.set_text(f"{line} {word}")
        if text.get_window_extent(renderer).width <= width_px:
            line = f"{line} {word}"
        else:
            lines.append(line)
            line = word
    lines.append(line)
    text.set_text("\n".join(lines))
    return len(lines)


def any_overlap(texts: list[Text], renderer: RendererBase) -> bool:
    """Whether the drawn boxes of any two of ``texts`` intersect."""
    boxes = [t.get_window_extent(renderer) for t in texts if t.get_visible() and t.get_text()]
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[:i])


def apart(texts: list[Text], renderer: RendererBase) -> bool:
    """Whether no two of ``texts`` share any horizontal extent: then they cannot overlap at any height (a bar's
    label, whatever the bar's value)."""
    spans = sorted((b.x0, b.x1) for b in (t.get_window_extent(renderer) for t in texts))
    return all(a[1] < b[0] for a, b in zip(spans, spans[1:]))
