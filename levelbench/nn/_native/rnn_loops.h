// The loops over time of levelbench's native RNN kernels, written once and templated on the cell
// (gru_cpu.cc's GruCell, lstm_cpu.cc's LstmCell): what a cell supplies is its gate math, its
// operands and the layout of its kept gate gradients; the step loop, the GEMM tiles, the split
// of the hidden units between threads, the team's split under contention, the in-loop weight
// gradients and dx are here, on the parts of rnn_cpu.h and rnn_gradients.h.
//
// Forward, per step and per group of unit blocks owned by this thread (one tile's columns: a block
// of 8 units, or two with AVX-512): the recurrent GEMM h_{t-1} (B, H) x W_hh^T (H, G*8
// per block) and the input GEMM x_t (B, I) x W_ih^T on the cell's register tile, then the cell's
// gate math on the tile as it leaves the GEMMs (Cell::forward_block).
// Each GEMM runs over all rows of a block before the other starts, so that its panel stays in L1
// across the row tiles instead of the two panels evicting each other.
//
// Backward, per step: every thread computes the gate gradients of all units (Cell::gradients:
// cheap elementwise work, repeated so that no second barrier per step is needed) into a kept row
// of 4H per batch row, then its units of dh_{t-1} = dG (B, G*H) x W_hh (G*H, H) (+ the cell's
// carried term). Every ~128 rows of steps it adds its rows of dW_hh, dW_ih and the biases, and
// computes its columns of dx = dG_ih W_ih, for those steps (rnn_gradients.h).
//
// A Cell provides:
//   kGates and Tile (derives from CellShape: the forward's register tile, Tile::kRows rows x one or
//   more blocks' G*8 columns);
//   Forward (derives from ForwardOperands), forward_block<V> (the gate math of up to one V of
//   units, from tiles whose rows are `ldc` floats apart and gates `gate` columns), start_forward,
//   forward_empty;
//   kHhColumn (kept column, in units of H, where dG_hh's G*H columns start), kInputRotate (the
//   row of W_ih that the kept column 0 belongs to, in units of H), hh_column / ih_column (where
//   gate g's gradient for W_hh / W_ih sits), Backward (derives from BackwardOperands), Carry
//   (per-thread state of the backward: added(), the term added to dh_{t-1}, or null), gradients,
//   finish_backward and backward_empty.

#pragma once

#include "rnn_gradients.h"

