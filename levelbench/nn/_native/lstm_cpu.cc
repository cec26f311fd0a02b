// The LSTM recurrence for XLA:CPU as XLA FFI handlers, built like the GRU's (gru_cpu.cc) and on the
// same parts (rnn_cpu.h, rnn_gradients.h): one call runs the whole loop over time, the hidden
// units are split between threads that meet once per step, and the team splits up under
// contention.
//
// Forward, per step: the input GEMM x_t (B, I) x W_ih^T (I, 4H) and the recurrent GEMM
// h_{t-1} (B, H) x W_hh^T (H, 4H), the weights repacked once per call so that one tile holds the
// i, f, g and o columns of the same 8 hidden units; the gate math and the cell update run on the
// tile as it leaves the GEMMs:
//   i = s(.), f = s(.), g = tanh(.), o = s(.), c_t = f c_{t-1} + i g, h_t = o tanh(c_t).
// A unit's cell state is read and written only by the thread that owns the unit.
//
// Backward, per step: every thread computes the gate gradients of all units and keeps its own
// copy of dc (elementwise work, repeated so that no second barrier is needed), and computes its
// units of dh_{t-1} = [di df dg do] (B, 4H) x W_hh (4H, H). In an LSTM both biases sit outside
// the gates' products, so one gate gradient serves W_ih, W_hh, b_ih and b_hh alike; as in the
// GRU's backward, each thread sums its rows of those gradients and its columns of dx = dG W_ih
// a block of ~128 rows at a time while the block is hot, and XLA gets no (T, B, 4H) array.
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 and c0 (B, H),
// the weights in torch's layout, W_ih (4H, I) and W_hh (4H, H), gate order i | f | g | o.
// Python side: ../_lstm_native.py (calls), ../_gru_native.py (build, cache, registration).

#include "rnn_gradients.h"

