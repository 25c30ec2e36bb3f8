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


def test_a_waiter_cancelled_leaves_its_place() -> None:
    async def scenario() -> list[str]:
        gate = PriorityGate(1)
        order: list[str] = []
        go = asyncio.Event()
        first = asyncio.create_task(_holder(gate, 1, "first", order, go))
        await _settle()
        quitter = asyncio.create_task(_holder(gate, 0, "quitter", order, go))
        later = asyncio.create_task(_holder(gate, 1, "later", order, go))
        await _settle()
        quitter.cancel()
        await _settle()
        assert gate.waiting == 1
        go.set()
        await asyncio.gather(first, later)
        assert quitter.cancelled()
        assert gate.busy == 0
        return order

    assert asyncio.run(scenario()) == ["first", "later"]


def test_a_waiter_cancelled_as_it_is_let_in_passes_the_slot_on() -> None:
    """Given the slot and cancelled before it could use it: the next waiter gets it, and
    no slot is lost (the gate would otherwise hang with every slot taken by nobody)."""

    async def scenario() -> list[str]:
        gate = PriorityGate(1)
        order: list[str] = []
        go = asyncio.Event()
        first = asyncio.create_task(_holder(gate, 1, "first", order, go))
        await _settle()
        unlucky = asyncio.create_task(_holder(gate, 0, "unlucky", order, go))
        later = asyncio.create_task(_holder(gate, 1, "later", order, go))
        await _settle()
        go.set()
        await asyncio.sleep(0)  # "first" leaves and grants "unlucky" its slot ...
        unlucky.cancel()  # ... which is cancelled before it runs
        await asyncio.wait_for(asyncio.gather(first, later), timeout=30)  # not stuck
        assert unlucky.cancelled()
        assert gate.busy == 0 and gate.waiting == 0
        return order

    assert asyncio.run(scenario()) == ["first", "later"]


def test_a_gate_needs_a_slot() -> None:
    with pytest.raises(ValueError, match="slots=0: expected 1 or more"):
        PriorityGate(0)
