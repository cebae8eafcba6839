#!/usr/bin/env python3
"""Writes the schedule test pool: tests/inputs/, tests/manifest.txt and, by
running the correct version (built in a temporary directory), tests/expected/.

Usage: python3 tests/generate.py [--no-expected]
Deterministic: a fixed seed, so running it again gives the same files."""
import os, random, shutil, sys

NAME = 'schedule'
SEED = 7151
HERE = os.path.dirname(os.path.abspath(__file__))
SUBJ = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import subject_pool  # noqa: E402  (tests/subjects/subject_pool.py)

rng = random.Random(SEED)


def ratio():
    r = rng.random()
    if r < 0.5:
        return rng.choice(['0', '0.25', '0.5', '0.75', '1', '1.0', '0.0'])
    return '%.2f' % rng.random()


def bad_command(levels):
    return rng.choice([
        'NEW 0 5', 'NEW %d 5' % (levels + 1), 'NEW x 3', 'NEW 1 0',
        'NEW 1 -4', 'NEW 1', 'NEW', 'NEW 2 3 4', 'UPGRADE 1 1.5',
        'UPGRADE 1 -0.1', 'UPGRADE 0 0.5', 'UPGRADE 1', 'UPGRADE x 0.5',
        'UNBLOCK 2', 'UNBLOCK abc', 'UNBLOCK', 'TICK 0', 'TICK -1',
        'TICK x', 'new 1 2', 'RUN', 'BLOCK NOW extra', 'FINISHED',
        'NEW 1 10001'])


def command(levels, weights):
    kinds = ['NEW', 'UPGRADE', 'BLOCK', 'UNBLOCK', 'QUANTUM_EXPIRE',
             'FINISH', 'TICK', 'FLUSH', 'STATUS', 'COMMENT', 'BAD']
    k = rng.choices(kinds, weights)[0]
    if k == 'NEW':
        return 'NEW %d %d' % (rng.randint(1, levels), rng.randint(1, 20))
    if k == 'UPGRADE':
        return 'UPGRADE %d %s' % (rng.randint(1, levels), ratio())
    if k == 'UNBLOCK':
        return 'UNBLOCK %s' % ratio()
    if k == 'TICK':
        return rng.choice(['TICK', 'TICK %d' % rng.randint(1, 12),
                           'TICK %d' % rng.randint(1, 40)])
    if k == 'COMMENT':
        return rng.choice(['', '# a comment', '   ', 'TICK 2 # two ticks',
                           '\tSTATUS'])
    if k == 'BAD':
        return bad_command(levels)
    return k


#          NEW UPG BLK UNB QEX FIN TICK FLU STA COM BAD
EVENTS =      [14, 4, 3, 3, 4, 4, 0, 1, 2, 1, 0]
TICKING =     [14, 4, 3, 3, 3, 3, 10, 1, 2, 1, 0]
WITH_ERRORS = [14, 4, 3, 3, 3, 3, 1, 1, 2, 1, 3]


def script(levels, n, weights, flush_end):
    lines = ['NEW %d %d' % (rng.randint(1, levels), rng.randint(1, 20))
             for _ in range(rng.randint(1, 4))]
    lines += [command(levels, weights) for _ in range(n)]
    if flush_end:
        lines.append(rng.choice(['FLUSH', 'STATUS\nFLUSH', 'FLUSH\nSTATUS']))
    return '\n'.join(lines) + '\n'


def options():
    opts = []
    levels = 3
    if rng.random() < 0.4:
        levels = rng.randint(2, 6)
        opts.append('-l %d' % levels)
    if rng.random() < 0.5:
        opts.append('-q %d' % rng.choice([1, 2, 3, 5, 8, 100]))
    if rng.random() < 0.25:
        opts.append('-a %d' % rng.choice([0, 1, 3, 5, 6, 15, 30]))
    r = rng.random()
    if r < 0.2:
        opts.append('-v')
    elif r < 0.35:
        opts.append('-s')
    rng.shuffle(opts)
    return ' '.join(opts), levels


