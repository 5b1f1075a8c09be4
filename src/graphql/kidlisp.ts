import { formatCount } from '../domain/format.js';
import type { KidlispDiagnostic, KidlispStats } from '../domain/kidlisp/index.js';
import { type KidlispPreview, previewKidlisp } from '../operations/kidlisp/preview-kidlisp.js';
import {
  type KidlispExample,
  TOP_KIDLISP_MAX,
  topKidlisp,
} from '../operations/kidlisp/top-kidlisp.js';
import { runOperation } from '../operations/operation.js';
import { KIDLISP_MAX } from '../operations/publish/inputs.js';
import { builder } from './builder.js';

const Severity = builder.enumType('KidlispSeverity', { values: ['error', 'warning'] as const });

const Diagnostic = builder.objectRef<KidlispDiagnostic>('KidlispDiagnostic').implement({
  description: 'An error or warning with its 1-based position.',
  fields: (t) => ({
    severity: t.field({ type: Severity, resolve: (item) => item.severity }),
    message: t.exposeString('message'),
    line: t.exposeInt('line'),
    column: t.exposeInt('column'),
  }),
});

const Stats = builder.objectRef<KidlispStats>('KidlispStats').implement({
  description: 'What the program uses.',
  fields: (t) => ({
    expressions: t.exposeInt('expressions', { description: 'Number of forms.' }),
    functionsUsed: t.exposeStringList('functions_used', {
      description: 'Sorted unique head words.',
    }),
    hasAnimation: t.exposeBoolean('has_animation'),
    hasInteraction: t.exposeBoolean('has_interaction'),
    hasWipe: t.exposeBoolean('has_wipe', { description: 'The program sets a background.' }),
    lines: t.exposeInt('lines'),
    embeds: t.exposeStringList('embeds', { description: 'Embedded $codes.' }),
    timingWords: t.exposeStringList('timing_words'),
    notDrawn: t.exposeStringList('not_drawn', {
      description:
        "Sorted unique words this service's viewer would not draw: built-ins it lacks, live input values that read as 0, #code paintings.",
    }),
  }),
});

const Preview = builder.objectRef<KidlispPreview>('KidlispPreview').implement({
  description: 'The result of checking KidLisp source without publishing it.',
  fields: (t) => ({
    valid: t.exposeBoolean('valid', { description: 'false when there is at least one error.' }),
    errors: t.exposeStringList('errors'),
    warnings: t.exposeStringList('warnings'),
    stats: t.field({ type: Stats, resolve: (preview) => preview.stats }),
    diagnostics: t.field({ type: [Diagnostic], resolve: (preview) => preview.diagnostics }),
  }),
});

const Example = builder.objectRef<KidlispExample>('KidlispExample').implement({
  description: 'A published KidLisp program.',
  fields: (t) => ({
    code: t.exposeString('code'),
    source: t.exposeString('source'),
    hits: t.exposeInt('hits', {
      description:
        'Distinct clients that published this source or read it through the API (each counts once).',
    }),
    url: t.exposeString('url'),
  }),
});

builder.queryFields((t) => ({
  previewKidlisp: t.field({
    type: Preview,
    description: `Checks KidLisp source (at most ${formatCount(KIDLISP_MAX)} characters) without publishing it.`,
    args: { source: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => runOperation(previewKidlisp, ctx, args),
  }),
  topKidlisp: t.field({
    type: [Example],
    description: `The most popular published KidLisp by hits (distinct clients), most first (limit 1..${TOP_KIDLISP_MAX}, default 5).`,
    args: { limit: t.arg.int() },
    resolve: (_root, args, ctx) => runOperation(topKidlisp, ctx, args),
  }),
}));
