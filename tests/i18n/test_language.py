"""Which language a person gets: their setting, then the chat's, then the platform's hint."""

from __future__ import annotations

import pytest

from bots.i18n import DEFAULT_LANGUAGE, SUPPORTED, is_rtl, resolve_language, translator


@pytest.mark.parametrize(
    ("tag", "lang"),
    [
        ("ar", "ar"),
        ("ar-EG", "ar"),
        ("ar_SA", "ar"),
        ("AR-eg", "ar"),
        ("ar_EG.UTF-8", "ar"),
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("en_GB", "en"),
        (" en ", "en"),
    ],
)
def test_a_platform_tag_maps_to_its_language(tag: str, lang: str) -> None:
    assert resolve_language(tag) == lang


def test_the_first_candidate_naming_a_supported_language_wins() -> None:
    assert resolve_language("en", "ar", "ar-EG") == "en"
    assert resolve_language(None, "en-GB", "ar") == "en"
    assert resolve_language(None, "", "ar-EG") == "ar"
    assert resolve_language("fr", "de-DE", "en-US") == "en"


def test_nothing_usable_gives_the_default_language_arabic() -> None:
    assert DEFAULT_LANGUAGE == "ar"
    assert resolve_language() == "ar"
    assert resolve_language(None, "", "fr-FR", "zz") == "ar"


def test_only_arabic_is_written_right_to_left() -> None:
    assert SUPPORTED == ("ar", "en")
    assert is_rtl("ar")
    assert not is_rtl("en")
    assert translator("ar").rtl
    assert not translator("en").rtl


def test_translators_are_shared_per_language() -> None:
    assert translator("ar-EG") is translator("ar")
    assert translator("en-US") is translator("en")
    assert translator("en").lang == "en"
    assert translator(None).lang == DEFAULT_LANGUAGE
