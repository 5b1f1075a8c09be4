import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { embeddedDataDir } from '../db/embedded/location.js';
import { type EmbedSources, embedCodesOf, resolveEmbeds } from '../domain/kidlisp/embed-closure.js';
import {
  frameStream,
  type RenderedFrame,
  type RenderSpec,
} from '../domain/kidlisp/render/frames.js';
import { encodeGif } from '../domain/kidlisp/render/gif.js';
import { encodePng } from '../domain/kidlisp/render/png.js';
import { type RenderOverrides, readRenderSpec } from '../domain/kidlisp/render/spec.js';
import { describeReport, type RuntimeReport } from '../domain/kidlisp/runtime/index.js';
import { parseCommandArgs, UsageError, usageError } from './usage-error.js';

export const kidlispUsage = `Usage: publish-gateway kidlisp render <program.lisp | fixture.json> [options] <output>

Draws a KidLisp program with the runtime's own rasterizer, the same bytes as the player.

Output (exactly one):
  --out DIR       one PNG a frame: DIR/frame-000.png, frame-001.png, ...
  --gif FILE      an animated GIF of the frames
  --sha256        one line a frame: the hex SHA-256 of its raw RGBA bytes (width x height x 4)

Options (a fixture file's own fields are used when an option is not given):
  --width W       1..2048 (default 256)
  --height H      1..2048 (default 256)
  --frames N      1..100000 (default 1)
  --seed S        0..4294967295, the seed of random, ?, (box) ... (default 0)
  --step-ms MS    milliseconds between frames (default 1000/60)
  --epoch-ms MS   the clock at frame 0, ms since 1970 (default 0)

A fixture file is JSON: {source, width, height, frames, seed, epochMs?, stepMs?, events?}.
Each event arrives before its frame: {frame, type: "touch" | "draw" | "lift", x, y, dx?, dy?}
for the pointer (dx/dy default to the movement since the last event), or
{frame, type: "keydown" | "keyup", key} for a key (Enter/Space press and release the pen
where it is, the arrow keys move it a pixel). Sound words run silently.

After the frames, what the viewer's notice would say is written to stderr, one line each (words
not drawn, problems); the exit status stays 0.

$code embeds are loaded from the service's database when there is one: MONGODB_URI is set, or
DATA_DIR/db already exists (a database is never created for this). Without one they are named
as not available here. #code paintings are named as not found.
`;

/** Bad input: one line, exit status 2. */
const bad = (message: string) => new UsageError(`kidlisp render: ${message}`);

export async function kidlispCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, kidlispUsage, {
    out: { type: 'string' },
    gif: { type: 'string' },
    sha256: { type: 'boolean' },
    width: { type: 'string' },
    height: { type: 'string' },
    frames: { type: 'string' },
    seed: { type: 'string' },
    'step-ms': { type: 'string' },
    'epoch-ms': { type: 'string' },
  });
  if (!args) return;
  const { values } = args;
  const [action, ...positionals] = args.positionals;
  if (action !== 'render')
    throw usageError(
      action === undefined ? 'Name a kidlisp command.' : `Unknown kidlisp command: ${action}.`,
      kidlispUsage,
    );
  const outputs = [values.out, values.gif, values.sha256 ? true : undefined].filter(
    (output) => output !== undefined,
  );
  if (outputs.length !== 1) throw bad('give exactly one of --out DIR, --gif FILE, --sha256');
  if (positionals.length !== 1) throw bad('give one program file (.lisp) or fixture file (.json)');
  const file = positionals[0] as string;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw bad(
      `cannot read ${file}${code === 'ENOENT' ? ': no such file' : ` (${code ?? 'error'})`}`,
    );
  }
  const overrides: RenderOverrides = {
    width: values.width,
    height: values.height,
    frames: values.frames,
    seed: values.seed,
    stepMs: values['step-ms'],
    epochMs: values['epoch-ms'],
  };
  const spec = readRenderSpec(file, text, overrides);
  if (!spec.ok) throw bad(spec.message);
  const embeds = await embedsFromDatabase(spec.spec.source);
  await write(embeds === undefined ? spec.spec : { ...spec.spec, embeds }, values);
}

/** The program's embeds from the service's database; undefined when there is no database here. */
async function embedsFromDatabase(source: string): Promise<EmbedSources | undefined> {
  if (embedCodesOf(source).length === 0) return undefined;
  const config = loadConfig();
  if (!config.mongodbUri && !existsSync(embeddedDataDir(config.dataDir))) return undefined;
  const { connectForCommand } = await import('./connect.js');
  const { db, close } = await connectForCommand(config);
  try {
    return await resolveEmbeds(source, async (code) => {
      const record = await db.kidlisp.findOne({ code }, { projection: { source: 1 } });
      return record ? (record.source ?? '') : null;
    });
  } finally {
    await close();
  }
}

/** The frames one by one, and the runtime's report once they are all drawn. */
function framesOf(spec: RenderSpec): { frames: Generator<RenderedFrame>; report(): RuntimeReport } {
  const stream = frameStream(spec);
  let report: RuntimeReport = { unsupported: [], unknown: [], problems: [] };
  const frames = (function* () {
    for (let next = stream.next(); ; next = stream.next()) {
      if (next.done === true) {
        report = next.value;
        return;
      }
      yield next.value;
    }
  })();
  return { frames, report: () => report };
}

async function write(spec: RenderSpec, values: { out?: string; gif?: string }): Promise<void> {
  const { frames, report } = framesOf(spec);
  if (values.out !== undefined) {
    await mkdir(values.out, { recursive: true });
    for (const frame of frames) {
      const name = `frame-${String(frame.frame).padStart(3, '0')}.png`;
      await writeFile(join(values.out, name), encodePng(frame.rgba, spec.width, spec.height));
    }
  } else if (values.gif !== undefined) {
    const rgba = (function* () {
      for (const frame of frames) yield frame.rgba;
    })();
    await writeFile(values.gif, encodeGif(rgba, spec.width, spec.height, spec.stepMs ?? 1000 / 60));
  } else {
    for (const frame of frames) {
      process.stdout.write(`${createHash('sha256').update(frame.rgba).digest('hex')}\n`);
    }
  }
  for (const line of describeReport(report())) process.stderr.write(`${line}\n`);
}
