"""Write tests/golden/nn_rnn.json: the recurrent layers of MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_nn_rnn.py``.

``RNN``, ``GRU``, ``LSTM`` (layers, directions, bias, batch_first,
seq_length, initial states) and ``RNNCell``, ``GRUCell``, ``LSTMCell``, run by
``make_nn_layers.run_case`` with the same Parameter values and inputs (stored
in the JSON): outputs, final states, and the gradients with respect to the
inputs, initial states and weights. Also constructor errors, call errors,
reprs, Parameter names and constructor signatures.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_nn_layers  # noqa: E402

F = "f"


def with_state(expr):
    """A Cell calling ``expr``'s Cell with the tuple state ``(h, c)`` from two inputs."""
    def ctor(ms):
        inner = eval(expr, {"nn": ms.nn})  # noqa: S307 - fixed strings

        class WithState(ms.nn.Cell):
            def __init__(self):
                super().__init__()
                self.net = inner

            def construct(self, x, h, c, seq_length=None):
                if seq_length is None:
                    return self.net(x, (h, c))
                return self.net(x, (h, c), seq_length)
        return WithState()
    return ctor


CASES = {
    "rnn_tanh": ("nn.RNN(3, 4)", [(F, (5, 2, 3))], {}),
    "rnn_relu_2layers_nobias": ("nn.RNN(3, 4, num_layers=2, has_bias=False, nonlinearity='relu')",
                                [(F, (4, 2, 3))], {}),
    "rnn_bi_seq_length": ("nn.RNN(3, 4, bidirectional=True)", [(F, (5, 3, 3))],
                          {"kw": {"seq_length": ("int", [5, 2, 4])}}),
    "gru": ("nn.GRU(3, 4)", [(F, (5, 2, 3)), (F, (1, 2, 4))], {}),
    "gru_bi_batch_first_2layers": ("nn.GRU(3, 4, num_layers=2, batch_first=True, "
                                   "bidirectional=True)", [(F, (2, 5, 3))], {}),
    "gru_seq_length": ("nn.GRU(3, 4, batch_first=True)", [(F, (3, 4, 3))],
                       {"kw": {"seq_length": ("int", [4, 1, 3])}}),
    "lstm": ("nn.LSTM(3, 4)", [(F, (5, 2, 3))], {}),
    "lstm_state": (with_state("nn.LSTM(3, 4, num_layers=2)"),
                   [(F, (4, 2, 3)), (F, (2, 2, 4)), (F, (2, 2, 4))], {}),
    "lstm_bi_2layers_nobias": ("nn.LSTM(3, 4, num_layers=2, has_bias=False, "
                               "bidirectional=True)", [(F, (4, 2, 3))], {}),
    "lstm_bi_seq_length_state": (with_state("nn.LSTM(3, 4, bidirectional=True, "
                                            "batch_first=True)"),
                                 [(F, (3, 5, 3)), (F, (2, 3, 4)), (F, (2, 3, 4))],
                                 {"kw": {"seq_length": ("int", [3, 5, 2])}}),
    "lstm_dropout_eval": ("nn.LSTM(3, 4, num_layers=2, dropout=0.5)", [(F, (3, 2, 3))], {}),
    "rnncell": ("nn.RNNCell(3, 4)", [(F, (2, 3)), (F, (2, 4))], {}),
    "rnncell_relu_nobias": ("nn.RNNCell(3, 4, has_bias=False, nonlinearity='relu')",
                            [(F, (2, 3)), (F, (2, 4))], {}),
    "grucell": ("nn.GRUCell(3, 4)", [(F, (2, 3)), (F, (2, 4))], {}),
    "lstmcell": (with_state("nn.LSTMCell(3, 4)"), [(F, (2, 3)), (F, (2, 4)), (F, (2, 4))], {}),
}

ERRORS = [
    "nn.LSTM(3, 4, dropout=1)", "nn.LSTM(3, 4, dropout=1.0)", "nn.GRU(3, 0)",
    "nn.GRU(0, 4)", "nn.RNN(3, 4, num_layers=0)", "nn.GRU(3, 4, has_bias=1)",
    "nn.GRU(3, 4, batch_first=None)", "nn.LSTM(3, 4, bidirectional=0)",
    "nn.RNN(3, 4, nonlinearity='sigmoid')",
    "nn.LSTM(3, 4)(f(5, 2, 3), f(1, 2, 4))",
    "nn.LSTM(3, 4)(f(5, 2, 3), (f(1, 2, 4),))",
    "nn.GRU(3, 4)(f(5, 2, 3), seq_length=ms.Tensor(np.array([1, 2, 3], np.int32)))",
    "nn.GRU(3, 4)(f(5, 2, 3), seq_length=ms.Tensor(np.array([1., 2.], np.float32)))",
    "nn.GRU(3, 4)(f(5, 2, 3), ms.Tensor(np.ones((1, 2, 4)), ms.float64))",
    "nn.RNNCell(3, 4, nonlinearity='gelu')", "nn.RNNCell(3, 4, nonlinearity=1)",
    "nn.LSTMCell(3, 4)(f(2, 3), f(2, 4))",
    "nn.GRUCell(3, 4)(f(2, 3), ms.Tensor(np.ones((2, 4)), ms.float64))",
    "nn.GRUCell(3, 4, has_bias=1)", "nn.LSTMCell(0, 4)",
]

REPRS = [
    "nn.RNN(3, 4)", "nn.RNN(3, 4, nonlinearity='relu')", "nn.GRU(3, 4, num_layers=2)",
    "nn.LSTM(3, 4, num_layers=2, bidirectional=True, dropout=0.25)",
    "nn.LSTM(3, 4, has_bias=False)", "nn.RNNCell(3, 4)", "nn.GRUCell(3, 4)",
    "nn.LSTMCell(3, 4, has_bias=False)",
]

SIGNATURES = ["RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell"]


def main():
    import mindspore as ms
    make_nn_layers.write_golden(ms, os.path.join(HERE, "nn_rnn.json"), CASES, ERRORS, REPRS,
                                SIGNATURES)


if __name__ == "__main__":
    sys.exit(main())
