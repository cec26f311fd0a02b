// Weight gradients inside the backward loops of levelbench's native RNN kernels (gru_cpu.cc,
// lstm_cpu.cc), a block of steps at a time, on the vectors, buffers and tiles of rnn_cpu.h.
//
// dW = sum_t dG_t^T v_t (v: the step's input x_t or previous state h_{t-1}) was one large XLA GEMM
// over all T * B rows after the loop, reading back (T, B, gates * H) gradients the loop had
// written out. Instead each thread keeps the gate gradients of the last few steps (about
// kBlockRows rows, hot in its caches) and, every such block, adds dG_block^T v_block to its own
// rows of dW: no (T, B, gates * H) array leaves the kernel, and XLA maps no temporaries for it.
// Block boundaries depend only on B, so sums run in the same order whatever the thread count.

#pragma once

#include "rnn_cpu.h"

namespace {

// 128 rows: a block's panel of features (128 x 48 floats, 24 KB) and a panel of units (4 KB) fit
// L1 together. Longer blocks, one GEMM of K = 256-2048 rows instead of 128 (issue 28, gru13),
// measured no faster at 256 and slower from 512 on: the GRU's weight sums at batch 64, layer 2,
// ~420,000 ticks per step at 128 and 256, 460,000-690,000 at 512, 980,000-1,040,000 at 1024, with
// the packing and bias sums growing as the block leaves L2 (the sums into dW, once a block, are
// not what limits them).
constexpr int64_t kBlockRows = 128;

int64_t block_steps(int64_t T, int64_t B) {
  return std::max<int64_t>(1, std::min<int64_t>(T, kBlockRows / std::max<int64_t>(B, 1)));
}

// A block's rows of an (rows, cols) operand, packed into panels of Panel columns, each panel's
// rows consecutive, a row padded with zeros to a whole number of Align floats: the states or
// inputs of a block of steps in panels of BackwardTile's columns (FeaturePanels: 24 or 48, a row
// padded to whole vectors), and this thread's columns of its gate gradients in panels of
// BackwardTile's rows (UnitPanels: 4 or 8 units, a row padded to the whole panel). row(k) points
// at row k; the rows of a block are not contiguous (one step's B rows each). Holds up to max_rows
// rows of max_cols columns. A whole panel's row is copied as one fixed-size move (std::copy of a
// run-time count was a library call per row: 25 panels x 4 gate groups x 128 rows of them per
// block at H = 200, 6% of the GRU's backward).
template <int Panel, int Align>
struct RowPanels {
  RowPanels(int64_t max_rows, int64_t max_cols) : data(max_rows * ((max_cols + Panel - 1) / Panel * Panel)) {}

  // Floats a panel of `width` columns takes per row.
  static constexpr int64_t stride(int64_t width) { return (width + Align - 1) / Align * Align; }

  template <typename Row>
  void pack(int64_t count, int64_t width, Row row) {
    rows = count;
    cols = width;
    int64_t offset = 0;
    for (int64_t col = 0; col < cols; col += Panel) {
      const int64_t width = std::min<int64_t>(Panel, cols - col);
      float* out = data.data() + offset;
      if (width == Panel) {
        for (int64_t k = 0; k < count; ++k) std::memcpy(out + k * Panel, row(k) + col, Panel * sizeof(float));
        offset += count * Panel;
        continue;
      }
      const int64_t padded = stride(width);
      for (int64_t k = 0; k < count; ++k) {
        const float* source = row(k) + col;
        std::copy(source, source + width, out + k * padded);
        std::fill(out + k * padded + width, out + (k + 1) * padded, 0.0f);
      }
      offset += count * padded;
    }
  }

