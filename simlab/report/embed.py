"""Charts as self-contained images: a matplotlib figure becomes an SVG ``data:`` URI for an ``<img>`` tag.

A report must open offline and never fetch anything, so charts are embedded in the HTML. SVG keeps them
sharp at any zoom and small (text stays text: ``svg.fonttype = none``); wrapping it in an ``<img>`` rather
than inlining the ``<svg>`` keeps each chart's element ids and styles to itself (two inline SVGs from
matplotlib may share clip-path ids) and means a chart can never run script in the page. The id salt and
the missing date make the same figure give the same bytes, so reports of the same results are identical.
"""

from __future__ import annotations

import base64
import io

import matplotlib
from matplotlib.figure import Figure

SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "simlab-report"}


def svg_bytes(fig: Figure) -> bytes:
    """The figure as SVG bytes, caption included (``bbox_inches="tight"`` like ``charts.save``)."""
    buf = io.BytesIO()
    with matplotlib.rc_context(SVG_RC):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def svg_data_uri(fig: Figure) -> str:
    """``data:image/svg+xml;base64,...`` for an ``<img src>``: no network request, no script."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg_bytes(fig)).decode("ascii")