namespace {

constexpr int kGates = 4;
// The forward's tile: the i, f, g and o columns of 8 units (32 columns) for kLstmRows rows. With
// AVX-512, 8 rows x 2 vectors of 16: 16 accumulators and 2 weight vectors of the 32 registers,
// and at batch 8 one tile per GEMM, so each step reads a panel once (a 4 x 32 tile of 8-float
// vectors, also 16 + 4 registers, reads it twice and ran 0-8% slower, docs/design/gru.md). With AVX2's
// 16 registers, 2 rows x 4 vectors of 8 (8 + 4).
#if defined(__AVX512F__)
typedef vf16 LstmVector;
constexpr int kLstmRows = 8;
#else
typedef vf LstmVector;
constexpr int kLstmRows = 2;
#endif
constexpr int kLstmNV = kGates * kLanes / (sizeof(LstmVector) / sizeof(float));

inline void lstm_tile(int rows, const float* a, int64_t lda, int64_t k, const float* panel, float* c) {
  tile_rows<LstmVector, kLstmRows, kLstmNV>(rows, RowMajor{a, lda}, k, panel, c);
}

// ---------------------------------------------------------------------------------------------
// Forward

struct LstmForward {
  int64_t T, B, I, H;
  const float *x;                // layer input (T, B, I)
  const float *w_ih, *b;         // W_ih (4H, I); b = b_ih + b_hh (4H)
  const float *w_hh, *h0, *c0;   // W_hh (4H, H), h0 and c0 (B, H)
  float* out;                    // h_t (T, B, H)
  float* c_n;                    // the final cell state (B, H), also the running one; null if c_out
  float* c_out;                  // every c_t (T, B, H), or null
  float* gates_out;              // kept gates [i | f | g | o] (T, B, 4H), or null
  float* tc_out;                 // kept tanh(c_t) (T, B, H), or null
  bool reverse;
};

void lstm_forward_thread(const LstmForward& f, int index, int threads, Team& team) {
  const int64_t T = f.T, B = f.B, I = f.I, H = f.H, BH = B * H, BI = B * I;
  constexpr int W = kGates * kLanes;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto panels = std::make_unique<GatePanels<kGates>>(f.w_hh, f.w_ih, H, I, first, last);
  if (f.c_n)  // the running cell state starts as c0, for this thread's units
    for (int64_t b = 0; b < B; ++b)
      std::copy(f.c0 + b * H + std::min(first * kLanes, H), f.c0 + b * H + std::min(last * kLanes, H),
                f.c_n + b * H + std::min(first * kLanes, H));
  Floats ch(B * W), cx(B * W);
  for (int64_t step = 0; step < T; ++step) {
    const int64_t t = f.reverse ? T - 1 - step : step;
    const int64_t before = f.reverse ? t + 1 : t - 1;
    const float* h_prev = step == 0 ? f.h0 : f.out + before * BH;
    const float* c_prev = f.c_n ? f.c_n : step == 0 ? f.c0 : f.c_out + before * BH;
    float* c_next = f.c_n ? f.c_n : f.c_out + t * BH;
    const float* x = f.x + t * BI;
    if (step + 1 < T)
      for (int64_t i = 0; i < BI; i += 16) __builtin_prefetch(x + (f.reverse ? -BI : BI) + i);
    for (int64_t block = first; block < last; ++block) {
      const int64_t j = block * kLanes;
      const int n = static_cast<int>(std::min<int64_t>(kLanes, H - j));
      const vf b_i = load(f.b + j, n), b_f = load(f.b + H + j, n), b_g = load(f.b + 2 * H + j, n),
               b_o = load(f.b + 3 * H + j, n);
      for (int64_t b0 = 0; b0 < B; b0 += kLstmRows)
        lstm_tile(static_cast<int>(std::min<int64_t>(kLstmRows, B - b0)), h_prev + b0 * H, H, H,
                  panels->h_panel(block), ch.data() + b0 * W);
      for (int64_t b0 = 0; b0 < B; b0 += kLstmRows)
        lstm_tile(static_cast<int>(std::min<int64_t>(kLstmRows, B - b0)), x + b0 * I, I, I,
                  panels->x_panel(block), cx.data() + b0 * W);
      for (int64_t b = 0; b < B; ++b) {
        const int64_t o = t * BH + b * H + j;
        const float *gh = ch.data() + b * W, *gx = cx.data() + b * W;
        vf ig = sigmoid_(load(gx) + b_i + load(gh));
        vf fg = sigmoid_(load(gx + kLanes) + b_f + load(gh + kLanes));
        vf gg = tanh_(load(gx + 2 * kLanes) + b_g + load(gh + 2 * kLanes));
        vf og = sigmoid_(load(gx + 3 * kLanes) + b_o + load(gh + 3 * kLanes));
        vf c = fg * load(c_prev + b * H + j, n) + ig * gg;
        vf tc = tanh_(c);
        store(c_next + b * H + j, c, n);
        store(f.out + o, og * tc, n);
        if (f.gates_out) {
          float* row = f.gates_out + (t * B + b) * kGates * H + j;
          store(row, ig, n);
          store(row + H, fg, n);
          store(row + 2 * H, gg, n);
          store(row + 3 * H, og, n);
          store(f.tc_out + o, tc, n);
        }
      }
    }
    if (!team.end_step(index, step)) return;
    if (team.alone() && (first != 0 || last != blocks_of(H))) {
      first = 0;
      last = blocks_of(H);
      panels = std::make_unique<GatePanels<kGates>>(f.w_hh, f.w_ih, H, I, first, last);
    }
  }
}

ffi::Error check_lstm_forward(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b,
                              const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0, const ffi::AnyBuffer& c0) {
  auto xd = x.dimensions(), wh = w_hh.dimensions();
  if (auto e = check(xd.size() == 3, "x of shape (T, B, I)", x); e.failure()) return e;
  if (auto e = check(wh.size() == 2 && wh[0] == kGates * wh[1], "w_hh of shape (4H, H)", w_hh); e.failure())
    return e;
  const int64_t B = xd[1], I = xd[2], H = wh[1];
  auto wi = w_ih.dimensions(), bd = b.dimensions(), h = h0.dimensions(), c = c0.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == kGates * H && wi[1] == I, "w_ih of shape (4H, I)", w_ih);
      e.failure())
    return e;
  if (auto e = check(bd.size() == 1 && bd[0] == kGates * H, "b of shape (4H,)", b); e.failure()) return e;
  if (auto e = check(h.size() == 2 && h[0] == B && h[1] == H, "h0 of shape (B, H)", h0); e.failure()) return e;
  return check(c.size() == 2 && c[0] == B && c[1] == H, "c0 of shape (B, H)", c0);
}

