// The GRU recurrence for XLA:CPU as XLA FFI handlers: the loop over time runs here, in one call,
// instead of as an XLA while loop.
//
// Forward, per step: the input GEMM x_t (B, I) x W_ih^T (I, 3H) and the recurrent GEMM
// h_{t-1} (B, H) x W_hh^T (H, 3H), with the gate math applied to each tile as it leaves the
// GEMMs. The weights are repacked once per call so that one tile holds the r, z and n columns of
// the same 8 hidden units, which is what lets the gate math run on the tile. The input GEMM runs
// inside the loop rather than as one large GEMM before it: no (T, B, 3H) projection is written
// and read back, and the seed's second layer took 33 ms that way against 20 + 20 ms hoisted
// (docs/gru.md). The hidden units are split between threads; each thread computes its units of
// h_t for all rows, and the threads meet at one barrier per step.
//
// Backward, per step: every thread computes the gate gradients of all units (cheap elementwise
// work, repeated so that no second barrier is needed), writes its own units of them to the
// outputs, and computes its units of dh_{t-1} = [dr dz dhn] (B, 3H) x W_hh (3H, H) + dh * z.
// [dr dz dhn] is written over the kept gates [r z n] (one (T, B, 3H) buffer, aliased by XLA), a
// thread's units one step late, once no thread reads that step's gates.
// The weight gradients are left to XLA: one large GEMM each over all T * B rows.
//
// Arrays are float32, row-major and time-major: x (T, B, I), states (T, B, H), h0 (B, H), and
// the weights in torch's layout, W_ih (3H, I) and W_hh (3H, H), gate order r | z | n.
// Python side: ../_gru_native.py; shared parts: rnn_cpu.h.

#include "rnn_cpu.h"

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

// The panel of unit block `block` of w (3H, K): for each k, the r, z and n rows of w for the
// block's 8 units (zero past H), so that one 4 x 24 tile holds all three gates of 8 units.
void pack_gates(const float* w, int64_t H, int64_t K, int64_t block, float* panel) {
  for (int64_t k = 0; k < K; ++k)
    for (int g = 0; g < 3; ++g)
      for (int u = 0; u < kLanes; ++u) {
        int64_t unit = block * kLanes + u;
        panel[(k * 3 + g) * kLanes + u] = unit < H ? w[(g * H + unit) * K + k] : 0.0f;
      }
}

// The packed weights of unit blocks [first, last): W_hh's and W_ih's panels.
struct ForwardPanels {
  ForwardPanels(const Forward& f, int64_t first, int64_t last)
      : first(first), h_size(f.H * 3 * kLanes), x_size(f.I * 3 * kLanes),
        h((last - first) * h_size), x((last - first) * x_size) {
    for (int64_t block = first; block < last; ++block) {
      pack_gates(f.w_hh, f.H, f.H, block, h.data() + (block - first) * h_size);
      pack_gates(f.w_ih, f.H, f.I, block, x.data() + (block - first) * x_size);
    }
  }
  const float* h_panel(int64_t block) { return h.data() + (block - first) * h_size; }
  const float* x_panel(int64_t block) { return x.data() + (block - first) * x_size; }

  int64_t first, h_size, x_size;
  Floats h, x;
};

void forward_thread(const Forward& f, int index, int threads, Team& team) {
  const int64_t T = f.T, B = f.B, I = f.I, H = f.H, BH = B * H, BI = B * I;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto panels = std::make_unique<ForwardPanels>(f, first, last);
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
        tile_rows<3>(static_cast<int>(std::min<int64_t>(kRows, B - b0)), h_prev + b0 * H, H, H, h_panel,
                     ch.data() + b0 * 3 * kLanes);
      for (int64_t b0 = 0; b0 < B; b0 += kRows)
        tile_rows<3>(static_cast<int>(std::min<int64_t>(kRows, B - b0)), x + b0 * I, I, I, x_panel,
                     cx.data() + b0 * 3 * kLanes);
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
      panels = std::make_unique<ForwardPanels>(f, first, last);
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
  const float *d_hs;               // cotangent of every state (T, B, H)
  const float *rzn, *hn;           // kept gates [r | z | n] (T, B, 3H) and W_hn h + b_hn (T, B, H)
  const float *hs, *h0, *w_hh;     // states (T, B, H), initial state, W_hh (3H, H)
  // Gradients of the gate pre-activations, (T, B, 3H) each, laid out for the weight gradients
  // (one GEMM each): d_ih = [d_r | d_z | d_a] (a = W_in x + b_in + r * hn) and
  // d_hh = [d_r | d_z | d_hn] (hn = W_hn h + b_hn). d_hh is the buffer of rzn (XLA aliases them):
  // a thread writes its units of a step's d_hh one step late (see write_units).
  float *d_ih, *d_hh;
  float* dh0;                      // (B, H)
  bool reverse;
};

