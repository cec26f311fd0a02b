// The GRU cell for rnn_loops.h and rnn_handlers.h, and its XLA FFI entry points: one call runs a
// layer-direction's whole loop over time (rnn_loops.h) instead of an XLA while loop.
//
// Forward, per step and group of 8 hidden units (16 with AVX-512): one register tile holds the r,
// z and n columns of those units (GruForwardTile, rnn_cpu.h: with AVX2, 4 rows x 24 columns, 12
// accumulators and 3 weight vectors of 8 floats in its 16 registers; with AVX-512, two blocks' 48
// columns in 3 vectors of 16), and the gate math runs on it, 8 units at a time, as it leaves the
// GEMMs. The input GEMM runs inside the loop rather than as one large GEMM before it: no
// (T, B, 3H) projection is written and read back, and the seed's second layer took 33 ms that way
// against 20 + 20 ms hoisted (docs/design/gru.md).
//
// Training keeps, for the backward, each step's r, z, n and W_hn h + b_hn by blocks of 8 units
// (KeptByBlocks, rnn_kept.h): a row's four values of a block's units are 32 consecutive floats,
// two whole cache lines, where as rows [r | z | n] of 3H and rows of W_hn h + b_hn of H, in two
// buffers, the forward wrote four stores per row and vector, each into partial lines a row (3H or
// H floats) from the previous row's
// (docs/notes/2026-12-03-rnn-peak-accounting.md, "The GRU's kept activations by blocks").
//
// Backward: the gate gradients of a row are kept as [d_a | d_r | d_z | d_hn] (d_a: of n's
// pre-activation), so that W_hh's [d_r | d_z | d_hn] starts at column H and W_ih's, in W_ih's
// row order n, r, z, is [d_a | d_r | d_z] from column 0; dh_{t-1} adds dh * z to the GEMM.
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 (B, H), and
// the weights in torch's layout, W_ih (3H, I) and W_hh (3H, H), gate order r | z | n.
// Python side: ../_gru_native.py (calls), ../_rnn_native.py (build, cache, registration).

#include "rnn_handlers.h"
#include "rnn_kept.h"

namespace {

struct GruCell : CellShape<3, GruForwardTile>, KeptByBlocks {
  static constexpr int kKept = 4;  // values kept per unit: r, z, n, W_hn h + b_hn

  struct Forward : ForwardOperands {
    const float* b_x;      // [b_ir + b_hr | b_iz + b_hz | b_in] (3H)
    const float* b_hn;     // (H)
    float* kept_out;       // kept r, z, n, W_hn h + b_hn (T, B, 4H floats, laid out by kept_offset), or null
  };

  static void start_forward(const Forward&, int64_t, int64_t) {}
  static void forward_empty(const Forward&) {}

  // The gate math of units [j, j + n) for every row, from the tiles' h_{t-1} W_hh^T and x_t W_ih^T.
  template <typename V>
  static void forward_block(const Forward& f, int64_t, int64_t t, const float* h_prev, int64_t j, int n,
                            const float* ch, const float* cx, int64_t ldc, int64_t gate) {
    const int64_t B = f.B, H = f.H, BH = B * H;
    const V b_r = load<V>(f.b_x + j, n), b_z = load<V>(f.b_x + H + j, n), b_n = load<V>(f.b_x + 2 * H + j, n);
    const V b_hn = load<V>(f.b_hn + j, n);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t o = t * BH + b * H + j;
      const float *gh = ch + b * ldc, *gx = cx + b * ldc;
      V r = sigmoid_(load<V>(gx) + b_r + load<V>(gh));
      V z = sigmoid_(load<V>(gx + gate) + b_z + load<V>(gh + gate));
      V hn = load<V>(gh + 2 * gate) + b_hn;
      V nn = tanh_(load<V>(gx + 2 * gate) + b_n + r * hn);
      V h = load<V>(h_prev + b * H + j, n);
      store(f.out + o, nn + z * (h - nn), n);
      if (f.kept_out) keep<V, kKept>(f.kept_out, B, H, t, b, j, n, {r, z, nn, hn});
    }
  }

  // Kept row [d_a | d_r | d_z | d_hn]: W_hh's gradient [d_r | d_z | d_hn] from column H, W_ih's
  // [d_r | d_z | d_a] at H, 2H, 0; dx's W_ih rows start at n (2H).
  static constexpr int kHhColumn = 1;
  static constexpr int kInputRotate = 2;
  static int hh_column(int gate) { return gate + 1; }
  static int ih_column(int gate) { return gate == 2 ? 0 : gate + 1; }