namespace {

// A cell's shape, what the loops below ask of it: its gate count and the forward's register tile
// (TileShape, rnn_cpu.h), whose columns are a whole number of unit blocks' G*8.
template <int Gates, typename ForwardTile>
struct CellShape {
  static constexpr int kGates = Gates;
  typedef ForwardTile Tile;
};

// What every forward call takes; a cell's Forward adds its biases and what it keeps for training.
struct ForwardOperands {
  int64_t T, B, I, H;
  const float* x;                // layer input (T, B, I)
  const float *w_ih, *w_hh;      // (G*H, I), (G*H, H), torch's layout
  const float* h0;               // (B, H)
  float* out;                    // every h_t (T, B, H)
  bool reverse;
};

template <typename Cell>
void forward_thread(const typename Cell::Forward& f, int index, int threads, Team& team) {
  typedef typename Cell::Tile Tile;
  typedef GatePanels<Cell::kGates, Tile> Panels;
  constexpr int Rows = Tile::kRows, Group = Panels::kGroupBlocks;
  const int64_t T = f.T, B = f.B, I = f.I, H = f.H, BH = B * H, BI = B * I;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto panels = std::make_unique<Panels>(f.w_hh, f.w_ih, H, I, first, last);
  Cell::start_forward(f, std::min(first * kLanes, H), std::min(last * kLanes, H));
  // One group's tiles for every row (see the top of this file).
  Floats ch(B * Tile::kColumns), cx(B * Tile::kColumns);
  enum { kHGemm, kXGemm, kGates, kMeet };
  Phases phases("forward", index, {"h GEMM", "x GEMM", "gate math", "meeting"});
  for (int64_t step = 0; step < T; ++step) {
    const int64_t t = f.reverse ? T - 1 - step : step;
    const float* h_prev = step == 0 ? f.h0 : f.out + (f.reverse ? t + 1 : t - 1) * BH;
    const float* x = f.x + t * BI;
    if (step + 1 < T)
      for (int64_t i = 0; i < BI; i += 16) __builtin_prefetch(x + (f.reverse ? -BI : BI) + i);
    for (int64_t block = first; block < last; block += Group) {
      const int blocks = static_cast<int>(std::min<int64_t>(Group, last - block));
      const int64_t ldc = Panels::width(blocks);
      const int nv = static_cast<int>(ldc / Tile::kLanes);
      for (int64_t b0 = 0; b0 < B; b0 += Rows)
        tile_any<Tile>(static_cast<int>(std::min<int64_t>(Rows, B - b0)), nv, RowMajor{h_prev + b0 * H, H}, H,
                       panels->h_panel(block), ch.data() + b0 * ldc);
      phases.mark(kHGemm);
      for (int64_t b0 = 0; b0 < B; b0 += Rows)
        tile_any<Tile>(static_cast<int>(std::min<int64_t>(Rows, B - b0)), nv, RowMajor{x + b0 * I, I}, I,
                       panels->x_panel(block), cx.data() + b0 * ldc);
      phases.mark(kXGemm);
      // A gate's columns of the group are `blocks * 8` apart; where a full group's are whole vectors
      // of the tile (the GRU's pairs of blocks with AVX-512), the gate math runs on those.
      const int64_t j = block * kLanes, units = std::min<int64_t>(blocks * kLanes, H - j), gate = blocks * kLanes;
      if constexpr (Group * kLanes % Tile::kLanes == 0 && Tile::kLanes > kLanes) {
        if (blocks == Group) {
          for (int64_t u = 0; u < units; u += Tile::kLanes)
            Cell::template forward_block<typename Tile::Vector>(
                f, step, t, h_prev, j + u, static_cast<int>(std::min<int64_t>(Tile::kLanes, units - u)),
                ch.data() + u, cx.data() + u, ldc, gate);
          phases.mark(kGates);
          continue;
        }
      }
      for (int64_t u = 0; u < units; u += kLanes)
        Cell::template forward_block<vf>(f, step, t, h_prev, j + u,
                                         static_cast<int>(std::min<int64_t>(kLanes, units - u)), ch.data() + u,
                                         cx.data() + u, ldc, gate);
      phases.mark(kGates);
    }
    const bool go_on = team.end_step(index, step);
    phases.mark(kMeet);
    phases.end_step();
    if (!go_on) return;
    if (team.alone() && (first != 0 || last != blocks_of(H))) {
      first = 0;
      last = blocks_of(H);
      panels = std::make_unique<Panels>(f.w_hh, f.w_ih, H, I, first, last);
    }
  }
}

template <typename Cell>
void run_forward(const typename Cell::Forward& f, int64_t threads, int64_t split_at) {
  if (f.T == 0) return Cell::forward_empty(f);
  parallel(thread_count(threads, blocks_of(f.H)), split_at,
           [&](int index, int count, Team& team) { forward_thread<Cell>(f, index, count, team); });
}

// The operands every forward checks: x (T, B, I), w_hh (G*H, H), w_ih (G*H, I), h0 (B, H).
// On success, `sizes` holds T, B, I, H.
ffi::Error check_forward(int gates, const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih,
                         const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0, ForwardOperands& sizes) {
  const std::string G = std::to_string(gates);
  auto xd = x.dimensions(), wh = w_hh.dimensions();
  if (auto e = check(xd.size() == 3, "x of shape (T, B, I)", x); e.failure()) return e;
  if (auto e = check(wh.size() == 2 && wh[0] == gates * wh[1], "w_hh of shape (" + G + "H, H)", w_hh);
      e.failure())
    return e;
  const int64_t B = xd[1], I = xd[2], H = wh[1];
  auto wi = w_ih.dimensions(), h = h0.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == gates * H && wi[1] == I, "w_ih of shape (" + G + "H, I)", w_ih);
      e.failure())
    return e;
  if (auto e = check(h.size() == 2 && h[0] == B && h[1] == H, "h0 of shape (B, H)", h0); e.failure()) return e;
  sizes.T = xd[0];
  sizes.B = B;
  sizes.I = I;
  sizes.H = H;
  return ffi::Error::Success();
}

// Checks the operands every forward takes (check_forward) and points `f` at them; the cell's
// handler then checks and fills its own (biases, c0, what it keeps for training).
ffi::Error forward_operands(int gates, const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih,
                            const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0, ffi::Result<ffi::AnyBuffer>& out,
                            int64_t reverse, ForwardOperands& f) {
  if (auto e = check_forward(gates, x, w_ih, w_hh, h0, f); e.failure()) return e;
  f.x = x.typed_data<float>();
  f.w_ih = w_ih.typed_data<float>();
  f.w_hh = w_hh.typed_data<float>();
  f.h0 = h0.typed_data<float>();
  f.out = out->typed_data<float>();
  f.reverse = reverse != 0;
  return ffi::Error::Success();
}

