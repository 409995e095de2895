"""MindRecord's exceptions (``mindspore.mindrecord.common.exceptions``).

As in MindSpore they subclass ``MindRecordException`` (an ``Exception``)
and print as ``[ClassName]: message``.
"""
from __future__ import annotations


class MindRecordException(Exception):
    """Base of the MindRecord errors."""

    default = "Unknown error."

    def __init__(self, error_detail=None):
        super().__init__(error_detail)
        self.error_msg = self.default if error_detail is None else self.prefix(error_detail)

    def prefix(self, detail):
        return str(detail)

    def __str__(self):
        return f"[{type(self).__name__}]: {self.error_msg}"


class UnknownError(MindRecordException):
    pass


class ParamValueError(MindRecordException):
    def prefix(self, detail):
        return f"Invalid parameter value. {detail}"


class ParamTypeError(MindRecordException):
    def __init__(self, param_name, expected_type):
        super().__init__(f"Invalid parameter type. '{param_name}' expect {expected_type} type.")


class ParamMissError(MindRecordException):
    def __init__(self, param_name):
        super().__init__(f"Param missing. '{param_name}' is required.")


class PathNotExistsError(MindRecordException):
    def __init__(self, error_path):
        super().__init__(f"Path {error_path} does not exist.")


def _simple(name, default):
    return type(name, (MindRecordException,), {"default": default, "__module__": __name__})


MRMOpenError = _simple("MRMOpenError", "MindRecord File could not open successfully.")
MRMOpenForAppendError = _simple("MRMOpenForAppendError",
                                "MindRecord File could not open successfully for append.")
MRMInvalidPageSizeError = _simple("MRMInvalidPageSizeError", "Failed to set page size.")
MRMInvalidHeaderSizeError = _simple("MRMInvalidHeaderSizeError", "Failed to set header size.")
MRMSetHeaderError = _simple("MRMSetHeaderError", "Failed to set header.")
MRMWriteDatasetError = _simple("MRMWriteDatasetError", "Failed to write dataset.")
MRMCommitError = _simple("MRMCommitError", "Failed to commit.")
MRMAddSchemaError = _simple("MRMAddSchemaError", "Failed to add schema.")
MRMAddIndexError = _simple("MRMAddIndexError", "Failed to add index field.")
MRMFetchDataError = _simple("MRMFetchDataError", "Failed to fetch data by category.")
MRMInvalidSchemaError = _simple("MRMInvalidSchemaError", "Schema format is error.")
MRMValidateDataError = _simple("MRMValidateDataError", "Raw data do not match the schema.")
MRMDefineIndexError = _simple("MRMDefineIndexError", "Failed to define index field.")
MRMDefineBlobError = _simple("MRMDefineBlobError", "Failed to define blob field.")
MRMUnsupportedSchemaError = _simple("MRMUnsupportedSchemaError", "Schema is not supported.")

__all__ = ["MindRecordException", "UnknownError", "ParamValueError", "ParamTypeError",
           "ParamMissError", "PathNotExistsError", "MRMOpenError", "MRMOpenForAppendError",
           "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMSetHeaderError",
           "MRMWriteDatasetError", "MRMCommitError", "MRMAddSchemaError", "MRMAddIndexError",
           "MRMFetchDataError", "MRMInvalidSchemaError", "MRMValidateDataError",
           "MRMDefineIndexError", "MRMDefineBlobError", "MRMUnsupportedSchemaError"]
