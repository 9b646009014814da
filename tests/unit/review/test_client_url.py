"""A Label Studio URL may carry ``user:password@``: no error line and no report shows the password."""

from __future__ import annotations

import pytest

from ambiforge.errors import ConfigError
from ambiforge.review.client import ReviewError, call, connect, settings, shown


def test_shown_leaves_out_the_credentials() -> None:
    assert shown("http://admin:s3cr3t-pw@ls.example:8080/path") == "http://***@ls.example:8080/path"
    assert shown("http://ls.example:8080") == "http://ls.example:8080"


def test_a_bad_url_with_a_password_is_named_without_it() -> None:
    with pytest.raises(ConfigError) as caught:
        settings("ftp://admin:s3cr3t-pw@ls.example", "k" * 40)
    assert "s3cr3t-pw" not in str(caught.value) and "***@ls.example" in str(caught.value)


def test_an_unreachable_server_is_named_without_the_password() -> None:
    import httpx

    client, url = connect("http://admin:s3cr3t-pw@127.0.0.1:9", "k" * 40)

    def fail() -> None:
        raise httpx.ConnectError("refused")

    with pytest.raises(ReviewError) as caught:
        call(url, "listing projects", fail)
    assert "s3cr3t-pw" not in str(caught.value) and "http://***@127.0.0.1:9" in str(caught.value)
