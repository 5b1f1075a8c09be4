import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputReplays } from '../domain/kidlisp/input/replays.js';
import { requireBuiltCli } from '../support/processes.js';

// The reference's exact CPU pixel gate, copied into test/domain/kidlisp/pixels/reference/ (its
// README names the source: whistlegraph/aesthetic-computer, kidlisp/conformance/ at commit
// 7d012e4c4b3d6bde52111ab4230e5686125f9ddb).
const REFERENCE = fileURLToPath(new URL('../domain/kidlisp/pixels/reference/', import.meta.url));

interface Golden {
  fixtures: Record<string, string[]>;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [requireBuiltCli(), 'kidlisp', ...args],
      { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const sha = (bytes: Uint8Array | Uint8ClampedArray) =>
  createHash('sha256').update(bytes).digest('hex');

/** Decodes a PNG or GIF (its first frame) with Skia, an independent decoder. */
async function decode(file: Buffer, width: number, height: number): Promise<Uint8ClampedArray> {
  const image = await loadImage(file);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, width, height).data;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kidlisp-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('publish-gateway kidlisp render --sha256: the reference pixel gate', () => {
  it('draws every frame of the five reference fixtures to its golden hash (32 frames)', async () => {
    const golden = JSON.parse(
      await readFile(join(REFERENCE, 'golden-hashes.json'), 'utf8'),
    ) as Golden;
    const names = Object.keys(golden.fixtures).sort();
    expect(names).toEqual([
      'accumulation.json',
      'alpha.json',
      'clock-input.json',
      'primitives.json',
      'random.json',
    ]);
    let compared = 0;
    for (const name of names) {
      const ran = await cli(['render', join(REFERENCE, name), '--sha256']);
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      const hashes = ran.stdout.trim().split('\n');
      expect(hashes, name).toEqual(golden.fixtures[name]);
      compared += hashes.length;
    }
    expect(compared).toBe(32);
  });

  it('lets options override the fixture: more frames, another seed', async () => {
    const fixture = join(REFERENCE, 'random.json');
    const golden = JSON.parse(
      await readFile(join(REFERENCE, 'golden-hashes.json'), 'utf8'),
    ) as Golden;
    const longer = await cli(['render', fixture, '--sha256', '--frames', '10']);
    expect(longer.stdout.trim().split('\n')).toHaveLength(10);
    expect(longer.stdout.trim().split('\n').slice(0, 8)).toEqual(golden.fixtures['random.json']);
    const reseeded = await cli(['render', fixture, '--sha256', '--seed', '43', '--frames', '1']);
    expect(reseeded.stdout.trim()).not.toBe(golden.fixtures['random.json']?.[0]);
  });
});

describe('publish-gateway kidlisp render --out and --gif', () => {
  const program = '(wipe navy) (ink yellow) (circle 16 16 10) (ink red 128) (box frame 4 12 12)';

  it('writes one PNG a frame holding exactly the frame hashed by --sha256', async () => {
    const file = join(dir, 'program.lisp');
    await writeFile(file, program);
    const size = ['--width', '40', '--height', '30', '--frames', '3'];
    const hashes = (await cli(['render', file, ...size, '--sha256'])).stdout.trim().split('\n');
    const out = join(dir, 'frames');
    const ran = await cli(['render', file, ...size, '--out', out]);
    expect(ran.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      'frame-000.png',
      'frame-001.png',
      'frame-002.png',
    ]);
    for (const [index, hash] of hashes.entries()) {
      const png = await readFile(join(out, `frame-00${index}.png`));
      expect(sha(await decode(png, 40, 30))).toBe(hash);
    }
  });

  it('names on stderr what the notice would say: a #code painting is not found here', async () => {
    const file = join(dir, 'stamps.lisp');
    await writeFile(file, '(wipe navy) (bake) (stamp #abc 8 8) (ink red) (box 0 0 4 4)');
    const ran = await cli(['render', file, '--width', '16', '--height', '16', '--sha256']);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).toBe('#abc: no painting is published under this code; it is not drawn\n');
  });

  it('writes an animated GIF whose first frame shows the first frame', async () => {
    const file = join(dir, 'gif.lisp');
    await writeFile(file, program);
    const size = ['--width', '40', '--height', '30', '--frames', '4'];
    const gif = join(dir, 'program.gif');
    expect((await cli(['render', file, ...size, '--gif', gif])).code).toBe(0);
    const bytes = await readFile(gif);
    expect(bytes.subarray(0, 6).toString('ascii')).toBe('GIF89a');
    const first = (await cli(['render', file, ...size, '--frames', '1', '--sha256'])).stdout.trim();
    expect(sha(await decode(bytes, 40, 30))).toBe(first);
  });
});

