// The GRU recurrence for XLA:CPU as XLA FFI handlers: the loop over time runs here, in one call,
// instead of as an XLA while loop.
//
// Forward, per step: the input GEMM x_t (B, I) x W_ih^T (I, 3H) and the recurrent GEMM
// h_{t-1} (B, H) x W_hh^T (H, 3H), with the gate math applied to each tile as it leaves the
// GEMMs. The weights are repacked once per call so that one tile holds the r, z and n columns of
// the same 8 hidden units, which is what lets the gate math run on the tile. The input GEMM runs
// inside the loop rather than as one large GEMM before it: no (T, B, 3H) projection is written
// and read back, and the seed's second layer took 33 ms that way against 20 + 20 ms hoisted
// (docs/design/gru.md). The hidden units are split between threads; each thread computes its units of
// h_t for all rows, and the threads meet at one barrier per step.
//
// Backward, per step: every thread computes the gate gradients of all units (cheap elementwise
// work, repeated so that no second barrier is needed) and its units of
// dh_{t-1} = [dr dz dhn] (B, 3H) x W_hh (3H, H) + dh * z. Every block of ~128 rows (128 / B
// steps), while the block's gate gradients are still in its caches, each thread adds the block's
// share of its rows of dW_hh = sum dG_hh^T h_{t-1}, dW_ih = sum dG_ih^T x_t and the biases, and
// computes its columns of dx = dG_ih W_ih for those steps (see rnn_gradients.h). So the
// backward hands XLA only dx and the weight gradients: no (T, B, 3H) array, and no large GEMM
// after the loop.
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 (B, H), and
// the weights in torch's layout, W_ih (3H, I) and W_hh (3H, H), gate order r | z | n.
// Python side: ../_gru_native.py; shared parts: rnn_cpu.h, rnn_gradients.h.

#include "rnn_gradients.h"

