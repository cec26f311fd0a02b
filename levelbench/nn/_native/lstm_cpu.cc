// The LSTM cell for rnn_loops.h and rnn_handlers.h, and its XLA FFI entry points: one call runs a
// layer-direction's whole loop over time, on the same loops, tiles and thread team as the GRU's
// (gru_cpu.cc).
//
// Forward, per step and group of hidden units (8; with AVX-512, 16: LstmForwardTile, rnn_cpu.h): one
// register tile holds the i, f, g and o columns of those units, and the gate math and the cell
// update run on it, on vectors of as many units, as it leaves the GEMMs:
//   i = s(.), f = s(.), g = tanh(.), o = s(.), c_t = f c_{t-1} + i g, h_t = o tanh(c_t).
// A unit's cell state is read and written only by the thread that owns the unit.
//
// Training keeps, for the backward, each step's gates by blocks of 8 units (KeptByBlocks,
// rnn_kept.h): step by step, block by block, row by row, a row's i, f, g and o of a block's units
// are 32 consecutive floats, as the forward's tile produces them. So the forward writes its kept
// values as one sequential stream of whole cache lines, where in rows [i | f | g | o] of 4H it
// wrote 4 partial lines per row and block (5 with tanh(c_t), kept until 2026-12-06), far apart
// (docs/notes/2026-12-03-rnn-peak-accounting.md, "The kept activations by blocks of units").
// It also keeps every c_t (T, B, H), a result of its own (c_n is its last step), but not
// tanh(c_t): the backward computes that again from c_t with the same tanh_, so its bits are the
// forward's, and a training call writes and reads back T x B x H floats fewer per layer-direction,
// a fifth of the kept activations, all of it memory each call touches fresh (the same note,
// "First touch, and the LSTM keeps less").
//
// Backward: the gate gradients of a row are kept as [di | df | dg | do]. In an LSTM both biases
// sit outside the gates' products, so that one row serves W_ih, W_hh, b_ih and b_hh alike (one
// bias sum); every thread keeps its own copy of dc (elementwise, repeated so that there is still
// one barrier per step).
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 and c0 (B, H),
// the weights in torch's layout, W_ih (4H, I) and W_hh (4H, H), gate order i | f | g | o.
// Python side: ../_lstm_native.py (calls), ../_rnn_native.py (build, cache, registration).

#include "rnn_handlers.h"
#include "rnn_kept.h"

namespace {

struct LstmCell : CellShape<4, LstmForwardTile>, KeptByBlocks {

  struct Forward : ForwardOperands {
    const float* b;          // b_ih + b_hh (4H)
    const float* c0;         // (B, H)
    float* c_n;              // the final cell state (B, H), also the running one; null if c_out
    float* c_out;            // every c_t (T, B, H), or null
    float* gates_out;        // kept i, f, g, o (T, B, 4H floats, laid out by kept_offset), or null
  };

  // The running cell state starts as c0, for this thread's units.
  static void start_forward(const Forward& f, int64_t unit_first, int64_t unit_last) {
    if (f.c_n)
      for (int64_t b = 0; b < f.B; ++b)
        std::copy(f.c0 + b * f.H + unit_first, f.c0 + b * f.H + unit_last, f.c_n + b * f.H + unit_first);
  }

  static void forward_empty(const Forward& f) {
    if (f.c_n) std::copy(f.c0, f.c0 + f.B * f.H, f.c_n);
  }

