import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Locator, Page } from 'playwright-core';

export type RGBA = [number, number, number, number];

/** A pixel of a `<canvas>` in the page, read by the page itself (the canvas is same-origin). */
export async function canvasPixel(
  page: Page,
  selector: string,
  x: number,
  y: number,
): Promise<RGBA> {
  return page.evaluate(
    ([selector, x, y]) => {
      const canvas = document.querySelector(selector as string) as HTMLCanvasElement;
      const data = canvas.getContext('2d')?.getImageData(x as number, y as number, 1, 1).data;
      return [data?.[0], data?.[1], data?.[2], data?.[3]] as [number, number, number, number];
    },
    [selector, x, y] as const,
  );
}

/** A pixel of a PNG (a thumbnail, a screenshot). */
export async function pngPixel(png: Buffer, x: number, y: number): Promise<RGBA> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(x, y, 1, 1).data;
  return [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0, data[3] ?? 0];
}

/**
 * A pixel of an element as the browser shows it (a screenshot), for what the page cannot read
 * itself, such as a cross-origin sandboxed frame. x and y are CSS pixels inside the element.
 */
export const shownPixel = async (element: Locator, x: number, y: number): Promise<RGBA> =>
  pngPixel(await element.screenshot(), x, y);

/** Within a small distance per channel (canvas color management and antialiasing). */
export const near = (actual: RGBA, expected: RGBA, tolerance = 8) =>
  actual.every((value, index) => Math.abs(value - (expected[index] ?? 0)) <= tolerance);
