"""The unchanged MindSpore programs in this directory and how each is run.

Each value is the command line after ``python`` (MindSpore) or
``python -m msxla`` (msxla), run from this directory.
"""
RUNS = {
    "functional_train": ["functional_train.py"],
    "model_zoo_idioms": ["model_zoo_idioms.py", "--flag", "1"],
    "module_with_args": ["-m", "zoo_pkg.train", "--steps", "3"],
}
