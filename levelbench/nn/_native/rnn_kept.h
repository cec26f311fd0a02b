// What a training forward keeps for its backward, laid out by blocks of 8 units: lstm_cpu.cc's
// gates i, f, g, o, gru_cpu.cc's r, z, n and W_hn h + b_hn. Step by step, block by
// block, row by row, a row's values of a block's units lie together (4 values: 32 floats, two
// whole 64-byte lines), in the order the forward's tile produces them, so that the forward writes
// them as one sequential stream of whole lines and the backward reads them back in the same order
// (units outside, rows inside). In rows of [v0 | v1 | ...] of values * H floats the forward wrote
// one partial line per value, row and block, each a row apart
// (docs/notes/2026-12-03-rnn-peak-accounting.md, "The kept activations by blocks of units").
// A cell derives from KeptByBlocks to use these.

#pragma once

#include "rnn_cpu.h"

namespace {

struct KeptByBlocks {
  // Where, among the kept values of `values` per unit (an LSTM's 4 gates, a GRU's r, z, n and
  // W_hn h + b_hn), the first of
  // unit j at step t and row b lies; its others follow width(H, j) floats apart. Every block before
  // j's holds 8 units, so the kept values fill T * B * values * H floats exactly, the last block
  // ragged where 8 does not divide H, and the layout is the same whatever the thread count.
  static int64_t kept_offset(int64_t B, int64_t H, int values, int64_t t, int64_t b, int64_t j) {
    const int64_t j0 = j / kLanes * kLanes;
    return (t * H + j0) * B * values + b * values * width(H, j) + (j - j0);
  }

  // The units in unit j's block.
  static int64_t width(int64_t H, int64_t j) { return std::min<int64_t>(kLanes, H - j / kLanes * kLanes); }

  // Lanes [8 h, 8 h + 8) of a, then of b: two gates of one block's units, one cache line.
  template <int h>
  static vf16 line_of(vf16 a, vf16 b) {
    constexpr int a0 = 8 * h, b0 = 16 + 8 * h;
    return __builtin_shufflevector(a, b, a0, a0 + 1, a0 + 2, a0 + 3, a0 + 4, a0 + 5, a0 + 6, a0 + 7, b0, b0 + 1,
                                   b0 + 2, b0 + 3, b0 + 4, b0 + 5, b0 + 6, b0 + 7);
  }

  // Stores values[0..Values) of n units from unit j (a block's first), at step t and row b: a V of
  // 16 units is two blocks, B * Values * 8 floats apart.
  template <typename V, int Values>
  static void keep(float* kept, int64_t B, int64_t H, int64_t t, int64_t b, int64_t j, int n,
                   const V (&values)[Values]) {
    constexpr int kHalves = lanes_of<V> / kLanes;
    if constexpr (kHalves == 2 && Values == 4) {
      if (n == lanes_of<V>) {  // two full blocks: a row's 32 floats in each are two whole lines
        float* at = kept + kept_offset(B, H, Values, t, b, j);
        float* next = at + B * Values * kLanes;
        store(at, line_of<0>(values[0], values[1]));
        store(at + 2 * kLanes, line_of<0>(values[2], values[3]));
        store(next, line_of<1>(values[0], values[1]));
        store(next + 2 * kLanes, line_of<1>(values[2], values[3]));
        return;
      }
    }
    for (int h = 0; h < kHalves && h * kLanes < n; ++h) {
      const int64_t u = j + h * kLanes, w = width(H, u);
      float* at = kept + kept_offset(B, H, Values, t, b, u);
      for (int v = 0; v < Values; ++v) {
        vf half[kHalves];
        std::memcpy(half, &values[v], sizeof half);
        store(at + v * w, half[h], static_cast<int>(w));
      }
    }
  }

  // n units of a kept value, from `at` in one block's row: 8 or fewer, or with a V of 16 two full
  // blocks' 8, the second `values` * B * 8 floats further.
  template <typename V>
  static V kept(const float* at, int64_t values_b, int n) {
    if constexpr (lanes_of<V> == kLanes) {
      return load(at, n);
    } else {
      static_assert(lanes_of<V> == 2 * kLanes, "kept values are read 8 or 16 units at a time");
      const vf low = load(at), high = load(at + values_b * kLanes);
      return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }
  }
};

}  // namespace
