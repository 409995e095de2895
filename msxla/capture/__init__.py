"""Capture front ends (trace, ast, bytecode) and what they share: the captured
graph, call signatures, Parameter state frames, discovery and guards."""
