/**
 * `#code` paintings for `stamp`, `paste`, `painting` and a bare `#code`: each code is asked of the
 * runtime's `loadPainting` once; until its pixels arrive the painting draws nothing (as embeds
 * do), and a code with no painting is named in the report while the program goes on.
 */
import type { PaintingLoader, PixelBlock } from './types.js';

type Teller = (kind: 'unsupported' | 'problem', entry: string) => void;

type Entry =
  | { status: 'loading' }
  | { status: 'ready'; pixels: PixelBlock }
  | { status: 'missing' };

const usable = (value: unknown): value is PixelBlock => {
  const block = value as PixelBlock | null | undefined;
  return (
    typeof block === 'object' &&
    block !== null &&
    Number.isInteger(block.width) &&
    Number.isInteger(block.height) &&
    block.width > 0 &&
    block.height > 0 &&
    block.data instanceof Uint8ClampedArray &&
    block.data.length === block.width * block.height * 4
  );
};

export class Paintings {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly load: PaintingLoader | undefined,
    private readonly tell: Teller,
  ) {}

  /** Resolves once every painting asked for so far has loaded (or failed). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** The pixels of `#code` when they are here; undefined while loading, missing or unavailable. */
  pixels(code: string): PixelBlock | undefined {
    const entry = this.entries.get(code) ?? this.start(code);
    return entry.status === 'ready' ? entry.pixels : undefined;
  }

  private start(code: string): Entry {
    if (this.load === undefined) {
      this.tell('unsupported', `${code} (paintings are not available here)`);
      const missing: Entry = { status: 'missing' };
      this.entries.set(code, missing);
      return missing;
    }
    const settle = (value: unknown): Entry => {
      const entry: Entry = usable(value)
        ? { status: 'ready', pixels: value }
        : { status: 'missing' };
      if (entry.status === 'missing')
        this.tell('problem', `${code}: no painting is published under this code; it is not drawn`);
      this.entries.set(code, entry);
      return entry;
    };
    const fail = (error: unknown): void => {
      this.entries.set(code, { status: 'missing' });
      this.tell('problem', `${code} could not be loaded (${String(error)}); it is not drawn`);
    };
    let answer: ReturnType<PaintingLoader>;
    try {
      answer = this.load(code.slice(1));
    } catch (error) {
      fail(error);
      return { status: 'missing' };
    }
    if (!(answer instanceof Promise)) return settle(answer);
    const loading: Entry = { status: 'loading' };
    this.entries.set(code, loading);
    const done = answer.then(
      (value) => {
        settle(value);
      },
      (error: unknown) => fail(error),
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
    return loading;
  }
}
