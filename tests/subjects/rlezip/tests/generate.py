#!/usr/bin/env python3
"""Writes the rlezip test pool: tests/inputs/, tests/manifest.txt and, by
running the correct version (built in a temporary directory), tests/expected/.

Decompression tests need encoded inputs: the script encodes some inputs
itself (a small Python model of the format, below) and corrupts some of them
to exercise the error paths.

Usage: python3 tests/generate.py [--no-expected]
Deterministic: a fixed seed, so running it again gives the same files."""
import os, random, shutil, sys

NAME = 'rlezip'
SEED = 4242
HERE = os.path.dirname(os.path.abspath(__file__))
SUBJ = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import subject_pool  # noqa: E402  (tests/subjects/subject_pool.py)

rng = random.Random(SEED)

WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'a', 'hat', 'that', 'compress',
         'data', 'run', 'length', 'window', 'match', 'x', 'abc', 'abcabc']


def text_input():
    n = rng.randint(1, 60)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.7:
            out.append(rng.choice(WORDS))
        elif r < 0.85:
            out.append(rng.choice('abcxyz-=*. ') * rng.randint(2, 90))
        else:
            out.append('\n')
        out.append(rng.choice([' ', ' ', '', ',', '\n']))
    return ''.join(out).encode()


def binary_input():
    n = rng.randint(1, 600)
    out = bytearray()
    while len(out) < n:
        r = rng.random()
        if r < 0.3:
            out += bytes([rng.randrange(256)]) * rng.randint(1, 150)
        elif r < 0.6 and out:
            # repeat an earlier piece (possibly far back)
            start = rng.randrange(len(out))
            out += out[start:start + rng.randint(1, 80)]
        else:
            out += bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    return bytes(out[:n])


def random_input():
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))


def periodic_input():
    unit = bytes(rng.choice(b'ab01') for _ in range(rng.randint(1, 7)))
    return unit * rng.randint(1, 120)


# --- a simple encoder of the RLZ1 format (literals and runs only, plus
# explicit matches), used to make inputs for -d -------------------------

def adler(data):
    a, b = 1, 0
    for c in data:
        a = (a + c) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


def encode_tokens(tokens, minmatch):
    """tokens: ('lit', bytes) | ('run', n, byte) | ('match', n, dist)"""
    out = bytearray()
    data = bytearray()
    for t in tokens:
        if t[0] == 'lit':
            out.append(len(t[1]) - 1)
            out += t[1]
            data += t[1]
        elif t[0] == 'run':
            out.append(0x80 | (t[1] - 4))
            out.append(t[2])
            data += bytes([t[2]]) * t[1]
        else:
            out.append(0xC0 | (t[1] - minmatch))
            out += bytes([t[2] >> 8, t[2] & 0xFF])
            for _ in range(t[1]):
                data.append(data[len(data) - t[2]] if t[2] <= len(data) else 0)
    return bytes(out), bytes(data)


def to_text(tokbytes, data, window=1024, minmatch=3, width=32, length=None,
            sum_=None, magic='RLZ1'):
    head = '%s %d %d %d %08x\n' % (magic, window, minmatch,
                                   len(data) if length is None else length,
                                   adler(data) if sum_ is None else sum_)
    hx = tokbytes.hex()
    lines = [hx[i:i + 2 * width] for i in range(0, len(hx), 2 * width)]
    return (head + ''.join(l + '\n' for l in lines)).encode()


def random_tokens(minmatch):
    toks = []
    size = 0
    for _ in range(rng.randint(1, 12)):
        r = rng.random()
        if r < 0.4 or size == 0:
            lit = bytes(rng.choice(b'abcdefgh \n') for _ in range(rng.randint(1, 20)))
            toks.append(('lit', lit))
            size += len(lit)
        elif r < 0.65:
            n = rng.randint(4, 67)
            toks.append(('run', n, rng.choice(b'xyz0')))
            size += n
        else:
            n = rng.randint(minmatch, minmatch + 63)
            toks.append(('match', n, rng.randint(1, size)))
            size += n
    return toks


