// What this build of the native RNN kernels runs: the instruction set its vector code compiles
// to and each register tile's shape, asked by ../_rnn_native.py (`Status.kernel`) so that a
// benchmark reports what ran rather than guessing it from the CPU's flags.

#include "rnn_cpu.h"

extern "C" const char* levelbench_rnn_kernel_info() {
  static const std::string info = std::string("isa=") + kIsa +
                                  ";lstm_forward=" + describe_tile<LstmForwardTile>() +
                                  ";gru_forward=" + describe_tile<GruForwardTile>() +
                                  ";backward=" + describe_tile<BackwardTile>();
  return info.c_str();
}
