#!/usr/bin/env python3
"""calls.py strace|trace FILE - the VMA calls of a run, normalised so a
`strace -f -e raw=all` log and a vmrec trace (as tracecalls prints it)
compare equal when the recorder saw what strace saw:

  - per thread, from the program's marker on: munmap(0, 0) at the start
    of main (and of main in every exec'd image), so start-up code, which
    differs with the recorder preloaded, is left out;
  - addresses dropped: only sizes, protections, flags, advice, fds and
    success/errno are kept;
  - threads printed as blocks in a stable order (tids differ per run).
"""
import errno
import re
import sys

KEEP = {  # argument positions that are not addresses
    'mmap': (1, 2, 3, 4, 5), 'munmap': (1,), 'mprotect': (1, 2),
    'pkey_mprotect': (1, 2, 3), 'madvise': (1, 2), 'mremap': (1, 2, 3),
    'mlock': (1,), 'mlock2': (1, 2), 'munlock': (1,), 'mlockall': (0,),
    'shmat': (2,), 'clone': (0,), 'exit': (0,), 'exit_group': (0,),
}
NORESULT = {'execve', 'execveat', 'exit', 'exit_group'}
INT_ARGS = {('mmap', 4)}  # an int in the kernel: strace prints 32 bits


def norm(name, args, result):
    kept = []
    for i in KEEP.get(name, ()):
        if i < len(args):
            v = int(args[i], 16) if args[i].startswith('0x') else int(args[i])
            if (name, i) in INT_ARGS:
                v &= 0xffffffff
            kept.append('%#x' % v)
    if name == 'brk':
        kept.append('0' if int(args[0], 16 if args[0].startswith('0x') else 10) == 0 else 'addr')
    res = '' if name in NORESULT and not result.startswith('-1') else ' = ' + result
    return '%s(%s)%s' % (name, ', '.join(kept), res)


def strace_lines(path):
    pending = {}
    for line in open(path):
        m = re.match(r'(\d+) +(.*)', line.rstrip('\n'))
        if not m:
            continue
        tid, rest = int(m.group(1)), m.group(2)
        if rest.endswith('<unfinished ...>'):
            pending[tid] = rest[:-len('<unfinished ...>')]
            continue
        r = re.match(r'<\.\.\. (\w+) resumed>(.*)', rest)
        if r:
            rest = pending.pop(tid, r.group(1) + '(') + r.group(2)
        c = re.match(r'(\w+)\((.*)\) += (.*)$', rest)
        if not c:
            continue
        name, args, res = c.group(1), c.group(2), c.group(3)
        args = [a.strip() for a in args.split(',')] if args.strip() else []
        if res.startswith('-1 '):
            res = '-1 ' + res.split()[1]
        elif res != '?':
            res = 'ok'
        yield tid, name, args, res


def trace_lines(path):
    for line in open(path):
        f = line.split()
        if len(f) < 4 or f[2] == '?':
            continue
        tid, name = int(f[1]), f[2]
        eq = f.index('=')
        args, res = f[3:eq], f[eq + 1:]
        if res[0] == '-1':
            res = '-1 ' + errno.errorcode.get(int(res[1]), res[1])
        elif res[0] != '?':
            res = 'ok'
        else:
            res = '?'
        yield tid, name, args, res


def main():
    kind, path = sys.argv[1], sys.argv[2]
    threads, order, live = {}, [], {}
    for tid, name, args, res in (strace_lines if kind == 'strace' else trace_lines)(path):
        if tid not in threads:
            threads[tid] = []
            order.append(tid)
            live[tid] = len(order) > 1   # threads after the first start live
        if name == 'munmap' and args[:2] in (['0', '0'], ['0x0', '0x0'], ['0', '0x0']) :
            live[tid] = True
            continue
        if name in ('execve', 'execveat') and res in ('ok', '?'):
            if live[tid]:
                threads[tid].append(norm(name, args, res))
            live[tid] = False            # until the new image's marker
            continue
        if live[tid]:
            threads[tid].append(norm(name, args, res))
    blocks = sorted('\n'.join(threads[t]) for t in order if threads[t])
    print('\n--\n'.join(blocks))


main()
