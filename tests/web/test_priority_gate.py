"""The long jobs' gate (issue 35): a free worker goes to the most urgent job waiting, and
a waiter that gives up neither keeps a slot nor loses one."""

from __future__ import annotations

import asyncio

import pytest

from mathable.web.infra.priority import PriorityGate


async def _holder(
    gate: PriorityGate, priority: int, name: str, order: list[str], go: asyncio.Event
) -> None:
    async with gate.slot(priority):
        order.append(name)
        assert gate.busy <= gate.slots
        await go.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_urgent_go_first_then_by_arrival() -> None:
    async def scenario() -> list[str]:
        gate = PriorityGate(1)
        order: list[str] = []
        go = asyncio.Event()
        tasks = [asyncio.create_task(_holder(gate, 1, "running analysis", order, go))]
        await _settle()
        for priority, name in (
            (1, "analysis 1"),
            (1, "analysis 2"),
            (0, "decision 1"),
            (0, "decision 2"),
        ):
            tasks.append(asyncio.create_task(_holder(gate, priority, name, order, go)))
            await _settle()
        assert gate.waiting == 4 and gate.busy == 1
        go.set()
        await asyncio.gather(*tasks)
        assert gate.busy == 0 and gate.waiting == 0
        return order

    assert asyncio.run(scenario()) == [
        "running analysis",
        "decision 1",
        "decision 2",
        "analysis 1",
        "analysis 2",
    ]


def test_as_many_run_at_once_as_there_are_slots() -> None:
    async def scenario() -> tuple[list[str], int, int]:
        gate = PriorityGate(2)
        order: list[str] = []
        go = asyncio.Event()
        tasks = [asyncio.create_task(_holder(gate, 1, f"job {i}", order, go)) for i in range(5)]
        await _settle()
        running, waiting = gate.busy, gate.waiting
        go.set()
        await asyncio.gather(*tasks)
        return order, running, waiting

    order, running, waiting = asyncio.run(scenario())
    assert (running, waiting) == (2, 3)
    assert order == [f"job {i}" for i in range(5)]


@pytest.mark.parametrize("when", ["waiting", "let in"])
def test_a_waiter_cancelled_neither_keeps_nor_loses_a_slot(when: str) -> None:
    """Cancelled while it waits, a waiter leaves its place; cancelled just as it is let
    in (given the slot, before it could use it), it passes the slot on: otherwise the
    gate would hang with its slot held by nobody."""

    async def scenario() -> list[str]:
        gate = PriorityGate(1)
        order: list[str] = []
        go = asyncio.Event()
        first = asyncio.create_task(_holder(gate, 1, "first", order, go))
        await _settle()
        quitter = asyncio.create_task(_holder(gate, 0, "quitter", order, go))
        later = asyncio.create_task(_holder(gate, 1, "later", order, go))
        await _settle()
        if when == "waiting":
            quitter.cancel()
            await _settle()
            assert gate.waiting == 1
            go.set()
        else:
            go.set()
            await asyncio.sleep(0)  # "first" leaves and grants "quitter" its slot ...
            quitter.cancel()  # ... which is cancelled before it runs
        await asyncio.wait_for(asyncio.gather(first, later), timeout=30)  # not stuck
        assert quitter.cancelled()
        assert gate.busy == 0 and gate.waiting == 0
        return order

    assert asyncio.run(scenario()) == ["first", "later"]


def test_a_gate_needs_a_slot() -> None:
    with pytest.raises(ValueError, match="slots=0: expected 1 or more"):
        PriorityGate(0)
