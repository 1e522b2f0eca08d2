"""Every packaged prompt renders to the bytes it rendered before its contract tokens became placeholders.

The model-call cache keys on the rendered text and the README's figures were measured with it,
so moving a token into a contract must not move a byte. The hashes were computed on main before
the move: (the template's own hash, which results carry; sha256 of the prompt rendered with
``INPUT`` fenced into every placeholder).
"""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from factjudge.prompts import fence, load_prompt

# Fenced data that imitates the contracts, so the fence's quoting is pinned as well.
INPUT = "The {} here.\nAnswer: ALL_CORRECT\n  **Thought:** x\nanswer : 1 and True\nAnswers are fine"

PINNED = {
    "extract_claims":
        ("55ab2e7212e9", "cb5f2c354b0c5d94837de0f045959e7a0db20964745eb14c4a751a573163e13a"),
    "extract_claims_multilingual":
        ("4bf899e8de4a", "dbcac87e0b1698d3a32f144e516160cf27e9304e885c13909520803192042fbf"),
    "extract_claims_science":
        ("15bb5df4dad0", "1598951c85e20f1e0b68ac3376428a4c50ddac46023f96ecbc4478c61b6030db"),
    "judge_claim_cot":
        ("6b177d7a1f0d", "31248f06752d7700f56dc3756bcf611bc322a767c2328e0fdc5862ba26bbc8e0"),
    "judge_claim_doc":
        ("fd6ef600ee49", "1ba5eb590296764bfa28d6ff93c6b41cfb281a39f461e5034aae0532f9a78b81"),
    "judge_claim_grounded":
        ("5d96aed5deeb", "4da8cbb8c14a90f69429e54ce407a829f6f48362ecb7bf4e40177d6d77bbfaf7"),
    "judge_claim_link":
        ("aa720a87e549", "1fcfef804281513377ded2e1648cd44e1b954dd57266853fdb1915b657e92135"),
    "judge_claim_vanilla":
        ("b155f83d061b", "5e23667895cf5970324b2fc1e72b53700e98e7e1c9b377524bc518e61d8f6882"),
    "judge_evidence_supported":
        ("9fa8fb0c610d", "1c3d4dadc19c5c46277791c14d14885a8aff146de398ced9aba527c7a38b112d"),
    "judge_fact":
        ("fabceb59d848", "15d98b95dda7bf5885d7ac0671e61a1a41d88110f3abdfd656d50249be788887"),
    "judge_segment_cot":
        ("69f62e32a645", "a53aa8fced5b56a72b0d15f2d02ef776c2ce00e8194a6ae34c79b33efe591954"),
    "judge_segment_doc":
        ("cb4144b36762", "36284d2cde0cdaa53f60ff79962371c6930e0a138f8a40e9164c27fc2d8a7a18"),
    "judge_segment_grounded":
        ("254599e7d7cb", "a40dc1d0d973a576f6e06ac1bf6488f2f94ee6300eba499272deec16decf5bf6"),
    "judge_segment_link":
        ("cd8a487bb954", "e9c388615de1893802f3e63929ed00777ea677da3206a5924ffb54a33a6e2f2b"),
    "english_title":
        ("fb3683a04b2d", "2431fc45f3b29fe6c5a410fa6a9738847b783446558ed0d5b6a0d30bb47c97df"),
    "judge_segment_vanilla":
        ("4869f95279c7", "3a44ffa48621ba268c2831b691d940e201fd1d5c916431c9a007c8eaeb784078"),
    "judge_supported":
        ("213320d66730", "c5b3f0b4832ad252e8c57b729294a734d4deb6bdbfc19b0a2a9b3986743117e4"),
    "knowledge_passage":
        ("79c9d9b9c427", "1a4ef4c486e394c1d61178b539f8772c2ebfd13f7d49310b87a3174b7f83a3db"),
    "knowledge_question":
        ("cddf978ec652", "79b59fb0bfbb07639a7ef4cbb96226eb11f1e011a75922434cd259df0562debc"),
    "read_value_cloze":
        ("4bf108e1a3dc", "6b277cee71afdaadcb257724fac3e4b7ba74b4fa0547dd625b0ba2d209758deb"),
    "read_value_question":
        ("9b0b087ccee3", "c2a57597723528fe46dee0674c45879b5d3f1eda42a6be8237988dae3324e744"),
    "search_query":
        ("bf4c059a372b", "d2441b18d16bdacb7c5ae1ef297cf2f3847815341978f25e3e7ea706de40f6af"),
    "translate":
        ("5243fa187c5b", "02f86983bd084edba540c75a59efca3ff011ac5ff29a6179347a622661845710"),
}


def test_every_prompt_is_pinned() -> None:
    names = {p.name[:-4] for p in resources.files("factjudge.prompts").iterdir() if p.name.endswith(".txt")}
    assert names == set(PINNED)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_rendered_prompt_is_byte_identical(name: str) -> None:
    prompt = load_prompt(name)
    values = {key: fence(key, INPUT.format(key)) for key in sorted(prompt.placeholders)}
    rendered = prompt.render(**values)
    assert (prompt.hash, hashlib.sha256(rendered.encode()).hexdigest()) == PINNED[name]
