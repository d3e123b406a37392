"""Static files and pages as `scripts/run` and the image serve them: collected
(content-hashed names), compressed (brotli, gzip) and the hashed ones cached for a
year; pages compressed on the fly. A real uvicorn process, asked over HTTP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import OUTPUT, Site

YEAR = 60 * 60 * 24 * 365


@pytest.fixture(scope="module")
def collected_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    workdir = tmp_path_factory.mktemp("collected")
    site = Site(workdir, DAILY_PREPARE_AT_START="false")
    site.env["STATIC_ROOT"] = str(workdir / "static")
    site.manage("collectstatic", "--noinput", "-v", "0")
    site.start(wait_for_dailies=False)
    yield site
    site.stop()


def play_page_assets(site: Site) -> list[str]:
    page = httpx.get(site.base_url + "/", headers={"Accept-Encoding": "identity"}).text
    return sorted(set(re.findall(r'/static/tomb/[\w.-]+\.(?:js|css)', page)))


def test_the_play_page_names_only_hashed_files(collected_site: Site) -> None:
    assets = play_page_assets(collected_site)
    assert any(name.endswith(".css") for name in assets) and any(".js" in n for n in assets)
    assert all(re.search(r"\.[0-9a-f]{12}\.(js|css)$", name) for name in assets), assets


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_hashed_files_come_compressed_and_cached_for_a_year(
        collected_site: Site, encoding: str) -> None:
    for name in play_page_assets(collected_site):
        answer = httpx.get(collected_site.base_url + name,
                           headers={"Accept-Encoding": encoding})
        assert answer.status_code == 200, name
        assert answer.headers["content-encoding"] == encoding, name
        cache = answer.headers["cache-control"]
        max_age = int(re.search(r"max-age=(\d+)", cache).group(1))  # type: ignore[union-attr]
        assert max_age >= YEAR and "immutable" in cache, (name, cache)
        assert int(answer.headers["content-length"]) < len(answer.content), name


def test_pages_and_api_answers_are_compressed(collected_site: Site) -> None:
    for path in ("/", "/rules/", "/api/schema/"):  # (under 200 bytes stays plain)
        answer = httpx.get(collected_site.base_url + path, follow_redirects=True,
                           headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, path
        assert answer.headers.get("content-encoding") == "gzip", path


def test_a_missing_static_file_is_a_plain_404(collected_site: Site) -> None:
    answer = httpx.get(collected_site.base_url + "/static/tomb/no-such-file.0123456789ab.js")
    assert answer.status_code == 404


def test_the_collected_files_are_in_their_own_folder(collected_site: Site) -> None:
    root = Path(collected_site.env["STATIC_ROOT"])
    assert (root / "staticfiles.json").is_file()
    assert list(root.glob("tomb/play.*.js.br")) and list(root.glob("tomb/play.*.js.gz"))


@pytest.mark.parametrize("path", [
    "/", "/rules/", "/st-helena/rules/", "/klondike/rules/", "/daily/", "/boards/",
    "/napoleons-tomb/classic/boards/", "/klondike/turn-1/", "/st-helena/st-helena/",
    "/me/stats/", "/race/", "/accounts/login/", "/accounts/signup/",
])
def test_every_page_names_only_collected_files(collected_site: Site, path: str) -> None:
    """The hashed storage refuses a file it did not collect (a 500 in production): every
    page a visitor reaches renders with the collected files, and names them hashed."""
    answer = httpx.get(collected_site.base_url + path, follow_redirects=True)
    assert answer.status_code == 200, path
    named = re.findall(r'/static/[\w/.-]+\.(?:js|css|svg)', answer.text)
    assert named and all(re.search(r"\.[0-9a-f]{12}\.\w+$", name) for name in named), named