FIXED = [
    ('', ''),
    ('', 'STATUS\n'),
    ('', 'FLUSH\nBLOCK\nUNBLOCK 0.5\nFINISH\nQUANTUM_EXPIRE\nTICK 3\n'),
    ('', 'NEW 1 3\nNEW 2 3\nNEW 3 3\nFLUSH\n'),
    ('', 'NEW 3 3\nNEW 2 3\nNEW 1 3\nTICK 100\n'),
    ('-v', 'NEW 1 5\nNEW 1 5\nNEW 1 5\nTICK 15\n'),
    ('-q 1 -v', 'NEW 2 3\nNEW 2 3\nTICK 6\n'),
    ('-q 2 -a 3 -v', 'NEW 1 4\nNEW 3 9\nTICK 12\nSTATUS\nFLUSH\n'),
    ('-a 0 -v', 'NEW 1 4\nNEW 3 9\nTICK 12\nSTATUS\nFLUSH\n'),
    ('-a 1 -v', 'NEW 1 2\nNEW 1 2\nNEW 2 5\nTICK 9\n'),
    ('-v', 'NEW 1 5\nNEW 1 6\nNEW 1 7\nUPGRADE 1 0\nUPGRADE 1 1\nUPGRADE 2 0.5\nSTATUS\nUPGRADE 3 0.5\nSTATUS\nFLUSH\n'),
    ('-v', 'NEW 2 5\nNEW 2 5\nBLOCK\nBLOCK\nSTATUS\nUNBLOCK 1\nSTATUS\nUNBLOCK 0\nFLUSH\n'),
    ('', 'NEW 1 5\nBLOCK\nFLUSH\nSTATUS\n'),
    ('', 'NEW 1 5\nBLOCK\nTICK 10\nUNBLOCK 0.3\nTICK 10\n'),
    ('-v', 'NEW 3 4\nNEW 3 4\nQUANTUM_EXPIRE\nSTATUS\nFINISH\nSTATUS\nFINISH\nSTATUS\n'),
    ('-l 2', 'NEW 3 4\nNEW 2 4\nUPGRADE 2 0\nFLUSH\n'),
    ('-l 6 -v', 'NEW 6 4\nNEW 5 4\nNEW 1 1\nUPGRADE 5 0\nSTATUS\nFLUSH\n'),
    ('-s', 'NEW 1 5\nNEW 2 5\nFLUSH\n'),
    ('-s', 'NEW 1 5\nNEW 2 5\nTICK 3\n'),
    ('', 'NEW 1 1\nTICK\nTICK\nSTATUS\n'),
    ('', 'TICK 5\nNEW 2 2\nTICK 5\nNEW 1 1\nFLUSH\n'),
    ('-q 100', 'NEW 1 50\nNEW 1 50\nTICK 60\nSTATUS\n'),
    ('', 'NEW 1 10000\nNEW 1 10001\nTICK 100000\nTICK 100001\n'),
    ('', 'NEW 2 3 # comment\n# only comment\n\n   \nFLUSH # end\n'),
    ('', 'NEW\t2\t3\r\nFLUSH\r\n'),
    ('', 'BOGUS\nNEW 1\nNEW a b\nUPGRADE 1 2\nUNBLOCK -1\nTICK 0\nFLUSH x y\n'),
    ('-q', ''),
    ('-q 0', ''),
    ('-q 1001', ''),
    ('-a -1', ''),
    ('-l 1', ''),
    ('-l 7', ''),
    ('-x', ''),
    ('-v -s', 'NEW 1 2\nNEW 3 1\nFLUSH\n'),
    ('-q 3 -a 2', 'NEW 1 6\nNEW 2 6\nNEW 3 6\nNEW 3 6\nTICK 40\n'),
    ('-q 4 -a 4 -l 4', 'NEW 1 9\nNEW 2 9\nNEW 3 9\nNEW 4 9\nTICK 10\nSTATUS\nTICK 10\nSTATUS\nFLUSH\n'),
]


def long_script():
    return ''.join('NEW %d %d\n' % (rng.randint(1, 3), rng.randint(1, 9))
                   for _ in range(1003)) + 'TICK 20\nFLUSH\n'


def make_tests():
    tests = list(FIXED)
    tests.append(('-s', long_script()))
    for _ in range(120):
        opts, levels = options()
        tests.append((opts, script(levels, rng.randint(3, 40), EVENTS,
                                   rng.random() < 0.7)))
    for _ in range(60):
        opts, levels = options()
        tests.append((opts, script(levels, rng.randint(3, 40), TICKING,
                                   rng.random() < 0.6)))
    for _ in range(50):
        opts, levels = options()
        tests.append((opts, script(levels, rng.randint(3, 25), WITH_ERRORS,
                                   rng.random() < 0.5)))
    for _ in range(20):
        opts, levels = options()
        tests.append((opts, script(levels, rng.randint(60, 120), TICKING,
                                   rng.random() < 0.5)))
    return tests


def write_pool(tests):
    inputs = os.path.join(HERE, 'inputs')
    shutil.rmtree(inputs, ignore_errors=True)
    os.makedirs(inputs)
    lines = []
    for i, (args, text) in enumerate(tests, 1):
        t = 't%03d' % i
        with open(os.path.join(inputs, t + '.in'), 'w', newline='') as f:
            f.write(text)
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
