"""``mindspore._extends.parse``: holds ``compile_config``, the graph compiler's switches."""