LstmForward lstm_forward_of(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b,
                            const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0, const ffi::AnyBuffer& c0,
                            float* out, int64_t reverse) {
  auto xd = x.dimensions();
  return LstmForward{xd[0], xd[1], xd[2], w_hh.dimensions()[1], x.typed_data<float>(),
                     w_ih.typed_data<float>(), b.typed_data<float>(), w_hh.typed_data<float>(),
                     h0.typed_data<float>(), c0.typed_data<float>(), out, nullptr, nullptr,
                     nullptr, nullptr, reverse != 0};
}

void run_lstm_forward(const LstmForward& f, int64_t threads, int64_t split_at) {
  if (f.T == 0) {
    if (f.c_n) std::copy(f.c0, f.c0 + f.B * f.H, f.c_n);
    return;
  }
  parallel(thread_count(threads, blocks_of(f.H)), split_at,
           [&](int index, int count, Team& team) { lstm_forward_thread(f, index, count, team); });
}

ffi::Error LstmForwardImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b, ffi::AnyBuffer w_hh,
                           ffi::AnyBuffer h0, ffi::AnyBuffer c0, ffi::Result<ffi::AnyBuffer> out,
                           ffi::Result<ffi::AnyBuffer> c_n, int64_t reverse, int64_t threads,
                           int64_t split_at) {
  if (auto error = check_lstm_forward(x, w_ih, b, w_hh, h0, c0); error.failure()) return error;
  advise_huge_pages(out);
  LstmForward f = lstm_forward_of(x, w_ih, b, w_hh, h0, c0, out->typed_data<float>(), reverse);
  f.c_n = c_n->typed_data<float>();
  run_lstm_forward(f, threads, split_at);
  return ffi::Error::Success();
}

ffi::Error LstmForwardTrainImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b,
                                ffi::AnyBuffer w_hh, ffi::AnyBuffer h0, ffi::AnyBuffer c0,
                                ffi::Result<ffi::AnyBuffer> out, ffi::Result<ffi::AnyBuffer> c,
                                ffi::Result<ffi::AnyBuffer> gates, ffi::Result<ffi::AnyBuffer> tc,
                                int64_t reverse, int64_t threads, int64_t split_at) {
  if (auto error = check_lstm_forward(x, w_ih, b, w_hh, h0, c0); error.failure()) return error;
  for (auto* buffer : {&out, &c, &gates, &tc}) advise_huge_pages(*buffer);
  LstmForward f = lstm_forward_of(x, w_ih, b, w_hh, h0, c0, out->typed_data<float>(), reverse);
  f.c_out = c->typed_data<float>();
  f.gates_out = gates->typed_data<float>();
  f.tc_out = tc->typed_data<float>();
  run_lstm_forward(f, threads, split_at);
  return ffi::Error::Success();
}

// ---------------------------------------------------------------------------------------------
// Backward

