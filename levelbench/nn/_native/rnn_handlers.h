// The XLA FFI handlers of the native RNN kernels, written once for every cell (gru_cpu.cc's
// GruCell, lstm_cpu.cc's LstmCell): a handler takes its buffers in the order the Python side
// passes them and the three attributes every kernel takes (binding, rnn_cpu.h), lets the cell
// check its operands and point its Forward or Backward at them, then runs the cell's loops
// (rnn_loops.h). A cell's kernels are then one line each (RNN_HANDLER).
//
// A Cell provides, beside what rnn_loops.h asks of it:
//   forward_of(<its forward operands>..., out, reverse, f): checks the forward's operands and
//     points f at them and at out (every h_t);
//   results_of(f, <the results after out>...), one overload per forward: the inference
//     forward's (the LSTM's final cell state) and the training forward's (what it keeps for the
//     backward);
//   backward_of(common, <its own backward operands>..., <its own results>..., reverse, g): the
//     same for the backward, `common` holding the operands and results every backward takes
//     (BackwardBuffers, rnn_loops.h), which come first in the call.
// Python side: ../_rnn_native.py (registration, `call`), ../_gru_native.py and ../_lstm_native.py.

#pragma once

#include "rnn_loops.h"

namespace {

template <size_t>
using Operand = ffi::AnyBuffer;
template <size_t>
using Output = ffi::Result<ffi::AnyBuffer>;

template <typename Cell, typename Operands, typename Results>
struct ForwardOf;

// A forward taking one operand per index of `A`, returning `out` (every h_t) and one more result
// per index of `R`.
template <typename Cell, size_t... A, size_t... R>
struct ForwardOf<Cell, std::index_sequence<A...>, std::index_sequence<R...>> {
  static ffi::Error call(Operand<A>... operands, ffi::Result<ffi::AnyBuffer> out, Output<R>... more,
                         int64_t reverse, int64_t threads, int64_t split_at) {
    typename Cell::Forward f{};
    if (auto e = Cell::forward_of(operands..., out, reverse, f); e.failure()) return e;
    advise_huge_pages(out);
    (advise_huge_pages(more), ...);
    Cell::results_of(f, more...);
    run_forward<Cell>(f, threads, split_at);
    return ffi::Error::Success();
  }
};

template <typename Cell, int Args, int Rets>
using ForwardHandler = ForwardOf<Cell, std::make_index_sequence<Args>, std::make_index_sequence<Rets - 1>>;

template <typename Cell, typename Operands, typename Results>
struct BackwardOf;

// A backward taking the operands every backward takes (BackwardBuffers' order), then one of the
// cell's own per index of `A`; returning the results every backward returns, then one of the
// cell's own per index of `R`.
template <typename Cell, size_t... A, size_t... R>
struct BackwardOf<Cell, std::index_sequence<A...>, std::index_sequence<R...>> {
  static ffi::Error call(ffi::AnyBuffer d_hs, ffi::AnyBuffer hs, ffi::AnyBuffer h0, ffi::AnyBuffer w_hh,
                         ffi::AnyBuffer x, ffi::AnyBuffer w_ih, Operand<A>... operands,
                         ffi::Result<ffi::AnyBuffer> d_x, ffi::Result<ffi::AnyBuffer> d_w_ih,
                         ffi::Result<ffi::AnyBuffer> d_w_hh, ffi::Result<ffi::AnyBuffer> dh0, Output<R>... results,
                         int64_t reverse, int64_t threads, int64_t split_at) {
    typename Cell::Backward g{};
    const BackwardBuffers common{d_hs, hs, h0, w_hh, x, w_ih, d_x, d_w_ih, d_w_hh, dh0};
    if (auto e = Cell::backward_of(common, operands..., results..., reverse, g); e.failure()) return e;
    run_backward<Cell>(g, threads, split_at);
    return ffi::Error::Success();
  }
};

constexpr int kCommonOperands = 6, kCommonResults = 4;  // BackwardBuffers'

template <typename Cell, int Args, int Rets>
using BackwardHandler = BackwardOf<Cell, std::make_index_sequence<Args - kCommonOperands>,
                                   std::make_index_sequence<Rets - kCommonResults>>;

}  // namespace

// Defines the exported entry point `name` (XLA's macro: an extern "C" function) of a `Handler`
// (ForwardHandler or BackwardHandler) of Cell taking `args` buffers and returning `rets`.
#define RNN_HANDLER(name, Handler, Cell, args, rets) \
  XLA_FFI_DEFINE_HANDLER_SYMBOL(name, (Handler<Cell, args, rets>::call), (binding<args, rets>()))
