"""Ray's token-authentication notice (issue 29 item 5): silenced for the local instance mbrules
starts itself, kept for a cluster the user names. Ray itself is replaced by a stand-in that logs
the notice as Ray does, from the same logger, so no Ray instance is started."""

from __future__ import annotations

import logging

import pytest

from mbrules.matches import cluster

NOTICE = (
    "Token authentication is enabled for this Ray cluster. Set RAY_AUTH_MODE=disabled to opt out. "
    "For more information, see https://docs.ray.io/en/latest/ray-security/token-auth.html"
)


class FakeRay:
    def __init__(self):
        self.calls = []

    def is_initialized(self):
        return False

    def init(self, **kw):
        self.calls.append(kw)
        logging.getLogger(cluster.RAY_TOKEN_LOGGER).warning(NOTICE)
        logging.getLogger(cluster.RAY_TOKEN_LOGGER).warning("another notice from Ray")


@pytest.fixture
def ray_log(caplog):
    """caplog, also attached to Ray's logger itself: once Ray has been imported (by another test in
    the same run), its loggers stop propagating to the root, where caplog listens by default."""
    logger = logging.getLogger(cluster.RAY_TOKEN_LOGGER)
    logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING, logger=cluster.RAY_TOKEN_LOGGER):
            yield caplog
    finally:
        logger.removeHandler(caplog.handler)


def test_the_local_instance_mbrules_starts_prints_no_token_notice(ray_log):
    ray = FakeRay()
    cluster._connect(ray, None, 2)
    assert ray.calls and ray.calls[0]["num_cpus"] == 2
    messages = [r.getMessage() for r in ray_log.records]
    assert NOTICE not in messages
    assert "another notice from Ray" in messages  # only that notice is silenced


def test_a_cluster_the_user_names_keeps_the_token_notice(ray_log):
    ray = FakeRay()
    cluster._connect(ray, "auto", 2)
    assert ray.calls and ray.calls[0]["address"] == "auto"
    assert NOTICE in [r.getMessage() for r in ray_log.records]


def test_the_filter_is_gone_once_the_local_instance_is_up():
    cluster._connect(FakeRay(), None, 1)
    assert cluster._not_the_token_notice not in logging.getLogger(cluster.RAY_TOKEN_LOGGER).filters
