// The GRU cell for rnn_loops.h, and its XLA FFI handlers: one call runs a layer-direction's whole
// loop over time (rnn_loops.h) instead of an XLA while loop.
//
// Forward, per step and block of 8 hidden units: one register tile holds the r, z and n columns
// of those units (4 rows x 24 columns: 12 accumulators and 3 weight vectors, AVX2's 16 registers
// and a third of AVX-512's 32), and the gate math runs on it as it leaves the GEMMs. The input
// GEMM runs inside the loop rather than as one large GEMM before it: no (T, B, 3H) projection is
// written and read back, and the seed's second layer took 33 ms that way against 20 + 20 ms
// hoisted (docs/design/gru.md).
//
// Backward: the gate gradients of a row are kept as [d_a | d_r | d_z | d_hn] (d_a: of n's
// pre-activation), so that W_hh's [d_r | d_z | d_hn] starts at column H and W_ih's, in W_ih's
// row order n, r, z, is [d_a | d_r | d_z] from column 0; dh_{t-1} adds dh * z to the GEMM.
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 (B, H), and
// the weights in torch's layout, W_ih (3H, I) and W_hh (3H, H), gate order r | z | n.
// Python side: ../_gru_native.py (calls), ../_rnn_native.py (build, cache, registration).

#include "rnn_loops.h"

namespace {

struct GruCell {
  static constexpr int kGates = 3;
  typedef GruForwardTile::Vector Vector;
  static constexpr int kTileRows = GruForwardTile::kRows;

  struct Forward : ForwardOperands {
    const float* b_x;      // [b_ir + b_hr | b_iz + b_hz | b_in] (3H)
    const float* b_hn;     // (H)
    float* rzn_out;        // kept gates [r | z | n] (T, B, 3H), or null
    float* hn_out;         // kept W_hn h + b_hn (T, B, H), or null
  };

  static void start_forward(const Forward&, int64_t, int64_t) {}
  static void forward_empty(const Forward&) {}

  // The gate math of units [j, j + n) for every row, from the tiles' h_{t-1} W_hh^T and x_t W_ih^T.
  static void forward_block(const Forward& f, int64_t, int64_t t, const float* h_prev, int64_t j, int n,
                            const float* ch, const float* cx) {
    const int64_t B = f.B, H = f.H, BH = B * H;
    constexpr int W = kGates * kLanes;
    const vf b_r = load(f.b_x + j, n), b_z = load(f.b_x + H + j, n), b_n = load(f.b_x + 2 * H + j, n);
    const vf b_hn = load(f.b_hn + j, n);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t o = t * BH + b * H + j;
      const float *gh = ch + b * W, *gx = cx + b * W;
      vf r = sigmoid_(load(gx) + b_r + load(gh));
      vf z = sigmoid_(load(gx + kLanes) + b_z + load(gh + kLanes));
      vf hn = load(gh + 2 * kLanes) + b_hn;
      vf nn = tanh_(load(gx + 2 * kLanes) + b_n + r * hn);
      vf h = load(h_prev + b * H + j, n);
      store(f.out + o, nn + z * (h - nn), n);
      if (f.rzn_out) {
        float* gates = f.rzn_out + (t * B + b) * 3 * H + j;
        store(gates, r, n);
        store(gates + H, z, n);
        store(gates + 2 * H, nn, n);
        store(f.hn_out + o, hn, n);
      }
    }
  }

  // Kept row [d_a | d_r | d_z | d_hn]: W_hh's gradient [d_r | d_z | d_hn] from column H, W_ih's
  // [d_r | d_z | d_a] at H, 2H, 0; dx's W_ih rows start at n (2H).
  static constexpr int kHhColumn = 1;
  static constexpr int kInputRotate = 2;
  static int hh_column(int gate) { return gate + 1; }
  static int ih_column(int gate) { return gate == 2 ? 0 : gate + 1; }

  struct Backward : BackwardOperands {
    const float *rzn, *hn;  // kept gates [r | z | n] (T, B, 3H) and W_hn h + b_hn (T, B, H)
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
    for (int64_t b = 0; b < B; ++b)
      for (int64_t j = 0; j < H; j += kLanes) {
        const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
        const int64_t o = at + b * H + j;
        vf dh_ = load(g.d_hs + o, w) + load(next + b * H + j, w);
        const float* gates = g.rzn + (t * B + b) * 3 * H + j;
        vf r = load(gates, w), z = load(gates + H, w), n = load(gates + 2 * H, w), hn = load(g.hn + o, w);
        vf h = load(before + b * H + j, w);
        vf d_a = dh_ * (1.0f - z) * (1.0f - n * n);
        vf d_r = d_a * hn * r * (1.0f - r);
        vf d_z = dh_ * (h - n) * z * (1.0f - z);
        store(carry.dh.data() + b * H + j, dh_ * z, w);
        float* row = dg + b * K;
        store(row + j, d_a, w);
        store(row + H + j, d_r, w);
        store(row + 2 * H + j, d_z, w);
        store(row + 3 * H + j, d_a * r, w);  // d_hn
      }
  }

