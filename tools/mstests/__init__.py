"""Runs MindSpore's own system tests on msxla and on MindSpore 2.10, and compares them.

``python -m tools.mstests --help``; README, "MindSpore's own tests".
"""
