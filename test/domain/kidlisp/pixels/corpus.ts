/**
 * Programs that use every word the runtime draws, for the browser-equals-Node test, the
 * rasterizer's own goldens and the frame benchmark's corpus (bench/kidlisp-programs.ts holds the
 * timed copy with transforms every frame).
 */
export const drawingCorpus: { name: string; source: string }[] = [
  {
    name: 'lines',
    source:
      '(wipe 20 20 40) (ink white) (line 0 0 63 40) (ink red 128) (line 63 0 0 63) (ink lime) (line 5 60 60 50 4) (line 10 10 10 50) (line -20 30 90 30)',
  },
  {
    name: 'boxes',
    source:
      '(wipe navy) (ink yellow) (box 4 4 20 12) (box 30 4 20 12 outline) (box 4 24 20 12 inline:3) (ink red 120) (box 20 20 30 30) (box 50 40 -20 -10 fill*center)',
  },
  {
    name: 'circles',
    source:
      '(wipe 10 10 10) (ink cyan) (circle 16 16 12) (circle 46 16 12 outline) (ink orange 150) (oval 32 46 28 10) (oval 32 46 10 14 outline:2) (circle 62 62 30 outline)',
  },
  {
    name: 'shapes',
    source:
      '(wipe black) (ink lime 200) (tri 2 60 30 4 60 60) (ink magenta) (tri 10 10 20 12 15 25 outline) (ink white 150) (shape 5 5 60 10 50 50 20 40 10 30) (shape 30 30 40 35 35 45 outline)',
  },
  {
    name: 'points-and-text',
    source:
      '(wipe 40 0 40) (ink white) (repeat 20 i (point (* i 3) (* i 2))) (plot 63 63) (ink yellow) (write "Hi!" 2 2) (write "kid" 4 30 blue) (write "L" 40 20 nil 2)',
  },
  {
    name: 'erase',
    source: '(wipe white) (ink erase 200) (box 0 0 32 64) (ink erase) (circle 48 32 10)',
  },
  {
    name: 'colors-and-pixels',
    source:
      'fade:red-blue:vertical\n(ink rainbow) (box 0 0 16 16) (ink zebra) (box 16 0 16 16) (ink fade:lime-navy) (box 0 20 64 20) (coat black 64) (scroll 3 2) (zoom 1.2) (spin 10) (blur 1) (contrast 1.2) (invert)',
  },
];
