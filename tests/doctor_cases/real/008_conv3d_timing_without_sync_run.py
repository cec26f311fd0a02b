# source: https://github.com/pytorch/pytorch/issues/33044
# explain: run_net
# dynamic: none
# Runnable copy of 008_conv3d_timing_without_sync.py for levelbench.explain: smallest sizes that keep the pattern.

import torch as t


class Net(t.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv3d = t.nn.Conv3d(3, 3, (2, 3, 3))

    def forward(self, x):
        x = self.conv3d(x)
        return x


net = Net()
net.eval()


# The timed statement of the issue, on CPU and a smaller video.
def run_net(net, video):
    with t.no_grad():
        return net(video)


def run_net_args():
    return (net, t.empty(2, 3, 8, 32, 32).normal_())
