# source: https://github.com/LitingLin/SwinTrack/issues/18
# title: Hello!About the track speed evaluation: time stamps set before and after tracking a single frame do not give the speed the paper reports; the maintainer's answer is to run 100 times and take the average, pointing at SwinTrack's `TrackerEfficiencyAssessor`
# established-by: maintainer LitingLin (SwinTrack's author: 'Run 100 times and take the average', linking `core/run/profiler/efficiency_assessor.py`, the code that measured the paper's speed)
# cause: Correct code: the maintainer's answer to a per-frame timing is this assessor, which times the model the way the catalogue asks. Each measurement runs `model.initialize` or `model.track` 100 times under `torch.no_grad()` between two `time.perf_counter()` reads, with `torch.cuda.synchronize()` before the first read and before the second when the pseudo data is on CUDA, and reports the mean per call; `_test_fps` puts the model in eval mode and runs each loop once with 10 iterations first, a warm-up whose figure is overwritten, before the 100-iteration run it reports. The `initialize` call before the track loop prepares the template features outside the clock reads; the FLOP counting class times nothing. Code: the file as stored at commit e126ae9 (the thread links it at 4b88bcf; only one version is stored), unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import torch
import time
from fvcore.nn import FlopCountAnalysis, flop_count_table


class ModelFlopCountAnalysis:
    def __init__(self, model, pseudo_data_source):
        self.fv_flop_count_analysis_init = FlopCountAnalysis(model, pseudo_data_source.get_init(1))
        self.fv_flop_count_analysis_track = FlopCountAnalysis(model, pseudo_data_source.get_track(1))

    def get_flop_count_table_init(self):
        return flop_count_table(self.fv_flop_count_analysis_init)

    def get_flop_count_table_track(self):
        return flop_count_table(self.fv_flop_count_analysis_track)

    def get_model_mac_init(self):
        return self.fv_flop_count_analysis_init.total()

    def get_model_mac_track(self):
        return self.fv_flop_count_analysis_track.total()


class TrackerEfficiencyAssessor:
    def __init__(self, pseudo_data_source):
        self.pseudo_data_source = pseudo_data_source
        self.batch = 1
        self.flop_count_analysis = None

    def _run_init_loops(self, model, batch, loops):
        init_params, track_params = self.pseudo_data_source.get_eval(batch)
        if self.pseudo_data_source.is_cuda():
            torch.cuda.synchronize()
        begin = time.perf_counter()
        for _ in range(loops):
            with torch.no_grad():
                if isinstance(init_params, (list, tuple)):
                    z_feat = model.initialize(*init_params)
                elif isinstance(init_params, dict):
                    z_feat = model.initialize(**init_params)
                else:
                    z_feat = model.initialize(init_params)
        if self.pseudo_data_source.is_cuda():
            torch.cuda.synchronize()
        end = time.perf_counter()
        return (end - begin) / loops

    def _run_track_loops(self, model, batch, loops):
        init_params, track_params = self.pseudo_data_source.get_eval(batch)
        track_args = []
        track_kwargs = {}
        with torch.no_grad():
            if isinstance(init_params, (list, tuple)):
                z_feat = model.initialize(*init_params)
            elif isinstance(init_params, dict):
                z_feat = model.initialize(**init_params)
            else:
                z_feat = model.initialize(init_params)
        track_args.append(z_feat)
        if isinstance(track_params, (list, tuple)):
            track_args.extend(track_params)
        elif isinstance(track_params, tuple):
            track_kwargs.update(track_params)
        else:
            track_args.append(track_params)
        if self.pseudo_data_source.is_cuda():
            torch.cuda.synchronize()
        begin = time.perf_counter()
        for _ in range(loops):
            with torch.no_grad():
                model.track(*track_args, **track_kwargs)
        if self.pseudo_data_source.is_cuda():
            torch.cuda.synchronize()
        end = time.perf_counter()
        return (end - begin) / loops

    def _test_fps(self, batch, model):
        is_train = model.training
        if is_train:
            model.eval()

        init_time = self._run_init_loops(model, batch, 10)
        init_time = self._run_init_loops(model, batch, 100)
        track_time = self._run_track_loops(model, batch, 10)
        track_time = self._run_track_loops(model, batch, 100)

        if is_train:
            model.train()

        return batch / init_time, batch / track_time

    def get_batch(self):
        return self.batch

    def test_fps(self, model):
        return self._test_fps(1, model)

    def test_fps_batched(self, model):
        return self._test_fps(self.batch, model)

    def get_flop_count_analysis(self, model):
        return ModelFlopCountAnalysis(model, self.pseudo_data_source)
