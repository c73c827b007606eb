#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py MICRO STREAM OUTDIR JSON [--drivers DRIVERS] [--kmem KMEM] [KEY=VALUE...]

Turns the raw results of bench/guest.sh (MICRO: lro_bench.ko's lines,
STREAM: one line per stream, request/response or mixed run) into the table that
'make bench' prints (OUTDIR/table.txt), the flat JSON object of every
figure (JSON), and the flow-scaling data for gnuplot (OUTDIR/scaling.dat).
DRIVERS: the lines of bench/drivers.sh (LRO off and on over e100,
usb-net and tun), when that guest ran. KMEM: the lines of bench/kmem.sh
(kernel memory per attached device, one per vCPU count), when those
guests ran. KEY=VALUE pairs (numbers) are
added to the JSON as they are: the run's context (host load, duration).
"""

import json
import statistics
import sys


def die(msg):
    sys.exit(f"report.py: {msg}")


def parse_kv(words):
    kv = {}
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            try:
                kv[k] = float(v)
            except ValueError:
                kv[k] = v
    return kv


def load_micro(path):
    """{(tag, path, flows, burst): line's values}"""
    res = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 3:
                continue
            kv = parse_kv(w[2:])
            if kv.get("ok") != 1:
                die(f"micro-benchmark case failed its checks: {line.strip()}")
            res[(w[0], w[1], int(kv["flows"]), int(kv["burst"]))] = kv
    return res


def load_stream(path):
    runs = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 2 or w[0] not in ("stream", "rr", "truesize", "driver", "mixed", "kmem"):
                continue
            kv = parse_kv(w[1:])
            kv["kind"] = w[0]
            runs.append(kv)
    return runs


def main():
    if len(sys.argv) < 5:
        die("usage: report.py MICRO STREAM OUTDIR JSON [--drivers DRIVERS] [--kmem KMEM] [KEY=VALUE...]")
    micro_path, stream_path, outdir, json_path = sys.argv[1:5]
    rest = sys.argv[5:]
    opts = {}
    while rest[:1] in (["--drivers"], ["--kmem"]) and len(rest) > 1:
        opts[rest[0]] = rest[1]
        rest = rest[2:]
    drivers_path = opts.get("--drivers")
    kmem_path = opts.get("--kmem")
    extra = parse_kv(rest)
    tuned_us = int(extra.get("lro_tuned_flush_timeout_us", 1000))
    micro = load_micro(micro_path)
    runs = load_stream(stream_path)
    out = {}

    def m(tag, path, flows, burst):
        try:
            return micro[(tag, path, flows, burst)]["ns_per_seg"]
        except KeyError:
            die(f"no micro-benchmark result for {tag} {path}:{flows}x{burst}")

    def pkts(tag, path, flows, burst):
        v = micro[(tag, path, flows, burst)]
        return v["segs_out"] / v["pkts"]

    # 1. per-segment cost
    out["cost_ns_lro"] = m("engine", "lro", 1, 64)
    out["cost_ns_gro"] = m("engine", "gro", 1, 64)
    out["cost_ratio_lro_vs_gro"] = out["cost_ns_lro"] / out["cost_ns_gro"]
    out["cost_ns_off"] = m("engine", "off", 1, 64)
    out["cost_ns_lro_engine_only"] = m("engine", "direct", 1, 64)
    out["cost_ns_sink"] = m("engine", "free", 1, 64)
    out["cost_ns_lro_8flows"] = m("engine", "lro", 8, 8)
    out["cost_ns_gro_8flows"] = m("engine", "gro", 8, 8)
    out["cost_ns_off_8flows"] = m("engine", "off", 8, 8)
    out["cost_ns_lro_engine_only_8flows"] = m("engine", "direct", 8, 8)
    out["cost_ratio_lro_vs_gro_8flows"] = out["cost_ns_lro_8flows"] / out["cost_ns_gro_8flows"]
    out["micro_segs_per_pkt_lro"] = pkts("engine", "lro", 1, 64)
    out["micro_segs_per_pkt_gro"] = pkts("engine", "gro", 1, 64)

    # 1b. the same engine without and with the null BPF merge policy, in
    # adjacent loads; lro_bench failed the case (ok=0) unless the policy
    # was asked once per packet started
    for flows, burst, sfx in ((1, 64, ""), (8, 8, "_8flows")):
        for name in ("none", "null"):
            out[f"policy_{name}_cost_ns{sfx}"] = m(f"policy_{name}", "lro", flows, burst)
        out[f"policy_null_cost_ratio{sfx}"] = \
            out[f"policy_null_cost_ns{sfx}"] / out[f"policy_none_cost_ns{sfx}"]
        v = micro[("policy_null", "lro", flows, burst)]
        out[f"policy_null_calls_per_pkt{sfx}"] = v["policy_calls"] / v["pkts"]
        out[f"policy_null_segs_per_pkt{sfx}"] = pkts("policy_null", "lro", flows, burst)

    # 2. flow scaling
    flows = sorted({k[2] for k in micro if k[3] == 8 and k[1] in ("lro", "gro")})
    scale = []
    for n in flows:
        row = [n]
        for tag, path, name in (("engine", "lro", "lro"), ("seed", "lro", "seed"),
                                ("engine", "gro", "gro")):
            if (tag, path, n, 8) in micro:
                v = m(tag, path, n, 8)
                out[f"scale_ns_{name}_{n}"] = v
                row.append(v)
            else:
                row.append(float("nan"))
        scale.append(row)
    for name in ("lro", "seed", "gro"):
        if f"scale_ns_{name}_4096" in out and f"scale_ns_{name}_1" in out:
            out[f"{'flow' if name == 'lro' else name}_scaling_ratio_4096_vs_1"] = \
                out[f"scale_ns_{name}_4096"] / out[f"scale_ns_{name}_1"]
    for key in ("flow_scaling_ratio_4096_vs_1", "seed_scaling_ratio_4096_vs_1"):
        if key not in out:
            die(f"flow scaling results incomplete ({key})")
    with open(f"{outdir}/scaling.dat", "w") as f:
        f.write("# flows  lro_ns  seed_ns  gro_ns  (per segment, 8 segments per flow per flush)\n")
        for row in scale:
            f.write(" ".join(f"{x:g}" for x in row) + "\n")

    # 3./4. streams
    streams = [r for r in runs if r["kind"] == "stream"]
    rrs = [r for r in runs if r["kind"] == "rr"]

    def sel(kind_runs, cfg):
        s = [r for r in kind_runs if r["cfg"] == cfg]
        if not s:
            die(f"no {cfg} runs in {stream_path}")
        return s

    def med(kind_runs, cfg, key):
        return statistics.median(r[key] for r in sel(kind_runs, cfg))

    def lro_aggr(cfg):
        s = sel(streams, cfg)
        return sum(r["aggregated"] for r in s) / max(1, sum(r["flushed"] for r in s))

    def per_mb(r):
        return r["ip_rx"] / r["mb"]

    # The main figures come from 128 KB writes; w8_: the same with 8 KB
    # writes (PSH every ~6 segments).
    for p in ("", "w8_"):
        for cfg in ("off", "gro", "gro_tuned", "lro", "lro_tuned"):
            c = p + cfg
            out[f"{p}throughput_mbit_{cfg}"] = med(streams, c, "mbit_s")
            out[f"{p}ip_rx_per_mb_{cfg}"] = statistics.median(per_mb(r) for r in sel(streams, c))
            out[f"{p}segs_per_ip_rx_{cfg}"] = statistics.median(r["segs"] / r["ip_rx"]
                                                                for r in sel(streams, c))
        for cfg in ("off", "gro", "gro_tuned", "lro", "lro_tuned"):
            for k in ("retrans", "ofo", "collapsed"):
                out[f"{p}tcp_{k}_{cfg}"] = sum(r.get(k, 0) for r in sel(streams, p + cfg))
        out[f"{p}aggregation_ratio_default"] = lro_aggr(p + "lro")
        out[f"{p}aggregation_ratio"] = lro_aggr(p + "lro_tuned")
        out[f"{p}ip_rx_reduction"] = out[f"{p}ip_rx_per_mb_off"] / out[f"{p}ip_rx_per_mb_lro_tuned"]
        out[f"{p}gro_aggregation_ratio_default"] = out[f"{p}segs_per_ip_rx_gro"]
        out[f"{p}gro_aggregation_ratio"] = out[f"{p}segs_per_ip_rx_gro_tuned"]
        best_lro = max(out[f"{p}throughput_mbit_lro"], out[f"{p}throughput_mbit_lro_tuned"])
        best_gro = max(out[f"{p}throughput_mbit_gro"], out[f"{p}throughput_mbit_gro_tuned"])
        out[f"{p}throughput_ratio_lro_vs_gro"] = best_lro / best_gro
        out[f"{p}throughput_ratio_lro_vs_off"] = best_lro / out[f"{p}throughput_mbit_off"]
        out[f"{p}throughput_ratio_lro_vs_gro_default"] = \
            out[f"{p}throughput_mbit_lro"] / out[f"{p}throughput_mbit_gro"]
        for name in ("lro", "gro"):
            out[f"{p}throughput_ratio_{name}_vs_off_default"] = \
                out[f"{p}throughput_mbit_{name}"] / out[f"{p}throughput_mbit_off"]

    # The same stream over IPv6 (128 KB writes): no offload, LRO tuned.
    for cfg in ("off", "lro_tuned"):
        out[f"v6_throughput_mbit_{cfg}"] = med(streams, "v6_" + cfg, "mbit_s")
        out[f"v6_ip_rx_per_mb_{cfg}"] = statistics.median(per_mb(r)
                                                          for r in sel(streams, "v6_" + cfg))
    out["aggregation_ratio_v6"] = lro_aggr("v6_lro_tuned")
    out["ip_rx_reduction_v6"] = out["v6_ip_rx_per_mb_off"] / out["v6_ip_rx_per_mb_lro_tuned"]

    # Every LRO stream run of the bench, whatever its write size, flows or
    # hold timer: TCP must never have collapsed (copied) its receive queue.
    def base_cfg(cfg):
        return cfg.split("_", 1)[1] if cfg.split("_", 1)[0] in ("w8", "p8", "p64", "v6") else cfg
    for name in ("lro", "gro"):
        out[f"{name}_rcv_collapsed"] = sum(r.get("collapsed", 0) for r in streams
                                           if base_cfg(r["cfg"]).startswith(name))
        out[f"{name}_rcv_collapsed_runs"] = sum(1 for r in streams
                                                if base_cfg(r["cfg"]).startswith(name))

    # What TCP is handed: truesize per byte (bench/truesize.bpf.c)
    for r in runs:
        if r["kind"] == "truesize":
            if not r["bytes"]:
                die(f"the truesize probe saw nothing for {r['cfg']}")
            out[f"truesize_per_byte_{r['cfg']}"] = r["truesize"] / r["bytes"]
            out[f"truesize_pkts_{r['cfg']}"] = r["pkts"]

    # Parallel streams (p8_, p64_): the shipped defaults of each receiver
    flow_counts = sorted({int(r["cfg"][1:].split("_")[0]) for r in streams
                          if r["cfg"].startswith("p")})
    for n in flow_counts:
        for cfg in ("off", "gro", "lro"):
            c = f"p{n}_{cfg}"
            out[f"throughput_mbit_{cfg}_{n}flows"] = med(streams, c, "mbit_s")
            out[f"segs_per_ip_rx_{cfg}_{n}flows"] = statistics.median(
                r["segs"] / r["ip_rx"] for r in sel(streams, c))
            for k in ("retrans", "ofo"):
                out[f"tcp_{k}_{cfg}_{n}flows"] = sum(r.get(k, 0) for r in sel(streams, c))
        out[f"throughput_ratio_lro_vs_gro_{n}flows"] = \
            out[f"throughput_mbit_lro_{n}flows"] / out[f"throughput_mbit_gro_{n}flows"]
        out[f"throughput_ratio_lro_vs_off_{n}flows"] = \
            out[f"throughput_mbit_lro_{n}flows"] / out[f"throughput_mbit_off_{n}flows"]

    # 5. latency (the off runs of the sweep's reference count too)
    off_p50 = med(rrs, "off", "p50_us")
    off_p99 = med(rrs, "off", "p99_us")
    out["rr_p50_us_off"] = off_p50
    out["rr_p99_us_off"] = off_p99
    out["rr_p50_us_lro"] = med(rrs, "lro", "p50_us")
    out["rr_p99_us_lro"] = med(rrs, "lro", "p99_us")
    out["rr_latency_ratio_lro_vs_off"] = out["rr_p50_us_lro"] / off_p50
    out["rr_p99_ratio_lro_vs_off"] = out["rr_p99_us_lro"] / off_p99

    # 6. hold timer sweep
    sweep = sorted({int(r["cfg"][5:]) for r in runs
                    if r["cfg"].startswith("lro_t") and r["cfg"][5:].isdigit()})
    for t in sweep:
        cfg = f"lro_t{t}"
        out[f"sweep_aggr_{t}us"] = lro_aggr(cfg)
        out[f"sweep_aggr_w8_{t}us"] = lro_aggr("w8_" + cfg)
        out[f"sweep_throughput_mbit_{t}us"] = med(streams, cfg, "mbit_s")
        out[f"sweep_throughput_mbit_w8_{t}us"] = med(streams, "w8_" + cfg, "mbit_s")
        out[f"sweep_rr_p50_us_{t}us"] = med(rrs, cfg, "p50_us")
        out[f"sweep_rr_p99_us_{t}us"] = med(rrs, cfg, "p99_us")
        out[f"sweep_rr_p50_ratio_{t}us"] = out[f"sweep_rr_p50_us_{t}us"] / off_p50
        out[f"sweep_rr_p99_ratio_{t}us"] = out[f"sweep_rr_p99_us_{t}us"] / off_p99
        # Request/response segments carry PSH: none may wait for the timer.
        out[f"sweep_rr_timer_flushes_{t}us"] = sum(r.get("flush_timer", 0)
                                                   for r in sel(rrs, cfg))
    # 8. one bulk stream and one request/response flow at once: each hold
    # timer of the sweep, and the adaptive policy (device hold 0), against
    # the timer under which the stream went fastest
    mixed = [r for r in runs if r["kind"] == "mixed"]
    mixed_timers = sorted({int(r["cfg"][5:]) for r in mixed if r["cfg"].startswith("lro_t")})
    mixed_cfgs = [f"lro_t{t}" for t in mixed_timers] + ["adaptive"]
    for cfg in mixed_cfgs:
        out[f"policy_mixed_bulk_mbps_{cfg}"] = med(mixed, cfg, "mbit_s")
        out[f"policy_mixed_rr_p50_us_{cfg}"] = med(mixed, cfg, "p50_us")
        out[f"policy_mixed_rr_p99_us_{cfg}"] = med(mixed, cfg, "p99_us")
        out[f"policy_mixed_rr_n_{cfg}"] = med(mixed, cfg, "n")
        out[f"policy_mixed_aggr_{cfg}"] = \
            sum(r["aggregated"] for r in sel(mixed, cfg)) / \
            max(1, sum(r["flushed"] for r in sel(mixed, cfg)))
        out[f"policy_mixed_retrans_{cfg}"] = sum(r["retrans"] for r in sel(mixed, cfg))
    # what the policy learnt of the stream, and how many of LRO's flushes it was told
    out["policy_mixed_adaptive_hold_us"] = med(mixed, "adaptive", "policy_hold_us")
    out["policy_mixed_adaptive_peak_hold_us"] = max(r["policy_peak_hold_us"]
                                                    for r in sel(mixed, "adaptive"))
    out["policy_mixed_adaptive_flushes_told"] = \
        sum(r["policy_flushes"] for r in sel(mixed, "adaptive")) / \
        max(1, sum(r["flushed"] for r in sel(mixed, "adaptive")))
    if not mixed_timers:
        die(f"no mixed runs under a hold timer in {stream_path}")
    best = max(mixed_timers, key=lambda t: out[f"policy_mixed_bulk_mbps_lro_t{t}"])
    out["policy_mixed_best_hold_us"] = best
    out["policy_mixed_bulk_ratio"] = \
        out["policy_mixed_bulk_mbps_adaptive"] / out[f"policy_mixed_bulk_mbps_lro_t{best}"]
    out["policy_mixed_rr_p99_ratio"] = \
        out["policy_mixed_rr_p99_us_adaptive"] / out[f"policy_mixed_rr_p99_us_lro_t{best}"]

    # 5. drivers without GRO: LRO (defaults; on tun also a hold) vs off
    drv_lines = []
    if drivers_path:
        drv = [r for r in load_stream(drivers_path) if r["kind"] == "driver"]
        for d in ("e100", "usbnet", "tun"):
            runs_d = [r for r in drv if r["drv"] == d]
            if not runs_d:
                die(f"no {d} runs in {drivers_path}")

            def dmed(cfg, f):
                s = [f(r) for r in runs_d if r["cfg"] == cfg]
                if not s:
                    die(f"no {d} {cfg} runs in {drivers_path}")
                return statistics.median(s)

            cfgs = ("off", "lro", "lro_hold") if d == "tun" else ("off", "lro")
            for cfg in cfgs:
                out[f"{d}_throughput_mbit_{cfg}"] = dmed(cfg, lambda r: r["mbit_s"])
                out[f"{d}_ip_rx_per_mb_{cfg}"] = dmed(cfg, lambda r: r["ip_rx"] / r["mb"])
                out[f"{d}_softirq_ticks_per_mb_{cfg}"] = dmed(cfg, lambda r: r["softirq_ticks"] / r["mb"])
                out[f"{d}_busy_ticks_per_mb_{cfg}"] = dmed(cfg, lambda r: r["busy_ticks"] / r["mb"])
            for cfg in cfgs[1:]:
                s = "" if cfg == "lro" else "_hold"
                out[f"{d}{s}_throughput_ratio_lro_vs_off"] = \
                    out[f"{d}_throughput_mbit_{cfg}"] / out[f"{d}_throughput_mbit_off"]
                out[f"{d}{s}_ip_rx_reduction"] = \
                    out[f"{d}_ip_rx_per_mb_off"] / out[f"{d}_ip_rx_per_mb_{cfg}"]
                out[f"{d}{s}_cpu_ratio_lro_vs_off"] = \
                    out[f"{d}_busy_ticks_per_mb_{cfg}"] / \
                    max(out[f"{d}_busy_ticks_per_mb_off"], 1e-9)
                out[f"{d}{s}_softirq_ratio_lro_vs_off"] = \
                    out[f"{d}_softirq_ticks_per_mb_{cfg}"] / \
                    max(out[f"{d}_softirq_ticks_per_mb_off"], 1e-9)
                drv_lines.append((f"{d}{s}", out[f"{d}_throughput_mbit_off"],
                                  out[f"{d}_throughput_mbit_{cfg}"],
                                  out[f"{d}{s}_throughput_ratio_lro_vs_off"],
                                  out[f"{d}{s}_ip_rx_reduction"],
                                  out[f"{d}_busy_ticks_per_mb_off"],
                                  out[f"{d}_busy_ticks_per_mb_{cfg}"],
                                  out[f"{d}{s}_cpu_ratio_lro_vs_off"],
                                  out[f"{d}{s}_softirq_ratio_lro_vs_off"]))
    # 6. kernel memory per attached device, by vCPU count
    kmem_lines = []
    if kmem_path:
        for r in load_stream(kmem_path):
            n = int(r["cpus"])
            s = "" if n == 2 else f"_{n}cpu"
            out[f"kmem_per_device_kb{s}"] = r["per_device_kb"]
            kmem_lines.append((n, int(r["devices"]), int(r["rounds"]), str(r["rounds_kb"]),
                               r["per_device_kb"]))
        if "kmem_per_device_kb" not in out:
            die(f"no 2-vCPU line in {kmem_path}")
    # 10. The shipped defaults against the alternatives, over every stream
    # row: the worst LRO-default / off throughput ratio, and what reordering
    # costs (retransmissions, out-of-order queueing) summed over the
    # default runs, LRO / off (off's sum counted as at least 1, so that a
    # row with none either way gives 0, not a division by zero).
    worst = [("veth 128 KB writes", out["throughput_ratio_lro_vs_off_default"]),
             ("veth 8 KB writes", out["w8_throughput_ratio_lro_vs_off_default"])]
    worst += [(f"veth {n} flows", out[f"throughput_ratio_lro_vs_off_{n}flows"])
              for n in flow_counts]
    if drivers_path:
        worst += [(d, out[f"{d}_throughput_ratio_lro_vs_off"])
                  for d in ("e100", "usbnet", "tun")]
    worst_row, out["default_worst_ratio_vs_off"] = min(worst, key=lambda w: w[1])
    default_cfgs = {"lro": ["lro", "w8_lro"] + [f"p{n}_lro" for n in flow_counts],
                    "off": ["off", "w8_off"] + [f"p{n}_off" for n in flow_counts]}
    for k in ("retrans", "ofo"):
        for name, cfgs in default_cfgs.items():
            out[f"{k}_sum_{name}_default"] = sum(r.get(k, 0) for c in cfgs
                                                  for r in sel(streams, c))
        out[f"{k}_ratio_lro_default_vs_off"] = \
            out[f"{k}_sum_lro_default"] / max(1, out[f"{k}_sum_off_default"])
    if 0 not in mixed_timers:
        die(f"no mixed runs at flush_timeout_us 0 (the default) in {stream_path}")
    out["mixed_bulk_ratio_default_vs_best_timer"] = \
        out["policy_mixed_bulk_mbps_lro_t0"] / out[f"policy_mixed_bulk_mbps_lro_t{best}"]
    out["mixed_rr_p99_ratio_default_vs_best_timer"] = \
        out["policy_mixed_rr_p99_us_lro_t0"] / out[f"policy_mixed_rr_p99_us_lro_t{best}"]

    out.update(extra)
    out = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in out.items()}
    for k, v in out.items():
        if not isinstance(v, (int, float)):
            die(f"{k} is not a number: {v!r}")
    with open(json_path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")

    # the table
    def goal(v, op, g):
        ok = v <= g if op == "<=" else v >= g
        return f"{op} {g:<5g} {'met' if ok else 'MISSED'}"

    L = []
    L.append("1. Per-segment cost (ns/segment; QEMU TCG -icount shift=0: 1 ns = 1 instruction)")
    L.append(f"   {'':34} {'1 flow':>9} {'8 flows':>9}")
    for name, a, b in (("LRO engine (lro_receive_skb)", "cost_ns_lro", "cost_ns_lro_8flows"),
                       ("kernel GRO (napi_gro_receive)", "cost_ns_gro", "cost_ns_gro_8flows"),
                       ("no offload (netif_receive_skb)", "cost_ns_off", "cost_ns_off_8flows"),
                       ("LRO engine, deliver hook to sink", "cost_ns_lro_engine_only",
                        "cost_ns_lro_engine_only_8flows")):
        L.append(f"   {name:34} {out[a]:9.1f} {out[b]:9.1f}")
    L.append(f"   {'sink only (consume_skb)':34} {out['cost_ns_sink']:9.1f}")
    L.append(f"   cost_ratio_lro_vs_gro          {out['cost_ratio_lro_vs_gro']:8.3f}"
             f"   (8 flows: {out['cost_ratio_lro_vs_gro_8flows']:.3f})   goal "
             + goal(out["cost_ratio_lro_vs_gro"], "<=", 0.8))
    L.append("   LRO engine, BPF merge policy, adjacent loads:")
    for name in ("none", "null"):
        L.append(f"   {'  policy ' + name:34} {out[f'policy_{name}_cost_ns']:9.1f} "
                 f"{out[f'policy_{name}_cost_ns_8flows']:9.1f}")
    L.append(f"   {'  segments per packet (per call)':34} {out['policy_null_segs_per_pkt']:9.1f} "
             f"{out['policy_null_segs_per_pkt_8flows']:9.1f}")
    L.append(f"   policy_null_cost_ratio         {out['policy_null_cost_ratio']:8.3f}"
             f"   (8 flows: {out['policy_null_cost_ratio_8flows']:.3f})   goal "
             + goal(out["policy_null_cost_ratio"], "<=", 1.03))
    L.append("")
    L.append("2. Flow scaling (ns/segment, N flows interleaved, 8 segments per flow per flush)")
    L.append(f"   {'flows':>6} {'LRO (hash)':>11} {'2007 scan':>11} {'kernel GRO':>11}")
    for row in scale:
        L.append(f"   {row[0]:6d} {row[1]:11.1f} {row[2]:11.1f} {row[3]:11.1f}")
    L.append(f"   flow_scaling_ratio_4096_vs_1   {out['flow_scaling_ratio_4096_vs_1']:8.3f}   goal "
             + goal(out["flow_scaling_ratio_4096_vs_1"], "<=", 1.2))
    L.append(f"   seed_scaling_ratio_4096_vs_1   {out['seed_scaling_ratio_4096_vs_1']:8.3f}")
    if "gro_scaling_ratio_4096_vs_1" in out:
        L.append(f"   gro_scaling_ratio_4096_vs_1    {out['gro_scaling_ratio_4096_vs_1']:8.3f}")
    L.append("")
    L.append(f"3./4. One bulk TCP stream over veth, medians of {len(sel(streams, 'off'))} "
             f"interleaved runs of {int(sel(streams, 'off')[0]['mb'])} MB")
    for p, what in (("", "written 128 KB at a time (iperf3's default)"),
                    ("w8_", "written 8 KB at a time (socat's default): PSH every ~6 segments")):
        L.append(f"   {what}")
        L.append(f"   {'receiver':26} {'Mbit/s':>8} {'IP rx/MB':>9} {'segs/IP rx':>10} "
                 f"{'LRO aggr':>9} {'retrans':>8} {'collapsed':>9}")
        for cfg, name in (("off", "no offload"), ("gro", "GRO default"),
                          ("gro_tuned", "GRO 1 ms flush + defer 1"), ("lro", "LRO default"),
                          ("lro_tuned", f"LRO hold timer {tuned_us} us")):
            ag = f"{lro_aggr(p + cfg):9.1f}" if cfg.startswith("lro") else f"{'':9}"
            L.append(f"   {name:26} {out[p + 'throughput_mbit_' + cfg]:8.1f} "
                     f"{out[p + 'ip_rx_per_mb_' + cfg]:9.1f} "
                     f"{out[p + 'segs_per_ip_rx_' + cfg]:10.1f} {ag} "
                     f"{int(out[p + 'tcp_retrans_' + cfg]):8d} "
                     f"{int(out[p + 'tcp_collapsed_' + cfg]):9d}")
    L.append("   (LRO aggr = aggregated / flushed; segs/IP rx = sender's segments per "
             "receiver IP packet;")
    L.append("    retrans, collapsed: sender retransmissions and receiver TCPRcvCollapsed, "
             "summed over the runs)")
    L.append(f"   aggregation_ratio_default      {out['aggregation_ratio_default']:8.2f}   goal "
             + goal(out["aggregation_ratio_default"], ">=",
                    round(out["gro_aggregation_ratio_default"], 2)) + " (GRO default)")
    L.append(f"   aggregation_ratio (tuned)      {out['aggregation_ratio']:8.2f}   goal "
             + goal(out["aggregation_ratio"], ">=", 30))
    L.append(f"   gro_aggregation_ratio_default  {out['gro_aggregation_ratio_default']:8.2f}")
    L.append(f"   gro_aggregation_ratio (tuned)  {out['gro_aggregation_ratio']:8.2f}")
    L.append(f"   ip_rx_reduction                {out['ip_rx_reduction']:8.2f}   goal "
             + goal(out["ip_rx_reduction"], ">=", 25))
    L.append(f"   aggregation_ratio_v6 (tuned)   {out['aggregation_ratio_v6']:8.2f}   "
             f"ip_rx_reduction_v6 {out['ip_rx_reduction_v6']:.2f}   (IPv6, 128 KB writes: "
             f"{out['v6_ip_rx_per_mb_off']:.1f} IP rx/MB, {out['v6_throughput_mbit_off']:.0f} Mbit/s "
             f"off; {out['v6_ip_rx_per_mb_lro_tuned']:.1f}, "
             f"{out['v6_throughput_mbit_lro_tuned']:.0f} with LRO)")
    L.append(f"   throughput_ratio_lro_vs_gro    {out['throughput_ratio_lro_vs_gro']:8.3f}   goal "
             + goal(out["throughput_ratio_lro_vs_gro"], ">=", 1.0) + " (best vs best)")
    L.append(f"   throughput_ratio_lro_vs_gro_default {out['throughput_ratio_lro_vs_gro_default']:.3f}")
    L.append(f"   throughput_ratio_lro_vs_off    {out['throughput_ratio_lro_vs_off']:8.3f}   goal "
             + goal(out["throughput_ratio_lro_vs_off"], ">=", 1.3))
    L.append(f"   throughput_ratio_lro_vs_off_default {out['throughput_ratio_lro_vs_off_default']:.3f}"
             f"   (GRO: {out['throughput_ratio_gro_vs_off_default']:.3f})")
    L.append(f"   lro_rcv_collapsed              {int(out['lro_rcv_collapsed']):8d}   goal "
             + goal(out["lro_rcv_collapsed"], "<=", 0)
             + f" (TCPRcvCollapsed over all {int(out['lro_rcv_collapsed_runs'])} LRO stream runs;"
             f" GRO's {int(out['gro_rcv_collapsed_runs'])}: {int(out['gro_rcv_collapsed'])})")
    if "truesize_per_byte_lro" in out:
        L.append("   truesize per byte of what tcp_v4_rcv() is handed, one 128 KB-write stream each:")
        L.append("   " + "   ".join(f"{cfg} {out['truesize_per_byte_' + cfg]:.3f}"
                                    f" ({int(out['truesize_pkts_' + cfg])} pkts)"
                                    for cfg in ("off", "gro", "lro")
                                    if "truesize_per_byte_" + cfg in out))
    for n in flow_counts:
        L.append("")
        L.append(f"4b. {n} parallel streams over the same veth pair, 128 KB writes, each receiver "
                 f"at its defaults, RPS off; medians of {len(sel(streams, f'p{n}_off'))} runs")
        L.append(f"   {'receiver':26} {'Mbit/s':>8} {'segs/IP rx':>10} {'retrans':>8} {'ofo':>8}")
        for cfg, name in (("off", "no offload"), ("gro", "GRO default"), ("lro", "LRO default")):
            L.append(f"   {name:26} {out[f'throughput_mbit_{cfg}_{n}flows']:8.1f} "
                     f"{out[f'segs_per_ip_rx_{cfg}_{n}flows']:10.1f} "
                     f"{int(out[f'tcp_retrans_{cfg}_{n}flows']):8d} "
                     f"{int(out[f'tcp_ofo_{cfg}_{n}flows']):8d}")
        L.append(f"   throughput_ratio_lro_vs_gro_{n}flows {out[f'throughput_ratio_lro_vs_gro_{n}flows']:6.3f}   goal "
                 + goal(out[f"throughput_ratio_lro_vs_gro_{n}flows"], ">=", 1.0))
        L.append(f"   throughput_ratio_lro_vs_off_{n}flows {out[f'throughput_ratio_lro_vs_off_{n}flows']:6.3f}")
    L.append("")
    L.append("5. Request/response, 64-byte ping-pong over TCP (us)")
    L.append(f"   {'':26} {'p50':>8} {'p99':>8}")
    L.append(f"   {'LRO off':26} {off_p50:8.1f} {off_p99:8.1f}")
    L.append(f"   {'LRO default':26} {out['rr_p50_us_lro']:8.1f} {out['rr_p99_us_lro']:8.1f}")
    L.append(f"   rr_latency_ratio_lro_vs_off    {out['rr_latency_ratio_lro_vs_off']:8.3f}   goal "
             + goal(out["rr_latency_ratio_lro_vs_off"], "<=", 1.05))
    L.append(f"   rr_p99_ratio_lro_vs_off        {out['rr_p99_ratio_lro_vs_off']:8.3f}")
    L.append("")
    L.append("6. Hold timer sweep (flush_timeout_us): LRO aggregation (aggregated/flushed) and")
    L.append("   Mbit/s of one stream in 128 KB and in 8 KB writes; 64-byte request/response (us)")
    L.append(f"   {'timer':>7} {'aggr':>6} {'Mbit/s':>7} {'aggr 8K':>7} {'Mbit/s':>7} {'rr p50':>7} "
             f"{'/off':>6} {'rr p99':>8} {'/off':>6} {'timer flushes':>13}")
    for t in sweep:
        L.append(f"   {str(t) + ' us':>7} {out[f'sweep_aggr_{t}us']:6.1f} "
                 f"{out[f'sweep_throughput_mbit_{t}us']:7.1f} "
                 f"{out[f'sweep_aggr_w8_{t}us']:7.1f} "
                 f"{out[f'sweep_throughput_mbit_w8_{t}us']:7.1f} "
                 f"{out[f'sweep_rr_p50_us_{t}us']:7.1f} {out[f'sweep_rr_p50_ratio_{t}us']:6.3f} "
                 f"{out[f'sweep_rr_p99_us_{t}us']:8.1f} {out[f'sweep_rr_p99_ratio_{t}us']:6.3f} "
                 f"{int(out[f'sweep_rr_timer_flushes_{t}us']):13d}")
    L.append("   (timer flushes: LRO_FLUSH_TIMER during the request/response run; "
             "PSH segments are never held)")
    if drv_lines:
        L.append("")
        L.append("7. Drivers without GRO (bench/drivers.sh; LRO at its defaults, tun_hold: "
                 "flush_timeout_us BENCH_DRV_HOLD_US, 1000 by default)")
        L.append(f"   {'':10} {'Mbit/s off':>10} {'LRO':>8} {'ratio':>6} {'IP rx fewer':>11} "
                 f"{'CPU/MB off':>10} {'LRO':>6} {'ratio':>6} {'softirq ratio':>13}")
        for name, t0, t1, tr, red, c0, c1, cr, sr in drv_lines:
            L.append(f"   {name:10} {t0:10.1f} {t1:8.1f} {tr:6.3f} {red:10.2f}x "
                     f"{c0:10.2f} {c1:6.2f} {cr:6.3f} {sr:13.3f}")
        L.append("   (CPU: the guest's busy /proc/stat ticks per MB, sender and receiver; "
                 "softirq: where e100's and usbnet's receive runs; e100 and usbnet on the "
                 "wall clock, tun under -icount)")
    L.append("")
    L.append(f"8. One {int(mixed[0]['mb'])} MB stream (128 KB writes) and 64-byte request/response "
             f"at once; medians of {len(sel(mixed, 'adaptive'))} interleaved runs")
    L.append(f"   {'LRO':26} {'Mbit/s':>8} {'rr p50':>8} {'rr p99':>8} {'round trips':>11} "
             f"{'aggr':>6} {'retrans':>8}")
    for cfg in mixed_cfgs:
        name = (f"hold timer {cfg[5:]} us" if cfg != "adaptive"
                else "adaptive policy, timer 0")
        if cfg == f"lro_t{best}":
            name += " (best)"
        L.append(f"   {name:26} {out[f'policy_mixed_bulk_mbps_{cfg}']:8.1f} "
                 f"{out[f'policy_mixed_rr_p50_us_{cfg}']:8.1f} "
                 f"{out[f'policy_mixed_rr_p99_us_{cfg}']:8.1f} "
                 f"{int(out[f'policy_mixed_rr_n_{cfg}']):11d} "
                 f"{out[f'policy_mixed_aggr_{cfg}']:6.1f} "
                 f"{int(out[f'policy_mixed_retrans_{cfg}']):8d}")
    L.append("   (best: the timer of the highest Mbit/s; aggr: LRO's aggregated / flushed, "
             "the 64-byte requests pass alone; retrans: summed)")
    L.append(f"   adaptive: the stream's learnt hold {out['policy_mixed_adaptive_hold_us']:g} us "
             f"(median at its end; peak {out['policy_mixed_adaptive_peak_hold_us']:g} us); "
             f"flow_flush told of {out['policy_mixed_adaptive_flushes_told']:.3f} of LRO's flushes")
    L.append(f"   policy_mixed_bulk_ratio        {out['policy_mixed_bulk_ratio']:8.3f}   goal "
             + goal(out["policy_mixed_bulk_ratio"], ">=", 1.0))
    L.append(f"   policy_mixed_rr_p99_ratio      {out['policy_mixed_rr_p99_ratio']:8.3f}   goal "
             + goal(out["policy_mixed_rr_p99_ratio"], "<=", 1.0))
    if kmem_lines:
        L.append("")
        L.append("9. Kernel memory per attached device (bench/kmem.sh: veth devices created up, "
                 "without LRO and under an auto rule; MemFree)")
        L.append(f"   {'vCPUs':>5} {'devices':>7} {'kB per device (median)':>22} {'rounds':>18}")
        for n, devs, rounds, each, per in sorted(kmem_lines):
            L.append(f"   {n:5d} {devs:7d} {per:22.2f} {each:>18}   goal "
                     + goal(per, "<=", 2))
    L.append("")
    L.append("10. The shipped defaults against the alternatives (every receiver at its defaults)")
    for key, op, g in (("throughput_ratio_lro_vs_gro_default", ">=", 1.03),
                       ("w8_throughput_ratio_lro_vs_gro_default", ">=", 1.0),
                       *((f"throughput_ratio_lro_vs_gro_{n}flows", ">=", 1.0)
                         for n in flow_counts),
                       *((k, op, g) for k, op, g in
                         (("tun_throughput_ratio_lro_vs_off", ">=", 1.10),
                          ("tun_cpu_ratio_lro_vs_off", "<=", 0.95),
                          ("e100_throughput_ratio_lro_vs_off", ">=", 1.0),
                          ("usbnet_throughput_ratio_lro_vs_off", ">=", 1.0))
                         if drivers_path),
                       ("mixed_bulk_ratio_default_vs_best_timer", ">=", 1.0),
                       ("mixed_rr_p99_ratio_default_vs_best_timer", "<=", 1.0),
                       ("default_worst_ratio_vs_off", ">=", 1.05),
                       ("retrans_ratio_lro_default_vs_off", "<=", 1.0),
                       ("ofo_ratio_lro_default_vs_off", "<=", 1.0),
                       ("rr_latency_ratio_lro_vs_off", "<=", 1.05),
                       ("rr_p99_ratio_lro_vs_off", "<=", 1.05)):
        L.append(f"   {key:42} {out[key]:8.3f}   goal " + goal(out[key], op, g))
    L.append(f"   (worst row vs off: {worst_row}; retransmissions summed over the default "
             f"runs, LRO {int(out['retrans_sum_lro_default'])}, off "
             f"{int(out['retrans_sum_off_default'])}; TCPOFOQueue LRO "
             f"{int(out['ofo_sum_lro_default'])}, off {int(out['ofo_sum_off_default'])})")
    text = "\n".join(L) + "\n"
    with open(f"{outdir}/table.txt", "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