namespace {

// ---------------------------------------------------------------------------------------------
// Forward

struct Forward {
  int64_t T, B, I, H;
  const float *x;                      // layer input (T, B, I)
  const float *w_ih, *b_x;             // W_ih (3H, I); b_x = [b_ir + b_hr | b_iz + b_hz | b_in]
  const float *w_hh, *b_hn, *h0;       // W_hh (3H, H), b_hn (H), h0 (B, H)
  float* out;                          // (T, B, H)
  float* rzn_out;                      // kept gates [r | z | n] (T, B, 3H), or null
  float* hn_out;                       // kept W_hn h + b_hn (T, B, H), or null
  bool reverse;
};

void forward_thread(const Forward& f, int index, int threads, Team& team) {
  const int64_t T = f.T, B = f.B, I = f.I, H = f.H, BH = B * H, BI = B * I;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto panels = std::make_unique<GatePanels<3>>(f.w_hh, f.w_ih, H, I, first, last);
  // One block's tiles for every row: each GEMM runs over all rows before the other starts, so its
  // panel stays in L1 across the row tiles instead of the two panels evicting each other.
  Floats ch(B * 3 * kLanes), cx(B * 3 * kLanes);
  for (int64_t step = 0; step < T; ++step) {
    const int64_t t = f.reverse ? T - 1 - step : step;
    const float* h_prev = step == 0 ? f.h0 : f.out + (f.reverse ? t + 1 : t - 1) * BH;
    const float* x = f.x + t * BI;
    if (step + 1 < T)
      for (int64_t i = 0; i < BI; i += 16) __builtin_prefetch(x + (f.reverse ? -BI : BI) + i);
    for (int64_t block = first; block < last; ++block) {
      const float* h_panel = panels->h_panel(block);
      const float* x_panel = panels->x_panel(block);
      const int64_t j = block * kLanes;
      const int n = static_cast<int>(std::min<int64_t>(kLanes, H - j));
      const vf b_r = load(f.b_x + j, n), b_z = load(f.b_x + H + j, n), b_n = load(f.b_x + 2 * H + j, n);
      const vf b_hn = load(f.b_hn + j, n);
      for (int64_t b0 = 0; b0 < B; b0 += kRows)
        tile_rows<vf, kRows, 3>(static_cast<int>(std::min<int64_t>(kRows, B - b0)), RowMajor{h_prev + b0 * H, H},
                                H, h_panel, ch.data() + b0 * 3 * kLanes);
      for (int64_t b0 = 0; b0 < B; b0 += kRows)
        tile_rows<vf, kRows, 3>(static_cast<int>(std::min<int64_t>(kRows, B - b0)), RowMajor{x + b0 * I, I}, I,
                                x_panel, cx.data() + b0 * 3 * kLanes);
      for (int64_t b = 0; b < B; ++b) {
          const int64_t o = t * BH + b * H + j;
          const float *gh = ch.data() + b * 3 * kLanes, *gx = cx.data() + b * 3 * kLanes;
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
    if (!team.end_step(index, step)) return;
    if (team.alone() && (first != 0 || last != blocks_of(H))) {
      first = 0;
      last = blocks_of(H);
      panels = std::make_unique<GatePanels<3>>(f.w_hh, f.w_ih, H, I, first, last);
    }
  }
}

ffi::Error check_forward(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b_x,
                         const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& b_hn,
                         const ffi::AnyBuffer& h0) {
  auto xd = x.dimensions(), wh = w_hh.dimensions();
  if (auto e = check(xd.size() == 3, "x of shape (T, B, I)", x); e.failure()) return e;
  if (auto e = check(wh.size() == 2 && wh[0] == 3 * wh[1], "w_hh of shape (3H, H)", w_hh); e.failure())
    return e;
  const int64_t B = xd[1], I = xd[2], H = wh[1];
  auto wi = w_ih.dimensions(), bx = b_x.dimensions(), bh = b_hn.dimensions(), h = h0.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == 3 * H && wi[1] == I, "w_ih of shape (3H, I)", w_ih);
      e.failure())
    return e;
  if (auto e = check(bx.size() == 1 && bx[0] == 3 * H, "b_x of shape (3H,)", b_x); e.failure()) return e;
  if (auto e = check(bh.size() == 1 && bh[0] == H, "b_hn of shape (H,)", b_hn); e.failure()) return e;
  return check(h.size() == 2 && h[0] == B && h[1] == H, "h0 of shape (B, H)", h0);
}

Forward forward_of(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, const ffi::AnyBuffer& b_x,
                   const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& b_hn, const ffi::AnyBuffer& h0,
                   float* out, int64_t reverse) {
  auto xd = x.dimensions();
  return Forward{xd[0], xd[1], xd[2], w_hh.dimensions()[1], x.typed_data<float>(),
                 w_ih.typed_data<float>(), b_x.typed_data<float>(), w_hh.typed_data<float>(),
                 b_hn.typed_data<float>(), h0.typed_data<float>(), out, nullptr, nullptr, reverse != 0};
}

void run_forward(const Forward& f, int64_t threads, int64_t split_at) {
  if (f.T == 0) return;
  parallel(thread_count(threads, blocks_of(f.H)), split_at,
           [&](int index, int count, Team& team) { forward_thread(f, index, count, team); });
}

ffi::Error ForwardImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b_x, ffi::AnyBuffer w_hh,
                       ffi::AnyBuffer b_hn, ffi::AnyBuffer h0, ffi::Result<ffi::AnyBuffer> out,
                       int64_t reverse, int64_t threads, int64_t split_at) {
  if (auto error = check_forward(x, w_ih, b_x, w_hh, b_hn, h0); error.failure()) return error;
  advise_huge_pages(out);
  run_forward(forward_of(x, w_ih, b_x, w_hh, b_hn, h0, out->typed_data<float>(), reverse), threads,
              split_at);
  return ffi::Error::Success();
}