  // The gates of up to one V of units [j, j + n), each gate's columns `gate` apart in the tiles: 8
  // units of one block, or, where a tile covers two blocks (LstmForwardTile with AVX-512), 16 units
  // on 16-float vectors.
  template <typename V>
  static void forward_block(const Forward& f, int64_t step, int64_t t, const float*, int64_t j, int n,
                            const float* ch, const float* cx, int64_t ldc, int64_t gate) {
    const int64_t B = f.B, H = f.H, BH = B * H;
    const float* c_prev = f.c_n ? f.c_n : step == 0 ? f.c0 : f.c_out + (f.reverse ? t + 1 : t - 1) * BH;
    float* c_next = f.c_n ? f.c_n : f.c_out + t * BH;
    const V b_i = load<V>(f.b + j, n), b_f = load<V>(f.b + H + j, n), b_g = load<V>(f.b + 2 * H + j, n),
            b_o = load<V>(f.b + 3 * H + j, n);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t o = t * BH + b * H + j;
      const float *gh = ch + b * ldc, *gx = cx + b * ldc;
      V ig = sigmoid_(load<V>(gx) + b_i + load<V>(gh));
      V fg = sigmoid_(load<V>(gx + gate) + b_f + load<V>(gh + gate));
      V gg = tanh_(load<V>(gx + 2 * gate) + b_g + load<V>(gh + 2 * gate));
      V og = sigmoid_(load<V>(gx + 3 * gate) + b_o + load<V>(gh + 3 * gate));
      V c = fg * load<V>(c_prev + b * H + j, n) + ig * gg;
      V tc = tanh_(c);
      store(c_next + b * H + j, c, n);
      store(f.out + o, og * tc, n);
      if (f.gates_out) keep<V, kGates>(f.gates_out, B, H, t, b, j, n, {ig, fg, gg, og});
    }
  }

  // One kept row [di | df | dg | do] serves W_hh, W_ih and the bias.
  static constexpr int kHhColumn = 0;
  static constexpr int kInputRotate = 0;
  static int hh_column(int gate) { return gate; }
  static int ih_column(int gate) { return gate; }

  struct Backward : BackwardOperands {
    const float* dc_n;          // cotangent of c_n (B, H)
    const float* gates;         // kept i, f, g, o (T, B, 4H floats, by kept_offset)
    const float* c;             // kept c_t (T, B, H); tanh(c_t) is computed again from it
    const float* c0;            // (B, H)
    float* dc0;                 // (B, H)
  };

  // This thread's dc for every unit; nothing is added to dh_{t-1} beyond the GEMM.
  struct Carry {
    explicit Carry(const Backward& g) : dc(g.s.B * g.s.H) { std::copy(g.dc_n, g.dc_n + g.s.B * g.s.H, dc.data()); }
    const float* added() const { return nullptr; }
    Floats dc;
  };

  static void gradients(const Backward& g, const BackwardTime& time, Carry& carry, int64_t t, const float* next,
                        float* dg) {
    const int64_t B = g.s.B, H = g.s.H, K = kGates * H, at = t * B * H;
    const float* c_before = time.before(g.c, g.c0, t);
    float* dc = carry.dc.data();
    // Units outside, rows inside: the kept gates are read in the order they lie (kept_offset), a
    // V of 16 units from two blocks' rows at once. tanh(c_t) is the forward's tanh_ of the same
    // c_t, lane by lane the same operations at any width (rnn_cpu.h), so the same bits.
    for_each_vector(H, [&](auto zero, int64_t j, int w) {
      typedef decltype(zero) V;
      const int64_t bw = width(H, j);  // the block's width; both blocks are full under a V of 16
      const float* gates = g.gates + kept_offset(B, H, kGates, t, 0, j);
      for (int64_t b = 0; b < B; ++b, gates += kGates * bw) {
        const int64_t o = at + b * H + j;
        V dh = load<V>(g.d_hs + o, w) + load<V>(next + b * H + j, w);
        V ig = kept<V>(gates, B * kGates, w), fg = kept<V>(gates + bw, B * kGates, w);
        V gg = kept<V>(gates + 2 * bw, B * kGates, w), og = kept<V>(gates + 3 * bw, B * kGates, w);
        V tc = tanh_(load<V>(g.c + o, w));
        V dc_ = load<V>(dc + b * H + j, w) + dh * og * (1.0f - tc * tc);
        float* row = dg + b * K + j;
        store(row, dc_ * gg * ig * (1.0f - ig), w);
        store(row + H, dc_ * load<V>(c_before + b * H + j, w) * fg * (1.0f - fg), w);
        store(row + 2 * H, dc_ * ig * (1.0f - gg * gg), w);
        store(row + 3 * H, dh * tc * og * (1.0f - og), w);
        store(dc + b * H + j, dc_ * fg, w);
      }
    });
  }