  int64_t rows = 0, cols = 0;
  Floats data;
};

// The states' or inputs' panels (a tile's vectors) and the gate gradients' (a tile's rows).
typedef RowPanels<BackwardTile::kColumns, BackwardTile::kLanes> FeaturePanels;
typedef RowPanels<BackwardTile::kRows, BackwardTile::kRows> UnitPanels;

// The same sums as accumulate_weights's tiles for one panel of at most 8 features (Width, a
// compile-time count), with the roles turned: a vector holds 16 units (a row of two panels of
// units side by side), one accumulator per feature and vector, a feature broadcast per row. Where
// a panel of features is that narrow (a first layer's few inputs, the seed's 6; the 8 columns
// left over where 48 does not divide H, as at H = 200), the 8 x 16 tile filled half of its one
// vector or less and ran on its 8 broadcasts a row (9 loads for 8 FMAs); here a row is 4 loads and
// Width broadcasts for 2 x Width FMAs over 32 units. Each dW element is still summed over the
// block's rows in their order from zero (the same FMAs: a product does not depend on the order of
// its factors), then added to d_w once: the same bits.
#if defined(__AVX512F__)
template <int Width>
void accumulate_narrow(const float* features, int64_t ldf, const UnitPanels& dg, int64_t u0, int64_t n,
                       int64_t col, float* d_w) {
  constexpr int Rows = BackwardTile::kRows;  // units per panel (8)
  static_assert(Rows == kLanes, "with AVX-512 a panel of units is one vector of 8");
  const int64_t rows = dg.rows, panel_size = Rows * rows;
  // Row k of two panels of units side by side: 16 units.
  auto row_of = [&](const float* pair, int64_t k) {
    const vf low = load(pair + k * Rows), high = load(pair + panel_size + k * Rows);
    return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  };
  auto add_to = [&](int64_t unit, const float* sums, int units) {
    for (int u = 0; u < units; ++u)
      for (int f = 0; f < Width; ++f) d_w[(u0 + unit + u) * n + col + f] += sums[f * 16 + u];
  };
  int64_t unit = 0;
  for (; unit + 32 <= dg.cols; unit += 32) {
    const float* pairs = dg.data.data() + unit * rows;
    vf16 acc[Width][2];
#pragma GCC unroll 8
    for (int f = 0; f < Width; ++f) acc[f][0] = acc[f][1] = vf16{};
    for (int64_t k = 0; k < rows; ++k) {
      const vf16 a = row_of(pairs, k), b = row_of(pairs + 2 * panel_size, k);
#pragma GCC unroll 8
      for (int f = 0; f < Width; ++f) {
        const vf16 x = splat_to<vf16>(features[k * ldf + f]);
        acc[f][0] += x * a;
        acc[f][1] += x * b;
      }
    }
    alignas(64) float sums[2][Width * 16];
    for (int f = 0; f < Width; ++f) {
      store(sums[0] + f * 16, acc[f][0]);
      store(sums[1] + f * 16, acc[f][1]);
    }
    add_to(unit, sums[0], 16);
    add_to(unit + 16, sums[1], 16);
  }
  // The last panels (fewer than 32 units): two full ones at a time, then one at a time on 8 lanes.
  for (; unit + 16 <= dg.cols; unit += 16) {
    const float* pair = dg.data.data() + unit * rows;
    vf16 acc[Width];
#pragma GCC unroll 8
    for (int f = 0; f < Width; ++f) acc[f] = vf16{};
    for (int64_t k = 0; k < rows; ++k) {
      const vf16 a = row_of(pair, k);
#pragma GCC unroll 8
      for (int f = 0; f < Width; ++f) acc[f] += splat_to<vf16>(features[k * ldf + f]) * a;
    }
    alignas(64) float sums[Width * 16];
    for (int f = 0; f < Width; ++f) store(sums + f * 16, acc[f]);
    add_to(unit, sums, 16);
  }
  for (; unit < dg.cols; unit += Rows) {
    const float* panel = dg.data.data() + unit * rows;
    vf acc[Width];
#pragma GCC unroll 8
    for (int f = 0; f < Width; ++f) acc[f] = vf{};
    for (int64_t k = 0; k < rows; ++k) {
      const vf a = load(panel + k * Rows);
#pragma GCC unroll 8
      for (int f = 0; f < Width; ++f) acc[f] += splat(features[k * ldf + f]) * a;
    }
    alignas(64) float sums[Width * 16];
    for (int f = 0; f < Width; ++f) store(sums + f * 16, acc[f]);
    add_to(unit, sums, static_cast<int>(std::min<int64_t>(Rows, dg.cols - unit)));
  }
}

// accumulate_narrow for a panel `width` (1-8) features wide.
template <int Width = 8>
void accumulate_narrow_any(int width, const float* features, int64_t ldf, const UnitPanels& dg, int64_t u0,
                           int64_t n, int64_t col, float* d_w) {
  if constexpr (Width > 1)
    if (width < Width) return accumulate_narrow_any<Width - 1>(width, features, ldf, dg, u0, n, col, d_w);
  accumulate_narrow<Width>(features, ldf, dg, u0, n, col, d_w);
}
#endif

// d_w rows [u0, u0 + dg.cols) (each v.cols wide) += dG^T v over a block's rows, on BackwardTile's
// tiles: a tile's rows are units, broadcast from a panel of dG's units (UnitPanels: a tile's
// rows of units, consecutive down the block's rows, 32 bytes a row with AVX-512), its vectors are
// features, v's packed columns (FeaturePanels). A panel of features (a block's 128 rows x 48
// floats, 24 KB) stays in L1 while every panel of units (4 KB) passes through it. Broadcasting
// from panels of 48 units instead (each row 192 bytes, of which a tile reads 32: with the features
// 48 KB, the whole L1) took 5% longer (the GRU's layer 2 at batch 64: 448,000-457,000 ticks per
// step against 420,000-433,000, issue 28, gru13); broadcasting from the kept rows (a new cache line for every row, 3.2 KB apart at the seed's
// H = 200) ran it at about half its rate. A tile row is one unit's features, adjacent in its row of
// d_w, and is added to it a vector at a time; the other way round (rows features, vectors units,
// as until issue 28's fourth round) each output was added on its own, a scalar per element: on
// 16-float tiles, over a block's 128 rows, about a sixth of the time of the tile's FMAs.
// Each element of dW is summed over the block's rows in their order, then added: the same sums
// whatever the panels' layout or the loops' order.
inline void accumulate_weights(const FeaturePanels& v, const UnitPanels& dg, int64_t u0, float* d_w) {
  typedef BackwardTile Tile;
  alignas(64) float c[Tile::kRows * Tile::kColumns];
  const int64_t rows = v.rows, n = v.cols;
  int64_t v_offset = 0;
  for (int64_t col = 0; col < n; col += Tile::kColumns) {
    const int64_t width = std::min<int64_t>(Tile::kColumns, n - col), ldc = v.stride(width);
    const int nv = static_cast<int>(ldc / Tile::kLanes);
    const float* features = v.data.data() + v_offset;
#if defined(__AVX512F__)
    if (width <= kLanes) {  // half a vector or less: the units on the vectors (accumulate_narrow)
      accumulate_narrow_any(static_cast<int>(width), features, ldc, dg, u0, n, col, d_w);
      v_offset += rows * ldc;
      continue;
    }
#endif
    for (int64_t unit = 0; unit < dg.cols; unit += Tile::kRows) {
      const int count = static_cast<int>(std::min<int64_t>(Tile::kRows, dg.cols - unit));
      const float* gradients = dg.data.data() + unit * rows;  // a panel of kRows units, rows x kRows
      tile_any<Tile>(count, nv, Transposed{gradients, Tile::kRows}, rows, features, c);
      for (int i = 0; i < count; ++i) {
        float* out = d_w + (u0 + unit + i) * n + col;
        const float* sums = c + i * ldc;
        for_each_vector(width, [&](auto zero, int64_t f, int w) {
          typedef decltype(zero) V;
          store(out + f, load<V>(out + f, w) + load<V>(sums + f, w), w);
        });
      }
    }
    v_offset += rows * ldc;
  }
}

// d_b[u0, u0 + dg.cols) += the column sums of dG's rows, from its panels of units (UnitPanels:
// a panel's rows consecutive, so one vector of a tile's rows of units per row). Each unit is
// summed over the block's rows in their order, from zero, then added: the sums of the kept rows
// read a column at a time (a new cache line every row, 3.2 KB apart at H = 200), which took 3% of
// the GRU's backward, in the same order. Four panels are summed side by side: one panel's sum is a
// chain of dependent adds (128 per block, each waiting out the adder's latency), four are
// independent chains the core overlaps, each in the same order as alone, so the same bits.
inline void accumulate_sums(const UnitPanels& dg, int64_t u0, float* d_b) {
  constexpr int Rows = BackwardTile::kRows, Chains = 4;
  typedef float Sum __attribute__((vector_size(Rows * sizeof(float))));
  const int64_t panel_size = Rows * dg.rows;
  auto add = [&](int64_t unit, Sum sum) {
    const int count = static_cast<int>(std::min<int64_t>(Rows, dg.cols - unit));
    for (int i = 0; i < count; ++i) d_b[u0 + unit + i] += sum[i];
  };
  int64_t unit = 0;
  for (; unit + Chains * Rows <= dg.cols; unit += Chains * Rows) {
    const float* panel = dg.data.data() + unit * dg.rows;
    Sum sums[Chains] = {};
    for (int64_t k = 0; k < dg.rows; ++k)
#pragma GCC unroll 4
      for (int c = 0; c < Chains; ++c) {
        Sum row;
        std::memcpy(&row, panel + c * panel_size + k * Rows, sizeof row);
        sums[c] += row;
      }
    for (int c = 0; c < Chains; ++c) add(unit + c * Rows, sums[c]);
  }
  for (; unit < dg.cols; unit += Rows) {
    const float* panel = dg.data.data() + unit * dg.rows;
    Sum sum = {};
    for (int64_t k = 0; k < dg.rows; ++k) {
      Sum row;
      std::memcpy(&row, panel + k * Rows, sizeof row);
      sum += row;
    }
    add(unit, sum);
  }
}

}  // namespace
