/** `service://kidlisp-reference`: a quick reference written from the language facts (docs/kidlisp.md). */
export const kidlispReference = `# KidLisp quick reference

KidLisp is a small Lisp for generative pictures. A program is a list of forms; the runtime
evaluates them every frame. Check a program with the \`preview_kidlisp\` tool, then publish it
with \`publish_kidlisp\` (at most 50,000 characters).

## Syntax

- \`(head arg arg ...)\` is a form. \`;\` starts a comment to the end of the line.
- Strings: \`"..."\` or \`'...'\`, with backslash escapes, on one line.
- Every other run of characters is one word: \`fade:red-blue\`, \`w/2\`, \`$roz\`, \`2s...\`, \`?\`.
- Numbers: \`10\`, \`-5\`, \`.5\`, \`1.25\`. Write \`(* 2 width)\`, not \`2*width\` (a word that starts
  with a digit reads as just that number).
- Infix shorthand inside a word: \`w/2\`, \`x-10\`, \`frame*3\`, \`i%4\` (the left side starts with a letter).
- Names for \`def\` and \`later\`: a letter, \`_\` or \`$\` first, then letters, digits, \`_\`.
  **No dashes**: \`my-var\` is subtraction; write \`my_var\`.
- There is no \`else\` in \`if\` (every form after the condition runs), and no \`cond\`, \`let\`,
  \`lambda\`, \`>=\`, \`<=\`, \`abs\`, \`sqrt\`, \`pow\`, \`tan\`, \`pi\`.

## Layout

- Several lines: a line that starts with a letter is wrapped in parens: \`ink red\` is \`(ink red)\`.
- One line with commas: each segment is a form: \`purple, ink, line, blur 5\`.
- A lone word (\`blue\`) is fine; other one-liners without parens or commas (and text that looks like random typing) are not run: they draw in chaos mode, a picture made from their letters.
- The first item may be a bare color, fade word or RGB triple: it sets the backdrop.
- An extra \`)\` makes the runtime discard the whole program; a missing \`)\` is closed for you.

## Timing

| word | meaning |
|---|---|
| \`(1s ...)\`, \`(0.5s ...)\` | run the body every N seconds |
| \`(2s... a b c)\` | cycle through the values every N seconds |
| \`(0.5s! ...)\` | timer variant |
| \`(3 ...)\` | run every 4th frame (integer head: every (n+1)th frame) |

There is no frame unit (\`5f\` is not a timing word).

## Colors

About 140 CSS names (\`red\`, \`salmon\`, \`lightsteelblue\`), indexed \`c0\`..\`c127\`, \`p0\` (rainbow),
\`p1\` (zebra), \`rainbow\`, \`zebra\`, \`erase\`, RGB(A) numbers \`(ink 255 0 0 128)\`, and fades
\`fade:red-blue[-...][:direction]\` (\`horizontal\`, \`vertical\`, \`diagonal\`, each with \`-reverse\`,
a number, or an expression such as \`frame\`). \`#rrggbb\` is not a color: \`#code\` is a painting.

## Functions

| group | words |
|---|---|
| definitions | \`def name value\`, \`now name value\`, \`die name\`, \`later name params... body\` |
| control | \`if cond body...\`, \`not cond body...\`, \`> < =\`, \`once\`, \`repeat\`/\`rep\`/\`bunch n [i] body...\` (n <= 10000), \`?\`/\`choose\`, \`...\`/\`..\`, \`yes\`, \`no\`, \`range a b c\`, \`delay secs action\`, \`hop secs a b\` |
| events | \`tap\`, \`draw\`, \`lift\` |
| screen | \`wipe\`, \`backdrop\`, \`coat color [alpha]\`, \`resolution\`, \`mask x y w h\`, \`unmask\`, \`steal\`, \`putback\`, \`bake\`, \`burn\`, \`fps\` |
| drawing | \`ink\`, \`line\`, \`lines\`, \`box\`, \`circle\`, \`oval\`, \`tri\`, \`point\`, \`plot\`, \`flood\`, \`shape\`, \`write\`, \`paste\`, \`stamp\`, \`painting\`, \`tape\`, \`fill\`, \`nofill\`, \`outline\`, \`stroke\`, \`nostroke\` |
| pixels | \`scroll\`, \`zoom\`, \`spin\`, \`smoothspin\`, \`resetSpin\`, \`suck\`, \`blur\`, \`sharpen\`, \`invert\`, \`contrast\`, \`flip\`, \`sort\`, \`pan\`, \`unpan\` |
| values | \`width\`/\`w\`, \`height\`/\`h\`, \`frame\`/\`f\`, \`clock\`, \`fps\`, \`amp\`, \`leftAmp\`, \`rightAmp\`, \`beat\`, \`kick\`, \`mic\`, \`paramA\`..\`paramC\`, \`down\`, \`penx\`, \`peny\`, \`dx\`/\`dy\` (a drag's movement inside \`draw\`) |
| math | \`+ - * /\`, \`%\`/\`mod\`, \`min\`, \`max\`, \`sin\`, \`cos\`, \`random\`, \`wiggle\`, \`floor\`, \`ceil\`, \`round\`, \`mul\` |
| audio | \`melody notes...\` (clock-melody notes, a plain note lasts 1 s; numbers are ignored), \`pluck\`/\`bell\`/\`sub\`/\`flute note [volume pan]\` (a note such as \`c4\`, \`f#3\`), \`hat [volume pan]\`, \`voice type note [volume pan beats]\`, \`overtone a b c\`, \`amplitude\`, \`speaker\`, \`mic\`, \`noise\` |
| embedding | \`($code [x y w h alpha])\`, \`embed\`, \`jump\`, \`cache $code\` |
| 3D and turtle | \`cube\`, \`quad\`, \`trans\`, \`form\`, \`cubespin\`, \`cubepos\`, \`cubescale\`, \`cuberot\`, \`crawl\`, \`left\`, \`right\`, \`up\`, \`goto\`, \`face\` |
| text | \`flow\`, \`heading\`, \`paragraph\`, \`link\`, \`fetch\`, \`get\`, \`listen\` |
| utility | \`debug\`, \`log\`, \`source\`, \`perf\`, \`label\`, \`len\`, \`ready?\` |

Shapes take an optional mode \`"fill"\`, \`"outline"\` or \`"outline:N"\`; missing coordinates are
random, so \`(line)\` and \`(box)\` are valid.

## Examples

    purple, ink, line, blur 5

    fade:red-blue-black-blue-red
    ink (? rainbow white 0) (1s... 24 64)
    line w/2 0 w/2 h
    (spin (2s... -1.125 1.125)) (zoom 1.1)

    black
    (later cross x y (line x-10 y-10 x+10 y+10))
    (repeat 8 i (ink rainbow) (cross (* i 16) 32))

## Good habits

1. Start with a background: a bare color on the first line, or \`(wipe color)\`.
2. Feedback loops (\`scroll\`, \`zoom\`, \`spin\`, \`blur\` without \`wipe\`) make rich motion from little code.
3. \`?\` picks at random; \`(1s... a b c)\` cycles; mix timers of different speeds.
4. Use underscores in names, never dashes.
5. Keep it short, and run \`preview_kidlisp\` before publishing.
`;
