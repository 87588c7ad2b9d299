"""A pack of delves laid out delve by delve (products.pack_parts) against the same pack laid out as one document."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.products import dungeon as product
from dungeonpress.products.options import parse
from tests.test_products_rulebook import book_facts


def pack_pdf(content, seed: int, count: int, rooms: int, theme: str = "standard", paper: str = "a4",
             by_parts: bool = True) -> bytes:
    ctx = build.context_for(content, seed=seed, theme=theme)
    if by_parts:
        outputs = product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": count, "rooms": rooms,
                                                                            "paper": paper}))
        return next(o.data for o in outputs if o.name.startswith(f"pack-{seed}") and "booklet" not in o.name
                    and o.name.endswith(".pdf"))
    dungeons = [(product.roll_dungeon(ctx, s, rooms), s) for s in product.pack_seeds(seed, count)]
    outputs = product.booklet_outputs(ctx, dungeons, rooms, paper, "pdf", name=f"pack-{seed}", pack_seed=seed,
                                      by_parts=False)
    return outputs[0].data


@pytest.mark.slow  # lays two packs out twice
@pytest.mark.parametrize(("theme", "paper", "count"), [("standard", "a4", 3), ("dyslexia-friendly", "letter", 2)])
def test_a_pack_laid_out_delve_by_delve_is_the_pack_laid_out_whole(content, theme, paper, count):
    """Every page's text (the page numbers stamped on, the index's numbers), bookmarks, named destinations, links and
    the structure tree. Seed 66 with six rooms: the standard pack's keys are shared out over their pages and end in
    ruled lines, a filler puts a delve's map on a left-hand page; the dyslexia-friendly Letter pack's first map is also
    drawn shorter (its legend went overleaf) and How to Play ends in a log of the foes fought."""
    parts = pack_pdf(content, 66, count, 6, theme, paper)
    facts = book_facts(parts)
    assert facts == book_facts(pack_pdf(content, 66, count, 6, theme, paper, by_parts=False))
    texts = [" ".join(text.split()) for text in facts["texts"]]
    numbers = [text.rsplit(" ", 1)[-1] for text in texts[1:-1]]
    assert numbers == [str(n) for n in range(2, len(texts))]  # every page but the covers ends in its number
    dests = facts["dests"]
    assert all(dests[f"d{n}-dungeon"] % 2 == 1 for n in range(1, count + 1))  # each map on a left-hand page
    index = texts[1]
    assert all(f" {dests[f'd{n}-dungeon'] + 1} " in index + " " for n in range(1, count + 1))  # the page it is on
    if theme == "dyslexia-friendly":
        assert "Foes Fought" in texts[dests["how-to-play"]] + texts[dests["how-to-play"] + 1]


@pytest.mark.slow  # lays a pack out
def test_a_room_log_of_twelve_rooms_keeps_to_its_page_so_the_next_map_faces_its_key(content):
    """Pack 2024 of two delves of twelve rooms: the first delve's log ran onto a second page at the roomy row height,
    and the second delve's map fell on a right-hand page, its key overleaf."""
    data = pack_pdf(content, 2024, 2, 12)
    reader = PdfReader(io.BytesIO(data))
    dests = {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()}
    assert dests["d1-dungeon"] % 2 == 1 and dests["d2-dungeon"] % 2 == 1
    log = reader.pages[dests["d2-dungeon"] - 1].extract_text()
    assert "Room Log" in log and all(f"\n{room} " in log or f"\n{room}\n" in log for room in (1, 12))
