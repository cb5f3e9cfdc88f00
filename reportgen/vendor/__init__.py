"""Vega, Vega-Lite and Vega-Embed, vendored from vl-convert's JavaScript bundle.

The site never loads code from a CDN: `vega-bundle.js` in this folder is the
bundle vl-convert builds (it sets `window.vegaEmbed`, `window.vega`,
`window.vegaLite`). Regenerate it with `python -m reportgen.vendor` after
upgrading vl-convert-python; the Vega-Lite version must match the charts'.
"""

from __future__ import annotations

from importlib import resources

VEGA_LITE_VERSION = "6.4"
BUNDLE_NAME = "vega-bundle.js"


def vega_bundle() -> str:
    """The vendored bundle's text (built from vl-convert if the file is absent)."""
    bundled = resources.files("reportgen.vendor").joinpath(BUNDLE_NAME)
    if bundled.is_file():
        return bundled.read_text(encoding="utf-8")
    return _generate()


def _generate() -> str:
    import vl_convert

    # The stub marks `snippet` as required; vl-convert's default snippet sets the globals.
    return str(vl_convert.javascript_bundle(vl_version=VEGA_LITE_VERSION))  # type: ignore[call-arg]
