/** `service://piece-template`: a piece module with all four lifecycle functions. */
export function pieceTemplate(today: Date = new Date()): string {
  const date = today.toISOString().slice(0, 10).replaceAll('-', '.');
  return `// my-piece, ${date}
// A piece is an ES module. The runtime calls the functions it exports:
// boot once, then sim at a fixed rate, paint every frame, and act on every event.

let x = 0;
let y = 0;
let size = 32;

// Runs once, before the first frame. Set up state here.
export function boot({ screen }) {
  x = screen.width / 2;
  y = screen.height / 2;
}

// Runs at a fixed rate (120 times a second): logic, movement, timers.
export function sim({ screen }) {
  size = 24 + 8 * Math.sin(Date.now() / 400);
  x = Math.min(Math.max(x, 0), screen.width);
  y = Math.min(Math.max(y, 0), screen.height);
}

// Runs every frame: draw here. Work at any resolution through screen.width and screen.height.
export function paint({ wipe, ink, box, line, screen }) {
  wipe("black");
  ink("red");
  box(x - size / 2, y - size / 2, size, size);
  ink("white");
  line(0, screen.height / 2, screen.width, screen.height / 2);
}

// Runs on every input event: touch, draw (drag), lift, keys.
export function act({ event: e }) {
  if (e.is("touch") || e.is("draw")) {
    x = e.x;
    y = e.y;
  }
  if (e.is("lift")) size = 32;
}
`;
}
