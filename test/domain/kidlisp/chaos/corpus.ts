/**
 * One source for each of chaos mode's six pictures (the source's hash picks it), among them the
 * three one-word works of the reference's most-viewed list (`kidlisp` $nsh, `chat` $9ay,
 * `prompt` $o6p); their goldens are in chaos-golden.json, recorded from this runtime.
 */
export const chaosCorpus: { name: string; source: string; picture: number }[] = [
  { name: 'kidlisp', source: 'kidlisp', picture: 0 },
  { name: 'banana', source: 'banana', picture: 1 },
  { name: 'chat', source: 'chat', picture: 2 },
  { name: 'prompt', source: 'prompt', picture: 2 },
  { name: 'butterfly', source: 'butterfly', picture: 3 },
  { name: 'hello', source: 'hello', picture: 4 },
  { name: 'wipe-blue', source: 'wipe blue', picture: 5 },
];
