#!/usr/bin/env python3
"""Writes the hand-made results fixtures of tests/report/data/ (run it after
changing a case; the expected outputs in ../expected/ follow from them).
vmreplay-*.json are not made here: they are captured from vmreplay itself
(vmtrace synth pthread / brk_test, replayed with --target sim --per-event and
on the kernel with --repeat 3) so the tests also read what vmreplay writes."""
import json, os
D = os.path.dirname(os.path.abspath(__file__))
os.makedirs(D, exist_ok=True)
def host(cpu='AMD EPYC 7B13', cores=2, mem=8341520384):
    return {"cpu": cpu, "cores": cores, "memory": mem, "thp_enabled": "always", "thp_defrag": "madvise"}
def lat(p50, runs, spread=1.0):
    out={}
    for k,f in (("min",0.6),("p50",1.0),("p90",1.6),("p99",4.0),("max",40.0),("mean",1.2)):
        out[k]=[round(p50*f*(1+0.01*spread*((i*7)%5-2))) for i in range(runs)]
    return out
def results(kernel, metrics, trace='traces/brk-mix.vmt', target='kernel', vm=None, h=None, per_event=None, ver=1, cmd=None, reproduce=None):
    d={"vmrec_results": ver, "trace": trace, "target": target, "kernel": kernel}
    if vm: d["vm"]=vm
    if reproduce: d["reproduce"]=reproduce
    d["host"]=h or host()
    d["command"]=cmd or f"vmreplay --repeat {len(next(iter(metrics.values())))} --json out.json {trace}"
    d["metrics"]=metrics
    if per_event is not None: d["per_event"]=per_event
    return d
def kern(brk_ops, mmap_ops, munmap_ops, brk_p50, vfinal, mnew, runs=5):
    m={}
    m["vmreplay.brk.count"]=[17000]*runs
    m["vmreplay.brk.ops_per_sec"]=brk_ops
    for k,v in lat(brk_p50, runs).items(): m["vmreplay.brk.latency_ns."+k]=v
    m["vmreplay.mmap.count"]=[120]*runs
    m["vmreplay.mmap.ops_per_sec"]=mmap_ops
    for k,v in lat(2100, runs).items(): m["vmreplay.mmap.latency_ns."+k]=v
    m["vmreplay.munmap.count"]=[118]*runs
    m["vmreplay.munmap.ops_per_sec"]=munmap_ops
    for k,v in lat(3300, runs).items(): m["vmreplay.munmap.latency_ns."+k]=v
    m["vmreplay.vma_count.start"]=[20]*runs
    m["vmreplay.vma_count.peak"]=[vfinal+8]*runs
    m["vmreplay.vma_count.final"]=[vfinal]*runs
    m["vmreplay.merge.new"]=[mnew]*runs
    m["vmreplay.merge.expand_prev"]=[16020]*runs
    m["vmreplay.merge.expand_next"]=[3]*runs
    m["vmreplay.merge.shrink"]=[1000]*runs
    m["vmreplay.merge.remove"]=[110]*runs
    m["vmreplay.merge.split"]=[4]*runs
    m["vmreplay.merge.failed"]=[0]*runs
    m["vmreplay.fidelity.checkpoints_matched"]=[10]*runs
    m["vmreplay.fidelity.checkpoints_total"]=[10]*runs
    return m
def w(name, d):
    with open(os.path.join(D,name),'w') as f: json.dump(d, f, indent=1); f.write('\n')

k61=kern([712345,705120,718900,709876,714500],[1250000,1262000,1245500,1258000,1251000],[301000,298500,303200,299900,300400],1400,23,12)
k68=kern([650210,655400,648900,652300,659800],[1255000,1249000,1260500,1247000,1253000],[299000,302100,300800,297700,301900],1530,25,14)
k612=kern([760000,765500,758000,762300,770100],[1251000,1257000,1249500,1262000,1248000],[300500,299800,302000,298000,301000],1320,23,12)
w('brk-6.1.json', results('6.1.0-28-amd64', k61))
w('brk-6.8.json', results('6.8.0-50-generic', k68, h=host('Intel Xeon Gold 6338', 2, 8341520384)))
w('brk-6.12.json', results('6.12.9-amd64', k612))
# the same 6.8 replay in an emulated guest: timings must not be compared
# (vmreplay --vm: "command" is the guest's, "reproduce" what recreates it here)
w('brk-6.8-tcg.json', results('6.8.0-50-generic', k68, vm='qemu-tcg',
  cmd='/bin/vmreplay --repeat 5 --json /out/0/results.json /trace/0/brk-mix.vmt',
  reproduce='vmreplay --vm 6.8.0-50-generic --vm-thp always --repeat 5 --json out.json traces/brk-mix.vmt'))
# the same, written before vmreplay --vm wrote "reproduce": only the guest's command
w('brk-6.8-tcg-noreproduce.json', results('6.8.0-50-generic', k68, vm='qemu-tcg',
  cmd='/bin/vmreplay --repeat 5 --json /out/0/results.json /trace/0/brk-mix.vmt'))