describe('publish-gateway kidlisp render: pointer and key events in a fixture', () => {
  it('replays the input fixtures (keys included) to the goldens of the in-process renderer', async () => {
    const golden = JSON.parse(
      await readFile(
        new URL('../domain/kidlisp/input/replays-golden.json', import.meta.url),
        'utf8',
      ),
    ) as { hashes: Record<string, string[]> };
    for (const spec of inputReplays) {
      const file = join(dir, `${spec.name}.json`);
      await writeFile(file, JSON.stringify(spec));
      const ran = await cli(['render', file, '--sha256']);
      expect(ran.stderr, spec.name).toBe('');
      expect(ran.stdout.trim().split('\n'), spec.name).toEqual(golden.hashes[spec.name]);
    }
  });

  it.each([
    [{ frame: 0, type: 'keydown' }, /events\[0\]\.key must be a key name such as "Enter"/],
    [
      { frame: 0, type: 'press', key: 'Enter' },
      /events\[0\]\.type must be "touch", "draw", "lift", "keydown" or "keyup"/,
    ],
    [{ frame: 0, type: 'draw', x: 1, y: 2, dx: 'left' }, /events\[0\]\.dx must be a number/],
  ])('refuses the event %j with one clear line', async (event, message) => {
    const file = join(dir, 'bad-event.json');
    await writeFile(file, JSON.stringify({ source: '(wipe red)', events: [event] }));
    const ran = await cli(['render', file, '--sha256']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('publish-gateway kidlisp render: bad input', () => {
  it.each([
    [
      ['render', '/no/such/program.lisp', '--sha256'],
      /cannot read \/no\/such\/program\.lisp: no such file/,
    ],
    [['render', 'BROKEN_JSON', '--sha256'], /is not valid JSON/],
    [
      ['render', 'PROGRAM', '--sha256', '--width', '4096'],
      /width must be a whole number from 1 to 2048/,
    ],
    [['render', 'PROGRAM', '--sha256', '--frames', 'many'], /frames must be a whole number/],
    [['render', 'PROGRAM'], /exactly one of --out DIR, --gif FILE, --sha256/],
    [['render', 'PROGRAM', '--sha256', '--gif', 'x.gif'], /exactly one of/],
  ])('%j: one clear line, exit status 2', async (args, message) => {
    const program = join(dir, 'ok.lisp');
    const broken = join(dir, 'broken.json');
    await writeFile(program, '(wipe red)');
    await writeFile(broken, '{"source": "(wipe red)"');
    const real = args.map((arg) =>
      arg === 'PROGRAM' ? program : arg === 'BROKEN_JSON' ? broken : arg,
    );
    const ran = await cli(real);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['render', '--sha256', '--colour', 'red'], "Unknown option '--colour'."],
    [['paint'], 'Unknown kidlisp command: paint.'],
  ])('%j: one line naming the mistake, then the usage, exit status 2', async (args, line) => {
    const [ran, help] = [await cli(args), await cli(['--help'])];
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toBe(`${line}\n\n${help.stdout}`);
  });

  it('prints its usage and exits 0 when asked for --help', async () => {
    for (const args of [['render', '--help'], ['--help']]) {
      const ran = await cli(args);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(
        /Usage: publish-gateway kidlisp render <program\.lisp \| fixture\.json>/,
      );
    }
  });
});