struct LstmBackward {
  Shape s;
  int64_t I;
  const float *d_hs, *dc_n;   // cotangents of every h_t (T, B, H) and of c_n (B, H)
  const float* gates;         // kept gates [i | f | g | o] (T, B, 4H)
  const float *c, *tc;        // kept c_t and tanh(c_t) (T, B, H)
  const float *c0, *w_hh;     // (B, H), W_hh (4H, H)
  const float *hs, *h0;       // h_t (T, B, H), h0 (B, H): W_hh's gradient
  const float *x, *w_ih;      // layer input (T, B, I), W_ih (4H, I)
  float* d_x;                 // (T, B, I)
  float *d_w_ih, *d_w_hh;     // (4H, I), (4H, H): zero on entry, summed block by block
  float* d_b;                 // (4H): the gradient of b_ih and of b_hh alike
  float* dc0;                 // (B, H)
  bool reverse;
};

// What one thread owns in the backward: units of dh_{t-1} and rows of dW, and columns of dx.
struct LstmBackwardShare {
  LstmBackwardShare(const LstmBackward& g, int64_t first, int64_t last, int64_t x_first, int64_t x_last)
      : h(g.w_hh, kGates * g.s.H, g.s.H, first, last), x(g.w_ih, kGates * g.s.H, g.I, x_first, x_last),
        unit_first(std::min(first * kLanes, g.s.H)), unit_last(std::min(last * kLanes, g.s.H)) {}
  ColumnPanels h, x;
  int64_t unit_first, unit_last;
};