# a 6.8 file that lacks the munmap metrics
k68m={k:v for k,v in k68.items() if not k.startswith('vmreplay.munmap.')}
w('brk-6.8-no-munmap.json', results('6.8.0-50-generic', k68m))
# significance cases
def one(vals): return {"vmreplay.brk.ops_per_sec": vals}
w('sig-2runs-a.json', results('6.1.0-28-amd64', one([700000,701000])))
w('sig-2runs-b.json', results('6.8.0-50-generic', one([600000,601000])))
w('sig-overlap-a.json', results('6.1.0-28-amd64', one([700000,720000,690000,710000,705000])))
w('sig-overlap-b.json', results('6.8.0-50-generic', one([706000,715000,698000,721000,702000])))
w('sig-outlier-a.json', results('6.1.0-28-amd64', one([100000,101000,102000,103000])))
w('sig-outlier-b.json', results('6.8.0-50-generic', one([110000,111000,112000,50000])))
w('sig-small-a.json', results('6.1.0-28-amd64', one([100000,100100,100200])))
w('sig-small-b.json', results('6.8.0-50-generic', one([100500,100600,100700])))
# simulator profiles with per-event results, thread churn
def ev(i, op, outcome, vc, call, rule, err=0):
    return {"i": i, "op": op, "outcome": outcome, "vma_count": vc, "errno": err, "call": call, "rule": rule}
STK="mmap(NULL, 8392704, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK, -1, 0) = 0x7f3a%04x000000"
GUARD="mprotect(0x7f3a%04x001000, 8388608, PROT_READ|PROT_WRITE) = 0"
def churn(profile):
    evs=[]; vc=30; i=0
    for t in range(4):
        merge = profile=='6.1' and t>0
        if merge:
            evs.append(ev(i,'mmap','expand_next',vc,STK%(t*0x81),'vma_merge: same flags and anon_vma as next: expand it'))
        else:
            vc+=1
            rule = 'no compatible neighbour' if t==0 else 'THP-aligned placement leaves a gap below the previous stack'
            evs.append(ev(i,'mmap','new',vc,STK%(t*0x81),rule))
        i+=1
        vc+= 2 if merge else 1
        evs.append(ev(i,'mprotect','split',vc,GUARD%(t*0x81),'mprotect inside a VMA: split')); i+=1
    for t in range(4):
        vc-=2; evs.append(ev(i,'munmap','remove',vc,"munmap(0x7f3a%04x000000, 8392704) = 0"%(t*0x81),'range covers whole VMAs')); i+=1
    call="mmap(0x7f3a00000000, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0)"
    if profile=='6.1':
        evs.append(ev(i,'mmap','new',vc+1,call+" = 0x7f3a00000000",'no compatible neighbour'))
    else:
        evs.append(ev(i,'mmap','failed',vc,call+" = -1 EEXIST (File exists)",'MAP_FIXED_NOREPLACE: range overlaps a VMA',err=17))
    return evs
e61=churn('6.1'); e68=churn('6.8')
def simm(evs):
    outs={}
    for e in evs: outs[e['outcome']]=outs.get(e['outcome'],0)+1
    m={"vmreplay.vma_count.start":[30], "vmreplay.vma_count.peak":[max(e['vma_count'] for e in evs)], "vmreplay.vma_count.final":[evs[-1]['vma_count']]}
    for o in ("new","expand_prev","expand_next","merge_both","split","shrink","remove","move","unchanged","failed"):
        m["vmreplay.merge."+o]=[outs.get(o,0)]
    return m
w('churn-sim-6.1.json', results('6.1', simm(e61), trace='/tmp/demo/thread-churn.vmt', target='sim', per_event=e61, cmd='vmreplay --target sim --kernel 6.1 --per-event --json churn-sim-6.1.json thread-churn.vmt'))
w('churn-sim-6.8.json', results('6.8', simm(e68), trace='build/demo/thread-churn.vmt', target='sim', per_event=e68, cmd='vmreplay --target sim --kernel 6.8 --per-event --json churn-sim-6.8.json thread-churn.vmt'))
w('churn-sim-6.8-noevents.json', results('6.8', simm(e68), trace='build/demo/thread-churn.vmt', target='sim', cmd='vmreplay --target sim --kernel 6.8 --json churn-sim-6.8-noevents.json thread-churn.vmt'))
# bad inputs
open(os.path.join(D,'bad-empty.json'),'w').close()
open(os.path.join(D,'bad-syntax.json'),'w').write('{"vmrec_results": 1,\n "trace": "x.vmt",\n "target": kernel\n}\n')
s=json.dumps(results('6.1.0-28-amd64', one([1,2,3])), indent=1); open(os.path.join(D,'bad-truncated.json'),'w').write(s[:len(s)//2])
w('bad-version.json', results('6.1.0-28-amd64', one([1,2,3]), ver=2))
open(os.path.join(D,'bad-foreign.json'),'w').write('{"name": "not vmrec", "values": [1, 2, 3]}\n')
d=results('6.1.0-28-amd64', one([1,2,3])); del d['metrics']; w('bad-no-metrics.json', d)
w('bad-metric-type.json', results('6.1.0-28-amd64', {"vmreplay.brk.ops_per_sec": "fast"}))
w('bad-metric-value.json', results('6.1.0-28-amd64', {"vmreplay.brk.ops_per_sec": [1, "2", 3]}))
w('bad-target.json', results('6.1.0-28-amd64', one([1,2,3]), target='kvm'))
d=results('6.1.0-28-amd64', one([1,2,3]), per_event=[{"i": 0, "op": "brk", "vma_count": 3}]); w('bad-event.json', d)
w('other-trace.json', results('6.8.0-50-generic', k68, trace='traces/mmap1.vmt'))
