"""Packaging: an SPDX license string with its file, every package listed, a changelog."""

from __future__ import annotations

import tomllib

from authoring_helpers import ROOT


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_is_an_spdx_string_with_its_file():
    project = pyproject()["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"] and (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_every_folder_with_shipped_files_is_a_listed_package():
    tool = pyproject()["tool"]["setuptools"]
    packages, dirs = set(tool["packages"]), tool["package-dir"]
    for name, folder in dirs.items():
        for sub in (ROOT / folder).rglob("*"):
            if (
                sub.is_dir()
                and "__pycache__" not in sub.parts
                and any(f.suffix in (".py", ".yaml", ".json") for f in sub.iterdir())
            ):
                dotted = name + "." + ".".join(sub.relative_to(ROOT / folder).parts)
                assert dotted in packages, f"{sub} holds files but {dotted} is not in [tool.setuptools] packages"
    assert "mbrules.bundled.options" in packages


def test_changelog_has_an_unreleased_section():
    assert "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
