"""subject_pool.py - what every subject's tests/generate.py shares: build the
correct version of the subject and record, for each manifest line, the
expected stdout (tests/expected/TEST.out) and, when it is not 0, the expected
exit status (tests/expected/TEST.exit); and, for the subjects whose tests are
stdin bodies (ds-*), writing those bodies as the pool."""
import os
import shutil
import subprocess
import tempfile


def record_expected(subject_dir, name, manifest_lines):
    """Runs every `TEST: COMMAND` line against a fresh build of subject_dir/src."""
    tests_dir = os.path.join(subject_dir, 'tests')
    expected = os.path.join(tests_dir, 'expected')
    shutil.rmtree(expected, ignore_errors=True)
    os.makedirs(expected)
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(subject_dir, 'src')
        sources = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith('.c'))
        # include/ of the repository: the subjects with specifications use <culprit/contract.h>
        include = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                               'include')
        subprocess.run(['cc', '-std=c11', '-O0', '-I' + include, '-o', os.path.join(tmp, name)] + sources +
                       ['-lm'], check=True)
        os.symlink(tests_dir, os.path.join(tmp, 'tests'))  # commands use tests/inputs/...
        for line in manifest_lines:
            test, command = line.rstrip('\n').split(':', 1)
            run = subprocess.run(['sh', '-c', command], cwd=tmp, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10)
            with open(os.path.join(expected, test + '.out'), 'wb') as f:
                f.write(run.stdout)
            if run.returncode != 0:
                with open(os.path.join(expected, test + '.exit'), 'w') as f:
                    f.write('%d\n' % run.returncode)
    finally:
        shutil.rmtree(tmp)


def write_stdin_pool(subject_dir, name, bodies):
    """Writes body i as tests/inputs/tNNN.in (the directory emptied first), a
    manifest line `tNNN: ./NAME < tests/inputs/tNNN.in` for each, and their
    expected outputs (record_expected)."""
    inputs = os.path.join(subject_dir, 'tests', 'inputs')
    os.makedirs(inputs, exist_ok=True)
    for f in os.listdir(inputs):
        os.remove(os.path.join(inputs, f))
    lines = []
    for i, body in enumerate(bodies, 1):
        test = 't%03d' % i
        with open(os.path.join(inputs, test + '.in'), 'w') as f:
            f.write(body)
        lines.append('%s: ./%s < tests/inputs/%s.in' % (test, name, test))
    with open(os.path.join(subject_dir, 'tests', 'manifest.txt'), 'w') as f:
        f.write(''.join(line + '\n' for line in lines))
    record_expected(subject_dir, name, lines)