// A vector operand of n elements, described as `expected`.
ffi::Error check_vector(const ffi::AnyBuffer& v, int64_t n, const std::string& expected) {
  auto d = v.dimensions();
  return check(d.size() == 1 && d[0] == n, expected, v);
}

// ---------------------------------------------------------------------------------------------
// Backward

// What every backward call takes; a cell's Backward adds its kept activations and state gradients.
struct BackwardOperands {
  Shape s;
  int64_t I;
  const float* d_hs;               // cotangent of every state (T, B, H)
  const float *hs, *h0, *w_hh;     // states (T, B, H), initial state, W_hh (G*H, H)
  const float *x, *w_ih;           // layer input (T, B, I), W_ih (G*H, I)
  float* d_x;                      // (T, B, I)
  float *d_w_ih, *d_w_hh;          // (G*H, I), (G*H, H): zero on entry, summed block by block
  float *d_b_ih, *d_b_hh;          // (G*H) each, the same; d_b_hh null where one sum serves both
  float* dh0;                      // (B, H)
  bool reverse;
};

// What one thread owns in the backward: units of dh_{t-1} and rows of dW, and columns of dx.
template <typename Cell>
struct BackwardShare {
  BackwardShare(const BackwardOperands& g, int64_t first, int64_t last, int64_t x_first, int64_t x_last)
      : h(g.w_hh, Cell::kGates * g.s.H, g.s.H, first, last),
        x(g.w_ih, Cell::kGates * g.s.H, g.I, x_first, x_last, Cell::kInputRotate * g.s.H),
        unit_first(std::min(first * kLanes, g.s.H)), unit_last(std::min(last * kLanes, g.s.H)) {}
  ColumnPanels h, x;
  int64_t unit_first, unit_last;
};

// The step of the backward that handles time t, and the state the forward's step t started from.
struct BackwardTime {
  int64_t T, BH;
  bool reverse;
  int64_t of(int64_t step) const { return reverse ? step : T - 1 - step; }
  const float* before(const float* states, const float* initial, int64_t t) const {
    return (reverse ? t == T - 1 : t == 0) ? initial : states + (reverse ? t + 1 : t - 1) * BH;
  }
};

