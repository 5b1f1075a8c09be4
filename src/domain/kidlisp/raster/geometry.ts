/**
 * Which pixels a shape covers, in the order the reference rasterizer (graph.mjs) visits them, so
 * that overlapping visits blend the same number of times. Each function calls `visit(x, y)`; the
 * caller clips. Work is bounded by the screen (`Bounds`): rows and spans wholly off it are
 * skipped, so a shape a billion pixels wide costs what its visible part costs.
 */
export type Visit = (x: number, y: number) => void;

/** The screen: visible pixels are 0 <= x < width, 0 <= y < height. */
export interface Bounds {
  width: number;
  height: number;
}

/**
 * How far outside the screen a line's ends are followed step by step (the reference's own gate
 * keeps coordinates within ±8192). Longer lines are first cut to this margin, so their pixels can
 * differ from the reference's by the rounding of the cut.
 */
export const LINE_MARGIN = 8192;

/** Liang-Barsky: the part of a segment inside the rectangle, or undefined when none is. */
function clipSegment(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  [left, top, right, bottom]: readonly [number, number, number, number],
): [number, number, number, number] | undefined {
  let t0 = 0;
  let t1 = 1;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const edges: [number, number][] = [
    [-dx, x0 - left],
    [dx, right - x0],
    [-dy, y0 - top],
    [dy, bottom - y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return undefined;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return undefined;
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}

/** Bresenham's line (below), cut first when an end lies beyond `LINE_MARGIN` of the screen. */
export function boundedLine(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  bounds: Bounds,
  visit: Visit,
): void {
  const m = LINE_MARGIN;
  const box = [-m, -m, bounds.width + m, bounds.height + m] as const;
  const outside = (x: number, y: number) =>
    !(x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]);
  if (!outside(x0, y0) && !outside(x1, y1)) {
    bresenham(x0, y0, x1, y1, visit);
    return;
  }
  const cut = clipSegment(x0, y0, x1, y1, box);
  if (cut === undefined || cut.some((n) => !Number.isFinite(n))) return;
  if (outside(cut[0], cut[1]) && outside(cut[2], cut[3]) && cut.some((n) => Math.abs(n) > 1e7))
    return;
  bresenham(cut[0], cut[1], cut[2], cut[3], visit);
}

const toInt = (n: number): number => Math.floor(n) || 0;

/** Bresenham's line from (x0, y0) to (x1, y1), both ends included, coordinates floored. */
export function bresenham(ax: number, ay: number, bx: number, by: number, visit: Visit): void {
  let x0 = toInt(ax);
  let y0 = toInt(ay);
  const x1 = toInt(bx);
  const y1 = toInt(by);
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    visit(x0, y0);
    if (x0 === x1 && y0 === y1) return;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

/** Radii above this are outlined as 18-cornered polygons instead (the midpoint loop is O(r)). */
export const MAX_MIDPOINT_RADIUS = 65536;

/**
 * The midpoint circle of radius floor(r) about (floor(cx), floor(cy)), one pixel wide. A circle
 * that misses the screen, or holds all of it inside, draws nothing and costs nothing. Radii above
 * `MAX_MIDPOINT_RADIUS` are the caller's to draw another way.
 */
export function circleOutline(
  cx: number,
  cy: number,
  r: number,
  bounds: Bounds,
  visit: Visit,
): void {
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const radius = Math.floor(r);
  const nearX = Math.max(0, Math.min(x0, bounds.width - 1));
  const nearY = Math.max(0, Math.min(y0, bounds.height - 1));
  const far = Math.hypot(Math.max(x0, bounds.width - 1 - x0), Math.max(y0, bounds.height - 1 - y0));
  if (!(radius >= 0) || Math.hypot(nearX - x0, nearY - y0) > radius + 1 || far < radius - 1) return;
  let f = 1 - radius;
  let ddx = 0;
  let ddy = -2 * radius;
  let x = 0;
  let y = radius;
  visit(x0, y0 + radius);
  visit(x0, y0 - radius);
  visit(x0 + radius, y0);
  visit(x0 - radius, y0);
  while (x < y) {
    if (f >= 0) {
      y -= 1;
      ddy += 2;
      f += ddy;
    }
    x += 1;
    ddx += 2;
    f += ddx + 1;
    visit(x0 + x, y0 + y);
    visit(x0 - x, y0 + y);
    visit(x0 + x, y0 - y);
    visit(x0 - x, y0 - y);
    visit(x0 + y, y0 + x);
    visit(x0 - y, y0 + x);
    visit(x0 + y, y0 - x);
    visit(x0 - y, y0 - x);
  }
}

/** Corners of an ellipse every `stepDegrees` degrees from 0 (the reference uses 20). */
export function ellipsePoints(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  stepDegrees = 20,
): number[] {
  const points: number[] = [];
  for (let degrees = 0; degrees < 360; degrees += stepDegrees) {
    const angle = degrees * (Math.PI / 180);
    points.push(cx + rx * Math.cos(angle), cy + ry * Math.sin(angle));
  }
  return points;
}

/**
 * Scanline fill of a polygon given as x0, y0, x1, y1, ...: rows from the lowest y in steps of 1
 * while at most the highest; spans from floor of one crossing to before ceil of the next.
 */
export function fillPolygon(points: readonly number[], bounds: Bounds, visit: Visit): void {
  const count = Math.floor(points.length / 2);
  if (count === 0) return;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const y = points[i * 2 + 1] as number;
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  if (!Number.isFinite(minY) || !Number.isFinite(maxY)) return;
  const crossings: number[] = [];
  // Rows above the screen are skipped: stepped one by one when few (so row positions round as
  // the reference's do), jumped over when many.
  let start = minY;
  if (start < -65536) start += Math.floor(-65536 - start);
  while (start < -1) start++;
  const last = Math.min(maxY, bounds.height);
  for (let y = start; y <= last; y++) {
    crossings.length = 0;
    for (let i = 0; i < count; i++) {
      const ax = points[i * 2] as number;
      const ay = points[i * 2 + 1] as number;
      const j = (i + 1) % count;
      const bx = points[j * 2] as number;
      const by = points[j * 2 + 1] as number;
      if ((ay <= y && y < by) || (by <= y && y < ay)) {
        crossings.push(((y - ay) * (bx - ax)) / (by - ay) + ax);
      }
    }
    crossings.sort((a, b) => a - b);
    const row = Math.floor(y);
    if (row < 0) continue;
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const end = Math.min(bounds.width, Math.ceil(crossings[i + 1] as number));
      for (let x = Math.max(-1, Math.floor(crossings[i] as number)); x < end; x++) visit(x, row);
    }
  }
}

/**
 * A filled triangle as the reference's `fillTri` scans it: vertices sorted by y, edge x positions
 * stepped down each edge and floored, rows from the top vertex's y to before the bottom one's.
 */
export function fillTriangle(points: readonly number[], bounds: Bounds, visit: Visit): void {
  const vertices: [number, number][] = [
    [points[0] ?? 0, points[1] ?? 0],
    [points[2] ?? 0, points[3] ?? 0],
    [points[4] ?? 0, points[5] ?? 0],
  ];
  const lowest = (axis: 0 | 1) => Math.min(...vertices.map((v) => v[axis]));
  const highest = (axis: 0 | 1) => Math.max(...vertices.map((v) => v[axis]));
  // A huge triangle is filled as a polygon, whose work stops at the screen's edges.
  if (!(highest(0) - lowest(0) <= 65536 && highest(1) - lowest(1) <= 65536)) {
    fillPolygon(points.slice(0, 6), bounds, visit);
    return;
  }
  // Wholly off the screen it draws nothing; far off, past 2^53, a step of 1 would never end.
  if (highest(0) < -2 || lowest(0) > bounds.width + 2) return;
  if (highest(1) < -2 || lowest(1) > bounds.height + 2) return;
  vertices.sort((a, b) => a[1] - b[1]);
  const [top, mid, bottom] = vertices as [[number, number], [number, number], [number, number]];
  const cross = (bottom[0] - top[0]) * (mid[1] - top[1]) - (mid[0] - top[0]) * (bottom[1] - top[1]);
  const side = cross > 0 ? 1 : cross < 0 ? 0 : -1;
  const scan = new Map<number, number>();
  const edge = (from: [number, number], to: [number, number], slot: number): void => {
    const rows = to[1] - from[1];
    if (rows <= 0) return;
    const step = (to[0] - from[0]) / rows;
    let x = from[0];
    for (let y = from[1]; y < to[1]; y += 1) {
      scan.set(y * 2 + slot, Math.floor(x));
      x += step;
    }
  };
  edge(top, bottom, side);
  edge(top, mid, 1 - side);
  edge(mid, bottom, 1 - side);
  for (let y = top[1]; y < bottom[1]; y += 1) {
    const start = scan.get(y * 2);
    const end = scan.get(y * 2 + 1);
    if (start === undefined || end === undefined) continue;
    for (let x = start; x < end; x += 1) visit(x, y);
  }
}
