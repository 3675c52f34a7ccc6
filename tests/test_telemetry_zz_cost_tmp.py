import time, psutil
from ycsbctl.telemetry.container import ContainerSampler

def _dockerd_cpu():
    return sum(sum(p.cpu_times()[:2]) for p in psutil.process_iter(["name"]) if p.info["name"] in ("dockerd", "containerd", "containerd-shim-runc-v2", "containerd-shim"))

def test_cost(docker_redis, docker_client):
    print(docker_client.version()["Version"], docker_client.version()["ApiVersion"])
    for mode in ("none", "stream", "oneshot", "none", "stream", "oneshot"):
        d0 = _dockerd_cpu(); t0 = time.monotonic()
        if mode == "none":
            time.sleep(30); cpu = 0
        else:
            s = ContainerSampler(docker_redis.container_id, interval_s=1.0, mode=mode)
            s.start(); time.sleep(30); s.stop(); cpu = s.cpu_s
        el = time.monotonic() - t0; d1 = _dockerd_cpu()
        print(f"{mode}: sampler {100*cpu/el:.3f}% of a core, docker side {100*(d1-d0)/el:.3f}%")