void lstm_backward_thread(const LstmBackward& g, int index, int threads, Team& team, float* d_next[2]) {
  const int64_t T = g.s.T, B = g.s.B, H = g.s.H, I = g.I, BH = B * H, K = kGates * H;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto [x_first, x_last] = share(blocks_of(I), index, threads);
  auto mine = std::make_unique<LstmBackwardShare>(g, first, last, x_first, x_last);
  // The gate gradients of the current block of steps, all units (each thread computes them all,
  // so that no second barrier per step is needed): the weight gradients are summed from them at
  // the end of each block (see rnn_gradients.h).
  const int64_t steps_per_block = block_steps(T, B);
  Floats kept(steps_per_block * B * K), dc(BH);
  RowPanels states(steps_per_block * B, H), inputs(steps_per_block * B, I);
  std::copy(g.dc_n, g.dc_n + BH, dc.data());
  alignas(64) float c[kRows * 3 * kLanes];
  auto time_of = [&](int64_t step) { return g.reverse ? step : T - 1 - step; };
  auto state_before = [&](const float* states, const float* initial, int64_t t) {
    return (g.reverse ? t == T - 1 : t == 0) ? initial : states + (g.reverse ? t + 1 : t - 1) * BH;
  };
  for (int64_t step = 0; step < T; ++step) {
    // The forward pass ran t = 0..T-1 (T-1..0 if reverse); this walks it back.
    const int64_t t = time_of(step);
    const int64_t slot = step % steps_per_block;
    float* dg = kept.data() + slot * B * K;
    const float* c_before = state_before(g.c, g.c0, t);
    const float* next = d_next[step % 2];
    float* next_out = d_next[(step + 1) % 2];
    const int64_t at = t * BH;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t j = 0; j < H; j += kLanes) {
        const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
        const int64_t o = at + b * H + j;
        const float* gates = g.gates + (t * B + b) * K + j;
        vf dh = load(g.d_hs + o, w) + load(next + b * H + j, w);
        vf ig = load(gates, w), fg = load(gates + H, w);
        vf gg = load(gates + 2 * H, w), og = load(gates + 3 * H, w);
        vf tc = load(g.tc + o, w);
        vf dc_ = load(dc.data() + b * H + j, w) + dh * og * (1.0f - tc * tc);
        float* row = dg + b * K + j;
        store(row, dc_ * gg * ig * (1.0f - ig), w);
        store(row + H, dc_ * load(c_before + b * H + j, w) * fg * (1.0f - fg), w);
        store(row + 2 * H, dc_ * ig * (1.0f - gg * gg), w);
        store(row + 3 * H, dh * tc * og * (1.0f - og), w);
        store(dc.data() + b * H + j, dc_ * fg, w);
      }
    // This thread's units of dh_{t-1} = dg x W_hh.
    for (const auto& group : mine->h.groups) {
      const float* panel = mine->h.data.data() + group.offset;
      const int64_t j0 = group.block * kLanes;
      for (int64_t b0 = 0; b0 < B; b0 += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, B - b0));
        tile_any(rows, group.nv, RowMajor{dg + b0 * K, K}, K, panel, c);
        for (int i = 0; i < rows; ++i)
          for (int v = 0; v < group.nv; ++v) {
            const int64_t j = j0 + v * kLanes;
            if (j >= H) break;
            const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
            store(next_out + (b0 + i) * H + j, load(c + (i * group.nv + v) * kLanes), w);
          }
      }
    }
    // At the end of a block: this thread's rows of dW_hh, dW_ih and d_b, and its columns of dx, for
    // the block's steps; a thread that stops mid-block leaves the block to thread 0 (as the GRU's).
    if (slot + 1 == steps_per_block || step + 1 == T) {
      const int64_t first_step = step - slot, rows = (slot + 1) * B;
      states.pack(rows, [&](int64_t k) { return state_before(g.hs, g.h0, time_of(first_step + k / B)) + (k % B) * H; });
      inputs.pack(rows, [&](int64_t k) { return g.x + (time_of(first_step + k / B) * B + k % B) * I; });
      for (int gate = 0; gate < kGates; ++gate) {
        const float* column = kept.data() + gate * H;
        states.accumulate(column, K, mine->unit_first, mine->unit_last, g.d_w_hh + gate * H * H);
        inputs.accumulate(column, K, mine->unit_first, mine->unit_last, g.d_w_ih + gate * H * I);
        accumulate_sums(column, K, rows, mine->unit_first, mine->unit_last, g.d_b + gate * H);
      }
      for (const auto& group : mine->x.groups) {
        const float* panel = mine->x.data.data() + group.offset;
        const int64_t j0 = group.block * kLanes;
        for (int64_t k0 = 0; k0 < rows; k0 += kRows) {
          const int count = static_cast<int>(std::min<int64_t>(kRows, rows - k0));
          tile_any(count, group.nv, RowMajor{kept.data() + k0 * K, K}, K, panel, c);
          for (int i = 0; i < count; ++i) {
            const int64_t k = k0 + i;
            float* out = g.d_x + (time_of(first_step + k / B) * B + k % B) * I;
            for (int v = 0; v < group.nv; ++v) {
              const int64_t j = j0 + v * kLanes;
              if (j >= I) break;
              store(out + j, load(c + (i * group.nv + v) * kLanes), static_cast<int>(std::min<int64_t>(kLanes, I - j)));
            }
          }
        }
      }
    }
    if (!team.end_step(index, step)) return;
    if (team.alone() && (first != 0 || last != blocks_of(H) || x_first != 0 || x_last != blocks_of(I))) {
      first = x_first = 0;
      last = blocks_of(H);
      x_last = blocks_of(I);
      mine = std::make_unique<LstmBackwardShare>(g, first, last, x_first, x_last);
    }
  }
  // Every thread holds the same dc for all units (computed alike); thread 0 hands it back.
  if (index == 0) std::copy(dc.data(), dc.data() + BH, g.dc0);
}

