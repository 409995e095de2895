"""mindspore.communication in one process: values before and after init(), checks and
errors as MindSpore 2.10 gives them, and MindSpore's module paths."""
import importlib

import pytest

import msxla as ms
from msxla.communication import (GlobalComm, create_group, destroy_group, get_comm_name,
                                 get_group_rank_from_world_rank, get_group_size,
                                 get_local_rank, get_local_rank_size, get_process_group_ranks,
                                 get_rank, get_world_rank_from_group_rank, init)

NOT_INITED = ("Distributed Communication has not been inited.You can't invoke this interface "
              "yet. Please call `init()` method first.")


def test_before_init_reads_the_environment(fresh_comm, monkeypatch):
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "8")
    assert (get_rank(), get_group_size()) == (3, 8)
    for fn, args in [(create_group, ("g", [0])), (get_world_rank_from_group_rank, ("g", 0)),
                     (get_group_rank_from_world_rank, (0, "g")), (destroy_group, ("g",)),
                     (get_comm_name, ()), (get_process_group_ranks, ())]:
        with pytest.raises(RuntimeError, match="has not been inited"):
            fn(*args)


def test_init_makes_a_one_process_world(fresh_comm, monkeypatch):
    monkeypatch.setenv("RANK_SIZE", "8")  # read only before init
    init()
    assert GlobalComm.INITED and GlobalComm.BACKEND == "mccl"
    assert GlobalComm.WORLD_COMM_GROUP == "mccl_world_group"
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    # MindSpore's default group name stands for the running backend's world group
    assert get_group_size("hccl_world_group") == get_group_size("mccl_world_group") == 1
    assert get_process_group_ranks() == [0] and get_comm_name() == ""
    create_group("solo", [0])
    assert get_rank("solo") == 0 and get_group_size("solo") == 1
    assert get_world_rank_from_group_rank("solo", 0) == 0
    assert get_group_rank_from_world_rank(0, "solo") == 0
    create_group("solo", [0])  # the same ranks again: accepted
    with pytest.raises(ValueError, match="has been created"):
        create_group("solo", [0, 1])
    destroy_group("solo")
    with pytest.raises(ValueError, match="world_group does not support destruction"):
        destroy_group("mccl_world_group")


def test_argument_checks(fresh_comm):
    init()
    with pytest.raises(TypeError, match="For 'get_rank', the argument 'group' must be type of "
                                        "string"):
        get_rank(1)
    with pytest.raises(TypeError, match="'rank_ids' must be type of list"):
        create_group("g", (0,))
    with pytest.raises(ValueError, match="has duplicate data"):
        create_group("g", [0, 0])
    with pytest.raises(TypeError, match="'group_rank_id' must be type of int"):
        get_world_rank_from_group_rank("mccl_world_group", "0")
    with pytest.raises(TypeError, match="'backend_name' must be a string"):
        init(1)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl'"):
        init("gloo")
    with pytest.raises(RuntimeError, match="should be 'mccl' to init 'CPU', but got 'nccl'"):
        init("nccl")


@pytest.mark.parametrize("path,name", [
    ("mindspore.communication", "GlobalComm"), ("mindspore.communication.management", "init"),
    ("mindspore.communication.management", "Backend"),
    ("mindspore.communication", "HCCL_WORLD_COMM_GROUP"),
    ("mindspore.nn.wrap.grad_reducer", "GlobalComm"), ("mindspore.train.serialization", "get_rank"),
    ("mindspore.dataset.engine", "get_group_size"),
    ("mindspore.parallel.checkpoint_transform", "get_rank")])
def test_mindspore_paths(path, name):
    ms.alias_mindspore()
    module = importlib.import_module(path)
    owner = importlib.import_module("msxla.communication.management")
    assert getattr(module, name) is getattr(owner, name)