  struct Backward : BackwardOperands {
    const float* kept;  // kept r, z, n, W_hn h + b_hn (T, B, 4H floats, by kept_offset)
  };

  // dh * z for every unit of the step: added to dh_{t-1}.
  struct Carry {
    explicit Carry(const Backward& g) : dh(g.s.B * g.s.H) {}
    const float* added() const { return dh.data(); }
    Floats dh;
  };

  static void gradients(const Backward& g, const BackwardTime& time, Carry& carry, int64_t t, const float* next,
                        float* dg) {
    const int64_t B = g.s.B, H = g.s.H, K = 4 * H, at = t * B * H;
    const float* before = time.before(g.hs, g.h0, t);
    // Units outside, rows inside: the kept values are read in the order they lie (kept_offset), a
    // V of 16 units from two blocks' rows at once.
    for_each_vector(H, [&](auto zero, int64_t j, int w) {
      typedef decltype(zero) V;
      const int64_t bw = width(H, j), apart = B * kKept;  // both blocks are full under a V of 16
      const float* values = g.kept + kept_offset(B, H, kKept, t, 0, j);
      for (int64_t b = 0; b < B; ++b, values += kKept * bw) {
        const int64_t o = at + b * H + j;
        V dh_ = load<V>(g.d_hs + o, w) + load<V>(next + b * H + j, w);
        V r = kept<V>(values, apart, w), z = kept<V>(values + bw, apart, w);
        V n = kept<V>(values + 2 * bw, apart, w), hn = kept<V>(values + 3 * bw, apart, w);
        V h = load<V>(before + b * H + j, w);
        V d_a = dh_ * (1.0f - z) * (1.0f - n * n);
        V d_r = d_a * hn * r * (1.0f - r);
        V d_z = dh_ * (h - n) * z * (1.0f - z);
        store(carry.dh.data() + b * H + j, dh_ * z, w);
        float* row = dg + b * K;
        store(row + j, d_a, w);
        store(row + H + j, d_r, w);
        store(row + 2 * H + j, d_z, w);
        store(row + 3 * H + j, d_a * r, w);  // d_hn
      }
    });
  }

  static void finish_backward(const Backward&, Carry&, int) {}
  static void backward_empty(const Backward&) {}

  // The handlers' operands (rnn_handlers.h), in the order ../_gru_native.py passes them: the
  // common forward operands, then the two biases.
  static ffi::Error forward_of(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b_x,
                               const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& b_hn, const ffi::AnyBuffer& h0,
                               ffi::Result<ffi::AnyBuffer>& out, int64_t reverse, Forward& f) {
    if (auto e = forward_operands(kGates, x, w_ih, w_hh, h0, out, reverse, f); e.failure()) return e;
    if (auto e = check_vector(b_x, 3 * f.H, "b_x of shape (3H,)"); e.failure()) return e;
    if (auto e = check_vector(b_hn, f.H, "b_hn of shape (H,)"); e.failure()) return e;
    f.b_x = b_x.typed_data<float>();
    f.b_hn = b_hn.typed_data<float>();
    return ffi::Error::Success();
  }

  static void results_of(Forward&) {}

  static void results_of(Forward& f, ffi::Result<ffi::AnyBuffer>& kept) { f.kept_out = kept->typed_data<float>(); }

  // After the common backward operands (BackwardBuffers): the kept values; after the common
  // results, the gradients of b_ih and b_hh.
  static ffi::Error backward_of(const BackwardBuffers& common, const ffi::AnyBuffer& kept,
                                ffi::Result<ffi::AnyBuffer>& d_b_ih, ffi::Result<ffi::AnyBuffer>& d_b_hh,
                                int64_t reverse, Backward& g) {
    if (auto e = backward_operands(kGates, kKept, {&common.d_hs, &common.hs}, kept, common, reverse, g);
        e.failure())
      return e;
    g.d_b_ih = d_b_ih->typed_data<float>();
    g.d_b_hh = d_b_hh->typed_data<float>();
    g.kept = kept.typed_data<float>();
    return ffi::Error::Success();
  }
};

}  // namespace

RNN_HANDLER(levelbench_gru_forward, ForwardHandler, GruCell, 6, 1);
RNN_HANDLER(levelbench_gru_forward_train, ForwardHandler, GruCell, 6, 2);
RNN_HANDLER(levelbench_gru_backward, BackwardHandler, GruCell, 7, 6);
