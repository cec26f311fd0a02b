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

constexpr int64_t kBlockRows = 128;

int64_t block_steps(int64_t T, int64_t B) {
  return std::max<int64_t>(1, std::min<int64_t>(T, kBlockRows / std::max<int64_t>(B, 1)));
}

// A block's rows of an (rows, cols) operand, packed into panels of BackwardTile's columns (24 or 48;
// the last one zero up to a whole number of vectors):
// the states or inputs of a block of steps, and this thread's columns of its gate gradients. row(k)
// points at row k; the rows of a block are not contiguous (one step's B rows each). Holds up to
// max_rows rows of max_cols columns.
struct RowPanels {
  RowPanels(int64_t max_rows, int64_t max_cols) : data(max_rows * BackwardTile::padded(max_cols)) {}

  template <typename Row>
  void pack(int64_t count, int64_t width, Row row) {
    rows = count;
    cols = width;
    int64_t offset = 0;
    for (int64_t col = 0; col < cols; col += BackwardTile::kColumns) {
      const int64_t width = std::min<int64_t>(BackwardTile::kColumns, cols - col);
      const int64_t padded = BackwardTile::padded(width);
      for (int64_t k = 0; k < count; ++k) {
        const float* source = row(k) + col;
        float* out = data.data() + offset + k * padded;
        std::copy(source, source + width, out);
        std::fill(out + width, out + padded, 0.0f);
      }
      offset += count * padded;
    }
  }

  int64_t rows = 0, cols = 0;
  Floats data;
};

// d_w rows [u0, u0 + dg.cols) (each v.cols wide) += dG^T v over a block's rows, on BackwardTile's
// tiles: a tile's rows are units, broadcast from dG's packed columns (a 96- or 192-byte stride
// down the block's rows), its vectors are features, v's packed columns. Broadcasting from the kept
// rows instead (a new cache line for every row, 3.2 KB apart at the seed's H = 200) ran the tile
// at about half its rate. A tile row is then one unit's features, adjacent in its row of d_w, and
// is added to it a vector at a time; the other way round (rows features, vectors units, as until
// issue 28's fourth round) each output was added on its own, a scalar per element: on 16-float
// tiles, over a block's 128 rows, about a sixth of the time of the tile's FMAs.
// Each element of dW is summed over the block's rows in their order, then added: the same sums
// either way round.
inline void accumulate_weights(const RowPanels& v, const RowPanels& dg, int64_t u0, float* d_w) {
  typedef BackwardTile Tile;
  alignas(64) float c[Tile::kRows * Tile::kColumns];
  const int64_t rows = v.rows, n = v.cols;
  int64_t g_offset = 0;
  for (int64_t unit = 0; unit < dg.cols; unit += Tile::kColumns) {
    const int64_t units = std::min<int64_t>(Tile::kColumns, dg.cols - unit), ldg = Tile::padded(units);
    const float* gradients = dg.data.data() + g_offset;
    int64_t v_offset = 0;
    for (int64_t col = 0; col < n; col += Tile::kColumns) {
      const int64_t width = std::min<int64_t>(Tile::kColumns, n - col), ldc = Tile::padded(width);
      const int nv = static_cast<int>(ldc / Tile::kLanes);
      const float* features = v.data.data() + v_offset;
      for (int64_t j = 0; j < units; j += Tile::kRows) {
        const int count = static_cast<int>(std::min<int64_t>(Tile::kRows, units - j));
        tile_any<Tile>(count, nv, Transposed{gradients + j, ldg}, rows, features, c);
        for (int i = 0; i < count; ++i) {
          float* out = d_w + (u0 + unit + j + i) * n + col;
          const float* sums = c + i * ldc;
          for_each_vector(width, [&](auto zero, int64_t f, int w) {
            typedef decltype(zero) V;
            store(out + f, load<V>(out + f, w) + load<V>(sums + f, w), w);
          });
        }
      }
      v_offset += rows * ldc;
    }
    g_offset += rows * ldg;
  }
}

// d_b[u0, u1) += the column sums of A's rows, A's element (k, u) at a[k * lda + u].
inline void accumulate_sums(const float* a, int64_t lda, int64_t rows, int64_t u0, int64_t u1, float* d_b) {
  for (int64_t u = u0; u < u1; u += kLanes) {
    const int w = static_cast<int>(std::min<int64_t>(kLanes, u1 - u));
    vf sum = {};
    for (int64_t k = 0; k < rows; ++k) sum += load(a + k * lda + u, w);
    store(d_b + u, load(d_b + u, w) + sum, w);
  }
}

}  // namespace
