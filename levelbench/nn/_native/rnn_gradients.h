// Weight gradients inside the backward loops of levelbench's native RNN kernels (gru_cpu.cc,
// lstm_cpu.cc), a chunk of steps at a time, on the vectors, buffers and tiles of rnn_cpu.h.
//
// dW = sum_t dG_t^T v_t (v: the step's input x_t or previous state h_{t-1}) was one large XLA GEMM
// over all T * B rows after the loop, reading back (T, B, gates * H) gradients the loop had
// written out. Instead each thread keeps the gate gradients of the last chunk of steps (about
// kChunkRows rows) and, every chunk, adds dG_chunk^T v_chunk to its own rows of dW: no
// (T, B, gates * H) array leaves the kernel, and XLA maps no temporaries for it.
// The sums run block by block (about kBlockRows rows each): each element of dW gets a block's sum
// after the block before's. Block and chunk boundaries depend only on T and B, so the sums run in
// the same order whatever the thread count, and the chunk's size changes their speed, not their
// order (a chunk is a whole number of blocks).
// Until issue 28's sixth round the chunk was one block: each thread's rows of dW (1.28 MB for the
// seed's second LSTM layer), read and written back once per block of 128 rows, came from beyond
// L2 every time (the backward's weight panels and kept rows evict them between blocks), and the
// sums ran at 35-42 GFLOP/s at batch 64 against 76-124 in isolation.

#pragma once

#include "rnn_cpu.h"

namespace {

constexpr int64_t kBlockRows = 128;

// Rows of gate gradients kept before they are summed into dW, a whole number of blocks. Memory,
// per thread: the kept rows (4H floats each), their packed columns (the thread's share of 4H) and
// the chunk's packed states and inputs (H + I each); at the seed's sizes (H = I = 200) 8 KB a
// row, so 8.4 MB at 1024 rows, whatever the sequence's length. Set by -DLEVELBENCH_RNN_CHUNK_ROWS
// to measure others (docs/design/lstm.md).
#if defined(LEVELBENCH_RNN_CHUNK_ROWS)
constexpr int64_t kChunkRows = LEVELBENCH_RNN_CHUNK_ROWS;
#else
constexpr int64_t kChunkRows = 1024;
#endif

// Steps per block of the sums: their order.
int64_t block_steps(int64_t T, int64_t B) {
  return std::max<int64_t>(1, std::min<int64_t>(T, kBlockRows / std::max<int64_t>(B, 1)));
}

// Steps per chunk: a whole number of blocks of block_steps(T, B), or all T steps.
int64_t chunk_steps(int64_t T, int64_t B) {
  const int64_t block = block_steps(T, B);
  const int64_t blocks = std::max<int64_t>(1, kChunkRows / (block * std::max<int64_t>(B, 1)));
  return std::min<int64_t>(T, block * blocks);
}

// A chunk's rows of an (rows, cols) operand, packed into panels of BackwardTile's columns (24 or 48;
// the last one zero up to a whole number of vectors):
// the states or inputs of a chunk of steps, and this thread's columns of its gate gradients. row(k)
// points at row k; the rows of a chunk are not contiguous (one step's B rows each). Holds up to
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

// d_w rows [u0, u0 + dg.cols) (each v.cols wide) += dG^T v over a chunk's rows, block by block
// (`block_rows` rows each, the last one maybe short), on BackwardTile's tiles: a tile's rows are
// units, broadcast from dG's packed columns (a 96- or 192-byte stride down the rows), its vectors
// are features, v's packed columns. Broadcasting from the kept rows instead (a new cache line for
// every row, 3.2 KB apart at the seed's H = 200) ran the tile at about half its rate. A tile row is
// then one unit's features, adjacent in its row of d_w, and is added to it a vector at a time; the
// other way round (rows features, vectors units, as until issue 28's fourth round) each output was
// added on its own, a scalar per element: on 16-float tiles, over 128 rows, about a sixth of the
// time of the tile's FMAs.
// Each element of dW is summed over a block's rows in their order, then added, block after block:
// the order of the sums is the blocks', whatever the chunk. The loops run a group of units (one
// panel of dG's columns) through every block of the chunk before the next group, so that the
// group's rows of d_w (48 units x the features, 38 KB at H = 200) stay in L1/L2 across the chunk
// and are read from memory and written back once per chunk instead of once per block; within a
// block the tile's operands (128 rows of 48 units and of 48 features, 24 KB each) fit L1.
inline void accumulate_weights(const RowPanels& v, const RowPanels& dg, int64_t u0, int64_t block_rows,
                               float* d_w) {
  typedef BackwardTile Tile;
  alignas(64) float c[Tile::kRows * Tile::kColumns];
  const int64_t rows = v.rows, n = v.cols;
  int64_t g_offset = 0;
  for (int64_t unit = 0; unit < dg.cols; unit += Tile::kColumns) {
    const int64_t units = std::min<int64_t>(Tile::kColumns, dg.cols - unit), ldg = Tile::padded(units);
    for (int64_t k0 = 0; k0 < rows; k0 += block_rows) {
      const int64_t k = std::min<int64_t>(block_rows, rows - k0);
      const float* gradients = dg.data.data() + g_offset + k0 * ldg;
      int64_t v_offset = 0;
      for (int64_t col = 0; col < n; col += Tile::kColumns) {
        const int64_t width = std::min<int64_t>(Tile::kColumns, n - col), ldc = Tile::padded(width);
        const int nv = static_cast<int>(ldc / Tile::kLanes);
        const float* features = v.data.data() + v_offset + k0 * ldc;
        for (int64_t j = 0; j < units; j += Tile::kRows) {
          const int count = static_cast<int>(std::min<int64_t>(Tile::kRows, units - j));
          tile_any<Tile>(count, nv, Transposed{gradients + j, ldg}, k, features, c);
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
    }
    g_offset += rows * ldg;
  }
}

// d_b[u0, u1) += the column sums of A's rows, A's element (k, u) at a[k * lda + u], block by
// block (`block_rows` rows each) like accumulate_weights.
inline void accumulate_sums(const float* a, int64_t lda, int64_t rows, int64_t u0, int64_t u1, int64_t block_rows,
                            float* d_b) {
  for (int64_t k0 = 0; k0 < rows; k0 += block_rows) {
    const int64_t k1 = std::min<int64_t>(rows, k0 + block_rows);
    for (int64_t u = u0; u < u1; u += kLanes) {
      const int w = static_cast<int>(std::min<int64_t>(kLanes, u1 - u));
      vf sum = {};
      for (int64_t k = k0; k < k1; ++k) sum += load(a + k * lda + u, w);
      store(d_b + u, load(d_b + u, w) + sum, w);
    }
  }
}

}  // namespace
