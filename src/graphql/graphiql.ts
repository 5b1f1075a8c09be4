import { Router } from 'express';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import type { Config } from '../config.js';
import { html, jsonForScript } from '../http/html/html.js';
import { cspHeader, graphiqlDirectives } from '../http/html/page-security.js';

export const GRAPHIQL_ASSETS = '/assets/graphiql';

/** Example operations GraphiQL opens with (when the browser has no saved tabs). */
const graphiqlDefaultQuery = `# Examples: the run button asks which one to run.

query ChatMessages {
  chatMessages(instance: system, last: 10) {
    edges {
      node { id from text when instance hearts }
    }
    pageInfo { hasPreviousPage startCursor }
  }
}

query Version {
  version
}

query Popular {
  published(sort: HITS, first: 10) {
    edges {
      node {
        kind code url hits author { handle }
        ... on KidlispItem { source }
        ... on ClockItem { source melody { valid tracks } }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}

mutation PublishKidlisp {
  publishKidlisp(source: "(wipe navy)\\n(ink yellow)\\n(circle 128 128 64)") { code url cached }
}

mutation PublishClock {
  publishClock(source: "{square} 5cdefg ceg") { code url cached }
}
`;

export const graphiqlOptions = (): GraphiQLOptions => ({
  title: 'GraphiQL: Publishing and Chat-Reading API',
  defaultQuery: graphiqlDefaultQuery,
});

/**
 * Yoga's GraphiQL page, with every asset from this origin (the stock page loads them from a
 * CDN): a stylesheet, the GraphiQL bundle, the options as JSON data, and a start script.
 */
export function renderLocalGraphiQL(options?: GraphiQLOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options?.title ?? 'GraphiQL'}</title>
<link rel="icon" href="${GRAPHIQL_ASSETS}/favicon.ico">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${jsonForScript(options ?? {})}</script>
<script src="/assets/graphiql-start.js"></script>
<script src="${GRAPHIQL_ASSETS}/yoga-graphiql.js"></script>
</body>
</html>
`.value;
}

/** Sets GraphiQL's own Content-Security-Policy on the page Yoga renders (and only on it). */
export function useGraphiqlSecurity(config: Pick<Config, 'publicUrl'>): Plugin {
  const policy = cspHeader(graphiqlDirectives(config));
  return {
    onResponse({ response }) {
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      response.headers.set('Content-Security-Policy', policy);
      response.headers.set('X-Content-Type-Options', 'nosniff');
      response.headers.set('X-Frame-Options', 'DENY');
      response.headers.set('Referrer-Policy', 'no-referrer');
    },
  };
}

type Assets = typeof import('@graphql-yoga/render-graphiql/graphiql');

const ASSET_FILES: Record<string, { type: string; body: (assets: Assets) => string | Buffer }> = {
  'yoga-graphiql.js': { type: 'text/javascript; charset=utf-8', body: (assets) => assets.js },
  'graphiql.css': { type: 'text/css; charset=utf-8', body: (assets) => assets.css },
  'editorWorkerService.worker.js': {
    type: 'text/javascript; charset=utf-8',
    body: (assets) => assets.editorWorkerService,
  },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', body: (assets) => assets.jsonWorker },
  'graphql.worker.js': {
    type: 'text/javascript; charset=utf-8',
    body: (assets) => assets.graphqlWorker,
  },
  'favicon.ico': {
    type: 'image/x-icon',
    body: (assets) => Buffer.from(assets.favicon.slice(assets.favicon.indexOf(',') + 1), 'base64'),
  },
};

/** GraphiQL's bundle, styles and editor workers, from the installed package (loaded on first use: ~9 MB). */
export function graphiqlAssetsRouter(): Router {
  const router = Router();
  let assets: Promise<Assets> | undefined;
  const bodies = new Map<string, string | Buffer>();
  router.get('/:file', async (req, res, next) => {
    const name = req.params.file;
    const file = ASSET_FILES[name];
    if (!file) return next();
    try {
      assets ??= import('@graphql-yoga/render-graphiql/graphiql');
      const loaded = await assets;
      const body = bodies.get(name) ?? file.body(loaded);
      bodies.set(name, body);
      res.type(file.type).set('Cache-Control', 'public, max-age=86400').send(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