ffi::Error ForwardTrainImpl(ffi::AnyBuffer x, ffi::AnyBuffer w_ih, ffi::AnyBuffer b_x,
                            ffi::AnyBuffer w_hh, ffi::AnyBuffer b_hn, ffi::AnyBuffer h0,
                            ffi::Result<ffi::AnyBuffer> out, ffi::Result<ffi::AnyBuffer> rzn,
                            ffi::Result<ffi::AnyBuffer> hn, int64_t reverse, int64_t threads,
                            int64_t split_at) {
  if (auto error = check_forward(x, w_ih, b_x, w_hh, b_hn, h0); error.failure()) return error;
  for (auto* buffer : {&out, &rzn, &hn}) advise_huge_pages(*buffer);
  Forward f = forward_of(x, w_ih, b_x, w_hh, b_hn, h0, out->typed_data<float>(), reverse);
  f.rzn_out = rzn->typed_data<float>();
  f.hn_out = hn->typed_data<float>();
  run_forward(f, threads, split_at);
  return ffi::Error::Success();
}

// ---------------------------------------------------------------------------------------------
// Backward

struct Backward {
  Shape s;
  int64_t I;
  const float *d_hs;               // cotangent of every state (T, B, H)
  const float *rzn, *hn;           // kept gates [r | z | n] (T, B, 3H) and W_hn h + b_hn (T, B, H)
  const float *hs, *h0, *w_hh;     // states (T, B, H), initial state, W_hh (3H, H)
  const float *x, *w_ih;           // layer input (T, B, I), W_ih (3H, I)
  float *d_x;                      // (T, B, I)
  float *d_w_ih, *d_w_hh;          // (3H, I), (3H, H): zero on entry, summed block by block
  float *d_b_ih, *d_b_hh;          // (3H) each, the same
  float* dh0;                      // (B, H)
  bool reverse;
};

// What one thread owns in the backward: units of dh_{t-1} and rows of dW, and columns of dx.
struct BackwardShare {
  BackwardShare(const Backward& g, int64_t first, int64_t last, int64_t x_first, int64_t x_last)
      : h(g.w_hh, 3 * g.s.H, g.s.H, first, last),
        // dx = [d_a | d_r | d_z] x W_ih's rows n, r, z (the order the gradients are kept in).
        x(g.w_ih, 3 * g.s.H, g.I, x_first, x_last, 2 * g.s.H),
        unit_first(std::min(first * kLanes, g.s.H)), unit_last(std::min(last * kLanes, g.s.H)) {}
  ColumnPanels h, x;
  int64_t unit_first, unit_last;
};

