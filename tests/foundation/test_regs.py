from __future__ import annotations

import pytest

from croupier.regs import SEED_SECTIONS, SEED_SUBSECTIONS, Ref


def test_ref_parse_format_and_nesting() -> None:
    ref = Ref.parse("§ 681a.7(k)(2)(i)")
    assert str(ref) == "681a.7(k)(2)(i)"
    assert ref.lettered == Ref.parse("681a.7(k)")
    assert ref.within(Ref.parse("681a.7(k)"))
    assert not ref.within(Ref.parse("681a.7(j)"))
    assert ref.slug() == "681a_7_k_2_i"


@pytest.mark.parametrize("raw", ["591", "591.7(", "x.7(a)", ""])
def test_bad_refs_refused(raw: str) -> None:
    with pytest.raises(ValueError, match="reference"):
        Ref.parse(raw)


def test_every_seed_subsection_has_a_summary() -> None:
    letters = {
        "591.7": "abcdefghijklmnopqrstuv",
        "629a.5": "abcdef",
        "670a.9": "abcdef",
        "681a.7": "abcdefghijklm",
    }
    assert set(letters) == set(SEED_SECTIONS)
    expected = {
        Ref(section, (letter,))
        for section, chars in letters.items()
        for letter in chars
    }
    assert set(SEED_SUBSECTIONS) == expected
    assert all(len(s) < 79 for s in SEED_SUBSECTIONS.values())
