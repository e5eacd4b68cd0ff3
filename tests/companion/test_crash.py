"""The kill -9 crash test: a real ``mjc serve`` written to from several clients and killed with
``SIGKILL`` at a random moment keeps every write it acknowledged, exactly once and unchanged, with
its integrity ok and its balances summing to zero (:func:`bench.serverproc.crash_round`;
``python3 run.py bench server --crash-rounds 20`` runs twenty)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.serverproc import crash_round


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acknowledged_writes_survive_kill_9(tmp_path: Path, seed: int) -> None:
    found = crash_round(tmp_path / "data", clients=4, tables=2, max_s=1.2, seed=seed)
    assert found.acknowledged > 0, "the server acknowledged no write before it was killed"
    assert found.lost == [] and found.altered == [] and found.duplicated == []
    assert found.integrity == "ok"
    assert found.balances_sum == 0
    assert found.stored >= found.acknowledged
