import time, psutil
from ycsbctl.telemetry.container import ContainerSampler

def _dockerd_cpu():
    return sum(sum(p.cpu_times()[:2]) for p in psutil.process_iter(["name"]) if p.info["name"] in ("dockerd", "containerd", "containerd-shim-runc-v2", "containerd-shim"))

def test_cost(docker_redis):
    import docker
    c = docker.from_env()
    for i in range(3):
        t = time.monotonic(); c.api.stats(docker_redis.container_id, stream=False, one_shot=True); print("oneshot call wall", time.monotonic() - t)
    t = time.monotonic(); c.api.stats(docker_redis.container_id, stream=False); print("two-cycle call wall", time.monotonic() - t)
    for mode in ("oneshot", "stream"):
        s = ContainerSampler(docker_redis.container_id, interval_s=1.0, mode=mode)
        d0 = _dockerd_cpu(); t0 = time.monotonic()
        s.start(); time.sleep(30); f = s.stop()
        el = time.monotonic() - t0; d1 = _dockerd_cpu()
        print(f"{mode}: rows={len(f)} sampler cpu_s={s.cpu_s:.3f} ({100*s.cpu_s/el:.3f}% of a core) docker-side cpu={d1-d0:.3f}s ({100*(d1-d0)/el:.2f}%) warn={s.warning}")
        print(f["t_mono"].diff().describe()[["mean","min","max"]].to_dict(), f["cpu_pct"].round(2).tolist()[:8])