def decode_tests():
    tests = []
    for _ in range(30):
        mm = rng.choice([2, 3, 3, 4, 8])
        tb, data = encode_tokens(random_tokens(mm), mm)
        tests.append(('-d', to_text(tb, data, minmatch=mm,
                                     width=rng.choice([1, 7, 32, 64]))))
    # uppercase hex and odd spacing are accepted
    tb, data = encode_tokens([('lit', b'Hello'), ('run', 9, 33),
                              ('match', 5, 14)], 3)
    tests.append(('-d', to_text(tb, data).replace(b'6c', b'6C')))
    tests.append(('-d', to_text(tb, data).replace(b'\n', b' \r\n', 3)))
    # error paths
    good = to_text(tb, data)
    tests.append(('-d', b''))
    tests.append(('-d', b'RLZ1 1024 3 5'))
    tests.append(('-d', b'RLZ2 1024 3 24 00000000\n00\n'))
    tests.append(('-d', b'RLZ1 1024 1 24 00000000\n00\n'))
    tests.append(('-d', b'RLZ1 1024 9 24 00000000\n00\n'))
    tests.append(('-d', b'RLZ1 0 3 24 00000000\n00\n'))
    tests.append(('-d', b'RLZ1 4097 3 24 00000000\n00\n'))
    tests.append(('-d', b'RLZ1 4096 3 0 00000001\n'))
    tests.append(('-d', b'RLZ1 x 3 0 00000001\n'))
    tests.append(('-d', b'RLZ1 ' + b'9' * 120 + b'\n'))
    tests.append(('-d', good.replace(b'48', b'4g', 1)))
    tests.append(('-d', good[:-2] + b'\n'))
    tests.append(('-d', good[:-3] + b'\n'))
    tests.append(('-d', to_text(tb, data, length=len(data) + 1)))
    tests.append(('-d', to_text(tb, data, sum_=adler(data) ^ 1)))
    tests.append(('-d', to_text(b'0461', b'')))               # short literal
    tests.append(('-d', to_text(b'\x85', b'')))                # run w/o byte
    tests.append(('-d', to_text(b'\x00a\xc0\x00', b'')))       # short match
    tests.append(('-d', to_text(b'\x00a\xc0\x00\x02', b'aaaa')))  # too far
    tests.append(('-d', to_text(b'\x00a\xc0\x00\x00', b'aaaa')))  # dist 0
    tests.append(('-d', to_text(b'\x00a\xc0\x00\x01', b'aaaa')))  # dist 1 ok
    tests.append(('-d', to_text(b'\x01ab\xff\x00\x02', b'ab' * 34)))
    tests.append(('-d', to_text(b'\x7f' + b'q' * 128, b'q' * 128)))
    tests.append(('-d', to_text(b'\xbf\x00', b'\x00' * 67)))
    return tests


def make_tests():
    tests = []
    fixed_inputs = [b'', b'a', b'aa', b'aaa', b'aaaa', b'aaaaa', b'ab' * 3,
                    b'abc' * 30, b'a' * 67, b'a' * 68, b'a' * 200,
                    b'x' * 4 + b'y' * 4 + b'xxxxyyyy', bytes(range(256)),
                    b'z' * 127 + b'q', bytes(range(130)), b'hello hello hello\n',
                    b'abcdefgh' * 2 + b'abcdefgh' * 20]
    for data in fixed_inputs:
        for mode in ('-c', '-t', '-x'):
            tests.append((mode, data))
    opts = ['', '', '', '-w 4', '-w 1', '-w 16', '-w 4096', '-m 2', '-m 5',
            '-m 8', '-R', '-l 1', '-l 8', '-l 64', '-w 32 -m 4', '-R -m 2']
    modes = ['-c', '-c', '-t', '-t', '-x']
    gens = [text_input, text_input, binary_input, random_input, periodic_input]
    for _ in range(190):
        mode = rng.choice(modes)
        opt = rng.choice(opts)
        if mode == '-x':
            opt = opt.replace('-l 1', '').replace('-l 8', '').replace('-l 64', '')
        tests.append(((mode + ' ' + opt).strip(), rng.choice(gens)()))
    tests += decode_tests()
    usage = ['', '-c -d', '-q', '-w', '-w 0', '-w 4097', '-w abc', '-m 1',
             '-m 9', '-l 0', '-l 65', '-c -w', '-d -x', '-t -t']
    for u in usage:
        tests.append((u, b'abc\n'))
    return tests


def write_pool(tests):
    inputs = os.path.join(HERE, 'inputs')
    shutil.rmtree(inputs, ignore_errors=True)
    os.makedirs(inputs)
    lines = []
    for i, (args, data) in enumerate(tests, 1):
        t = 't%03d' % i
        with open(os.path.join(inputs, t + '.in'), 'wb') as f:
            f.write(data)
        cmd = './%s%s < tests/inputs/%s.in' % (NAME, ' ' + args if args else '', t)
        lines.append('%s: %s\n' % (t, cmd))
    with open(os.path.join(HERE, 'manifest.txt'), 'w') as f:
        f.writelines(lines)
    return lines


def write_expected(lines):
    """runs the correct version on every test and records its output"""
    subject_pool.record_expected(SUBJ, NAME, lines)


if __name__ == '__main__':
    pool = write_pool(make_tests())
    if '--no-expected' not in sys.argv:
        write_expected(pool)
    print('%d tests' % len(pool))
