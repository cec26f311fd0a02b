# source: https://github.com/pytorch/pytorch/issues/18012
# title: Using torch.cuda.synchronize causes 6 times slower.
# established-by: maintainer soumith
# cause: Without synchronisation the loop timed only asynchronous kernel launches; the synchronised number is the real one (the maintainer pointed to the forum answer on CUDA asynchrony).
# static: LB100
# dynamic: LB280, LB281
# inferred: LB100 (`def test_speed:` is not valid Python, so nothing else can be checked); LB280 (the model is called with autograd on); LB281 (`bn.eval()` instead of `model.eval()` leaves the model, with its batch norm, in training mode)
# lines: LB100:10

def test_speed:
    sum_time = list()
    model = MyNetwork(30).cuda()
    bn.eval()
    for i in range(50):
        data = torch.randn(1, 3, 768, 768).cuda()
        torch.cuda.synchronize()
        torch.cuda.synchronize()
        start = time.perf_counter()
        output = model(data)
        # torch.cuda.synchronize()
        end = time.perf_counter()
        print(end - start)
        if i >= 10:
            sum_time.append(end - start)
    print('mean time: ', np.mean(sum_time), 'FPS: ', 1 / np.mean(sum_time))
