"""Stands in for the ``download`` package the quick start imports (the tests have
no network): the MNIST files are already in place, written by the test."""


def download(url, path, kind="zip", replace=True):
    return path
