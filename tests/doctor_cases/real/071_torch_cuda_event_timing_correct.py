# source: https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution
# title: CUDA semantics (Asynchronous execution)
# established-by: maintainer pytorch (official PyTorch documentation)
# cause: Correct code: GPU work is timed with CUDA events recorded on the stream and read only after torch.cuda.synchronize(), the page's answer to timings that asynchronous CUDA execution would otherwise cut short.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

start_event = torch.cuda.Event(enable_timing=True)
end_event = torch.cuda.Event(enable_timing=True)
start_event.record()

# Run some things here

end_event.record()
torch.cuda.synchronize()  # Wait for the events to be recorded!
elapsed_time_ms = start_event.elapsed_time(end_event)