void backward_thread(const Backward& g, int index, int threads, Team& team, float* d_next[2]) {
  const int64_t T = g.s.T, B = g.s.B, H = g.s.H, I = g.I, BH = B * H, K = 4 * H;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto [x_first, x_last] = share(blocks_of(I), index, threads);
  auto mine = std::make_unique<BackwardShare>(g, first, last, x_first, x_last);
  // The gate gradients of the current block of steps, all units (each thread computes them all,
  // so that no second barrier per step is needed): per row [d_a | d_r | d_z | d_hn], so that
  // [d_r | d_z | d_hn] (W_hh's gates) and [d_a | d_r | d_z] (W_ih's, rotated) are each contiguous.
  const int64_t steps_per_block = block_steps(T, B);
  Floats kept(steps_per_block * B * K), dh(BH);
  RowPanels states(steps_per_block * B, H), inputs(steps_per_block * B, I);
  alignas(64) float c[kRows * 3 * kLanes];
  auto time_of = [&](int64_t step) { return g.reverse ? step : T - 1 - step; };
  auto state_before = [&](int64_t t) {
    return (g.reverse ? t == T - 1 : t == 0) ? g.h0 : g.hs + (g.reverse ? t + 1 : t - 1) * BH;
  };
  for (int64_t step = 0; step < T; ++step) {
    // The forward pass ran t = 0..T-1 (T-1..0 if reverse); this walks it back.
    const int64_t t = time_of(step);
    const int64_t slot = step % steps_per_block;
    float* dg = kept.data() + slot * B * K;
    const float* before = state_before(t);
    const float* next = d_next[step % 2];
    float* next_out = d_next[(step + 1) % 2];
    const int64_t at = t * BH;
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
        store(dh.data() + b * H + j, dh_ * z, w);
        float* row = dg + b * K;
        store(row + j, d_a, w);
        store(row + H + j, d_r, w);
        store(row + 2 * H + j, d_z, w);
        store(row + 3 * H + j, d_a * r, w);  // d_hn
      }
    // This thread's units of dh_{t-1} = [d_r | d_z | d_hn] x W_hh + dh * z.
    for (const auto& group : mine->h.groups) {
      const float* panel = mine->h.data.data() + group.offset;
      const int64_t j0 = group.block * kLanes;
      for (int64_t b0 = 0; b0 < B; b0 += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, B - b0));
        tile_any(rows, group.nv, RowMajor{dg + b0 * K + H, K}, 3 * H, panel, c);
        for (int i = 0; i < rows; ++i)
          for (int v = 0; v < group.nv; ++v) {
            const int64_t j = j0 + v * kLanes;
            if (j >= H) break;
            const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
            const int64_t o = (b0 + i) * H + j;
            store(next_out + o, load(c + (i * group.nv + v) * kLanes) + load(dh.data() + o, w), w);
          }
      }
    }
    // At the end of a block: this thread's rows of dW_hh, dW_ih and the biases, and its columns of
    // dx, for the block's steps. A thread that stops mid-block leaves the block to thread 0, which
    // kept every unit's gradients; block boundaries do not move, so neither do the sums' orders.
    if (slot + 1 == steps_per_block || step + 1 == T) {
      const int64_t first_step = step - slot, count = slot + 1, rows = count * B;
      states.pack(rows, [&](int64_t k) { return state_before(time_of(first_step + k / B)) + (k % B) * H; });
      inputs.pack(rows, [&](int64_t k) { return g.x + (time_of(first_step + k / B) * B + k % B) * I; });
      const int64_t u0 = mine->unit_first, u1 = mine->unit_last;
      for (int gate = 0; gate < 3; ++gate) {
        // W_hh's gate gradients sit at columns H, 2H, 3H of a kept row; W_ih's at H, 2H, 0.
        const float* hh = kept.data() + (gate + 1) * H;
        const float* ih = kept.data() + (gate == 2 ? 0 : gate + 1) * H;
        states.accumulate(hh, K, u0, u1, g.d_w_hh + gate * H * H);
        inputs.accumulate(ih, K, u0, u1, g.d_w_ih + gate * H * I);
        accumulate_sums(hh, K, rows, u0, u1, g.d_b_hh + gate * H);
        accumulate_sums(ih, K, rows, u0, u1, g.d_b_ih + gate * H);
      }
      for (const auto& group : mine->x.groups) {
        const float* panel = mine->x.data.data() + group.offset;
        const int64_t j0 = group.block * kLanes;
        for (int64_t k0 = 0; k0 < rows; k0 += kRows) {
          const int count_rows = static_cast<int>(std::min<int64_t>(kRows, rows - k0));
          tile_any(count_rows, group.nv, RowMajor{kept.data() + k0 * K, K}, 3 * H, panel, c);
          for (int i = 0; i < count_rows; ++i) {
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
    if (!team.end_step(index, step)) return;  // thread 0 went on alone; dh0 is its to write
    if (team.alone() && (first != 0 || last != blocks_of(H) || x_first != 0 || x_last != blocks_of(I))) {
      first = x_first = 0;
      last = blocks_of(H);
      x_last = blocks_of(I);
      mine = std::make_unique<BackwardShare>(g, first, last, x_first, x_last);
    }
  }
  for (int64_t b = 0; b < B; ++b)
    std::copy(d_next[T % 2] + b * H + mine->unit_first, d_next[T % 2] + b * H + mine->unit_last,
              g.dh0 + b * H + mine->unit_first);
}

ffi::Error BackwardImpl(ffi::AnyBuffer d_hs, ffi::AnyBuffer rzn, ffi::AnyBuffer hn, ffi::AnyBuffer hs,
                        ffi::AnyBuffer h0, ffi::AnyBuffer w_hh, ffi::AnyBuffer x, ffi::AnyBuffer w_ih,
                        ffi::Result<ffi::AnyBuffer> d_x, ffi::Result<ffi::AnyBuffer> d_w_ih,
                        ffi::Result<ffi::AnyBuffer> d_w_hh, ffi::Result<ffi::AnyBuffer> d_b_ih,
                        ffi::Result<ffi::AnyBuffer> d_b_hh, ffi::Result<ffi::AnyBuffer> dh0,
                        int64_t reverse, int64_t threads, int64_t split_at) {
  const Shape s = shape_of(d_hs);
  if (auto error = check_shapes(s, {&d_hs, &hn, &hs}, w_hh); error.failure()) return error;
  auto gd = rzn.dimensions();
  if (auto e = check(gd.size() == 3 && gd[0] == s.T && gd[1] == s.B && gd[2] == 3 * s.H,
                     "rzn of shape (T, B, 3H)", rzn);
      e.failure())
    return e;
  auto h = h0.dimensions();
  if (auto error = check(h.size() == 2 && h[0] == s.B && h[1] == s.H, "h0 of shape (B, H)", h0);
      error.failure())
    return error;
  auto xd = x.dimensions();
  if (auto e = check(xd.size() == 3 && xd[0] == s.T && xd[1] == s.B, "x of shape (T, B, I)", x); e.failure())
    return e;
  const int64_t I = xd[2];
  auto wi = w_ih.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == 3 * s.H && wi[1] == I, "w_ih of shape (3H, I)", w_ih);
      e.failure())
    return e;
  Backward g{s, I, d_hs.typed_data<float>(), rzn.typed_data<float>(), hn.typed_data<float>(),
             hs.typed_data<float>(), h0.typed_data<float>(), w_hh.typed_data<float>(),
             x.typed_data<float>(), w_ih.typed_data<float>(), d_x->typed_data<float>(),
             d_w_ih->typed_data<float>(), d_w_hh->typed_data<float>(), d_b_ih->typed_data<float>(),
             d_b_hh->typed_data<float>(), dh0->typed_data<float>(), reverse != 0};
  advise_huge_pages(d_x);
  std::fill(g.d_w_ih, g.d_w_ih + 3 * s.H * I, 0.0f);
  std::fill(g.d_w_hh, g.d_w_hh + 3 * s.H * s.H, 0.0f);
  std::fill(g.d_b_ih, g.d_b_ih + 3 * s.H, 0.0f);
  std::fill(g.d_b_hh, g.d_b_hh + 3 * s.H, 0.0f);
  Floats buffers(2 * s.B * s.H);
  float* d_next[2] = {buffers.data(), buffers.data() + s.B * s.H};
  if (s.T == 0) {
    std::fill(g.dh0, g.dh0 + s.B * s.H, 0.0f);
    return ffi::Error::Success();
  }
  parallel(thread_count(threads, blocks_of(s.H)), split_at, [&](int index, int count, Team& team) {
    backward_thread(g, index, count, team, d_next);
  });
  return ffi::Error::Success();
}

}  // namespace


XLA_FFI_DEFINE_HANDLER(kForward, ForwardImpl, (binding<6, 1>()));
XLA_FFI_DEFINE_HANDLER(kForwardTrain, ForwardTrainImpl, (binding<6, 3>()));
XLA_FFI_DEFINE_HANDLER(kBackward, BackwardImpl, (binding<8, 6>()));

extern "C" {
XLA_FFI_Error* levelbench_gru_forward(XLA_FFI_CallFrame* frame) { return kForward(frame); }
XLA_FFI_Error* levelbench_gru_forward_train(XLA_FFI_CallFrame* frame) { return kForwardTrain(frame); }
XLA_FFI_Error* levelbench_gru_backward(XLA_FFI_CallFrame* frame) { return kBackward(frame); }
}
