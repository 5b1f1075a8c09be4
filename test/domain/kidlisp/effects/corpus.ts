/**
 * Programs for the whole-screen effects (`shear`, `sharpen`, `suck`, `sort`, `flip`, `noise`):
 * this runtime's goldens for them (corpus-golden.json, recorded at 64x64, 3 frames, seed 7
 * after looking at the pictures).
 */
export const effectsCorpus: { name: string; source: string }[] = [
  {
    name: 'shear',
    source:
      '(once (wipe navy) (ink yellow) (box 24 4 16 56) (ink red) (box 4 28 56 8)) (shear 0.25 0.1)',
  },
  {
    name: 'sharpen',
    source:
      '(wipe 60) (ink 200 120 40) (circle 32 32 16) (ink 40 40 200) (box 0 0 20 64) (blur 2) (sharpen 1)',
  },
  {
    name: 'suck',
    source:
      '(once (wipe black) (ink white) (repeat 8 i (box 0 (* i 8) 64 2)) (ink red) (box 28 0 8 64)) (suck 2)',
  },
  {
    name: 'blow-off-center',
    source:
      '(once (wipe black) (ink cyan) (repeat 8 i (box (* i 8) 0 2 64)) (ink orange) (circle 20 20 6)) (suck -1.5 20 20)',
  },
  {
    name: 'sort',
    source:
      '(once (wipe black) (ink red) (circle 20 20 12) (ink white) (box 36 36 20 20) (ink blue 128) (box 0 44 30 20)) (sort)',
  },
  {
    name: 'flip',
    source:
      '(once (wipe navy) (ink yellow) (box 0 0 20 10) (ink lime) (tri 40 50 60 60 40 60)) (flip)',
  },
  { name: 'noise', source: '(noise)' },
  { name: 'noise-digitpain', source: '(noise digitpain)' },
  { name: 'noise-aesthetic', source: '(noise "aesthetic")' },
  { name: 'noise-sotce', source: '(once (wipe navy)) (noise sotce)' },
];