void backward_thread(const Backward& g, int index, int threads, Team& team, float* d_next[2]) {
  const int64_t T = g.s.T, B = g.s.B, H = g.s.H, BH = B * H, K = 3 * H;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto panels = std::make_unique<ColumnPanels>(g.w_hh, 3 * H, H, first, last);
  int64_t own_first = std::min(first * kLanes, H), own_last = std::min(last * kLanes, H);
  Floats dgs(2 * B * K), dh(BH);  // this step's [d_r | d_z | d_hn] and the previous step's
  alignas(64) float c[kRows * 3 * kLanes];
  int64_t t_before = -1;
  for (int64_t step = 0; step < T; ++step) {
    // The forward pass ran t = 0..T-1 (T-1..0 if reverse); this walks it back.
    const int64_t t = g.reverse ? step : T - 1 - step;
    float* dg_ = dgs.data() + (step % 2) * B * K;
    if (t_before >= 0)
      write_units(dgs.data() + ((step + 1) % 2) * B * K, g.d_hh, t_before, B, H, 3, own_first, own_last);
    const float* before = (g.reverse ? t == T - 1 : t == 0) ? g.h0 : g.hs + (g.reverse ? t + 1 : t - 1) * BH;
    const float* next = d_next[step % 2];
    float* next_out = d_next[(step + 1) % 2];
    const int64_t at = t * BH;
    // Every unit's gate gradients, into dg = [d_r | d_z | d_hn] (B, 3H); this thread's units also
    // into d_ih (d_hh comes one step later).
    for (int64_t b = 0; b < B; ++b)
      for (int64_t j = 0; j < H; j += kLanes) {
        const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
        const int64_t o = at + b * H + j;
        vf dh_ = load(g.d_hs + o, w) + load(next + b * H + j, w);
        const float* gates = g.rzn + (t * B + b) * K + j;
        vf r = load(gates, w), z = load(gates + H, w), n = load(gates + 2 * H, w), hn = load(g.hn + o, w);
        vf h = load(before + b * H + j, w);
        vf d_a = dh_ * (1.0f - z) * (1.0f - n * n);
        vf d_r = d_a * hn * r * (1.0f - r);
        vf d_z = dh_ * (h - n) * z * (1.0f - z);
        vf d_hn = d_a * r;
        store(dh.data() + b * H + j, dh_ * z, w);
        float* row = dg_ + b * K;
        store(row + j, d_r, w);
        store(row + H + j, d_z, w);
        store(row + 2 * H + j, d_hn, w);
        if (j >= own_first && j < own_last) {
          const int64_t o3 = (t * B + b) * K + j;
          store(g.d_ih + o3, d_r, w);
          store(g.d_ih + o3 + H, d_z, w);
          store(g.d_ih + o3 + 2 * H, d_a, w);
        }
      }
    // This thread's units of dh_{t-1} = dg x W_hh + dh * z.
    for (const auto& group : panels->groups) {
      const float* panel = panels->data.data() + group.offset;
      const int64_t j0 = group.block * kLanes;
      for (int64_t b0 = 0; b0 < B; b0 += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, B - b0));
        tile_any(rows, group.nv, dg_ + b0 * K, K, K, panel, c);
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
    t_before = t;
    // A thread that stops here has written its d_hh units up to the step before; thread 0, now
    // alone, writes this step's for all units (it computed them all) at the start of the next.
    if (!team.end_step(index, step)) return;  // thread 0 went on alone; dh0 is its to write
    if (team.alone() && (first != 0 || last != blocks_of(H))) {
      first = 0;
      last = blocks_of(H);
      panels = std::make_unique<ColumnPanels>(g.w_hh, 3 * H, H, first, last);
      own_first = 0;
      own_last = H;
    }
  }
  if (t_before >= 0)
    write_units(dgs.data() + ((T - 1) % 2) * B * K, g.d_hh, t_before, B, H, 3, own_first, own_last);
  for (int64_t b = 0; b < B; ++b)
    std::copy(d_next[T % 2] + b * H + own_first, d_next[T % 2] + b * H + own_last, g.dh0 + b * H + own_first);
}

ffi::Error BackwardImpl(ffi::AnyBuffer d_hs, ffi::AnyBuffer rzn, ffi::AnyBuffer hn, ffi::AnyBuffer hs,
                        ffi::AnyBuffer h0, ffi::AnyBuffer w_hh,
                        ffi::Result<ffi::AnyBuffer> d_ih, ffi::Result<ffi::AnyBuffer> d_hh,
                        ffi::Result<ffi::AnyBuffer> dh0, int64_t reverse, int64_t threads,
                        int64_t split_at) {
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
  Backward g{s, d_hs.typed_data<float>(), rzn.typed_data<float>(), hn.typed_data<float>(), hs.typed_data<float>(),
             h0.typed_data<float>(), w_hh.typed_data<float>(), d_ih->typed_data<float>(),
             d_hh->typed_data<float>(), dh0->typed_data<float>(), reverse != 0};
  Floats buffers(2 * s.B * s.H);
  float* d_next[2] = {buffers.data(), buffers.data() + s.B * s.H};
  parallel(thread_count(threads, blocks_of(s.H)), split_at, [&](int index, int count, Team& team) {
    backward_thread(g, index, count, team, d_next);
  });
  return ffi::Error::Success();
}

}  // namespace


XLA_FFI_DEFINE_HANDLER(kForward, ForwardImpl, (binding<6, 1>()));
XLA_FFI_DEFINE_HANDLER(kForwardTrain, ForwardTrainImpl, (binding<6, 3>()));
XLA_FFI_DEFINE_HANDLER(kBackward, BackwardImpl, (binding<6, 3>()));

extern "C" {
XLA_FFI_Error* levelbench_gru_forward(XLA_FFI_CallFrame* frame) { return kForward(frame); }
XLA_FFI_Error* levelbench_gru_forward_train(XLA_FFI_CallFrame* frame) { return kForwardTrain(frame); }
XLA_FFI_Error* levelbench_gru_backward(XLA_FFI_CallFrame* frame) { return kBackward(frame); }
}
