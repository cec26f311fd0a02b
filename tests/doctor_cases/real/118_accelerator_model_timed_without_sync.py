# source: https://runebook.dev/ru/docs/pytorch/generated/torch.accelerator.synchronize
# title: Гид по torch.accelerator.synchronize: Укрощаем асинхронные вычисления (a guide to torch.accelerator.synchronize, its "typical timing mistake")
# established-by: answer by the guide's author (runebook.dev: the snippet is posted as the typical mistake, with its cause)
# cause: Work on an accelerator is queued and runs asynchronously: `model(input_data)` returns while the kernels still run, so `end - start` measures how fast Python queued the work, not how long the device took; the guide's fix is a synchronisation point (torch.accelerator.synchronize / torch.cuda.synchronize) before each clock read. Code: the guide's "typical mistake" snippet as posted (its Russian comments kept; `model` and `input_data` are not defined in it).
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock; the guide did not discuss it)
# lines: LB116:16, LB105:15
# first-sight: c3b020c 2026-12-02 py: found LB105:15; missed LB116:16; false none | notebook: found LB105:15; missed LB116:16; false none

import torch
import time

# Неправильный замер времени
start = time.time()
result = model(input_data) # Модель начала считать, но Python уже идет дальше
end = time.time()

print(f"Время выполнения: {end - start} сек") # Это будет неправдой!