  // Every thread holds the same dc for all units (computed alike); thread 0 hands it back.
  static void finish_backward(const Backward& g, Carry& carry, int index) {
    if (index == 0) std::copy(carry.dc.data(), carry.dc.data() + g.s.B * g.s.H, g.dc0);
  }

  static void backward_empty(const Backward& g) { std::copy(g.dc_n, g.dc_n + g.s.B * g.s.H, g.dc0); }

  // The handlers' operands (rnn_handlers.h), in the order ../_lstm_native.py passes them: the
  // common forward operands, then the bias sum and c0.
  static ffi::Error forward_of(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b,
                               const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0, const ffi::AnyBuffer& c0,
                               ffi::Result<ffi::AnyBuffer>& out, int64_t reverse, Forward& f) {
    if (auto e = forward_operands(kGates, x, w_ih, w_hh, h0, out, reverse, f); e.failure()) return e;
    if (auto e = check_vector(b, 4 * f.H, "b of shape (4H,)"); e.failure()) return e;
    auto c = c0.dimensions();
    if (auto e = check(c.size() == 2 && c[0] == f.B && c[1] == f.H, "c0 of shape (B, H)", c0); e.failure())
      return e;
    f.b = b.typed_data<float>();
    f.c0 = c0.typed_data<float>();
    return ffi::Error::Success();
  }

  // Inference: only the final cell state.
  static void results_of(Forward& f, ffi::Result<ffi::AnyBuffer>& c_n) { f.c_n = c_n->typed_data<float>(); }

  // Training: every c_t, and the gates the backward needs.
  static void results_of(Forward& f, ffi::Result<ffi::AnyBuffer>& c, ffi::Result<ffi::AnyBuffer>& gates) {
    f.c_out = c->typed_data<float>();
    f.gates_out = gates->typed_data<float>();
  }

  // After the common backward operands (BackwardBuffers): dc_n, the kept gates, c_t and c0; after
  // the common results, the gradients of the bias sum and of c0.
  static ffi::Error backward_of(const BackwardBuffers& common, const ffi::AnyBuffer& dc_n,
                                const ffi::AnyBuffer& gates, const ffi::AnyBuffer& c, const ffi::AnyBuffer& c0,
                                ffi::Result<ffi::AnyBuffer>& d_b, ffi::Result<ffi::AnyBuffer>& dc0, int64_t reverse,
                                Backward& g) {
    if (auto e = backward_operands(kGates, kGates, {&common.d_hs, &c, &common.hs}, gates, common, reverse, g);
        e.failure())
      return e;
    for (const ffi::AnyBuffer* state : {&dc_n, &c0}) {
      auto d = state->dimensions();
      if (auto e = check(d.size() == 2 && d[0] == g.s.B && d[1] == g.s.H, "dc_n and c0 of shape (B, H)", *state);
          e.failure())
        return e;
    }
    g.d_b_ih = d_b->typed_data<float>();
    g.d_b_hh = nullptr;  // the one bias sum serves b_hh too
    g.dc_n = dc_n.typed_data<float>();
    g.gates = gates.typed_data<float>();
    g.c = c.typed_data<float>();
    g.c0 = c0.typed_data<float>();
    g.dc0 = dc0->typed_data<float>();
    return ffi::Error::Success();
  }
};

}  // namespace

RNN_HANDLER(levelbench_lstm_forward, ForwardHandler, LstmCell, 6, 2);
RNN_HANDLER(levelbench_lstm_forward_train, ForwardHandler, LstmCell, 6, 3);
RNN_HANDLER(levelbench_lstm_backward, BackwardHandler, LstmCell, 10, 6);
