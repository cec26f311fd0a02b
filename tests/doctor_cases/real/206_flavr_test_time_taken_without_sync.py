# source: https://github.com/tarun005/FLAVR/issues/14
# title: Questions about the inference time
# established-by: maintainer tarun005 (issue labelled bug; 'You are right that this is not an accurate reflection of the total computation time'), after the issue author measured 0.004 s per sample with the repository's test script and 0.195 s with `torch.cuda.synchronize()` added ('CUDA calls are async')
# cause: test.py reports the mean of `time.time()` intervals around FLAVR's forward on the GPU (`out = model(images)` and two `torch.cat`s), with nothing waiting for the kernels before the clock stops; the interval is the time to queue the 3D U-Net's work. The next synchronizing point is `myutils.eval_metrics` after the clock has stopped. The maintainer first ascribed the gap to the host-to-device copy of the input frames; the author answered that those copies are made (and were synchronized) before the clock starts. Code: test.py as stored (commit 2fa8beb); the screenshots of the script could not be read here, and this version times the forward as the thread describes.
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval timer; not discussed)
# lines: LB116:71, LB105:70
# first-sight: 88e72af 2026-12-03 py: found LB105:70; missed LB116:71; false LB116:74 | notebook: found LB105:70; missed LB116:71; false LB116:74

import os
import sys
import time
import copy
import shutil
import random
import pdb

import torch
import numpy as np
from tqdm import tqdm
from torch.utils.tensorboard import SummaryWriter

import config
import myutils

from torch.utils.data import DataLoader

##### Parse CmdLine Arguments #####
os.environ["CUDA_VISIBLE_DEVICES"]='7'
args, unparsed = config.get_args()
cwd = os.getcwd()

device = torch.device('cuda' if args.cuda else 'cpu')

torch.manual_seed(args.random_seed)
if args.cuda:
    torch.cuda.manual_seed(args.random_seed)

if args.dataset == "vimeo90K_septuplet":
    from dataset.vimeo90k_septuplet import get_loader
    test_loader = get_loader('test', args.data_root, args.test_batch_size, shuffle=False, num_workers=args.num_workers)
elif args.dataset == "gopro":
    from dataset.GoPro import get_loader
    test_loader = get_loader(args.data_root, args.test_batch_size, shuffle=False, num_workers=args.num_workers, test_mode=True, interFrames=args.n_outputs)    
else:
    raise NotImplementedError


from model.Unet_3D_3D_interpolate import UNet_3D_3D
print("Building model: %s"%args.model.lower())
model = UNet_3D_3D(args.model.lower() , n_inputs=args.nbr_frame, n_outputs=args.n_outputs, joinType=args.joinType)

model = torch.nn.DataParallel(model).to(device)
print("#params" , sum([p.numel() for p in model.parameters()]))


def test(args):
    time_taken = []
    losses, psnrs, ssims = myutils.init_meters(args.loss)
    model.eval()

    psnr_list = []
    with torch.no_grad():
        for i, (images, gt_image ) in enumerate(tqdm(test_loader)):

            images = [img_.cuda() for img_ in images]
            gt = [g_.cuda() for g_ in gt_image]

            start_time = time.time()
            out = model(images)

            out = torch.cat(out)
            gt = torch.cat(gt)

            time_taken.append(time.time() - start_time)

            myutils.eval_metrics(out, gt, psnrs, ssims)

    print("PSNR: %f, SSIM: %fn" %
          (psnrs.avg, ssims.avg))
    print("Time , " , sum(time_taken)/len(time_taken))

    return psnrs.avg


""" Entry Point """
def main(args):
    
    assert args.load_from is not None

    model_dict = model.state_dict()
    model.load_state_dict(torch.load(args.load_from)["state_dict"] , strict=True)
    test(args)


if __name__ == "__main__":
    main(args)
