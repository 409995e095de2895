"""``mindspore.mindrecord.common``: the MindRecord exceptions."""
