#!/usr/bin/env python3
"""Makes the app's fonts, ui/fonts/TakhteSans-{Regular,Bold}.ttf: Vazirmatn (Latin and
Persian; ui/fonts/Vazirmatn-*.ttf, from the npm package "vazirmatn", OFL) with the symbols the
app writes that Vazirmatn lacks -- the chess figures, the die faces, arrows and triangles, the
flag and the mine's star -- copied from DejaVu Sans (Debian's fonts-dejavu-core, Bitstream
Vera licence and public domain). Both fonts have 2048 units to the em, so the glyphs are taken
as they are (their hinting programs are dropped: they speak to DejaVu's own tables).

The app embeds these two files in every build (ui/main.slint), so that nothing it writes
depends on the fonts of the machine: the browser has none but what the page brings.
tests/glyphs.rs checks that every character the app can write has a glyph in them.

Needs: pip install fonttools; apt-get install fonts-dejavu-core.
Run from the repository's root: python3 scripts/make-fonts.py
"""

import sys
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import Glyph
from fontTools.ttLib.tables.ttProgram import Program

DEJAVU = "/usr/share/fonts/truetype/dejavu/"

# What the app writes beyond Vazirmatn: arrows (back buttons), triangles (review), the chess
# figures (moves written with figures), the die faces, the flag and star (minesweeper chess).
SYMBOLS = (
    [0x2190, 0x2191, 0x2192, 0x2193]
    + [0x25B2, 0x25B6, 0x25BC, 0x25C0]
    + list(range(0x2654, 0x2660))
    + list(range(0x2680, 0x2686))
    + [0x2691, 0x2713, 0x2717, 0x2738]
)

FAMILY = "Takhte Sans"


def add_symbols(base_path, symbols_path, out_path, style):
    base = TTFont(base_path)
    sym = TTFont(symbols_path)
    if base["head"].unitsPerEm != sym["head"].unitsPerEm:
        sys.exit("the two fonts have different units per em")
    base_cmap = base.getBestCmap()
    sym_cmap = sym.getBestCmap()
    glyf, hmtx = base["glyf"], base["hmtx"]
    added = []
    for cp in SYMBOLS:
        if cp in base_cmap:
            continue
        if cp not in sym_cmap:
            sys.exit(f"U+{cp:04X} is in neither font")
        name = f"takhte_u{cp:04X}"
        src = sym["glyf"][sym_cmap[cp]]
        if src.isComposite():
            sys.exit(f"U+{cp:04X} is a composite glyph in the symbols font")
        g = Glyph()
        g.__dict__.update(src.__dict__)
        g.program = Program()
        g.program.fromBytecode(b"")
        glyf[name] = g  # (added to the glyph order too)
        hmtx[name] = sym["hmtx"][sym_cmap[cp]]
        for table in base["cmap"].tables:
            if table.isUnicode():
                table.cmap[cp] = name
        added.append(cp)
    order = glyf.glyphOrder
    base.setGlyphOrder(order)
    base["maxp"].numGlyphs = len(order)
    if "post" in base and base["post"].formatType == 2.0:
        base["post"].extraNames = []
        base["post"].mapping = {}
    # A renamed font: the derivative carries its own name.
    names = base["name"]
    for rec in list(names.names):
        if rec.nameID in (1, 4, 6, 16, 17):
            names.removeNames(nameID=rec.nameID)
    full = f"{FAMILY} {style}" if style != "Regular" else FAMILY
    names.setName(FAMILY, 1, 3, 1, 0x409)
    names.setName(style, 2, 3, 1, 0x409)
    names.setName(full, 4, 3, 1, 0x409)
    names.setName(FAMILY.replace(" ", "") + "-" + style, 6, 3, 1, 0x409)
    names.setName(FAMILY, 1, 1, 0, 0)
    names.setName(style, 2, 1, 0, 0)
    names.setName(full, 4, 1, 0, 0)
    names.setName(FAMILY.replace(" ", "") + "-" + style, 6, 1, 0, 0)
    names.setName(
        "Vazirmatn (c) The Vazirmatn Project Authors, OFL 1.1; symbols from DejaVu Sans "
        "(Bitstream Vera licence, DejaVu changes public domain). Made for Takhte by "
        "scripts/make-fonts.py.",
        0, 3, 1, 0x409,
    )
    base.save(out_path)
    print(f"{out_path}: {len(added)} symbols added")


def main():
    add_symbols("ui/fonts/Vazirmatn-Regular.ttf", DEJAVU + "DejaVuSans.ttf",
                "ui/fonts/TakhteSans-Regular.ttf", "Regular")
    add_symbols("ui/fonts/Vazirmatn-Bold.ttf", DEJAVU + "DejaVuSans-Bold.ttf",
                "ui/fonts/TakhteSans-Bold.ttf", "Bold")


if __name__ == "__main__":
    main()