ffi::Error LstmBackwardImpl(ffi::AnyBuffer d_hs, ffi::AnyBuffer dc_n, ffi::AnyBuffer gates, ffi::AnyBuffer c,
                            ffi::AnyBuffer tc, ffi::AnyBuffer c0, ffi::AnyBuffer w_hh, ffi::AnyBuffer hs,
                            ffi::AnyBuffer h0, ffi::AnyBuffer x, ffi::AnyBuffer w_ih,
                            ffi::Result<ffi::AnyBuffer> d_x, ffi::Result<ffi::AnyBuffer> d_w_ih,
                            ffi::Result<ffi::AnyBuffer> d_w_hh, ffi::Result<ffi::AnyBuffer> d_b,
                            ffi::Result<ffi::AnyBuffer> dh0, ffi::Result<ffi::AnyBuffer> dc0,
                            int64_t reverse, int64_t threads, int64_t split_at) {
  const Shape s = shape_of(d_hs);
  if (auto error = check_shapes(s, {&d_hs, &c, &tc, &hs}, w_hh, kGates); error.failure()) return error;
  auto gd = gates.dimensions();
  if (auto e = check(gd.size() == 3 && gd[0] == s.T && gd[1] == s.B && gd[2] == kGates * s.H,
                     "gates of shape (T, B, 4H)", gates);
      e.failure())
    return e;
  for (const ffi::AnyBuffer* state : {&dc_n, &c0, &h0}) {
    auto d = state->dimensions();
    if (auto e = check(d.size() == 2 && d[0] == s.B && d[1] == s.H, "dc_n, c0 and h0 of shape (B, H)", *state);
        e.failure())
      return e;
  }
  auto xd = x.dimensions();
  if (auto e = check(xd.size() == 3 && xd[0] == s.T && xd[1] == s.B, "x of shape (T, B, I)", x); e.failure())
    return e;
  const int64_t I = xd[2];
  auto wi = w_ih.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == kGates * s.H && wi[1] == I, "w_ih of shape (4H, I)", w_ih);
      e.failure())
    return e;
  LstmBackward back{s, I, d_hs.typed_data<float>(), dc_n.typed_data<float>(), gates.typed_data<float>(),
                    c.typed_data<float>(), tc.typed_data<float>(), c0.typed_data<float>(),
                    w_hh.typed_data<float>(), hs.typed_data<float>(), h0.typed_data<float>(),
                    x.typed_data<float>(), w_ih.typed_data<float>(), d_x->typed_data<float>(),
                    d_w_ih->typed_data<float>(), d_w_hh->typed_data<float>(), d_b->typed_data<float>(),
                    dc0->typed_data<float>(), reverse != 0};
  advise_huge_pages(d_x);
  std::fill(back.d_w_ih, back.d_w_ih + kGates * s.H * I, 0.0f);
  std::fill(back.d_w_hh, back.d_w_hh + kGates * s.H * s.H, 0.0f);
  std::fill(back.d_b, back.d_b + kGates * s.H, 0.0f);
  Floats buffers(2 * s.B * s.H);
  float* d_next[2] = {buffers.data(), buffers.data() + s.B * s.H};
  if (s.T > 0)
    parallel(thread_count(threads, blocks_of(s.H)), split_at, [&](int index, int count, Team& team) {
      lstm_backward_thread(back, index, count, team, d_next);
    });
  if (s.T == 0) std::copy(back.dc_n, back.dc_n + s.B * s.H, back.dc0);
  std::copy(d_next[s.T % 2], d_next[s.T % 2] + s.B * s.H, dh0->typed_data<float>());
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER(kLstmForward, LstmForwardImpl, (binding<6, 2>()));
XLA_FFI_DEFINE_HANDLER(kLstmForwardTrain, LstmForwardTrainImpl, (binding<6, 4>()));
XLA_FFI_DEFINE_HANDLER(kLstmBackward, LstmBackwardImpl, (binding<11, 6>()));

extern "C" {
XLA_FFI_Error* levelbench_lstm_forward(XLA_FFI_CallFrame* frame) { return kLstmForward(frame); }
XLA_FFI_Error* levelbench_lstm_forward_train(XLA_FFI_CallFrame* frame) { return kLstmForwardTrain(frame); }
XLA_FFI_Error* levelbench_lstm_backward(XLA_FFI_CallFrame* frame) { return kLstmBackward(frame); }
}
