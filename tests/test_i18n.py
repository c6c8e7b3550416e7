"""The message catalogue: every key in every language, the same fields, plurals
for every category a language uses, and errors told in each language."""

from __future__ import annotations

import pickle
import re

import pytest
from babel import Locale

from pyramide import i18n
from pyramide.cards import DECK
from pyramide.deals import DealCode
from pyramide.errors import InvalidDealCodeError, LocalisedError
from pyramide.games import PRESETS
from pyramide.messages import Message, rules_description, rules_name, text

LANGS = i18n.languages()


def test_there_are_at_least_russian_and_english() -> None:
    assert {"ru", "en"} <= set(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_is_in_every_language(lang: str) -> None:
    keys = set(i18n.catalogue(i18n.DEFAULT_LANG))
    assert set(i18n.catalogue(lang)) == keys


def _forms(entry: object) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [str(entry)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_fills_the_same_fields_as_english(lang: str) -> None:
    english = i18n.catalogue(i18n.DEFAULT_LANG)
    for key, entry in i18n.catalogue(lang).items():
        wanted = set().union(*(i18n.fields(form) for form in _forms(english[key])))
        for form in _forms(entry):
            assert i18n.fields(form) == wanted, (lang, key, form)


@pytest.mark.parametrize("lang", LANGS)
def test_plurals_cover_the_languages_categories(lang: str) -> None:
    categories = set(Locale.parse(lang).plural_form.tags) | {"other"}
    for key, entry in i18n.catalogue(lang).items():
        if isinstance(entry, dict):
            assert set(entry) == categories, (lang, key)


@pytest.mark.parametrize(("n", "word"), [(1, "карта"), (2, "карты"), (5, "карт"), (11, "карт"),
                                         (21, "карта"), (24, "карты")])
def test_russian_plurals(n: int, word: str) -> None:
    assert i18n.translate("ru", "plural.cards", n=n) == f"{n} {word}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_game_and_message_has_a_text(lang: str) -> None:
    names = {card.name(lang) for card in DECK}
    assert len(names) == 52 and all(name.strip() for name in names)
    for rules in PRESETS.values():
        assert rules_name(rules, lang) and rules_description(rules, lang)
    for message in Message:
        assert text(message, lang, target=13)


def test_english_game_names_are_the_game_descriptions_own() -> None:
    for letter, rules in PRESETS.items():
        assert rules_name(rules, "en") == rules.name, letter


def test_an_error_quotes_the_bad_input_in_each_language() -> None:
    with pytest.raises(InvalidDealCodeError) as info:
        DealCode.parse("PY1-Q-AAAAAAA")
    assert "'Q'" in str(info.value)
    for lang in LANGS:
        assert "'Q'" in info.value.text(lang)
    assert info.value.text("ru") != info.value.text("en")


def test_an_error_travels_between_processes_with_its_texts() -> None:
    with pytest.raises(InvalidDealCodeError) as info:
        DealCode.parse("PY1-N-AAAA")
    copy = pickle.loads(pickle.dumps(info.value))
    assert isinstance(copy, InvalidDealCodeError)
    assert [copy.text(lang) for lang in LANGS] == [info.value.text(lang) for lang in LANGS]
    assert str(copy) == str(info.value)


def test_an_unknown_language_or_key_is_refused() -> None:
    with pytest.raises(i18n.UnknownLanguageError, match="'xx'"):
        i18n.catalogue("xx")
    with pytest.raises(KeyError, match=r"no\.such\.key"):
        i18n.translate("en", "no.such.key")
    with pytest.raises(KeyError):
        LocalisedError("no.such.key")


def test_no_python_module_keeps_a_text_of_its_own() -> None:
    """Russian words belong in the catalogue: no Cyrillic outside docstrings and
    comments in the engine's modules."""
    import pathlib

    import pyramide

    root = pathlib.Path(pyramide.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        code = re.sub(r'"""[\s\S]*?"""', "", path.read_text(encoding="utf-8"))
        code = re.sub(r"#.*", "", code)
        if re.search(r"[А-Яа-яЁё]", code):
            offenders.append(str(path.relative_to(root)))
    assert offenders == []


def test_every_localised_error_raised_names_a_catalogue_key() -> None:
    """An error told in the player's language is raised with a key of the catalogue,
    never with a sentence of its own (that would fail only when it is raised)."""
    import ast
    import pathlib

    import pyramide

    root = pathlib.Path(pyramide.__file__).parent
    localised = {"LocalisedError"}
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in root.rglob("*.py")}
    grew = True
    while grew:  # the subclasses, by their names, wherever they are defined
        before = len(localised)
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and any(
                        isinstance(b, ast.Name) and b.id in localised for b in node.bases):
                    localised.add(node.name)
        grew = len(localised) > before
    keys = set(i18n.catalogue("en"))
    bad = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id in localised
                    and node.exc.args):
                continue
            first = node.exc.args[0]
            if isinstance(first, ast.JoinedStr):  # a key made of a stem, e.g. f"err.save.{key}"
                stem = first.values[0]
                if not (isinstance(stem, ast.Constant) and str(stem.value).endswith(".")
                        and any(key.startswith(stem.value) for key in keys)):
                    bad.append(f"{path.relative_to(root)}:{node.lineno}")
            elif isinstance(first, ast.Constant) and first.value not in keys:
                bad.append(f"{path.relative_to(root)}:{node.lineno}")
    assert len(localised) > 5 and bad == []
