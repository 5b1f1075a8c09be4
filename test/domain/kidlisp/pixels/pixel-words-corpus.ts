/**
 * A fixture program for each pixel word (`flood`, `mask`/`unmask`, `pan`/`unpan`,
 * `steal`/`putback`, `lines`, `poly`, `pline`, `resolution`, `len`, `label`, `range`): their goldens are in
 * pixel-words-golden.json, recorded from this runtime after looking at each picture.
 */
export const pixelWordsCorpus: { name: string; source: string }[] = [
  {
    name: 'flood',
    source:
      '(wipe white) (ink black) (circle 32 32 20 outline) (line 0 10 63 10) (flood 32 32 red) (ink blue 128) (flood 2 2) (flood 60 60 lime)',
  },
  {
    name: 'flood-fade-in-mask',
    source:
      '(wipe black) (ink white) (box 8 8 48 48 outline) (mask 0 0 32 64) (ink fade:red-yellow) (flood 30 30) (unmask) (flood 1 1 c3)',
  },
  {
    name: 'mask',
    source:
      '(wipe gray) (mask 10 10 30 20) (wipe navy) (ink yellow) (circle 20 20 15) (ink red) (line 0 0 63 63) (ink white) (write "Hi" 2 14) (unmask) (ink lime) (box 50 50 10 10)',
  },
  {
    name: 'masked-transforms',
    source:
      '(once (wipe navy) (ink yellow) (repeat 8 i (box (* i 8) 0 4 64)) (ink white) (box 40 20 6 6))\n(mask 16 16 32 32) (scroll 3 2) (spin 1) (zoom 1.05) (blur 1) (contrast 1.2) (invert) (unmask)',
  },
  {
    name: 'pan',
    source:
      '(wipe black) (ink white) (box 0 0 10 10) (pan 20 5) (ink red) (box 0 0 10 10) (circle 10 30 5) (tri 0 40 10 40 5 50) (write "P" 30 40) (pan 10) (ink lime) (line 0 0 20 0) (unpan) (ink blue) (box 0 50 10 10)',
  },
  {
    name: 'steal-putback',
    source:
      '(wipe navy) (ink yellow) (circle 12 12 8) (steal 0 0 24 24) (putback 30 30) (ink red 100) (box 0 0 64 4) (putback 40 0)',
  },
  {
    name: 'lines-poly-pline',
    source:
      '(wipe black) (ink cyan) (lines 0 0 63 20 0 63 63 40) (ink yellow) (poly 5 5 30 50 55 5) (ink magenta 180) (pline 5 60 30 30 60 60 4) (ink white) (lines (10 10 20 10) (10 12 20 12))',
  },
  {
    name: 'resolution',
    source:
      '(resolution 16 8) (wipe navy) (ink yellow) (circle 8 4 3) (ink red) (line 0 7 15 0) (ink white) (point (- w 1) (- h 1))',
  },
  {
    name: 'resolution-half',
    source:
      '(resolution half) (wipe navy) (ink yellow) (circle (/ w 2) (/ h 2) 8) (ink white) (write w 0 0)',
  },
  {
    name: 'len-label-range',
    source:
      '(wipe (* 20 (len "hello")) 0 (* 40 (len 123))) (ink white) (write (label "hi") 2 2) (write (len (range 5 0 2)) 2 20)',
  },
];