template <typename Cell>
void backward_thread(const typename Cell::Backward& g, int index, int threads, Team& team, float* d_next[2]) {
  constexpr int G = Cell::kGates;
  const int64_t T = g.s.T, B = g.s.B, H = g.s.H, I = g.I, BH = B * H, K = 4 * H;
  auto [first, last] = share(blocks_of(H), index, threads);
  auto [x_first, x_last] = share(blocks_of(I), index, threads);
  auto mine = std::make_unique<BackwardShare<Cell>>(g, first, last, x_first, x_last);
  // The gate gradients of the current block of steps, all units (each thread computes them all,
  // so that no second barrier per step is needed): 4H per row, laid out by the cell.
  const int64_t steps_per_block = block_steps(T, B);
  Floats kept(steps_per_block * B * K);
  typename Cell::Carry carry(g);
  const int64_t block_rows = steps_per_block * B;
  FeaturePanels states(block_rows, H), inputs(block_rows, I);
  // This thread's units of each of the kept row's 4 groups of H columns.
  UnitPanels columns[4]{{block_rows, H}, {block_rows, H}, {block_rows, H}, {block_rows, H}};
  alignas(64) float c[BackwardTile::kRows * BackwardTile::kColumns];
  const BackwardTime time{T, BH, g.reverse};
  enum { kGradients, kDhGemm, kWeights, kDx, kMeet };
  Phases phases("backward", index, {"gate gradients", "dh GEMM", "dW sums", "dx GEMM", "meeting"});
  for (int64_t step = 0; step < T; ++step) {
    // The forward pass ran t = 0..T-1 (T-1..0 if reverse); this walks it back.
    const int64_t t = time.of(step);
    const int64_t slot = step % steps_per_block;
    float* dg = kept.data() + slot * B * K;
    float* next_out = d_next[(step + 1) % 2];
    Cell::gradients(g, time, carry, t, d_next[step % 2], dg);
    phases.mark(kGradients);
    // This thread's units of dh_{t-1} = dG_hh x W_hh (+ the cell's carried term).
    const float* added = carry.added();
    for (const auto& group : mine->h.groups) {
      const float* panel = mine->h.data.data() + group.offset;
      const int64_t j0 = group.block * kLanes, ldc = group.nv * BackwardTile::kLanes;
      for (int64_t b0 = 0; b0 < B; b0 += BackwardTile::kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(BackwardTile::kRows, B - b0));
        tile_any<BackwardTile>(rows, group.nv, RowMajor{dg + b0 * K + Cell::kHhColumn * H, K}, G * H, panel, c);
        for (int i = 0; i < rows; ++i)
          for (int v = 0; v < group.blocks; ++v) {
            const int64_t j = j0 + v * kLanes;
            if (j >= H) break;
            const int w = static_cast<int>(std::min<int64_t>(kLanes, H - j));
            const int64_t o = (b0 + i) * H + j;
            vf sum = load(c + i * ldc + v * kLanes);
            if (added) sum += load(added + o, w);
            store(next_out + o, sum, w);
          }
      }
    }
    phases.mark(kDhGemm);
    // At the end of a block: this thread's rows of dW_hh, dW_ih and the biases, and its columns of
    // dx, for the block's steps. A thread that stops mid-block leaves the block to thread 0, which
    // kept every unit's gradients; block boundaries do not move, so neither do the sums' orders.
    if (slot + 1 == steps_per_block || step + 1 == T) {
      const int64_t first_step = step - slot, rows = (slot + 1) * B;
      states.pack(rows, H, [&](int64_t k) { return time.before(g.hs, g.h0, time.of(first_step + k / B)) + (k % B) * H; });
      inputs.pack(rows, I, [&](int64_t k) { return g.x + (time.of(first_step + k / B) * B + k % B) * I; });
      const int64_t u0 = mine->unit_first, u1 = mine->unit_last;
      for (int group = 0; group < 4; ++group)
        columns[group].pack(rows, u1 - u0, [&](int64_t k) { return kept.data() + k * K + group * H + u0; });
      for (int gate = 0; gate < G; ++gate) {
        const UnitPanels &hh = columns[Cell::hh_column(gate)], &ih = columns[Cell::ih_column(gate)];
        accumulate_weights(states, hh, u0, g.d_w_hh + gate * H * H);
        accumulate_weights(inputs, ih, u0, g.d_w_ih + gate * H * I);
        if (g.d_b_hh) accumulate_sums(hh, u0, g.d_b_hh + gate * H);
        accumulate_sums(ih, u0, g.d_b_ih + gate * H);
      }
      phases.mark(kWeights);
      // dx = kept columns [0, G*H) x W_ih's rows from kInputRotate * H on (ColumnPanels rotates them).
      for (const auto& group : mine->x.groups) {
        const float* panel = mine->x.data.data() + group.offset;
        const int64_t j0 = group.block * kLanes, ldc = group.nv * BackwardTile::kLanes;
        for (int64_t k0 = 0; k0 < rows; k0 += BackwardTile::kRows) {
          const int count = static_cast<int>(std::min<int64_t>(BackwardTile::kRows, rows - k0));
          tile_any<BackwardTile>(count, group.nv, RowMajor{kept.data() + k0 * K, K}, G * H, panel, c);
          for (int i = 0; i < count; ++i) {
            const int64_t k = k0 + i;
            float* out = g.d_x + (time.of(first_step + k / B) * B + k % B) * I;
            for (int v = 0; v < group.blocks; ++v) {
              const int64_t j = j0 + v * kLanes;
              if (j >= I) break;
              store(out + j, load(c + i * ldc + v * kLanes), static_cast<int>(std::min<int64_t>(kLanes, I - j)));
            }
          }
        }
      }
      phases.mark(kDx);
    }
    const bool go_on = team.end_step(index, step);
    phases.mark(kMeet);
    phases.end_step();
    if (!go_on) return;  // thread 0 went on alone; dh0 is its to write
    if (team.alone() && (first != 0 || last != blocks_of(H) || x_first != 0 || x_last != blocks_of(I))) {
      first = x_first = 0;
      last = blocks_of(H);
      x_last = blocks_of(I);
      mine = std::make_unique<BackwardShare<Cell>>(g, first, last, x_first, x_last);
    }
  }
  for (int64_t b = 0; b < B; ++b)
    std::copy(d_next[T % 2] + b * H + mine->unit_first, d_next[T % 2] + b * H + mine->unit_last,
              g.dh0 + b * H + mine->unit_first);
  Cell::finish_backward(g, carry, index);
}