  static void finish_backward(const Backward&, Carry&, int) {}
  static void backward_empty(const Backward&) {}
};

// The common forward operands, then the GRU's two biases.
ffi::Error gru_forward_of(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b_x,
                          const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& b_hn, const ffi::AnyBuffer& h0,
                          ffi::Result<ffi::AnyBuffer>& out, int64_t reverse, GruCell::Forward& f) {
  if (auto e = forward_operands(GruCell::kGates, x, w_ih, w_hh, h0, out, reverse, f); e.failure()) return e;
  if (auto e = check_vector(b_x, 3 * f.H, "b_x of shape (3H,)"); e.failure()) return e;
  if (auto e = check_vector(b_hn, f.H, "b_hn of shape (H,)"); e.failure()) return e;
  f.b_x = b_x.typed_data<float>();
  f.b_hn = b_hn.typed_data<float>();
  return ffi::Error::Success();
}

}  // namespace

// The handlers, each followed by its exported entry point (XLA's macro: an extern "C" function).
static ffi::Error ForwardImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b_x, ffi::AnyBuffer w_hh,
                              ffi::AnyBuffer b_hn, ffi::AnyBuffer h0, ffi::Result<ffi::AnyBuffer> out,
                              int64_t reverse, int64_t threads, int64_t split_at) {
  GruCell::Forward f{};
  if (auto e = gru_forward_of(x, w_ih, b_x, w_hh, b_hn, h0, out, reverse, f); e.failure()) return e;
  advise_huge_pages(out);
  run_forward<GruCell>(f, threads, split_at);
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(levelbench_gru_forward, ForwardImpl, (binding<6, 1>()));

static ffi::Error ForwardTrainImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b_x,
                                   ffi::AnyBuffer w_hh, ffi::AnyBuffer b_hn, ffi::AnyBuffer h0,
                                   ffi::Result<ffi::AnyBuffer> out, ffi::Result<ffi::AnyBuffer> rzn,
                                   ffi::Result<ffi::AnyBuffer> hn, int64_t reverse, int64_t threads,
                                   int64_t split_at) {
  GruCell::Forward f{};
  if (auto e = gru_forward_of(x, w_ih, b_x, w_hh, b_hn, h0, out, reverse, f); e.failure()) return e;
  for (auto* buffer : {&out, &rzn, &hn}) advise_huge_pages(*buffer);
  f.rzn_out = rzn->typed_data<float>();
  f.hn_out = hn->typed_data<float>();
  run_forward<GruCell>(f, threads, split_at);
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(levelbench_gru_forward_train, ForwardTrainImpl, (binding<6, 3>()));

static ffi::Error BackwardImpl(ffi::AnyBuffer d_hs, ffi::AnyBuffer rzn, ffi::AnyBuffer hn, ffi::AnyBuffer hs,
                               ffi::AnyBuffer h0, ffi::AnyBuffer w_hh, ffi::AnyBuffer x, ffi::AnyBuffer w_ih,
                               ffi::Result<ffi::AnyBuffer> d_x, ffi::Result<ffi::AnyBuffer> d_w_ih,
                               ffi::Result<ffi::AnyBuffer> d_w_hh, ffi::Result<ffi::AnyBuffer> d_b_ih,
                               ffi::Result<ffi::AnyBuffer> d_b_hh, ffi::Result<ffi::AnyBuffer> dh0,
                               int64_t reverse, int64_t threads, int64_t split_at) {
  GruCell::Backward g{};
  const BackwardBuffers common{d_hs, hs, h0, w_hh, x, w_ih, d_x, d_w_ih, d_w_hh, dh0};
  if (auto e = backward_operands(GruCell::kGates, {&d_hs, &hn, &hs}, rzn, common, reverse, g); e.failure())
    return e;
  g.d_b_ih = d_b_ih->typed_data<float>();
  g.d_b_hh = d_b_hh->typed_data<float>();
  g.rzn = rzn.typed_data<float>();
  g.hn = hn.typed_data<float>();
  run_backward<GruCell>(g, threads, split_at);
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(levelbench_gru_backward, BackwardImpl, (binding<8, 6>()));