// The backward operands every cell checks: the sequences like d_hs, w_hh, h0, x and w_ih; the
// kept values, `kept` per unit (T, B, kept*H). On success, `sizes` holds the shape and I.
ffi::Error check_backward(int gates, int kept, std::initializer_list<const ffi::AnyBuffer*> sequences,
                          const ffi::AnyBuffer& kept_values, const ffi::AnyBuffer& w_hh, const ffi::AnyBuffer& h0,
                          const ffi::AnyBuffer& x, const ffi::AnyBuffer& w_ih, BackwardOperands& sizes) {
  const Shape s = shape_of(**sequences.begin());
  const std::string G = std::to_string(gates);
  if (auto e = check_shapes(s, sequences, w_hh, gates); e.failure()) return e;
  auto gd = kept_values.dimensions();
  if (auto e = check(gd.size() == 3 && gd[0] == s.T && gd[1] == s.B && gd[2] == kept * s.H,
                     "kept values of shape (T, B, " + std::to_string(kept) + "H)", kept_values);
      e.failure())
    return e;
  auto h = h0.dimensions();
  if (auto e = check(h.size() == 2 && h[0] == s.B && h[1] == s.H, "h0 of shape (B, H)", h0); e.failure()) return e;
  auto xd = x.dimensions();
  if (auto e = check(xd.size() == 3 && xd[0] == s.T && xd[1] == s.B, "x of shape (T, B, I)", x); e.failure())
    return e;
  const int64_t I = xd[2];
  auto wi = w_ih.dimensions();
  if (auto e = check(wi.size() == 2 && wi[0] == gates * s.H && wi[1] == I, "w_ih of shape (" + G + "H, I)", w_ih);
      e.failure())
    return e;
  sizes.s = s;
  sizes.I = I;
  return ffi::Error::Success();
}

// The operands and results every backward takes, in the order the handlers bind them.
struct BackwardBuffers {
  const ffi::AnyBuffer &d_hs, &hs, &h0, &w_hh, &x, &w_ih;
  ffi::Result<ffi::AnyBuffer> &d_x, &d_w_ih, &d_w_hh, &dh0;
};

// Checks the operands every backward takes (check_backward: `sequences` are those shaped like
// d_hs, `kept_values` holds `kept` floats per unit) and points `g` at them and at the common
// results; the cell's handler then fills its own (kept activations, bias gradients, state gradients).
ffi::Error backward_operands(int gates, int kept, std::initializer_list<const ffi::AnyBuffer*> sequences,
                             const ffi::AnyBuffer& kept_values, const BackwardBuffers& a, int64_t reverse,
                             BackwardOperands& g) {
  if (auto e = check_backward(gates, kept, sequences, kept_values, a.w_hh, a.h0, a.x, a.w_ih, g); e.failure())
    return e;
  g.d_hs = a.d_hs.typed_data<float>();
  g.hs = a.hs.typed_data<float>();
  g.h0 = a.h0.typed_data<float>();
  g.w_hh = a.w_hh.typed_data<float>();
  g.x = a.x.typed_data<float>();
  g.w_ih = a.w_ih.typed_data<float>();
  g.d_x = a.d_x->typed_data<float>();
  g.d_w_ih = a.d_w_ih->typed_data<float>();
  g.d_w_hh = a.d_w_hh->typed_data<float>();
  g.dh0 = a.dh0->typed_data<float>();
  g.reverse = reverse != 0;
  return ffi::Error::Success();
}

// Zeroes the summed gradients, then runs the backward on `threads` threads.
template <typename Cell>
void run_backward(const typename Cell::Backward& g, int64_t threads, int64_t split_at) {
  const int64_t H = g.s.H, G = Cell::kGates;
  advise_huge_pages(g.d_x, g.s.T * g.s.B * g.I * static_cast<int64_t>(sizeof(float)));
  std::fill(g.d_w_ih, g.d_w_ih + G * H * g.I, 0.0f);
  std::fill(g.d_w_hh, g.d_w_hh + G * H * H, 0.0f);
  std::fill(g.d_b_ih, g.d_b_ih + G * H, 0.0f);
  if (g.d_b_hh) std::fill(g.d_b_hh, g.d_b_hh + G * H, 0.0f);
  if (g.s.T == 0) {
    std::fill(g.dh0, g.dh0 + g.s.B * H, 0.0f);
    return Cell::backward_empty(g);
  }
  Floats buffers(2 * g.s.B * H);
  float* d_next[2] = {buffers.data(), buffers.data() + g.s.B * H};
  parallel(thread_count(threads, blocks_of(H)), split_at, [&](int index, int count, Team& team) {
    backward_thread<Cell>(g, index, count, team, d_next);
  });
}

}  // namespace
